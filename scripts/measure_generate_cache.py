#!/usr/bin/env python3
"""Measures the decode-phase allocated peak of transformers' generate() before and after the Cache classes.

Issue #36 item 3. transformers up to 4.35 passed the KV cache as a tuple of per-layer (key, value)
tensors: every decode step's attention concatenated the new token onto the old tensors
(modeling_llama.py at 4.35.2: key_states = torch.cat([past_key_value[0], key_states], dim=2)),
while the caller still held the previous step's tuple, so two whole caches lived together. From
4.36 the Cache classes (DynamicCache) replace each layer's tensors as they grow.

For each version, one process builds Llama-2-7B from its published configuration with random
weights (AutoModelForCausalLM.from_config, nothing downloaded) in bf16 on the GPU, then runs
generate() greedily with a random prompt of CONTEXT - 32 tokens and 32 new tokens (min_new_tokens
so no end-of-sequence stops it), at 2k and 8k context, batch 1. A LogitsProcessor reads the peak
when the prefill's logits arrive, resets it, and stamps the time of every later step; so the
result separates the prefill peak (eager attention scores in 4.35) from the decode peak and gives
the decode time a token. Attention: 4.35 has only the eager path; the current version uses its
default (SDPA). Run with the old version first on PYTHONPATH for --old.

    PYTHONPATH=/tmp/old python3 scripts/measure_generate_cache.py --old --out gen.jsonl
    python3 scripts/measure_generate_cache.py --out gen.jsonl
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

CONTEXTS = [2048, 8192]
NEW_TOKENS = 32
MODEL = "Llama-2-7B"


def prepare_old():
    """Lets transformers 4.35 import under a current torch: no accelerate (its 1.x API differs) and
    the pytree registration name torch dropped."""
    sys.modules["accelerate"] = None  # find_spec returns None: is_accelerate_available() is False
    import torch.utils._pytree as pytree

    if not hasattr(pytree, "_register_pytree_node"):
        pytree._register_pytree_node = lambda cls, flatten, unflatten, **_: pytree.register_pytree_node(cls, flatten, unflatten)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", action="store_true")
    ap.add_argument("--out", default="-")
    a = ap.parse_args()
    if a.old:
        prepare_old()
    import torch
    import transformers
    from transformers import AutoModelForCausalLM, LogitsProcessor, LogitsProcessorList
    from measure_memory import config

    class Probe(LogitsProcessor):
        def __init__(self):
            self.times = []
            self.prefill_peak = None
            self.after_prefill = None

        def __call__(self, input_ids, scores):
            torch.cuda.synchronize()
            self.times.append(time.perf_counter())
            if self.prefill_peak is None:
                self.prefill_peak = torch.cuda.max_memory_allocated()
                self.after_prefill = torch.cuda.memory_allocated()
                torch.cuda.reset_peak_memory_stats()
            return scores

    old = int(transformers.__version__.split(".")[0]) < 5 and int(transformers.__version__.split(".")[1]) < 36
    cfg = config(MODEL)
    cfg.max_position_embeddings = max(CONTEXTS)
    kw = {"torch_dtype": torch.bfloat16} if old else {"dtype": torch.bfloat16}
    torch.manual_seed(0)
    with torch.device("cuda"):
        model = AutoModelForCausalLM.from_config(cfg, **kw)
    model.eval()
    assert next(model.parameters()).dtype == torch.bfloat16
    torch.cuda.synchronize()
    weights = torch.cuda.memory_allocated()
    out = sys.stdout if a.out == "-" else open(a.out, "a")
    for context in CONTEXTS:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        probe = Probe()
        ids = torch.randint(3, 30000, (1, context - NEW_TOKENS), device="cuda")
        with torch.inference_mode():
            gen = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=NEW_TOKENS,
                                 min_new_tokens=NEW_TOKENS, do_sample=False, pad_token_id=0, use_cache=True,
                                 logits_processor=LogitsProcessorList([probe]))
        torch.cuda.synchronize()
        decode_peak = torch.cuda.max_memory_allocated()
        steps = len(probe.times)
        per_token = (probe.times[-1] - probe.times[1]) / (steps - 2) if steps > 2 else float("nan")
        # KV cache at the end: 2 (K, V) x layers x kv_heads x head_dim x 2 bytes x tokens.
        kv = 2 * cfg.num_hidden_layers * cfg.num_key_value_heads * (cfg.hidden_size // cfg.num_attention_heads) * 2 * context
        print(json.dumps(dict(
            model=MODEL, context=context, new_tokens=NEW_TOKENS, generated=int(gen.shape[1] - ids.shape[1]),
            transformers=transformers.__version__, torch=torch.__version__,
            attention=getattr(model.config, "_attn_implementation", "eager"),
            weights_gib=weights / 2**30, base_gib=base / 2**30, kv_gib=kv / 2**30,
            prefill_peak_gib=probe.prefill_peak / 2**30, after_prefill_gib=probe.after_prefill / 2**30,
            decode_peak_gib=decode_peak / 2**30, decode_ms_per_token=per_token * 1e3,
            gpu=torch.cuda.get_device_name(0))), file=out)
        out.flush()
        del gen


if __name__ == "__main__":
    main()

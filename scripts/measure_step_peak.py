#!/usr/bin/env python3
"""Measures where a transformers + PEFT LoRA step peaks on one NVIDIA GPU: at the loss, or with the recomputed layer.

Issue #45 (the step's structure, `recompute_after_loss`): on the CPU the counted step
(measure_checkpoint_bytes.py) peaks at the loss's backward, before the first checkpointed layer is
recomputed, so its peak is the checkpoints plus the larger of the loss and one layer. Unsloth's
Hugging Face + FA2 capacity table, measured on GPUs, needs their sum. This runs the same step on
a GPU and reports, for each token count:

  weights_gib            allocated after the model and adapters are built (before the step);
  before_recompute_gib   the allocated peak from the start of the step until the first decoder layer
                         runs again in the backward (a forward pre-hook once the loss's gradient
                         exists): the forward and the loss's backward;
  peak_gib               the step's allocated peak (torch.cuda.max_memory_allocated);
  reserved_gib           the step's reserved peak (torch.cuda.max_memory_reserved): the allocator's
                         cache as a device reading sees it.

Then, between the smallest and largest token counts, the bytes a token of each, against gpuplan's
counts: checkpoints 2 × layers × hidden + loss 12 × vocab (recompute_after_loss yes) and the same
plus layer_bytes × hidden (no, the default). If peak_gib equals before_recompute_gib and its slope
the first, transformers frees the loss first on the GPU as on the CPU, and the capacity table's
extra is the allocator's (reserved); if the slope is the second, the default is right.

The model is built from the catalog's published shape (measure_memory.py's MODELS, random weights,
nothing downloaded) in bf16 on the GPU; LoRA r 32 on the seven linears (Unsloth's table), peft's
default fp32 adapters; gradient checkpointing with use_reentrant True (transformers' and peft's
default); the step under autocast(bf16) as the Trainer runs it with --bf16: outputs =
model(input_ids, labels), the outputs dropped, loss.backward(). Each token count runs in a fresh
process.

    python3 scripts/measure_step_peak.py --out step.jsonl            # Llama-3.1-8B, 4,096-16,384 tokens
    python3 scripts/measure_step_peak.py --cpu                       # a tiny model on the CPU, to check the script

Needs torch, transformers and peft (pure Python: carry its wheel and accelerate's). About a minute
on an H100.
"""
import argparse
import contextlib
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

TOKENS = [4096, 8192, 16384]
CPU_TOKENS = [256, 512, 1024]
TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def build(name, cpu):
    import torch
    from transformers import AutoModelForCausalLM, LlamaConfig

    if cpu:
        cfg = LlamaConfig(hidden_size=256, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=1,
                          intermediate_size=896, vocab_size=32000, tie_word_embeddings=False)
    else:
        from measure_memory import config

        cfg = config(name)
    cfg.use_cache = False
    device = torch.device("cpu" if cpu else "cuda")
    with device:
        model = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": True})
    model.enable_input_require_grads()
    from peft import LoraConfig, get_peft_model

    model = get_peft_model(model, LoraConfig(r=32, lora_alpha=32, lora_dropout=0.0, target_modules=TARGETS))
    model.train()
    return model, cfg, device


def run_case(name, tokens, cpu):
    import torch

    torch.manual_seed(0)
    model, cfg, device = build(name, cpu)
    layers = [m for m in model.modules() if type(m).__name__.endswith("DecoderLayer")]
    ids = torch.randint(0, cfg.vocab_size, (1, tokens), device=device)
    state = {"backward": False, "before": None}

    if cpu:
        from measure_loss_bytes import LiveBytes

        counter = LiveBytes()
        weights = sum(p.numel() * p.element_size() for p in model.parameters())
        allocated = lambda: counter.now + weights  # noqa: E731
        peak = lambda: counter.peak + weights  # noqa: E731
        reserved = lambda: float("nan")  # noqa: E731
    else:
        torch.cuda.synchronize()
        weights = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        allocated, peak, reserved = torch.cuda.memory_allocated, torch.cuda.max_memory_allocated, torch.cuda.max_memory_reserved

    def pre(module, args):
        if state["backward"] and state["before"] is None:
            state["before"] = peak()

    hooks = [m.register_forward_pre_hook(pre) for m in layers]
    with counter if cpu else contextlib.nullcontext():
        with torch.autocast(device.type, dtype=torch.bfloat16):
            outputs = model(input_ids=ids, labels=ids)
        loss = outputs["loss"]
        del outputs
        loss.register_hook(lambda g: state.update(backward=True))
        loss.backward()
        del loss
    if not cpu:
        torch.cuda.synchronize()
    for h in hooks:
        h.remove()
    gib = 2**30
    print(json.dumps(dict(
        model=name if not cpu else "tiny-llama (CPU check)",
        tokens=tokens,
        weights_gib=weights / gib,
        before_recompute_gib=(state["before"] if state["before"] is not None else float("nan")) / gib,
        peak_gib=peak() / gib,
        reserved_gib=reserved() / gib,
        hidden=cfg.hidden_size, layers=cfg.num_hidden_layers, vocab=cfg.vocab_size,
        heads=cfg.num_attention_heads, kv_heads=cfg.num_key_value_heads, ffn=cfg.intermediate_size,
        device=torch.cuda.get_device_name(0) if not cpu else "cpu",
        torch=torch.__version__,
        transformers=sys.modules["transformers"].__version__,
        peft=sys.modules["peft"].__version__,
    )))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="Llama-3.1-8B")
    ap.add_argument("--tokens", type=int, nargs="+")
    ap.add_argument("--cpu", action="store_true", help="a tiny model on the CPU, counted with LiveBytes")
    ap.add_argument("--out", default="-")
    ap.add_argument("--case", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.case:
        run_case(a.case[0], int(a.case[1]), a.cpu)
        return
    tokens = a.tokens or (CPU_TOKENS if a.cpu else TOKENS)
    out = sys.stdout if a.out == "-" else open(a.out, "w")
    rows = []
    for t in tokens:
        cmd = [sys.executable, __file__, "--case", a.model, str(t)] + (["--cpu"] if a.cpu else [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
        if p.returncode != 0 or not lines:
            print(f"{a.model} at {t} tokens failed: {p.stderr.strip().splitlines()[-3:]}", file=sys.stderr)
            continue
        rows.append(json.loads(lines[-1]))
        print(lines[-1], file=out, flush=True)
    if len(rows) >= 2:
        lo, hi = rows[0], rows[-1]
        dt = hi["tokens"] - lo["tokens"]
        h, n, v = lo["hidden"], lo["layers"], lo["vocab"]
        attention = 4 * (lo["heads"] + lo["kv_heads"]) * (h // lo["heads"]) / h
        layer = 8 + 12 + attention + 8 * lo["ffn"] / h  # layer_bytes for a LoRA
        per_token = lambda key: (hi[key] - lo[key]) * 2**30 / dt  # noqa: E731
        print(json.dumps(dict(
            bytes_a_token=dict(
                before_recompute=per_token("before_recompute_gib"),
                peak=per_token("peak_gib"),
                reserved=per_token("reserved_gib"),
            ),
            gpuplan=dict(
                recompute_after_loss_yes=2 * n * h + 12 * v,
                recompute_after_loss_no=2 * n * h + 12 * v + layer * h,
                layer_bytes=layer,
            ),
        )), file=out, flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Counts the bytes the training loss holds per token per vocabulary entry, by stack and version.

Issue #45 item 7: `loss_vocab_bytes` (Assumptions, engine profiles) is what the head and the
cross-entropy add to a training step's peak for each token and each vocabulary entry. The
transformers code computes the loss differently by era (fp32 logits in the model until 4.45,
bf16 logits and an upcast inside `ForCausalLMLoss` from 4.46, labels padded instead of the logits
copied from 4.49), accelerate turns a bf16 model's outputs to fp32 under `--bf16`, and LitGPT
takes the loss on chunks of bf16 logits. This script runs the real library code of one installed
version and counts what is alive, so that no GPU is needed:

  - transformers: a LlamaForCausalLM with the real vocabulary sizes but a tiny body (hidden 64,
    2 layers), so that everything in the step that grows with tokens × vocab is the head and the
    loss; bf16 weights, the base frozen, `enable_input_require_grads` (what PEFT does for LoRA
    with gradient checkpointing), gradient checkpointing on, labels = inputs; the step as the HF
    Trainer runs it: `outputs = model(...)`, under autocast(bf16) and with accelerate's fp32
    conversion of the outputs when `--accelerate` (Trainer `--bf16`), then `loss = outputs.loss`,
    the outputs dropped, `loss.backward()`; `--fp32-head` casts the lm_head to fp32, as peft's
    prepare_model_for_kbit_training does for QLoRA;
  - litgpt (`--stack litgpt`, a lit-gpt or litgpt checkout and lightning on PYTHONPATH): the same
    tiny body as lit-gpt's GPT with LoRA on query and value, set up by Fabric in bf16-true (which
    hands the outputs back in fp32), and finetune/lora.py's loop for `--steps` steps (the head
    in 128-token chunks, utils.chunked_cross_entropy, backward; the loop's logits rebound only
    when the next forward returns).

Every tensor storage an operator creates (forward, backward, autograd's saved tensors) is counted
from its creation until its last reference dies (a TorchDispatchMode with a weakref finalizer on
the storage); the peak of that sum is the step's allocated peak above what existed before it,
which is what torch.cuda.max_memory_allocated measures on a GPU, less the allocator's 512-byte
rounding. The step runs at two token counts and two vocabulary sizes; the double difference of
the peaks over (tokens, vocab), divided by Δtokens × Δvocab, is the loss's bytes per token per
vocabulary entry at the step's peak. The weights (which grow with vocab only) and the body's
activations (which grow with tokens only) cancel out of it.

Results (torch 2.15 CPU, December 2026), the sources of the engine profiles' loss_vocab_bytes:
  transformers 4.35.2, 4.43.4, 4.51.3, 4.57.6, 5.25.0: 12.000 at micro-batch 1 and 2, plain, with
      --accelerate and with --accelerate --fp32-head alike;
  transformers 4.46.3, 4.48.3: 12.000 at micro-batch 1, 14.000 at micro-batch 2;
  lit-gpt 8641822 (Oct 2023) and litgpt 43c4432 (Apr 2024): 8.000 on a first step (--steps 1) and
      10.000 in steady state (--steps 2: the previous step's fp32 logits alive at the new step's
      fp32 conversion), at micro-batch 1 and 2.

    python3 scripts/measure_loss_bytes.py --check                     # the counter on known tensors
    PYTHONPATH=/tmp/tf/4.43.4 python3 scripts/measure_loss_bytes.py --batch 2 --accelerate
    PYTHONPATH=/tmp/lit-gpt:/tmp/lightning python3 scripts/measure_loss_bytes.py --stack litgpt --steps 2

CPU only; seconds a configuration. Needs torch >= 2.1 (storages keep their Python object alive as
long as the storage lives, which the weakref count relies on) and transformers >= 4.31; lit-gpt
needs lightning importable.
"""
import argparse
import json
import os
import sys
import weakref

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten


class LiveBytes(TorchDispatchMode):
    """The bytes of every storage an operator created and that is still referenced, and their peak."""

    def __init__(self):
        super().__init__()
        self.live = {}
        self.now = 0
        self.peak = 0

    def _free(self, key):
        self.now -= self.live.pop(key)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in tree_flatten(out)[0]:
            if isinstance(t, torch.Tensor) and t.device.type != "meta":
                storage = t.untyped_storage()
                key = id(storage)
                if key not in self.live and storage.nbytes() > 0:
                    self.live[key] = storage.nbytes()
                    self.now += storage.nbytes()
                    weakref.finalize(storage, self._free, key)
                    self.peak = max(self.peak, self.now)
        return out


def check():
    """The counter on tensors of known size: 1 MiB each, a view adds nothing, a freed one leaves."""
    mib = 2**20
    with LiveBytes() as live:
        x = torch.ones(mib // 4)  # 1 MiB of fp32
        y = x * 2  # 2 MiB live
        view = y[: mib // 8]  # a view of y: no storage of its own
        del y  # the view keeps y's storage alive
        assert live.now == 2 * mib, live.now
        del view
        assert live.now == mib, live.now
        z = (x + 1).to(torch.bfloat16)  # a 1 MiB fp32 temporary, then 0.5 MiB of bf16
        assert live.now == 1.5 * mib and live.peak == 2.5 * mib, (live.now, live.peak)
        del x, z
    assert live.now == 0, live.now
    print("LiveBytes: 1 + 1 MiB, a view, a temporary and a bf16 copy counted as expected (peak 2.5 MiB)")


def to_fp32(value):
    """accelerate.utils.convert_to_fp32: every bf16/fp16 tensor in the outputs becomes fp32."""
    if isinstance(value, torch.Tensor):
        return value.float() if value.dtype in (torch.bfloat16, torch.float16) else value
    if isinstance(value, dict):
        return type(value)({k: to_fp32(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return type(value)(to_fp32(v) for v in value)
    return value


def litgpt_step_peak(vocab, tokens, args):
    """finetune/lora.py's step (lit-gpt Oct 2023 to litgpt 2024): bf16-true, LoRA on query and value,
    the head in 128-token chunks, chunked_cross_entropy over the list of chunks."""
    try:
        from lit_gpt.lora import GPT, Config, mark_only_lora_as_trainable
        from lit_gpt.utils import chunked_cross_entropy

        lora = dict(r=8, alpha=16, dropout=0.05, to_query=True, to_key=False, to_value=True)
        classes = dict(_norm_class="RMSNorm", _mlp_class="LLaMAMLP")
    except ImportError:
        from litgpt.lora import GPT, Config, mark_only_lora_as_trainable
        from litgpt.utils import chunked_cross_entropy

        lora = dict(lora_r=8, lora_alpha=16, lora_dropout=0.05, lora_query=True, lora_key=False, lora_value=True)
        classes = dict(norm_class_name="RMSNorm", mlp_class_name="LLaMAMLP")
    torch.manual_seed(0)
    config = Config(
        name="tiny",
        block_size=4096,
        vocab_size=vocab,
        padded_vocab_size=vocab,
        n_layer=2,
        n_head=4,
        n_embd=64,
        n_query_groups=4,
        rotary_percentage=1.0,
        parallel_residual=False,
        bias=False,
        norm_eps=1e-5,
        intermediate_size=128,
        **classes,
        **lora,
    )
    import lightning as L

    model = GPT(config).to(torch.bfloat16)
    mark_only_lora_as_trainable(model)
    # The module as finetune/lora.py sets it up: Fabric's bf16-true precision hands the outputs
    # back in the default dtype (HalfPrecision.convert_output), so the logit chunks reach the
    # loss in fp32.
    fabric = L.Fabric(devices=1, accelerator="cpu", precision="bf16-true")
    model = fabric.setup_module(model)
    model.train()
    ids = torch.randint(0, vocab, (args.batch, tokens // args.batch))
    with LiveBytes() as live:
        # The loop's `logits` is rebound only when the next forward returns, so the previous
        # step's logits are alive through it: args.steps steps of the same length.
        for _ in range(args.steps):
            logits = model(ids, lm_head_chunk_size=128)
            logits[-1] = logits[-1][..., :-1, :]
            loss = chunked_cross_entropy(logits, ids[..., 1:])
            fabric.backward(loss)
        del loss, logits
    return live.peak


def step_peak(vocab, tokens, args):
    if args.stack == "litgpt":
        return litgpt_step_peak(vocab, tokens, args)
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=vocab,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        tie_word_embeddings=False,
    )
    model = LlamaForCausalLM(config).to(torch.bfloat16)
    if args.fp32_head:
        model.lm_head.float()
    for p in model.parameters():
        p.requires_grad_(False)
    model.enable_input_require_grads()
    model.gradient_checkpointing_enable()
    model.train()
    ids = torch.randint(0, vocab, (args.batch, tokens // args.batch))
    return trainer_step_peak(model, ids, autocast=args.accelerate, fp32_outputs=args.accelerate)


def trainer_step_peak(model, ids, autocast, fp32_outputs):
    """The HF Trainer's step, counted: outputs = model(input_ids, labels) (under autocast(bf16)
    where Trainer --bf16 puts it, its outputs made fp32 as accelerate does), the loss taken, the
    outputs dropped, loss.backward()."""
    with LiveBytes() as live:
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            outputs = model(input_ids=ids, labels=ids)
        if fp32_outputs:
            outputs = to_fp32(outputs)
        loss = outputs["loss"]
        del outputs
        loss.backward()
        del loss
    return live.peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stack", choices=["transformers", "litgpt"], default="transformers", help="whose step to run (litgpt: a lit-gpt or litgpt checkout on PYTHONPATH)")
    parser.add_argument("--batch", type=int, default=1, help="sequences a micro-batch (the tokens are split among them)")
    parser.add_argument("--accelerate", action="store_true", help="autocast(bf16) and fp32 outputs, as Trainer --bf16 runs the step")
    parser.add_argument("--fp32-head", action="store_true", help="the lm_head in fp32 (peft prepare_model_for_kbit_training)")
    parser.add_argument("--tokens", type=int, nargs=2, default=[1024, 2048], help="the two token counts a micro-batch (large enough that the logits, not the tiny body, decide where the peak falls)")
    parser.add_argument("--vocab", type=int, nargs=2, default=[32000, 128256])
    parser.add_argument("--steps", type=int, default=1, help="litgpt: training steps in a row (2: the previous step's logits alive through the next forward)")
    parser.add_argument("--json", action="store_true", help="one JSON line instead of a table")
    parser.add_argument("--check", action="store_true", help="check the counter on tensors of known size, then stop")
    args = parser.parse_args()
    if args.check:
        check()
        return 0
    (t1, t2), (v1, v2) = args.tokens, args.vocab
    peaks = {(t, v): step_peak(v, t, args) for t in (t1, t2) for v in (v1, v2)}
    if args.stack == "litgpt":
        module = sys.modules.get("lit_gpt") or sys.modules["litgpt"]
        version = f"litgpt at {os.path.dirname(os.path.dirname(module.__file__))}"
    else:
        version = "transformers " + sys.modules["transformers"].__version__
    ddiff = peaks[(t2, v2)] - peaks[(t2, v1)] - peaks[(t1, v2)] + peaks[(t1, v1)]
    per_entry = ddiff / ((t2 - t1) * (v2 - v1))
    result = dict(
        stack=version,
        torch=torch.__version__,
        batch=args.batch,
        accelerate=args.accelerate,
        fp32_head=args.fp32_head,
        peaks={f"{t}x{v}": peaks[(t, v)] for (t, v) in peaks},
        loss_vocab_bytes=round(per_entry, 3),
    )
    if args.json:
        print(json.dumps(result))
    else:
        for (t, v), p in sorted(peaks.items()):
            print(f"tokens {t:6} vocab {v:7}: peak {p / 2**20:10.2f} MiB")
        print(f"{version}, batch {args.batch}: {per_entry:.3f} bytes a token a vocabulary entry")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Measures the allocated peak of a DeepSpeed ZeRO-3 full fine-tuning step on one NVIDIA GPU.

A sibling of measure_memory.py (issue #36 item 6): the models are built from the catalog's
published configurations with random weights (AutoModelForCausalLM.from_config, nothing is
downloaded) directly on the GPU in bf16, as deepspeed.zero.Init creates them, and handed to
deepspeed.initialize with the settings below. Each case runs in a fresh process, under a
single-process distributed setup (RANK 0 of WORLD_SIZE 1), so ZeRO-3's partition is the whole
model: bf16 weights, bf16 gradient partitions, fp32 master weights and AdamW's two fp32 moments.

Settings (recorded in every result line):
  - bf16 {"enabled": true}; ZeRO stage 3 with DeepSpeed's defaults for every bucket and threshold
    (reduce_bucket_size 5e8, stage3_prefetch_bucket_size 5e7, stage3_param_persistence_threshold
    1e5, stage3_max_live_parameters 1e9, sub_group_size 1e9, overlap_comm, contiguous_gradients),
    no offload; gradient_clipping 1.0;
  - the client optimizer torch.optim.AdamW(fused=True) (what the HF Trainer passes on torch >= 2.8,
    adamw_torch_fused), wrapped by ZeRO-3 (zero_allow_untested_optimizer): no DeepSpeed op is
    JIT-compiled;
  - micro-batch and sequence length per case, random token ids, labels = inputs, torch SDPA,
    gradient checkpointing (use_reentrant False) unless the case says no.
The peak is torch.cuda.max_memory_allocated over STEPS optimizer steps after deepspeed.initialize
(the peak is reset after initialize; the init peak is reported apart).

    python3 scripts/measure_zero3.py --out zero3.jsonl                 # every case
    python3 scripts/measure_zero3.py --only Qwen2.5-0.5B --out z.jsonl  # the cases of one model
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_memory import config  # noqa: E402  (the catalog's published shapes)

CASES = [
    # (model, micro-batch, sequence length, gradient checkpointing, seconds before the case is killed)
    ("Qwen2.5-0.5B", 1, 2048, True, 90),
    ("Qwen2.5-0.5B", 4, 2048, True, 90),
    ("Qwen2.5-0.5B", 1, 2048, False, 90),
    ("Qwen2.5-7B", 1, 2048, True, 150),
    ("Llama-3.1-8B", 1, 2048, True, 150),
]
STEPS = 3


def ds_config(micro_batch):
    return {
        "train_micro_batch_size_per_gpu": micro_batch,
        "gradient_accumulation_steps": 1,
        "bf16": {"enabled": True},
        "zero_optimization": {"stage": 3},
        "gradient_clipping": 1.0,
        "zero_allow_untested_optimizer": True,
        "steps_per_print": 1000000,
        "wall_clock_breakdown": False,
    }


def run_case(name, micro_batch, seq, checkpointing):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("LOCAL_RANK", "0")
    os.environ.setdefault("WORLD_SIZE", "1")
    import torch
    import deepspeed
    import transformers
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    torch.cuda.set_device(0)
    deepspeed.init_distributed(dist_backend="nccl")
    cfg = config(name)
    cfg.use_cache = False
    t0 = time.time()
    with torch.device("cuda"):
        model = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
    assert next(model.parameters()).dtype == torch.bfloat16
    total = sum(p.numel() for p in model.parameters())
    if checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5, fused=True)
    conf = ds_config(micro_batch)
    engine, _, _, _ = deepspeed.initialize(model=model, optimizer=opt, config=conf)
    torch.cuda.synchronize()
    init_peak = torch.cuda.max_memory_allocated()
    after_init = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    steps = []
    for _ in range(STEPS):
        ids = torch.randint(0, 30000, (micro_batch, seq), device="cuda")
        loss = engine(input_ids=ids, labels=ids).loss
        engine.backward(loss)
        engine.step()
        torch.cuda.synchronize()
        steps.append(dict(max_alloc=torch.cuda.max_memory_allocated(), alloc=torch.cuda.memory_allocated(),
                          max_reserved=torch.cuda.max_memory_reserved()))
    print(json.dumps(dict(
        model=name, micro_batch=micro_batch, seq=seq, grad_checkpointing=checkpointing, params=total,
        peak_bytes=torch.cuda.max_memory_allocated(), peak_gib=torch.cuda.max_memory_allocated() / 2**30,
        init_peak_gib=init_peak / 2**30, after_init_gib=after_init / 2**30,
        steps=[{k: v / 2**30 for k, v in s.items()} for s in steps],
        seconds=time.time() - t0, gpu=torch.cuda.get_device_name(0), torch=torch.__version__,
        deepspeed=deepspeed.__version__, transformers=transformers.__version__,
        optimizer="torch.optim.AdamW(fused=True) as a client optimizer", ds_config=conf,
        loss=float(loss))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="-")
    ap.add_argument("--only", action="append", help="run only the cases of these models")
    ap.add_argument("--budget", type=float, default=1e9, help="seconds: start no case after this")
    ap.add_argument("--case", nargs=4, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.case:
        run_case(a.case[0], int(a.case[1]), int(a.case[2]), a.case[3] == "yes")
        return
    out = sys.stdout if a.out == "-" else open(a.out, "a")
    start = time.time()
    for name, mb, seq, ckpt, limit in CASES:
        if a.only and name not in a.only:
            continue
        if time.time() - start > a.budget:
            print(f"{name} {mb}x{seq}: skipped (budget)", file=sys.stderr)
            continue
        cmd = [sys.executable, os.path.abspath(__file__), "--case", name, str(mb), str(seq), "yes" if ckpt else "no"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired as e:
            p = subprocess.CompletedProcess(cmd, -9, e.stdout or "", f"killed after {limit} s\n{e.stderr or ''}")
            p.stdout = p.stdout.decode() if isinstance(p.stdout, bytes) else p.stdout
            p.stderr = p.stderr if isinstance(p.stderr, str) else str(p.stderr)
        lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
        if p.returncode != 0 or not lines:
            err = "\n".join(p.stderr.strip().splitlines()[-15:])
            print(json.dumps(dict(model=name, micro_batch=mb, seq=seq, grad_checkpointing=ckpt, failed=err)), file=out)
            print(f"{name} {mb}x{seq}: failed:\n{err}", file=sys.stderr)
        else:
            print(lines[-1], file=out)
            print(lines[-1], file=sys.stderr)
        out.flush()


if __name__ == "__main__":
    main()

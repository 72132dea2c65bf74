#!/usr/bin/env python3
"""Measures GPU memory on a real NVIDIA GPU and writes rows for samples/validation.csv.

Models are built from the catalog's published configurations with random weights
(AutoModelForCausalLM.from_config: nothing is downloaded). For each it records
torch.cuda.max_memory_allocated and the memory nvidia-smi shows for:
  - inference with a KV cache: a prefill of CONTEXT tokens for CONCURRENCY sequences, then
    32 decode steps, at two contexts and two concurrencies;
  - a LoRA training step (peft, rank 16 on q,k,v,o, bf16, gradient checkpointing, AdamW);
  - a full fine-tuning step (bf16 weights with fp32 AdamW states, gradient checkpointing),
    for the models whose 16 bytes per parameter fit the card.
Each case runs in a fresh process so peaks do not mix. Needs torch, transformers and peft.

    python3 scripts/measure_memory.py --out measured.csv          # about 5 minutes on an H200
    python3 scripts/measure_memory.py --quick --out smoke.csv     # one small model only
"""
import argparse
import csv
import json
import subprocess
import sys

# Catalog figures (templates/models.tsv) for the architectures measured.
MODELS = {
    "Qwen2.5-0.5B": dict(kind="qwen2", hidden=896, layers=24, heads=14, kv_heads=2, ffn=4864, vocab=151936, tie=True),
    "Qwen2.5-7B": dict(kind="qwen2", hidden=3584, layers=28, heads=28, kv_heads=4, ffn=18944, vocab=152064, tie=False),
    "Llama-2-7B": dict(kind="llama", hidden=4096, layers=32, heads=32, kv_heads=32, ffn=11008, vocab=32000, tie=False),
    "Llama-3.1-8B": dict(kind="llama", hidden=4096, layers=32, heads=32, kv_heads=8, ffn=14336, vocab=128256, tie=False),
}

CASES = [
    # (model, kind, context, concurrency or batch)
    ("Qwen2.5-0.5B", "inference", 4096, 1),
    ("Qwen2.5-0.5B", "full_finetune", 2048, 1),
    ("Qwen2.5-0.5B", "lora", 2048, 1),
    ("Qwen2.5-7B", "inference", 4096, 4),
    ("Qwen2.5-7B", "inference", 16384, 8),
    ("Llama-2-7B", "inference", 4096, 4),
    ("Llama-2-7B", "inference", 1024, 16),
    ("Llama-3.1-8B", "inference", 8192, 8),
    ("Llama-3.1-8B", "inference", 32768, 2),
    ("Llama-2-7B", "lora", 2048, 1),
    ("Llama-2-7B", "lora", 4096, 2),
    ("Llama-3.1-8B", "lora", 4096, 1),
]


def config(name):
    import transformers  # Qwen2Config only where asked for: transformers before 4.37 has none

    m = MODELS[name]
    cls = transformers.Qwen2Config if m["kind"] == "qwen2" else transformers.LlamaConfig
    return cls(
        hidden_size=m["hidden"],
        num_hidden_layers=m["layers"],
        num_attention_heads=m["heads"],
        num_key_value_heads=m["kv_heads"],
        intermediate_size=m["ffn"],
        vocab_size=m["vocab"],
        tie_word_embeddings=m["tie"],
        max_position_embeddings=65536,
        torch_dtype="bfloat16",
    )


def nvidia_smi_mib():
    out = subprocess.run(
        ["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits", "-i", "0"],
        capture_output=True, text=True, check=False,
    )
    try:
        return float(out.stdout.strip().splitlines()[0])
    except (ValueError, IndexError):
        return float("nan")


def run_case(name, kind, context, n):
    """One case in this process; prints a JSON line with the peaks."""
    import torch
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    dev = torch.device("cuda")
    attn = "sdpa"
    # Inference and LoRA hold the weights in bf16; full fine-tuning holds fp32 master weights and
    # runs under bf16 autocast, as trainers' mixed precision does (16 bytes per parameter with
    # gradients and AdamW moments).
    dtype = torch.float32 if kind == "full_finetune" else torch.bfloat16
    model = AutoModelForCausalLM.from_config(config(name), torch_dtype=dtype, attn_implementation=attn).to(dev)
    torch.cuda.reset_peak_memory_stats()
    smi_peak = 0.0
    if kind == "inference":
        model.eval()
        ids = torch.randint(0, 30000, (n, context - 32), device=dev)
        # The decoder, then the head on the last position only, as generate() does
        # (logits_to_keep): the logits of every prompt position would be a large extra tensor.
        with torch.inference_mode():
            out = model.model(input_ids=ids, use_cache=True)
            past = out.past_key_values
            nxt = model.lm_head(out.last_hidden_state[:, -1:]).argmax(-1)
            del out
            for _ in range(32):
                out = model.model(input_ids=nxt, past_key_values=past, use_cache=True)
                past = out.past_key_values
                nxt = model.lm_head(out.last_hidden_state[:, -1:]).argmax(-1)
                del out
            torch.cuda.synchronize()
            smi_peak = nvidia_smi_mib()
    else:
        model.gradient_checkpointing_enable()
        model.config.use_cache = False
        if kind == "lora":
            from peft import LoraConfig, get_peft_model

            model.enable_input_require_grads()
            model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, target_modules=["q_proj", "k_proj", "v_proj", "o_proj"]))
            params = [p for p in model.parameters() if p.requires_grad]
            for p_ in params:  # adapters in fp32, as PEFT trains them under autocast
                p_.data = p_.data.float()
        else:
            params = list(model.parameters())
        opt = torch.optim.AdamW(params, lr=1e-5, fused=True)
        model.train()
        ids = torch.randint(0, 30000, (n, context), device=dev)
        for _ in range(2):
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(input_ids=ids, labels=ids).loss
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        smi_peak = nvidia_smi_mib()
    peak = torch.cuda.max_memory_allocated()
    trained = sum(p.numel() for p in model.parameters() if p.requires_grad) if kind != "inference" else 0
    total = sum(p.numel() for p in model.parameters())
    print(json.dumps(dict(peak_bytes=peak, smi_mib=smi_peak, trained=trained, total=total, gpu=torch.cuda.get_device_name(0))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="-")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--case", nargs=4, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.case:
        run_case(a.case[0], a.case[1], int(a.case[2]), int(a.case[3]))
        return
    cases = CASES[:3] if a.quick else CASES
    out = sys.stdout if a.out == "-" else open(a.out, "w", newline="")
    w = csv.writer(out)
    w.writerow(["id", "model", "kind", "precision", "kv_precision", "context_len", "batch_size", "concurrency",
                "avg_tokens", "lora_trainable_fraction", "grad_checkpointing", "flash_attention", "settings", "framework", "gpu",
                "measured", "unit", "measure", "source", "notes"])
    for name, kind, context, n in cases:
        p = subprocess.run([sys.executable, __file__, "--case", name, kind, str(context), str(n)], capture_output=True, text=True)
        lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
        if p.returncode != 0 or not lines:
            print(f"{name} {kind} {context}×{n}: failed: {p.stderr.strip().splitlines()[-1:] }", file=sys.stderr)
            continue
        r = json.loads(lines[-1])
        training = kind != "inference"
        row_id = f"h200-{name.lower()}-{kind}-{context}x{n}"
        common = [name, kind, "bf16", "bf16", context, n if training else 1, 1 if training else n,
                  "" if training else context, f"{r['trained'] / r['total']:.5f}" if kind == "lora" else "",
                  "yes" if training else "no", "yes",
                  # One forward over the whole prompt and no serving engine's buffers, as below.
                  "" if training else "prefill_chunk_tokens=0; inference_activation_gib=0",
                  "transformers + torch SDPA" + (" + peft LoRA r16 q,k,v,o" if kind == "lora" else ""),
                  r["gpu"]]
        w.writerow([row_id + "-alloc"] + common + [r["peak_bytes"] / 2**30, "GiB", "torch.cuda.max_memory_allocated",
                   f"scripts/measure_memory.py on {r['gpu']}", "random weights from the published config"])
        w.writerow([row_id + "-smi"] + common + [r["smi_mib"], "MiB", "nvidia-smi memory.used at the end of the case",
                   f"scripts/measure_memory.py on {r['gpu']}", "includes the CUDA context and the allocator's cache"])
        out.flush()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Count the parameters a PEFT LoRA trains on a model built from its config on the meta device
(no weights, no GPU), and the count gpuplan's lora_params_b gives for the same shape, rank and
targets (#45). Run it in an environment with torch, transformers and peft:

    python scripts/count_lora_params.py                 # every case below, a table
    python scripts/count_lora_params.py --rank 64

transformers 4 holds an MoE's experts as nn.Linear modules, each adapted at the rank; transformers
5 holds them as 3D tensors (gate_up_proj, down_proj), which PEFT 0.22 adapts when the target list
names gate_proj, up_proj and down_proj (or is 'all-linear'), the fused gate and up at twice the
rank: the formula's lora_fused_gate_up, yes from transformers 5 on. 'all-linear' (--all-linear)
also adapts each MoE router, r x (hidden + experts) a layer, which the formula leaves out.
"""
import argparse
import warnings

import peft
import torch
import transformers

warnings.filterwarnings("ignore")

# The catalog's shapes (templates/models.tsv), as their config.json files give them.
CASES = {
    "Llama-3.1-8B": dict(arch="llama", layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128,
                         ffn=14336, vocab=128256),
    "Llama-2-7B": dict(arch="llama", layers=32, hidden=4096, heads=32, kv_heads=32, head_dim=128,
                       ffn=11008, vocab=32000),
    "Qwen3-8B": dict(arch="qwen3", layers=36, hidden=4096, heads=32, kv_heads=8, head_dim=128,
                     ffn=12288, vocab=151936),
    "Qwen3-30B-A3B": dict(arch="qwen3_moe", layers=48, hidden=2048, heads=32, kv_heads=4,
                          head_dim=128, ffn=6144, vocab=151936, experts=128, top_k=8,
                          moe_ffn=768),
}

MLP = ["gate_proj", "up_proj", "down_proj"]
ATTENTION = ["q_proj", "k_proj", "v_proj", "o_proj"]


def config(c):
    common = dict(num_hidden_layers=c["layers"], hidden_size=c["hidden"],
                  num_attention_heads=c["heads"], num_key_value_heads=c["kv_heads"],
                  intermediate_size=c["ffn"], vocab_size=c["vocab"])
    if c["arch"] == "llama":
        return transformers.LlamaConfig(head_dim=c["head_dim"], **common)
    if c["arch"] == "qwen3":
        return transformers.Qwen3Config(head_dim=c["head_dim"], **common)
    return transformers.Qwen3MoeConfig(head_dim=c["head_dim"], num_experts=c["experts"],
                                       num_experts_per_tok=c["top_k"],
                                       moe_intermediate_size=c["moe_ffn"], decoder_sparse_step=1,
                                       mlp_only_layers=[], **common)


def peft_count(c, rank, mlp, all_linear):
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(config(c))
    targets = "all-linear" if all_linear and mlp else ATTENTION + (MLP if mlp else [])
    model = peft.get_peft_model(model, peft.LoraConfig(r=rank, lora_alpha=2 * rank,
                                                       target_modules=targets))
    trained, _ = model.get_nb_trainable_parameters()
    return trained


def formula(c, rank, mlp, fused):
    """lora_params_b of templates/formulas.tsv, in parameters (lora_on_experts yes)."""
    h, q, kv = c["hidden"], c["heads"] * c["head_dim"], c["kv_heads"] * c["head_dim"]
    attention = c["layers"] * (2 * (h + q) + 2 * (h + kv))
    moe_layers = c["layers"] if c.get("experts") else 0
    dense = (c["layers"] - moe_layers) * 3 * (h + c["ffn"])
    f = c.get("moe_ffn", 0)
    gate_up = 2 * (h + 2 * f) if fused else 2 * (h + f)
    routed = moe_layers * c.get("experts", 0) * (gate_up + f + h)
    return rank * (attention + (dense + routed if mlp else 0))


def main():
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("--rank", type=int, default=16)
    a.add_argument("--all-linear", action="store_true",
                   help="target_modules='all-linear' for the feed-forward rows (routers included)")
    args = a.parse_args()
    print(f"transformers {transformers.__version__}, peft {peft.__version__}, rank {args.rank}")
    print(f"{'model':<16} {'targets':<22} {'peft':>14} {'formula':>14} {'diff':>8}")
    for name, c in CASES.items():
        for mlp in (False, True):
            got = peft_count(c, args.rank, mlp, args.all_linear)
            fused = int(transformers.__version__.split(".")[0]) >= 5
            want = formula(c, args.rank, mlp, fused)
            targets = "q,k,v,o" + ((",all-linear" if args.all_linear else ",gate,up,down") if mlp else "")
            print(f"{name:<16} {targets:<22} {got:>14,} {want:>14,} {(got - want) / want:>+8.2%}")


if __name__ == "__main__":
    main()

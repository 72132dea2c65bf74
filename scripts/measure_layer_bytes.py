#!/usr/bin/env python3
"""Counts what one decoder layer holds for the backward pass, per token per hidden unit, by kind and FFN ratio.

Issue #45 (the layer's own activations, `layer_activation_bytes`): Korthikanti et al. 2022 count
34 bytes a token a hidden unit for a GPT layer (a 4 × hidden GeLU MLP, FlashAttention for the
scores). A Llama layer has a SwiGLU MLP of another width, RMSNorms computed in fp32, rotary
embeddings and grouped KV heads; a LoRA or QLoRA step adds the adapters' inputs and, through
peft's prepare_model_for_kbit_training, an fp32 residual stream. This counts them from the
library's own code on the CPU:

  saved      the bytes the forward saves for the backward inside the decoder layers, without
             gradient checkpointing (torch.autograd.graph.saved_tensors_hooks; each storage once;
             the parameters' storages, and anything of the weights' size, cancel in the
             difference over two token counts): what every layer holds without checkpointing;
  recompute  with gradient checkpointing, the step's peak (LiveBytes, measure_loss_bytes.py) less
             the checkpointed inputs and the loss, per token per hidden unit: what the layer being
             recomputed holds at its backward with its transient gradients, where that and not the
             loss is the peak (a small vocabulary, 512 entries, makes it so).

The model is a LlamaForCausalLM with random weights (head dimension 64, a quarter as many KV
heads as query heads, SDPA attention, which on the CPU saves q, k, v, the output and its
log-sum-exp as FlashAttention-2 does on a GPU), in the three kinds the ledger has:

  full   pure bf16, every parameter trained (torchtune, torchtitan, DeepSpeed without autocast);
  lora   bf16 base, frozen, LoRA r 8 on all seven linears, the step under autocast(bf16);
  qlora  nf4 base through BitsAndBytesConfig and prepare_model_for_kbit_training (embeddings,
         norms and head in fp32), LoRA r 8 on all seven linears, autocast(bf16).

  --arch qwen3 adds Qwen3's RMSNorms on the queries and keys (QK-norm); --arch qwen3moe makes the
  MLP a Qwen3-MoE block of --moe EXPERTS TOP_K MOE_FFN (every layer sparse), whose code differs by
  version: transformers 4 loops over the experts' Linears, transformers 5 holds them as 3D
  tensors run through grouped_mm.

    PYTHONPATH=... python3 scripts/measure_layer_bytes.py full --ffn 2.6875 3.5 5.4286
    python3 scripts/measure_layer_bytes.py lora --breakdown     # one layer's saved tensors, listed
    python3 scripts/measure_layer_bytes.py qlora --arch qwen3moe --moe 64 8 128 --hidden 1024 --kv-share 0.125 --no-recompute
    python3 scripts/measure_layer_bytes.py lora --arch qwen3moe --no-recompute --attention-only   # experts frozen

Results (torch 2.15 CPU, transformers 4.57.6, peft 0.17.1, bitsandbytes 0.50.2, and for QK-norm
and MoE also transformers 5.25.0 with peft 0.22.0; December 2026):
see research/sources/layer-bytes-count.md. CPU only; a few seconds a configuration.
"""
import argparse
import json
import os
import sys
import tempfile
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_loss_bytes import trainer_step_peak  # noqa: E402

warnings.filterwarnings("ignore")

TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
ATTENTION_TARGETS = TARGETS[:4]


ARCHS = {
    # transformers class names: config, model, decoder layer
    "llama": ("LlamaConfig", "LlamaForCausalLM", "LlamaDecoderLayer"),
    "qwen3": ("Qwen3Config", "Qwen3ForCausalLM", "Qwen3DecoderLayer"),
    "qwen3moe": ("Qwen3MoeConfig", "Qwen3MoeForCausalLM", "Qwen3MoeDecoderLayer"),
}


def build(store, kind, vocab, hidden, ffn_ratio, layers, checkpointing, kv_share=0.25, arch="llama", moe=None,
          targets=TARGETS):
    """moe: (experts, experts_per_token, moe_ffn) for qwen3moe, every layer sparse; ffn_ratio is
    then unused (the routed width is experts_per_token × moe_ffn)."""
    import transformers
    from transformers import BitsAndBytesConfig

    config_class, model_class, _ = ARCHS[arch]
    config_class, model_class = getattr(transformers, config_class), getattr(transformers, model_class)
    torch.manual_seed(0)
    ffn = int(round(hidden * ffn_ratio / 64)) * 64
    extra = {}
    if arch == "qwen3moe":
        experts, top_k, moe_ffn = moe
        extra = dict(num_experts=experts, num_experts_per_tok=top_k, moe_intermediate_size=moe_ffn, norm_topk_prob=True)
        ffn = top_k * moe_ffn
    if arch != "llama":
        extra["head_dim"] = 64
    config = config_class(
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=ffn,
        num_hidden_layers=layers,
        num_attention_heads=hidden // 64,
        num_key_value_heads=max(1, int(hidden // 64 * kv_share)),
        max_position_embeddings=4096,
        tie_word_embeddings=False,
        **extra,
    )
    path = os.path.join(store, f"{arch}-{vocab}-{hidden}-{ffn}-{layers}-{kv_share}-{moe}")
    if not os.path.exists(path):
        model_class(config).to(torch.bfloat16).save_pretrained(path)
    common = dict(dtype=torch.bfloat16, device_map="cpu", attn_implementation="sdpa")
    if kind == "qlora":
        from peft import prepare_model_for_kbit_training

        nf4 = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16)
        model = model_class.from_pretrained(path, quantization_config=nf4, **common)
        model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=checkpointing)
        # Without checkpointing peft leaves the embeddings' output without a gradient, and the
        # first layer's norm then saves nothing: the steady state of a deep model is wanted.
        model.enable_input_require_grads()
    else:
        model = model_class.from_pretrained(path, **common)
        if kind == "lora":
            model.enable_input_require_grads()
        if checkpointing:
            model.gradient_checkpointing_enable()
    if kind != "full":
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, lora_dropout=0.0, target_modules=targets))
    model.train()
    return model, ffn


DECODER_LAYERS = {layer for _, _, layer in ARCHS.values()}


def decoder_layers(model):
    for module in model.modules():
        if type(module).__name__ in DECODER_LAYERS:
            yield module


def saved_bytes(model, ids, autocast, breakdown=False):
    """Bytes of the distinct storages saved for the backward while a decoder layer runs its forward."""
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen, listed = {}, []
    inside = [None]

    def enter(module, args):
        inside[0] = module

    def leave(module, args, output):
        inside[0] = None

    def pack(t):
        if inside[0] is not None and isinstance(t, torch.Tensor):
            storage = t.untyped_storage()
            ptr = storage.data_ptr()
            if ptr not in params and ptr not in seen:
                seen[ptr] = storage.nbytes()
                if breakdown and inside[0] is first:
                    listed.append((tuple(t.shape), str(t.dtype).replace("torch.", ""), storage.nbytes()))
        return t

    layers = list(decoder_layers(model))
    first = layers[0]
    hooks = [m.register_forward_pre_hook(enter) for m in layers] + [m.register_forward_hook(leave) for m in layers]
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
                out = model(input_ids=ids, labels=ids)
        del out
    finally:
        for h in hooks:
            h.remove()
    return sum(seen.values()), listed


def per_token(a, b, t1, t2, scale):
    return (b - a) / ((t2 - t1) * scale)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=["full", "lora", "qlora"])
    parser.add_argument("--hidden", type=int, default=512)
    parser.add_argument("--ffn", type=float, nargs="+", default=[3.5])
    parser.add_argument("--kv-share", type=float, default=0.25, help="KV heads as a share of the query heads")
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--tokens", type=int, nargs=2, default=[256, 512])
    parser.add_argument("--breakdown", action="store_true", help="list the first layer's saved tensors")
    parser.add_argument("--arch", choices=sorted(ARCHS), default="llama", help="qwen3: Llama's layer with RMSNorms on the queries and keys; qwen3moe: that and a routed MoE MLP")
    parser.add_argument("--moe", type=int, nargs=3, metavar=("EXPERTS", "TOP_K", "MOE_FFN"), default=[16, 4, 256], help="qwen3moe: experts, experts a token, one expert's width")
    parser.add_argument("--no-recompute", action="store_true", help="count the saved bytes only")
    parser.add_argument("--attention-only", action="store_true",
                        help="LoRA on q, k, v and o only (the formulas' lora_on_mlp no)")
    args = parser.parse_args()
    autocast = args.kind != "full"
    t1, t2 = args.tokens
    h, n = args.hidden, args.layers
    vocab = 512
    results = []
    with tempfile.TemporaryDirectory() as store:
        moe = tuple(args.moe) if args.arch == "qwen3moe" else None
        targets = ATTENTION_TARGETS if args.attention_only else TARGETS
        for ratio in args.ffn:
            row = dict(arch=args.arch, kind=args.kind, hidden=h, ffn_ratio=ratio, kv_share=args.kv_share, moe=moe)
            if args.kind != "full":
                row["lora_targets"] = targets
            # saved: no checkpointing; one model for both token counts (a forward only: nothing
            # it leaves behind grows with the tokens).
            counts = []
            model, ffn = build(store, args.kind, vocab, h, ratio, n, False, args.kv_share, args.arch, moe, targets)
            for t in (t1, t2):
                ids = torch.randint(0, vocab, (1, t))
                total, listed = saved_bytes(model, ids, autocast, breakdown=args.breakdown and t == t2)
                counts.append(total)
                if listed:
                    row["first_layer_saved"] = [
                        dict(shape=s, dtype=d, bytes_per_token_per_hidden=round(b / (t * h), 3)) for s, d, b in listed
                    ]
            row["ffn_ratio"] = ffn / h
            row["saved_bytes_per_token_per_hidden_per_layer"] = round(per_token(*counts, t1, t2, h * n), 3)
            if args.no_recompute:
                results.append(row)
                continue
            # recompute: checkpointing, the step's peak less the checkpoints and the loss; a fresh
            # model for each token count, so that no gradient of the first step is alive.
            peaks = []
            for t in (t1, t2):
                model, _ = build(store, args.kind, vocab, h, ratio, n, True, args.kv_share, args.arch, moe, targets)
                ids = torch.randint(0, vocab, (1, t))
                peaks.append(trainer_step_peak(model, ids, autocast=autocast, fp32_outputs=False))
            checkpoint = 4 if args.kind == "qlora" else 2
            step = per_token(*peaks, t1, t2, 1)
            row["checkpointed_step_peak_bytes_per_token"] = round(step, 1)
            row["recompute_bytes_per_token_per_hidden"] = round((step - checkpoint * n * h - 12 * vocab) / h, 3)
            results.append(row)
    print(json.dumps(dict(
        transformers=sys.modules["transformers"].__version__,
        torch=torch.__version__,
        peft=sys.modules["peft"].__version__ if "peft" in sys.modules else None,
        results=results,
    ), indent=1))


if __name__ == "__main__":
    main()

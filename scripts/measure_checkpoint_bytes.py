#!/usr/bin/env python3
"""Counts what an HF + PEFT LoRA or QLoRA step holds per token at its peak, by hidden unit and layer.

Issue #45 item 7, beside measure_loss_bytes.py (whose LiveBytes counter and Trainer step it uses): peft's
prepare_model_for_kbit_training casts a QLoRA model's embeddings, norms and head to fp32, and
bitsandbytes' Linear4bit returns its input's dtype, so the residual stream, and with it every
checkpointed layer input, may stay in fp32. This runs the real step on the CPU and counts:

  - a LlamaForCausalLM saved with random weights (hidden 256 or 512, SwiGLU 3.5 × hidden, head
    dimension 64, a quarter as many KV heads), loaded back through BitsAndBytesConfig(nf4,
    compute bf16) and prepare_model_for_kbit_training (`qlora`), or in bf16 with
    enable_input_require_grads (`lora`); gradient checkpointing; LoRA r 8 on every linear layer;
  - the step under autocast(bf16): outputs = model(input_ids, labels), outputs dropped,
    loss.backward().

Double differences of the step's peak over (tokens, layers), (tokens, vocabulary) and (tokens,
hidden) give, per token: the bytes a checkpointed input takes per hidden unit per layer, the
loss's bytes per vocabulary entry, and what else the peak holds per hidden unit.

Results (torch 2.15 CPU, transformers 4.57.6, peft 0.17.1, bitsandbytes 0.50.2; December 2026):
  qlora: checkpoint 4.000 bytes a hidden unit a layer, loss 12.000 a vocabulary entry, 4.000
         more a hidden unit at the peak (the peak is the loss's backward: the recomputed layer is
         not alive yet);
  lora:  checkpoint 2.000, loss 12.000, 4.000.

    PYTHONPATH=<transformers>:<peft, accelerate, bitsandbytes> python3 scripts/measure_checkpoint_bytes.py qlora

CPU only (bitsandbytes >= 0.48 quantizes on the CPU); about a minute a mode.
"""
import json
import os
import sys
import tempfile
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_loss_bytes import trainer_step_peak  # noqa: E402

warnings.filterwarnings("ignore")


def step_peak(store, mode, vocab, tokens, hidden, layers):
    from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
    from transformers import BitsAndBytesConfig, LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=hidden * 7 // 2,
        num_hidden_layers=layers,
        num_attention_heads=hidden // 64,
        num_key_value_heads=max(1, hidden // 256),
        max_position_embeddings=4096,
        tie_word_embeddings=False,
    )
    path = os.path.join(store, f"{vocab}-{hidden}-{layers}")
    if not os.path.exists(path):
        LlamaForCausalLM(config).to(torch.bfloat16).save_pretrained(path)
    if mode == "qlora":
        nf4 = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16)
        model = LlamaForCausalLM.from_pretrained(path, quantization_config=nf4, dtype=torch.bfloat16, device_map="cpu", attn_implementation="sdpa")
        model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=True)
    else:
        model = LlamaForCausalLM.from_pretrained(path, dtype=torch.bfloat16, device_map="cpu", attn_implementation="sdpa")
        model.enable_input_require_grads()
        model.gradient_checkpointing_enable()
    targets = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
    model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, lora_dropout=0.0, target_modules=targets))
    model.train()
    ids = torch.randint(0, vocab, (1, tokens))
    return trainer_step_peak(model, ids, autocast=True, fp32_outputs=False)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "qlora"
    if mode not in ("qlora", "lora"):
        sys.exit("usage: measure_checkpoint_bytes.py qlora|lora")
    v1, v2, t1, t2, h1, h2, l1, l2 = 32000, 64000, 256, 512, 256, 512, 2, 4
    with tempfile.TemporaryDirectory() as store:
        p = {key: step_peak(store, mode, *key) for key in [
            (v1, t1, h1, l1), (v1, t2, h1, l1), (v1, t1, h1, l2), (v1, t2, h1, l2),
            (v1, t1, h2, l1), (v1, t2, h2, l1), (v2, t1, h1, l1), (v2, t2, h1, l1),
        ]}
    dt = t2 - t1
    checkpoint = (p[(v1, t2, h1, l2)] - p[(v1, t1, h1, l2)] - p[(v1, t2, h1, l1)] + p[(v1, t1, h1, l1)]) / (dt * (l2 - l1) * h1)
    loss = (p[(v2, t2, h1, l1)] - p[(v2, t1, h1, l1)] - p[(v1, t2, h1, l1)] + p[(v1, t1, h1, l1)]) / (dt * (v2 - v1))
    per_hidden = (p[(v1, t2, h2, l1)] - p[(v1, t1, h2, l1)] - p[(v1, t2, h1, l1)] + p[(v1, t1, h1, l1)]) / (dt * (h2 - h1))
    print(json.dumps(dict(
        mode=mode,
        transformers=sys.modules["transformers"].__version__,
        peft=sys.modules["peft"].__version__,
        checkpoint_bytes_per_hidden_per_layer=round(checkpoint, 3),
        loss_vocab_bytes=round(loss, 3),
        other_bytes_per_hidden_at_peak=round(per_hidden - l1 * checkpoint, 3),
    )))


if __name__ == "__main__":
    main()

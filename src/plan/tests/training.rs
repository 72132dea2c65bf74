//! Memory of training: optimizer states, gradients, checkpoints, the loss, and the engines that
//! change them.

use super::*;

#[test]
fn pure_bf16_adamw_is_8_bytes_per_parameter() {
    // optimizer_bytes_per_param = 4 (two bf16 moments, no fp32 master copy):
    // weights 2 + grads 2 + moments 4 = 8 B × 6.74e9 / 2^30 = 50.217 GiB, of which the optimizer
    // is 4 × 6.74e9 / 2^30 = 25.108 GiB.
    let w = workload("ft", Kind::FullFinetune, Some("Llama-2-7B"));
    let p = plan(input(
        vec![w],
        vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
        &[("optimizer_bytes_per_param", 4.0)],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100-80G");
    assert!(close(v(&vals, "optimizer_gib"), 25.108, 1e-3));
    let states = v(&vals, "weights_gib") + v(&vals, "grads_gib") + v(&vals, "optimizer_gib");
    assert!(close(states, 50.217, 1e-3), "{states}");
}

#[test]
fn full_finetune_of_7b_needs_16_bytes_per_parameter_and_no_single_80gb_card() {
    let mut w = workload("ft", Kind::FullFinetune, Some("Llama-2-7B"));
    w.numbers.hours_per_month = Some(100.0);
    let p = plan(input(
        vec![w.clone()],
        vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
        &[],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100-80G");
    // weights 2 + grads 2 + master 4 + moments 8 = 16 B × 6.74e9 / 2^30 = 100.43 GiB
    let states = v(&vals, "weights_gib") + v(&vals, "grads_gib") + v(&vals, "optimizer_gib");
    assert!(
        close(states, 16.0 * 6.74e9 / 2f64.powi(30), 1e-6),
        "{states}"
    );
    assert!(v(&vals, "gpus_per_replica") >= 2.0);
    // With one GPU per replica allowed, nothing fits and the workload is unplanned with a reason.
    w.numbers.max_gpus = Some(1.0);
    let p = plan(input(
        vec![w],
        vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
        &[],
    ))
    .unwrap();
    assert!(p.workloads[0].chosen.is_none());
    let warn = p
        .warnings
        .iter()
        .find(|x| x.message.contains("unplanned"))
        .expect("unplanned warning");
    assert!(
        warn.message.contains("at most 1 allowed"),
        "{}",
        warn.message
    );
    // #34 item 10: the unplanned workload's reason was English in a Chinese plan. 16 B ×
    // 6.74e9 = 100.4 GiB of states alone is more than one 80 GB card: 2 GPUs at the least.
    let zh = warn.zh.as_deref().expect("the reason in Chinese");
    assert!(
        zh.contains("未能规划：没有放得下的报价。在最大的报价 A100-80G")
            && zh.contains("每个副本需要 2 张 GPU（含余量")
            && zh.ends_with(
                "最多允许 1 张。请降低上下文长度、并发数或精度，提高 max_gpus，或添加更大的报价"
            ),
        "{zh}"
    );
    assert_eq!(
        p.workloads[0].unplanned.as_ref().map(|u| u.zh.as_str()),
        Some(zh)
    );
}

#[test]
fn qlora_holds_4_bit_base_weights_and_a_few_percent_of_the_training_states() {
    let mut w = workload("ql", Kind::Qlora, Some("Llama-2-7B"));
    w.numbers.hours_per_month = Some(10.0);
    let p = plan(input(
        vec![w],
        vec![offer("A100-40G", 40.0, Some(10.0), None, None, None)],
        &[],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100-40G");
    // 4-bit weights with block scales (0.516 B), and the embeddings and output head
    // (2 × 32,000 × 4,096 = 0.262 B parameters) cast to fp32 for QLoRA training:
    // ((6.74 − 0.262144) × 0.516 + 0.262144 × 4) × 1e9 / 2^30 = 4.0896 GiB
    assert!(
        close(v(&vals, "base_weights_gib"), 4.0896, 1e-3),
        "{}",
        v(&vals, "base_weights_gib")
    );
    // trained: rank 16 on every linear layer, counted from the shape (lora_params_b):
    // 16 × 32 × (2 × (4,096 + 4,096) + 2 × (4,096 + 4,096) + 3 × (4,096 + 11,008))
    // = 16 × 32 × 78,080 = 39,976,960 (0.59% of 6.74e9); grads 2 B + optimizer 12 B = 14 B ×
    // 39,976,960 / 2^30 = 0.52124 GiB, 0.59% of the 87.9 GiB of full fine-tuning's states.
    assert!(close(v(&vals, "trained_params_b"), 0.03997696, 1e-9));
    let states = v(&vals, "grads_gib") + v(&vals, "optimizer_gib");
    assert!(close(states, 0.52124, 1e-4), "{states}");
}

/// #45: a LoRA's trained parameters counted from the model's shapes (lora_params_b), an MoE's
/// routed experts included; a stated share, or a model whose shapes are not known, takes a share.
#[test]
fn a_lora_trains_rank_times_in_plus_out_of_each_adapted_matrix() {
    let trained = |model: Option<&str>, set: &[(&str, f64)]| {
        let mut w = workload("l", Kind::Lora, model);
        w.numbers.hours_per_month = Some(10.0);
        // The workload's lora_rank column; the rest are assumptions.
        let (rank, set): (Vec<_>, Vec<_>) = set.iter().partition(|(k, _)| *k == "lora_rank");
        w.numbers.lora_rank = rank.first().map(|(_, r)| *r);
        if model.is_none() {
            w.numbers.params_b = Some(7.0);
        }
        let card = offer("H200", 141.0, Some(10.0), None, None, None);
        v(&values_of(w, card, &set), "trained_params_b")
    };
    // Qwen3-30B-A3B (48 layers, hidden 2,048, 32 query and 4 KV heads of 128, 128 experts of
    // width 768) at the default rank 16, every linear layer and the experts:
    //   attention 2 × (2,048 + 32 × 128) + 2 × (2,048 + 4 × 128) = 12,288 + 5,120 = 17,408
    //   experts, gate and up fused at twice the rank (PEFT 0.22 on transformers 5):
    //             128 × (2 × (2,048 + 2 × 768) + (768 + 2,048)) = 128 × 9,984 = 1,277,952
    //   16 × 48 × (17,408 + 1,277,952) = 994,836,480, 3.26% of its 30.53 B: what PEFT 0.22
    //   counts on transformers 5.25 (scripts/count_lora_params.py)
    let moe = Some("Qwen3-30B-A3B");
    assert!(close(trained(moe, &[]), 0.99483648, 1e-12));
    // transformers 4's separate expert Linears (lora_fused_gate_up no, the hf-peft profile):
    // 128 × 3 × (2,048 + 768) = 1,081,344 an MoE layer; 16 × 48 × (17,408 + 1,081,344) =
    // 843,841,536, what PEFT 0.17.1 counts on transformers 4.57.6
    let separate = [("lora_fused_gate_up", 0.0)];
    assert!(close(trained(moe, &separate), 0.843841536, 1e-12));
    // Adapters on the attention alone (no expert in the target list): 16 × 48 × 17,408
    assert!(close(
        trained(moe, &[("lora_on_experts", 0.0)]),
        0.013369344,
        1e-12
    ));
    // Llama-3.1-8B at rank 64 on q, k, v and o only: 64 × 32 × (2 × (4,096 + 4,096) +
    // 2 × (4,096 + 8 × 128)) = 64 × 32 × 26,624 = 54,525,952
    let attention_only = [("lora_rank", 64.0), ("lora_on_mlp", 0.0)];
    assert!(close(
        trained(Some("Llama-3.1-8B"), &attention_only),
        0.054525952,
        1e-12
    ));
    // A stated share wins over the count: 0.5% of 30.53 B
    let stated = [("lora_trainable_fraction", 0.005)];
    assert!(close(trained(moe, &stated), 0.15265, 1e-9));
    // No shapes (parameters only): 1% of 7 B (seed 000: under 1%)
    assert!(close(trained(None, &[]), 0.07, 1e-9));
}

/// #45: the plan says how much of an MoE LoRA's training state its experts' adapters are.
#[test]
fn an_moe_lora_says_what_its_experts_adapters_hold() {
    let run = |model: &str, set: &[(&str, f64)]| {
        let mut w = workload("moe-lora", Kind::Lora, Some(model));
        w.numbers.hours_per_month = Some(10.0);
        let card = offer("B200", 180.0, Some(10.0), None, None, None);
        plan(input(vec![w], vec![card], set)).unwrap()
    };
    let note = |p: &Plan| {
        p.warnings
            .iter()
            .find(|w| w.message.contains("lora_on_experts no"))
            .map(|w| w.message.clone())
    };
    // Qwen3-30B-A3B at rank 16: the experts' adapters 16 × 48 × 128 × 9,984 = 981,467,136 of
    // 994,836,480 trained; their adapter (2 B), gradient (2 B) and AdamW states (12 B):
    // 981,467,136 × 16 / 2^30 = 14.625 GiB; without them 13,369,344 (13.4 M).
    let said = note(&run("Qwen3-30B-A3B", &[])).expect("the experts' adapters are named");
    for part in [
        "981 M of the 995 M parameters",
        "take 14.6 GiB",
        "it trains 13.4 M",
    ] {
        assert!(said.contains(part), "{part}: {said}");
    }
    // Nothing to say without adapters on the experts, with a share given, or for a dense model.
    assert_eq!(
        note(&run("Qwen3-30B-A3B", &[("lora_on_experts", 0.0)])),
        None
    );
    let stated = [("lora_trainable_fraction", 0.005)];
    assert_eq!(note(&run("Qwen3-30B-A3B", &stated)), None);
    assert_eq!(note(&run("Qwen3-8B", &[])), None);
}

/// Engine profiles (#16): Unsloth's QLoRA against transformers + PEFT's on the same workload.
#[test]
fn unsloth_offloads_its_checkpoints_and_never_holds_the_logits() {
    // Llama-3.1-8B QLoRA at 21,848 tokens, batch 1 (Unsloth's 12 GB row):
    //   hf-peft: (4 × 32 layers + 74) × 21,848 × 4,096 + 12 × 21,848 × 128,256 bytes
    //            = 18,076,860,416 + 33,625,645,056 = 48.1517 GiB of activations (peft's fp32
    //            embeddings and norms keep the checkpointed inputs in fp32: 4 bytes, not 2;
    //            the recomputed layer counted from the shape, layer_bytes: norms 8 + adapters
    //            12 + attention 4 × (32 + 8) × 128 / 4,096 = 5 + MLP (3 × 4 + 2) × 3.5 = 49)
    //   unsloth: checkpoints in CPU memory, no logits (Cut Cross Entropy), one layer recomputed
    //            at 52 bytes: 52 × 21,848 × 4,096 = 4,653,449,216 B = 4.3339 GiB
    //   embeddings and head (2 × 128,256 × 4,096 = 1,050,673,152 parameters) at 2 bytes, not 4:
    //            1,050,673,152 × 2 / 2^30 = 1.9570 GiB less
    //   8-bit AdamW over rank 16's 16 × 32 × (2 × (4,096 + 4,096) + 2 × (4,096 + 1,024)
    //            + 3 × (4,096 + 14,336)) = 41,943,040 adapter parameters (what Unsloth's
    //            notebooks print at r = 16): × 2 B = 0.078125 GiB, against 12 B: 0.46875 GiB
    let run = |engine: &str| {
        let w = engine_workload(Kind::Qlora, "Llama-3.1-8B", engine, 21848.0);
        values_of(
            w,
            offer("A100-80G", 80.0, Some(10.0), None, None, None),
            &[],
        )
    };
    let peft = run("hf-peft");
    let unsloth = run("unsloth");
    let act = |vals: &[(String, f64)]| v(vals, "train_activation_per_gpu_gib");
    assert!(close(act(&peft), 48.1517, 1e-3), "{}", act(&peft));
    assert!(close(act(&unsloth), 4.3339, 1e-3), "{}", act(&unsloth));
    let upcast = v(&peft, "base_weights_gib") - v(&unsloth, "base_weights_gib");
    assert!(close(upcast, 1.9570, 1e-3), "{upcast}");
    assert!(close(v(&unsloth, "optimizer_gib"), 0.078125, 1e-6));
    assert!(close(v(&peft, "optimizer_gib"), 0.46875, 1e-6));
}

/// Engine profiles (#16): LitGPT's QLoRA of October 2023 (bitsandbytes 0.41.1).
#[test]
fn litgpt_qlora_keeps_its_4_bit_inputs_and_quantizes_its_head() {
    // Llama-2-7B QLoRA at 1,304 tokens, batch 1, no activation checkpointing (its resource
    // table's row):
    //   layers   43.5 × 32 × 1,304 × 4,096                   = 7,434,928,128 B
    //   loss     10 × 1,304 × 32,000                          =   417,280,000 B (Fabric's fp32
    //            logit chunks and their fp32 log-softmax, and the previous step's fp32 logits
    //            alive through this forward: the litgpt profile's loss_vocab_bytes)
    //   inputs   2 × (3 × 4,096 + 11,008) × 1,304 × 32 layers = 1,944,190,976 B (1.8107 GiB)
    //            9,796,399,104 B = 9.1236 GiB of activations without the previous step's inputs
    //            (the resource table's row measured a first step: its settings give
    //            qlora_retained_inputs 0 and loss_vocab_bytes 8; validate's litgpt_qlora_holds_…);
    //   held     from the second step on, the previous step's inputs too, 1.8107 GiB more
    //            (qlora_retained_inputs: bitsandbytes 0.41's ctx.tensors live with the graph
    //            LitGPT's loop keeps through the next forward): 10.9343 GiB
    //   weights  ((6.74 − 0.262144) × 0.5625 + 0.262144 × 2 − 0.131072 × (2 − 0.5625)) × 1e9 /
    //            2^30 = 3.7064 GiB: the head (32,000 × 4,096) in 4 bits, the embeddings in bf16,
    //            and bnb.nf4's fp32 absmax a 64-weight block (4 / 64 = 0.0625 B a parameter),
    //            which the litgpt profile carries (3.4201 GiB at the default 0.016 of NF4-dq)
    //   the head dequantized to fp16 and bf16 for each product: 4 × 32,000 × 4,096 B
    //            = 0.4883 GiB a GPU
    let w = engine_workload(Kind::Qlora, "Llama-2-7B", "litgpt", 1304.0);
    let a100 = offer("A100-40G", 40.0, Some(10.0), None, None, None);
    let vals = values_of(w, a100, &[("grad_checkpointing", 0.0)]);
    let act = v(&vals, "train_activation_per_gpu_gib");
    assert!(close(act, 10.9343, 1e-3), "{act}");
    let weights = v(&vals, "base_weights_gib");
    assert!(close(weights, 3.7064, 1e-3), "{weights}");
    let copy = v(&vals, "kbit_transient_gib");
    assert!(close(copy, 0.4883, 1e-3), "{copy}");
}

/// Engine profiles (#16): LitGPT's FSDP LoRA keeps whole gradients for its frozen weights, so
/// more GPUs do not shrink them.
#[test]
fn litgpt_fsdp_lora_holds_the_frozen_weights_gradients_on_every_gpu() {
    // Llama-2-13B (13.0 B, 40 layers; embeddings and head 2 × 32,000 × 5,120 = 0.32768 B)
    // LoRA at 1,304 tokens with checkpointing, on 32 GB cards (32 / 1.2 = 26.7 GiB planned):
    //   one GPU           24.46 GiB of weights + 1.38 of activations + 1 of runtime: too much
    //   frozen gradients  (13.0 − 0.32768) × 1e9 × 2 B / 2^30 = 23.604 GiB on every GPU
    //   gathered layers   2 × (13.0 − 0.32768) × 1e9 / 40 × 2 B / 2^30 = 1.1802 GiB
    // so every GPU of a sharded replica needs over 23.6 + 1.18 + 1.35 + 1.38 = 27.5 GiB however
    // many share the weights: no replica fits (LitGPT's own table: 13B out of memory on two
    // 40 GB A100s, 35.57 GB a GPU on four).
    let w = engine_workload(Kind::Lora, "Llama-2-13B", "litgpt", 1304.0);
    let card = offer("card-32", 32.0, Some(10.0), None, None, None);
    let p = plan(input(vec![w], vec![card], &[])).unwrap();
    let vals = values_on(&p, 0, "card-32");
    assert!(p.chosen(0).is_none(), "no number of 32 GB cards holds it");
    assert!(v(&vals, "gpus_per_replica") > 1.0);
    let frozen = v(&vals, "frozen_grads_gib");
    assert!(close(frozen, 23.604, 1e-3), "{frozen}");
    let gathered = v(&vals, "gathered_gib");
    assert!(close(gathered, 1.1802, 1e-3), "{gathered}");
}

/// #45 item 8: a QLoRA sharded over several GPUs keeps its 16-bit parameters in 16 bits (FSDP
/// flattens a block into one type; TRL skips PEFT's fp32 cast for it) and every GPU keeps the
/// bitsandbytes scales whole.
#[test]
fn a_sharded_qlora_keeps_16_bit_parameters_and_every_gpu_keeps_the_4_bit_scales() {
    // Llama-2-70B (69.0 B; embeddings and head 2 × 32,000 × 8,192 = 0.524288 B) in NF4 with
    // double quantization (0.5 + 0.016 B a parameter), 2 × 2,048 tokens a GPU, DeepSpeed ZeRO-3,
    // LoRA on 0.15% of the parameters (PEFT's example: rank 8 on every linear).
    let mut w = engine_workload(Kind::Qlora, "Llama-2-70B", "deepspeed-zero3", 2048.0);
    w.numbers.batch_size = Some(2.0);
    let share = [("lora_trainable_fraction", 0.0015)];
    // On 48 GB cards (40 GiB planned) the weights (33.9 GiB) and a GPU's activations need two
    // GPUs (on 40 GB cards, 33.3 GiB planned, the 8.1 GiB of activations below take four):
    //   weights   ((69.0 − 0.524288) × 0.516 + 0.524288 × 2) × 1e9 / 2^30 = 33.883418 GiB, the
    //             embeddings and head in bf16 (2 B), not PEFT's fp32;
    //   scales    (69.0 − 0.524288) × 1e9 × 0.016 B / 2^30 × (1 − 1/2) = 0.510184 GiB a GPU
    //             beyond its half of them;
    //   training  (2 B × 80 checkpointed bf16 inputs + 52.5 B) × 4,096 × 8,192 / 2^30 =
    //             6.640625 GiB, and the loss 12 B × 4,096 × 32,000 / 2^30 = 1.464844 GiB:
    //             8.105469 GiB. The recomputed layer (layer_bytes) in bf16: norms 8 + adapters
    //             12 + attention 4 × (64 + 8) × 128 / 8,192 = 4.5 + MLP (3 × 2 + 2) × 28,672 /
    //             8,192 = 28, 52.5 B.
    // The chosen replica's GPUs, unquantized bytes, weights, scales and activations on a card.
    let check = |card: GpuOffer, want: [f64; 5]| {
        let vals = values_of(w.clone(), card, &share);
        let names = [
            "gpus_per_replica",
            "unquantized_bytes",
            "base_weights_gib",
            "kbit_scales_gib",
            "train_activation_per_gpu_gib",
        ];
        for (name, want) in names.into_iter().zip(want) {
            let got = v(&vals, name);
            assert!(close(got, want, 1e-5), "{name}: {got}, want {want}");
        }
    };
    check(
        offer("L40S", 48.0, Some(10.0), None, None, None),
        [2.0, 2.0, 33.883418, 0.510184, 8.105469],
    );
    // On one 141 GB card nothing is sharded: PEFT's cast holds them in fp32, ((69.0 −
    // 0.524288) × 0.516 + 0.524288 × 4) × 1e9 / 2^30 = 34.859981 GiB, the residual stream too
    // (4 B × 80 + 73.5 B) × 4,096 × 8,192 / 2^30 = 12.296875 GiB + 1.464844 = 13.761719 GiB
    // (the recomputed layer's MLP at (3 × 4 + 2) × 3.5 = 49: 8 + 12 + 4.5 + 49 = 73.5 B), and
    // no scales beyond the weights.
    check(
        offer("H200", 141.0, Some(10.0), None, None, None),
        [1.0, 4.0, 34.859981, 0.0, 13.761719],
    );
}

/// #45: what a layer saves for its backward, counted from the model's shape (layer_bytes;
/// scripts/measure_layer_bytes.py counted transformers 4.57.6's Llama layer on the CPU).
#[test]
fn a_layer_holds_what_its_shape_and_kind_save_for_the_backward() {
    let card = || offer("H200", 141.0, Some(10.0), None, None, None);
    let layer = |kind: Kind, model: &str, set: &[(&str, f64)]| {
        let mut w = workload("w", kind, Some(model));
        w.numbers.context_len = Some(2048.0);
        w.numbers.hours_per_month = Some(10.0);
        v(&values_of(w, card(), set), "layer_bytes")
    };
    // Llama-3.1-8B: attention 4 × (32 heads + 8 KV heads) × 128 / 4,096 = 5; MLP ratio
    // 14,336 / 4,096 = 3.5.
    //   full fine-tune: norms 2 × (4 + 2 + 2) = 16 + 5 + MLP 8 × 3.5 = 28: 49
    //   LoRA:           norms 2 × 4 = 8 + adapter inputs 6 × 2 = 12 + 5 + 28: 53
    //   QLoRA (peft's fp32 residual stream, 4 B): 8 + 12 + 5 + (3 × 4 + 2) × 3.5 = 49: 74
    //   LoRA on the attention only (lora_on_mlp no): the adapters' inputs of q, k, v and o,
    //   4 × 2 = 8, and no copy of the down projection's input: 8 + 8 + 5 + 3 × 2 × 3.5 = 42,
    //   QLoRA 8 + 8 + 5 + 3 × 4 × 3.5 = 63 (scripts/measure_layer_bytes.py --attention-only:
    //   42.45 and 63.70 at hidden 512)
    //   QLoRA without the cast (kbit_fp32_upcast no): 8 + 12 + 5 + 8 × 3.5 = 53, as LoRA.
    let attention_only: &[(&str, f64)] = &[("lora_on_mlp", 0.0)];
    let no_cast: &[(&str, f64)] = &[("kbit_fp32_upcast", 0.0)];
    for (kind, set, want) in [
        (Kind::FullFinetune, &[][..], 49.0),
        (Kind::Lora, &[], 53.0),
        (Kind::Qlora, &[], 74.0),
        (Kind::Lora, attention_only, 42.0),
        (Kind::Qlora, attention_only, 63.0),
        (Kind::Qlora, no_cast, 53.0),
    ] {
        let got = layer(kind, "Llama-3.1-8B", set);
        assert!(
            close(got, want, 1e-9),
            "{kind:?} {set:?}: {got}, want {want}"
        );
    }
    // Qwen2.5-0.5B, full: attention 4 × (14 + 2) × 64 / 896 = 4.5714, MLP 8 × 4,864 / 896 =
    // 43.4286: 16 + 48 = 64 (the H200 ZeRO-3 run without checkpointing, samples/validation.csv).
    assert!(close(
        layer(Kind::FullFinetune, "Qwen2.5-0.5B", &[]),
        64.0,
        1e-9
    ));
    // A number in layer_activation_bytes replaces the count (Korthikanti et al. 2022's 34).
    let korthikanti = [("layer_activation_bytes", 34.0)];
    assert!(close(
        layer(Kind::Lora, "Llama-3.1-8B", &korthikanti),
        34.0,
        1e-12
    ));
}

/// #45: QK-norm and routed experts in layer_bytes (scripts/measure_layer_bytes.py --arch qwen3,
/// --arch qwen3moe, transformers 4.57.6 and 5.25.0).
#[test]
fn qk_norm_and_routed_experts_add_what_they_save_for_the_backward() {
    // A 180 GB card holds the QLoRA on one GPU (its experts unquantized, 108 GiB: below), where
    // peft casts the residual stream to fp32.
    let card = || offer("B200", 180.0, Some(10.0), None, None, None);
    let layer = |kind: Kind, model: &str, engine: Option<&str>, set: &[(&str, f64)]| {
        let mut w = workload("w", kind, Some(model));
        w.engine = engine.map(str::to_string);
        w.numbers.context_len = Some(2048.0);
        w.numbers.hours_per_month = Some(10.0);
        v(&values_of(w, card(), set), "layer_bytes")
    };
    // Qwen3-8B (qk_norm 1): query and key widths (32 + 8) × 128 / 4,096 = 1.25 hidden;
    // MLP 12,288 / 4,096 = 3.
    //   LoRA: norms 8 + adapters 12 + attention (4 + 4 for the norms' fp32 inputs) × 1.25 = 10
    //         + MLP 8 × 3 = 24: 54
    //   full: norms 16 + (4 + 6) × 1.25 = 12.5 + 24: 52.5
    // Qwen3-30B-A3B: widths (32 + 4) × 128 / 2,048 = 2.25; 8 routed experts of 768, no shared
    // expert (so no gate or up adapter of the layer's own: 8, not 12): MLP 8 × 6,144 / 2,048 = 3
    // hidden, 3 × 2 × 3 = 18 and the down projections' inputs 2 × 3 = 6 where they train.
    //   LoRA, transformers 5 (route 2 + 2 where the experts train): 8 + 8 + 8 × 2.25 = 18
    //         + 18 + 6 + 8 × 4 = 32: 90
    //   LoRA, hf-peft (transformers 4's loop, 4 + 4 a route): 8 + 8 + 18 + 24 + 64: 122
    //   QLoRA (peft's fp32 stream, unquantized_bytes 4): 8 + 8 + 18 + 3 × 4 × 3 + 6 = 42
    //         + 8 × (2 + 2 + 2 × (4 − 2)) = 64: 140
    //   full: 16 + 10 × 2.25 = 22.5 + 24 + 32: 94.5
    //   the attention alone adapted (lora_on_experts no): the experts' down inputs and the
    //   routes' grad bytes go: 8 + 8 + 18 + 18 + 8 × 2 = 68; hf-peft 8 + 8 + 18 + 18 + 8 × 4 = 84
    let experts_off: &[(&str, f64)] = &[("lora_on_experts", 0.0)];
    let moe = "Qwen3-30B-A3B";
    for (kind, model, engine, set, want) in [
        (Kind::Lora, "Qwen3-8B", None, &[][..], 54.0),
        (Kind::FullFinetune, "Qwen3-8B", None, &[], 52.5),
        (Kind::Lora, moe, None, &[], 90.0),
        (Kind::Lora, moe, Some("hf-peft"), &[], 122.0),
        (Kind::Qlora, moe, None, &[], 140.0),
        (Kind::FullFinetune, moe, None, &[], 94.5),
        (Kind::Lora, moe, None, experts_off, 68.0),
        (Kind::Lora, moe, Some("hf-peft"), experts_off, 84.0),
    ] {
        let got = layer(kind, model, engine, set);
        assert!(
            close(got, want, 1e-9),
            "{kind:?} {model} {engine:?} {set:?}: {got}, want {want}"
        );
    }
}

/// #45: transformers 5 holds an MoE's experts as 3D tensors, which bitsandbytes' 4-bit
/// conversion of nn.Linear skips (bitsandbytes issue 1849), and PEFT casts them to fp32.
#[test]
fn a_qlora_of_an_moe_holds_its_experts_unquantized_unless_the_stack_quantizes_them() {
    let run_model = |model: &str, engine: Option<&str>, set: &[(&str, f64)]| {
        let mut w = workload("w", Kind::Qlora, Some(model));
        w.engine = engine.map(str::to_string);
        w.numbers.context_len = Some(4096.0);
        w.numbers.hours_per_month = Some(10.0);
        let card = offer("B200", 180.0, Some(10.0), None, None, None);
        plan(input(vec![w], vec![card], set)).unwrap()
    };
    let run = |engine: Option<&str>, set: &[(&str, f64)]| run_model("Qwen3-30B-A3B", engine, set);
    // Qwen3-30B-A3B's routed experts: 128 × 3 × 2,048 × 768 × 48 layers = 28,991,029,248
    // parameters = 27 × 2^30, on a 180 GB card (one GPU holds them; on two, sharded, PEFT's
    // cast is skipped and they are bf16).
    //   default (kbit_quantizes_experts no, PEFT's fp32 cast): 27 × 4 B = 108 GiB
    //   quantized (NF4, double quantization: 0.5 + 0.016 B): 27 × 0.516 = 13.932 GiB
    let default = run(None, &[]);
    let vals = values_on(&default, 0, "B200");
    assert_eq!(v(&vals, "experts_unquantized"), 1.0);
    assert_eq!(v(&vals, "gpus_per_replica"), 1.0);
    assert!(close(v(&vals, "expert_weights_gib"), 108.0, 1e-9));
    let note = default
        .warnings
        .iter()
        .find(|w| w.message.contains("kbit_quantizes_experts yes"))
        .expect("the plan says why the experts are so large");
    assert!(note.message.contains("108 GiB"), "{}", note.message);
    assert!(note.message.contains("29 B"), "{}", note.message);
    for quantized in [
        run(None, &[("kbit_quantizes_experts", 1.0)]),
        run(Some("unsloth"), &[]),
        run(Some("hf-peft"), &[]),
    ] {
        let vals = values_on(&quantized, 0, "B200");
        assert_eq!(v(&vals, "experts_unquantized"), 0.0);
        assert!(close(v(&vals, "expert_weights_gib"), 13.932, 1e-9));
        assert!(!quantized
            .warnings
            .iter()
            .any(|w| w.message.contains("kbit_quantizes_experts")));
    }
    // Without PEFT's cast (kbit_fp32_upcast no) the experts stay bf16: 27 × 2 = 54 GiB.
    let bf16 = values_on(&run(None, &[("kbit_fp32_upcast", 0.0)]), 0, "B200");
    assert!(close(v(&bf16, "expert_weights_gib"), 54.0, 1e-9));
    // A dense QLoRA has no experts to leave: Qwen3-8B says nothing of them.
    let dense = run_model("Qwen3-8B", None, &[]);
    assert_eq!(v(&values_on(&dense, 0, "B200"), "experts_unquantized"), 0.0);
}

#[test]
fn the_loss_and_gradients_not_live_together_count_the_larger() {
    // Llama-2-7B full fine-tuning, 8 sequences of 2,048 tokens a GPU (16,384 tokens), vocabulary
    // 32,000, with torchtitan's loss, whose loop keeps the fp32 logits through the backward
    // (loss_vocab_bytes 16; samples/validation.csv torchtitan-*): the loss holds 16 B × 16,384 ×
    // 32,000 / 2^30 = 7.8125 GiB on each GPU. Gradients: 2 B × 6.74e9 / 2^30 = 12.554 GiB a
    // replica.
    let run = |engine: &str, set: &[(&str, f64)]| {
        let set: Vec<(&str, f64)> = [("loss_vocab_bytes", 16.0)]
            .iter()
            .chain(set)
            .copied()
            .collect();
        values_on(&full_finetune_7b(Some(engine), 8.0, &set), 0, "A100-80G")
    };
    // Default (gradients live at the loss, as under gradient accumulation): all of it counts.
    let vals = run("fsdp", &[]);
    assert!(close(v(&vals, "train_loss_gib"), 7.8125, 1e-9));
    assert!(close(v(&vals, "train_loss_peak_gib"), 7.8125, 1e-9));
    // One micro-batch a step with gradients set to None, FSDP: the replica takes 2 GPUs
    // (as in data_parallel_training_copies_the_state_to_every_gpu_and_fsdp_shards_it, in
    // parallel.rs), each holding 12.554 / 2 = 6.277 GiB of gradients after the loss;
    // the loss adds 7.8125 − 6.277 = 1.5355 GiB beyond them.
    let vals = run("fsdp", &[("grads_live_at_loss", 0.0)]);
    let shards = v(&vals, "gpus_per_replica");
    assert_eq!(shards, 2.0);
    let grads = 2.0 * 6.74e9 / 2f64.powi(30);
    assert!(close(grads, 12.554, 0.001));
    assert!(
        close(v(&vals, "train_loss_peak_gib"), 7.8125 - grads / 2.0, 1e-6),
        "{}",
        v(&vals, "train_loss_peak_gib")
    );
    // ZeRO-2 shards the gradients too; plain data parallelism (hf-peft, zero_stage 0) holds all
    // 12.554 GiB on each GPU, more than the loss: it adds nothing.
    let vals = run("hf-peft", &[("grads_live_at_loss", 0.0)]);
    assert_eq!(v(&vals, "train_loss_peak_gib"), 0.0);
}

/// #45: a stack that frees the loss before it recomputes the first checkpointed layer
/// (torchtitan's train.py; recompute_after_loss) holds the larger of the two, not their sum.
#[test]
fn a_stack_that_frees_the_loss_before_recomputing_holds_the_larger_of_the_two() {
    // Llama-2-7B full fine-tuning sharded over 2 GPUs (zero_stage 3, the default; no engine, so
    // no gathered blocks move the GPU count), 8 × 2,048 = 16,384 tokens a GPU, the loss at 16
    // bytes a vocabulary entry (torchtitan's rows):
    //   checkpoints  2 B × 32 layers × 16,384 × 4,096 / 2^30           = 4 GiB
    //   the layer    (16 + 4 × (32 + 32) × 128 / 4,096 + 8 × 11,008 / 4,096 = 45.5 B)
    //                × 16,384 × 4,096 / 2^30                           = 2.84375 GiB
    //   the loss     16 B × 16,384 × 32,000 / 2^30                     = 7.8125 GiB
    let run = |set: &[(&str, f64)]| {
        let set: Vec<(&str, f64)> = [("loss_vocab_bytes", 16.0)]
            .iter()
            .chain(set)
            .copied()
            .collect();
        let vals = values_on(&full_finetune_7b(None, 8.0, &set), 0, "A100-80G");
        assert_eq!(v(&vals, "gpus_per_replica"), 2.0);
        assert!(close(v(&vals, "checkpoints_gib"), 4.0, 1e-12));
        assert!(close(v(&vals, "layer_activations_gib"), 2.84375, 1e-12));
        v(&vals, "train_activation_per_gpu_gib")
    };
    // The default adds them: 4 + 2.84375 + 7.8125 = 14.65625 GiB; freed first, the loss is the
    // larger: 4 + 7.8125 = 11.8125 GiB.
    assert!(close(run(&[]), 14.65625, 1e-12));
    assert!(close(run(&[("recompute_after_loss", 1.0)]), 11.8125, 1e-12));
    // With the gradients set to None as well, the loss adds 7.8125 − 12.554 / 2 = 1.5355 GiB
    // beyond the gradients (the_loss_and_gradients_not_live_together_count_the_larger), and the
    // layer is the larger: 4 + 2.84375 = 6.84375 GiB, where the sum is 8.3793.
    let torchtitan = [("grads_live_at_loss", 0.0), ("recompute_after_loss", 1.0)];
    assert!(close(run(&torchtitan), 6.84375, 1e-12));
    let grads = 2.0 * 6.74e9 / 2f64.powi(30);
    let sum = run(&[("grads_live_at_loss", 0.0)]);
    assert!(close(sum, 6.84375 + 7.8125 - grads / 2.0, 1e-9), "{sum}");
}

#[test]
fn deepspeed_zero3_counts_its_bucket_and_the_optimizer_steps_fp32_sub_group() {
    // Llama-2-7B full fine-tuning, 1 × 2,048 tokens a GPU, checkpointed, on 80 GB A100s: 16 B ×
    // 6.74e9 / 2^30 = 100.4 GiB of states, so 2 GPUs, each with 3.37e9 parameters' share.
    // FSDP: the loss 12 B × 2,048 × 32,000 / 2^30 = 0.7324 GiB plus (2 × 32 + 45.5) B × 2,048 ×
    // 4,096 / 2^30 = 0.8555 GiB of activations = 1.5879 GiB; no bucket, no step transient. The
    // recomputed layer of a full fine-tune (layer_bytes): norms 16 + attention 4 × (32 + 32) ×
    // 128 / 4,096 = 8 + MLP 8 × 11,008 / 4,096 = 21.5, 45.5 B.
    let run = |engine: &str, set: &[(&str, f64)]| {
        values_on(&full_finetune_7b(Some(engine), 1.0, set), 0, "A100-80G")
    };
    let fsdp = run("fsdp", &[]);
    assert_eq!(v(&fsdp, "zero_step_gib"), 0.0);
    assert_eq!(v(&fsdp, "zero_bucket_gib"), 0.0);
    assert!(close(
        v(&fsdp, "train_activation_per_gpu_gib"),
        1.5879,
        1e-4
    ));
    // DeepSpeed ZeRO-3 (the deepspeed-zero3 profile): one 5e8-element bf16 bucket kept from
    // initialization, 2 B × 5e8 / 2^30 = 0.9313 GiB; the step turns a 1e9-element sub-group
    // (below the GPU's 3.37e9) into fp32 through a bf16 copy: 6 B × 1e9 / 2^30 = 5.5879 GiB,
    // larger than the loss and activations, which are freed by then.
    let zero3 = run("deepspeed-zero3", &[]);
    assert_eq!(v(&zero3, "gpus_per_replica"), 2.0);
    assert!(close(v(&zero3, "zero_bucket_gib"), 0.9313, 1e-4));
    assert!(close(v(&zero3, "zero_step_gib"), 5.5879, 1e-4));
    assert!(close(
        v(&zero3, "train_activation_per_gpu_gib"),
        5.5879,
        1e-4
    ));
    // Set on the Assumptions sheet with no engine named (zero_stage 3): a foreach AdamW (8
    // bytes) and a sub-group larger than the GPU's share, which is then the whole share, 8 B ×
    // 6.74e9 / GPUs (on 2 GPUs 25.11 GiB; the planner takes more GPUs, whose share is smaller).
    let set = [("zero_step_bytes", 8.0), ("zero_subgroup_elems", 1e10)];
    let big = values_on(&full_finetune_7b(None, 1.0, &set), 0, "A100-80G");
    let shards = v(&big, "gpus_per_replica");
    assert!(shards > 1.0, "the share, not the sub-group, is the smaller");
    assert!(
        close(
            v(&big, "zero_step_gib"),
            8.0 * 6.74e9 / shards / 2f64.powi(30),
            1e-6
        ),
        "{} on {shards} GPUs",
        v(&big, "zero_step_gib")
    );
}

#[test]
fn an_optimizer_stepped_in_backward_holds_one_gradient_at_a_time() {
    // Llama-2-7B full fine-tuning: all gradients 2 B × 6.74e9 / 2^30 = 12.554 GiB; stepped in
    // backward, the largest one, the embedding's 32,000 × 4,096 (above an FFN matrix's
    // 4,096 × 11,008): 2 B × 131,072,000 / 2^30 = 0.2441 GiB.
    let vals = values_on(&full_finetune_7b(None, 1.0, &[]), 0, "A100-80G");
    assert!(close(v(&vals, "grads_gib"), 12.554, 0.001));
    let fused = full_finetune_7b(None, 1.0, &[("optimizer_in_backward", 1.0)]);
    let vals = values_on(&fused, 0, "A100-80G");
    assert!(
        close(v(&vals, "grads_gib"), 0.24414, 1e-5),
        "{}",
        v(&vals, "grads_gib")
    );
    // Without the model's shapes it keeps every gradient rather than guess one.
    let mut w = workload("ft", Kind::FullFinetune, None);
    w.numbers.params_b = Some(7.0);
    w.numbers.hours_per_month = Some(10.0);
    let vals = values_of(
        w,
        offer("A100-80G", 80.0, Some(10.0), None, None, None),
        &[("optimizer_in_backward", 1.0)],
    );
    assert!(close(
        v(&vals, "grads_gib"),
        7e9 * 2.0 / 2f64.powi(30),
        1e-6
    ));
}

//! Mixture-of-experts models: expert weights and their padding, kernel floors, active-parameter
//! speed and FLOPs.

use super::*;

#[test]
fn gpt_oss_120b_in_mxfp4_fits_one_h100_at_4k_with_the_published_checkpoint_size() {
    // Experts: 128 × 3 × 2,880 × 2,880 × 36 = 114,661,785,600 parameters at MXFP4 (4.25 bits);
    // the rest, 116.83e9 − 114.66e9 = 2.168e9, in bf16: 2.168e9 × 2 + 114.66e9 × 0.53125
    // = 65.25e9 B, against the published checkpoint's 65,248,815,744 B.
    let mut w = workload("oss", Kind::Inference, Some("gpt-oss-120b"));
    w.expert_precision = Precision::Mxfp4;
    w.numbers.context_len = Some(4096.0);
    let p = plan(input(
        vec![w],
        vec![offer("H100", 80.0, Some(20.0), None, None, None)],
        &[],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "H100");
    assert_eq!(v(&vals, "expert_params_b"), 114.6617856);
    let bytes = v(&vals, "weights_gib") * 1073741824.0;
    let checkpoint = 65_248_815_744.0;
    assert!((bytes - checkpoint).abs() / checkpoint < 0.10, "{bytes}");
    assert!((bytes - 65.2496e9).abs() < 0.01e9, "{bytes}");
    // One H100 (80 GiB) holds it at 4k with the 20% headroom: one GPU per replica.
    assert_eq!(v(&vals, "gpus_per_replica"), 1.0);
    assert_eq!(v(&vals, "fits"), 1.0);
    assert!(p.chosen(0).is_some());
}

/// gpt-oss-120b with its MXFP4 experts, as OpenAI ships it, run by `engine` at 4,096 tokens.
fn gpt_oss_mxfp4(engine: &str) -> Workload {
    let mut w = engine_workload(Kind::Inference, "gpt-oss-120b", engine, 4096.0);
    w.expert_precision = Precision::Mxfp4;
    w
}

/// vLLM lays MXFP4 experts out for its kernels (#16): Marlin pads them below Hopper, Triton on
/// Hopper keeps a second copy of their scales; transformers holds the checkpoint as it is.
#[test]
fn vllm_pads_mxfp4_experts_for_marlin_and_keeps_triton_scales_twice() {
    // gpt-oss-120b's experts: 128 × 36 = 4,608 of 3 × 2,880 × 2,880 parameters at 17/32 bytes:
    //   checkpoint: 4,608 × 24,883,200 × 17 / 32          = 60,914,073,600 B
    //   Marlin (hidden to 3,072, width to 2,944 at one GPU):
    //               4,608 × 3 × 3,072 × 2,944 × 17 / 32    = 66,418,900,992 B (+5,504,827,392,
    //               the weights and scales research/sources/vllm-gptoss-weights.md counts)
    //   Triton on Hopper: the checkpoint's layout, and a copy of the scales beside it, one byte
    //               per 32 parameters: 114,661,785,600 / 32 = 3,583,180,800 B, held, never read
    // Each offer's expert weights, scale copy and weights a decode step does not read (less the
    // input embeddings) in bytes, and the share of the experts the step touches.
    let experts = |engine: &str, gpu: &str, cc: f64| {
        let w = gpt_oss_mxfp4(engine);
        let mut o = offer(gpu, 80.0, Some(20.0), None, None, None);
        o.compute_capability = cc;
        let vals = values_of(w, o, &[]);
        let bytes = |name: &str| v(&vals, name) * 1073741824.0;
        (
            bytes("expert_weights_gib"),
            bytes("expert_scale_copy_gib"),
            bytes("weights_gib") - bytes("decode_weights_gib") - bytes("input_embedding_gib"),
            v(&vals, "expert_touched_share"),
        )
    };
    // Within a byte (the GiB figures go through floating point).
    let near = |a: f64, b: f64| close(a, b, 1.0);
    let (e, copy, _, _) = experts("transformers", "A100", 8.0);
    assert!(near(e, 60_914_073_600.0) && near(copy, 0.0), "{e} {copy}");
    let (e, copy, _, _) = experts("vllm", "A100", 8.0);
    assert!(near(e, 66_418_900_992.0) && near(copy, 0.0), "{e} {copy}");
    // On Hopper the copy is held; a decode step skips it with the experts no token chose.
    let (e, copy, unread, touched) = experts("vllm", "H100", 9.0);
    assert!(
        near(e, 60_914_073_600.0) && near(copy, 3_583_180_800.0),
        "{e} {copy}"
    );
    assert!(near(unread, copy + e * (1.0 - touched)), "{unread}");
    // Blackwell runs them natively through FlashInfer (its own padding is not counted yet).
    let (e, copy, _, _) = experts("vllm", "B200", 10.0);
    assert!(near(e, 60_914_073_600.0) && near(copy, 0.0), "{e} {copy}");
}

/// Marlin pads each GPU's share of an expert's width (#16): at tensor parallel 2 the width per
/// GPU is 2,880 / 2 = 1,440, padded to 1,536, 3,072 in all against 2,944 on one GPU.
#[test]
fn marlin_pads_each_gpus_share_of_the_expert_width() {
    // gpt-oss-120b on 48 GiB Ada cards (compute capability 8.9) through vLLM. One card cannot
    // hold it, so the planner starts at two, where the experts take
    //   4,608 × 3 × 3,072 × 3,072 × 17 / 32 = 69,306,679,296 B a replica
    // (on one GPU they would be 4,608 × 3 × 3,072 × 2,944 × 17 / 32 = 66,418,900,992 B, as the
    // test above finds on an A100).
    let mut o = offer("L40", 48.0, Some(10.0), None, None, None);
    o.compute_capability = 8.9;
    let p = plan(input(vec![gpt_oss_mxfp4("vllm")], vec![o], &[])).unwrap();
    let two = p.workloads[0]
        .candidates
        .iter()
        .find(|c| p.value(c, "gpus_per_replica") == Some(2.0))
        .expect("a two-GPU replica");
    let bytes = p.value(two, "expert_weights_gib").unwrap() * 1073741824.0;
    assert!(close(bytes, 69_306_679_296.0, 1.0), "{bytes}");
    assert!(p.workloads[0]
        .candidates
        .iter()
        .all(|c| p.value(c, "gpus_per_replica") != Some(1.0)));
}

/// The formula values of one `model` chat in `precision` (its experts too) at 2,048 tokens on an
/// H100, with the assumptions `set`.
fn chat_values(model: &str, precision: Precision, set: &[(&str, f64)]) -> Vec<(String, f64)> {
    let mut w = workload("chat", Kind::Inference, Some(model));
    w.numbers.context_len = Some(2048.0);
    w.precision = precision;
    w.expert_precision = precision;
    values_of(w, offer("H100", 80.0, Some(20.0), None, None, None), set)
}

/// Triton's fused-MoE kernel has a floor at one token (#16): moe_layer_us a MoE layer, none for
/// a dense model.
#[test]
fn each_moe_layer_adds_the_fused_kernel_floor_to_a_decode_step() {
    // Qwen3-30B-A3B: 48 layers, all MoE: 48 × 30 µs = 1.44 ms a step more at moe_layer_us 30.
    // Qwen3-32B (dense, 64 layers): nothing.
    let step = |model: &str, us: f64| {
        let vals = chat_values(model, Precision::Bf16, &[("moe_layer_us", us)]);
        v(&vals, "decode_step_s")
    };
    let moe = step("Qwen3-30B-A3B", 30.0) - step("Qwen3-30B-A3B", 0.0);
    assert!(close(moe, 48.0 * 30e-6, 1e-12), "{moe}");
    assert_eq!(step("Qwen3-32B", 30.0), step("Qwen3-32B", 0.0));
}

/// vLLM 0.7.2's fused_marlin_moe (SGLang 0.4.6's GPTQ path) launches a kernel pair for every
/// expert a GPU holds (#16): marlin_moe_expert_us × experts a MoE layer, for int4 experts only.
#[test]
fn marlin_moe_launches_every_held_expert_for_int4_experts_only() {
    // Qwen3-30B-A3B in int4: 48 MoE layers × 128 experts × 3.98 µs = 24,453.12 µs = 24.45 ms a
    // step more; moe_fixed_us with moe_layer_us 30 beside it: 48 × (30 + 128 × 3.98)
    // = 48 × 539.44 = 25,893.12 µs. In bf16 the experts are not int4: 48 × 30 = 1,440 µs.
    let vals_of = |precision: Precision, us: f64| {
        chat_values(
            "Qwen3-30B-A3B",
            precision,
            &[("moe_layer_us", 30.0), ("marlin_moe_expert_us", us)],
        )
    };
    let int4 = vals_of(Precision::Int4, 3.98);
    assert!(
        close(v(&int4, "moe_fixed_us"), 25_893.12, 1e-6),
        "{}",
        v(&int4, "moe_fixed_us")
    );
    let added = v(&int4, "decode_step_s") - v(&vals_of(Precision::Int4, 0.0), "decode_step_s");
    assert!(close(added, 24_453.12e-6, 1e-12), "{added}");
    let bf16 = vals_of(Precision::Bf16, 3.98);
    assert!(
        close(v(&bf16, "moe_fixed_us"), 1_440.0, 1e-9),
        "{}",
        v(&bf16, "moe_fixed_us")
    );
}

#[test]
fn an_moe_decodes_at_active_speed_for_one_request_and_nears_total_at_a_batch() {
    // Qwen3-30B-A3B: 128 experts, 8 a token; experts 128 × 3 × 2,048 × 768 × 48
    // = 28,991,029,248 parameters; the rest 30.53e9 − 28.99e9 = 1.539e9.
    // One request reads 8/128 of the experts: 1.539e9 + 28.99e9 / 16 = 3.351e9 parameters,
    // its published 3.3B active, less the input embeddings it reads a row of
    // (151,936 × 2,048 = 0.311e9). Sixteen read 1 − (1 − 8/128)^16 = 64.4% of the experts, 128
    // read 99.97%.
    let read_share = |n: f64| {
        let mut w = workload("moe", Kind::Inference, Some("Qwen3-30B-A3B"));
        w.numbers.concurrency = Some(n);
        w.numbers.context_len = Some(1024.0);
        let vals = values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[]);
        assert_eq!(v(&vals, "concurrency_per_replica"), n);
        (
            v(&vals, "expert_touched_share"),
            v(&vals, "decode_weights_gib"),
            v(&vals, "weights_gib"),
        )
    };
    let (s1, d1, total) = read_share(1.0);
    assert_eq!(s1, 8.0 / 128.0);
    let active = (30.53 - 28.991029248 + 28.991029248 / 16.0 - 151_936.0 * 2048.0 / 1e9) * 2e9
        / 1073741824.0;
    assert!(close(d1, active, 1e-9), "{d1} vs {active}");
    let (s16, d16, _) = read_share(16.0);
    assert!(close(s16, 1.0 - (120.0f64 / 128.0).powi(16), 1e-12));
    assert!(d16 > d1 && d16 < total);
    let (s128, d128, _) = read_share(128.0);
    assert!(s128 > 0.9997 && close(d128, total, 0.02 * total));
    // A dense model reads all its weights at any batch but the input embeddings.
    let mut w = workload("dense", Kind::Inference, Some("Qwen3-32B"));
    w.numbers.concurrency = Some(1.0);
    let vals = values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[]);
    assert_eq!(
        v(&vals, "decode_weights_gib"),
        v(&vals, "weights_gib") - 151_936.0 * 5120.0 * 2.0 / 1073741824.0
    );
}

#[test]
fn an_eager_moe_block_pays_for_every_expert_it_walks_each_layer() {
    // transformers 4.51's Qwen3MoeSparseMoeBlock loops over all 128 experts of each of 48
    // layers (a torch.where host sync and the expert's kernels each, picked or not), so with
    // the transformers profile's eager_layer_us 610 and eager_expert_us 81 one decode step
    // launches for (48 × 610 + 48 × 128 × 81) µs = (29,280 + 497,664) µs = 0.526944 s. The
    // syncs keep the GPU from running ahead, so the step's bytes come after: 3.03974515e9
    // active parameters (the dense part, 8 of 128 experts, less the input embedding) × 2 B
    // = 6.0795e9 B and 2,049 tokens × 98,304 B of cache = 0.20143e9 B, at 2,000 × 0.7 GB/s:
    // 4.4864 ms, a step of 0.531430 s (1.882 tokens/s; measured 1.89 on an H20).
    let step = |model: &str, set: &[(&str, f64)]| {
        let mut w = workload("eager", Kind::Inference, Some(model));
        w.numbers.concurrency = Some(1.0);
        w.numbers.context_len = Some(2049.0);
        let vals = values_of(w, offer("H20", 96.0, Some(2.0), None, None, None), set);
        (v(&vals, "decode_step_s"), v(&vals, "decode_read_s"))
    };
    let eager = [("eager_layer_us", 610.0), ("eager_expert_us", 81.0)];
    let (s, read) = step("Qwen3-30B-A3B", &eager);
    assert!(close(s, 0.526944 + read, 1e-12), "{s} {read}");
    assert!(close(read, 0.0044864, 2e-6), "{read}");
    // Without the profile (every engine but transformers) the step is the memory time again.
    assert!(step("Qwen3-30B-A3B", &[]).0 < 0.01);
    // DeepSeek-V2-Lite's first layer is dense (dense_layers 1): 27 × 610 + 26 × 64 × 81
    // = 16,470 + 134,784 µs = 0.151254 s, and its bytes.
    let (s, read) = step("DeepSeek-V2-Lite", &eager);
    assert!(close(s, 0.151254 + read, 1e-12) && read > 0.0, "{s} {read}");
    // A dense model walks no experts and syncs once a step: Qwen3-0.6B stays at 28 × 610 µs
    // = 0.01708 s, its bytes read under the launches.
    assert!(close(step("Qwen3-0.6B", &eager).0, 0.01708, 1e-12));
}

#[test]
fn moe_training_flops_come_from_active_parameters() {
    // Full fine-tuning of Qwen3-30B-A3B on 100 M tokens: 6 × 3.353e9 × 1e8 = 2.0118e18 FLOP,
    // not 6 × 30.53e9 × 1e8 = 1.8318e19. At 312 TFLOPS × mfu 0.35 on one replica:
    // 2.0118e18 / 1.092e14 / 3600 = 5.118 GPU-hours per GPU of the replica.
    let mut w = workload("ft", Kind::FullFinetune, Some("Qwen3-30B-A3B"));
    w.numbers.train_tokens_m = Some(100.0);
    w.numbers.max_gpus = Some(8.0);
    let vals = values_of(
        w,
        offer("A100-80G", 80.0, Some(10.0), None, None, None),
        &[],
    );
    assert!(close(v(&vals, "train_flops"), 6.0 * 3.353e9 * 1e8, 1e6));
    assert!(close(
        v(&vals, "train_gpu_hours"),
        6.0 * 3.353e9 * 1e8 / (312e12 * 0.35) / 3600.0,
        1e-9
    ));
}

#[test]
fn vllm_on_blackwell_says_its_mxfp4_experts_run_weight_only() {
    // #45: the card multiplies MXFP4 natively, but vLLM's default backend feeds the experts
    // bf16 activations (mxfp4_bf16_activations): the plan says so where the compatibility
    // table has nothing to say, and prices the weight-only decode.
    let mut w = engine_workload(Kind::Inference, "gpt-oss-20b", "vllm", 1152.0);
    w.expert_precision = Precision::Mxfp4;
    w.numbers.concurrency = Some(1.0);
    let blackwell = GpuOffer {
        compute_capability: 10.0,
        ..offer("B200", 180.0, Some(30.0), None, None, None)
    };
    let p = plan(input(vec![w.clone()], vec![blackwell.clone()], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "weight_only_math"), Some(1.0));
    let said = |p: &Plan| {
        p.warnings.iter().any(|x| {
            x.message
                .contains("could multiply its MXFP4 experts natively")
        })
    };
    assert!(said(&p));
    // Without vLLM's bf16 activations (another engine): native, and nothing to say.
    w.engine = None;
    let p = plan(input(vec![w], vec![blackwell], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "weight_only_math"), Some(0.0));
    assert!(!said(&p));
    // A model with no MXFP4 experts whose products are weight-only for another reason (a QLoRA
    // of Qwen3-8B: bitsandbytes' 4-bit layers, weight_only_kernels) has no MXFP4 to speak of:
    // the portfolio sample named "its MXFP4 experts" for such a fine-tune on an H100.
    let mut qlora = workload("qlora", Kind::Qlora, Some("Qwen3-8B"));
    qlora.numbers.train_tokens_m = Some(10.0);
    let h100 = GpuOffer {
        compute_capability: 9.0,
        ..offer("H100", 80.0, Some(20.0), None, None, None)
    };
    let p = plan(input(vec![qlora], vec![h100], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "weight_only_math"), Some(1.0));
    assert!(!said(&p));
}

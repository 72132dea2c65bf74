//! Speed and latency: prefill and time to first token, decode, latency and throughput goals,
//! job hours.

use super::*;

#[test]
fn an_eager_prefill_pays_for_each_call_a_layer_makes() {
    // SGLang 0.5.6's calls a layer (research/sources/sglang-prefill-calls.md): 2 norms, 2
    // all-reduces under tensor parallelism, attention 7 (grouped-query) or 12 (latent), a dense
    // feed-forward 3, a mixture of experts 7 plus 4 for a shared expert, and with FP8
    // activations one quantization per weight product (attention 2 or 5, each feed-forward
    // part 2).
    // DeepSeek-R1 in FP8 on 141 GB cards spans 8 GPUs
    //   3 dense layers × (2 + 2 + 12 + 3 + 5 + 2)         = 3 × 26  =    78
    //   58 MoE layers  × (2 + 2 + 12 + 7 + 4 + 5 + 2 + 2) = 58 × 36 = 2,088
    //   2,166 calls; at prefill_call_us 68.1: 2,166 × 68.1 µs = 0.1475046 s of its TTFT.
    let w = deepseek_r1_fp8(610.0);
    // (a card of compute capability 9.0, which multiplies FP8 natively; on an 8.0 card FP8
    // weights run through weight-only kernels, 16-bit activations, and add no quantizations)
    let h200 = || GpuOffer {
        compute_capability: 9.0,
        ..offer("H200", 141.0, Some(30.0), None, None, None)
    };
    let eager = values_of(w.clone(), h200(), &[("prefill_call_us", 68.1)]);
    let graph = values_of(w, h200(), &[]);
    assert_eq!(v(&eager, "gpus_per_replica"), 8.0);
    assert_eq!(v(&eager, "eight_bit_activations"), 1.0);
    assert_eq!(v(&eager, "prefill_calls"), 2166.0);
    assert!(close(
        v(&eager, "ttft_s") - v(&graph, "ttft_s"),
        0.1475046,
        1e-9
    ));
    // On a 141 GB card of compute capability 8.0: 3 × 19 + 58 × 27 = 1,623.
    let cc8 = values_of(
        deepseek_r1_fp8(610.0),
        offer("G141", 141.0, Some(30.0), None, None, None),
        &[],
    );
    assert_eq!(v(&cc8, "eight_bit_activations"), 0.0);
    assert_eq!(v(&cc8, "prefill_calls"), 1623.0);
    // Llama-3.1-70B in bf16 on one 192 GB card: no all-reduces, 80 × (2 + 7 + 3) = 960; the
    // same on 8 cards of 24 GB, 80 × 14 = 1,120 (as the sglang profile's calibrate row on 8
    // A100s).
    let one = serving("Llama-3.1-70B", 610.0, "G192", 192.0);
    assert_eq!(v(&one, "gpus_per_replica"), 1.0);
    assert_eq!(v(&one, "prefill_calls"), 960.0);
    let tp8 = serving("Llama-3.1-70B", 610.0, "G24", 24.0);
    assert_eq!(v(&tp8, "gpus_per_replica"), 8.0);
    assert_eq!(v(&tp8, "prefill_calls"), 1120.0);
    // A training workload prefills nothing: no calls.
    let vals = values_of(
        workload("ft", Kind::Lora, Some("Llama-3.1-8B")),
        offer("H100", 80.0, Some(2.0), None, None, None),
        &[],
    );
    assert_eq!(v(&vals, "prefill_calls"), 0.0);
}

#[test]
fn video_and_image_jobs_are_sized_by_work_done() {
    // Wan2.1-14B, 720p clips of 81 frames: 21 × 80 × 45 = 75,600 latent tokens; working set
    // 75,600 × (3 × 13,824 + 4 × 5,120) × 2 B = 9,367,142,400 B.
    // 600 clips a month at 900 s each = 150 hours of one replica: one replica, 150 h billed.
    let mut w = workload("clips", Kind::VideoGen, Some("Wan2.1-14B"));
    w.online = false;
    w.numbers.resolution = Some(1280.0);
    w.numbers.frames = Some(81.0);
    w.numbers.items_per_month = Some(600.0);
    w.numbers.seconds_per_item = Some(900.0);
    let vals = values_of(w, offer("H100", 80.0, Some(20.0), None, None, None), &[]);
    assert_eq!(v(&vals, "video_tokens"), 75_600.0);
    assert_eq!(
        v(&vals, "video_request_gib") * 1073741824.0,
        9_367_142_400.0
    );
    assert_eq!(v(&vals, "work_replica_hours"), 150.0);
    assert_eq!(v(&vals, "replicas"), 1.0);
    assert_eq!(v(&vals, "run_hours"), 150.0);
    // 20,000 images a month at 30 s each = 166.67 hours.
    let mut w = workload("imgs", Kind::ImageGen, Some("FLUX.1-dev"));
    w.numbers.items_per_month = Some(20_000.0);
    w.numbers.seconds_per_item = Some(30.0);
    let vals = values_of(w, offer("L40S", 48.0, Some(10.0), None, None, None), &[]);
    assert!(close(v(&vals, "run_hours"), 20_000.0 * 30.0 / 3600.0, 1e-9));
}

#[test]
fn a_latency_goal_caps_requests_per_replica_and_adds_replicas() {
    // Llama-2-7B in fp16 on an 80 GiB card of 2,000 GB/s at 0.7 efficiency: a decode step reads
    // 1,400 GB/s = 1,303.86 GiB/s; at 40 tokens/s per request a step may read 32.60 GiB: the
    // 12.554 GiB of weights and (32.60 − 12.554) / 2 GiB of KV per 4,096-token request = 10.02,
    // so 10 requests per replica (memory would hold 25). 30 concurrent → 3 replicas, +20%
    // redundancy → 4 instances.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.context_len = Some(4096.0);
    w.numbers.concurrency = Some(30.0);
    w.numbers.min_tokens_per_s = Some(40.0);
    let vals = values_of(w, offer("G80", 80.0, None, Some(1000.0), None, None), &[]);
    assert_eq!(v(&vals, "bw_concurrency"), 10.0);
    assert_eq!(v(&vals, "mem_concurrency"), 25.0);
    assert_eq!(v(&vals, "concurrency_per_replica"), 10.0);
    assert_eq!(v(&vals, "replicas"), 3.0);
    assert_eq!(v(&vals, "instances"), 4.0);
}

#[test]
fn a_throughput_target_adds_replicas_from_the_measured_speed() {
    // A pilot measured 20 tokens/s per request; 10 requests per replica (concurrency 10) make
    // 200 tokens/s a replica, and a 1,000 tokens/s target needs 5 replicas (the concurrency alone
    // needs 1); +20% redundancy → 6 instances.
    let mut w = workload("api", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.context_len = Some(2048.0);
    w.numbers.concurrency = Some(10.0);
    w.numbers.tokens_per_s_per_request = Some(20.0);
    w.numbers.target_tps = Some(1000.0);
    let vals = values_of(w, offer("G80", 80.0, None, Some(1000.0), None, None), &[]);
    assert_eq!(v(&vals, "replica_tps"), 200.0);
    assert_eq!(v(&vals, "replicas_for_concurrency"), 1.0);
    assert_eq!(v(&vals, "replicas_for_tps"), 5.0);
    assert_eq!(v(&vals, "instances"), 6.0);
}

/// Training hours from the month's tokens (#17: no test covered them), worked by hand.
#[test]
fn lora_training_hours_follow_the_tokens() {
    let mut w = workload("tune", Kind::Lora, Some("Llama-2-7B"));
    w.numbers.params_b = Some(7.0);
    w.numbers.train_tokens_m = Some(100.0);
    w.numbers.runs_per_month = Some(1.0);
    let p = plan(input(
        vec![w],
        vec![offer("A100", 80.0, Some(10.0), None, None, None)],
        &[("cold_start_min", 0.0)],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100");
    // LoRA: 4 × 7e9 parameters × 1e8 tokens = 2.8e18 FLOPs, at 312 TFLOPS × mfu 0.35 =
    // 1.092e14 FLOP/s: 25,641.03 s = 7.1225 GPU-hours.
    let hours = 2.8e18 / 1.092e14 / 3600.0;
    assert!(close(v(&vals, "train_flops"), 2.8e18, 1.0));
    assert!(close(v(&vals, "train_gpu_hours"), hours, 1e-9));
    // One GPU per replica holds it: the instance runs 7.1225 h, billed by the hour (8 h) at
    // ¥10 = ¥80.
    assert_eq!(v(&vals, "gpus_per_replica"), 1.0);
    assert!(close(v(&vals, "run_hours"), hours, 1e-9));
    let (_, ch) = p.chosen(0).unwrap();
    assert_eq!(ch.mode, Mode::OnDemand);
    assert!(close(ch.gpu_cost, 80.0, 1e-9), "{}", ch.gpu_cost);
}

#[test]
fn llama_cpp_of_2024_accumulates_in_16_bits_and_expands_quantized_weights_per_chunk() {
    // Llama-2-7B in int4, a 1,024-token prompt prefilled in chunks of 512, on a card of
    // 312 TFLOPS (624 accumulating in 16 bits) and 2,000 GB/s:
    //   with prefill_accumulate_16bit the prefill runs at 624 TFLOPS, else at 312;
    //   with prefill_dequantize each of the 2 chunks reads the int4 linear weights and writes
    //   a 16-bit copy: (6.74e9 − 2 × 32,000 × 4,096) = 6.477856e9 parameters × (0.5 + 0.016
    //   group scales + 2) B = 16,298,285,696 B a chunk; 2 chunks / (2,000 GB/s × 0.7)
    //   = 0.0232833 s.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Int4;
    w.numbers.context_len = Some(1024.0);
    let mut g = offer("G80", 80.0, None, Some(1000.0), None, None);
    g.fp16_acc16_tflops = 624.0;
    let chunked = [("prefill_chunk_tokens", 512.0)];
    let vals = values_of(w.clone(), g.clone(), &chunked);
    assert_eq!(v(&vals, "prefill_tflops"), 312.0);
    assert_eq!(v(&vals, "prefill_dequant_s"), 0.0);
    let llama_cpp = [
        ("prefill_chunk_tokens", 512.0),
        ("prefill_accumulate_16bit", 1.0),
        ("prefill_dequantize", 1.0),
    ];
    let vals = values_of(w.clone(), g.clone(), &llama_cpp);
    assert_eq!(v(&vals, "prefill_tflops"), 624.0);
    assert!(close(v(&vals, "prefill_dequant_s"), 0.0232833, 1e-5));
    // A card with no 16-bit-accumulate figure runs at its fp16_tflops; fp16 weights expand
    // nothing.
    g.fp16_acc16_tflops = 0.0;
    assert_eq!(
        v(
            &values_of(w.clone(), g.clone(), &llama_cpp),
            "prefill_tflops"
        ),
        312.0
    );
    w.precision = Precision::Fp16;
    assert_eq!(v(&values_of(w, g, &llama_cpp), "prefill_dequant_s"), 0.0);
}

#[test]
fn a_prefill_that_materialises_its_attention_scores_pays_their_bytes() {
    // Llama-2-7B in fp16, an 8,192-token prompt, on a 312 TFLOPS, 2,000 GB/s card at
    // prefill_mfu 0.5, as in time_to_first_token_is_… below (0.80335 s with flash attention),
    // run without it:
    //   scores     32 heads × 32 layers × 8,192² / 2           = 3.4359738368e10
    //   traffic    24 bytes each (attention_score_bytes)        = 8.24633720832e11 B
    //   at 2,000 GB/s × bandwidth_efficiency 0.7 = 1.4e12 B/s    = 0.589024 s
    //   total      0.803353 + 0.589024                          = 1.392377 s.
    // Two cards under tensor parallelism split the FLOPs and the traffic, and all-reduce
    // (prefill_allreduce_s: 32 × 4 × 0.5 × 8,192 × 4,096 × 2 B at 600 GB/s × 0.295):
    //   0.39656 + 0.294512 + 32 × 320 µs + 0.024265              = 0.725577 s.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.context_len = Some(8192.0);
    let eager = [("prefill_mfu", 0.5), ("flash_attention", 0.0)];
    // An A100-like card: NVLink at 600 GB/s, which NCCL's all-reduce reaches 0.295 of.
    let g = || GpuOffer {
        interconnect_gbs: 600.0,
        ..offer("G80", 80.0, None, Some(1000.0), None, None)
    };
    let vals = values_of(w.clone(), g(), &eager);
    assert!(close(v(&vals, "prefill_scores"), 3.4359738368e10, 1e-9));
    assert!(close(v(&vals, "prefill_score_s"), 0.589024, 1e-5));
    assert!(close(v(&vals, "prefill_flops") / 1.23725641e14, 1.0, 1e-8));
    assert!(close(v(&vals, "ttft_s"), 1.392377, 1e-5));
    let mut two = g();
    two.gpus_per_node = 8.0;
    w.numbers.max_ttft_s = Some(1.0);
    let p = plan(input(vec![w.clone()], vec![two], &eager)).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(2.0));
    assert!(close(p.value(c, "ttft_s").unwrap(), 0.725577, 1e-5));
    w.numbers.max_ttft_s = None;
    // With flash attention on, a CUDA card before compute capability 8.0 still materialises
    // them; a ROCm card, whose compute capability is not given, does not.
    let flash = [("prefill_mfu", 0.5)];
    let mut turing = g();
    turing.compute_capability = 7.5;
    assert!(close(
        v(&values_of(w.clone(), turing, &flash), "ttft_s"),
        1.392377,
        1e-5
    ));
    let mut rocm = g();
    rocm.compute_capability = 0.0;
    rocm.platform = "rocm".to_string();
    assert!(close(
        v(&values_of(w, rocm, &flash), "ttft_s"),
        0.803353,
        1e-5
    ));
}

#[test]
fn time_to_first_token_is_the_prefill_at_prefill_mfu_and_a_goal_widens_the_replica() {
    // Llama-2-7B in fp16, an 8,192-token prompt, on a 312 TFLOPS card at prefill_mfu 0.5:
    //   linear     2 × (6.74e9 − 2 × 32,000 × 4,096 embedding and head) × 8,192
    //                                                          = 1.06133193e14 FLOP
    //   head       2 × 32,000 × 4,096, the last token only     = 2.62144e8 FLOP
    //   attention  4 × 32 heads × 128 × 32 layers × 8,192² / 2  = 1.7592186e13 FLOP
    //   total      1.23725641e14 FLOP / (312e12 × 0.5) = 0.79311 s on one card,
    //   plus 32 layers × prefill_layer_us 320 µs = 0.01024 s: 0.803353 s.
    // With max_ttft_s 0.5 one card is out; two cards under tensor parallelism take
    // 0.39656 + 0.01024 s and their all-reduces, 32 × 4 × 0.5 × 8,192 × 4,096 × 2 B =
    // 4,294,967,296 B at 600 GB/s × nvlink_allreduce_share 0.295 = 0.024265 s: 0.431065 s.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.context_len = Some(8192.0);
    let set = [("prefill_mfu", 0.5)];
    // An A100-like card: NVLink at 600 GB/s, which NCCL's all-reduce reaches 0.295 of.
    let g = || GpuOffer {
        interconnect_gbs: 600.0,
        ..offer("G80", 80.0, None, Some(1000.0), None, None)
    };
    let vals = values_of(w.clone(), g(), &set);
    assert!(close(v(&vals, "prefill_flops") / 1.23725641e14, 1.0, 1e-8));
    assert!(close(v(&vals, "ttft_s"), 0.803353, 1e-5));
    assert_eq!(v(&vals, "meets_ttft"), 1.0);
    assert_eq!(v(&vals, "gpus_per_replica"), 1.0);
    w.numbers.max_ttft_s = Some(0.5);
    let p = plan(input(vec![w], vec![g()], &set)).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(2.0));
    assert!(close(p.value(c, "ttft_s").unwrap(), 0.431065, 1e-5));
    let out = p.workloads[0]
        .candidates
        .iter()
        .find(|c| p.value(c, "gpus_per_replica") == Some(1.0))
        .expect("the one-card candidate is kept");
    assert_eq!(
        out.exclusion.as_ref().map(|e| e.text()),
        Some("the first token takes 0.8 s at the workload's context; max_ttft_s is 0.5 s")
    );
    assert_eq!(
        out.exclusion.as_ref().map(|e| e.said(Lang::Zh)),
        Some("按该负载的上下文长度，首 token 需要 0.8 s；max_ttft_s 为 0.5 s")
    );
    // A card whose TFLOPS are not known: no time to first token (and no division by zero)
    // without a goal; with one, the card is out and says why.
    let mut blind = g();
    blind.fp16_tflops = 0.0;
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.numbers.context_len = Some(8192.0);
    let vals = values_of(w.clone(), blind.clone(), &set);
    assert_eq!(v(&vals, "ttft_s"), 0.0);
    assert_eq!(v(&vals, "meets_ttft"), 1.0);
    w.numbers.max_ttft_s = Some(0.5);
    let p = plan(input(vec![w], vec![blind], &set)).unwrap();
    assert!(p.chosen(0).is_none());
    assert_eq!(
        p.workloads[0].candidates[0]
            .exclusion
            .as_ref()
            .map(|e| e.text()),
        Some("max_ttft_s is 0.5 s, and the card's TFLOPS are not known (GPUs sheet: fp16_tflops)")
    );
}

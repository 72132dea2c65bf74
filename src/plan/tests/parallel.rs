//! Replicas over several GPUs: tensor parallelism, nodes, data-parallel and sharded training.

use super::*;

#[test]
fn a_latent_cache_is_copied_to_every_gpu_of_a_tensor_parallel_group() {
    // DeepSeek-R1 in FP8 through vLLM on 141 GB cards spans 8 GPUs. Its latent cache has one
    // KV head, which vLLM gives every GPU whole: a 32,768-token request takes 70,272 B ×
    // 32,768 / 2^30 = 2.14453125 GiB on each of them, 8 × 2.14453125 = 17.15625 GiB of the
    // replica, so the pool holds 8 times fewer such requests than one copy would allow.
    let vals = r1_fp8_through_vllm_on_h200s(&[]);
    assert_eq!(v(&vals, "gpus_per_replica"), 8.0);
    assert_eq!(v(&vals, "kv_replicas"), 8.0);
    assert!(close(v(&vals, "request_kv_gib"), 2.14453125, 1e-12));
    assert!(close(v(&vals, "per_request_gib"), 17.15625, 1e-9));
    let pool = v(&vals, "kv_pool_gib");
    assert!(close(v(&vals, "max_concurrency"), pool / 17.15625, 1e-9));
    // An engine that does not split by head (data-parallel attention, llama.cpp's layers)
    // keeps one copy: 8 times the requests in the same pool.
    let split = r1_fp8_through_vllm_on_h200s(&[("kv_heads_split", 0.0)]);
    assert_eq!(v(&split, "kv_replicas"), 1.0);
    assert!(close(v(&split, "max_concurrency"), pool / 2.14453125, 1e-9));
    // Grouped-query attention with fewer KV heads than GPUs: Qwen3-235B-A22B's 4 heads on 8
    // GPUs, one head a GPU, 8 / 4 = 2 copies; Llama-3.1-70B's 8 heads on 8 GPUs, none.
    for (model, card, vram, copies) in [
        ("Qwen3-235B-A22B", "G80", 80.0, 2.0),
        ("Llama-3.1-70B", "G24", 24.0, 1.0),
    ] {
        let vals = serving(model, 4096.0, card, vram);
        let got = (v(&vals, "gpus_per_replica"), v(&vals, "kv_replicas"));
        assert_eq!(got, (8.0, copies), "{model}: GPUs and copies");
    }
}

#[test]
fn data_parallel_attention_holds_one_latent_cache_and_copies_the_attention_weights() {
    // #36 item 1: DeepSeek-R1 in FP8 through vLLM on 8 H200s at 32,768 tokens. Tensor-parallel
    // attention copies the latent cache to all 8 GPUs (17.15625 GiB a request). Data-parallel
    // attention (dp_attention) keeps each request's cache on its own GPU, one copy of
    // 70,272 B × 32,768 = 2.14453125 GiB, but every GPU holds the attention weights whole:
    // DeepSeek-R1's dense parameters 671.03 − 256 × 3 × 7,168 × 2,048 × 58 / 1e9 (653.909 B
    // of experts) = 17.121 B, less the embeddings and head 2 × 129,280 × 7,168 / 1e9 = 1.853 B
    // and the gated feed-forwards 3 × 7,168 × (3 × 18,432 + 58 × 2,048) / 1e9 = 3.743 B:
    // 11.524 B, in FP8 10.733 GiB, seven copies more than the one the weights count.
    let tp = r1_fp8_through_vllm_on_h200s(&[]);
    let dp = r1_fp8_through_vllm_on_h200s(&[("dp_attention", 1.0)]);
    let experts = 256.0 * 3.0 * 7168.0 * 2048.0 * 58.0 / 1e9;
    let attention = 671.03
        - experts
        - 2.0 * 129_280.0 * 7168.0 / 1e9
        - 3.0 * 7168.0 * (3.0 * 18_432.0 + 58.0 * 2048.0) / 1e9;
    assert!(close(v(&dp, "attention_params_b"), attention, 1e-9));
    assert!((attention - 11.524).abs() < 1e-3, "{attention}");
    let copy = attention * 1e9 / 1073741824.0;
    assert!(close(v(&dp, "dp_attention_gib"), copy, 1e-9));
    assert_eq!(v(&tp, "dp_attention_gib"), 0.0);
    assert_eq!(v(&dp, "gpus_per_replica"), 8.0);
    assert_eq!(v(&dp, "kv_replicas"), 1.0);
    assert!(close(v(&dp, "per_request_gib"), 2.14453125, 1e-9));
    // The pool loses the seven extra copies: the tensor-parallel pool less 7 × 10.733 GiB.
    let pool = v(&tp, "kv_pool_gib") - 7.0 * copy;
    assert!(close(v(&dp, "kv_pool_gib"), pool, 1e-9));
    assert!(close(v(&dp, "max_concurrency"), pool / 2.14453125, 1e-9));
    // About 21.8 requests of 32k under tensor-parallel attention, about 139 under DP attention.
    let (tp_n, dp_n) = (v(&tp, "max_concurrency"), v(&dp, "max_concurrency"));
    assert!(
        (21.0..23.0).contains(&tp_n) && (130.0..150.0).contains(&dp_n),
        "{tp_n} {dp_n}"
    );
}

#[test]
fn a_two_gpu_replica_pools_memory_for_all_20_requests_on_a800() {
    // Qwen3-32B in bf16: 32.76e9 × 2 B = 61.02 GiB of weights; an 8,192-token request holds
    // 64 × 2 × 8 × 128 × 2 B × 8,192 = 2 GiB; the prefill chunk of 8,192 tokens
    // × (3 × 25,600 + 4 × 5,120) × 2 B = 1.48 GiB plus 0.5 GiB of engine buffers.
    // One A800 (80 GiB / 1.2 = 66.7 GiB usable, less 1 GiB of CUDA context) holds the 63.0 GiB
    // fixed part and one request: 20 one-GPU replicas, 24 instances with 20% redundancy.
    // Two A800s (2 × (66.7 − 1 − 0.35 of communication buffers) = 130.6 GiB) hold
    // (130.6 − 63.0) / 2 = 33 requests: one replica serves all 20, two instances: 4 GPUs.
    let mut w = workload("chat", Kind::Inference, Some("Qwen3-32B"));
    w.numbers.concurrency = Some(20.0);
    w.numbers.context_len = Some(8192.0);
    let a800 = offer("A800", 80.0, None, Some(6000.0), None, None);
    let p = plan(input(vec![w], vec![a800], &[])).unwrap();
    let (c, ch) = p.chosen(0).unwrap();
    let val = |n: &str| p.value(c, n).unwrap();
    assert_eq!(val("gpus_per_replica"), 2.0);
    assert_eq!(val("replicas"), 1.0);
    assert_eq!(val("instances"), 2.0);
    assert_eq!(val("gpus_total"), 4.0);
    assert_eq!(ch.gpu_cost, 4.0 * 6000.0);
    // The one-GPU replica was tried and lost: 24 GPUs.
    let one = p.workloads[0]
        .candidates
        .iter()
        .find(|c| p.value(c, "gpus_per_replica") == Some(1.0))
        .unwrap();
    assert_eq!(p.value(one, "gpus_total"), Some(24.0));
}

#[test]
fn deepseek_r1_in_fp8_spans_two_h100_nodes_and_fits_one_h200_node() {
    // 671 B parameters, the 653.9 B of experts in fp8 and the 1.85 B of embeddings and head in
    // bf16: 672.9e9 B = 626.7 GiB. Eight H100s plan 8 × (66.7 − 1.35) = 522.7 GiB: too little;
    // sixteen (two nodes, max_gpus 16) hold it. Eight H200s plan 8 × (117.5 − 1.35) = 929 GiB.
    let mut w = workload("r1", Kind::Inference, Some("DeepSeek-R1"));
    w.precision = Precision::Fp8;
    w.expert_precision = Precision::Fp8;
    w.numbers.context_len = Some(8192.0);
    w.numbers.concurrency = Some(8.0);
    w.numbers.max_gpus = Some(16.0);
    let mut h100 = offer("H100", 80.0, None, Some(12000.0), None, None);
    h100.compute_capability = 9.0;
    let p = plan(input(vec![w.clone()], vec![h100], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(16.0));
    assert_eq!(p.value(c, "nodes_per_replica"), Some(2.0));
    assert!(p.warnings.iter().any(|x| x
        .message
        .contains("one replica spans 2 nodes of 8 H100 (16 GPUs)")));
    w.numbers.max_gpus = None;
    let mut h200 = offer("H200", 141.0, None, Some(16000.0), None, None);
    h200.compute_capability = 9.0;
    let p = plan(input(vec![w], vec![h200], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(8.0));
    assert!(!p.warnings.iter().any(|x| x.message.contains("spans")));
}

/// Engine profiles (#16): how a multi-GPU training replica splits its state.
#[test]
fn data_parallel_training_copies_the_state_to_every_gpu_and_fsdp_shards_it() {
    // Full fine-tune of Llama-2-7B (6.74 B) in bf16 with mixed-precision AdamW, 2,048 tokens:
    //   weights 6.74e9 × 2 B / 2^30 = 12.554 GiB, gradients the same, optimizer 12 B a parameter
    //   = 75.325 GiB: 100.433 GiB of state.
    //   An 80 GB card plans 80 / 1.2 = 66.667 GiB, less 1 GiB runtime, 0.35 GiB of tensor-parallel
    //   buffers past one GPU and 1.588 GiB of activations ((2 × 32 + 45.5) × 2,048 × 4,096 +
    //   12 × 2,048 × 32,000 bytes with checkpointing; layer_bytes 45.5 for a full fine-tune of
    //   Llama-2-7B): 63.729 GiB for the state per GPU.
    // FSDP (zero_stage 3): 100.433 / 63.729 = 1.58 → a 2-GPU replica (1.60 with the fsdp
    //   profile's two gathered blocks, 0.754 GiB, below).
    // DDP (hf-peft, zero_stage 0): every GPU needs all 100.433 GiB: no number of GPUs holds it.
    // ZeRO-2 (deepspeed-zero2): each GPU also holds DeepSpeed's default reduction bucket,
    //   5e8 × 2 B / 2^30 = 0.9313 GiB, leaving 63.729 − 0.931 = 62.798 GiB; it holds the weights
    //   whole (12.554) and half the rest: (100.433 − 12.554) / (62.798 − 12.554) = 1.75 → 2 GPUs,
    //   the second GPU's copy of the weights in overhead:
    //   (1 + 0.35 + 0.9313) × 2 + 12.554 = 17.117 GiB.
    let run_with = |engine: Option<&str>, set: &[(&str, f64)]| full_finetune_7b(engine, 1.0, set);
    let run = |engine: Option<&str>| run_with(engine, &[]);
    let fsdp = run(Some("fsdp"));
    let (c, _) = fsdp.chosen(0).expect("FSDP plans it");
    let vals = values_on(&fsdp, 0, "A100-80G");
    assert_eq!(v(&vals, "gpus_per_replica"), 2.0);
    assert!(close(v(&vals, "replicated_gib"), 0.0, 1e-9));
    assert_eq!(c.offer, 0);
    // The default shards as FSDP does (zero_stage 3) on as many GPUs and holds the block it
    // computes whole (gathered_layers 1): (6.74 − 0.262144) × 1e9 / 32 layers × 2 B / 2^30
    // = 0.37706 GiB a GPU; the fsdp profile counts two blocks (gathered_layers 2: its rate
    // limiter, or FSDP2's prefetch), 0.75412 GiB.
    let default = run(None);
    let blank = values_on(&default, 0, "A100-80G");
    assert_eq!(v(&blank, "gpus_per_replica"), 2.0);
    assert!(close(v(&blank, "gathered_gib"), 0.37706, 1e-5));
    assert!(close(v(&vals, "gathered_gib"), 0.75412, 1e-5));
    for name in [
        "weights_gib",
        "grads_gib",
        "optimizer_gib",
        "train_activation_per_gpu_gib",
    ] {
        assert_eq!(v(&blank, name), v(&vals, name), "{name}");
    }
    let ddp = run(Some("hf-peft"));
    assert!(
        ddp.chosen(0).is_none(),
        "DDP cannot hold 100 GiB on an 80 GB card"
    );
    let zero2 = run(Some("deepspeed-zero2"));
    let vals = values_on(&zero2, 0, "A100-80G");
    assert_eq!(v(&vals, "gpus_per_replica"), 2.0);
    assert!(close(v(&vals, "replicated_gib"), 12.554, 0.001));
    assert!(close(v(&vals, "zero_bucket_gib"), 0.9313, 0.0001));
    assert!(
        close(v(&vals, "overhead_gib"), 17.117, 0.001),
        "{}",
        v(&vals, "overhead_gib")
    );
    // The bucket is ZeRO-2's: under FSDP (stage 3) the same figure adds nothing.
    let sharded = run_with(Some("fsdp"), &[("zero_bucket_elems", 1e9)]);
    assert_eq!(
        v(&values_on(&sharded, 0, "A100-80G"), "zero_bucket_gib"),
        0.0
    );
}

#[test]
fn a_tensor_parallel_prefill_over_pcie_pays_its_all_reduces() {
    // Llama-2-7B in fp16, an 8,192-token prompt at prefill_mfu 0.5 on two 312 TFLOPS cards
    // linked by PCIe alone at 64 GB/s (both directions): NCCL reaches pcie_allreduce_share
    // 0.23 of it, 14.72 GB/s. Two all-reduces a layer of 8,192 × 4,096 16-bit values, a ring
    // moving 2(n − 1)/n = 1 of each per GPU:
    //   32 layers × 4 × 0.5 × 8,192 × 4,096 × 2 B = 4,294,967,296 B / 14.72e9 = 0.291777 s,
    // on top of the FLOPs split two ways and the layers (0.39656 + 32 × 320 µs = 0.01024 s):
    // 0.698577 s. Over NVLink at 600 GB/s NCCL reaches nvlink_allreduce_share 0.295 of it,
    // 177 GB/s: the same all-reduces take 4,294,967,296 B / 177e9 = 0.024265 s.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.context_len = Some(8192.0);
    w.numbers.max_ttft_s = Some(0.75);
    let set = [("prefill_mfu", 0.5)];
    let mut pcie = offer("P80", 80.0, None, Some(1000.0), None, None);
    pcie.nvlink = false;
    pcie.interconnect_gbs = 64.0;
    let p = plan(input(vec![w], vec![pcie], &set)).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(2.0));
    assert!(close(p.value(c, "allreduce_gbs").unwrap(), 14.72, 1e-9));
    assert!(close(
        p.value(c, "prefill_allreduce_s").unwrap(),
        0.291777,
        1e-5
    ));
    assert!(close(p.value(c, "ttft_s").unwrap(), 0.698577, 1e-5));
}

#[test]
fn a_tensor_parallel_decode_over_pcie_pays_each_all_reduce_s_latency() {
    // #45 item 4. The same two PCIe cards at 64 GB/s: each decode step's layer pays two
    // all-reduces whose latency is pcie_hop_us (10.1 µs) for each of the ring's n − 1 = 1
    // steps, 2 × 1 × 10.1 = 20.2 µs, plus moving 4 × 1 request × 4,096 × 2 B × (1 − 1/2) at
    // 14.72 GB/s = 16,384 / 14,720 µs = 1.113043 µs: 21.313043 µs. Over NVLink the fixed part is
    // tp_layer_us × (1 − 1/2) = 32.5 µs; on 8 PCIe cards 2 × 7 × 10.1 = 141.4 µs against 56.875.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.concurrency = Some(1.0);
    let mut pcie = offer("P40", 40.0, None, Some(1000.0), None, None);
    pcie.nvlink = false;
    pcie.interconnect_gbs = 64.0;
    // 65,536 tokens of cache (32 GiB) beside 12.6 GiB of weights do not fit one 40 GB card.
    w.numbers.context_len = Some(65_536.0);
    let run = |gpu: &GpuOffer| {
        let p = plan(input(vec![w.clone()], vec![gpu.clone()], &[])).unwrap();
        let (c, _) = p.chosen(0).unwrap();
        assert_eq!(p.value(c, "gpus_per_replica"), Some(2.0));
        assert_eq!(p.value(c, "served_per_replica"), Some(1.0));
        p.value(c, "allreduce_layer_us").unwrap()
    };
    let us = run(&pcie);
    assert!(close(us, 21.313043, 1e-6), "{us}");
    let mut nvlink = pcie.clone();
    nvlink.nvlink = true;
    nvlink.interconnect_gbs = 600.0;
    // At nvlink_allreduce_share 0.295 of 600 GB/s, 177 GB/s: 32.5 + 16,384 / 177,000 µs =
    // 32.592565 µs.
    let us = run(&nvlink);
    assert!(close(us, 32.592565, 1e-6), "{us}");
}

#[test]
fn the_planner_shards_a_latent_cache_where_the_engine_offers_it() {
    // #45 item 5. DeepSeek-R1 in FP8 through vLLM at 131,072 tokens, 8 requests at once, on
    // 141 GB cards: a request's latent cache is 70,272 B × 131,072 / 2^30 = 8.578125 GiB.
    // Tensor parallelism copies it to all 8 GPUs of a replica (68.625 GiB a request, 549 GiB
    // for 8), which the 929 GiB of 8 H200s less 626.7 GiB of weights cannot hold: two
    // replicas, 16 GPUs.
    // Decode context parallelism (-dcp 8) keeps one copy spread over the 8: 68.6 GiB for 8.
    let mut w = deepseek_r1_fp8(131_072.0);
    w.engine = Some("vllm".into());
    w.online = false;
    w.numbers.concurrency = Some(8.0);
    w.numbers.max_gpus = Some(16.0);
    w.numbers.hours_per_month = Some(730.0);
    let mut h200 = offer("H200", 141.0, None, Some(16000.0), None, None);
    h200.compute_capability = 9.0;
    let run = |set: &[(&str, f64)]| plan(input(vec![w.clone()], vec![h200.clone()], set)).unwrap();
    let p = run(&[]);
    let (c, _) = p.chosen(0).unwrap();
    let val = |n: &str| p.value(c, n).unwrap();
    assert_eq!(c.layout, Layout::ContextParallel);
    assert_eq!(val("gpus_per_replica"), 8.0);
    assert_eq!(val("kv_replicas"), 1.0);
    assert!(close(val("per_request_gib"), 8.578125, 1e-9));
    assert_eq!(val("gpus_total"), 8.0);
    let (layout, flags) = p.layout(0).unwrap();
    assert_eq!(
        (layout, flags.as_str()),
        (Layout::ContextParallel, "-tp 8 -dcp 8")
    );
    // Each layer's decode step pays DCP's three collectives: 3/2 of the two all-reduces.
    assert!(close(
        val("dcp_layer_us"),
        1.5 * val("allreduce_layer_us"),
        1e-12
    ));
    assert!(val("dcp_layer_us") > 0.0);
    let noted = |p: &Plan, fp8: bool| {
        p.warnings.iter().any(|x| {
            x.message.contains("r1: planned with decode context parallelism: each GPU holds 1/n of every request's latent cache (-tp 8 -dcp 8)")
                && x.message.contains("PR 44044") == fp8
        })
    };
    assert!(noted(&p, false));
    // With an fp8 cache (half the bytes, so twice the requests to need the layout), the note
    // says which vLLM releases refuse it with -dcp.
    let mut fp8 = w.clone();
    fp8.kv_precision = Precision::Fp8;
    fp8.numbers.concurrency = Some(16.0);
    assert!(noted(
        &plan(input(vec![fp8], vec![h200.clone()], &[])).unwrap(),
        true
    ));
    // The chosen inputs carry the layout for the live formulas.
    let slot = p
        .inputs
        .iter()
        .position(|i| i.name == "decode_context_parallel")
        .unwrap();
    assert_eq!(p.workloads[0].chosen.as_ref().unwrap().inputs[slot], 1.0);
    // The layout as set is still among the candidates: two replicas of 8, the cache on each
    // GPU of a replica, 16 GPUs.
    let as_set = p.workloads[0]
        .candidates
        .iter()
        .find(|c| c.layout == Layout::AsSet && c.fits())
        .unwrap();
    assert_eq!(p.value(as_set, "kv_replicas"), Some(8.0));
    assert_eq!(p.value(as_set, "gpus_total"), Some(16.0));
    // An engine that offers neither (offers_* no in a workbook's own profile) plans 16.
    let mut no_engine = w.clone();
    no_engine.engine = None;
    let p = plan(input(vec![no_engine], vec![h200.clone()], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(c.layout, Layout::AsSet);
    assert_eq!(p.value(c, "gpus_total"), Some(16.0));
    assert!(p.layout(0).is_none());
    // SGLang offers data-parallel attention: one copy of the cache on 8 GPUs, and 7 more
    // copies of the 10.733 GiB of attention weights (dp_attention_gib): 8 GPUs.
    let mut sglang = w.clone();
    sglang.engine = Some("sglang".into());
    let p = plan(input(vec![sglang], vec![h200], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(c.layout, Layout::DataParallelAttention);
    assert_eq!(p.value(c, "gpus_total"), Some(8.0));
    assert_eq!(p.value(c, "kv_replicas"), Some(1.0));
    assert_eq!(p.value(c, "dcp_layer_us"), Some(0.0));
    assert_eq!(
        p.layout(0).unwrap().1,
        "--tp 8 --dp 8 --enable-dp-attention"
    );
}

#[test]
fn an_engine_that_splits_the_layers_reads_at_one_cards_bandwidth() {
    // #45: transformers' device_map='auto' puts whole layers on each GPU and runs them in
    // turn (splits_layers). Llama-2-7B in fp16 at 65,536 tokens needs two 40 GB cards (as in
    // a_tensor_parallel_decode_over_pcie_…); under tensor parallelism they read together,
    // 2 × 2,000 GB/s × bandwidth_efficiency 0.7 = 2,800 GB/s, and all-reduce twice a layer
    // (32.59 µs over NVLink); split by layers one card reads at a time, 1,400 GB/s, with no
    // all-reduce, and a prefill computes on one card at a time: the 1.23725641e14 FLOPs of an
    // 8,192-token prompt at 312 TFLOPS × prefill_mfu 0.69 take 0.574700 s, not half of it.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.concurrency = Some(1.0);
    w.numbers.context_len = Some(65_536.0);
    let card = GpuOffer {
        interconnect_gbs: 600.0,
        ..offer("G40", 40.0, None, Some(1000.0), None, None)
    };
    let run = |set: &[(&str, f64)]| {
        let p = plan(input(vec![w.clone()], vec![card.clone()], set)).unwrap();
        let (c, _) = p.chosen(0).unwrap();
        assert_eq!(p.value(c, "gpus_per_replica"), Some(2.0));
        let get = |k: &str| p.value(c, k).unwrap();
        (
            get("step_gpus"),
            get("decode_bandwidth_gbs"),
            get("allreduce_layer_us"),
        )
    };
    let (gpus, gbs, us) = run(&[]);
    assert_eq!((gpus, gbs), (2.0, 2800.0));
    assert!(close(us, 32.592565, 1e-6), "{us}");
    assert_eq!(run(&[("splits_layers", 1.0)]), (1.0, 1400.0, 0.0));
    let mut long = w.clone();
    long.numbers.context_len = Some(8192.0);
    let split = GpuOffer {
        vram_gib: 16.0,
        ..card.clone()
    };
    // 12.55 GiB of fp16 weights and 4 GiB of cache on 16 GiB cards: two of them.
    let p = plan(input(vec![long], vec![split], &[("splits_layers", 1.0)])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(2.0));
    assert_eq!(p.value(c, "prefill_allreduce_s"), Some(0.0));
    let flops = p.value(c, "prefill_flops").unwrap();
    assert!(close(flops / 1.23725641e14, 1.0, 1e-8));
    let ttft = p.value(c, "ttft_s").unwrap();
    // 0.574700 s of FLOPs and 32 × 320 µs.
    assert!(
        close(ttft, 1.23725641e14 / (312e12 * 0.69) + 0.01024, 1e-6),
        "{ttft}"
    );
}

//! Memory of serving: weights, the KV cache (latent, windowed, hybrid, vision), activations.

use super::*;

#[test]
fn llama2_7b_fp16_weights_are_12_55_gib() {
    let mut w = workload("api", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    let p = plan(input(
        vec![w],
        vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
        &[],
    ))
    .unwrap();
    // 6.74e9 × 2 B / 2^30 = 12.5546 GiB
    assert!(close(
        v(&values_on(&p, 0, "A100-80G"), "weights_gib"),
        12.5546,
        1e-3
    ));
}

#[test]
fn kv_cache_uses_kv_heads() {
    // 4 requests × 4,096 tokens = 16,384 tokens, fp16 (2 B), on an 80 GiB card that holds all 4:
    //   Llama-2-7B:   2 × 32 layers × 32 kv heads × 128 × 2 B = 524,288 B/token → 8 GiB
    //   Llama-3.1-8B: 2 × 32 × 8 × 128 × 2 = 131,072 B/token → 2 GiB
    //   Qwen2.5-7B:   2 × 28 × 4 × 128 × 2 = 57,344 B/token → 0.875 GiB
    for (model, want) in [
        ("Llama-2-7B", 8.0),
        ("Llama-3.1-8B", 2.0),
        ("Qwen2.5-7B", 0.875),
    ] {
        let mut w = workload("api", Kind::Inference, Some(model));
        w.numbers.concurrency = Some(4.0);
        w.numbers.context_len = Some(4096.0);
        let p = plan(input(
            vec![w],
            vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
            &[],
        ))
        .unwrap();
        let vals = values_on(&p, 0, "A100-80G");
        assert_eq!(v(&vals, "concurrency_per_replica"), 4.0, "{model}");
        assert!(
            close(v(&vals, "kv_cache_gib"), want, 1e-9),
            "{model}: {}",
            v(&vals, "kv_cache_gib")
        );
    }
}

#[test]
fn a_prefill_costs_three_ffn_and_four_hidden_16_bit_tensors_per_token() {
    // Qwen2.5-7B: 3 × 18,944 + 4 × 3,584 = 71,168 values × 2 bytes = 142,336 B per token.
    let mut w = workload("api", Kind::Inference, Some("Qwen2.5-7B"));
    w.numbers.context_len = Some(32768.0);
    let gpus = vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)];
    // A serving engine prefills 8,192 tokens at a time: 8,192 × 142,336 B = 1.0859375 GiB,
    // plus its fixed buffers of 0.5 GiB.
    let p = plan(input(vec![w.clone()], gpus.clone(), &[])).unwrap();
    let vals = values_on(&p, 0, "A100-80G");
    assert_eq!(v(&vals, "prefill_tokens"), 8192.0);
    assert_eq!(v(&vals, "prefill_activation_gib"), 1.0859375);
    assert_eq!(v(&vals, "fixed_activation_gib"), 1.5859375);
    // transformers generate prefills the whole 32,768-token context at once:
    // 32,768 × 142,336 B = 4.34375 GiB, and has no engine buffers.
    let p = plan(input(
        vec![w.clone()],
        gpus.clone(),
        &[
            ("prefill_chunk_tokens", 0.0),
            ("inference_activation_gib", 0.0),
        ],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100-80G");
    assert_eq!(v(&vals, "prefill_tokens"), 32768.0);
    assert_eq!(v(&vals, "fixed_activation_gib"), 4.34375);
    // Training has no prefill term.
    let p = plan(input(
        vec![workload("ft", Kind::Lora, Some("Qwen2.5-7B"))],
        gpus,
        &[],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100-80G");
    assert_eq!(v(&vals, "prefill_activation_gib"), 0.0);
}

#[test]
fn deepseek_v3_caches_one_latent_of_576_values_per_layer_and_token() {
    // Multi-head latent attention: 61 layers × (kv_lora_rank 512 + qk_rope_head_dim 64) × 2 B
    // = 70,272 B per token — not 61 × 2 × 128 heads × 128 × 2 B = 3,997,696 B (57× more).
    let w = deepseek_r1_fp8(8192.0);
    let vals = values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[]);
    assert_eq!(v(&vals, "kv_bytes_per_token"), 70_272.0);
    // One request of 8,192 tokens: 70,272 × 8,192 B = 0.536 GiB.
    assert!(close(
        v(&vals, "request_kv_gib"),
        70_272.0 * 8192.0 / 1073741824.0,
        1e-12
    ));
}

#[test]
fn transformers_before_4_36_holds_two_caches_while_it_concatenates() {
    // Llama-2-7B, one request of 8,192 tokens: 2 × 32 layers × 32 KV heads × 128 × 2 B × 8,192
    // = 4 GiB of cache. transformers 4.35's models concatenate each step's keys and values
    // onto new tensors while generate holds the old ones: 8 GiB at the step's end; from 4.36
    // the Cache classes hold one.
    let run = |engine: &str| {
        let w = engine_workload(Kind::Inference, "Llama-2-7B", engine, 8192.0);
        values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[])
    };
    let old = run("transformers-4.35");
    let new = run("transformers");
    assert!(close(v(&old, "request_kv_gib"), 4.0, 1e-12));
    assert!(close(v(&old, "per_request_gib"), 8.0, 1e-12));
    assert!(close(v(&new, "per_request_gib"), 4.0, 1e-12));
}

#[test]
fn qwen3_next_caches_keys_in_12_of_its_48_layers_and_a_fixed_state_in_the_rest() {
    // 12 gated-attention layers × 2 KV heads × 256 × 2 (K and V) × 2 B = 24,576 B per token;
    // the 36 Gated DeltaNet layers hold 37.69 MiB per request whatever its length (the
    // catalog's linear_state_mib). At 32,768 tokens: 24,576 × 32,768 B + 37.69 × 2^20 B
    // = 805,306,368 + 39,520,829.44 = 844,827,197.44 B = 0.78681 GiB, where 48 attention
    // layers would hold 3 GiB. A prefill computes scores in the 12 attention layers only:
    // 16 heads × 12 × 32,768² / 2 = 1.03079215104e11.
    let vals = serving("Qwen3-Next-80B-A3B", 32768.0, "H200", 141.0);
    assert_eq!(v(&vals, "full_attention_layers"), 12.0);
    assert_eq!(v(&vals, "kv_bytes_per_token"), 24_576.0);
    assert!(close(
        v(&vals, "request_kv_gib") * 1073741824.0,
        844_827_197.44,
        1e-9
    ));
    assert!(close(
        v(&vals, "prefill_scores") / 1.03079215104e11,
        1.0,
        1e-12
    ));
}

#[test]
fn gemma_3_27b_keeps_1024_tokens_in_52_of_its_62_layers() {
    // 2 × 16 KV heads × 128 × 2 B = 8,192 B per layer and token; a 32,768-token request holds
    // (10 × 32,768 + 52 × 1,024) × 8,192 B = 3,120,562,176 B = 2.906 GiB, not 62 × 32,768 ×
    // 8,192 B = 15.5 GiB.
    let vals = serving("Gemma-3-27B", 32768.0, "H100", 80.0);
    assert_eq!(v(&vals, "kv_bytes_per_layer"), 8192.0);
    assert_eq!(v(&vals, "request_kv_gib") * 1073741824.0, 3_120_562_176.0);
}

#[test]
fn gpt_oss_alternates_window_and_full_layers_and_llama_4_chunks_three_of_four() {
    // gpt-oss-120b: 36 layers, 18 sliding with a 128-token window; 8 KV heads × 64 × 2 × 2 B
    // = 2,048 B per layer and token. At 4,096 tokens: (18 × 4,096 + 18 × 128) × 2,048 B
    // = 155,713,536 B — half the 36 × 4,096 × 2,048 = 301,989,888 B of full attention.
    let mut w = workload("oss", Kind::Inference, Some("gpt-oss-120b"));
    w.expert_precision = Precision::Mxfp4;
    w.numbers.context_len = Some(4096.0);
    let vals = values_of(w, offer("H100", 80.0, Some(20.0), None, None, None), &[]);
    assert_eq!(v(&vals, "request_kv_gib") * 1073741824.0, 155_713_536.0);
    // Llama-4-Scout: 48 layers, 36 chunked at 8,192 tokens; 8 × 128 × 2 × 2 B = 4,096 B per
    // layer and token. At 131,072 tokens: (12 × 131,072 + 36 × 8,192) × 4,096 B
    // = 7,650,410,496 B, where full attention in every layer would hold 25,769,803,776 B (+237%).
    let mut w = workload("scout", Kind::Inference, Some("Llama-4-Scout"));
    w.numbers.context_len = Some(131_072.0);
    let vals = values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[]);
    assert_eq!(v(&vals, "request_kv_gib") * 1073741824.0, 7_650_410_496.0);
}

#[test]
fn a_vision_tower_stays_16_bit_and_image_tokens_hold_kv() {
    // Qwen2.5-VL-7B in int4: the 0.677 B vision tower stays bf16 (1.354e9 B); the language
    // model's 7.613 B are quantized as usual. 1,024 image tokens add to a request's 4,096 text
    // tokens: (4,096 + 1,024) × 57,344 B = 293,601,280 B.
    let mut w = workload("vl", Kind::Inference, Some("Qwen2.5-VL-7B"));
    w.precision = Precision::Int4;
    w.expert_precision = Precision::Int4;
    w.numbers.context_len = Some(4096.0);
    w.numbers.image_tokens = Some(1024.0);
    let vals = values_of(w, offer("A10", 24.0, Some(5.0), None, None, None), &[]);
    assert!(close(
        v(&vals, "vision_weights_gib"),
        0.677 * 2e9 / 1073741824.0,
        1e-12
    ));
    assert_eq!(v(&vals, "request_kv_gib") * 1073741824.0, 293_601_280.0);
}

#[test]
fn llama_3_1_405b_fp8_keeps_attention_in_bf16_and_weighs_57_gib_a_gpu_on_8() {
    // Meta's FP8 checkpoint (catalog: unquantized_params_b 77.11, its modules_to_not_convert:
    // 126 layers × 570,425,344 attention parameters + layers 0 and 125's MLPs, 2 × 2,617,245,696).
    // Embeddings and head: 2 × 128,256 × 16,384 = 4.202692608 B. FP8: 405.85 − 4.202692608 −
    // 77.11 = 324.537307392 B at 1 byte; BF16: 4.202692608 + 77.11 = 81.312692608 B at 2 bytes;
    // 487.162692608e9 B = 453.706 GiB, 56.713 GiB on each of 8 GPUs (vLLM logged 57.752 GiB on
    // 8 × H100: issue 6746). An all-FP8 body would be 410.052692608e9 B = 381.891 GiB (−17%).
    for (model, kept, gib) in [
        ("Llama-3.1-405B-FP8", 77.11, 453.7056),
        ("Llama-3.1-405B", 0.0, 381.8912),
    ] {
        let mut w = workload("fp8", Kind::Inference, Some(model));
        w.precision = Precision::Fp8;
        let vals = values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[]);
        assert!(close(v(&vals, "kept16_params_b"), kept, 1e-9), "{model}");
        assert!(close(v(&vals, "weights_gib"), gib, 1e-3), "{model}");
    }
}

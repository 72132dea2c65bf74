//! The mapping of config.json files checked by hand: Gated DeltaNet layers' state, a
//! checkpoint that keeps attention 16-bit, a dense model's parameter count.

use super::*;

fn imported(json: &str) -> Imported {
    let v: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}"));
    from_config("m", &v, None, Path::new("config.json"))
}

#[test]
fn gated_deltanet_layers_hold_a_fixed_state_per_request() {
    // Qwen3-Next-80B-A3B's keys: every 4th of 48 layers attends, 36 are Gated DeltaNet. Per
    // linear layer, in bf16 (no mamba_ssm_dtype): convolution 3 × (2 × 16 × 128 + 32 × 128)
    // = 24,576 values × 2 B = 49,152 B, recurrent 32 × 128 × 128 = 524,288 × 2 B =
    // 1,048,576 B; 36 × 1,097,728 B = 39,518,208 B = 37.6875 MiB.
    let next = imported(
        r#"{"model_type": "qwen3_next", "torch_dtype": "bfloat16", "num_hidden_layers": 48,
                "hidden_size": 2048, "num_attention_heads": 16, "num_key_value_heads": 2,
                "head_dim": 256, "full_attention_interval": 4, "linear_conv_kernel_dim": 4,
                "linear_key_head_dim": 128, "linear_num_key_heads": 16,
                "linear_num_value_heads": 32, "linear_value_head_dim": 128,
                "num_experts": 512, "num_experts_per_tok": 10, "moe_intermediate_size": 512,
                "shared_expert_intermediate_size": 512, "vocab_size": 151936}"#,
    );
    assert_eq!(next.spec.linear_layers, 36.0);
    // Its shared expert is given as a width: 512 / moe_intermediate_size 512 = 1.
    assert_eq!(next.spec.shared_experts, 1.0);
    assert_eq!(next.spec.linear_state_mib, 37.6875);
    // Qwen3.5's text_config lists its layer types and keeps the recurrent state in fp32: 24
    // linear layers of 32, each 49,152 B + 524,288 × 4 B = 2,146,304 B; 24 × 2,146,304 B =
    // 51,511,296 B = 49.125 MiB.
    let types = std::iter::repeat_n(
        r#""linear_attention", "linear_attention", "linear_attention", "full_attention""#,
        8,
    )
    .collect::<Vec<_>>()
    .join(", ");
    let q35 = imported(&format!(
        r#"{{"model_type": "qwen3_5", "text_config": {{"dtype": "bfloat16",
                "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 16,
                "num_key_value_heads": 4, "head_dim": 256, "layer_types": [{types}],
                "full_attention_interval": 4, "linear_conv_kernel_dim": 4,
                "linear_key_head_dim": 128, "linear_num_key_heads": 16,
                "linear_num_value_heads": 32, "linear_value_head_dim": 128,
                "mamba_ssm_dtype": "float32", "vocab_size": 248320}}}}"#
    ));
    assert_eq!(q35.spec.linear_layers, 24.0);
    assert_eq!(q35.spec.linear_state_mib, 49.125);
    // A Mamba hybrid is named, not sized.
    let mamba = imported(
        r#"{"model_type": "nemotron_h", "num_hidden_layers": 4, "hidden_size": 4096,
                "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
                "hybrid_override_pattern": "M-M*", "vocab_size": 131072}"#,
    );
    assert_eq!(mamba.spec.linear_layers, 0.0);
    assert!(mamba
        .notes
        .iter()
        .any(|n| n.contains("hybrid_override_pattern")));
}

#[test]
fn a_checkpoint_that_keeps_attention_in_bf16_says_how_much() {
    // Meta's Llama-3.1-405B-Instruct-FP8 (fbgemm_fp8): modules_to_not_convert lists every
    // layer's four attention projections and layers 0 and 125's three MLP projections
    // by full name, as here (with lm_head, which the weights formula already keeps
    // 16-bit). By hand: attention a layer
    // 16,384 × 128 × 128 × 2 (q, o) + 16,384 × 8 × 128 × 2 (k, v) = 536,870,912 +
    // 33,554,432 = 570,425,344, × 126 = 71,873,593,344; an MLP 3 × 16,384 × 53,248 =
    // 2,617,245,696, × 2 = 5,234,491,392; together 77,108,084,736 = 77.108 B. The other
    // 124 MLPs, 324,538,466,304 parameters, are FP8.
    let mut names = vec!["lm_head".to_string()];
    for l in [0, 125] {
        for p in ["gate_proj", "up_proj", "down_proj"] {
            names.push(format!("model.layers.{l}.mlp.{p}"));
        }
    }
    for l in 0..126 {
        for p in ["q_proj", "k_proj", "v_proj", "o_proj"] {
            names.push(format!("model.layers.{l}.self_attn.{p}"));
        }
    }
    // A compressed-tensors pattern for every layer's attention covers the same modules:
    // counted once.
    names.push("re:.*self_attn".into());
    let config = serde_json::json!({
        "model_type": "llama", "hidden_size": 16384, "num_hidden_layers": 126,
        "num_attention_heads": 128, "num_key_value_heads": 8, "intermediate_size": 53248,
        "vocab_size": 128256, "tie_word_embeddings": false,
        "quantization_config": {"quant_method": "fbgemm_fp8", "modules_to_not_convert": names}
    });
    let i = imported(&config.to_string());
    assert_eq!(i.spec.unquantized_params_b, 77.108084736);
    // fbgemm_fp8 is FP8 (row-wise scales): the note says which precision to give.
    assert!(
        i.notes.iter().any(|n| n.contains("use precision fp8")),
        "{:?}",
        i.notes
    );
    // A config claiming 10^12 layers walks nothing: a size over 1e8 is not a size (#35
    // item 16), so the layer count is listed missing and no module is counted for it.
    let mut huge = config.clone();
    huge["num_hidden_layers"] = serde_json::json!(1e12);
    huge["quantization_config"]["modules_to_not_convert"] = serde_json::json!(["q_proj"]);
    let h = imported(&huge.to_string());
    assert_eq!(h.spec.unquantized_params_b, 0.0);
    assert!(h.missing.contains(&"layers"), "{:?}", h.missing);
    // The same model without the list keeps nothing else 16-bit.
    let mut plain = config.clone();
    plain["quantization_config"] = serde_json::json!({"quant_method": "fbgemm_fp8"});
    assert_eq!(imported(&plain.to_string()).spec.unquantized_params_b, 0.0);
}

#[test]
fn a_dense_model_is_counted_from_its_architecture() {
    // Qwen3-32B: embeddings 151,936 × 5,120 × 2 (untied) = 1,555,824,640; attention per layer
    // 5,120 × 64 × 128 × 2 + 5,120 × 8 × 128 × 2 = 94,371,840; feed-forward 3 × 5,120 ×
    // 25,600 = 393,216,000; × 64 layers = 31,205,621,760; total 32,761,446,400 (norms and
    // q/k norms, 675,864 more, are left out): the published count is 32,762,123,264.
    let i = imported(
        r#"{"model_type":"qwen3","hidden_size":5120,"num_hidden_layers":64,"num_attention_heads":64,"num_key_value_heads":8,"head_dim":128,"intermediate_size":25600,"vocab_size":151936,"tie_word_embeddings":false}"#,
    );
    assert_eq!(i.spec.params_b, 32.7614464);
    assert_eq!(i.spec.head_dim, 128.0);
    assert!(i.missing.is_empty(), "{:?}", i.missing);
}

#[test]
fn qk_norm_is_read_from_the_flag_or_known_from_the_architecture() {
    let base = r#""hidden_size":4096,"num_hidden_layers":46,"num_attention_heads":96,"num_key_value_heads":8,"head_dim":128,"intermediate_size":10944,"vocab_size":151552"#;
    // Qwen3's config has no flag: transformers' Qwen3Attention always builds q_norm and k_norm.
    let q = imported(&format!(r#"{{"model_type":"qwen3",{base}}}"#));
    assert_eq!(q.spec.qk_norm, 1.0);
    let from = q.sources.iter().find(|(f, _)| *f == "qk_norm").unwrap();
    assert!(from.1.contains("q_norm"), "{}", from.1);
    // GLM-4.5 sets use_qk_norm true, GLM-4.5-Air false (the same glm4_moe class).
    let glm = |on: bool| {
        imported(&format!(
            r#"{{"model_type":"glm4_moe","use_qk_norm":{on},{base}}}"#
        ))
        .spec
        .qk_norm
    };
    assert_eq!((glm(true), glm(false)), (1.0, 0.0));
    // A flag that says no wins over the architecture; Llama has neither.
    let off = imported(&format!(
        r#"{{"model_type":"qwen3","use_qk_norm":false,{base}}}"#
    ));
    assert_eq!(off.spec.qk_norm, 0.0);
    let llama = imported(&format!(r#"{{"model_type":"llama",{base}}}"#));
    assert_eq!(llama.spec.qk_norm, 0.0);
}

//! The figures whose keys differ by model family: the attention widths a config may leave out,
//! a mixture of experts (Mixtral, DeepSeek, Qwen, Llama 4, gpt-oss) and its dense layers, latent
//! attention (DeepSeek), local attention and the layers that use it (Mistral, Gemma, Llama 4's
//! chunks), and linear attention (Gated DeltaNet: Qwen3-Next, Qwen3.5).

use super::walk::{default_of, Mapping};
use crate::model::Precision;
use serde_json::Value;

impl Mapping<'_> {
    /// The attention widths a config may leave out: as many KV heads as heads (multi-head
    /// attention), and the head dim from the value head's or as hidden ÷ heads.
    pub(super) fn attention_defaults(&mut self) {
        if self.m.kv_heads == 0.0 && self.m.heads > 0.0 {
            self.m.kv_heads = self.m.heads;
            self.sources.push((
                "kv_heads",
                "= heads (no num_key_value_heads: multi-head attention)".into(),
            ));
        }
        // Latent attention gives its heads' widths apart: the value head's is the head dim.
        if self.m.head_dim == 0.0
            && self.m.heads > 0.0
            && !self.set_from_keys("head_dim", &["v_head_dim"])
        {
            self.m.head_dim = self.m.hidden / self.m.heads;
            self.sources.push((
                "head_dim",
                "hidden_size ÷ num_attention_heads (no head_dim key)".into(),
            ));
        }
    }

    /// Mixture of experts: how many, how many a token uses, the shared ones, their width and
    /// the layers without experts.
    pub(super) fn experts(&mut self) {
        let Some((e, k)) = self
            .c
            .num(&[
                "num_experts",
                "n_routed_experts",
                "num_local_experts",
                "moe_num_experts",
            ])
            .filter(|(e, _)| *e > 0.0)
        else {
            return;
        };
        self.set("experts", e, format!("config.json {k}"));
        self.set_from_keys(
            "experts_per_token",
            &["num_experts_per_tok", "experts_per_token", "moe_topk"],
        );
        self.expert_width();
        if !self.set_from_keys(
            "shared_experts",
            &[
                "n_shared_experts",
                "num_shared_experts",
                "shared_expert_count",
            ],
        ) {
            let shared_width = self
                .c
                .num(&["shared_expert_intermediate_size"])
                .filter(|(w, _)| *w > 0.0 && self.m.moe_ffn > 0.0);
            if let Some((w, k)) = shared_width {
                // Qwen2-MoE, Qwen3-Next: one shared feed-forward layer of w, counted in experts
                // of moe_ffn (Qwen2-57B-A14B: 20,480 / 2,560 = 8).
                let n = w / self.m.moe_ffn;
                self.set(
                    "shared_experts",
                    n,
                    format!(
                        "config.json {k} {w} / moe_intermediate_size {}",
                        self.m.moe_ffn
                    ),
                );
            } else if self.arch.starts_with("llama4") {
                self.set(
                    "shared_experts",
                    1.0,
                    "Llama 4 has one shared expert in every MoE layer".into(),
                );
            }
        }
        if let Some((v, from)) = self.dense_layers() {
            self.set("dense_layers", v, from);
        }
    }

    /// The experts' width: its own key, else intermediate_size, and then the dense layers' width
    /// is intermediate_size_mlp where given, else there is no dense feed-forward layer.
    fn expert_width(&mut self) {
        if self.set_from_keys(
            "moe_ffn",
            &["moe_intermediate_size", "expert_intermediate_size"],
        ) {
            return;
        }
        // Mixtral, gpt-oss and Llama 4 give the expert width as intermediate_size;
        // Llama 4's dense layers use intermediate_size_mlp.
        let width = self.m.ffn;
        self.set(
            "moe_ffn",
            width,
            "config.json intermediate_size (the experts' width here)".into(),
        );
        match self.c.num(&["intermediate_size_mlp"]) {
            Some((v, k)) => self.set("ffn", v, format!("config.json {k} (dense layers)")),
            None => self.set("ffn", 0.0, "no dense feed-forward layer".into()),
        }
    }

    /// The layers without experts, and what says so: the first k dense, an interleave step, or
    /// a list of dense layers.
    fn dense_layers(&self) -> Option<(f64, String)> {
        if let Some((v, k)) = self.c.num(&["first_k_dense_replace"]) {
            Some((v, format!("config.json {k}")))
        } else if let Some((step, k)) = self
            .c
            .num(&["interleave_moe_layer_step"])
            .filter(|(s, _)| *s > 1.0)
        {
            let moe = (self.m.layers / step).floor();
            Some((
                self.m.layers - moe,
                format!("config.json {k} {step}: every {step}th layer has experts"),
            ))
        } else {
            self.c
                .get("mlp_only_layers")
                .and_then(Value::as_array)
                .filter(|a| !a.is_empty())
                .map(|a| (a.len() as f64, "config.json mlp_only_layers".to_string()))
        }
    }

    /// QK-norm: the config's flag (`use_qk_norm`, `qk_layernorm`), else the architectures whose
    /// attention always normalizes its queries and keys (transformers' Qwen3, Qwen3-MoE,
    /// Qwen3-Next, Gemma 3 and OLMo 2 build q_norm and k_norm unconditionally).
    pub(super) fn qk_norm(&mut self) {
        const ALWAYS: [&str; 6] = [
            "qwen3",
            "qwen3_moe",
            "qwen3_next",
            "gemma3",
            "gemma3_text",
            "olmo2",
        ];
        let flag = ["use_qk_norm", "qk_layernorm"]
            .into_iter()
            .find_map(|k| self.c.get(k).and_then(Value::as_bool).map(|on| (on, k)));
        match flag {
            Some((true, k)) => self.set("qk_norm", 1.0, format!("config.json {k}")),
            Some((false, _)) => {}
            None if ALWAYS.contains(&self.arch) => {
                let arch = self.arch;
                self.set(
                    "qk_norm",
                    1.0,
                    format!("the {arch} attention in transformers (q_norm, k_norm)"),
                );
            }
            None => {}
        }
    }

    /// Latent attention: the compressed KV's rank and the RoPE part of a head.
    pub(super) fn latent_attention(&mut self) {
        let Some((r, k)) = self.c.num(&["kv_lora_rank"]).filter(|(r, _)| *r > 0.0) else {
            return;
        };
        self.set("kv_lora_rank", r, format!("config.json {k}"));
        if !self.set_from_keys("qk_rope_head_dim", &["qk_rope_head_dim"]) {
            self.missing.push("qk_rope_head_dim");
        }
    }

    /// Local attention: the window, and the layers that use it.
    pub(super) fn local_attention(&mut self) {
        let window = self.c.num(&["sliding_window", "attention_chunk_size"]);
        let Some((w, wk)) = window.filter(|(w, _)| *w > 0.0) else {
            return;
        };
        if let Some((n, from)) = self.local_layers(w, wk).filter(|(n, _)| *n > 0.0) {
            self.set("sliding_window", w, format!("config.json {wk}"));
            self.set("sliding_layers", n, from);
        }
    }

    /// Linear attention (Gated DeltaNet: Qwen3-Next, Qwen3.5): the layers that hold a fixed
    /// recurrent state instead of a KV cache, and that state per request. A state-space hybrid
    /// the mapping does not size (Mamba layers in hybrid_override_pattern) gets a note.
    pub(super) fn linear_attention(&mut self) {
        let from_types = self
            .c
            .get("layer_types")
            .and_then(Value::as_array)
            .map(|t| {
                t.iter()
                    .filter(|v| v.as_str() == Some("linear_attention"))
                    .count() as f64
            });
        let interval = self
            .c
            .num(&["full_attention_interval"])
            .filter(|(k, _)| *k >= 1.0 && self.c.get("linear_num_value_heads").is_some());
        let (n, from) = match (from_types.filter(|n| *n > 0.0), interval) {
            (Some(n), _) => (
                n,
                "config.json layer_types (linear_attention entries)".to_string(),
            ),
            (None, Some((k, key))) if self.m.layers > 0.0 => (
                self.m.layers - (self.m.layers / k).floor(),
                format!("config.json {key} {k}: every {k}th layer attends, the rest are linear"),
            ),
            _ => {
                if self.c.get("hybrid_override_pattern").is_some() {
                    self.notes.push("config.json hybrid_override_pattern: its Mamba layers hold a fixed state per request, which this import does not size: give linear_layers and linear_state_mib by hand".to_string());
                }
                return;
            }
        };
        self.set("linear_layers", n, from);
        let key = |k: &'static str| self.c.num(&[k]).map(|(v, _)| v);
        let (Some(nk), Some(dk), Some(nv), Some(dv), Some(kernel)) = (
            key("linear_num_key_heads"),
            key("linear_key_head_dim"),
            key("linear_num_value_heads"),
            key("linear_value_head_dim"),
            key("linear_conv_kernel_dim"),
        ) else {
            self.missing.push("linear_state_mib");
            return;
        };
        // A dtype name (torch's "bfloat16", "float32") as the bytes a value takes; 16 bits
        // where the config names none.
        let bytes_of = |v: Option<&Value>| {
            v.and_then(Value::as_str)
                .and_then(Precision::parse)
                .map_or(2.0, Precision::bytes)
        };
        let model = bytes_of(self.c.get("torch_dtype").or_else(|| self.c.get("dtype")));
        let recurrent = match self.c.get("mamba_ssm_dtype") {
            Some(v) => bytes_of(Some(v)),
            None => model,
        };
        let per_layer =
            (kernel - 1.0) * (2.0 * nk * dk + nv * dv) * model + nv * dk * dv * recurrent;
        self.set(
            "linear_state_mib",
            n * per_layer / 1_048_576.0,
            format!("config.json linear_* keys: per layer (linear_conv_kernel_dim − 1) × (2 × linear_num_key_heads × linear_key_head_dim + linear_num_value_heads × linear_value_head_dim) convolution values at {model} B and linear_num_value_heads × linear_key_head_dim × linear_value_head_dim recurrent values at {recurrent} B (mamba_ssm_dtype, else the model's dtype)"),
        );
    }

    /// How many layers use a window `w` given by `wk`, and what says so: layer_types, a pattern,
    /// Llama 4's chunks, or a window on every layer. `None`, with a note, where none is windowed
    /// or the config does not say which.
    fn local_layers(&mut self, w: f64, wk: &str) -> Option<(f64, String)> {
        let use_sliding = self.c.get("use_sliding_window").and_then(Value::as_bool);
        let layers = self.m.layers;
        if let Some(types) = self.c.get("layer_types").and_then(Value::as_array) {
            let n = types
                .iter()
                .filter(|t| {
                    t.as_str()
                        .is_some_and(|s| s.contains("sliding") || s.contains("chunked"))
                })
                .count() as f64;
            Some((
                n,
                "config.json layer_types (sliding_attention entries)".to_string(),
            ))
        } else if wk == "attention_chunk_size" {
            let rope = self
                .c
                .get("no_rope_layers")
                .and_then(Value::as_array)
                .filter(|a| !a.is_empty());
            Some(match rope {
                Some(a) => (
                    a.iter().filter(|x| x.as_u64() == Some(1)).count() as f64,
                    "config.json no_rope_layers (the RoPE layers are chunked)".to_string(),
                ),
                None => (
                    layers - (layers / 4.0).floor(),
                    "Llama 4: every 4th layer is global (no_rope_layer_interval 4), the others chunked".to_string(),
                ),
            })
        } else if let Some((p, pk)) = self.c.num(&["sliding_window_pattern"]).or_else(|| {
            default_of(self.arch, "sliding_window_pattern").map(|v| (v, "sliding_window_pattern"))
        }) {
            Some((
                layers - (layers / p).floor(),
                format!("{pk} {p}: one global layer in every {p}"),
            ))
        } else if use_sliding == Some(false) {
            self.notes.push(format!(
                "config.json sets {wk} {w} but use_sliding_window false: no layer is windowed"
            ));
            None
        } else if self.arch.starts_with("mistral") || self.arch == "mixtral" {
            Some((layers, format!("config.json {wk} on every layer (Mistral)")))
        } else {
            self.notes.push(format!("config.json sets {wk} {w} without saying which layers use it: left out (give sliding_layers by hand)"));
            None
        }
    }
}

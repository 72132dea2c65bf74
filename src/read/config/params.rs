//! Parameters: the checkpoint's exact count, else one counted from the architecture
//! (embeddings, attention, feed-forward layers, experts), the share one token uses, and a vision
//! tower's.

use super::walk::{Config, Mapping};
use super::Checkpoint;
use crate::model::ModelSpec;
use serde_json::Value;

impl Mapping<'_> {
    /// A vision tower: its tensors' count, else an estimate from vision_config.
    pub(super) fn vision_tower(&mut self, checkpoint: Option<&Checkpoint>) {
        let top = self.c.top;
        if let Some(ck) = checkpoint.filter(|ck| ck.vision_elements > 0) {
            self.set(
                "vision_params_b",
                ck.vision_elements as f64 / 1e9,
                "the safetensors headers: vision tower tensors".into(),
            );
        } else if let Some(v) = top.get("vision_config").filter(|v| v.is_object()) {
            let g = |keys: &[&str]| {
                keys.iter()
                    .find_map(|k| v.get(*k).and_then(Value::as_f64))
                    .unwrap_or(0.0)
            };
            let depth = g(&["num_hidden_layers", "depth"]);
            let h = g(&["hidden_size", "embed_dim"]);
            let ffn = g(&["intermediate_size"]);
            if depth > 0.0 && h > 0.0 && ffn > 0.0 {
                let mlp = if self.arch.starts_with("qwen2_5_vl") {
                    3.0
                } else {
                    2.0
                };
                let n = depth * (4.0 * h * h + mlp * h * ffn);
                self.set("vision_params_b", n / 1e9, format!("approximate, from vision_config: {depth} layers × (4 × {h}² + {mlp} × {h} × {ffn})"));
            } else {
                self.missing.push("vision_params_b");
            }
        }
    }

    /// Parameters: the checkpoint's exact count, else counted from the architecture; and for a
    /// mixture of experts, the share one token uses.
    pub(super) fn parameters(&mut self, checkpoint: Option<&Checkpoint>) {
        let counted = count_params(&self.m, &self.c, self.arch);
        match checkpoint {
            Some(ck) if ck.elements > 0 && !ck.packed => {
                self.set(
                    "params_b",
                    ck.elements as f64 / 1e9,
                    format!("the safetensors headers: {} tensor elements", ck.elements),
                );
            }
            // Without vocab_size the embeddings and head are unknown: a count without them is
            // no model's size (Llama-2-7B's 6.476 B for 6.738), so params_b is left blank and
            // the note says what was counted (#44 item 7).
            _ => match counted {
                Some((total, _)) if self.m.vocab <= 0.0 => {
                    self.missing.push("params_b");
                    self.notes.push(format!(
                        "params_b left blank: without vocab_size the embeddings and output head (vocab × hidden, twice when untied) cannot be counted; the rest of the architecture counts {} B. Give vocab (the tokenizer's vocabulary size) in the Models row, or params_b from the model card",
                        crate::model::format_number(((total / 1e9 + self.m.vision_params_b) * 1e3).round() / 1e3)
                    ));
                }
                Some((total, _)) => {
                    let all = total / 1e9 + self.m.vision_params_b;
                    self.set("params_b", all, "counted from the architecture (embeddings, attention, feed-forward layers, experts and any vision tower)".into())
                }
                None => self.missing.push("params_b"),
            },
        }
        if let Some((total, active)) =
            counted.filter(|_| self.m.experts > 0.0 && self.m.params_b > 0.0)
        {
            let share = self.m.params_b * 1e9 / total;
            self.set(
                "active_params_b",
                active * share / 1e9,
                "counted from the architecture: what one token uses (shared part and its experts)"
                    .into(),
            );
        }
    }
}

/// Total and active parameters from the architecture: embeddings and head (tied or not),
/// attention (grouped-query or latent), dense feed-forward layers and experts. `None` when the
/// shape is not known.
fn count_params(m: &ModelSpec, c: &Config, arch: &str) -> Option<(f64, f64)> {
    if m.layers <= 0.0 || m.hidden <= 0.0 || m.heads <= 0.0 {
        return None;
    }
    let h = m.hidden;
    let tied = c
        .get("tie_word_embeddings")
        .and_then(Value::as_bool)
        .unwrap_or(arch.starts_with("gemma"));
    let embed = m.vocab * h * if tied { 1.0 } else { 2.0 };
    let attention = if m.kv_lora_rank > 0.0 {
        let q_rank = c.num(&["q_lora_rank"]).map_or(0.0, |(v, _)| v);
        let nope = c.num(&["qk_nope_head_dim"]).map_or(0.0, |(v, _)| v);
        let v_dim = c.num(&["v_head_dim"]).map_or(m.head_dim, |(v, _)| v);
        let qk = nope + m.qk_rope_head_dim;
        let q = if q_rank > 0.0 {
            h * q_rank + q_rank * m.heads * qk
        } else {
            h * m.heads * qk
        };
        q + h * (m.kv_lora_rank + m.qk_rope_head_dim)
            + m.kv_lora_rank * m.heads * (nope + v_dim)
            + m.heads * v_dim * h
    } else {
        h * m.heads * m.head_dim * 2.0 + h * m.kv_heads * m.head_dim * 2.0
    };
    let dense_ffn = 3.0 * h * m.ffn;
    let (total_ffn, active_ffn) = if m.experts > 0.0 {
        let moe_layers = m.layers - m.dense_layers;
        let expert = 3.0 * h * m.moe_ffn;
        let per_layer_total = m.experts * expert + m.shared_experts * expert + h * m.experts;
        let per_layer_active = (m.experts_per_token + m.shared_experts) * expert + h * m.experts;
        (
            m.dense_layers * dense_ffn + moe_layers * per_layer_total,
            m.dense_layers * dense_ffn + moe_layers * per_layer_active,
        )
    } else {
        (m.layers * dense_ffn, m.layers * dense_ffn)
    };
    let base = embed + m.layers * attention;
    Some((base + total_ffn, base + active_ffn))
}

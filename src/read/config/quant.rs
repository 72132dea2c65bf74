//! What a checkpoint's format says: its quantization (or the dtype its weights are stored in)
//! and size per dtype as notes, and the projections a quantized checkpoint leaves 16-bit
//! (unquantized_params_b).

use super::walk::Mapping;
use super::Checkpoint;
use crate::model::{format_number, ModelSpec};
use serde_json::Value;

impl Mapping<'_> {
    /// The checkpoint's format: its quantization (or the dtype its weights are stored in), and
    /// its size per dtype.
    pub(super) fn format_notes(&mut self, checkpoint: Option<&Checkpoint>) {
        if let Some(q) = self
            .c
            .top
            .get("quantization_config")
            .filter(|q| q.is_object())
        {
            self.notes.push(quantization_note(q));
        } else if let Some(d) = self
            .c
            .get("torch_dtype")
            .or_else(|| self.c.get("dtype"))
            .and_then(Value::as_str)
        {
            self.notes.push(format!("weights stored as {d}"));
        }
        if let Some(ck) = checkpoint {
            self.notes.push(checkpoint_note(ck));
        }
    }

    /// The parameters a quantized checkpoint leaves 16-bit besides its embeddings and head
    /// (unquantized_params_b): the projections its quantization_config lists not to convert.
    pub(super) fn unquantized_modules(&mut self) {
        let Some(q) = self.c.top.get("quantization_config") else {
            return;
        };
        let Some((key, names)) = NOT_CONVERTED
            .iter()
            .find_map(|k| q.get(*k).and_then(Value::as_array).map(|a| (*k, a)))
        else {
            return;
        };
        let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
        let n = kept_projection_params(&self.m, &names);
        if n > 0.0 {
            let from = format!(
                "quantization_config {key}: the {} listed module(s)' projections, counted from the architecture",
                names.len()
            );
            self.set("unquantized_params_b", n / 1e9, from);
        }
    }
}

/// The keys under which quantizers list the modules they leave unquantized: transformers'
/// fbgemm_fp8, bitsandbytes, AWQ and GPTQ (`modules_to_not_convert`), vLLM's fp8
/// (`ignored_layers`), compressed-tensors and ModelOpt (`ignore`, `exclude_modules`) and
/// bitsandbytes' older `llm_int8_skip_modules`.
const NOT_CONVERTED: [&str; 5] = [
    "modules_to_not_convert",
    "ignored_layers",
    "ignore",
    "exclude_modules",
    "llm_int8_skip_modules",
];

/// Parameters of the attention and dense feed-forward projections the names cover, each
/// counted once: `model.layers.0.mlp.down_proj` one layer's, `self_attn` or a pattern without a
/// layer number (`re:.*q_proj`) every layer's. Embeddings and the head are left out (the
/// weights formula keeps them 16-bit already), and so are a mixture of experts' feed-forward
/// modules and a latent attention's projections, whose names do not say their shapes here.
fn kept_projection_params(m: &ModelSpec, names: &[&str]) -> f64 {
    let (h, q, kv) = (m.hidden, m.heads * m.head_dim, m.kv_heads * m.head_dim);
    let latent = m.kv_lora_rank > 0.0;
    let dense_ffn = m.experts == 0.0;
    let shapes: [(&str, f64, bool); 7] = [
        ("q_proj", h * q, !latent),
        ("k_proj", h * kv, !latent),
        ("v_proj", h * kv, !latent),
        ("o_proj", q * h, !latent),
        ("gate_proj", h * m.ffn, dense_ffn),
        ("up_proj", h * m.ffn, dense_ffn),
        ("down_proj", m.ffn * h, dense_ffn),
    ];
    // Projections kept in every layer, and (layer, projection) pairs kept in one: never
    // expanded layer by layer, so a config's layer count cannot make this loop long.
    let mut everywhere = [false; 7];
    let mut kept = std::collections::BTreeSet::new();
    for name in names {
        let name = name.trim_start_matches("re:");
        let projections: Vec<usize> = (0..shapes.len())
            .filter(|&i| {
                let p = shapes[i].0;
                name.contains(p)
                    || (i < 4 && (name.ends_with("self_attn") || name.ends_with("attn")))
                    || (i >= 4 && name.ends_with("mlp"))
            })
            .collect();
        let layer = name
            .split("layers.")
            .nth(1)
            .and_then(|rest| rest.split('.').next())
            .and_then(|n| n.parse::<usize>().ok());
        match layer {
            Some(l) if (l as f64) < m.layers => kept.extend(projections.iter().map(|&i| (l, i))),
            Some(_) => {}
            None => projections.iter().for_each(|&i| everywhere[i] = true),
        }
    }
    let in_all: f64 = (0..shapes.len())
        .filter(|&i| everywhere[i] && shapes[i].2)
        .map(|i| m.layers * shapes[i].1)
        .sum();
    let in_one: f64 = kept
        .iter()
        .filter(|(_, i)| !everywhere[*i] && shapes[*i].2)
        .map(|(_, i)| shapes[*i].1)
        .sum();
    in_all + in_one
}

/// What a quantization_config means for the workload's precision.
fn quantization_note(q: &Value) -> String {
    let method = q.get("quant_method").and_then(Value::as_str).unwrap_or("?");
    let bits = q.get("bits").and_then(Value::as_u64);
    let precision = match (method, bits) {
        ("mxfp4", _) => "expert_precision mxfp4 (the experts; attention and embeddings stay bf16)",
        ("fp8" | "fbgemm_fp8" | "compressed-tensors", _)
            if q.to_string().contains("float") || method != "compressed-tensors" =>
        {
            "precision fp8"
        }
        (_, Some(4)) => "precision int4",
        (_, Some(8)) => "precision int8",
        ("bitsandbytes", _) => "precision int4 (bitsandbytes)",
        _ => "the precision of its quantization_config",
    };
    format!("quantized checkpoint (quant_method {method}): use {precision} in the workload")
}

/// The checkpoint's size, files and bytes per dtype.
fn checkpoint_note(ck: &Checkpoint) -> String {
    let dtypes: Vec<String> = ck
        .by_dtype
        .iter()
        .map(|(d, (_, b))| format!("{d} {}", human(*b)))
        .collect();
    format!(
        "checkpoint: {} in {} file(s){}",
        human(ck.bytes),
        ck.files,
        if dtypes.is_empty() {
            String::new()
        } else {
            format!(" ({})", dtypes.join(", "))
        }
    )
}

/// `65.25 GB`.
fn human(bytes: u64) -> String {
    format!("{} GB", format_number((bytes as f64 / 1e7).round() / 100.0))
}

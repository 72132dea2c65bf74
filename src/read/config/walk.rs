//! Walking a config.json: a figure looked up by the first of its keys (the text model's config
//! before the top level), the defaults of architectures whose config leaves keys out, and the
//! `Mapping` that records each figure with where it came from: the plain figures, tied
//! embeddings and what is missing.

use super::KNOWN;
use crate::model::ModelSpec;
use serde_json::Value;

/// A figure of the config: the first key present, with the key that gave it.
pub(super) struct Config<'a> {
    /// The text model's config (`text_config` of a multimodal model, else the top level).
    pub(super) text: &'a Value,
    pub(super) top: &'a Value,
}

impl Config<'_> {
    pub(super) fn num(&self, keys: &[&'static str]) -> Option<(f64, &'static str)> {
        keys.iter().find_map(|k| {
            self.text
                .get(*k)
                .or_else(|| self.top.get(*k))
                .and_then(Value::as_f64)
                .map(|v| (v, *k))
        })
    }
    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        self.text.get(key).or_else(|| self.top.get(key))
    }
}

/// Defaults of architectures whose config.json leaves keys out (transformers' config classes).
pub(super) fn default_of(arch: &str, key: &str) -> Option<f64> {
    match (arch, key) {
        ("gemma3" | "gemma3_text", "vocab_size") => Some(262_208.0),
        ("gemma3" | "gemma3_text", "num_attention_heads") => Some(8.0),
        ("gemma3" | "gemma3_text", "num_key_value_heads") => Some(4.0),
        ("gemma3" | "gemma3_text", "head_dim") => Some(256.0),
        ("gemma3" | "gemma3_text", "sliding_window_pattern") => Some(6.0),
        _ => None,
    }
}

/// The plain figures, each with the keys that may give it (the first present wins).
const PLAIN: [(&str, &[&str]); 7] = [
    ("layers", &["num_hidden_layers", "n_layer", "num_layers"]),
    ("hidden", &["hidden_size", "n_embd", "d_model"]),
    ("heads", &["num_attention_heads", "n_head"]),
    ("kv_heads", &["num_key_value_heads", "num_kv_heads"]),
    ("head_dim", &["head_dim"]),
    ("ffn", &["intermediate_size", "ffn_hidden_size"]),
    ("vocab", &["vocab_size"]),
];

/// A Models row being read from a config.json: the figures so far, where each came from, what
/// the files do not give and what else they say.
pub(super) struct Mapping<'a> {
    pub(super) c: Config<'a>,
    /// The architecture (`model_type`), for its documented defaults.
    pub(super) arch: &'a str,
    pub(super) m: ModelSpec,
    pub(super) sources: Vec<(&'static str, String)>,
    pub(super) missing: Vec<&'static str>,
    pub(super) notes: Vec<String>,
}

impl Mapping<'_> {
    /// Sets a figure and records where it came from.
    pub(super) fn set(&mut self, field: &'static str, v: f64, from: String) {
        if let Some(slot) = self.m.field_mut(field) {
            *slot = v;
        }
        self.sources.push((field, from));
    }

    /// Sets a figure from the first of `keys` the config gives; false when it gives none.
    pub(super) fn set_from_keys(&mut self, field: &'static str, keys: &[&'static str]) -> bool {
        match self.c.num(keys) {
            Some((v, k)) => {
                self.set(field, v, format!("config.json {k}"));
                true
            }
            None => false,
        }
    }

    /// The plain figures, each from its key or its architecture's documented default.
    pub(super) fn plain_figures(&mut self) {
        let arch = self.arch;
        for (field, keys) in PLAIN {
            // A size is a whole count of at least 1 and no more than any model has (1e308
            // printed as inf; a negative or zero count left a blank not named as missing).
            if let Some((v, k)) = self.c.num(keys) {
                if !(1.0..=1e8).contains(&v) || v.fract() != 0.0 {
                    self.notes.push(format!(
                        "config.json {k} is {v}, not a size (a whole number from 1 to 100,000,000): left out"
                    ));
                    continue;
                }
            }
            if self.set_from_keys(field, keys) {
                continue;
            }
            if let Some(v) = keys.iter().find_map(|k| default_of(arch, k)) {
                self.set(
                    field,
                    v,
                    format!("the {arch} default in transformers ({})", keys[0]),
                );
            }
        }
    }

    /// Tied embeddings: the config's flag, else Gemma's default (tied).
    pub(super) fn tied_embeddings(&mut self) {
        let arch = self.arch;
        let tied = self
            .c
            .get("tie_word_embeddings")
            .and_then(Value::as_bool)
            .map(|t| (t, "config.json tie_word_embeddings".to_string()))
            .or_else(|| {
                arch.starts_with("gemma").then(|| {
                    (
                        true,
                        format!("the {arch} default in transformers (tie_word_embeddings)"),
                    )
                })
            });
        if let Some((true, from)) = tied {
            self.set("tied_embeddings", 1.0, from);
        }
    }

    /// Names the plain figures nothing gave (but ffn: a model may have no dense feed-forward
    /// layer), and says so when the architecture is not one gpuplan knows.
    pub(super) fn missing_and_unknown(&mut self) {
        for (field, _) in PLAIN {
            if self.m.field(field) == 0.0
                && !self.sources.iter().any(|(f, _)| *f == field)
                && field != "ffn"
            {
                self.missing.push(field);
            }
        }
        if !KNOWN.contains(&self.arch) {
            let arch = self.arch;
            self.notes.push(format!("the architecture {arch} is not one gpuplan knows: the figures were read from the usual keys (check them against the model card)"));
        }
    }
}

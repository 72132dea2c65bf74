//! The Models sheet: rows that add to or replace the built-in catalog.

use super::table::Rule;
use super::xlsx::RawSheet;
use super::Reader;
use crate::catalog;
use crate::error::Problem;
use crate::model::{normalize, CellRef, ModelSpec};
use std::collections::HashMap;

impl Reader {
    pub(super) fn models(&mut self, raw: Option<RawSheet>) -> Vec<ModelSpec> {
        let mut models = catalog::models();
        let Some(raw) = raw else { return models };
        let Some(t) = self.table(raw, "Models") else {
            return models;
        };
        let mut seen: HashMap<String, CellRef> = HashMap::new();
        for rec in t.records() {
            let p = &mut self.problems;
            let Some(name) = rec.required_text("name", "the model needs a name", p) else {
                continue;
            };
            if let Some(prev) = seen.insert(normalize(&name), rec.cell("name")) {
                p.push(Problem::new(
                    rec.at("name"),
                    format!("the model {name} is listed twice (first at {prev})"),
                ));
                continue;
            }
            let params_b = rec.number("params_b", Rule::positive().max(100_000.0), p);
            if params_b.is_none() && rec.raw("params_b").is_none() {
                p.push(Problem::new(
                    rec.at("params_b"),
                    format!("params_b of model {name} is required (parameters in billions)"),
                ));
            }
            let dims = Rule::whole(0.0, 10_000_000.0);
            let layers = rec.number("layers", dims, p).unwrap_or(0.0);
            let hidden = rec.number("hidden", dims, p).unwrap_or(0.0);
            let heads = rec.number("heads", dims, p).unwrap_or(0.0);
            let kv_heads = rec.number("kv_heads", dims, p).unwrap_or(heads);
            let head_dim = rec.number("head_dim", dims, p).unwrap_or(if heads > 0.0 {
                hidden / heads
            } else {
                0.0
            });
            let ffn = rec.number("ffn", dims, p).unwrap_or(0.0);
            let vocab = rec.number("vocab", dims, p).unwrap_or(0.0);
            // A language model (it has layers) needs its attention shape: a zero would make its
            // KV cache zero and its plan silently too small.
            let zero = if layers <= 0.0 {
                None
            } else if heads < 1.0 {
                Some("heads")
            } else if kv_heads < 1.0 {
                Some("kv_heads")
            } else if head_dim < 1.0 {
                Some(if rec.raw("head_dim").is_some() {
                    "head_dim"
                } else {
                    "hidden"
                })
            } else {
                None
            };
            if let Some(key) = zero {
                p.push(Problem::new(
                    rec.at(key),
                    format!("{key} of model {name} must be at least 1: a model with layers has attention heads, and 0 would make its KV cache 0 (leave layers blank for a model without them, such as an image model)"),
                ));
            }
            if heads > 0.0 && kv_heads > heads {
                p.push(Problem::new(
                    rec.at("kv_heads"),
                    format!("kv_heads ({kv_heads}) cannot exceed heads ({heads})"),
                ));
            }
            let spec = ModelSpec {
                name: name.clone(),
                params_b: params_b.unwrap_or(0.0),
                layers,
                hidden,
                heads,
                kv_heads,
                head_dim,
                ffn,
                vocab,
            };
            match models
                .iter_mut()
                .find(|m| normalize(&m.name) == normalize(&name))
            {
                Some(m) => *m = spec,
                None => models.push(spec),
            }
        }
        models
    }
}

//! templates/models.tsv: the built-in models' architectures.

use super::{field, opt_num, records};
use crate::model::ModelSpec;

pub(super) const MODELS_TSV: &str = include_str!("../../templates/models.tsv");

/// The built-in models: every column of templates/models.tsv that names a Models field.
pub fn models() -> Vec<ModelSpec> {
    records(MODELS_TSV)
        .iter()
        .map(|r| {
            let mut m = ModelSpec {
                name: field(r, "name").to_string(),
                source: field(r, "source").to_string(),
                ..ModelSpec::default()
            };
            for key in ModelSpec::FIELDS {
                if let (Some(slot), Some(v)) = (m.field_mut(key), opt_num(r, key)) {
                    *slot = v;
                }
            }
            if opt_num(r, "kv_heads").is_none() {
                m.kv_heads = m.heads;
            }
            if opt_num(r, "head_dim").is_none() && m.heads > 0.0 {
                m.head_dim = m.hidden / m.heads;
            }
            m
        })
        .collect()
}

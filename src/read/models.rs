//! The Models sheet: rows that add to or replace the built-in catalog, every figure of a
//! config.json the formulas read (experts, latent attention, local attention, vision tower), and
//! numeric columns of the user's own, each a formula variable.

use super::table::{raw_number, Record, Rule, Table};
use super::xlsx::RawSheet;
use super::Reader;
use crate::catalog;
use crate::error::Problem;
use crate::model::{normalize, CellRef, ModelSpec, Warning};
use std::collections::HashMap;

/// A user's column: its key (the formula variable) and sheet column.
struct UserColumn {
    key: String,
    col: u32,
}

impl Reader {
    /// The catalog with the sheet's rows merged in, and the keys of the user's own numeric
    /// columns.
    pub(super) fn models(&mut self, raw: Option<RawSheet>) -> (Vec<ModelSpec>, Vec<String>) {
        let mut models = catalog::models();
        let Some(raw) = raw else {
            return (models, Vec::new());
        };
        let Some(t) = self.table_with(raw, "Models", &["name"]) else {
            return (models, Vec::new());
        };
        let user = user_columns(&t);
        let mut seen: HashMap<String, CellRef> = HashMap::new();
        for rec in t.records() {
            let Some(spec) = self.model_row(&rec, &user, &mut seen) else {
                continue;
            };
            match models
                .iter_mut()
                .find(|m| normalize(&m.name) == normalize(&spec.name))
            {
                Some(m) => *m = spec,
                None => models.push(spec),
            }
        }
        // Catalog models have none of the user's columns: 0, as for a blank cell.
        let keys: Vec<String> = user.into_iter().map(|u| u.key).collect();
        for m in &mut models {
            for k in &keys {
                if !m.extra.iter().any(|(x, _)| x == k) {
                    m.extra.push((k.clone(), 0.0));
                }
            }
        }
        (models, keys)
    }

    /// One row: its name (once only), params_b and every other figure checked, the attention
    /// shape completed where left blank, the cross-field rules, and the user's own columns;
    /// `None` for a row without a name or with a name already listed.
    fn model_row(
        &mut self,
        rec: &Record,
        user: &[UserColumn],
        seen: &mut HashMap<String, CellRef>,
    ) -> Option<ModelSpec> {
        let p = &mut self.problems;
        let name = rec.required_text("name", "the model needs a name", p)?;
        if let Some(prev) = seen.insert(normalize(&name), rec.cell("name")) {
            p.push(Problem::new(
                rec.at("name"),
                format!("the model {name} is listed twice (first at {prev})"),
            ));
            return None;
        }
        let params_b = rec.number("params_b", model_rule("params_b"), p);
        if params_b.is_none() && rec.raw("params_b").is_none() {
            p.push(Problem::new(
                rec.at("params_b"),
                format!("params_b of model {name} is required (parameters in billions)"),
            ));
        }
        let mut spec = ModelSpec {
            name: name.clone(),
            params_b: params_b.unwrap_or(0.0),
            source: rec.text("source", p).unwrap_or_default(),
            ..ModelSpec::default()
        };
        for key in ModelSpec::FIELDS.iter().filter(|k| **k != "params_b") {
            if let (Some(v), Some(slot)) =
                (rec.number(key, model_rule(key), p), spec.field_mut(key))
            {
                *slot = v;
            }
        }
        self.complete_attention(rec, &name, &mut spec);
        self.check_model(rec, &name, &spec);
        for u in user {
            let v = rec.raw_at(u.col).and_then(raw_number).unwrap_or(0.0);
            spec.extra.push((u.key.clone(), v));
        }
        Some(spec)
    }

    /// kv_heads and head_dim where the row leaves them blank: as many KV heads as heads, and
    /// hidden ÷ heads (with a note, as some models set head_dim apart from it).
    fn complete_attention(&mut self, rec: &Record, name: &str, spec: &mut ModelSpec) {
        let given = |key: &str| rec.raw(key).is_some();
        if !given("kv_heads") {
            spec.kv_heads = spec.heads;
        }
        if !given("head_dim") && spec.heads > 0.0 {
            spec.head_dim = spec.hidden / spec.heads;
            // hidden ÷ heads is wrong where a config sets head_dim apart from it (Qwen3,
            // Gemma 3, Mistral-Small): the KV cache is then off by as much.
            if spec.layers > 0.0 && spec.kv_lora_rank == 0.0 {
                self.notices.push(Warning::info(
                    rec.at("head_dim"),
                    format!("model {name}: no head_dim, so hidden ÷ heads = {} is used; Qwen3, Gemma 3 and Mistral-Small set head_dim apart from it (config.json key head_dim), which changes the KV cache by −37% to +31%: copy it from the model's config.json", crate::model::format_number(spec.head_dim)),
                ).with_zh(format!("模型 {name}：未填 head_dim，因此按 hidden ÷ heads = {} 计算；Qwen3、Gemma 3 和 Mistral-Small 的 head_dim 与此不同（config.json 中的 head_dim 键），会使 KV 缓存相差 −37% 至 +31%：请从模型的 config.json 中抄录", crate::model::format_number(spec.head_dim))));
            }
        }
    }

    /// Cross-field rules of a Models row.
    fn check_model(&mut self, rec: &Record, name: &str, m: &ModelSpec) {
        let p = &mut self.problems;
        attention_problems(rec, name, m, p);
        p.extend(over_problems(rec, m).into_iter().flatten());
        if m.experts > 0.0 && (m.experts_per_token < 1.0 || m.moe_ffn < 1.0) {
            p.push(Problem::new(
                rec.at(if m.experts_per_token < 1.0 {
                    "experts_per_token"
                } else {
                    "moe_ffn"
                }),
                format!("model {name} has experts, so it needs experts_per_token (num_experts_per_tok) and moe_ffn (moe_intermediate_size) of at least 1"),
            ));
        }
        if m.sliding_layers > 0.0 && m.sliding_window < 1.0 {
            p.push(Problem::new(
                rec.at("sliding_window"),
                format!(
                    "model {name} has sliding_layers, so it needs the sliding_window they keep"
                ),
            ));
        }
    }
}

/// The attention shape of a language model (it has layers): heads, kv_heads and head_dim of
/// at least 1, and no more KV heads than heads.
fn attention_problems(rec: &Record, name: &str, m: &ModelSpec, p: &mut Vec<Problem>) {
    // A language model (it has layers) needs its attention shape: a zero would make its
    // KV cache zero and its plan silently too small.
    let zero = if m.layers <= 0.0 || m.kv_lora_rank > 0.0 {
        None
    } else if m.heads < 1.0 {
        Some("heads")
    } else if m.kv_heads < 1.0 {
        Some("kv_heads")
    } else if m.head_dim < 1.0 {
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
    if m.heads > 0.0 && m.kv_heads > m.heads {
        p.push(Problem::new(
            rec.at("kv_heads"),
            format!(
                "kv_heads ({}) cannot exceed heads ({})",
                m.kv_heads, m.heads
            ),
        ));
    }
}

/// The figures that cannot exceed another (active parameters the parameters, experts a token
/// the experts, kinds of layers the layers): a problem for each that does.
fn over_problems(rec: &Record, m: &ModelSpec) -> [Option<Problem>; 7] {
    let over = |key: &str, v: f64, limit: f64, what: &str| {
        (v > limit).then(|| {
            Problem::new(
                rec.at(key),
                format!("{key} ({v}) cannot exceed {what} ({limit})"),
            )
        })
    };
    [
        over("active_params_b", m.active_params_b, m.params_b, "params_b"),
        over("vision_params_b", m.vision_params_b, m.params_b, "params_b"),
        over(
            "unquantized_params_b",
            m.unquantized_params_b,
            m.params_b,
            "params_b",
        ),
        over(
            "experts_per_token",
            m.experts_per_token,
            m.experts,
            "experts",
        ),
        over("dense_layers", m.dense_layers, m.layers, "layers"),
        over("sliding_layers", m.sliding_layers, m.layers, "layers"),
        over(
            "linear_layers",
            m.linear_layers,
            m.layers - m.sliding_layers,
            "layers less sliding_layers",
        ),
    ]
}

/// The user's numeric columns: a header that is a formula name (letters, digits, _) over cells
/// that are all numbers. Others (text notes, a source URL) are kept out, as on every sheet.
fn user_columns(t: &Table) -> Vec<UserColumn> {
    t.others
        .iter()
        .filter_map(|(col, header)| {
            let key: String = super::table::normalize_header(header)
                .chars()
                .map(|c| if c == ' ' || c == '-' { '_' } else { c })
                .collect();
            let identifier = crate::formula::is_identifier(&key);
            let mut cells = t
                .rows
                .iter()
                .filter_map(|(_, cells)| cells.get(col))
                .peekable();
            let numeric = cells.peek().is_some() && cells.all(|v| raw_number(v).is_some());
            (identifier && numeric).then_some(UserColumn { key, col: *col })
        })
        .collect()
}

/// What each numeric column of the Models sheet must hold: its bounds in templates/columns.tsv.
fn model_rule(key: &str) -> Rule {
    Rule::of("Models", key).unwrap_or(Rule::whole(0.0, 10_000_000.0))
}

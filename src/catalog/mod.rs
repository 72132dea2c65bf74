//! Built-in data: the GPUs, models, assumptions, default formulas and column labels of
//! `templates/`, compiled in. Data files are tab-separated with a header line; `#` lines are comments.
//!
//! One file per data file: `columns` (templates/columns.tsv: the input sheets' columns, their
//! bounds and defaults), `gpus`, `models`, `assumptions`, `engines`, `apis`, `formulas` (with
//! formulas.zh.tsv), `compat` (with compat.zh.tsv) and `examples`; this file holds the TSV reading
//! they share and the input sheets' names.

mod apis;
mod assumptions;
mod columns;
mod compat;
mod engines;
mod examples;
mod formulas;
mod gpus;
mod models;
#[cfg(test)]
mod tests;

pub use apis::apis;
pub use assumptions::{
    assumption_note, assumption_number, assumption_role, assumption_unit, assumptions,
    earlier_assumption, profile_keys, AssumptionRole,
};
pub use columns::{
    column, columns, condition_holds, find_column, online_by_default, plain_default, words,
    workload_default, Bounds, Column, ColumnType, Fallback,
};
pub use compat::{compat_rules, CompatRule, Support};
pub use engines::engines;
pub use examples::examples;
pub use formulas::{earlier_default, formula_description, formulas};
pub use gpus::{find_gpu, gpus};
pub use models::models;

use crate::labels::Label;
use crate::lang::Lang;

/// Rows of a TSV data file, header first, comments and blank lines skipped.
fn rows(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

/// Data rows as (header → cell) lookups.
fn records(text: &'static str) -> Vec<Vec<(&'static str, &'static str)>> {
    let mut it = rows(text);
    let header = it.next().unwrap_or_default();
    it.map(|r| {
        header
            .iter()
            .copied()
            .zip(r.iter().copied().chain(std::iter::repeat("")))
            .collect()
    })
    .collect()
}

fn field<'a>(rec: &'a [(&'static str, &'static str)], key: &str) -> &'a str {
    rec.iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.trim())
        .unwrap_or("")
}

fn num(rec: &[(&'static str, &'static str)], key: &str) -> f64 {
    field(rec, key).parse().unwrap_or(0.0)
}

fn opt_num(rec: &[(&'static str, &'static str)], key: &str) -> Option<f64> {
    field(rec, key).parse().ok()
}

fn field_static(rec: &[(&'static str, &'static str)], key: &str) -> &'static str {
    rec.iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.trim())
        .unwrap_or("")
}

/// The input sheets, with their English and Chinese names.
pub const SHEETS: [Label; 10] = [
    Label::new("Workloads", "负载"),
    Label::new("GPUs", "算力报价"),
    Label::new("Models", "模型"),
    Label::new("Assumptions", "参数"),
    Label::new("Engines", "引擎"),
    Label::new("Formulas", "公式"),
    Label::new("Scenarios", "情景"),
    Label::new("Ranges", "范围"),
    Label::new("APIs", "API报价"),
    Label::new("Usage", "用量"),
];

/// The name of an input sheet in the chosen language.
pub fn sheet_name(english: &str, lang: Lang) -> &str {
    SHEETS
        .iter()
        .find(|s| s.en == english)
        .map_or(english, |s| s.get(lang))
}

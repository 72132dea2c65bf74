//! templates/compat.tsv and compat.zh.tsv: how each platform runs each number format, with
//! the notes in both languages.

use super::{field, field_static, opt_num, records};

pub(super) const COMPAT_TSV: &str = include_str!("../../templates/compat.tsv");

pub(super) const COMPAT_ZH_TSV: &str = include_str!("../../templates/compat.zh.tsv");

/// How a platform runs a number format (templates/compat.tsv).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Hardware math in the format.
    Native,
    /// Stored in the format, computed in 16 bits by a weight-only kernel.
    WeightOnly,
    /// Not run.
    None,
}

/// One rule of the compatibility table.
#[derive(Debug, Clone)]
pub struct CompatRule {
    /// The platform the rule is for: `cuda`, `rocm` or `ascend`.
    pub platform: &'static str,
    /// The number format's key: `bf16`, `fp8`, `int4`.
    pub precision: &'static str,
    /// `weights`, `kv` or `any`.
    pub role: &'static str,
    /// The lowest CUDA compute capability the rule covers; `None`: any.
    pub min_cc: Option<f64>,
    /// The compute capability the rule stops at (excluded); `None`: any.
    pub max_cc: Option<f64>,
    /// How the platform runs the format there.
    pub support: Support,
    /// Why, in English: the text of the note or the exclusion the rule gives.
    pub note: &'static str,
    /// The note in Chinese (templates/compat.zh.tsv); the English where none is given.
    pub note_zh: &'static str,
    /// Where the rule comes from (vendor documentation, an engine's code or issue).
    pub source: &'static str,
}

/// The compatibility rules, in the table's order (the first match decides).
pub fn compat_rules() -> Vec<CompatRule> {
    let zh = records(COMPAT_ZH_TSV);
    records(COMPAT_TSV)
        .iter()
        .map(|r| CompatRule {
            platform: field_static(r, "platform"),
            precision: field_static(r, "precision"),
            role: field_static(r, "role"),
            min_cc: opt_num(r, "min_cc"),
            max_cc: opt_num(r, "max_cc"),
            support: match field(r, "support") {
                "native" => Support::Native,
                "weight_only" => Support::WeightOnly,
                _ => Support::None,
            },
            note: field_static(r, "note"),
            note_zh: zh
                .iter()
                .find(|z| field(z, "note") == field(r, "note"))
                .map_or(field_static(r, "note"), |z| field_static(z, "note_zh")),
            source: field_static(r, "source"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every note of templates/compat.tsv has its Chinese in compat.zh.tsv, and every Chinese
    /// note translates a note the table still holds.
    #[test]
    fn every_compat_note_has_its_chinese_and_none_is_stale() {
        let notes: Vec<&str> = compat_rules().iter().map(|r| r.note).collect();
        for r in compat_rules() {
            assert!(
                r.note_zh
                    .chars()
                    .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "no Chinese for {:?}",
                r.note
            );
        }
        for z in records(COMPAT_ZH_TSV) {
            assert!(
                notes.contains(&field(&z, "note")),
                "stale: {:?}",
                field(&z, "note")
            );
        }
        let fp8 = compat_rules()
            .into_iter()
            .find(|r| r.platform == "ascend" && r.precision == "fp8")
            .unwrap();
        assert_eq!(
            fp8.note_zh,
            "昇腾 910B 和 910C 不支持 FP8：请把检查点转换为 bf16 或 W8A8 int8（msModelSlim）"
        );
    }
}

//! templates/formulas.tsv and formulas.zh.tsv: the default formulas, and their descriptions
//! in both languages.

use super::{field, field_static, records};
use crate::labels::Text;
use crate::model::{FormulaDef, Origin, Scope};

pub(super) const FORMULAS_TSV: &str = include_str!("../../templates/formulas.tsv");

pub(super) const FORMULAS_ZH_TSV: &str = include_str!("../../templates/formulas.zh.tsv");

/// templates/formulas.earlier.tsv: the expressions default formulas had in earlier versions
/// (scripts/earlier_formulas.py writes it from git history).
pub(super) const FORMULAS_EARLIER_TSV: &str = include_str!("../../templates/formulas.earlier.tsv");

/// Whether `expression` is one a default formula `name` had in an earlier version of gpuplan
/// and has no longer (whitespace aside): a Formulas row a template of that version wrote, not a
/// user's edit.
pub fn earlier_default(name: &str, expression: &str) -> bool {
    static EARLIER: std::sync::OnceLock<std::collections::HashSet<(String, String)>> =
        std::sync::OnceLock::new();
    let collapse = |e: &str| e.split_whitespace().collect::<Vec<_>>().join(" ");
    EARLIER
        .get_or_init(|| {
            records(FORMULAS_EARLIER_TSV)
                .iter()
                .map(|r| {
                    (
                        field(r, "name").to_string(),
                        collapse(field(r, "expression")),
                    )
                })
                .collect()
        })
        .contains(&(name.to_string(), collapse(expression)))
}

/// The default formula set.
pub fn formulas() -> Vec<FormulaDef> {
    records(FORMULAS_TSV)
        .iter()
        .map(|r| FormulaDef {
            name: field(r, "name").to_string(),
            expression: field(r, "expression").to_string(),
            scope: if field(r, "scope") == "portfolio" {
                Scope::Portfolio
            } else {
                Scope::Candidate
            },
            unit: field(r, "unit").to_string(),
            description: field(r, "description").to_string(),
            origin: Origin::Default,
            cell: None,
        })
        .collect()
}

/// The default formulas' descriptions in both languages: name, English (templates/formulas.tsv)
/// and Chinese (templates/formulas.zh.tsv, empty where the name has none).
fn formula_descriptions() -> &'static [(&'static str, &'static str, &'static str)] {
    // Read once: the Formulas tab asks for every formula.
    static BOTH: std::sync::OnceLock<Vec<(&'static str, &'static str, &'static str)>> =
        std::sync::OnceLock::new();
    BOTH.get_or_init(|| {
        let zh = records(FORMULAS_ZH_TSV);
        records(FORMULAS_TSV)
            .iter()
            .map(|r| {
                let name = field_static(r, "name");
                let text_zh = zh
                    .iter()
                    .find(|z| field(z, "name") == name)
                    .map(|z| field_static(z, "description_zh"))
                    .unwrap_or_default();
                (name, field_static(r, "description"), text_zh)
            })
            .collect()
    })
}

/// A formula's description in both languages. A default formula's own text, in English or in
/// Chinese (as a template of either language wrote it), is given in each; a description the
/// user wrote, or one of a formula that is not a default, is kept as written in both.
pub fn formula_description(f: &FormulaDef) -> Text<&str> {
    match formula_descriptions()
        .iter()
        .find(|(name, _, _)| *name == f.name)
    {
        Some(&(_, en, zh)) if !zh.is_empty() && (f.description == en || f.description == zh) => {
            Text { en, zh }
        }
        _ => Text {
            en: &f.description,
            zh: &f.description,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every default formula has a Chinese description, every Chinese description names a
    /// default formula, and each keeps the English text's figures (citations, worked numbers).
    #[test]
    fn every_formula_has_a_chinese_description_and_none_is_stale() {
        let names: Vec<String> = formulas().into_iter().map(|f| f.name).collect();
        let zh = records(FORMULAS_ZH_TSV);
        let zh_names: Vec<&str> = zh.iter().map(|r| field(r, "name")).collect();
        let missing: Vec<&String> = names
            .iter()
            .filter(|n| !zh_names.contains(&n.as_str()))
            .collect();
        let stale: Vec<&&str> = zh_names
            .iter()
            .filter(|n| !names.iter().any(|m| m == *n))
            .collect();
        assert!(missing.is_empty(), "formulas without Chinese: {missing:?}");
        assert!(
            stale.is_empty(),
            "Chinese descriptions of no formula: {stale:?}"
        );
        let mut seen = std::collections::HashSet::new();
        for n in &zh_names {
            assert!(seen.insert(*n), "{n} is described twice in formulas.zh.tsv");
        }
        // The figures of each English text, as runs of digits with their separators.
        let figures = |t: &str| -> Vec<String> {
            t.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
                .map(|w| w.trim_matches(|c| c == '.' || c == ','))
                .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
                .map(str::to_string)
                .collect()
        };
        for (name, en, zh) in formula_descriptions() {
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{name}: no Chinese in {zh:?}"
            );
            for figure in figures(en) {
                assert!(
                    zh.contains(&figure),
                    "{name}: {figure} of the English text is not in the Chinese"
                );
            }
        }
    }

    #[test]
    fn a_default_description_follows_the_language_and_a_users_is_kept() {
        let mut f = formulas()
            .into_iter()
            .find(|f| f.name == "utilization")
            .unwrap();
        assert_eq!(
            formula_description(&f).zh,
            "月利用率：运行小时 ÷ 当月小时数（seed 001 计费的经验法则）。"
        );
        let en = "Monthly utilization: hours run ÷ hours in the month (seed 001's rule of thumb for billing).";
        assert_eq!(formula_description(&f).en, en);
        // The Chinese template's text read back gives English in an English plan.
        f.description = formula_description(&f).zh.to_string();
        assert_eq!(formula_description(&f).en, en);
        f.description = "our own note".into();
        assert_eq!(formula_description(&f).zh, "our own note");
    }
}

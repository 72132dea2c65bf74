//! templates/assumptions.tsv: the default assumptions, with their units, notes in both
//! languages and roles (which an engine profile may set).

use super::{field, field_static, records};
use crate::labels::Label;
use crate::lang::Lang;
use crate::model::{Assumption, Assumptions, Source, Value};

pub(super) const ASSUMPTIONS_TSV: &str = include_str!("../../templates/assumptions.tsv");

/// templates/assumptions.earlier.tsv: the values default assumptions had in earlier versions
/// (scripts/earlier_formulas.py writes it from git history).
pub(super) const ASSUMPTIONS_EARLIER_TSV: &str =
    include_str!("../../templates/assumptions.earlier.tsv");

/// A value as the templates write it: yes and no, a number, or text.
fn typed(raw: &str) -> Value {
    match raw {
        "yes" => Value::Bool(true),
        "no" => Value::Bool(false),
        _ => raw
            .parse()
            .map(Value::Number)
            .unwrap_or_else(|_| Value::Text(raw.to_string())),
    }
}

/// Whether `value` is one the default assumption `key` had in an earlier version of gpuplan
/// and has no longer: an Assumptions row a template of that version wrote, not a choice.
pub fn earlier_assumption(key: &str, value: &Value) -> bool {
    static EARLIER: std::sync::OnceLock<Vec<(String, Value)>> = std::sync::OnceLock::new();
    EARLIER
        .get_or_init(|| {
            records(ASSUMPTIONS_EARLIER_TSV)
                .iter()
                .map(|r| (field(r, "key").to_string(), typed(field(r, "value"))))
                .collect()
        })
        .iter()
        .any(|(k, v)| k == key && v == value)
}

/// The default assumptions, each with its unit and note in the chosen language.
pub fn assumptions(lang: Lang) -> Assumptions {
    let items = records(ASSUMPTIONS_TSV)
        .iter()
        .map(|r| Assumption {
            key: field(r, "key").to_string(),
            value: typed(field(r, "value")),
            unit: field(r, "unit").to_string(),
            note: field(r, lang.t("English note", "Chinese note")).to_string(),
            source: Source::Default,
        })
        .collect();
    Assumptions { items }
}

/// The note of a built-in assumption in both languages (templates/assumptions.tsv).
pub fn assumption_note(key: &str) -> Option<Label> {
    records(ASSUMPTIONS_TSV)
        .iter()
        .find(|r| field(r, "key") == key)
        .map(|r| {
            Label::new(
                field_static(r, "English note"),
                field_static(r, "Chinese note"),
            )
        })
}

/// The figure of a built-in assumption (the Assumptions sheet's default), if it is a number.
pub fn assumption_number(key: &str) -> Option<f64> {
    static BUILT_IN: std::sync::OnceLock<Assumptions> = std::sync::OnceLock::new();
    match BUILT_IN
        .get_or_init(|| assumptions(Lang::En))
        .get(key)
        .map(|a| &a.value)
    {
        Some(Value::Number(n)) => Some(*n),
        _ => None,
    }
}

/// What an assumption is for (templates/assumptions.tsv, column role).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssumptionRole {
    /// Costs: the plan workbook recomputes them when it is edited.
    Money,
    /// Sizes memory and speed: an engine profile may set it per workload.
    Sizing,
    /// The rest (currency, redundancy, advice thresholds).
    Plan,
}

/// The unit of a default assumption as templates/assumptions.tsv writes it (`share`, `h`,
/// `money`, `per GB`); `None` for a user's own key.
pub fn assumption_unit(key: &str) -> Option<&'static str> {
    static UNITS: std::sync::OnceLock<Vec<(&'static str, &'static str)>> =
        std::sync::OnceLock::new();
    UNITS
        .get_or_init(|| {
            records(ASSUMPTIONS_TSV)
                .iter()
                .map(|r| (field_static(r, "key"), field_static(r, "unit")))
                .collect()
        })
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, u)| *u)
}

/// The role of a default assumption; `None` for a user's own key.
pub fn assumption_role(key: &str) -> Option<AssumptionRole> {
    // Read from the table once: the Assumptions tab and its live cells ask for every key.
    static ROLES: std::sync::OnceLock<Vec<(&'static str, AssumptionRole)>> =
        std::sync::OnceLock::new();
    let roles = ROLES.get_or_init(|| {
        records(ASSUMPTIONS_TSV)
            .iter()
            .map(|r| {
                let role = match field(r, "role") {
                    "money" => AssumptionRole::Money,
                    "sizing" => AssumptionRole::Sizing,
                    _ => AssumptionRole::Plan,
                };
                (field_static(r, "key"), role)
            })
            .collect()
    });
    roles.iter().find(|(k, _)| *k == key).map(|(_, r)| *r)
}

/// The assumptions an engine profile may set: those that size memory and speed. The money ones
/// stay one value for the whole plan, which the workbook recomputes from one cell each.
pub fn profile_keys() -> Vec<&'static str> {
    records(ASSUMPTIONS_TSV)
        .iter()
        .filter(|r| field(r, "role") == "sizing")
        .map(|r| field_static(r, "key"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_assumptions_match_the_spec() {
        let a = assumptions(Lang::En);
        assert_eq!(a.number("hours_in_month", 0.0), 730.0);
        assert_eq!(a.number("redundancy_online", 0.0), 0.2);
        assert_eq!(a.number("cold_start_min", 0.0), 20.0);
        assert_eq!(
            a.get("grad_checkpointing").map(|x| &x.value),
            Some(&Value::Bool(true))
        );
        assert_eq!(a.currency(), "CNY");
        // Added by the accuracy work (#9): the serving engine's prefill chunk and fixed buffers,
        // and the optimizer's bytes per trained parameter.
        assert_eq!(a.number("prefill_chunk_tokens", 0.0), 8192.0);
        assert_eq!(a.number("inference_activation_gib", 0.0), 0.5);
        assert_eq!(a.number("optimizer_bytes_per_param", 0.0), 12.0);
        // Every default has a note in both languages (the Assumptions sheet shows them).
        for en in &a.items {
            let note = assumption_note(&en.key).expect("a built-in assumption");
            assert!(!note.en.is_empty() && !note.zh.is_empty(), "{}", en.key);
            assert_eq!(note.en, en.note);
        }
    }

    #[test]
    fn every_default_assumption_says_its_role() {
        for r in records(ASSUMPTIONS_TSV) {
            assert!(
                ["money", "sizing", "plan"].contains(&field(&r, "role")),
                "{}: role {:?}",
                field(&r, "key"),
                field(&r, "role")
            );
        }
        assert_eq!(
            assumption_role("safety_margin"),
            Some(AssumptionRole::Money)
        );
        assert_eq!(
            assumption_role("gpu_memory_utilization"),
            Some(AssumptionRole::Sizing)
        );
        assert_eq!(assumption_role("my_own"), None);
        assert!(!profile_keys().contains(&"hours_in_month"));
    }
}

//! The Assumptions sheet after defaults and `--set`.

use super::*;

/// One row of the Assumptions sheet (`key, value, unit, note`), or its default from
/// templates/assumptions.tsv.
#[derive(Debug, Clone, PartialEq)]
pub struct Assumption {
    /// The key (`hours_in_month`, `safety_margin`); a numeric or yes/no one is a formula variable.
    pub key: String,
    /// The value, typed like the key's default (number, yes/no or text).
    pub value: Value,
    /// The unit shown beside the value (`h`, `GiB`, `month`); the default's where blank.
    pub unit: String,
    /// What the key means; the default's where blank.
    pub note: String,
    /// Where the value came from: the sheet's cell, the default, or `--set`.
    pub source: Source,
}

/// The Assumptions sheet after defaults and `--set` are applied.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Assumptions {
    /// The sheet's rows in order, then the defaults of the keys it lacks, then keys `--set`
    /// adds; each key once.
    pub items: Vec<Assumption>,
}

impl Assumptions {
    /// The assumption of this key (exact, case-sensitive), if any.
    pub fn get(&self, key: &str) -> Option<&Assumption> {
        self.items.iter().find(|a| a.key == key)
    }

    /// A text assumption, trimmed; "" when it is absent, blank or not text.
    pub fn text(&self, key: &str) -> &str {
        match self.get(key).map(|a| &a.value) {
            Some(Value::Text(t)) => t.trim(),
            _ => "",
        }
    }

    /// A numeric assumption, or `default` if it is absent or not a number.
    pub fn number(&self, key: &str, default: f64) -> f64 {
        match self.get(key).map(|a| &a.value) {
            Some(Value::Number(n)) => *n,
            _ => default,
        }
    }

    /// The `currency` assumption trimmed and upper-cased (`USD`); `CNY` when absent or blank.
    pub fn currency(&self) -> String {
        match self.get("currency").map(|a| &a.value) {
            Some(Value::Text(t)) if !t.trim().is_empty() => t.trim().to_uppercase(),
            _ => "CNY".to_string(),
        }
    }
}

//! The Assumptions sheet after defaults and `--set`.

use super::*;

#[derive(Debug, Clone, PartialEq)]
pub struct Assumption {
    pub key: String,
    pub value: Value,
    pub unit: String,
    pub note: String,
    pub source: Source,
}

/// The Assumptions sheet after defaults and `--set` are applied.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Assumptions {
    pub items: Vec<Assumption>,
}

impl Assumptions {
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

    pub fn currency(&self) -> String {
        match self.get("currency").map(|a| &a.value) {
            Some(Value::Text(t)) if !t.trim().is_empty() => t.trim().to_uppercase(),
            _ => "CNY".to_string(),
        }
    }
}

//! A warning or note, in English and Chinese, at the cell it is about.

use super::*;
use crate::labels::Message;

/// How serious a warning is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A note (`info` in the JSON): on the Warnings tab, but not counted by `--strict` nor
    /// listed in the terminal summary.
    Info,
    /// A warning (`warning` in the JSON): listed in the terminal summary; with `--strict` the
    /// run exits with code 3.
    Warning,
}

/// Something the user should know; never silent: the shape every message has ([`Message`]),
/// with how serious it is. The JSON has its `severity`, `where` and `message` (the English).
pub type Warning = Message<Severity>;

impl Warning {
    /// A [`Severity::Warning`] at `location`, with no Chinese message yet.
    pub fn warn(location: impl Into<String>, message: impl Into<String>) -> Self {
        Message {
            severity: Severity::Warning,
            location: location.into(),
            message: message.into(),
            zh: None,
        }
    }

    /// A [`Severity::Info`] note at `location`, with no Chinese message yet.
    pub fn info(location: impl Into<String>, message: impl Into<String>) -> Self {
        Message {
            severity: Severity::Info,
            location: location.into(),
            message: message.into(),
            zh: None,
        }
    }
}

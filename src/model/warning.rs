//! A warning or note, in English and Chinese, at the cell it is about.

use super::*;

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

/// Something the user should know; never silent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    /// How serious it is.
    pub severity: Severity,
    /// Where it is about, `sheet!cell` or a workload's name (`where` in the JSON).
    #[serde(rename = "where")]
    pub location: String,
    /// What is wrong and what to do, in English (the JSON's and the default text).
    pub message: String,
    /// The message in Chinese, where it has been translated (the Warnings tab and the terminal
    /// with `--lang zh` show it; otherwise, and in the JSON, the English), as [`Problem`]s have.
    ///
    /// [`Problem`]: crate::error::Problem
    #[serde(skip)]
    pub zh: Option<String>,
}

impl Warning {
    /// A [`Severity::Warning`] at `location`, with no Chinese message yet.
    pub fn warn(location: impl Into<String>, message: impl Into<String>) -> Self {
        Warning {
            severity: Severity::Warning,
            location: location.into(),
            message: message.into(),
            zh: None,
        }
    }
    /// A [`Severity::Info`] note at `location`, with no Chinese message yet.
    pub fn info(location: impl Into<String>, message: impl Into<String>) -> Self {
        Warning {
            severity: Severity::Info,
            location: location.into(),
            message: message.into(),
            zh: None,
        }
    }

    /// The same warning with its Chinese message.
    pub fn with_zh(mut self, zh: impl Into<String>) -> Self {
        self.zh = Some(zh.into());
        self
    }

    /// The message in the language asked for: English where no translation exists, so a
    /// warning added without its Chinese still shows.
    pub fn text(&self, lang: crate::lang::Lang) -> &str {
        match (&self.zh, lang) {
            (Some(zh), crate::lang::Lang::Zh) => zh,
            _ => &self.message,
        }
    }
}

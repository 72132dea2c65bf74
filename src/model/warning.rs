//! A warning or note, in English and Chinese, at the cell it is about.

use super::*;

/// How serious a warning is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Info,
    Warning,
}

/// Something the user should know; never silent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    pub severity: Severity,
    #[serde(rename = "where")]
    pub location: String,
    pub message: String,
    /// The message in Chinese, where it has been translated (the Warnings tab and the terminal
    /// with `--lang zh` show it; otherwise, and in the JSON, the English), as [`Problem`]s have.
    ///
    /// [`Problem`]: crate::error::Problem
    #[serde(skip)]
    pub zh: Option<String>,
}

impl Warning {
    pub fn warn(location: impl Into<String>, message: impl Into<String>) -> Self {
        Warning {
            severity: Severity::Warning,
            location: location.into(),
            message: message.into(),
            zh: None,
        }
    }
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

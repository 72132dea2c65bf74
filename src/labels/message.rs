//! The one shape of what gpuplan says about a place in the input or the plan: where, what in
//! English, and the Chinese where it has been translated. A problem that stops the run
//! ([`Problem`](crate::error::Problem), `Message<()>`) and a warning or note
//! ([`Warning`](crate::model::Warning), `Message<Severity>`) are this one struct, so the
//! translation and the way it is shown live here once.
//!
//! The kind is a type parameter rather than a `Warning { severity, #[serde(flatten)] message }`
//! around a message: the fields stay where every caller reads them (`w.location`, `w.message`,
//! `w.zh`, `w.severity`), and the JSON of a warning stays `severity`, `where`, `message`.

use super::Text;
use crate::lang::Lang;
use serde::Serialize;
use std::fmt;

/// A message at a location, in English and, where translated, in Chinese; `K` is its kind: `()`
/// for a [`Problem`](crate::error::Problem), the severity for a
/// [`Warning`](crate::model::Warning).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message<K = ()> {
    /// The kind: nothing for a problem (every problem stops the run), how serious a warning is.
    pub severity: K,
    /// Sheet and cell (`Workloads!D7`), a workload's or a formula's name, `FILE:LINE` or the part
    /// of the input concerned; empty for one about the whole input (`where` in the JSON).
    #[serde(rename = "where")]
    pub location: String,
    /// What is wrong and what to do, in English (the JSON's and the default text).
    pub message: String,
    /// The message in Chinese, where it has been translated (the Warnings tab and the terminal
    /// with `--lang zh` or a Chinese locale show it; otherwise, and in the JSON, the English).
    #[serde(skip)]
    pub zh: Option<String>,
}

impl<K> Message<K> {
    /// The same message with its Chinese.
    pub fn with_zh(mut self, zh: impl Into<String>) -> Self {
        self.zh = Some(zh.into());
        self
    }

    /// The message in both languages: the English where no translation exists, so a message
    /// added without its Chinese still shows.
    pub fn said(&self) -> Text<&str> {
        Text {
            en: &self.message,
            zh: self.zh.as_deref().unwrap_or(&self.message),
        }
    }

    /// The message in `lang` (English where no translation exists).
    pub fn text(&self, lang: Lang) -> &str {
        self.said().get(lang)
    }

    /// `location: message` in `lang` (English where no translation exists); the message alone
    /// where the location is empty.
    pub fn render(&self, lang: Lang) -> String {
        let message = self.text(lang);
        if self.location.is_empty() {
            message.to_string()
        } else {
            format!("{}: {message}", self.location)
        }
    }
}

/// `location: message` in English; the message alone where the location is empty.
impl<K> fmt::Display for Message<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_shows_its_chinese_where_it_has_one() {
        let plain = Message {
            severity: (),
            location: "Workloads!D7".into(),
            message: "a share is tight".into(),
            zh: None,
        };
        assert_eq!(plain.render(Lang::Zh), "Workloads!D7: a share is tight");
        let both = plain.clone().with_zh("比例偏紧");
        assert_eq!(both.render(Lang::Zh), "Workloads!D7: 比例偏紧");
        assert_eq!(both.to_string(), "Workloads!D7: a share is tight");
        let nowhere = Message {
            location: String::new(),
            ..both
        };
        assert_eq!(
            nowhere.said(),
            Text {
                en: "a share is tight",
                zh: "比例偏紧"
            }
        );
    }
}

//! The two languages of the workbook and the terminal: English and Chinese.

/// The language of sheet names, labels and messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Lang {
    /// English: sheet names, labels and messages in English.
    #[default]
    En,
    /// Simplified Chinese: sheet names, labels and messages in Chinese.
    Zh,
}

impl Lang {
    /// The text in this language, from both.
    pub fn t<'a>(self, en: &'a str, zh: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }

    /// The terminal's language from the locale: Chinese when the first set of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` names a Chinese locale (`zh_CN.UTF-8`, `zh_TW`, `zh`).
    pub fn from_env() -> Lang {
        Lang::from_locale(
            ["LC_ALL", "LC_MESSAGES", "LANG"]
                .iter()
                .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty())),
        )
    }

    pub(crate) fn from_locale(locale: Option<String>) -> Lang {
        match locale {
            Some(l) if l.to_ascii_lowercase().starts_with("zh") => Lang::Zh,
            _ => Lang::En,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_locales_give_chinese() {
        for l in ["zh_CN.UTF-8", "zh_TW", "zh", "ZH_cn"] {
            assert_eq!(Lang::from_locale(Some(l.into())), Lang::Zh, "{l}");
        }
        for l in ["en_US.UTF-8", "C", "C.UTF-8", "POSIX", "de_DE"] {
            assert_eq!(Lang::from_locale(Some(l.into())), Lang::En, "{l}");
        }
        assert_eq!(Lang::from_locale(None), Lang::En);
    }
}

//! A text in English and Chinese, the one way gpuplan says a thing in both languages: a fixed
//! [`Label`] (`&'static str` each, for the tables of labels and words) or an owned [`Said`]
//! (`String` each, for what is worded from the plan's values). Whoever words a thing builds both
//! languages; whoever writes it picks one with [`Text::get`].

use crate::lang::Lang;

/// A text in English and in Chinese: `S` is `&'static str` in a [`Label`], `String` in a
/// [`Said`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Text<S = String> {
    /// The English text, as the JSON, the English workbook and the English terminal say it.
    pub en: S,
    /// The Chinese text, as the workbook written with `--lang zh` and a Chinese terminal say it.
    pub zh: S,
}

/// A fixed text in both languages (const, for tables of labels and words); [`Text::get`] gives
/// its `&'static str`.
pub type Label = Text<&'static str>;

/// A text in both languages worded at run time (with the plan's names and figures in it).
pub type Said = Text<String>;

/// One language's words as a [`Text`] holds them, and what [`Text::get`] lends of them: a
/// borrowed `&str` lends itself (so a [`Label`] gives `&'static str`), an owned `String` a
/// borrow of itself.
pub trait Words {
    /// The words lent by `&'a self`.
    type Lent<'a>: Copy + std::ops::Deref<Target = str>
    where
        Self: 'a;

    /// The words, as [`Text::get`] gives them.
    fn lend(&self) -> Self::Lent<'_>;
}

impl<'s> Words for &'s str {
    type Lent<'a>
        = &'s str
    where
        Self: 'a;

    fn lend(&self) -> &'s str {
        self
    }
}

impl Words for String {
    type Lent<'a> = &'a str;

    fn lend(&self) -> &str {
        self
    }
}

impl<S> Text<S> {
    /// The text in `lang`, taken out of the text (a [`Said`]'s `String` moved, not copied).
    pub fn pick(self, lang: Lang) -> S {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }
}

impl<S: Words> Text<S> {
    /// The text in `lang`: `&'static str` for a [`Label`], a borrow for a [`Said`].
    pub fn get(&self, lang: Lang) -> S::Lent<'_> {
        match lang {
            Lang::En => self.en.lend(),
            Lang::Zh => self.zh.lend(),
        }
    }
}

impl<S: AsRef<str>> Text<S> {
    /// Whether `text` is this text in either language.
    pub fn is(&self, text: &str) -> bool {
        text == self.en.as_ref() || text == self.zh.as_ref()
    }
}

impl Label {
    /// A label from its English and Chinese text (const, for tables).
    pub const fn new(en: &'static str, zh: &'static str) -> Label {
        Text { en, zh }
    }
}

impl Said {
    /// A text from its English and its Chinese.
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Said {
        Text {
            en: en.into(),
            zh: zh.into(),
        }
    }
}

impl Said {
    /// `more` added to the end, in each language (a [`Label`] or another [`Said`]).
    pub fn push<S: AsRef<str>>(&mut self, more: &Text<S>) {
        self.en.push_str(more.en.as_ref());
        self.zh.push_str(more.zh.as_ref());
    }

    /// The texts one after another, `sep` between two (each language its own separator).
    pub fn join<S: AsRef<str>>(texts: &[Text<S>], sep: Label) -> Said {
        let join = |of: fn(&Text<S>) -> &str, sep: &str| {
            texts.iter().map(of).collect::<Vec<_>>().join(sep)
        };
        Said::new(
            join(|t| t.en.as_ref(), sep.en),
            join(|t| t.zh.as_ref(), sep.zh),
        )
    }
}

/// A borrowed text (a [`Label`], or a text lent by a message or a reason) as an owned one.
impl From<Text<&str>> for Said {
    fn from(t: Text<&str>) -> Said {
        Said::new(t.en, t.zh)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_gives_each_language() {
        const L: Label = Label::new("Total", "合计");
        // A label's text outlives the label: it is `'static`.
        let en: &'static str = Label::new("Total", "合计").get(Lang::En);
        assert_eq!((en, L.get(Lang::Zh)), ("Total", "合计"));
        assert!(L.is("合计") && L.is("Total") && !L.is("total"));
        let s = Said::from(L);
        assert_eq!((s.get(Lang::En), s.get(Lang::Zh)), ("Total", "合计"));
        assert_eq!(Said::new("a", "甲"), Said::new("a".to_string(), "甲"));
        assert_eq!(Said::default().get(Lang::Zh), "");
        assert_eq!(Said::new("a", "甲").pick(Lang::Zh), "甲");
        let mut j = Said::join(&[L, L], Label::new(", ", "，"));
        j.push(&Label::new(".", "。"));
        assert_eq!(j, Said::new("Total, Total.", "合计，合计。"));
    }
}

//! What a numeric cell must hold: its bounds, whether it is whole, and its unit (whether a
//! percentage may stand for a share), with the problem of a cell it refuses.

use super::values::{found_text, is_percent, raw_number};
use crate::labels::{Label, Said};
use crate::model::format_number;
use crate::read::xlsx::Raw;

/// What a number cell measures, for a percentage typed in it: `20%` is a share, so only a share
/// reads it (as 0.2). In hours or money it would be a wrong number in silence (`50%` of a peak
/// read as half an hour a day), so there it is refused naming the unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A share, 0.2 for 20%: a percentage is read as its share.
    Share,
    Hours,
    /// An amount or a price in the plan's currency.
    Money,
    /// Another unit, as templates/assumptions.tsv names it (`min`, `GiB`).
    Named(&'static str),
    /// A count or a size that is no share and has no unit worth naming (a concurrency).
    Plain,
    /// Not known (a user's own assumption, a fallback rule): a percentage is read as its share.
    Any,
}

impl Unit {
    /// Whether `20%` may stand for 0.2 here.
    pub fn takes_percent(self) -> bool {
        matches!(self, Unit::Share | Unit::Any)
    }

    /// The unit of a column of templates/columns.tsv by its type.
    pub fn of_column(ty: crate::catalog::ColumnType) -> Unit {
        use crate::catalog::ColumnType as T;
        match ty {
            T::Fraction => Unit::Share,
            T::Hours => Unit::Hours,
            T::Money => Unit::Money,
            T::Number | T::Integer => Unit::Plain,
            T::Text | T::Bool | T::Kind | T::Precision | T::KvPrecision | T::Any | T::Month => {
                Unit::Any
            }
        }
    }

    /// The unit of an assumption by templates/assumptions.tsv's `unit` column.
    pub fn of_assumption(unit: &'static str) -> Unit {
        match unit {
            "share" => Unit::Share,
            "h" => Unit::Hours,
            "money" => Unit::Money,
            u if u.starts_with("per ") => Unit::Money,
            "" | "yes/no" | "month" => Unit::Any,
            u => Unit::Named(u),
        }
    }

    /// The unit as a message names it, in English and Chinese; `None` for a plain number.
    fn named(self) -> Option<(&'static str, &'static str)> {
        match self {
            Unit::Hours => Some(("hours", "小时")),
            Unit::Money => Some(("money (the plan's currency)", "金额（方案币种）")),
            Unit::Named(u) => Some((u, u)),
            Unit::Share | Unit::Plain | Unit::Any => None,
        }
    }
}

/// What a numeric cell must hold.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub min: f64,
    /// The minimum itself is allowed.
    pub min_ok: bool,
    pub max: f64,
    pub integer: bool,
    /// What it measures: whether a percentage may stand for a share.
    pub unit: Unit,
}

impl Rule {
    pub const fn at_least(min: f64) -> Rule {
        Rule {
            min,
            min_ok: true,
            max: f64::MAX,
            integer: false,
            unit: Unit::Any,
        }
    }
    pub const fn positive() -> Rule {
        Rule {
            min: 0.0,
            min_ok: false,
            max: f64::MAX,
            integer: false,
            unit: Unit::Any,
        }
    }
    pub const fn range(min: f64, max: f64) -> Rule {
        Rule {
            min,
            min_ok: true,
            max,
            integer: false,
            unit: Unit::Any,
        }
    }
    pub const fn whole(min: f64, max: f64) -> Rule {
        Rule {
            min,
            min_ok: true,
            max,
            integer: true,
            unit: Unit::Any,
        }
    }
    pub const fn max(self, max: f64) -> Rule {
        Rule { max, ..self }
    }
    /// The rule for a cell in `unit`.
    pub const fn in_unit(self, unit: Unit) -> Rule {
        Rule { unit, ..self }
    }

    /// The rule of the number column `key` of `sheet`: its bounds and type in
    /// templates/columns.tsv.
    pub fn of(sheet: &str, key: &str) -> Option<Rule> {
        let c = crate::catalog::column(sheet, key)?;
        c.bounds.map(|b| Rule {
            min: b.min,
            min_ok: b.min_ok,
            max: b.max,
            integer: b.integer,
            unit: Unit::of_column(c.ty),
        })
    }

    /// The number a cell holds under this rule: `None` where it holds none, or a percentage
    /// where the unit is no share.
    pub fn read(&self, raw: &Raw) -> Option<f64> {
        if is_percent(raw) && !self.unit.takes_percent() {
            return None;
        }
        raw_number(raw)
    }

    /// The problem of a cell this rule refuses, in both languages: what it must be and what was
    /// found, and where it is a percentage in a column of another unit, that unit.
    pub fn refusal(&self, key: &str, raw: &Raw) -> Said {
        let (rule, found) = (self.said(), found_text(raw));
        if is_percent(raw) && !self.unit.takes_percent() {
            let (en, zh) = match self.unit.named() {
                Some((u, u_zh)) => (
                    format!("{key} is in {u}, not a percentage"),
                    format!("{key} 的单位是{u_zh}，不是百分比"),
                ),
                None => (
                    format!("{key} is no share, so it takes no percentage"),
                    format!("{key} 不是比例，不能填百分比"),
                ),
            };
            return Said::new(
                format!("{en}: write {}, found {}", rule.en, found.en),
                format!("{zh}：请填写{}，实际为 {}", rule.zh, found.zh),
            );
        }
        Said::new(
            format!("{key} must be {}, found {}", rule.en, found.en),
            format!("{key} 应为 {}，实际为 {}", rule.zh, found.zh),
        )
    }

    pub fn describe(&self) -> String {
        self.said().en
    }

    /// [`Rule::describe`] in English and in Chinese.
    pub fn said(&self) -> Said {
        let what = if self.integer {
            Label::new("a whole number", "整数")
        } else {
            Label::new("a number", "数值")
        };
        // Unbounded both ways (a Ranges value): the bounds are not figures to print.
        if self.unbounded() {
            return what.into();
        }
        let lower = if self.min_ok {
            format!("≥ {}", format_number(self.min))
        } else {
            format!("> {}", format_number(self.min))
        };
        let (en, zh) = (what.en, what.zh);
        if self.max < f64::MAX / 2.0 {
            let max = format_number(self.max);
            if self.min_ok && self.min != f64::MIN {
                let min = format_number(self.min);
                Said::new(
                    format!("{en} from {min} to {max}"),
                    format!("{min} 到 {max} 之间的{zh}"),
                )
            } else {
                Said::new(
                    format!("{en} {lower} and ≤ {max}"),
                    format!("{lower} 且 ≤ {max} 的{zh}"),
                )
            }
        } else {
            Said::new(format!("{en} {lower}"), format!("{lower} 的{zh}"))
        }
    }

    /// No bound either way worth naming (beyond ±f64::MAX / 8).
    fn unbounded(&self) -> bool {
        self.min <= f64::MIN / 8.0 && self.max >= f64::MAX / 8.0
    }

    pub fn accepts(&self, v: f64) -> bool {
        v.is_finite()
            && (if self.min_ok {
                v >= self.min
            } else {
                v > self.min
            })
            && v <= self.max
            && (!self.integer || (v - v.round()).abs() < 1e-9)
    }
}

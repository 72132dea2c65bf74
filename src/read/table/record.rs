//! Typed access to a data row's cells, each with its problem collected (where, what was
//! expected, what was found).

use super::values::{found_text, parse_bool, raw_text};
use super::{Record, Rule};
use crate::error::Problem;
use crate::model::CellRef;
use crate::read::xlsx::Raw;

/// Text columns that may hold a date as text (written `YYYY-MM-DD`); in any other text column a
/// date is a mistake (a name typed as 3-1 that Excel made a date).
const FREE_TEXT: [&str; 4] = ["notes", "note", "description", "unit"];

impl Record<'_> {
    /// The cell of a column the sheet must have (its reader refuses a sheet without it:
    /// `Reader::table_with`, or the GPUs and Workloads readers' own checks); for a column that
    /// may be missing, [`Record::at`] names the row instead.
    pub fn cell(&self, key: &str) -> CellRef {
        debug_assert!(
            self.table.columns.contains_key(key),
            "{key} is not a required column of {}",
            self.table.sheet
        );
        let col = self.table.columns.get(key).copied().unwrap_or(0);
        CellRef::new(&self.table.sheet, self.row, col)
    }

    /// Where a key's value came from, for a message: the `--set` flag that wrote it, else its
    /// cell, else (the sheet has no such column) the row.
    pub fn at(&self, key: &str) -> String {
        match self.table.columns.get(key) {
            Some(c) => self
                .table
                .overridden
                .get(&(self.row, *c))
                .cloned()
                .unwrap_or_else(|| self.cell(key).to_string()),
            None => format!("{}!{} (no {key} column)", self.table.sheet, self.row + 1),
        }
    }

    pub fn raw(&self, key: &str) -> Option<&Raw> {
        self.table.columns.get(key).and_then(|c| self.cells.get(c))
    }

    /// The cell in column `col`, known or not.
    pub fn raw_at(&self, col: u32) -> Option<&Raw> {
        self.cells.get(&col)
    }

    /// The text of a cell; `None` when blank. A spreadsheet error (`#N/A`), a formula with no
    /// saved value, or a date where a name belongs is a problem, not the text "#N/A" or "45352".
    pub fn text(&self, key: &str, problems: &mut Vec<Problem>) -> Option<String> {
        let raw = self.raw(key)?;
        let bad = match raw {
            // A note does not affect the plan: a formula there with no saved value, or an error,
            // is carried as its text rather than refusing the whole workbook.
            Raw::Error(_) | Raw::Uncomputed(_) if matches!(key, "notes" | "note") => false,
            Raw::Error(_) | Raw::Uncomputed(_) => true,
            Raw::Date(d) if FREE_TEXT.contains(&key) => {
                return Some(crate::support::time::serial_date(*d));
            }
            Raw::Date(_) => true,
            _ => false,
        };
        if bad {
            problems.push(
                Problem::new(
                    self.at(key),
                    format!("{key} must be text, found {}", found_text(raw).en),
                )
                .with_zh(format!("{key} 应为文本，实际为 {}", found_text(raw).zh)),
            );
            return None;
        }
        Some(raw_text(raw)).filter(|t| !t.is_empty())
    }

    /// Text that must be there: a problem saying `missing` at the cell when it is blank.
    pub fn required_text(
        &self,
        key: &str,
        missing: impl Into<String>,
        problems: &mut Vec<Problem>,
    ) -> Option<String> {
        let before = problems.len();
        let t = self.text(key, problems);
        if t.is_none() && problems.len() == before {
            problems.push(Problem::new(self.at(key), missing));
        }
        t
    }

    /// A number obeying `rule`, or a problem; `None` when blank.
    pub fn number(&self, key: &str, rule: Rule, problems: &mut Vec<Problem>) -> Option<f64> {
        let raw = self.raw(key)?;
        match rule.read(raw) {
            Some(v) if rule.accepts(v) => Some(v),
            _ => {
                let why = rule.refusal(key, raw);
                problems.push(Problem::new(self.at(key), why.en).with_zh(why.zh));
                None
            }
        }
    }

    /// A calendar month (`2027-03`, a date, `2027年3月`), or a problem; `None` when blank.
    pub fn month(&self, key: &str, problems: &mut Vec<Problem>) -> Option<crate::model::Month> {
        let raw = self.raw(key)?;
        let m = match raw {
            Raw::Date(d) => crate::model::Month::parse(&crate::support::time::serial_date(*d)),
            other => crate::model::Month::parse(&raw_text(other)),
        };
        if m.is_none() {
            problems.push(
                Problem::new(
                    self.at(key),
                    format!(
                        "{key} must be a month as YYYY-MM (or a date), found {}",
                        found_text(raw).en
                    ),
                )
                .with_zh(format!(
                    "{key} 应为 YYYY-MM 格式的月份（或日期），实际为 {}",
                    found_text(raw).zh
                )),
            );
        }
        m
    }

    /// Hours of the day as a window (`22-07`), or a problem; `None` when blank.
    pub fn day_window(
        &self,
        key: &str,
        problems: &mut Vec<Problem>,
    ) -> Option<crate::model::DayWindow> {
        let raw = self.raw(key)?;
        let w = crate::model::DayWindow::parse(&raw_text(raw));
        if w.is_none() {
            problems.push(
                Problem::new(
                    self.at(key),
                    format!(
                        "{key} must be hours of the day as from-to (22-07: 22:00 to 07:00), found {}",
                        found_text(raw).en
                    ),
                )
                .with_zh(format!(
                    "{key} 应为一天中的时段，格式 起-止（22-07 表示 22:00 至 07:00），实际为 {}",
                    found_text(raw).zh
                )),
            );
        }
        w
    }

    /// A yes/no value, or a problem; `None` when blank.
    pub fn boolean(&self, key: &str, problems: &mut Vec<Problem>) -> Option<bool> {
        let raw = self.raw(key)?;
        let b = parse_bool(raw);
        if b.is_none() {
            problems.push(
                Problem::new(
                    self.at(key),
                    format!(
                        "{key} must be yes or no (TRUE/FALSE, y/n, 1/0, 是/否), found {}",
                        found_text(raw).en
                    ),
                )
                .with_zh(format!(
                    "{key} 应为 是/否（yes/no、TRUE/FALSE、y/n、1/0），实际为 {}",
                    found_text(raw).zh
                )),
            );
        }
        b
    }
}

//! Table sheets: the header row matched to known columns, and typed access to each cell with
//! problems collected (sheet, cell, what was expected, what was found).

use super::xlsx::{Raw, RawSheet};
use crate::catalog::Column;
use crate::error::Problem;
use crate::model::{format_number, CellRef, Warning};
pub use crate::support::fields::{invisible, normalize_header, parse_number_text};
use std::collections::{BTreeMap, HashMap};

/// A table sheet: known columns by key, and the data rows below the header.
pub struct Table {
    pub sheet: String,
    pub columns: HashMap<&'static str, u32>,
    pub rows: Vec<(u32, BTreeMap<u32, Raw>)>,
    /// One past the rightmost column that holds anything, header or data, known or not: where a
    /// `--set` of a column the sheet lacks may put its value without touching the user's own.
    pub width: u32,
    /// Cells a `--set` wrote, with the flag as the user typed it: problems there name the flag.
    pub overridden: HashMap<(u32, u32), String>,
    /// Columns whose header names no known column (the user's own), with the header's text.
    pub others: Vec<(u32, String)>,
}

/// Text with its invisible characters shown as `<U+200B>`, for messages.
pub fn visible(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if invisible(c) || (c.is_control() && c != '\n') {
            out.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn header_text(raw: &Raw) -> String {
    match raw {
        Raw::Text(t) => t.clone(),
        Raw::Number(n) => format_number(*n),
        _ => String::new(),
    }
}

/// The known column an unknown header looks like a misspelling of, if any: close to a key or a
/// label in either language, or containing one as a word ("Monthly price" → monthly).
fn looks_like(header: &str, columns: &[Column]) -> Option<&'static str> {
    let h = normalize_header(header);
    if h.chars().count() < 3 {
        return None;
    }
    let mut known: Vec<(String, &'static str)> = Vec::new();
    for c in columns {
        known.push((c.key.to_string(), c.key));
        known.push((normalize_header(c.label_en), c.key));
        known.push((normalize_header(c.label_zh), c.key));
    }
    let close = crate::support::suggest::closest(&h, known.iter().map(|(t, _)| t.as_str()));
    let word = |k: &str| {
        h.split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| w == k)
    };
    close
        .first()
        .and_then(|t| known.iter().find(|(k, _)| k == t))
        .map(|(_, key)| *key)
        .or_else(|| columns.iter().find(|c| word(c.key)).map(|c| c.key))
}

/// A sheet's cells by row and column.
type Rows = BTreeMap<u32, BTreeMap<u32, Raw>>;

impl Table {
    /// Groups a sheet's cells by row and matches row 1 against `columns`. Unknown headers are
    /// kept out (users keep notes there), with a warning when one looks like a misspelt known
    /// column; a header row with no known column, or a cell written twice, is a problem.
    pub fn new(
        raw: RawSheet,
        columns: &[Column],
        problems: &mut Vec<Problem>,
        notices: &mut Vec<Warning>,
    ) -> Option<Table> {
        let (mut rows, width) = group_rows(&raw.name, raw.cells, problems);
        let header = rows.remove(&0).unwrap_or_default();
        let found = known_headers(&raw.name, &header, columns, problems);
        let others = other_headers(&raw.name, &header, columns, &found, notices);
        if found.is_empty() {
            problems.push(no_headers_problem(&raw.name, &rows, columns));
            return None;
        }
        Some(Table {
            sheet: raw.name,
            columns: found,
            width,
            overridden: HashMap::new(),
            others,
            rows: rows
                .into_iter()
                .filter(|(_, cells)| !cells.is_empty())
                .collect(),
        })
    }

    pub fn has(&self, key: &str) -> bool {
        self.columns.contains_key(key)
    }

    /// The views of the data rows that hold a value in at least one known column.
    pub fn records(&self) -> Vec<Record<'_>> {
        self.rows
            .iter()
            .filter(|(_, cells)| self.columns.values().any(|c| cells.contains_key(c)))
            .map(|(r, cells)| Record {
                table: self,
                row: *r,
                cells,
            })
            .collect()
    }
}

/// The sheet's cells grouped by row, and one past the rightmost column that holds anything; a
/// problem for each cell written twice in the file.
fn group_rows(
    sheet: &str,
    cells: Vec<(u32, u32, Raw)>,
    problems: &mut Vec<Problem>,
) -> (Rows, u32) {
    let mut rows: Rows = BTreeMap::new();
    let mut width = 0;
    for (r, c, v) in cells {
        width = width.max(c + 1);
        if rows.entry(r).or_default().insert(c, v).is_some() {
            problems.push(Problem::new(
                CellRef::new(sheet, r, c).to_string(),
                "the cell is written twice in the file (only one value can be right); save the workbook again from Excel or LibreOffice",
            ));
        }
    }
    (rows, width)
}

/// The known columns the header row names, by key; a problem for a second header of one column.
fn known_headers(
    sheet: &str,
    header: &BTreeMap<u32, Raw>,
    columns: &[Column],
    problems: &mut Vec<Problem>,
) -> HashMap<&'static str, u32> {
    let mut found: HashMap<&'static str, u32> = HashMap::new();
    for (&c, v) in header {
        let text = header_text(v);
        if let Some(col) = columns.iter().find(|col| col.is_named_by(&text)) {
            if let Some(&first) = found.get(col.key) {
                problems.push(Problem::new(
                    CellRef::new(sheet, 0, c).to_string(),
                    format!(
                        "a second `{}` column (the first is column {}); delete one",
                        col.key,
                        crate::model::column_letters(first)
                    ),
                ));
            } else {
                found.insert(col.key, c);
            }
        }
    }
    found
}

/// The headers that name no known column (the user's own), with a warning for each that looks
/// like a known column the sheet lacks: most likely that column misspelt.
fn other_headers(
    sheet: &str,
    header: &BTreeMap<u32, Raw>,
    columns: &[Column],
    found: &HashMap<&'static str, u32>,
    notices: &mut Vec<Warning>,
) -> Vec<(u32, String)> {
    let mut others = Vec::new();
    for (&c, v) in header {
        let text = header_text(v);
        if columns.iter().any(|col| col.is_named_by(&text)) {
            continue;
        }
        others.push((c, text.clone()));
        if let Some(key) = looks_like(&text, columns).filter(|k| !found.contains_key(k)) {
            notices.push(Warning::warn(
                CellRef::new(sheet, 0, c).to_string(),
                format!(
                    "the header \"{}\" is not a known column, so its values are ignored; did you mean {key}? (write the key, its label, or `Label ({key})`)",
                    visible(&text)
                ),
            ).with_zh(format!(
                "表头“{}”不是已知的列，其数值将被忽略；是否应为 {key}？（请写列键、列名或 `列名 ({key})`）",
                visible(&text)
            )));
        }
    }
    others
}

/// The problem of a header row that names no known column, with the row that looks like the
/// headers where a title sits above the table.
fn no_headers_problem(sheet: &str, rows: &Rows, columns: &[Column]) -> Problem {
    let keys: Vec<&str> = columns.iter().take(6).map(|c| c.key).collect();
    // A title above the table is common: say where the headers seem to be.
    let lower = rows.iter().take(10).find(|(_, cells)| {
        cells
            .values()
            .filter(|v| columns.iter().any(|c| c.is_named_by(&header_text(v))))
            .count()
            >= 2
    });
    let hint = match lower {
        Some((r, _)) => format!(
            "; row {} looks like the headers: delete the rows above it",
            r + 1
        ),
        None => String::new(),
    };
    Problem::new(
        format!("{sheet}!1"),
        format!(
            "row 1 must hold the column headers, but none is known (expected headers such as {}, or `Label (key)`; `gpuplan init` writes a template){hint}",
            keys.join(", ")
        ),
    )
}

/// One data row of a table.
pub struct Record<'a> {
    pub table: &'a Table,
    pub row: u32,
    cells: &'a BTreeMap<u32, Raw>,
}

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

/// Whether a cell holds a percentage: typed as text (`50%`), or a number in a percentage format
/// (what Excel stores where `50%` is typed into a number cell).
pub fn is_percent(raw: &Raw) -> bool {
    match raw {
        Raw::Text(t) => t.trim().ends_with(['%', '％']),
        Raw::Percent(_) => true,
        Raw::Number(_) | Raw::Bool(_) | Raw::Error(_) | Raw::Date(_) | Raw::Uncomputed(_) => false,
    }
}

/// A number shown as a percentage, as the cell shows it: 0.5 → `50%`.
fn percent_text(v: f64) -> String {
    format!("{}%", format_number(v * 100.0))
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
    pub fn refusal(&self, key: &str, raw: &Raw) -> (String, String) {
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
            return (
                format!("{en}: write {}, found {}", self.describe(), found(raw)),
                format!(
                    "{zh}：请填写{}，实际为 {}",
                    self.describe_zh(),
                    found_zh(raw)
                ),
            );
        }
        (
            format!("{key} must be {}, found {}", self.describe(), found(raw)),
            format!(
                "{key} 应为 {}，实际为 {}",
                self.describe_zh(),
                found_zh(raw)
            ),
        )
    }

    pub fn describe(&self) -> String {
        let what = if self.integer {
            "a whole number"
        } else {
            "a number"
        };
        // Unbounded both ways (a Ranges value): the bounds are not figures to print.
        if self.unbounded() {
            return what.to_string();
        }
        let lower = if self.min_ok {
            format!("≥ {}", format_number(self.min))
        } else {
            format!("> {}", format_number(self.min))
        };
        if self.max < f64::MAX / 2.0 {
            if self.min_ok && self.min != f64::MIN {
                format!(
                    "{what} from {} to {}",
                    format_number(self.min),
                    format_number(self.max)
                )
            } else {
                format!("{what} {lower} and ≤ {}", format_number(self.max))
            }
        } else {
            format!("{what} {lower}")
        }
    }

    /// [`Rule::describe`] in Chinese.
    pub fn describe_zh(&self) -> String {
        let what = if self.integer { "整数" } else { "数值" };
        if self.unbounded() {
            return what.to_string();
        }
        let lower = if self.min_ok {
            format!("≥ {}", format_number(self.min))
        } else {
            format!("> {}", format_number(self.min))
        };
        if self.max < f64::MAX / 2.0 {
            if self.min_ok && self.min != f64::MIN {
                format!(
                    "{} 到 {} 之间的{what}",
                    format_number(self.min),
                    format_number(self.max)
                )
            } else {
                format!("{lower} 且 ≤ {} 的{what}", format_number(self.max))
            }
        } else {
            format!("{lower} 的{what}")
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

/// Yes/no from TRUE/FALSE, yes/no, y/n, 1/0, 是/否.
pub fn parse_bool(raw: &Raw) -> Option<bool> {
    match raw {
        Raw::Bool(b) => Some(*b),
        Raw::Number(n) if *n == 1.0 => Some(true),
        Raw::Number(n) if *n == 0.0 => Some(false),
        Raw::Text(t) => match t.trim().to_lowercase().as_str() {
            "true" | "yes" | "y" | "1" | "是" | "对" | "✓" => Some(true),
            "false" | "no" | "n" | "0" | "否" | "不" | "不是" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// How a found value reads in a message.
pub fn found(raw: &Raw) -> String {
    match raw {
        Raw::Number(n) => format_number(*n),
        Raw::Percent(v) => format!(
            "{} (the number {} in a percentage format)",
            percent_text(*v),
            format_number(*v)
        ),
        Raw::Text(t) => {
            let short: String = t.chars().take(40).collect();
            let more = if short.len() < t.len() { "…" } else { "" };
            let hint = if t.contains([',', '，']) && parse_number_text(t).is_none() {
                " (a comma separates thousands only, as in 1,000; write decimals with a point: 9.5)"
            } else {
                ""
            };
            format!("\"{}{more}\"{hint}", visible(&short))
        }
        Raw::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Raw::Error(e) => format!("the error {e}"),
        Raw::Date(d) => format!("a date ({})", crate::support::time::serial_date(*d)),
        Raw::Uncomputed(f) => format!(
            "the formula ={f} with no saved value (open the workbook in Excel or LibreOffice and save it, so the value is stored)"
        ),
    }
}

/// How a found value reads in a Chinese message.
pub fn found_zh(raw: &Raw) -> String {
    match raw {
        Raw::Number(_) | Raw::Bool(_) => found(raw),
        Raw::Percent(v) => format!(
            "{}（百分比格式的数值 {}）",
            percent_text(*v),
            format_number(*v)
        ),
        Raw::Text(t) => {
            let short: String = t.chars().take(40).collect();
            let more = if short.len() < t.len() { "…" } else { "" };
            let hint = if t.contains([',', '，']) && parse_number_text(t).is_none() {
                "（逗号只用于千位分隔，如 1,000；小数请用小数点，如 9.5）"
            } else {
                ""
            };
            format!("“{}{more}”{hint}", visible(&short))
        }
        Raw::Error(e) => format!("错误值 {e}"),
        Raw::Date(d) => format!("日期（{}）", crate::support::time::serial_date(*d)),
        Raw::Uncomputed(f) => format!(
            "公式 ={f}，但没有保存计算结果（请在 Excel 或 LibreOffice 中打开并保存工作簿，以保存其值）"
        ),
    }
}

pub fn raw_number(raw: &Raw) -> Option<f64> {
    match raw {
        Raw::Number(n) | Raw::Percent(n) if n.is_finite() => Some(*n),
        Raw::Text(t) => parse_number_text(t),
        Raw::Number(_)
        | Raw::Percent(_)
        | Raw::Bool(_)
        | Raw::Error(_)
        | Raw::Date(_)
        | Raw::Uncomputed(_) => None,
    }
}

/// A cell as text: text trimmed, numbers as a person writes them, a percentage as `50%`,
/// booleans as `TRUE`/`FALSE`, a date as its serial number and a formula without a saved
/// value as `=formula`.
pub fn raw_text(raw: &Raw) -> String {
    match raw {
        Raw::Number(n) => format_number(*n),
        Raw::Percent(v) => percent_text(*v),
        Raw::Text(t) => t.trim().to_string(),
        Raw::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Raw::Error(e) => e.clone(),
        Raw::Date(d) => format_number(*d),
        Raw::Uncomputed(f) => format!("={f}"),
    }
}

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
                    format!("{key} must be text, found {}", found(raw)),
                )
                .with_zh(format!("{key} 应为文本，实际为 {}", found_zh(raw))),
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
                let (en, zh) = rule.refusal(key, raw);
                problems.push(Problem::new(self.at(key), en).with_zh(zh));
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
                        found(raw)
                    ),
                )
                .with_zh(format!(
                    "{key} 应为 YYYY-MM 格式的月份（或日期），实际为 {}",
                    found_zh(raw)
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
                        found(raw)
                    ),
                )
                .with_zh(format!(
                    "{key} 应为一天中的时段，格式 起-止（22-07 表示 22:00 至 07:00），实际为 {}",
                    found_zh(raw)
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
                        found(raw)
                    ),
                )
                .with_zh(format!(
                    "{key} 应为 是/否（yes/no、TRUE/FALSE、y/n、1/0），实际为 {}",
                    found_zh(raw)
                )),
            );
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_from_text_as_people_type_them() {
        assert_eq!(parse_number_text("1,000"), Some(1000.0));
        assert_eq!(parse_number_text("20%"), Some(0.2));
        assert_eq!(parse_number_text(" 24 "), Some(24.0));
        assert_eq!(parse_number_text("¥6.5"), Some(6.5));
        assert_eq!(parse_number_text("abc"), None);
        assert_eq!(parse_number_text("1e999"), None);
    }

    #[test]
    fn booleans_in_both_languages() {
        for (t, want) in [
            ("TRUE", true),
            ("no", false),
            ("y", true),
            ("是", true),
            ("否", false),
            ("0", false),
        ] {
            assert_eq!(parse_bool(&Raw::Text(t.to_string())), Some(want), "{t}");
        }
        assert_eq!(parse_bool(&Raw::Number(1.0)), Some(true));
        assert_eq!(parse_bool(&Raw::Text("maybe".into())), None);
    }

    #[test]
    fn rules_describe_themselves() {
        assert_eq!(
            Rule::whole(1.0, 1e6).describe(),
            "a whole number from 1 to 1000000"
        );
        assert_eq!(Rule::positive().describe(), "a number > 0");
        assert!(!Rule::whole(1.0, 10.0).accepts(2.5));
        assert!(Rule::range(0.0, 744.0).accepts(744.0));
        assert!(!Rule::range(0.0, 744.0).accepts(1000.0));
    }
}

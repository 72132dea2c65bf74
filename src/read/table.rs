//! Table sheets: the header row matched to known columns, and typed access to each cell with
//! problems collected (sheet, cell, what was expected, what was found).

use super::xlsx::{Raw, RawSheet};
use crate::catalog::Column;
use crate::error::Problem;
use crate::model::{format_number, CellRef};
use std::collections::{BTreeMap, HashMap};

/// A table sheet: known columns by key, and the data rows below the header.
pub struct Table {
    pub sheet: String,
    pub columns: HashMap<&'static str, u32>,
    pub rows: Vec<(u32, BTreeMap<u32, Raw>)>,
}

fn header_text(raw: &Raw) -> String {
    match raw {
        Raw::Text(t) => t.trim().to_lowercase(),
        Raw::Number(n) => format_number(*n),
        _ => String::new(),
    }
}

/// Does a header cell name this column? Key, English or Chinese label, or `… (key)`.
pub fn header_matches(header: &str, col: &Column) -> bool {
    let h = header
        .trim()
        .to_lowercase()
        .replace('（', "(")
        .replace('）', ")");
    let h = h.trim();
    h == col.key
        || h == col.label_en.to_lowercase()
        || h == col.label_zh.to_lowercase()
        || h.ends_with(&format!("({})", col.key))
}

impl Table {
    /// Groups a sheet's cells by row and matches row 1 against `columns`. Unknown headers are
    /// ignored (users keep notes there); a header row with no known column is a problem.
    pub fn new(raw: RawSheet, columns: &[Column], problems: &mut Vec<Problem>) -> Option<Table> {
        let mut rows: BTreeMap<u32, BTreeMap<u32, Raw>> = BTreeMap::new();
        for (r, c, v) in raw.cells {
            rows.entry(r).or_default().insert(c, v);
        }
        let header = rows.remove(&0).unwrap_or_default();
        let mut found: HashMap<&'static str, u32> = HashMap::new();
        for (&c, v) in &header {
            let text = header_text(v);
            if let Some(col) = columns.iter().find(|col| header_matches(&text, col)) {
                if let Some(&first) = found.get(col.key) {
                    problems.push(Problem::new(
                        CellRef::new(&raw.name, 0, c).to_string(),
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
        if found.is_empty() {
            let keys: Vec<&str> = columns.iter().take(6).map(|c| c.key).collect();
            problems.push(Problem::new(
                format!("{}!1", raw.name),
                format!(
                    "row 1 must hold the column headers, but none is known (expected headers such as {}, or `Label (key)`; `gpuplan init` writes a template)",
                    keys.join(", ")
                ),
            ));
            return None;
        }
        Some(Table {
            sheet: raw.name,
            columns: found,
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

/// One data row of a table.
pub struct Record<'a> {
    pub table: &'a Table,
    pub row: u32,
    cells: &'a BTreeMap<u32, Raw>,
}

/// What a numeric cell must hold.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub min: f64,
    /// The minimum itself is allowed.
    pub min_ok: bool,
    pub max: f64,
    pub integer: bool,
}

impl Rule {
    pub const fn at_least(min: f64) -> Rule {
        Rule {
            min,
            min_ok: true,
            max: f64::MAX,
            integer: false,
        }
    }
    pub const fn positive() -> Rule {
        Rule {
            min: 0.0,
            min_ok: false,
            max: f64::MAX,
            integer: false,
        }
    }
    pub const fn range(min: f64, max: f64) -> Rule {
        Rule {
            min,
            min_ok: true,
            max,
            integer: false,
        }
    }
    pub const fn whole(min: f64, max: f64) -> Rule {
        Rule {
            min,
            min_ok: true,
            max,
            integer: true,
        }
    }
    pub const fn max(self, max: f64) -> Rule {
        Rule { max, ..self }
    }

    pub fn describe(&self) -> String {
        let what = if self.integer {
            "a whole number"
        } else {
            "a number"
        };
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

/// Numbers from text the way people type them: `1,000`, `20%`, `¥6`, ` 24 `.
pub fn parse_number_text(text: &str) -> Option<f64> {
    let t: String = text
        .trim()
        .trim_start_matches(['¥', '$', '€', '￥'])
        .chars()
        .filter(|c| !matches!(c, ',' | '，' | '_' | ' ' | '\u{a0}'))
        .collect();
    if let Some(p) = t.strip_suffix('%') {
        return p
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(|v| v / 100.0);
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
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
        Raw::Text(t) => {
            let short: String = t.chars().take(40).collect();
            if short.len() < t.len() {
                format!("\"{short}…\"")
            } else {
                format!("\"{short}\"")
            }
        }
        Raw::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Raw::Error(e) => format!("the error {e}"),
        Raw::Date(_) => "a date".to_string(),
        Raw::Uncomputed(f) => format!(
            "the formula ={f} with no saved value (open the workbook in Excel or LibreOffice and save it, so the value is stored)"
        ),
    }
}

pub fn raw_number(raw: &Raw) -> Option<f64> {
    match raw {
        Raw::Number(n) if n.is_finite() => Some(*n),
        Raw::Text(t) => parse_number_text(t),
        _ => None,
    }
}

pub fn raw_text(raw: &Raw) -> String {
    match raw {
        Raw::Number(n) => format_number(*n),
        Raw::Text(t) => t.trim().to_string(),
        Raw::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Raw::Error(e) => e.clone(),
        Raw::Date(d) => format_number(*d),
        Raw::Uncomputed(f) => format!("={f}"),
    }
}

impl Record<'_> {
    pub fn cell(&self, key: &str) -> CellRef {
        let col = self.table.columns.get(key).copied().unwrap_or(0);
        CellRef::new(&self.table.sheet, self.row, col)
    }

    pub fn raw(&self, key: &str) -> Option<&Raw> {
        self.table.columns.get(key).and_then(|c| self.cells.get(c))
    }

    pub fn text(&self, key: &str) -> Option<String> {
        self.raw(key).map(raw_text).filter(|t| !t.is_empty())
    }

    /// Text that must be there: a problem saying `missing` at the cell when it is blank.
    pub fn required_text(
        &self,
        key: &str,
        missing: impl Into<String>,
        problems: &mut Vec<Problem>,
    ) -> Option<String> {
        let t = self.text(key);
        if t.is_none() {
            problems.push(Problem::new(self.cell(key).to_string(), missing));
        }
        t
    }

    /// A number obeying `rule`, or a problem; `None` when blank.
    pub fn number(&self, key: &str, rule: Rule, problems: &mut Vec<Problem>) -> Option<f64> {
        let raw = self.raw(key)?;
        match raw_number(raw) {
            Some(v) if rule.accepts(v) => Some(v),
            _ => {
                problems.push(Problem::new(
                    self.cell(key).to_string(),
                    format!("{key} must be {}, found {}", rule.describe(), found(raw)),
                ));
                None
            }
        }
    }

    /// A yes/no value, or a problem; `None` when blank.
    pub fn boolean(&self, key: &str, problems: &mut Vec<Problem>) -> Option<bool> {
        let raw = self.raw(key)?;
        let b = parse_bool(raw);
        if b.is_none() {
            problems.push(Problem::new(
                self.cell(key).to_string(),
                format!(
                    "{key} must be yes or no (TRUE/FALSE, y/n, 1/0, 是/否), found {}",
                    found(raw)
                ),
            ));
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

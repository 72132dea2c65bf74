//! Table sheets: the header row matched to known columns, and typed access to each cell with
//! problems collected (sheet, cell, what was expected, what was found).

mod headers;
mod record;
mod rule;
#[cfg(test)]
mod tests;
mod values;

pub use crate::support::fields::normalize_header;
pub use rule::{Rule, Unit};
pub use values::{found, is_percent, parse_bool, raw_number, raw_text};

use super::xlsx::{Raw, RawSheet};
use crate::catalog::Column;
use crate::error::Problem;
use crate::model::Warning;
use headers::{group_rows, known_headers, no_headers_problem, other_headers};
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

/// One data row of a table.
pub struct Record<'a> {
    pub table: &'a Table,
    pub row: u32,
    cells: &'a BTreeMap<u32, Raw>,
}

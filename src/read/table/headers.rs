//! A table's header row: its cells grouped by row, the known columns it names, the user's own
//! columns (with a warning for one that looks like a misspelt known column), and the problem
//! of a header row that names none.

use super::values::visible;
use crate::catalog::Column;
use crate::error::Problem;
use crate::model::{format_number, CellRef, Warning};
use crate::read::xlsx::Raw;
use crate::support::fields::normalize_header;
use std::collections::{BTreeMap, HashMap};

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

/// The sheet's cells grouped by row, and one past the rightmost column that holds anything; a
/// problem for each cell written twice in the file.
pub(super) fn group_rows(
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
pub(super) fn known_headers(
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
pub(super) fn other_headers(
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
pub(super) fn no_headers_problem(sheet: &str, rows: &Rows, columns: &[Column]) -> Problem {
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

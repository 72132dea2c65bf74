//! Reading, and the only user of calamine: an `.xlsx` workbook becomes a validated
//! [`Input`]. Every problem is collected with its sheet and cell and all are
//! reported together; sheets other than Workloads fall back to the built-in defaults.

mod apis;
mod assumptions;
pub mod config;
mod engines;
mod formulas;
mod gpus;
mod models;
mod scenarios;
mod table;
mod usage;
mod workloads;
mod xlsx;

pub use assumptions::set_assumption;
pub use table::{parse_bool, raw_text};
pub use workloads::workload_number;
pub use xlsx::{open_bytes, Raw, RawSheet, Workbook, MAX_COLS, MAX_FILE_BYTES, MAX_ROWS, WORKBOOK};

use crate::catalog;
use crate::error::{Error, Problem, Result};
use crate::labels::Label;
use crate::model::change::Change;
use crate::model::{Input, Warning};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use table::Table;

/// Reads and validates a workbook.
pub fn read(path: &Path, changes: &[Change]) -> Result<Input> {
    let bytes = crate::support::files::read_bounded(path, xlsx::MAX_FILE_BYTES, xlsx::WORKBOOK)?;
    read_bytes(path, bytes, changes)
}

/// As [`read`], on the bytes of a file; `path` names it in messages. The input's SHA-256 is of
/// these bytes, the ones planned from.
pub fn read_bytes(path: &Path, bytes: Vec<u8>, changes: &[Change]) -> Result<Input> {
    Book::open(path, bytes)?.input(changes)
}

/// A workbook parsed once: the cells of each sheet gpuplan reads, found by name. Each
/// [`Book::input`] types and validates them, with a set of changes, into an [`Input`]: the base
/// plan, each scenario and each re-plan of `calc --usage` come from one parse of the file.
#[derive(Debug, Clone)]
pub struct Book {
    path: PathBuf,
    sha256: String,
    /// Every sheet's name, for the message when there is no Workloads sheet.
    names: Vec<String>,
    sheets: HashMap<&'static str, RawSheet>,
    /// What finding the sheets noticed (a hidden copy ignored).
    notices: Vec<Warning>,
}

impl Book {
    /// Parses a workbook's bytes; `path` names it in messages.
    pub fn open(path: &Path, bytes: Vec<u8>) -> Result<Book> {
        let sha256 = crate::support::provenance::sha256_hex(&bytes);
        let mut wb = xlsx::open_bytes(path, bytes)?;
        let names = wb.sheet_names().to_vec();
        let mut r = Reader::new(path);
        let mut cells = 0usize;
        let mut sheets: HashMap<&'static str, RawSheet> = HashMap::new();
        for sheet in catalog::SHEETS {
            if let Some(actual) = r.find_sheet(&wb, &names, sheet.en, sheet.zh) {
                sheets.insert(sheet.en, wb.read_sheet(path, &actual, &mut cells)?);
            }
        }
        if !r.problems.is_empty() {
            return Err(Error::Input {
                file: path.to_path_buf(),
                problems: r.problems,
            });
        }
        Ok(Book {
            path: path.to_path_buf(),
            sha256,
            names,
            sheets,
            notices: r.notices,
        })
    }

    /// The workbook typed and validated with `changes` applied, each as the cell it replaces
    /// would be read.
    pub fn input(&self, changes: &[Change]) -> Result<Input> {
        let path = self.path.as_path();
        let mut r = Reader::new(path);
        r.notices = self.notices.clone();
        let sheet = |name: &str| self.sheets.get(name).cloned();
        let Some(workloads_sheet) = sheet("Workloads") else {
            let names = &self.names;
            return Err(Error::input(
                path,
                "",
                format!(
                    "there is no Workloads sheet (or 负载); the sheets are: {}. `gpuplan init` writes a template",
                    if names.is_empty() { "none".to_string() } else { names.join(", ") }
                ),
            ));
        };
        let (models, model_columns) = r.models(sheet("Models"));
        let mut gpus = r.gpus(sheet("GPUs"));
        r.apply_gpu_changes(&mut gpus, changes);
        let assumptions = r.assumptions(sheet("Assumptions"), changes);
        r.convert_gpus(&mut gpus, &assumptions);
        let engines = r.engines(sheet("Engines"), &assumptions);
        let formulas = r.formulas(sheet("Formulas"));
        let apis = r.apis(sheet("APIs"), &assumptions);
        let workloads = r.workloads(workloads_sheet, &models, &gpus, &engines, &apis, changes);
        let scenarios = r.scenarios(sheet("Scenarios"));
        let ranges = r.ranges(sheet("Ranges"));
        let usage = r.usage(sheet("Usage"), &workloads);
        if !r.problems.is_empty() {
            return Err(Error::Input {
                file: path.to_path_buf(),
                problems: r.problems,
            });
        }
        Ok(Input {
            file: path.to_path_buf(),
            workloads,
            gpus,
            models,
            model_columns,
            assumptions,
            engines,
            formulas,
            notices: r.notices,
            sha256: self.sha256.clone(),
            scenarios,
            apis,
            ranges,
            usage,
        })
    }
}

struct Reader {
    problems: Vec<Problem>,
    notices: Vec<Warning>,
    /// The workbook's folder: a model path in the Workloads sheet is relative to it.
    base: PathBuf,
}

impl Reader {
    fn new(path: &Path) -> Reader {
        Reader {
            problems: Vec::new(),
            notices: Vec::new(),
            base: path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        }
    }

    /// The sheet that holds one table, by its English or Chinese name (case and spaces aside).
    /// Two candidates are one too many: a visible sheet wins over hidden ones (with a warning, as
    /// a hidden copy is usually stale); otherwise the user must say which by renaming.
    fn find_sheet(
        &mut self,
        wb: &xlsx::Workbook,
        names: &[String],
        en: &str,
        zh: &str,
    ) -> Option<String> {
        let matching: Vec<&String> = names
            .iter()
            .filter(|n| n.trim().to_lowercase() == en.to_lowercase() || n.trim() == zh)
            .collect();
        let visible: Vec<&&String> = matching.iter().filter(|n| !wb.is_hidden(n)).collect();
        match (matching.as_slice(), visible.as_slice()) {
            ([], _) => None,
            ([only], _) => Some((*only).clone()),
            (all, [one]) => {
                let hidden: Vec<&str> = all
                    .iter()
                    .filter(|n| **n != **one)
                    .map(|n| n.as_str())
                    .collect();
                self.notices.push(Warning::warn(
                    one.as_str(),
                    format!(
                        "the hidden sheet(s) {} also hold the {en} table and were ignored; {one} was read. Delete the hidden copy if it is stale",
                        hidden.join(", ")
                    ),
                ).with_zh(format!(
                    "隐藏工作表 {} 中也有{zh}表，已忽略，读取的是 {one}。如隐藏的副本已过时，请删除",
                    hidden.join("、")
                )));
                Some((**one).clone())
            }
            (all, _) => {
                let listed: Vec<String> = all
                    .iter()
                    .map(|n| {
                        if wb.is_hidden(n) {
                            format!("{n} (hidden)")
                        } else {
                            n.to_string()
                        }
                    })
                    .collect();
                self.problems.push(Problem::new(
                    "",
                    format!(
                        "the sheets {} all hold the {en} table; keep one (rename or delete the others)",
                        listed.join(" and ")
                    ),
                ));
                None
            }
        }
    }

    fn table(&mut self, raw: RawSheet, sheet: &str) -> Option<Table> {
        Table::new(
            raw,
            &catalog::columns(sheet),
            &mut self.problems,
            &mut self.notices,
        )
    }

    /// The sheet's table, if it has every column in `required` (the ones its rows' messages
    /// point at); otherwise one problem per missing column, and no table.
    fn table_with(&mut self, raw: RawSheet, sheet: &str, required: &[&str]) -> Option<Table> {
        let t = self.table(raw, sheet)?;
        let missing: Vec<&&str> = required.iter().filter(|k| !t.has(k)).collect();
        for key in &missing {
            self.problems.push(Problem::new(
                format!("{}!1", t.sheet),
                format!("the {sheet} sheet needs a `{key}` column"),
            ));
        }
        missing.is_empty().then_some(t)
    }

    /// The note that a sheet is missing; `what` is what was used instead.
    fn defaulted(&mut self, sheet: &str, what: Label) {
        let (what, what_zh) = (what.en, what.zh);
        let zh = catalog::SHEETS
            .iter()
            .find(|s| s.en == sheet)
            .map_or(sheet, |s| s.zh);
        self.notices.push(Warning::info(
            sheet,
            format!("no {sheet} sheet: the built-in {what} were used (`gpuplan init` writes them into a template to edit)"),
        ).with_zh(format!("没有{zh}表（{sheet}）：已使用内置的{what_zh}（`gpuplan init` 可将其写入模板以便修改）")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One parse of the file serves every input typed from it: a change applies to the input it
    /// is typed with and leaves the parsed sheets as they were for the next.
    #[test]
    fn a_book_types_each_set_of_changes_from_one_parse() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/startup.xlsx");
        let bytes = std::fs::read(&path).unwrap();
        let book = Book::open(&path, bytes.clone()).unwrap();
        let base = book.input(&[]).unwrap();
        // The same input as reading the file, its SHA-256 of the bytes read.
        assert_eq!(base, read(&path, &[]).unwrap());
        assert_eq!(base.sha256, crate::support::provenance::sha256_hex(&bytes));
        // The sample's margin is the template's 0.2 (templates/assumptions.tsv).
        assert_eq!(base.assumptions.number("safety_margin", f64::NAN), 0.2);
        let margin = Change::parse("safety_margin=0.5").unwrap();
        let scaled = Change::parse("safety_margin*=2").unwrap();
        let changed = book.input(&[margin]).unwrap();
        assert_eq!(changed.assumptions.number("safety_margin", f64::NAN), 0.5);
        // 0.2 × 2 = 0.4: a relative change scales the sheet's value, not the last input's.
        let doubled = book.input(&[scaled]).unwrap();
        assert_eq!(doubled.assumptions.number("safety_margin", f64::NAN), 0.4);
        assert_eq!(book.input(&[]).unwrap(), base);
    }
}

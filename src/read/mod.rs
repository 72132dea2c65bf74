//! Reading, and the only user of calamine: an `.xlsx` workbook becomes a validated
//! [`Input`](crate::model::Input). Every problem is collected with its sheet and cell and all are
//! reported together; sheets other than Workloads fall back to the built-in defaults.

mod apis;
mod assumptions;
pub mod config;
mod engines;
mod formulas;
mod gpus;
mod models;
mod plan_book;
mod scenarios;
mod table;
mod usage;
mod workloads;
mod xlsx;

pub use assumptions::set_assumption;
pub use plan_book::plan_view;
pub use scenarios::{set_number, value_rule};
pub use table::{header_matches, parse_bool, parse_number_text};
pub use xlsx::{MAX_COLS, MAX_FILE_BYTES, MAX_ROWS};

use crate::catalog;
use crate::error::{Error, Problem, Result};
use crate::model::{Input, Warning};
use std::collections::HashMap;
use std::path::Path;
use table::Table;
use xlsx::RawSheet;

/// What a `--set` override changes.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// An assumption: `key=value`.
    Assumption,
    /// A column of the workload of that name: `workload.column=value`.
    Workload(String),
    /// A column of every offer of that GPU: `gpu:NAME.column=value`.
    Gpu(String),
}

/// A `--set` override (or a change of a Scenarios row), for what-if runs without editing the
/// file. `*` as the workload or GPU name means every one; `KEY*=FACTOR` scales the value
/// instead of replacing it (a blank workload cell stays blank: its default applies).
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    pub target: Target,
    pub key: String,
    pub value: String,
    /// `*=`: multiply the current value by `value`.
    pub scale: bool,
    /// Where it was written, when not on the command line (a Scenarios cell).
    pub origin: Option<String>,
}

impl Override {
    /// Parses `key=value`, `workload.column=value`, `gpu:NAME.column=value`, any of them with
    /// `*` for every workload or GPU and `*=` for a relative change.
    pub fn parse(text: &str) -> Result<Override> {
        let (lhs, value) = text.split_once('=').ok_or_else(|| {
            Error::Usage(format!(
                "--set {text}: expected KEY=VALUE, e.g. --set safety_margin=0.3"
            ))
        })?;
        let lhs = lhs.trim();
        let (lhs, scale) = match lhs.strip_suffix('*') {
            Some(l) => (l.trim_end(), true),
            None => (lhs, false),
        };
        if lhs.is_empty() {
            return Err(Error::Usage(format!("--set {text}: the key is empty")));
        }
        if scale
            && value
                .trim()
                .parse::<f64>()
                .map_or(true, |f| !f.is_finite() || f < 0.0)
        {
            return Err(Error::Usage(format!(
                "--set {text}: a relative change KEY*=FACTOR needs a number ≥ 0 as the factor, e.g. gpu:*.on_demand_hourly*=1.2"
            )));
        }
        let (target, key) = match lhs.rsplit_once('.') {
            Some((w, k)) => match w.trim().strip_prefix("gpu:") {
                Some(g) => (Target::Gpu(g.trim().to_string()), k.trim().to_string()),
                None => (Target::Workload(w.trim().to_string()), k.trim().to_string()),
            },
            None => (Target::Assumption, lhs.to_string()),
        };
        Ok(Override {
            target,
            key,
            value: value.trim().to_string(),
            scale,
            origin: None,
        })
    }

    /// The change as written: `chat-api.context_len=8192`, `gpu:*.on_demand_hourly*=1.2`.
    pub fn text(&self) -> String {
        let op = if self.scale { "*=" } else { "=" };
        match &self.target {
            Target::Assumption => format!("{}{op}{}", self.key, self.value),
            Target::Workload(w) => format!("{w}.{}{op}{}", self.key, self.value),
            Target::Gpu(g) => format!("gpu:{g}.{}{op}{}", self.key, self.value),
        }
    }

    /// Where a problem with it is reported: its Scenarios cell, or `--set …`.
    pub fn shown(&self) -> String {
        match &self.origin {
            Some(at) => format!("{at} ({})", self.text()),
            None => format!("--set {}", self.text()),
        }
    }

    /// The factor of a relative change.
    fn factor(&self) -> f64 {
        self.value.parse().unwrap_or(1.0)
    }
}

/// Reads and validates a workbook.
pub fn read(path: &Path, overrides: &[Override]) -> Result<Input> {
    let bytes = crate::files::read_bounded(path, xlsx::MAX_FILE_BYTES, "an .xlsx workbook")?;
    read_bytes(path, bytes, overrides)
}

/// As [`read`], on the bytes of a file; `path` names it in messages. The input's SHA-256 is of
/// these bytes, the ones planned from.
pub fn read_bytes(path: &Path, bytes: Vec<u8>, overrides: &[Override]) -> Result<Input> {
    let sha256 = crate::provenance::sha256_hex(&bytes);
    let mut input = read_workbook(path, xlsx::open_bytes(path, bytes)?, overrides)?;
    input.sha256 = sha256;
    Ok(input)
}

fn read_workbook(path: &Path, mut wb: xlsx::Workbook, overrides: &[Override]) -> Result<Input> {
    let names = wb.sheet_names().to_vec();
    let mut r = Reader {
        problems: Vec::new(),
        notices: Vec::new(),
        base: path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| std::path::PathBuf::from("."), Path::to_path_buf),
    };
    let mut cells = 0usize;
    let mut sheets: HashMap<&'static str, RawSheet> = HashMap::new();
    for (en, zh) in catalog::SHEETS {
        if let Some(actual) = r.find_sheet(&wb, &names, en, zh) {
            sheets.insert(en, wb.read_sheet(path, &actual, &mut cells)?);
        }
    }
    if !r.problems.is_empty() {
        return Err(Error::Input {
            file: path.to_path_buf(),
            problems: r.problems,
        });
    }
    let Some(workloads_sheet) = sheets.remove("Workloads") else {
        return Err(Error::input(
            path,
            "",
            format!(
                "there is no Workloads sheet (or 负载); the sheets are: {}. `gpuplan init` writes a template",
                if names.is_empty() { "none".to_string() } else { names.join(", ") }
            ),
        ));
    };
    let (models, model_columns) = r.models(sheets.remove("Models"));
    let mut gpus = r.gpus(sheets.remove("GPUs"));
    r.apply_gpu_overrides(&mut gpus, overrides);
    let assumptions = r.assumptions(sheets.remove("Assumptions"), overrides);
    let engines = r.engines(sheets.remove("Engines"), &assumptions);
    let formulas = r.formulas(sheets.remove("Formulas"));
    let apis = r.apis(sheets.remove("APIs"));
    let workloads = r.workloads(workloads_sheet, &models, &gpus, &engines, &apis, overrides);
    let scenarios = r.scenarios(sheets.remove("Scenarios"));
    let ranges = r.ranges(sheets.remove("Ranges"));
    let usage = r.usage(sheets.remove("Usage"), &workloads);
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
        sha256: String::new(),
        scenarios,
        apis,
        ranges,
        usage,
    })
}

struct Reader {
    problems: Vec<Problem>,
    notices: Vec<Warning>,
    /// The workbook's folder: a model path in the Workloads sheet is relative to it.
    base: std::path::PathBuf,
}

impl Reader {
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

    /// The note that a sheet is missing; `what` is what was used instead, in English and Chinese.
    fn defaulted(&mut self, sheet: &str, [what, what_zh]: [&str; 2]) {
        let zh = catalog::SHEETS
            .iter()
            .find(|(en, _)| *en == sheet)
            .map_or(sheet, |(_, zh)| zh);
        self.notices.push(Warning::info(
            sheet,
            format!("no {sheet} sheet: the built-in {what} were used (`gpuplan init` writes them into a template to edit)"),
        ).with_zh(format!("没有{zh}表（{sheet}）：已使用内置的{what_zh}（`gpuplan init` 可将其写入模板以便修改）")));
    }
}

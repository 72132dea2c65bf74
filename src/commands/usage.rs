//! `gpuplan usage`: GPU usage logs read into what each workload really used.

use super::{changes, check_logs, out};
use crate::cli::UsageArgs;
use crate::error::{Error, Result};
use crate::lang::Lang;
use crate::model::change::{Change, Op, Target};
use crate::support::output::{self, Pending};
use crate::{catalog, model, read, report, usage};
use std::io::Write;
use std::path::{Path, PathBuf};

pub fn usage(a: &UsageArgs) -> Result<()> {
    // The table or the JSON goes to stdout: refused before any work when it is closed.
    output::check_stdout()?;
    check_logs(&a.logs)?;
    let json_path = a.json.as_deref().filter(|j| *j != "-").map(PathBuf::from);
    if let Some(j) = &json_path {
        check_usage_json(a, j)?;
    }
    let sets = usage_changes(&a.sets)?;
    let mut notes = Vec::new();
    let source = UsageSource::read(a, &sets)?;
    let mapping = usage_mapping(a, source.sheet_rows, source.names.as_deref(), &mut notes)?;
    let settings = usage::Settings {
        threshold: source.assumptions.number("usage_active_threshold", 0.1),
        hours_in_month: source.assumptions.number("hours_in_month", 730.0),
        interval_s: a.interval,
    };
    let mut result = usage::analyze(&a.logs, mapping.as_deref(), settings)?;
    notes.append(&mut result.warnings);
    result.warnings = notes;
    if let Some(j) = &json_path {
        Pending::write_with(j, |w| {
            report::write_usage_json(&result, &settings, &a.logs, w)
        })?
        .commit()?;
    }
    print_usage(a, &result, &settings, a.lang.unwrap_or_else(Lang::from_env))
}

/// Refuses a `--json` file of `usage` that is one of its inputs, or that exists without
/// `--force`.
fn check_usage_json(a: &UsageArgs, json: &Path) -> Result<()> {
    let mut named: Vec<(&str, &Path)> = a.logs.iter().map(|l| ("a log", l.as_path())).collect();
    if let Some(w) = &a.workbook {
        named.push(("--workbook", w));
    }
    if let Some(m) = &a.map {
        named.push(("--map", m));
    }
    named.push(("--json", json));
    output::distinct(&named)?;
    output::check_target(json, a.force)
}

/// The `--set`s of `usage`, which takes assumptions only.
fn usage_changes(sets: &[String]) -> Result<Vec<Change>> {
    let sets = changes(sets)?;
    if let Some(o) = sets.iter().find(|o| o.target != Target::Assumption) {
        return Err(Error::Usage(format!(
            "{}: usage takes assumptions only (KEY=VALUE, e.g. --set usage_active_threshold=0.3)",
            o.shown()
        )));
    }
    Ok(sets)
}

/// What `usage` takes from the budget workbook, or from the built-in defaults without one.
struct UsageSource {
    /// The assumptions, `--set`s applied.
    assumptions: model::Assumptions,
    /// The workbook's Usage sheet; None without a workbook.
    sheet_rows: Option<Vec<model::GpuMapping>>,
    /// The workbook's workload names, those a mapping may use; None without a workbook.
    names: Option<Vec<String>>,
}

impl UsageSource {
    /// Reads `--workbook` with the `--set`s, or applies them to the built-in assumptions
    /// (`key*=f` scaling the default).
    fn read(a: &UsageArgs, sets: &[Change]) -> Result<UsageSource> {
        match &a.workbook {
            Some(path) => {
                let input = read::read(path, sets)?;
                let names = input.workload_names();
                Ok(UsageSource {
                    assumptions: input.assumptions,
                    sheet_rows: Some(input.usage),
                    names: Some(names),
                })
            }
            None => {
                let mut assumptions = catalog::assumptions(Lang::En);
                for o in sets {
                    // `key*=f` scales the default.
                    let value = match &o.op {
                        Op::Scale(f) => (assumptions.number(&o.key, 0.0) * f).to_string(),
                        Op::Set(v) => v.clone(),
                    };
                    read::set_assumption(&mut assumptions, &o.key, &value)
                        .map_err(|e| Error::Usage(format!("{}: {e}", o.shown())))?;
                }
                Ok(UsageSource {
                    assumptions,
                    sheet_rows: None,
                    names: None,
                })
            }
        }
    }
}

/// Which GPU belongs to which workload: `--map` when given, else the workbook's Usage sheet
/// (none when it is empty, with a note in `notes`), else none.
fn usage_mapping(
    a: &UsageArgs,
    sheet_rows: Option<Vec<model::GpuMapping>>,
    names: Option<&[String]>,
    notes: &mut Vec<model::Warning>,
) -> Result<Option<Vec<model::GpuMapping>>> {
    Ok(match (&a.map, sheet_rows) {
        (Some(m), _) => Some(usage::read_map(m, names)?),
        (None, Some(rows)) if rows.is_empty() => {
            let wb = a.workbook.as_deref().map(Path::display);
            notes.push(model::Warning::warn(
                wb.map(|w| w.to_string()).unwrap_or_default(),
                "the workbook's Usage sheet maps no GPU to a workload: each GPU is reported on its own (fill the Usage sheet, or give --map)",
            ).with_zh("工作簿的用量表没有把任何 GPU 对应到负载：每张 GPU 单独列出（请填写用量表，或使用 --map）"));
            None
        }
        (None, rows) => rows,
    })
}

/// Prints the actuals' table to stdout (to stderr when `--json -` takes stdout, the JSON
/// then going there), then each warning and note to stderr, in `lang`.
fn print_usage(
    a: &UsageArgs,
    result: &usage::Report,
    settings: &usage::Settings,
    lang: Lang,
) -> Result<()> {
    let table = report::usage_table(result, settings, lang);
    if a.json.as_deref() == Some("-") {
        output::to_stdout(|w| report::write_usage_json(result, settings, &a.logs, w))?;
        eprint!("{table}");
    } else {
        out(&table)?;
    }
    let mut err = std::io::stderr();
    for w in &result.warnings {
        let kind = match w.severity {
            model::Severity::Warning => lang.t("warning", "警告"),
            model::Severity::Info => lang.t("note", "说明"),
        };
        let _ = writeln!(err, "{kind}: {}: {}", w.location, w.text(lang));
    }
    Ok(())
}

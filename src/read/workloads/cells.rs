//! A Workloads row's cells, each read and checked on its own: the kind, the precisions, the
//! yes/no, text and month cells, and what the row names (API, pinned GPU, engine) against what
//! is known; and the defaults templates/columns.tsv gives a blank cell.

use super::{Known, RowCells};
use crate::catalog::{self, Fallback};
use crate::error::Problem;
use crate::model::{normalize, ApiPrice, EngineValue, Engines, GpuOffer, Kind, Precision};
use crate::read::table::{self, found, Record};
use crate::support::suggest;

/// The row's kind: required, and one of the known kinds.
pub(super) fn kind_cell(rec: &Record, name: &str, p: &mut Vec<Problem>) -> Option<Kind> {
    match rec.raw("kind") {
        None => {
            p.push(Problem::new(
                rec.at("kind"),
                format!("kind of {name} is required: one of {}", kind_list()),
            ));
            None
        }
        Some(raw) => {
            let k = Kind::parse(&table::raw_text(raw));
            if k.is_none() {
                p.push(Problem::new(
                    rec.at("kind"),
                    format!("kind must be one of {}, found {}", kind_list(), found(raw)),
                ));
            }
            k
        }
    }
}

/// The row's yes/no, text and month cells, and what it names (API, pinned GPU, engine) checked
/// against what is known.
pub(super) fn row_cells(rec: &Record, known: &Known, p: &mut Vec<Problem>) -> RowCells {
    let online = rec.boolean("online", p);
    let spot_ok = rec.boolean("spot_ok", p);
    let notes = rec.text("notes", p).unwrap_or_default();
    let api = api_cell(rec, known.apis, p);
    let start_month = rec.month("start_month", p);
    let end_month = rec.month("end_month", p);
    if let (Some(s), Some(e)) = (start_month, end_month) {
        if e < s {
            p.push(Problem::new(
                rec.at("end_month"),
                format!("end_month {e} is before start_month {s}"),
            ));
        }
    }
    let window = rec.day_window("window", p);
    let peak_window = rec.day_window("peak_window", p);
    let pinned = pinned_gpu(rec, known.gpus, p);
    let engine = engine_cell(rec, known.engines, p);
    RowCells {
        window,
        peak_window,
        online,
        spot_ok,
        notes,
        api,
        start_month,
        end_month,
        pinned,
        engine,
    }
}

/// The API the workload is compared with, trimmed; a problem where the APIs sheet (or the
/// built-in examples) has no such model.
fn api_cell(rec: &Record, apis: &[ApiPrice], p: &mut Vec<Problem>) -> Option<String> {
    let api = rec.text("api", p).map(|a| a.trim().to_string());
    if let Some(a) = &api {
        if !apis.iter().any(|x| normalize(&x.model) == normalize(a)) {
            let hint = suggest::hint(a, apis.iter().map(|x| x.model.as_str()));
            p.push(Problem::new(
                rec.at("api"),
                format!("the API \"{a}\" is not a model of the APIs sheet (or the built-in examples){hint}"),
            ));
        }
    }
    api
}

/// The GPU the workload is pinned to; a problem where the GPUs sheet has no such GPU.
fn pinned_gpu(rec: &Record, gpus: &[GpuOffer], p: &mut Vec<Problem>) -> Option<String> {
    let pinned = rec.text("gpu", p);
    if let Some(g) = &pinned {
        if !gpus.iter().any(|o| normalize(&o.gpu) == normalize(g)) {
            let hint = suggest::hint(g, gpus.iter().map(|o| o.gpu.as_str()));
            p.push(Problem::new(
                rec.at("gpu"),
                format!("the pinned GPU \"{g}\" is not in the GPUs sheet{hint}"),
            ));
        }
    }
    pinned
}

/// The source of an engine's declaration row where that row (no key) is all it has for `kind`
/// and the row says why: the built-in gpt-fast, whose source says the defaults were fitted on it.
pub(super) fn declared_only<'a>(engines: &'a Engines, e: &'a str, kind: Kind) -> Option<&'a str> {
    let figures: Vec<&EngineValue> = engines.for_workload(e, kind).collect();
    if figures.iter().any(|v| !v.key.is_empty()) {
        return None;
    }
    figures
        .iter()
        .find_map(|v| (!v.source.trim().is_empty()).then_some(v.source.as_str()))
}

/// The workload's engine, spelt as its profile is; a problem where no profile has that name.
fn engine_cell(rec: &Record, engines: &Engines, p: &mut Vec<Problem>) -> Option<String> {
    match rec.text("engine", p) {
        Some(e) if !e.trim().is_empty() => match engines.find(&e) {
            Some(found) => Some(found.to_string()),
            None => {
                let hint = suggest::hint(&e, engines.names());
                p.push(Problem::new(
                    rec.at("engine"),
                    format!(
                        "the engine \"{e}\" has no profile (built in: {}; add rows to the Engines sheet for another){hint}",
                        engines.names().join(", ")
                    ),
                ));
                None
            }
        },
        _ => None,
    }
}

/// The kinds the Workloads sheet allows, as templates/columns.tsv lists them.
fn kind_list() -> String {
    catalog::words("Workloads", "kind").join(", ")
}

/// A precision cell: one of the words templates/columns.tsv allows the column.
pub(super) fn enum_cell(rec: &Record, key: &str, p: &mut Vec<Problem>) -> Option<Precision> {
    let raw = rec.raw(key)?;
    let allowed = catalog::words("Workloads", key);
    let v = Precision::parse(&table::raw_text(raw)).filter(|v| allowed.contains(&v.key()));
    if v.is_none() {
        p.push(Problem::new(
            rec.at(key),
            format!(
                "{key} must be one of {}, found {}",
                allowed.join(", "),
                found(raw)
            ),
        ));
    }
    v
}

/// A blank precision's default for a row of `kind` (templates/columns.tsv): a precision, or
/// `=precision` (the experts'), the row's weight precision `weights`.
pub(super) fn default_precision(
    key: &str,
    kind: Kind,
    weights: Option<Precision>,
) -> Option<Precision> {
    match catalog::workload_default(key, kind, false)? {
        Fallback::Value(v) => Precision::parse(v),
        Fallback::Ref("precision") => weights,
        Fallback::Ref(_) => None,
    }
}

/// A blank word column's default for a row of `kind` (templates/columns.tsv): `yes`, `no`, …
pub(super) fn default_word(key: &str, kind: Kind, online: bool) -> Option<&'static str> {
    match catalog::workload_default(key, kind, online)? {
        Fallback::Value(v) => Some(v),
        Fallback::Ref(_) => None,
    }
}

/// A blank number column's default for a row of `kind` where it is a figure (templates/columns.tsv).
pub(super) fn default_number(key: &str, kind: Kind) -> Option<f64> {
    match catalog::workload_default(key, kind, false)? {
        Fallback::Value(v) => v.parse().ok(),
        Fallback::Ref(_) => None,
    }
}

//! The Workloads sheet: every row validated into a workload, its model resolved, and
//! `--set workload.column=value`.
//!
//! This file reads the sheet and builds each workload from its row; `changes` writes the
//! `--set`s into the sheet's cells first, `cells` reads and checks a row's cells one by one,
//! `checks` holds the rules across them and `model` resolves the workload's model.

mod cells;
mod changes;
mod checks;
mod model;

use super::table::{Record, Rule};
use super::xlsx::{Raw, RawSheet};
use super::Reader;
use crate::error::Problem;
use crate::model::change::Change;
use crate::model::{
    ApiPrice, CellRef, DayWindow, Engines, GpuOffer, Kind, ModelSpec, Month, Precision, Warning,
    Workload, WorkloadNumbers,
};
use cells::{declared_only, default_precision, default_word, enum_cell, kind_cell, row_cells};
use checks::{check_sizes, check_work, window_of_a_service};
use std::collections::HashMap;

/// What a Workloads row may name, each checked against: the models, the GPU offers, the engine
/// profiles and the API prices read from the other sheets (or the built-in ones).
struct Known<'a> {
    models: &'a [ModelSpec],
    gpus: &'a [GpuOffer],
    engines: &'a Engines,
    apis: &'a [ApiPrice],
}

/// The cells of a Workloads row beside its name, kind, precisions and numbers, each checked on
/// its own (and against what it names).
struct RowCells {
    online: Option<bool>,
    spot_ok: Option<bool>,
    notes: String,
    api: Option<String>,
    start_month: Option<Month>,
    end_month: Option<Month>,
    window: Option<DayWindow>,
    peak_window: Option<DayWindow>,
    pinned: Option<String>,
    engine: Option<String>,
}

impl Reader {
    pub(super) fn workloads(
        &mut self,
        raw: RawSheet,
        models: &[ModelSpec],
        gpus: &[GpuOffer],
        engines: &Engines,
        apis: &[ApiPrice],
        changes: &[Change],
    ) -> Vec<Workload> {
        let Some(mut t) = self.table(raw, "Workloads") else {
            return Vec::new();
        };
        for key in ["name", "kind"] {
            if !t.has(key) {
                self.problems.push(Problem::new(
                    format!("{}!1", t.sheet),
                    format!("the Workloads sheet needs a `{key}` column"),
                ));
            }
        }
        if !t.has("name") {
            return Vec::new();
        }
        self.apply_workload_changes(&mut t, changes);
        let known = Known {
            models,
            gpus,
            engines,
            apis,
        };
        let mut out: Vec<Workload> = Vec::new();
        let mut seen: HashMap<String, CellRef> = HashMap::new();
        for rec in t.records() {
            if let Some(w) = self.workload(&rec, &known, &mut seen) {
                out.push(w);
            }
        }
        if out.is_empty() && self.problems.is_empty() {
            self.problems.push(Problem::new(
                format!("{}!2", t.sheet),
                "the Workloads sheet lists no workload; add at least one row",
            ));
        }
        out
    }

    /// One Workloads row validated into a workload, or `None` with its problems recorded. Every
    /// cell is checked before the row is given up, so that the user sees all its problems.
    fn workload(
        &mut self,
        rec: &Record,
        known: &Known,
        seen: &mut HashMap<String, CellRef>,
    ) -> Option<Workload> {
        let before = self.problems.len();
        let name = self.workload_name(rec, seen)?;
        let p = &mut self.problems;
        let kind = kind_cell(rec, &name, p);
        let precision = enum_cell(rec, "precision", p);
        let kv_precision = enum_cell(rec, "kv_precision", p);
        let expert_precision = enum_cell(rec, "expert_precision", p);
        let n = self.workload_numbers(rec);
        let cells = row_cells(rec, known, &mut self.problems);
        let kind = kind?;
        if let Some(e) = &cells.engine {
            self.engine_notice(rec, &name, kind, e, known.engines);
        }
        let p = &mut self.problems;
        // Cross-field rules, on the values with their defaults.
        check_sizes(rec, kind, &n, p);
        let online = cells
            .online
            .unwrap_or(crate::catalog::online_by_default(kind));
        check_work(rec, &name, kind, &n, online, p);
        if let (true, Some(w)) = (online, cells.window) {
            self.notices
                .push(window_of_a_service(rec, &name, w, n.hours_per_month));
        }
        let model = self.resolve_model(rec, &name, kind, &n, known.models);
        if self.problems.len() > before {
            return None;
        }
        // Blank precisions take templates/columns.tsv's defaults (its tests check that each
        // parses, so the fallbacks after them are never reached).
        let precision = precision
            .or_else(|| default_precision("precision", kind, None))
            .unwrap_or(Precision::Bf16);
        let expert_precision = expert_precision
            .or_else(|| default_precision("expert_precision", kind, Some(precision)))
            .unwrap_or(precision);
        Some(Workload {
            name,
            kind,
            model,
            precision,
            kv_precision: kv_precision
                .or_else(|| default_precision("kv_precision", kind, None))
                .unwrap_or(Precision::Fp16),
            expert_precision,
            numbers: n,
            online,
            spot_ok: cells
                .spot_ok
                .unwrap_or_else(|| default_word("spot_ok", kind, online) == Some("yes")),
            gpu: cells.pinned,
            engine: cells.engine,
            api: cells.api,
            start_month: cells.start_month,
            end_month: cells.end_month,
            window: cells.window,
            peak_window: cells.peak_window,
            notes: cells.notes,
            cell: rec.cell("name"),
        })
    }

    /// The row's workload name, required and unique (case aside) among the rows read so far.
    fn workload_name(
        &mut self,
        rec: &Record,
        seen: &mut HashMap<String, CellRef>,
    ) -> Option<String> {
        let p = &mut self.problems;
        let name = rec.required_text(
            "name",
            "the workload needs a name (this row has values but no name)",
            p,
        )?;
        if let Some(prev) = seen.insert(name.to_lowercase(), rec.cell("name")) {
            p.push(Problem::new(rec.at("name"), format!("the workload name \"{name}\" is used twice (first at {prev}); names must be unique")));
        }
        Some(name)
    }

    /// The row's numeric columns, each checked against its rule, with a warning where the
    /// redundancy looks like a percentage typed as a whole number.
    fn workload_numbers(&mut self, rec: &Record) -> WorkloadNumbers {
        let mut n = WorkloadNumbers::default();
        for key in WorkloadNumbers::NAMES {
            let v = rec.number(key, number_rule(key), &mut self.problems);
            if let Some(slot) = n.get_mut(key) {
                *slot = v;
            }
        }
        if let Some(r) = n.redundancy.filter(|r| *r > 1.0) {
            self.notices
                .push(share_warning(&rec.at("redundancy"), "redundancy", r));
        }
        n
    }

    /// A note where the workload's engine has no figures for its kind of workload, so the
    /// Assumptions sheet's apply; an engine only declared (a row with no key, as MLC-LLM and
    /// ExLlamaV2 are) says so with its row's source, which gives the defaults' error there.
    fn engine_notice(&mut self, rec: &Record, name: &str, kind: Kind, e: &str, engines: &Engines) {
        if engines.for_workload(e, kind).next().is_none() {
            self.notices.push(
                Warning::info(
                    rec.at("engine"),
                    format!(
                    "{e} has no figures for {} workloads: the Assumptions sheet's apply to {name}",
                    kind.key()
                ),
                )
                .with_zh(format!(
                    "{e} 没有 {} 类负载的参数：{name} 使用参数表中的数值",
                    kind.key()
                )),
            );
        } else if let Some(why) = declared_only(engines, e, kind) {
            self.notices.push(Warning::info(
                rec.at("engine"),
                format!("{e} has no profile of its own: the Assumptions sheet's defaults apply to {name} ({why})"),
            ).with_zh(format!("{e} 没有自己的参数配置：{name} 使用参数表的默认值（{why}）")));
        }
    }
}

/// A share above 1 (100%) where a percentage was likely meant: `redundancy 5` plans six times
/// the replicas, where 5% was probably meant.
pub(super) fn share_warning(at: &str, key: &str, v: f64) -> Warning {
    use crate::model::format_number;
    let (v, pct, share) = (
        format_number(v),
        format_number(v * 100.0),
        format_number(v / 100.0),
    );
    Warning::warn(
        at,
        format!("{key} is {v}, that is {pct}%; if you meant {v}%, write {share} or {v}%"),
    )
    .with_zh(format!(
        "{key} 为 {v}，即 {pct}%；如本意是 {v}%，请写 {share} 或 {v}%"
    ))
}

/// What each numeric Workloads column must hold: its bounds in templates/columns.tsv.
pub(crate) fn number_rule(key: &str) -> Rule {
    Rule::of("Workloads", key).unwrap_or(Rule::at_least(0.0).max(1e12))
}

/// The number `text` gives the numeric Workloads column `key`, read as its cell would be
/// (`lora_rank=32` in a validation row's settings), or why the column refuses it.
pub fn workload_number(key: &str, text: &str) -> std::result::Result<f64, String> {
    let (rule, raw) = (number_rule(key), Raw::Text(text.to_string()));
    rule.read(&raw)
        .filter(|v| rule.accepts(*v))
        .ok_or_else(|| rule.refusal(key, &raw).en)
}

//! The calculation behind `gpuplan calc`, from a workbook's bytes: the workbook typed with the
//! run's changes (the scenario `--scenario` names made the main plan), the formulas compiled,
//! the main plan, then what is worked out beside it — the other scenarios, the ranges'
//! sensitivity, the measured usage, the bills and the comparison with an earlier plan. The
//! command only checks the files, reads the bytes, shows progress and writes the outputs, as
//! cargo's command modules build options and call its ops layer.

use super::candidates::{candidates_kept, candidates_note};
use super::{Calc, Scenario};
use crate::catalog;
use crate::error::{Error, Result};
use crate::labels::Label;
use crate::lang::Lang;
use crate::model::change::{Change, Target};
use crate::model::{self, Input, ScenarioDef, Warning};
use crate::plan::{self, sensitivity::Sensitivity, Programs};
use crate::read::Book;
use crate::support::provenance::Provenance;
use crate::usage;
use std::path::{Path, PathBuf};

/// What one run from bytes gives: the plan workbook's bytes, its JSON and the terminal
/// summary, with the calculation they were written from.
pub struct Output {
    /// The plan workbook (.xlsx) as bytes, ready to be saved or downloaded.
    pub workbook: Vec<u8>,
    /// The plan as JSON text, as [`report::write_json`](crate::report::write_json) writes it.
    pub json: String,
    /// The terminal summary in the run's language, without colour.
    pub summary: String,
    /// The calculation the three were written from, with the notes writing the workbook raised.
    pub calc: Calc,
}

/// The engine from bytes (#48): reads the workbook's `bytes` (`name` names it in messages and
/// in the stamp), plans it with the request, its scenarios and, with a Ranges sheet, `samples`
/// seeded draws of its sensitivity, and writes the plan workbook, the JSON and the summary in
/// `lang` — no file system and no clock but the request's `now` (the stamp's time); threads only
/// where the platform has more than one core (the planner's and the sampling's workers run inline
/// on one, as in a browser). `saved` is the input's date as the Summary shows it (YYYY-MM-DD).
/// `gpuplan calc` makes the same bytes from a file; web/engine calls it in the browser.
pub fn from_bytes(
    name: &str,
    bytes: Vec<u8>,
    request: &Request,
    (samples, seed): (usize, u64),
    lang: Lang,
    saved: &str,
) -> Result<Output> {
    let path = Path::new(name);
    let sets: Vec<String> = request.sets.iter().map(Change::text).collect();
    let mut stamp = Provenance::at(request.now, name, "", &sets);
    let read = Read::new(path, bytes, request)?;
    stamp.input_sha256 = read.input().sha256.clone();
    let mut session = read.compile()?.plan()?;
    if !session.calc.plan.input.ranges.is_empty() {
        let done = std::sync::atomic::AtomicUsize::new(0);
        session.calc.sensitivity = Some(session.sensitivity(samples, seed, &done)?);
    }
    session.plan_scenarios()?;
    let mut calc = session.calc;
    if calc.sensitivity.is_some() {
        stamp.options = sampling_options(samples, seed).to_vec();
    }
    let (workbook, more) = crate::write::plan_bytes(path, &calc, lang, saved, &stamp)?;
    calc.notes.extend(more);
    let mut json = Vec::new();
    crate::report::write_json(&calc, &stamp, &mut json)
        .map_err(|e| Error::Internal(format!("writing the JSON failed: {e}")))?;
    let summary = crate::report::summary(&calc, false, lang);
    Ok(Output {
        workbook,
        json: String::from_utf8_lossy(&json).into_owned(),
        summary,
        calc,
    })
}

/// How the stamp records the sampling of a Ranges sheet: `--samples` and `--seed`.
pub fn sampling_options(samples: usize, seed: u64) -> [(String, String); 2] {
    [
        ("--samples".to_string(), samples.to_string()),
        ("--seed".to_string(), seed.to_string()),
    ]
}

/// What a run asks besides the workbook.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// `--set`, in order.
    pub sets: Vec<Change>,
    /// `--scenario`: the scenario planned as the main plan.
    pub scenario: Option<String>,
    /// `--candidates`: None the default, `Some(None)` all, `Some(Some(n))` the best n.
    pub candidates: Option<Option<usize>>,
    /// The run's time (Unix seconds): the Year tab's default start is the month after.
    pub now: i64,
}

/// The workbook read: parsed once (the base, every scenario and the re-plans of `--usage` are
/// typed from it), its scenarios, the changes the main plan was read with, the main input, and
/// the base input when a scenario is the main plan.
pub struct Read {
    book: Book,
    defs: Vec<ScenarioDef>,
    main_sets: Vec<Change>,
    input: Input,
    base: Option<Input>,
    request: Request,
}

impl Read {
    /// Reads the workbook's `bytes` (`path` names it in messages) with the request's changes.
    pub fn new(path: &Path, bytes: Vec<u8>, request: &Request) -> Result<Read> {
        let book = Book::open(path, bytes)?;
        let sets = &request.sets;
        let base = book.input(sets)?;
        let defs = base.scenarios.clone();
        let main_def = match &request.scenario {
            None => None,
            Some(name) => Some(defs.iter().find(|d| &d.name == name).ok_or_else(|| {
                let hint =
                    crate::support::suggest::hint(name, defs.iter().map(|d| d.name.as_str()));
                Error::Usage(if defs.is_empty() {
                    format!("--scenario {name}: the workbook has no Scenarios sheet (or 情景) with scenarios")
                } else {
                    format!("--scenario {name}: no such scenario in the Scenarios sheet{hint}")
                })
            })?),
        };
        // What the main plan was read with: the re-plan from usage adds to it.
        let main_sets = match main_def {
            None => sets.to_vec(),
            Some(d) => scenario_sets(sets, d),
        };
        let (input, base) = match main_def {
            None => (base, None),
            Some(_) => (book.input(&main_sets)?, Some(base)),
        };
        Ok(Read {
            book,
            defs,
            main_sets,
            input,
            base,
            request: request.clone(),
        })
    }

    /// The main input, as read.
    pub fn input(&self) -> &Input {
        &self.input
    }

    /// Compiles the main input's formulas.
    pub fn compile(self) -> Result<Compiled> {
        let programs = Programs::compile(&self.input)?;
        Ok(Compiled {
            read: self,
            programs,
        })
    }
}

/// The workbook read and its formulas compiled, ready to plan.
pub struct Compiled {
    read: Read,
    programs: Programs,
}

impl Compiled {
    /// Plans the main input, keeping the run's candidates, and notes the candidates left out
    /// and the scenarios' changes nothing reads.
    pub fn plan(self) -> Result<Session> {
        let Compiled { read, programs } = self;
        let Read {
            book,
            defs,
            main_sets,
            input,
            base,
            request,
        } = read;
        let opts = plan::Options {
            keep: Some(candidates_kept(input.workloads.len(), request.candidates)),
            ..plan::Options::at(request.now)
        };
        let mut calc = Calc::of(plan::plan_with(input, &programs, &opts)?);
        let notes: Vec<Warning> = candidates_note(&calc.plan)
            .into_iter()
            .chain(unread_scenario_keys(&defs, &calc.plan.input, &programs))
            .collect();
        calc.notes.extend(notes);
        Ok(Session {
            book,
            defs,
            main_sets,
            base,
            programs,
            request,
            calc,
        })
    }
}

/// A run planned: the calculation so far and what the steps beside the plan need.
pub struct Session {
    book: Book,
    defs: Vec<ScenarioDef>,
    main_sets: Vec<Change>,
    base: Option<Input>,
    programs: Programs,
    request: Request,
    /// The calculation so far: the main plan, then what the steps beside it add (scenarios,
    /// sensitivity, usage, bills, comparison).
    pub calc: Calc,
}

/// How a plan beside the main one keeps its candidates: its chosen one only.
fn side_options(now: i64) -> plan::Options {
    plan::Options {
        keep: Some(1),
        ..plan::Options::at(now)
    }
}

impl Session {
    /// How many scenarios the Scenarios sheet holds.
    pub fn scenario_count(&self) -> usize {
        self.defs.len()
    }

    /// The Ranges sheet's sensitivity with `samples` seeded draws, counting the samples planned
    /// in `done` (a caller may show the count while it runs).
    pub fn sensitivity(
        &self,
        samples: usize,
        seed: u64,
        done: &std::sync::atomic::AtomicUsize,
    ) -> Result<Sensitivity> {
        plan::sensitivity::sensitivity_counted(
            &self.calc.plan.input,
            &self.programs,
            samples,
            seed,
            self.request.now,
            done,
        )
    }

    /// The other plans of the Scenarios tab: the base when a scenario is the main plan, and
    /// every scenario but that one, each keeping only its chosen candidates.
    pub fn plan_scenarios(&mut self) -> Result<()> {
        if self.defs.is_empty() {
            return Ok(());
        }
        let side = side_options(self.request.now);
        let mut scenarios = Vec::new();
        if let Some(base) = self.base.take() {
            let programs = Programs::compile(&base)?;
            scenarios.push(Scenario {
                name: "base".to_string(),
                changes: Vec::new(),
                plan: plan::plan_with(base, &programs, &side)?,
            });
        }
        let main = self.request.scenario.as_ref();
        for d in self.defs.iter().filter(|d| Some(&d.name) != main) {
            let inp = self.book.input(&scenario_sets(&self.request.sets, d))?;
            let programs = Programs::compile(&inp)?;
            scenarios.push(Scenario {
                name: d.name.clone(),
                changes: d.changes.iter().map(Change::text).collect(),
                plan: plan::plan_with(inp, &programs, &side)?,
            });
        }
        self.calc.scenarios = scenarios;
        self.calc.scenario = self.request.scenario.clone();
        Ok(())
    }

    /// `--usage`: the logs read with the workbook's Usage sheet (or `map`), and the plan
    /// compared with a re-plan at the measured figures (the workbook typed again with the
    /// measured hours and memory as changes), with the logs' warnings. `input` names the
    /// workbook in the message when nothing maps a GPU.
    pub fn usage(
        &mut self,
        logs: &[PathBuf],
        map: Option<&Path>,
        interval: f64,
        input: &Path,
    ) -> Result<()> {
        let plan = &self.calc.plan;
        let names = plan.input.workload_names();
        let mapping = match map {
            Some(m) => usage::read_map(m, Some(&names))?,
            None => plan.input.usage.clone(),
        };
        if mapping.is_empty() {
            return Err(Error::Usage(format!(
                "--usage: {} maps no GPU to a workload; fill its Usage sheet (columns gpu_id and workload) or give --map",
                input.display()
            )));
        }
        let assumptions = &plan.input.assumptions;
        let settings = usage::Settings {
            threshold: assumptions.number("usage_active_threshold", 0.1),
            hours_in_month: assumptions.number("hours_in_month", 730.0),
            interval_s: interval,
        };
        let report = usage::analyze(logs, Some(&mapping), settings)?;
        let mut all = self.main_sets.clone();
        all.extend(usage::compare::replan_changes(plan, &report.actuals));
        let side = side_options(self.request.now);
        let book = &self.book;
        let replan_with = |sets: &[Change]| {
            book.input(sets).and_then(|input| {
                let programs = Programs::compile(&input)?;
                plan::plan_with(input, &programs, &side)
            })
        };
        // The baseline: the planned cards, pinned, at the measured hours.
        let mut pinned = self.main_sets.clone();
        pinned.extend(usage::compare::as_is_changes(plan, &report.actuals));
        let mut warnings = report.warnings;
        let mut keep = |r: Result<plan::Plan>, what: Label| match r {
            Ok(p) => Some(p),
            Err(e) => {
                warnings.push(
                    Warning::warn(
                        "--usage",
                        format!("re-planning {} failed, so no saving is given: {e}", what.en),
                    )
                    .with_zh(format!(
                        "{}重新规划失败，因此不给出可节省的金额：{e}",
                        what.zh
                    )),
                );
                None
            }
        };
        let replan = keep(
            replan_with(&all),
            Label::new("with the measured figures", "按实测数据"),
        );
        let as_is = keep(
            replan_with(&pinned),
            Label::new(
                "the planned cards at the measured hours",
                "按实测时长对已规划的 GPU ",
            ),
        );
        let rows = usage::compare::compare(plan, replan.as_ref(), as_is.as_ref(), &report.actuals);
        self.calc.actuals = rows;
        self.calc.notes.extend(warnings);
        Ok(())
    }

    /// `--bills`: the bills export beside the plan, per workload its planned GPU-hours and GPU
    /// cost.
    pub fn bills(&mut self, path: &Path) -> Result<()> {
        let plan = &self.calc.plan;
        let lines = usage::bills::read_bills(path)?;
        let names = plan.input.workload_names();
        let planned = |name: &str| {
            let w = plan.input.workloads.iter().position(|w| w.name == name)?;
            let (c, ch) = plan.chosen(w)?;
            let hours = plan.need(c, plan::Need::RUN_HOURS) * plan.need(c, plan::Need::GPUS_TOTAL);
            Some((hours, ch.gpu_cost))
        };
        self.calc.bills = usage::bills::compare(&lines, &names, &planned);
        Ok(())
    }

    /// `--compare`: the difference from an earlier plan (`before`, read from `name`; `full`
    /// when it recorded its inputs).
    pub fn compare(&mut self, name: String, before: &crate::diff::PlanView, full: bool) {
        let d = crate::diff::compare(before, &crate::diff::view_of(&self.calc.plan), full, true);
        self.calc.compared = Some((name, d));
    }
}

/// A warning for each Scenarios change of an assumption that neither the defaults, nor the
/// Assumptions sheet, nor any formula knows (`safety_marjin=0.9`): it would change nothing, as
/// `--set` already warns; a scenario's own plan's warnings are not shown, so it is said here,
/// at the change's cell.
fn unread_scenario_keys(defs: &[ScenarioDef], input: &Input, programs: &Programs) -> Vec<Warning> {
    let defaults = catalog::assumptions(Lang::En);
    let mut out = Vec::new();
    for o in defs.iter().flat_map(|d| &d.changes) {
        let (text, at) = (o.text(), o.origin.clone().unwrap_or_default());
        let known = defaults.get(&o.key).is_some()
            || input.assumptions.get(&o.key).is_some()
            || programs.candidate.reads(&o.key)
            || programs.portfolio.reads(&o.key);
        if o.target == Target::Assumption && !known {
            let keys = || input.assumptions.items.iter().map(|a| a.key.as_str());
            let hint = crate::support::suggest::hint(&o.key, keys());
            let hint_zh = match crate::support::suggest::closest(&o.key, keys()) {
                c if c.is_empty() => String::new(),
                c => format!("；是否应为 {}？", c.join("、")),
            };
            out.push(model::Warning::warn(
                at,
                format!(
                    "{text}: the assumption {} is neither in the Assumptions sheet nor read by any formula, so the change does nothing{hint}",
                    o.key
                ),
            ).with_zh(format!(
                "{text}：参数 {} 既不在参数表中，也没有被任何公式引用，因此该修改不起作用{hint_zh}",
                o.key
            )));
        }
    }
    out
}

/// The changes a scenario is read with: the command line's, then its own (each remembering
/// its cell).
fn scenario_sets(sets: &[Change], def: &ScenarioDef) -> Vec<Change> {
    sets.iter().chain(&def.changes).cloned().collect()
}

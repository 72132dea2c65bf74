//! Planning, pure (no I/O): every workload is evaluated on every available GPU offer (or its
//! pinned one), incompatible or non-fitting candidates are set aside with their reason, each
//! allowed billing mode is priced by its formula, and the least monthly TCO wins (ties to fewer
//! GPUs, then sheet order). Portfolio formulas then run over the chosen candidates.

pub mod advice;
mod choose;
mod compat;
pub mod cuts;
mod evaluate;
pub mod fleet;
pub mod inputs;
pub mod layout;
pub mod ownership;
mod portfolio;
mod programs;
pub mod risks;
pub mod sensitivity;
mod trace;
mod types;
mod warnings;
pub mod year;

pub use advice::{Advice, Band};
pub use layout::Layout;
pub use programs::Programs;
pub use trace::{trace, Trace, TraceLine};

use crate::error::{Error, Problem, Result};
use crate::formula::Ty;
use crate::model::{Input, Origin, Warning, Workload};
use crate::support::time::Stopwatch;
use choose::{choose, chosen_warnings};
use evaluate::{evaluate_workload, parallel_map};
use portfolio::portfolio;
pub use portfolio::{Planned, Totals};
use programs::Keys;
pub use types::*;
use warnings::{
    example_price_warning, exclusion_warnings, formula_and_price_warnings,
    unread_assumption_warnings,
};

pub use crate::model::billing::{Hidden, Mode};

/// The share of a workload's GPU cost its redundancy instances take: (instances − replicas) ÷
/// instances, the instances sharing the chosen mode's cost evenly; `None` when there is no spare.
/// The warning of a doubled service reads it; the Summary's spares line and the cut that drops
/// the spares read [`spares_share`], which knows base plus burst.
pub fn even_spare_share(replicas: f64, instances: f64) -> Option<f64> {
    (instances > replicas && instances > 0.0).then(|| (instances - replicas) / instances)
}

/// The share of a chosen candidate's GPU cost in `mode` its redundancy instances take; `get`
/// gives the candidate's formula values, `offer` its prices. Base plus burst prices its
/// instances apart: the spares are first the monthly base's own (`base_instances` −
/// `base_replicas`, at the monthly price), the rest burst instances (on demand for
/// `burst_billed_hours`), so seed 000's case of 2 monthly and 2 burst instances for 3 replicas
/// has a spare of ¥3,000 of ¥8,920, not a quarter. Every other mode, and base plus burst under a
/// Formulas sheet without `base_replicas`, shares the cost evenly ([`even_spare_share`]).
pub fn spares_share(
    mode: Mode,
    get: impl Fn(&str) -> Option<f64>,
    offer: &crate::model::GpuOffer,
) -> Option<f64> {
    let (replicas, instances) = (get("replicas")?, get("instances")?);
    let even = even_spare_share(replicas, instances)?;
    if mode != Mode::Mixed {
        return Some(even);
    }
    let mixed = || {
        let cost = get("cost_mixed")?;
        let (cards, card_hours) = mixed_spares(&get)?;
        let spare_cost = cards * offer.monthly? + card_hours * offer.on_demand_hourly?;
        (cost > 0.0).then(|| (spare_cost / cost).min(1.0))
    };
    Some(mixed().unwrap_or(even))
}

/// A base-plus-burst candidate's spares in what they are paid by: the monthly cards of the
/// base's spare instances (`base_instances` − `base_replicas`) and the on-demand card-hours of
/// the burst's (`burst_billed_hours` each); `None` under a Formulas sheet without them. The
/// Summary prices them at the Plan tab's prices, so an edited price moves the spares line.
pub fn mixed_spares(get: impl Fn(&str) -> Option<f64>) -> Option<(f64, f64)> {
    let (replicas, instances) = (get("replicas")?, get("instances")?);
    let (base_replicas, base_instances) = (get("base_replicas")?, get("base_instances")?);
    let (burst_instances, burst_hours) = (get("burst_instances")?, get("burst_billed_hours")?);
    let gpus = get("gpus_per_replica")?;
    let base_spares = (base_instances - base_replicas).max(0.0);
    let burst_spares = (instances - replicas - base_spares).clamp(0.0, burst_instances);
    Some((gpus * base_spares, gpus * burst_spares * burst_hours))
}

/// How much of the evaluation to keep, and how to run it.
#[derive(Debug, Clone)]
pub struct Options {
    /// Candidates kept per workload for the Candidates tab, best first; `None` keeps all.
    pub keep: Option<usize>,
    /// Threads evaluating workloads; any number gives the same plan.
    pub threads: usize,
    /// Unix seconds of the run: the Year tab starts the month after, unless plan_start says.
    pub now: i64,
}

impl Options {
    /// The defaults for a run at `now` (Unix seconds): the best [`DEFAULT_KEEP`] candidates
    /// kept, a thread a core (one where the platform has no threads, as in a browser).
    pub fn at(now: i64) -> Options {
        Options {
            keep: Some(DEFAULT_KEEP),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            now,
        }
    }
}

impl Default for Options {
    /// [`Options::at`] the generation time (now, or `SOURCE_DATE_EPOCH`).
    fn default() -> Self {
        Options::at(crate::support::time::generation_time())
    }
}

/// Candidates kept per workload unless told otherwise: every offer of the built-in sheet. How
/// many the workbook can show is the run's policy (calc::candidates::candidates_kept).
pub const DEFAULT_KEEP: usize = 20;

/// Plans every workload of `input`, keeping the best [`DEFAULT_KEEP`] candidates of each.
pub fn plan(input: Input) -> Result<Plan> {
    let programs = Programs::compile(&input)?;
    plan_with(input, &programs, &Options::default())
}

/// Plans every workload of `input` with its compiled formula `programs`.
pub fn plan_with(input: Input, programs: &Programs, opts: &Options) -> Result<Plan> {
    let columns = candidate_columns(programs);
    let keys = Keys::new(&columns);
    let started = Stopwatch::start();
    let keep = opts.keep.unwrap_or(usize::MAX);
    let evaluated = parallel_map(&input.workloads, opts.threads, |w| {
        evaluate_workload(programs, &input, w, &keys, keep)
    });
    let evaluate_s = started.seconds();
    let started = Stopwatch::start();
    evaluation_problems(&input, &evaluated)?;
    let (workloads, cut, mut warnings) = chosen_plans(programs, &input, evaluated, &keys);

    let totals = portfolio(programs, &input, &workloads, &columns)?;
    let year = year::year(programs, &input, &workloads, &columns, opts.now)?;
    year::outside_warnings(&input, &workloads, &year, &mut warnings);
    example_price_warning(&input, &workloads, &mut warnings);
    let plan_s = started.seconds();
    let started = Stopwatch::start();
    // The columns by name, built once: the fleet and the cuts read formulas by name, and the
    // plan keeps the same index for its readers.
    let index = column_index(&columns);
    let value_of = |c: &Candidate, name: &str| c.values.get(*index.get(name)?).copied();
    let inputs = input_columns(programs);
    let input_of = |c: &Chosen, name: &str| {
        let i = inputs.iter().position(|col| col.name == name)?;
        c.inputs.get(i).copied()
    };
    let readers = fleet::Readers {
        value: &value_of,
        input: &input_of,
    };
    let with_margin = totals.sum(NeedSum::TOTAL_WITH_MARGIN);
    let fleet = fleet_for(&input, &workloads, &readers, with_margin, &mut warnings);
    let cuts = cuts::cuts(
        &cuts::Context {
            programs,
            input: &input,
            plans: &workloads,
            columns: &columns,
            keys: &keys,
            value: &value_of,
            input_of: &input_of,
            start: year.start,
        },
        &mut warnings,
    );
    let fleet_s = started.seconds();
    Ok(Plan {
        input,
        inputs,
        workloads,
        totals,
        year,
        kept: keep,
        cut,
        warnings,
        fleet,
        cuts,
        timings: vec![
            ("evaluate", evaluate_s),
            ("plan", plan_s),
            ("fleet", fleet_s),
        ],
        index,
        columns,
    })
}

/// The first problems of the evaluation (20 at most) as the input's error; `Ok` when every
/// workload was evaluated without one.
fn evaluation_problems(
    input: &Input,
    evaluated: &[std::result::Result<evaluate::Evaluated, Problem>],
) -> Result<()> {
    let problems: Vec<Problem> = evaluated
        .iter()
        .filter_map(|e| e.as_ref().err().cloned())
        .take(20)
        .collect();
    if !problems.is_empty() {
        return Err(Error::Input {
            file: input.file.clone(),
            problems,
        });
    }
    Ok(())
}

/// Every workload's plan chosen from its evaluation, how many had candidates cut to those
/// kept, and the warnings so far: the input's notices, then each choice's, the excluded GPUs',
/// CUDA's, the unread assumptions' and the formulas' and prices'.
fn chosen_plans(
    programs: &Programs,
    input: &Input,
    evaluated: Vec<std::result::Result<evaluate::Evaluated, Problem>>,
    keys: &Keys,
) -> (Vec<WorkloadPlan>, usize, Vec<Warning>) {
    let mut warnings: Vec<Warning> = input.notices.clone();
    let plans = choose_all(programs, input, evaluated, keys, &mut warnings);
    exclusion_warnings(&plans.excluded, &mut warnings);
    let WorkloadPlans { workloads, cut, .. } = plans;
    choose::cuda_note(
        input,
        input.workloads.iter().zip(&workloads).filter_map(|(w, p)| {
            p.chosen
                .as_ref()
                .map(|c| (w, p.candidates[c.candidate].offer))
        }),
        &mut warnings,
    );
    unread_assumption_warnings(programs, input, &mut warnings);
    formula_and_price_warnings(input, &mut warnings);
    (workloads, cut, warnings)
}

/// The columns' index by name: the fleet and the cuts read formulas by name, and the plan keeps
/// the same index for its readers.
fn column_index(columns: &[FormulaColumn]) -> std::collections::HashMap<String, usize> {
    columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.clone(), i))
        .collect()
}

/// The fleet of `plans` with `with_margin` the total it saves from: the one place the planner
/// packs it, for the plan and for each re-plan of the cuts.
fn fleet_for(
    input: &Input,
    plans: &[WorkloadPlan],
    readers: &fleet::Readers,
    with_margin: f64,
    warnings: &mut Vec<Warning>,
) -> Option<fleet::FleetPlan> {
    fleet::fleet_of(input, plans, readers, with_margin, warnings)
}

/// The candidate formulas' columns, in slot order after the inputs.
fn candidate_columns(programs: &Programs) -> Vec<FormulaColumn> {
    let p = &programs.candidate;
    programs
        .candidate_defs
        .iter()
        .enumerate()
        .map(|(i, d)| FormulaColumn {
            name: d.name.clone(),
            unit: d.unit.clone(),
            is_bool: p.ty(p.inputs() + i) == Ty::Bool,
        })
        .collect()
}

/// The candidate program's input columns, unitless, in slot order.
fn input_columns(programs: &Programs) -> Vec<FormulaColumn> {
    let p = &programs.candidate;
    (0..p.inputs())
        .map(|i| FormulaColumn {
            name: p.name(i).to_string(),
            unit: String::new(),
            is_bool: p.ty(i) == Ty::Bool,
        })
        .collect()
}

/// GPUs excluded by precision support, grouped: the same exclusion (the GPUs' names, what they
/// lack) is one warning for all the workloads it concerns.
type ExcludedGroup<'a> = ((String, Said), Vec<&'a Workload>);

/// Every workload's plan, in workload order, with what the warnings after them need.
struct WorkloadPlans<'a> {
    workloads: Vec<WorkloadPlan>,
    /// How many workloads had candidates cut to those kept.
    cut: usize,
    excluded: Vec<ExcludedGroup<'a>>,
}

/// Chooses every workload's plan from its evaluation (all of them evaluated without a
/// problem), pushing each one's warnings in workload order and grouping its excluded GPUs.
fn choose_all<'a>(
    programs: &Programs,
    input: &'a Input,
    evaluated: Vec<std::result::Result<evaluate::Evaluated, Problem>>,
    keys: &Keys,
    warnings: &mut Vec<Warning>,
) -> WorkloadPlans<'a> {
    let monthly_min = input.assumptions.number("monthly_min_utilization", 0.4);
    let mut workloads = Vec::with_capacity(input.workloads.len());
    let mut cut = 0usize;
    let mut excluded: Vec<ExcludedGroup> = Vec::new();
    for (w, e) in input.workloads.iter().zip(evaluated.into_iter().flatten()) {
        if e.candidates.len() < e.evaluated {
            cut += 1;
        }
        if !e.incompatible.is_empty() {
            group_exclusion(&mut excluded, w, &e.incompatible);
        }
        workloads.push(workload_plan(
            programs,
            input,
            w,
            e,
            keys,
            monthly_min,
            warnings,
        ));
    }
    WorkloadPlans {
        workloads,
        cut,
        excluded,
    }
}

/// Adds workload `w` to the group of its GPUs excluded by precision support, opening the group
/// when it is the first workload with that exclusion.
fn group_exclusion<'a>(
    excluded: &mut Vec<ExcludedGroup<'a>>,
    w: &'a Workload,
    incompatible: &[(String, Vec<Said>)],
) {
    // What the excluded GPUs lack, each once (weights and KV cache may share a format).
    let mut need: Vec<&Said> = Vec::new();
    for n in incompatible.iter().flat_map(|(_, n)| n) {
        if !need.contains(&n) {
            need.push(n);
        }
    }
    let names: Vec<&str> = incompatible.iter().map(|(g, _)| g.as_str()).collect();
    let join =
        |f: fn(&Said) -> &str, sep: &str| need.iter().map(|n| f(n)).collect::<Vec<_>>().join(sep);
    let key = (
        names.join(", "),
        Said::new(join(|n| &n.en, " and "), join(|n| &n.zh, "、")),
    );
    match excluded.iter_mut().find(|(k, _)| *k == key) {
        Some((_, ws)) => ws.push(w),
        None => excluded.push((key, vec![w])),
    }
}

/// Chooses workload `w`'s plan from its evaluation `e`, pushing the chosen candidate's
/// warnings, or why nothing was planned.
fn workload_plan(
    programs: &Programs,
    input: &Input,
    w: &Workload,
    e: evaluate::Evaluated,
    keys: &Keys,
    monthly_min: f64,
    warnings: &mut Vec<Warning>,
) -> WorkloadPlan {
    let mut chosen = choose(&e.candidates, &e.best, keys, monthly_min);
    if let Some(c) = chosen.as_mut() {
        let cand = &e.candidates[c.candidate];
        c.inputs = programs.input_values(
            input,
            w,
            cand.offer,
            cand.values[keys.gpus_per_replica],
            cand.layout,
        );
    }
    match &chosen {
        Some(c) => chosen_warnings(
            w,
            input,
            &e.candidates[c.candidate],
            c,
            keys,
            monthly_min,
            warnings,
        ),
        None => {
            let why = e.unplanned.clone().unwrap_or_default();
            warnings.push(Warning::warn(w.cell.to_string(), why.en).with_zh(why.zh));
        }
    }
    // Said whether or not a card holds it: it is often why none does.
    let shown = chosen
        .as_ref()
        .map(|c| &e.candidates[c.candidate])
        .or(e.candidates.first());
    if let Some(c) = shown {
        choose::experts_note(w, c, keys, warnings);
        choose::lora_experts_note(w, c, keys, warnings);
    }
    let unplanned = if chosen.is_none() {
        Some(e.unplanned.unwrap_or_default())
    } else {
        None
    };
    WorkloadPlan {
        candidates: e.candidates,
        chosen,
        unplanned,
    }
}

#[cfg(test)]
mod tests;

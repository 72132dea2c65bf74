//! Planning, pure (no I/O): every workload is evaluated on every available GPU offer (or its
//! pinned one), incompatible or non-fitting candidates are set aside with their reason, each
//! allowed billing mode is priced by its formula, and the least monthly TCO wins (ties to fewer
//! GPUs, then sheet order). Portfolio formulas then run over the chosen candidates.

mod advice;
pub mod inputs;

pub use advice::{Advice, Band};

use crate::error::{Error, Problem, Result};
use crate::formula::{Program, Ty};
use crate::model::{format_number, FormulaDef, Input, Origin, Scope, Warning, Workload};
use serde::Serialize;

/// A billing mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    OnDemand,
    Monthly,
    Spot,
    Reserved,
    Mixed,
}

impl Mode {
    pub const ALL: [Mode; 5] = [
        Mode::OnDemand,
        Mode::Monthly,
        Mode::Spot,
        Mode::Reserved,
        Mode::Mixed,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Mode::OnDemand => "on_demand",
            Mode::Monthly => "monthly",
            Mode::Spot => "spot",
            Mode::Reserved => "reserved",
            Mode::Mixed => "mixed",
        }
    }

    pub fn label(self, zh: bool) -> &'static str {
        match (self, zh) {
            (Mode::OnDemand, false) => "on-demand",
            (Mode::Monthly, false) => "monthly",
            (Mode::Spot, false) => "spot",
            (Mode::Reserved, false) => "reserved",
            (Mode::Mixed, false) => "base + burst",
            (Mode::OnDemand, true) => "按量计费",
            (Mode::Monthly, true) => "包月",
            (Mode::Spot, true) => "竞价实例",
            (Mode::Reserved, true) => "预留实例",
            (Mode::Mixed, true) => "包月保底 + 按量弹性",
        }
    }

    fn index(self) -> usize {
        Mode::ALL.iter().position(|m| *m == self).unwrap_or(0)
    }
}

/// Candidate formulas the planner reads; the sheet may not delete them.
pub const REQUIRED_CANDIDATE: [&str; 30] = [
    "fits",
    "gpus_per_replica",
    "replicas",
    "instances",
    "gpus_total",
    "cost_on_demand",
    "cost_monthly",
    "cost_spot",
    "cost_reserved",
    "cost_mixed",
    "allow_on_demand",
    "allow_monthly",
    "allow_spot",
    "allow_reserved",
    "allow_mixed",
    "storage_cost",
    "egress_cost",
    "weights_gib",
    "kv_cache_gib",
    "activation_gib",
    "grads_gib",
    "optimizer_gib",
    "overhead_gib",
    "total_vram_gib",
    "required_vram_gib",
    "utilization",
    "concurrency_per_replica",
    "redundancy_used",
    "run_hours",
    "replica_vram_gib",
];
/// Portfolio formulas the planner reads.
pub const REQUIRED_PORTFOLIO: [&str; 4] = [
    "trial_reserve_cost",
    "ops_cost",
    "total",
    "total_with_margin",
];

/// One candidate-scope formula as a column of values.
#[derive(Debug, Clone, Serialize)]
pub struct FormulaColumn {
    pub name: String,
    pub unit: String,
    pub is_bool: bool,
}

/// One (workload, offer) evaluated.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    /// Index into `input.gpus`.
    pub offer: usize,
    /// Values of the candidate formulas, aligned with `Plan::columns`; empty if excluded before evaluation.
    pub values: Vec<f64>,
    /// Why the candidate cannot be chosen, if it cannot.
    pub exclusion: Option<String>,
    /// Monthly GPU cost per mode; `None` where the mode is not offered or not allowed.
    pub costs: [Option<f64>; 5],
}

impl Candidate {
    pub fn fits(&self) -> bool {
        self.exclusion.is_none()
    }
    pub fn cost(&self, m: Mode) -> Option<f64> {
        self.costs[m.index()]
    }
    /// The cheapest priced mode of this candidate.
    pub fn cheapest(&self) -> Option<(Mode, f64)> {
        Mode::ALL
            .iter()
            .filter_map(|m| self.cost(*m).map(|c| (*m, c)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }
}

/// The plan of one workload.
#[derive(Debug, Clone, Serialize)]
pub struct Chosen {
    /// Index into the workload's candidates.
    pub candidate: usize,
    pub mode: Mode,
    pub gpu_cost: f64,
    /// Of the GPU cost, what pays for cold starts and billing rounding.
    pub cold_start_cost: f64,
    /// Of the GPU cost, what pays for spot rework.
    pub rework_cost: f64,
    pub storage_cost: f64,
    pub egress_cost: f64,
    pub tco: f64,
    pub advice: Advice,
    /// The candidate's input values (aligned with `Plan::inputs`), for the live formulas.
    #[serde(skip)]
    pub inputs: Vec<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct WorkloadPlan {
    pub candidates: Vec<Candidate>,
    pub chosen: Option<Chosen>,
}

/// The whole plan: the input, every candidate, the choices, the portfolio totals and warnings.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    pub input: Input,
    /// The inputs of candidate formulas (workload, model, GPU and assumption values).
    pub inputs: Vec<FormulaColumn>,
    pub columns: Vec<FormulaColumn>,
    /// Parallel to `input.workloads`.
    pub workloads: Vec<WorkloadPlan>,
    /// Portfolio formulas (in evaluation order), then the planned sums the JSON carries.
    pub totals: Vec<(String, f64)>,
    pub warnings: Vec<Warning>,
    /// Seconds spent evaluating and planning, for `--timings`.
    #[serde(skip)]
    pub timings: Vec<(&'static str, f64)>,
    /// Column of each candidate formula by name.
    #[serde(skip)]
    index: std::collections::HashMap<String, usize>,
}

impl Plan {
    /// Column index of a candidate formula.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// A candidate's value of a formula.
    pub fn value(&self, c: &Candidate, name: &str) -> Option<f64> {
        self.column(name).and_then(|i| c.values.get(i).copied())
    }

    pub fn total(&self, name: &str) -> Option<f64> {
        self.totals.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// The chosen candidate of workload `w`, with its choice.
    pub fn chosen(&self, w: usize) -> Option<(&Candidate, &Chosen)> {
        let wp = &self.workloads[w];
        wp.chosen.as_ref().map(|c| (&wp.candidates[c.candidate], c))
    }

    pub fn planned_count(&self) -> usize {
        self.workloads.iter().filter(|w| w.chosen.is_some()).count()
    }
}

/// The compiled formula programs of an input.
pub struct Engine {
    pub candidate: Program,
    pub portfolio: Program,
    gpu_slots: inputs::GpuSlots,
    candidate_defs: Vec<FormulaDef>,
    portfolio_defs: Vec<FormulaDef>,
}

impl Engine {
    /// Compiles both scopes, checking the formulas the planner needs are there.
    pub fn compile(input: &Input) -> Result<Engine> {
        let err = |problems: Vec<Problem>| Error::Input {
            file: input.file.clone(),
            problems,
        };
        let candidate_defs: Vec<FormulaDef> = input
            .formulas
            .iter()
            .filter(|f| f.scope == Scope::Candidate)
            .cloned()
            .collect();
        let portfolio_defs: Vec<FormulaDef> = input
            .formulas
            .iter()
            .filter(|f| f.scope == Scope::Portfolio)
            .cloned()
            .collect();
        let mut problems = Vec::new();
        let sheet = input
            .formulas
            .iter()
            .find_map(|f| f.cell.as_ref().map(|c| c.sheet.clone()));
        let where_ = sheet.clone().unwrap_or_else(|| "Formulas".to_string());
        for (required, defs, scope) in [
            (&REQUIRED_CANDIDATE[..], &candidate_defs, "candidate"),
            (&REQUIRED_PORTFOLIO[..], &portfolio_defs, "portfolio"),
        ] {
            for name in required {
                if !defs.iter().any(|d| d.name == *name) {
                    let elsewhere = input.formulas.iter().any(|f| f.name == *name);
                    problems.push(Problem::new(
                        where_.clone(),
                        if elsewhere {
                            format!("the formula `{name}` must have scope {scope}")
                        } else {
                            format!("the formula `{name}` is missing; the planner needs it (restore its row from `gpuplan init`)")
                        },
                    ));
                }
            }
        }
        if !problems.is_empty() {
            return Err(err(problems));
        }
        let (cin, mut p1) = inputs::candidate_inputs(&input.assumptions);
        let portfolio_names: Vec<&str> = portfolio_defs.iter().map(|d| d.name.as_str()).collect();
        let cand_refs: Vec<&FormulaDef> = candidate_defs.iter().collect();
        let candidate =
            Program::compile(&cin, &cand_refs, &portfolio_names).map_err(|mut ps| {
                ps.append(&mut p1);
                err(ps)
            })?;
        if !p1.is_empty() {
            return Err(err(p1));
        }
        let (pin, p2) = inputs::portfolio_inputs(&candidate, &input.assumptions);
        if !p2.is_empty() {
            return Err(err(p2));
        }
        let cand_names: Vec<&str> = candidate_defs.iter().map(|d| d.name.as_str()).collect();
        let port_refs: Vec<&FormulaDef> = portfolio_defs.iter().collect();
        let portfolio = Program::compile(&pin, &port_refs, &cand_names).map_err(err)?;
        let mut type_problems = Vec::new();
        for name in REQUIRED_CANDIDATE.iter().chain(REQUIRED_PORTFOLIO.iter()) {
            let (p, defs) = if REQUIRED_PORTFOLIO.contains(name) {
                (&portfolio, &portfolio_defs)
            } else {
                (&candidate, &candidate_defs)
            };
            let want = if name.starts_with("allow_") || *name == "fits" {
                Ty::Bool
            } else {
                Ty::Num
            };
            if let (Some(slot), Some(d)) = (p.slot(name), defs.iter().find(|d| d.name == *name)) {
                if p.ty(slot) != want {
                    type_problems.push(Problem::new(
                        d.location(),
                        format!(
                            "`{name}` must compute {}",
                            if want == Ty::Bool {
                                "a yes/no value"
                            } else {
                                "a number"
                            }
                        ),
                    ));
                }
            }
        }
        if !type_problems.is_empty() {
            return Err(err(type_problems));
        }
        Ok(Engine {
            gpu_slots: inputs::GpuSlots::new(&candidate),
            candidate,
            portfolio,
            candidate_defs,
            portfolio_defs,
        })
    }

    /// Fills the values of one candidate and evaluates it; a non-finite formula is a problem
    /// naming the formula, the workload and the GPU.
    pub fn evaluate(
        &self,
        input: &Input,
        w: &Workload,
        offer: usize,
        values: &mut [f64],
        scratch: &mut crate::formula::Scratch,
    ) -> std::result::Result<(), Problem> {
        let gpu = &input.gpus[offer];
        self.gpu_slots.bind(gpu, offer, w, values);
        self.candidate.eval(values, scratch).map_err(|e| {
            let d = &self.candidate_defs[e.def];
            Problem::new(
                d.location(),
                format!(
                    "is {} (not a finite number) for workload {} on {}: look for a division by zero or an overflow in `{}`",
                    e.value,
                    w.name,
                    gpu.label(),
                    d.expression
                ),
            )
        })
    }

    /// The input values of one candidate, without evaluating it.
    pub fn input_values(&self, input: &Input, w: &Workload, offer: usize) -> Vec<f64> {
        let mut values = self.base_values(input, w);
        self.gpu_slots
            .bind(&input.gpus[offer], offer, w, &mut values);
        values.truncate(self.candidate.inputs());
        values
    }

    /// The workload's base values: assumptions and workload inputs (GPU inputs come per offer).
    pub fn base_values(&self, input: &Input, w: &Workload) -> Vec<f64> {
        let mut values = vec![0.0; self.candidate.width()];
        inputs::bind_assumptions(&self.candidate, &input.assumptions, &mut values);
        inputs::bind_workload(&self.candidate, w, &input.assumptions, &mut values);
        values
    }

    /// The candidate-scope definitions, indexed as the program's `def`s.
    pub fn candidate_defs(&self) -> &[FormulaDef] {
        &self.candidate_defs
    }

    pub fn candidate_def(&self, def: usize) -> &FormulaDef {
        &self.candidate_defs[def]
    }
    pub fn portfolio_def(&self, def: usize) -> &FormulaDef {
        &self.portfolio_defs[def]
    }
}

/// Slots of the values the planner reads, resolved once.
struct Keys {
    fits: usize,
    gpus_total: usize,
    costs: [usize; 5],
    allows: [usize; 5],
    hidden: [Option<usize>; 5],
    storage: usize,
    egress: usize,
    utilization: usize,
    gpus_per_replica: usize,
    required: usize,
    replica_vram: usize,
    gpu_limit: Option<usize>,
    concurrency_per_replica: usize,
}

impl Keys {
    fn new(columns: &[FormulaColumn]) -> Keys {
        let at = |n: &str| columns.iter().position(|c| c.name == n);
        let must = |n: &str| at(n).unwrap_or(0);
        Keys {
            fits: must("fits"),
            gpus_total: must("gpus_total"),
            costs: Mode::ALL.map(|m| must(&format!("cost_{}", m.key()))),
            allows: Mode::ALL.map(|m| must(&format!("allow_{}", m.key()))),
            hidden: [
                at("cold_start_cost_on_demand"),
                None,
                at("rework_cost_spot"),
                None,
                at("cold_start_cost_mixed"),
            ],
            storage: must("storage_cost"),
            egress: must("egress_cost"),
            utilization: must("utilization"),
            gpus_per_replica: must("gpus_per_replica"),
            required: must("required_vram_gib"),
            replica_vram: must("replica_vram_gib"),
            gpu_limit: at("gpu_limit"),
            concurrency_per_replica: must("concurrency_per_replica"),
        }
    }
}

/// How much of the evaluation to keep, and how to run it.
#[derive(Debug, Clone)]
pub struct Options {
    /// Candidates kept per workload for the Candidates tab, best first; `None` keeps all.
    pub keep: Option<usize>,
    /// Threads evaluating workloads; any number gives the same plan.
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            keep: Some(DEFAULT_KEEP),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// Candidates kept per workload by default: every offer of the built-in sheet, and a Candidates
/// tab of 20,000 rows for 1,000 workloads, quick to open in Excel.
pub const DEFAULT_KEEP: usize = 20;
/// Rows the Candidates tab holds at most by default: past 5,000 workloads fewer are kept each.
pub const DEFAULT_ROWS: usize = 100_000;
/// Excel's row limit, less the header.
pub const EXCEL_ROWS: usize = 1_048_575;

impl Options {
    /// The default number kept for `workloads` workloads.
    pub fn default_keep(workloads: usize) -> usize {
        (DEFAULT_ROWS / workloads.max(1)).clamp(1, DEFAULT_KEEP)
    }
}

/// Plans every workload of `input` with the default options.
pub fn plan(input: Input) -> Result<Plan> {
    let engine = Engine::compile(&input)?;
    plan_with(input, &engine, &Options::default())
}

/// The best option of one billing mode over all feasible candidates of a workload.
#[derive(Debug, Clone, Copy)]
struct Best {
    tco: f64,
    gpus: f64,
    offer: usize,
}

impl Best {
    fn better_than(&self, other: &Best) -> bool {
        self.tco
            .total_cmp(&other.tco)
            .then(self.gpus.total_cmp(&other.gpus))
            .then(self.offer.cmp(&other.offer))
            .is_lt()
    }
}

/// An evaluated candidate before the best are kept: offer, offset of its values in the arena,
/// why it is out, its mode costs, and its rank.
type Row = (
    usize,
    usize,
    Option<Why>,
    [Option<f64>; 5],
    (u8, f64, f64, usize),
);

/// Why a candidate cannot be chosen.
#[derive(Debug, Clone, Copy)]
enum Why {
    Incompatible,
    Misfit,
    NoMode,
}

/// One workload evaluated on all its offers.
struct Evaluated {
    /// Kept candidates, best first (feasible by least TCO, then the rest, largest offer first).
    candidates: Vec<Candidate>,
    /// How many were evaluated.
    evaluated: usize,
    best: [Option<Best>; 5],
    incompatible: Vec<String>,
    /// Why nothing fits, when nothing does.
    unplanned: Option<String>,
}

/// Evaluates one workload on every available offer (or its pinned one) and keeps the best.
fn evaluate_workload(
    engine: &Engine,
    input: &Input,
    w: &Workload,
    keys: &Keys,
    keep: usize,
) -> std::result::Result<Evaluated, Problem> {
    let p = &engine.candidate;
    let n_in = p.inputs();
    let width = p.width() - n_in;
    let base = engine.base_values(input, w);
    let mut values = base.clone();
    let mut scratch = p.scratch();
    // Per offer: (offer, values offset, exclusion, costs, rank key).
    let mut arena: Vec<f64> = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut best: [Option<Best>; 5] = [None; 5];
    let mut incompatible: Vec<String> = Vec::new();
    let pin = w.gpu.as_deref().map(crate::model::normalize);
    for (oi, offer) in input.gpus.iter().enumerate() {
        if !offer.available
            || pin
                .as_ref()
                .is_some_and(|p| *p != crate::model::normalize(&offer.gpu))
        {
            continue;
        }
        values.copy_from_slice(&base);
        engine.evaluate(input, w, oi, &mut values, &mut scratch)?;
        let vals = &values[n_in..];
        // Why a candidate is out; its text is written only for the candidates kept.
        let mut exclusion = None;
        if compatibility(w, offer).is_some() {
            exclusion = Some(Why::Incompatible);
            if !incompatible.contains(&offer.gpu) {
                incompatible.push(offer.gpu.clone());
            }
        } else if vals[keys.fits] == 0.0 {
            exclusion = Some(Why::Misfit);
        }
        let mut costs = [None; 5];
        for (i, c) in costs.iter_mut().enumerate() {
            let v = vals[keys.costs[i]];
            if vals[keys.allows[i]] != 0.0 && v >= 0.0 {
                *c = Some(v);
            }
        }
        if exclusion.is_none() && costs.iter().all(Option::is_none) {
            exclusion = Some(Why::NoMode);
        }
        let extra = vals[keys.storage] + vals[keys.egress];
        let gpus = vals[keys.gpus_total];
        let mut cheapest = f64::INFINITY;
        if exclusion.is_none() {
            for (i, c) in costs.iter().enumerate() {
                if let Some(c) = c {
                    let b = Best {
                        tco: c + extra,
                        gpus,
                        offer: oi,
                    };
                    cheapest = cheapest.min(b.tco);
                    if best[i].is_none_or(|cur| b.better_than(&cur)) {
                        best[i] = Some(b);
                    }
                }
            }
        }
        let rank = if exclusion.is_none() {
            (0, cheapest, gpus, oi)
        } else {
            (1, -(offer.vram_gib * offer.gpus_per_node), 0.0, oi)
        };
        rows.push((oi, arena.len(), exclusion, costs, rank));
        arena.extend_from_slice(vals);
    }
    let evaluated = rows.len();
    rows.sort_by(|a, b| {
        let (x, y) = (a.4, b.4);
        x.0.cmp(&y.0)
            .then(x.1.total_cmp(&y.1))
            .then(x.2.total_cmp(&y.2))
            .then(x.3.cmp(&y.3))
    });
    rows.truncate(keep.max(1));
    let candidates: Vec<Candidate> = rows
        .into_iter()
        .map(|(offer, at, why, costs, _)| {
            let values = arena[at..at + width].to_vec();
            let exclusion = why.map(|why| match why {
                Why::Incompatible => compatibility(w, &input.gpus[offer]).unwrap_or_default(),
                Why::Misfit => misfit_reason(&values, keys),
                Why::NoMode => {
                    "no billing mode is offered and allowed (no price, or spot not allowed)"
                        .to_string()
                }
            });
            Candidate {
                offer,
                values,
                exclusion,
                costs,
            }
        })
        .collect();
    let unplanned = best
        .iter()
        .all(Option::is_none)
        .then(|| unplanned_reason(w, input, &candidates, keys));
    Ok(Evaluated {
        candidates,
        evaluated,
        best,
        incompatible,
        unplanned,
    })
}

/// Runs `f` on every item, on up to `threads` threads over contiguous chunks, results in order.
fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|c| s.spawn(|| c.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        // A worker's panic is a bug: carry it to the caller rather than lose its results.
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Plans every workload of `input` with compiled `engine`.
pub fn plan_with(input: Input, engine: &Engine, opts: &Options) -> Result<Plan> {
    let p = &engine.candidate;
    let columns: Vec<FormulaColumn> = engine
        .candidate_defs
        .iter()
        .enumerate()
        .map(|(i, d)| FormulaColumn {
            name: d.name.clone(),
            unit: d.unit.clone(),
            is_bool: p.ty(p.inputs() + i) == Ty::Bool,
        })
        .collect();
    let keys = Keys::new(&columns);
    let started = std::time::Instant::now();
    // However many are asked for, the Candidates tab cannot pass Excel's row limit.
    let rows_cap = (EXCEL_ROWS / input.workloads.len().max(1)).max(1);
    let keep = opts.keep.unwrap_or(usize::MAX).min(rows_cap);
    let evaluated = parallel_map(&input.workloads, opts.threads, |w| {
        evaluate_workload(engine, &input, w, &keys, keep)
    });
    let evaluate_s = started.elapsed().as_secs_f64();
    let started = std::time::Instant::now();
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
    let mut warnings: Vec<Warning> = input.notices.clone();
    let monthly_min = input.assumptions.number("monthly_min_utilization", 0.4);
    let mut workloads = Vec::with_capacity(input.workloads.len());
    let mut cut = 0usize;
    // GPUs excluded by precision support, grouped: the same exclusion is one warning for all the
    // workloads it concerns.
    type Exclusion<'a> = ((String, String), Vec<&'a Workload>);
    let mut excluded: Vec<Exclusion> = Vec::new();
    for (w, e) in input.workloads.iter().zip(evaluated.into_iter().flatten()) {
        if e.candidates.len() < e.evaluated {
            cut += 1;
        }
        if !e.incompatible.is_empty() {
            let need: Vec<String> = [w.precision, w.kv_precision]
                .iter()
                .filter_map(|pr| {
                    pr.min_compute_capability()
                        .map(|cc| format!("{} needs compute capability ≥ {cc:.1}", pr.key()))
                })
                .collect();
            let key = (e.incompatible.join(", "), need.join(" and "));
            match excluded.iter_mut().find(|(k, _)| *k == key) {
                Some((_, ws)) => ws.push(w),
                None => excluded.push((key, vec![w])),
            }
        }
        let mut chosen = choose(&e.candidates, &e.best, &keys, monthly_min);
        if let Some(c) = chosen.as_mut() {
            c.inputs = engine.input_values(&input, w, e.candidates[c.candidate].offer);
        }
        match &chosen {
            Some(c) => chosen_warnings(
                w,
                &input,
                &e.candidates[c.candidate],
                c,
                &keys,
                monthly_min,
                &mut warnings,
            ),
            None => warnings.push(Warning::warn(
                w.cell.to_string(),
                e.unplanned.clone().unwrap_or_default(),
            )),
        }
        workloads.push(WorkloadPlan {
            candidates: e.candidates,
            chosen,
        });
    }
    for ((gpus, need), ws) in &excluded {
        let (location, who) = match ws.as_slice() {
            [one] => (one.cell.to_string(), one.name.clone()),
            many => {
                let names: Vec<&str> = many.iter().take(5).map(|w| w.name.as_str()).collect();
                let more = if many.len() > 5 {
                    format!(" and {} more", many.len() - 5)
                } else {
                    String::new()
                };
                (
                    many[0].cell.sheet.clone(),
                    format!("{} workloads ({}{more})", many.len(), names.join(", ")),
                )
            }
        };
        warnings.push(Warning::warn(location, format!("{gpus} excluded for {who}: {need}; choose another precision (e.g. fp16) to consider them")));
    }
    if cut > 0 {
        warnings.push(Warning::info(
            "Candidates",
            format!(
                "the Candidates tab keeps the best {} candidates of each workload ({cut} workload(s) had more){}",
                keep,
                if opts.keep.is_some_and(|k| k <= rows_cap) {
                    "; use --candidates all to keep every one"
                } else {
                    ", as many as Excel's 1,048,576 rows allow"
                }
            ),
        ));
    }

    // Warnings about the formulas and prices themselves.
    for f in &input.formulas {
        if f.origin == Origin::Replaced {
            warnings.push(Warning::info(
                f.location(),
                format!(
                    "the default formula {} was replaced by the sheet's expression",
                    f.name
                ),
            ));
        }
    }
    for m in [Mode::OnDemand, Mode::Monthly, Mode::Spot, Mode::Reserved] {
        let priced = input.gpus.iter().filter(|g| g.available).any(|g| match m {
            Mode::OnDemand => g.on_demand_hourly.is_some(),
            Mode::Monthly => g.monthly.is_some(),
            Mode::Spot => g.spot_hourly.is_some(),
            _ => g.reserved_monthly.is_some(),
        });
        if !priced {
            warnings.push(Warning::info(
                "GPUs",
                format!(
                    "no offer has a {} price, so {} was not considered",
                    m.label(false),
                    m.label(false)
                ),
            ));
        }
    }

    let totals = portfolio(engine, &input, &workloads, &columns)?;
    let plan_s = started.elapsed().as_secs_f64();
    let inputs = (0..p.inputs())
        .map(|i| FormulaColumn {
            name: p.name(i).to_string(),
            unit: String::new(),
            is_bool: p.ty(i) == Ty::Bool,
        })
        .collect();
    Ok(Plan {
        input,
        inputs,
        workloads,
        totals,
        warnings,
        timings: vec![("evaluate", evaluate_s), ("plan", plan_s)],
        index: columns
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.clone(), i))
            .collect(),
        columns,
    })
}

/// Precision support by compute capability (SPEC §5): bf16 needs 8.0, fp8 needs 8.9.
fn compatibility(w: &Workload, offer: &crate::model::GpuOffer) -> Option<String> {
    for p in [w.precision, w.kv_precision] {
        if let Some(cc) = p.min_compute_capability() {
            if offer.compute_capability + 1e-9 < cc {
                return Some(format!(
                    "{} needs compute capability ≥ {cc:.1}; {} has {}",
                    p.key(),
                    offer.gpu,
                    format_number(offer.compute_capability)
                ));
            }
        }
    }
    None
}

fn misfit_reason(v: &[f64], k: &Keys) -> String {
    let gpus = v[k.gpus_per_replica];
    if let Some(limit) = k.gpu_limit.map(|i| v[i]) {
        if gpus > limit {
            return format!(
                "needs {} GPUs per replica ({} GiB with headroom); at most {} allowed",
                format_number(gpus),
                format_number((v[k.required] * 10.0).round() / 10.0),
                format_number(limit)
            );
        }
    }
    if v[k.required] > v[k.replica_vram] {
        return format!(
            "needs {} GiB with headroom; the replica has {} GiB",
            format_number((v[k.required] * 10.0).round() / 10.0),
            format_number(v[k.replica_vram])
        );
    }
    if v[k.concurrency_per_replica] < 1.0 {
        return "cannot serve one request within the memory or the latency goal".to_string();
    }
    "does not fit (the formula fits is false)".to_string()
}

/// The least-TCO (offer, mode) from each mode's best; ties to fewer GPUs, then sheet order,
/// then mode order. The next best is the best option of another mode.
fn choose(
    cands: &[Candidate],
    best: &[Option<Best>; 5],
    k: &Keys,
    monthly_min: f64,
) -> Option<Chosen> {
    let mut options: Vec<(Best, Mode)> = Mode::ALL
        .iter()
        .zip(best)
        .filter_map(|(m, b)| b.map(|b| (b, *m)))
        .collect();
    options.sort_by(|a, b| {
        if a.0.better_than(&b.0) {
            std::cmp::Ordering::Less
        } else if b.0.better_than(&a.0) {
            std::cmp::Ordering::Greater
        } else {
            a.1.index().cmp(&b.1.index())
        }
    });
    let &(first, mode) = options.first()?;
    let ci = cands.iter().position(|c| c.offer == first.offer)?;
    let c = &cands[ci];
    let tco = first.tco;
    let next = options
        .get(1)
        .map(|o| {
            (
                o.1,
                if tco > 0.0 {
                    o.0.tco / tco
                } else {
                    f64::INFINITY
                },
            )
        })
        .filter(|(_, r)| r.is_finite());
    let utilization = c.values[k.utilization];
    let gpu_cost = c.cost(mode).unwrap_or(0.0);
    let hidden = k.hidden[mode.index()].map_or(0.0, |i| c.values[i]);
    let (cold_start_cost, rework_cost) = match mode {
        Mode::Spot => (0.0, hidden),
        _ => (hidden, 0.0),
    };
    Some(Chosen {
        candidate: ci,
        mode,
        gpu_cost,
        cold_start_cost,
        rework_cost,
        storage_cost: c.values[k.storage],
        egress_cost: c.values[k.egress],
        tco,
        advice: Advice {
            utilization,
            band: Band::of(utilization),
            below_monthly_minimum: utilization < monthly_min,
            mode,
            next,
        },
        inputs: Vec::new(),
    })
}

fn chosen_warnings(
    w: &Workload,
    input: &Input,
    c: &Candidate,
    ch: &Chosen,
    k: &Keys,
    monthly_min: f64,
    out: &mut Vec<Warning>,
) {
    let g = &input.gpus[c.offer];
    let at = w.cell.to_string();
    let cc = g.compute_capability;
    if cc < 8.0 && w.kind != crate::model::Kind::ImageGen {
        out.push(Warning::warn(&at, format!(
            "{} runs on {} (compute capability {}): FlashAttention-2 needs ≥ 8.0, so attention holds more memory than the estimate assumes",
            w.name, g.gpu, format_number(cc))));
    }
    if (7.0..7.5).contains(&cc) {
        out.push(Warning::warn(
            &at,
            format!(
                "{}: {} (sm_70) is dropped by CUDA 13; pin a CUDA 12.x image",
                w.name, g.gpu
            ),
        ));
    } else if cc >= 10.0 {
        out.push(Warning::warn(&at, format!("{}: {} (sm_{}) needs CUDA ≥ 12.8, driver R570+ and PyTorch ≥ 2.7; check the image before renting", w.name, g.gpu, (cc * 10.0).round())));
    } else if cc >= 8.9 {
        out.push(Warning::info(
            &at,
            format!(
                "{}: {} (sm_{}) needs CUDA ≥ 11.8 and PyTorch ≥ 2.0",
                w.name,
                g.gpu,
                (cc * 10.0).round()
            ),
        ));
    }
    let total = c.values[k.required] / (1.0 + input.assumptions.number("vram_headroom", 0.2));
    let share = total / c.values[k.replica_vram].max(1e-9);
    if share > 0.9 {
        out.push(Warning::warn(&at, format!(
            "{} uses {}% of the memory of {} at peak; an out-of-memory error is likely (seed 000: keep at least 20% free)",
            w.name, format_number((share * 100.0).round()), g.gpu)));
    }
    if matches!(ch.mode, Mode::Monthly | Mode::Reserved) && ch.advice.utilization < monthly_min {
        out.push(Warning::warn(&at, format!(
            "{} is billed {} at {}% utilization, under monthly_min_utilization ({}%): check the hours, or measure a month on demand first",
            w.name, ch.mode.label(false), format_number((ch.advice.utilization * 100.0).round()), format_number(monthly_min * 100.0))));
    }
}

fn unplanned_reason(w: &Workload, input: &Input, cands: &[Candidate], k: &Keys) -> String {
    if cands.is_empty() {
        return match &w.gpu {
            Some(g) => format!(
                "{} is unplanned: its pinned GPU {g} has no available offer",
                w.name
            ),
            None => format!("{} is unplanned: no GPU offer is available", w.name),
        };
    }
    let evaluated: Vec<&Candidate> = cands.iter().filter(|c| !c.values.is_empty()).collect();
    let largest = evaluated.iter().max_by(|a, b| {
        (input.gpus[a.offer].vram_gib * input.gpus[a.offer].gpus_per_node)
            .total_cmp(&(input.gpus[b.offer].vram_gib * input.gpus[b.offer].gpus_per_node))
    });
    match largest {
        Some(c) => {
            let g = &input.gpus[c.offer];
            format!(
                "{} is unplanned: no offer fits. It needs {} GiB per replica with headroom; on the largest offer, {} ({} GiB × up to {}), {}. Lower the context, concurrency or precision, raise max_gpus, or add a larger offer",
                w.name,
                format_number((c.values[k.required] * 10.0).round() / 10.0),
                g.label(),
                format_number(g.vram_gib),
                format_number(g.gpus_per_node),
                c.exclusion.clone().unwrap_or_default()
            )
        }
        None => format!("{} is unplanned: no offer can run it", w.name),
    }
}

/// Runs the portfolio formulas over the chosen candidates; returns them with the planned sums.
fn portfolio(
    engine: &Engine,
    input: &Input,
    plans: &[WorkloadPlan],
    columns: &[FormulaColumn],
) -> Result<Vec<(String, f64)>> {
    let p = &engine.portfolio;
    let mut values = vec![0.0; p.width()];
    inputs::bind_assumptions(p, &input.assumptions, &mut values);
    let mut planned = [0.0f64; 4];
    let mut sums = vec![0.0; columns.len()];
    let mut count = 0.0;
    for wp in plans {
        if let Some(ch) = &wp.chosen {
            count += 1.0;
            let c = &wp.candidates[ch.candidate];
            for (s, v) in sums.iter_mut().zip(&c.values) {
                *s += v;
            }
            for (acc, v) in
                planned
                    .iter_mut()
                    .zip([ch.gpu_cost, ch.cold_start_cost, ch.rework_cost, ch.tco])
            {
                *acc += v;
            }
        }
    }
    let mut set = |name: &str, v: f64| {
        if let Some(s) = p.slot(name) {
            if s < p.inputs() {
                values[s] = v;
            }
        }
    };
    for (col, s) in columns.iter().zip(&sums) {
        if !col.is_bool {
            set(&format!("total_{}", col.name), *s);
        }
    }
    for (name, v) in inputs::PLANNED.iter().zip(planned) {
        set(&format!("total_{name}"), v);
    }
    set("workloads_planned", count);
    set("workloads_unplanned", plans.len() as f64 - count);
    let mut scratch = p.scratch();
    p.eval(&mut values, &mut scratch).map_err(|e| {
        let d = engine.portfolio_def(e.def);
        Error::input(&input.file, d.location(), format!("is {} (not a finite number) for the portfolio: look for a division by zero in `{}`", e.value, d.expression))
    })?;
    let mut out: Vec<(String, f64)> = p
        .order
        .iter()
        .map(|f| (f.name.clone(), values[f.slot]))
        .collect();
    for (name, v) in inputs::PLANNED.iter().zip(planned) {
        out.push((name.to_string(), v));
    }
    out.push((
        "storage_cost".to_string(),
        columns
            .iter()
            .position(|c| c.name == "storage_cost")
            .map_or(0.0, |i| sums[i]),
    ));
    out.push((
        "egress_cost".to_string(),
        columns
            .iter()
            .position(|c| c.name == "egress_cost")
            .map_or(0.0, |i| sums[i]),
    ));
    Ok(out)
}

/// One formula's line in a trace.
#[derive(Debug, Clone, Serialize)]
pub struct TraceLine {
    pub name: String,
    pub expression: String,
    pub value: f64,
    pub is_bool: bool,
    pub unit: String,
}

/// Every candidate formula of one workload on one offer, in evaluation order.
#[derive(Debug, Clone, Serialize)]
pub struct Trace {
    pub workload: String,
    pub offer: String,
    pub lines: Vec<TraceLine>,
}

/// The formula trace of workload `name` on `gpu` (default: the chosen offer, else the first).
pub fn trace(input: Input, name: &str, gpu: Option<&str>) -> Result<Trace> {
    let Some(wi) = input
        .workloads
        .iter()
        .position(|w| w.name == name || w.name.eq_ignore_ascii_case(name))
    else {
        let hint = crate::suggest::hint(name, input.workloads.iter().map(|w| w.name.as_str()));
        return Err(Error::Usage(format!(
            "there is no workload named \"{name}\" in {}{hint}",
            input.file.display()
        )));
    };
    let offer = match gpu {
        Some(g) => input
            .gpus
            .iter()
            .position(|o| {
                crate::model::normalize(&o.gpu) == crate::model::normalize(g)
                    || crate::model::normalize(&o.label()) == crate::model::normalize(g)
            })
            .ok_or_else(|| {
                Error::Usage(format!(
                    "there is no GPU offer \"{g}\"{}",
                    crate::suggest::hint(g, input.gpus.iter().map(|o| o.gpu.as_str()))
                ))
            })?,
        None => {
            let plan = plan(input.clone())?;
            match plan.chosen(wi) {
                Some((c, _)) => c.offer,
                None => plan.workloads[wi].candidates.first().map_or(0, |c| c.offer),
            }
        }
    };
    let engine = Engine::compile(&input)?;
    let w = &input.workloads[wi];
    let mut values = engine.base_values(&input, w);
    let mut scratch = engine.candidate.scratch();
    engine
        .evaluate(&input, w, offer, &mut values, &mut scratch)
        .map_err(|p| Error::Input {
            file: input.file.clone(),
            problems: vec![p],
        })?;
    let lines = engine
        .candidate
        .order
        .iter()
        .map(|f| {
            let d = engine.candidate_def(f.def);
            TraceLine {
                name: f.name.clone(),
                expression: d.expression.clone(),
                value: values[f.slot],
                is_bool: f.ty == Ty::Bool,
                unit: d.unit.clone(),
            }
        })
        .collect();
    Ok(Trace {
        workload: w.name.clone(),
        offer: input.gpus[offer].label(),
        lines,
    })
}

#[cfg(test)]
mod tests;

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
pub mod ownership;
mod portfolio;
mod programs;
pub mod risks;
pub mod sensitivity;
mod trace;
pub mod year;

pub use advice::{Advice, Band};
pub use programs::Programs;
pub use trace::{trace, Trace, TraceLine};

use crate::error::{Error, Problem, Result};
use crate::formula::Ty;
use crate::lang::Lang;
use crate::model::{Input, Kind, Origin, Warning, Workload};
use choose::{choose, chosen_warnings};
use evaluate::{evaluate_workload, parallel_map};
use portfolio::portfolio;
pub use portfolio::{Planned, Totals};
use programs::Keys;

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

/// Candidate formulas the planner reads, with the type each must compute; the sheet may not
/// delete them.
pub const REQUIRED_CANDIDATE: [(&str, Ty); 30] = [
    ("fits", Ty::Bool),
    ("gpus_per_replica", Ty::Num),
    ("replicas", Ty::Num),
    ("instances", Ty::Num),
    ("gpus_total", Ty::Num),
    ("cost_on_demand", Ty::Num),
    ("cost_monthly", Ty::Num),
    ("cost_spot", Ty::Num),
    ("cost_reserved", Ty::Num),
    ("cost_mixed", Ty::Num),
    ("allow_on_demand", Ty::Bool),
    ("allow_monthly", Ty::Bool),
    ("allow_spot", Ty::Bool),
    ("allow_reserved", Ty::Bool),
    ("allow_mixed", Ty::Bool),
    ("storage_cost", Ty::Num),
    ("egress_cost", Ty::Num),
    ("weights_gib", Ty::Num),
    ("kv_cache_gib", Ty::Num),
    ("activation_gib", Ty::Num),
    ("grads_gib", Ty::Num),
    ("optimizer_gib", Ty::Num),
    ("overhead_gib", Ty::Num),
    ("total_vram_gib", Ty::Num),
    ("required_vram_gib", Ty::Num),
    ("utilization", Ty::Num),
    ("concurrency_per_replica", Ty::Num),
    ("redundancy_used", Ty::Num),
    ("run_hours", Ty::Num),
    ("replica_vram_gib", Ty::Num),
];

/// Whether two names are the same, in a `const fn` (so that a name is checked when compiled).
pub const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The position of `name` in a list of required formulas; in a `const` item, a name the list
/// lacks fails the build.
const fn required_position(list: &[(&str, Ty)], name: &str) -> usize {
    let mut i = 0;
    while i < list.len() {
        if same_name(list[i].0, name) {
            return i;
        }
        i += 1;
    }
    panic!("not a required formula")
}

/// A required candidate formula (one of `REQUIRED_CANDIDATE`), named when compiled: every plan
/// has it, so an evaluated candidate always has its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need(usize);

impl Need {
    /// The required formula `name`; in a `const` item, a name the list lacks fails the build.
    pub const fn of(name: &str) -> Need {
        Need(required_position(&REQUIRED_CANDIDATE, name))
    }

    pub fn name(self) -> &'static str {
        REQUIRED_CANDIDATE[self.0].0
    }

    pub const REPLICAS: Need = Need::of("replicas");
    pub const INSTANCES: Need = Need::of("instances");
    pub const GPUS_TOTAL: Need = Need::of("gpus_total");
    pub const RUN_HOURS: Need = Need::of("run_hours");
    pub const STORAGE_COST: Need = Need::of("storage_cost");
    pub const EGRESS_COST: Need = Need::of("egress_cost");
    pub const TOTAL_VRAM_GIB: Need = Need::of("total_vram_gib");
    pub const REQUIRED_VRAM_GIB: Need = Need::of("required_vram_gib");
    pub const REPLICA_VRAM_GIB: Need = Need::of("replica_vram_gib");
}

/// A required portfolio formula (one of `REQUIRED_PORTFOLIO`), named when compiled: every plan
/// computes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeedSum(usize);

impl NeedSum {
    /// The required portfolio formula `name`; in a `const` item, a name the list lacks fails
    /// the build.
    pub const fn of(name: &str) -> NeedSum {
        NeedSum(required_position(&REQUIRED_PORTFOLIO, name))
    }

    pub fn name(self) -> &'static str {
        REQUIRED_PORTFOLIO[self.0].0
    }

    pub const TRIAL_RESERVE_COST: NeedSum = NeedSum::of("trial_reserve_cost");
    pub const OPS_COST: NeedSum = NeedSum::of("ops_cost");
    pub const TOTAL: NeedSum = NeedSum::of("total");
    pub const TOTAL_WITH_MARGIN: NeedSum = NeedSum::of("total_with_margin");
}

/// Portfolio formulas the planner reads (numbers).
pub const REQUIRED_PORTFOLIO: [(&str, Ty); 4] = [
    ("trial_reserve_cost", Ty::Num),
    ("ops_cost", Ty::Num),
    ("total", Ty::Num),
    ("total_with_margin", Ty::Num),
];

/// One candidate-scope formula as a column of values.
#[derive(Debug, Clone)]
pub struct FormulaColumn {
    pub name: String,
    pub unit: String,
    pub is_bool: bool,
}

/// A text in English and in Chinese: the English for the JSON and an English output, the
/// Chinese for a `--lang zh` workbook and terminal (as a Warning's `zh`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Said {
    pub en: String,
    pub zh: String,
}

impl Said {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Said {
        Said {
            en: en.into(),
            zh: zh.into(),
        }
    }

    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        lang.t(&self.en, &self.zh)
    }
}

/// One (workload, offer) evaluated.
/// Why a candidate cannot be chosen.
#[derive(Debug, Clone, PartialEq)]
pub enum Exclusion {
    /// The offer's platform cannot run the workload's formats: what it lacks and what to do.
    Incompatible(Said),
    /// It does not fit on the offer: what is short.
    Misfit(Said),
    /// No billing mode is offered and allowed.
    NoMode,
}

impl Exclusion {
    /// The reason in English, as the JSON and an English Candidates tab say it.
    pub fn text(&self) -> &str {
        self.said(Lang::En)
    }

    /// The reason in `lang`, as the Candidates tab and the warnings say it.
    pub fn said(&self, lang: Lang) -> &str {
        match self {
            Exclusion::Incompatible(t) | Exclusion::Misfit(t) => t.get(lang),
            Exclusion::NoMode => lang.t(
                "no billing mode is offered and allowed (no price, or spot not allowed)",
                "没有可用的计费方式（报价没有价格，或不允许竞价）",
            ),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Candidate {
    /// Index into `input.gpus`.
    pub offer: usize,
    /// Values of the candidate formulas, aligned with `Plan::columns`; empty if excluded before evaluation.
    pub values: Vec<f64>,
    /// Why the candidate cannot be chosen, if it cannot.
    pub exclusion: Option<Exclusion>,
    /// Monthly GPU cost per mode; `None` where the mode is not offered or not allowed.
    pub costs: [Option<f64>; Mode::ALL.len()],
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
#[derive(Debug, Clone)]
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
    pub inputs: Vec<f64>,
}

impl Chosen {
    /// The GPU cost of the work itself: the chosen mode's cost less its cold starts and rounding
    /// and its spot rework (the TCO tab's "GPU time" line).
    pub fn work_cost(&self) -> f64 {
        self.gpu_cost - self.cold_start_cost - self.rework_cost
    }
}

#[derive(Debug, Clone)]
pub struct WorkloadPlan {
    pub candidates: Vec<Candidate>,
    pub chosen: Option<Chosen>,
    /// Why nothing was chosen, when nothing was (also a warning at the workload's cell).
    pub unplanned: Option<Said>,
}

/// The requests a day at which an API costing `api_cost` a month at `per_day` requests a day
/// would cost the self-hosted `tco` (0 when the API costs nothing).
pub fn api_breakeven(per_day: f64, tco: f64, api_cost: f64) -> f64 {
    if api_cost > 0.0 {
        per_day * tco / api_cost
    } else {
        0.0
    }
}

/// The whole plan: the input, every candidate, the choices, the portfolio totals and warnings.
#[derive(Debug, Clone)]
pub struct Plan {
    pub input: Input,
    /// The inputs of candidate formulas (workload, model, GPU and assumption values).
    pub inputs: Vec<FormulaColumn>,
    pub columns: Vec<FormulaColumn>,
    /// Parallel to `input.workloads`.
    pub workloads: Vec<WorkloadPlan>,
    /// The portfolio formulas over every workload, and the planned sums.
    pub totals: Totals,
    /// The twelve months from plan_start.
    pub year: year::Year,
    /// Candidates kept per workload at most, and how many workloads had more.
    pub kept: usize,
    pub cut: usize,
    pub warnings: Vec<Warning>,
    /// The fleet (jobs on the idle hours of service cards, services sharing a card), when it
    /// saves anything and the Assumption `fleet` is yes.
    pub fleet: Option<fleet::FleetPlan>,
    /// The budget month against the Assumption `budget_monthly` when it is set, with the
    /// least-harm cuts when it is over.
    pub cuts: Option<cuts::Cuts>,
    /// Seconds spent evaluating and planning, for `--timings`.
    pub timings: Vec<(&'static str, f64)>,
    /// Column of each candidate formula by name.
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

    /// A required formula's value for an evaluated candidate (a chosen one always is); NaN for
    /// a candidate excluded before evaluation, which has no values.
    pub fn need(&self, c: &Candidate, n: Need) -> f64 {
        self.value(c, n.name()).unwrap_or(f64::NAN)
    }

    /// A required portfolio formula's value (NaN only if the portfolio was never evaluated).
    pub fn sum(&self, n: NeedSum) -> f64 {
        self.totals.sum(n)
    }

    /// A portfolio formula's value, or a planned sum's.
    pub fn total(&self, name: &str) -> Option<f64> {
        self.totals.get(name)
    }

    /// The chosen candidate of workload `w`, with its choice.
    pub fn chosen(&self, w: usize) -> Option<(&Candidate, &Chosen)> {
        let wp = &self.workloads[w];
        wp.chosen.as_ref().map(|c| (&wp.candidates[c.candidate], c))
    }

    /// The committed part of workload `w`'s GPU cost, paid whatever the use, in a month it
    /// costs in: all of it for monthly and reserved cards; for base plus burst its monthly
    /// base, `base_instances` × `gpus_per_replica` cards at the offer's monthly price (the
    /// burst follows the hours); 0 on demand and on spot, or when it is not planned. The
    /// Summary's committed line, the Year tab's and JSON `committed` read it.
    pub fn committed(&self, w: usize) -> f64 {
        let Some((c, ch)) = self.chosen(w) else {
            return 0.0;
        };
        match ch.mode {
            // A card bought is paid whatever the use: its depreciation, power and hosting.
            Mode::Monthly | Mode::Reserved | Mode::Owned => ch.gpu_cost,
            Mode::Mixed => self
                .base_cards(c)
                .map_or(0.0, |(cards, price)| cards * price),
            Mode::OnDemand | Mode::Spot => 0.0,
        }
    }

    /// Month `k` of the Year tab's GPU spend as (committed, pay-as-you-go): each workload's
    /// [`Plan::committed`] part and the rest of its GPU cost, in the months it costs in.
    pub fn month_gpus(&self, k: usize) -> (f64, f64) {
        let (mut committed, mut payg) = (0.0, 0.0);
        for w in 0..self.workloads.len() {
            let Some((_, ch)) = self.chosen(w) else {
                continue;
            };
            if self.year.costs[w].get(k).copied().unwrap_or(false) {
                let c = self.committed(w);
                committed += c;
                payg += ch.gpu_cost - c;
            }
        }
        (committed, payg)
    }

    /// The month's GPU spend as (committed, pay-as-you-go), every planned workload counted.
    pub fn gpus_split(&self) -> (f64, f64) {
        let committed: f64 = (0..self.workloads.len()).map(|w| self.committed(w)).sum();
        let gpus: f64 = (0..self.workloads.len())
            .filter_map(|w| self.chosen(w))
            .map(|(_, ch)| ch.gpu_cost)
            .sum();
        (committed + 0.0, gpus - committed + 0.0)
    }

    /// Workload `w`'s cost per unit of the work it gives the volume of (#43 item 4): per 1,000
    /// requests and per million tokens where it gives `requests_per_day` (and its tokens), per
    /// item where it gives `items_per_month` (an image, a clip), per run for a training job's
    /// `runs_per_month`; its monthly TCO over the month's volume (`hours_in_month` / 24 days),
    /// unrounded (a million tokens may cost less than a cent; the Summary shows it to four
    /// significant digits there). Empty when it is not planned or gives no volume.
    pub fn unit_costs(&self, w: usize) -> Vec<UnitCost> {
        let Some((_, ch)) = self.chosen(w) else {
            return Vec::new();
        };
        let wl = &self.input.workloads[w];
        let n = &wl.numbers;
        let days = self.input.assumptions.number("hours_in_month", 730.0) / 24.0;
        let mut out = Vec::new();
        let mut push = |volume: f64, per: UnitOf| {
            if volume > 0.0 && volume.is_finite() && ch.tco > 0.0 {
                out.push(UnitCost {
                    amount: ch.tco / volume,
                    per,
                });
            }
        };
        if let Some(rpd) = n.requests_per_day {
            let requests = rpd * days;
            push(requests / 1000.0, UnitOf::ThousandRequests);
            let tokens = n.input_tokens.unwrap_or(0.0) + n.output_tokens.unwrap_or(0.0);
            push(requests * tokens / 1e6, UnitOf::MillionTokens);
        }
        if let Some(items) = n.items_per_month {
            push(
                items,
                match wl.kind {
                    Kind::ImageGen => UnitOf::Image,
                    Kind::VideoGen => UnitOf::Clip,
                    _ => UnitOf::Item,
                },
            );
        }
        if matches!(
            wl.kind,
            Kind::Lora | Kind::Qlora | Kind::FullFinetune | Kind::Pretrain
        ) {
            push(n.runs_per_month.unwrap_or(1.0).max(1.0), UnitOf::Run);
        }
        out
    }

    /// The tax on the month's budget with margin (`vat_rate`), each to the cent: (tax, paid,
    /// included). With `prices_include_vat` the budget already holds it: tax = budget −
    /// budget ÷ (1 + rate), paid = the budget; otherwise tax = budget × rate, paid = budget +
    /// tax. (0, budget, false) without a rate.
    pub fn tax(&self) -> (f64, f64, bool) {
        let a = &self.input.assumptions;
        let rate = a.number("vat_rate", 0.0);
        let budget = self.sum(NeedSum::TOTAL_WITH_MARGIN);
        let included = matches!(
            a.get("prices_include_vat").map(|x| &x.value),
            Some(crate::model::Value::Bool(true))
        );
        let c = crate::formula::cents;
        if rate <= 0.0 {
            (0.0, budget, included)
        } else if included {
            (c(budget - budget / (1.0 + rate)), budget, true)
        } else {
            let tax = c(budget * rate);
            (tax, c(budget + tax), false)
        }
    }

    /// A base-plus-burst candidate's monthly base: its cards and the offer's monthly price.
    pub fn base_cards(&self, c: &Candidate) -> Option<(f64, f64)> {
        let cards = self.value(c, "base_instances")? * self.value(c, "gpus_per_replica")?;
        Some((cards, self.input.gpus[c.offer].monthly?))
    }

    pub fn planned_count(&self) -> usize {
        self.workloads.iter().filter(|w| w.chosen.is_some()).count()
    }
}

/// A workload's cost per unit of its work ([`Plan::unit_costs`]).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct UnitCost {
    pub amount: f64,
    pub per: UnitOf,
}

/// The unit of a [`UnitCost`]; its JSON key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitOf {
    #[serde(rename = "1k_requests")]
    ThousandRequests,
    #[serde(rename = "1m_tokens")]
    MillionTokens,
    Image,
    Clip,
    Item,
    Run,
}

impl UnitOf {
    /// "/1k requests" as the Summary's column says it, after the amount.
    pub fn label(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (UnitOf::ThousandRequests, Lang::Zh) => "/千次请求",
            (UnitOf::ThousandRequests, _) => "/1k requests",
            (UnitOf::MillionTokens, Lang::Zh) => "/百万词元",
            (UnitOf::MillionTokens, _) => "/M tokens",
            (UnitOf::Image, Lang::Zh) => "/张图",
            (UnitOf::Image, _) => "/image",
            (UnitOf::Clip, Lang::Zh) => "/段视频",
            (UnitOf::Clip, _) => "/clip",
            (UnitOf::Item, Lang::Zh) => "/件",
            (UnitOf::Item, _) => "/item",
            (UnitOf::Run, Lang::Zh) => "/次训练",
            (UnitOf::Run, _) => "/training run",
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
    /// Unix seconds of the run: the Year tab starts the month after, unless plan_start says.
    pub now: i64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            keep: Some(DEFAULT_KEEP),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            now: crate::support::time::generation_time(),
        }
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
    let started = std::time::Instant::now();
    let keep = opts.keep.unwrap_or(usize::MAX);
    let evaluated = parallel_map(&input.workloads, opts.threads, |w| {
        evaluate_workload(programs, &input, w, &keys, keep)
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
    let plans = choose_all(programs, &input, evaluated, &keys, &mut warnings);
    exclusion_warnings(&plans.excluded, &mut warnings);
    let WorkloadPlans { workloads, cut, .. } = plans;
    choose::cuda_note(
        &input,
        input.workloads.iter().zip(&workloads).filter_map(|(w, p)| {
            p.chosen
                .as_ref()
                .map(|c| (w, p.candidates[c.candidate].offer))
        }),
        &mut warnings,
    );
    unread_assumption_warnings(programs, &input, &mut warnings);
    formula_and_price_warnings(&input, &mut warnings);

    let totals = portfolio(programs, &input, &workloads, &columns)?;
    let year = year::year(programs, &input, &workloads, &columns, opts.now)?;
    year::outside_warnings(&input, &workloads, &year, &mut warnings);
    example_price_warning(&input, &workloads, &mut warnings);
    let plan_s = started.elapsed().as_secs_f64();
    let started = std::time::Instant::now();
    // The columns by name, built once: the fleet and the cuts read formulas by name, and the
    // plan keeps the same index for its readers.
    let index: std::collections::HashMap<String, usize> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.clone(), i))
        .collect();
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
    let fleet_s = started.elapsed().as_secs_f64();
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
        c.inputs = programs.input_values(input, w, cand.offer, cand.values[keys.gpus_per_replica]);
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

/// One warning per group of GPUs excluded by precision support, naming the workloads concerned
/// (the first five, then how many more).
fn exclusion_warnings(excluded: &[ExcludedGroup], warnings: &mut Vec<Warning>) {
    for ((gpus, need), ws) in excluded {
        let (location, who, who_zh) = match ws.as_slice() {
            [one] => (one.cell.to_string(), one.name.clone(), one.name.clone()),
            many => {
                let names: Vec<&str> = many.iter().take(5).map(|w| w.name.as_str()).collect();
                let (more, more_zh) = if many.len() > 5 {
                    let n = many.len() - 5;
                    (format!(" and {n} more"), format!(" 等另外 {n} 个"))
                } else {
                    (String::new(), String::new())
                };
                (
                    many[0].cell.sheet.clone(),
                    format!("{} workloads ({}{more})", many.len(), names.join(", ")),
                    format!("{} 个负载（{}{more_zh}）", many.len(), names.join("、")),
                )
            }
        };
        let (need, need_zh) = (&need.en, &need.zh);
        warnings.push(Warning::warn(location, format!("{gpus} excluded for {who}: {need}; choose another precision (e.g. fp16) to consider them"))
            .with_zh(format!("{who_zh} 未考虑 {gpus}：{need_zh}；如需考虑这些 GPU，请改用其他精度（如 fp16）")));
    }
}

/// Warns of each numeric assumption of the user's own that no formula reads: most likely a
/// misspelt key.
fn unread_assumption_warnings(programs: &Programs, input: &Input, warnings: &mut Vec<Warning>) {
    let defaults = crate::catalog::assumptions(Lang::En);
    for a in &input.assumptions.items {
        if defaults.get(&a.key).is_none()
            && !programs.candidate.reads(&a.key)
            && !programs.portfolio.reads(&a.key)
            && !matches!(a.value, crate::model::Value::Text(_))
        {
            let keys = || defaults.items.iter().map(|d| d.key.as_str());
            let hint = crate::support::suggest::hint(&a.key, keys());
            let hint_zh = match crate::support::suggest::closest(&a.key, keys()) {
                c if c.is_empty() => String::new(),
                c => format!("；是否应为 {}？", c.join("、")),
            };
            let at = match &a.source {
                crate::model::Source::Set => format!("--set {}", a.key),
                other => other.to_string(),
            };
            warnings.push(
                Warning::warn(
                    at,
                    format!(
                        "the assumption {} is read by no formula, so it changes nothing{hint}",
                        a.key
                    ),
                )
                .with_zh(format!(
                    "参数 {} 没有被任何公式引用，不影响结果{hint_zh}",
                    a.key
                )),
            );
        }
    }
}

/// One warning when a chosen offer's prices are the built-in examples (provider `example`):
/// the Summary flags it on page 1, and the warning carries it to the Warnings tab, the JSON and
/// the terminal, naming the offers and how many workloads they price.
fn example_price_warning(input: &Input, plans: &[WorkloadPlan], warnings: &mut Vec<Warning>) {
    let mut offers: Vec<usize> = Vec::new();
    let mut workloads = 0;
    for wp in plans {
        let Some(ch) = &wp.chosen else {
            continue;
        };
        let offer = wp.candidates[ch.candidate].offer;
        if input.gpus[offer].is_example() {
            workloads += 1;
            if !offers.contains(&offer) {
                offers.push(offer);
            }
        }
    }
    let Some(&first) = offers.first() else {
        return;
    };
    let names: Vec<String> = offers.iter().map(|&o| input.gpus[o].label()).collect();
    let location = input.gpus[first]
        .cell
        .as_ref()
        .map_or("GPUs".to_string(), ToString::to_string);
    let en = if workloads == 1 {
        "1 workload is".to_string()
    } else {
        format!("{workloads} workloads are")
    };
    let zh = format!("{workloads} 个负载");
    warnings.push(
        Warning::warn(
            location,
            format!(
                "the prices of {} are the built-in examples, not quotes, and {en} priced at them: put your quotes in the GPUs sheet before the plan is approved",
                names.join(", ")
            ),
        )
        .with_zh(format!(
            "{} 的价格是内置示例，不是报价，{zh}按其计价：审批前请在算力报价表填入报价",
            names.join("、")
        )),
    );
}

/// Notes about the formulas and prices themselves: each default formula the sheet replaced,
/// then each billing mode no available offer has a price for.
fn formula_and_price_warnings(input: &Input, warnings: &mut Vec<Warning>) {
    for f in &input.formulas {
        if f.origin == Origin::Replaced {
            warnings.push(
                Warning::info(
                    f.location(),
                    format!(
                        "the default formula {} was replaced by the sheet's expression",
                        f.name
                    ),
                )
                .with_zh(format!("默认公式 {} 已被工作表中的表达式替换", f.name)),
            );
        }
    }
    // The rented modes of one price each (base plus burst needs two, and says nothing of its
    // own); owning is opt-in, so a sheet without purchase prices is not told about it.
    let rented = |m: &Mode| {
        let prices = m.spec().prices;
        prices.len() == 1 && prices[0].spec().per != crate::model::Per::Once
    };
    for m in Mode::ALL.into_iter().filter(rented) {
        let priced = input
            .gpus
            .iter()
            .filter(|g| g.available)
            .any(|g| m.is_priced(g));
        if !priced {
            warnings.push(
                Warning::info(
                    "GPUs",
                    format!(
                        "no offer has a {} price, so {} was not considered",
                        m.label(Lang::En),
                        m.label(Lang::En)
                    ),
                )
                .with_zh(format!(
                    "没有报价给出{}价格，因此未考虑{}",
                    m.label(Lang::Zh),
                    m.label(Lang::Zh)
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests;

//! The plan's types: what the planner reads of the formulas (the required names and their
//! positions), a candidate and its choice, a workload's plan and the whole plan with what it
//! says in money (committed and pay-as-you-go GPUs, unit costs).

use super::*;
use crate::formula::Ty;
use crate::lang::Lang;
use crate::model::{Input, Kind, Warning};

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

    /// The formula's name, as [`REQUIRED_CANDIDATE`] lists it.
    pub fn name(self) -> &'static str {
        REQUIRED_CANDIDATE[self.0].0
    }

    /// `replicas`: replicas without redundancy, the most that concurrency, throughput and the
    /// month's hours need (at least 1).
    pub const REPLICAS: Need = Need::of("replicas");
    /// `instances`: replicas with redundancy, rounded up.
    pub const INSTANCES: Need = Need::of("instances");
    /// `gpus_total`: the cards rented for the workload, instances × GPUs per replica.
    pub const GPUS_TOTAL: Need = Need::of("gpus_total");
    /// `run_hours`: the hours each instance runs a month.
    pub const RUN_HOURS: Need = Need::of("run_hours");
    /// `storage_cost`: cloud storage of weights, data and checkpoints, money a month.
    pub const STORAGE_COST: Need = Need::of("storage_cost");
    /// `egress_cost`: data transferred out, money a month.
    pub const EGRESS_COST: Need = Need::of("egress_cost");
    /// `total_vram_gib`: the memory one replica uses at peak, GiB (a measured `vram_gib`
    /// replaces the estimate).
    pub const TOTAL_VRAM_GIB: Need = Need::of("total_vram_gib");
    /// `required_vram_gib`: the memory to plan a replica for, GiB: the total plus headroom.
    pub const REQUIRED_VRAM_GIB: Need = Need::of("required_vram_gib");
    /// `replica_vram_gib`: the memory of one replica's cards together, GiB.
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

    /// The formula's name, as [`REQUIRED_PORTFOLIO`] lists it.
    pub fn name(self) -> &'static str {
        REQUIRED_PORTFOLIO[self.0].0
    }

    /// `trial_reserve_cost`: the reserve for failed runs and wrong picks, a share
    /// (`trial_reserve`) of the GPU cost, money a month.
    pub const TRIAL_RESERVE_COST: NeedSum = NeedSum::of("trial_reserve_cost");
    /// `ops_cost`: people's time running the GPUs, `ops_hours_month` × `ops_hourly_rate`.
    pub const OPS_COST: NeedSum = NeedSum::of("ops_cost");
    /// `total`: the month's total cost of ownership before the safety margin.
    pub const TOTAL: NeedSum = NeedSum::of("total");
    /// `total_with_margin`: the total plus the safety margin, the budget to ask for a month.
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
    /// The formula's name (or the input's, for [`Plan::inputs`]).
    pub name: String,
    /// The Formulas sheet's `unit` column (`GiB`, `h`, `money`, …); empty for an input.
    pub unit: String,
    /// Whether the column holds booleans (non-zero true) rather than numbers.
    pub is_bool: bool,
}

pub use crate::labels::Said;
use crate::labels::{Label, Text};

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
        self.text_both().get(lang)
    }

    /// The reason in both languages.
    pub fn text_both(&self) -> Text<&str> {
        match self {
            Exclusion::Incompatible(t) | Exclusion::Misfit(t) => Text {
                en: t.en.as_str(),
                zh: t.zh.as_str(),
            },
            Exclusion::NoMode => Text {
                en: "no billing mode is offered and allowed (no price, or spot not allowed)",
                zh: "没有可用的计费方式（报价没有价格，或不允许竞价）",
            },
        }
    }
}

/// One (workload, offer) evaluated, at one replica size (`gpus_per_replica`).
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
    /// How the replica lays out a latent cache (the Assumptions' own, or a layout the engine
    /// offers that the planner tried).
    pub layout: Layout,
}

impl Candidate {
    /// Whether the candidate can be chosen: nothing excludes it.
    pub fn fits(&self) -> bool {
        self.exclusion.is_none()
    }
    /// The monthly GPU cost in mode `m`; `None` where the mode is not offered or not allowed.
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
    /// The billing mode chosen: the least TCO of the modes offered and allowed.
    pub mode: Mode,
    /// The candidate's GPU cost in the chosen mode (its `cost_<mode>` formula), money a month.
    pub gpu_cost: f64,
    /// Of the GPU cost, what pays for cold starts and billing rounding.
    pub cold_start_cost: f64,
    /// Of the GPU cost, what pays for spot rework.
    pub rework_cost: f64,
    /// The candidate's `storage_cost` formula, money a month.
    pub storage_cost: f64,
    /// The candidate's `egress_cost` formula, money a month.
    pub egress_cost: f64,
    /// The total cost of ownership a month: GPU, storage and egress cost together.
    pub tco: f64,
    /// Why it got its mode: utilization, band and the next best option.
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

/// The plan of one workload: its candidates and the one chosen, if any.
#[derive(Debug, Clone)]
pub struct WorkloadPlan {
    /// The candidates kept for the Candidates tab (at most [`Plan::kept`]), best first;
    /// [`Chosen::candidate`] indexes them.
    pub candidates: Vec<Candidate>,
    /// The choice; `None` when no candidate fits with a mode offered and allowed.
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
    /// The input planned: the workbook typed, with the run's changes applied.
    pub input: Input,
    /// The inputs of candidate formulas (workload, model, GPU and assumption values).
    pub inputs: Vec<FormulaColumn>,
    /// The candidate formulas, in slot order after the inputs: [`Candidate::values`] is
    /// aligned with them.
    pub columns: Vec<FormulaColumn>,
    /// Parallel to `input.workloads`.
    pub workloads: Vec<WorkloadPlan>,
    /// The portfolio formulas over every workload, and the planned sums.
    pub totals: Totals,
    /// The twelve months from plan_start.
    pub year: year::Year,
    /// Candidates kept per workload at most, and how many workloads had more.
    pub kept: usize,
    /// How many workloads had more candidates than `kept`, the rest not kept.
    pub cut: usize,
    /// What the planner warns of; the run's own notes are in
    /// [`Calc::notes`](crate::calc::Calc::notes).
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
    pub(super) index: std::collections::HashMap<String, usize>,
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

    /// The cache layout workload `w`'s chosen replica uses, when it is one the planner chose
    /// over the Assumptions' (`None` otherwise, and when it is not planned), with the engine's
    /// launch flags for it (`-tp 8 -dcp 8`).
    pub fn layout(&self, w: usize) -> Option<(Layout, String)> {
        let (c, _) = self.chosen(w)?;
        let size = self.value(c, "gpus_per_replica")?;
        let engine = self.input.workloads[w].engine.as_deref();
        c.layout.flags(engine, size).map(|f| (c.layout, f))
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

    /// How many workloads have a chosen candidate.
    pub fn planned_count(&self) -> usize {
        self.workloads.iter().filter(|w| w.chosen.is_some()).count()
    }
}

/// A workload's cost per unit of its work ([`Plan::unit_costs`]).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct UnitCost {
    /// The workload's monthly TCO over the month's volume of `per`, money per unit, unrounded.
    pub amount: f64,
    /// The unit the amount is per.
    pub per: UnitOf,
}

/// The unit of a [`UnitCost`]; its JSON key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitOf {
    /// Per 1,000 requests (`requests_per_day`); JSON `1k_requests`.
    #[serde(rename = "1k_requests")]
    ThousandRequests,
    /// Per million tokens, input and output together; JSON `1m_tokens`.
    #[serde(rename = "1m_tokens")]
    MillionTokens,
    /// Per generated image (`items_per_month` of an image-generation workload).
    Image,
    /// Per generated video clip (`items_per_month` of a video-generation workload).
    Clip,
    /// Per item (`items_per_month` of another kind of workload).
    Item,
    /// Per training run (`runs_per_month`, at least 1).
    Run,
}

impl UnitOf {
    /// "/1k requests" as the Summary's column says it, after the amount.
    pub const fn label(self) -> Label {
        match self {
            UnitOf::ThousandRequests => Label::new("/1k requests", "/千次请求"),
            UnitOf::MillionTokens => Label::new("/M tokens", "/百万词元"),
            UnitOf::Image => Label::new("/image", "/张图"),
            UnitOf::Clip => Label::new("/clip", "/段视频"),
            UnitOf::Item => Label::new("/item", "/件"),
            UnitOf::Run => Label::new("/training run", "/次训练"),
        }
    }
}

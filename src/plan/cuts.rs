//! The downgrade plan (seed 001 §6.3, 降级方案): when the budget month's budget with margin
//! (less the fleet's saving) is over the Assumption `budget_monthly`, the least-harm set of cuts
//! that brings it within, and every other cut as an alternative. Each cut is a change to one
//! workload (spot, a lower precision, no redundancy, an API, postponing it) that the plan is
//! re-made with: the workload re-evaluated and re-chosen, the portfolio's totals and the fleet
//! re-computed over the month's workloads, so its saving is what the `--set` it names would
//! save. Pure: the compiled formulas and the fleet's packing, nothing else.

use super::choose::choose;
use super::evaluate::evaluate_workload;
use super::portfolio::{totals_of, Sums};
use super::programs::{Keys, Programs};
use super::year::costs_in;
use super::{Candidate, Chosen, FormulaColumn, NeedSum, WorkloadPlan};
use crate::model::{CutAction, Input, Kind, Month, Value, Warning, Workload};
use serde::Serialize;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// Sets of cuts the search bounds at most: past it the search stops with what it found.
const MAX_NODES: usize = 50_000;
/// Combinations re-planned at most (each re-packs the fleet on the GPUs its cuts touch).
const MAX_PLANS: usize = 400;
/// Workloads cut at most, the dearest of the month: past them the others are left as they are.
const MAX_WORKLOADS: usize = 256;
/// Workloads of the month on one GPU at most for a cut to re-pack its fleet: past it (a pack
/// of many may take the fleet's whole time limit) the GPU's fleet saving is kept as it was.
const MAX_PACK: usize = 32;
/// Packs of the fleet the cuts make at most (each may take the fleet's time limit).
const MAX_PACKS: usize = 256;
/// A saving below a cent is none.
const CENT: f64 = 0.005;

/// The budget month, what it is over by, the chosen cuts and the other alternatives.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cuts {
    /// The Assumption budget_monthly.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub budget: f64,
    /// The month it is for (the Assumption budget_month, YYYY-MM).
    pub month: String,
    /// The budget the plan needs in that month: the total with safety margin of the workloads
    /// that cost in it, less the fleet's saving over them.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub planned: f64,
    /// Whether the chosen cuts bring it within the budget (true when it is already within).
    pub met: bool,
    /// Whether the search went through every combination it had to (false: bounded, the best
    /// found is kept).
    pub complete: bool,
    /// The chosen cuts first (mildest first, `total_after` cumulated), then every other cut,
    /// mildest first, each with what it alone saves. Empty when the plan is within the budget.
    pub cuts: Vec<Cut>,
}

impl Cuts {
    /// Whether the plan is over the budget (the cuts' section and warning show then).
    pub fn over(&self) -> bool {
        self.planned > self.budget
    }

    /// The chosen cuts.
    pub fn chosen(&self) -> impl Iterator<Item = &Cut> {
        self.cuts.iter().filter(|c| c.chosen)
    }

    /// The budget after every chosen cut (the plan's own without one).
    pub fn after(&self) -> f64 {
        self.chosen().last().map_or(self.planned, |c| c.total_after)
    }
}

/// One cut: what to do to which workload, what it saves a month, its risk, and the budgets
/// after it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cut {
    /// The name of the workload cut, as the Workloads sheet gives it.
    pub workload: String,
    /// A word of the Assumption `cut_order`: `spot`, `fp8`, `int8`, `no_redundancy`, `int4`,
    /// `api` or `postpone`.
    pub action: &'static str,
    /// What to change, in words.
    pub change: String,
    /// What this cut alone saves a month: `planned` less `budget_after`.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub saving: f64,
    /// The risk the cut takes, in English (the JSON's; `zh` holds the Chinese).
    pub risk: String,
    /// For a chosen cut, the budget after it and every chosen cut above it (re-planned
    /// together); null for an alternative.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub total_after: f64,
    /// Whether it is in the least-harm set that meets the budget.
    pub chosen: bool,
    /// Its place in `cut_order`, 1 the mildest.
    pub harm: usize,
    /// The change as `gpuplan calc --set` arguments (`full-finetune-20b.start_month=2027-02`);
    /// empty for `api`, which no workbook column says.
    pub set: Vec<String>,
    /// The budget month's budget with this cut alone: what `calc` with its `set` gives.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub budget_after: f64,
    /// The change and the risk in Chinese, for a `--lang zh` workbook and terminal (the JSON
    /// keeps the English, as a Warning's message).
    #[serde(skip)]
    pub zh: (String, String),
}

impl Cut {
    /// What to change, in the language of the output.
    pub fn change(&self, lang: crate::lang::Lang) -> &str {
        match lang {
            crate::lang::Lang::Zh => &self.zh.0,
            _ => &self.change,
        }
    }

    /// The risk the cut takes, in the language of the output.
    pub fn risk(&self, lang: crate::lang::Lang) -> &str {
        match lang {
            crate::lang::Lang::Zh => &self.zh.1,
            _ => &self.risk,
        }
    }

    /// The `--set` arguments as a command line writes them (`--set a=1 --set b=2`).
    pub fn set_args(&self) -> String {
        self.set
            .iter()
            .map(|s| format!("--set {s}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// What the cuts re-plan with: the plan's inputs and its chosen candidates.
pub(super) struct Context<'a> {
    pub programs: &'a Programs,
    pub input: &'a Input,
    pub plans: &'a [WorkloadPlan],
    pub columns: &'a [FormulaColumn],
    pub keys: &'a Keys,
    /// A candidate formula's value by name.
    pub value: &'a dyn Fn(&Candidate, &str) -> Option<f64>,
    /// An input of a chosen candidate's formulas by name (the fleet reads the engine's
    /// gpu_memory_utilization).
    pub input_of: &'a dyn Fn(&super::Chosen, &str) -> Option<f64>,
    /// The Year tab's first month (a workload without start_month starts then).
    pub start: Month,
}

impl<'a> Context<'a> {
    /// How the fleet reads the re-planned workloads.
    fn readers(&self) -> super::fleet::Readers<'a> {
        super::fleet::Readers {
            value: self.value,
            input: self.input_of,
        }
    }
}

/// One cut of one workload, re-planned.
struct Alt {
    workload: usize,
    action: CutAction,
    /// Index in cut_order (0 the mildest).
    harm: usize,
    /// The workload's plan with the change: its chosen candidate alone, nothing chosen when it
    /// no longer costs in the month.
    plan: WorkloadPlan,
    runs: bool,
    /// A cost outside the plan it adds (an API's bill).
    extra: f64,
    set: Vec<String>,
    change: [String; 2],
    risk: [&'static str; 2],
    after: f64,
    fleet: f64,
}

/// A pack of the fleet: a GPU and its workloads, each as planned (0) or with a cut (the cut's
/// action + 1).
type PackKey = (String, Vec<(usize, u8)>);

/// The month's plan as the cuts re-plan it: each workload's chosen candidate alone (nothing
/// chosen where it does not cost in the month), their portfolio sums (a cut takes its
/// workload's out and puts the changed one in), and the fleet. A job moves, and a service
/// shares a card, only on its own GPU, so a cut re-packs only the GPUs it leaves and takes, and
/// the month's fleet saving changes by theirs (a pack of the same workloads is kept, not
/// repeated). With the fleet's packing exact (proven optimal), that is the saving a re-plan
/// with the cut's `--set` finds.
struct Replans<'a> {
    cx: &'a Context<'a>,
    plans: Vec<WorkloadPlan>,
    sums: Sums,
    /// The GPU of each workload's chosen offer in the month (None: it does not cost in it).
    gpu: Vec<Option<String>>,
    /// The month's fleet saving (packed as a whole; a cut changes it by what re-packing the
    /// GPUs it touches changes theirs).
    fleet: f64,
    packs: RefCell<HashMap<PackKey, f64>>,
    /// Whether some cut's fleet was taken as it was, not re-packed ([`Replans::repacks`]).
    estimated: Cell<bool>,
    /// The GPUs whose fleet in the month shares cards, packed to a proven optimum.
    proven: RefCell<Vec<String>>,
}

impl<'a> Replans<'a> {
    fn new(cx: &'a Context<'a>, month: Month) -> Replans<'a> {
        let input = cx.input;
        let plans: Vec<WorkloadPlan> = cx
            .plans
            .iter()
            .zip(&input.workloads)
            .map(|(wp, w)| alone(wp).filter(|p| costs_in(input, w, p, cx.start, month).0))
            .map(|p| p.unwrap_or_else(nothing))
            .collect();
        let mut sums = Sums::new(cx.columns.len());
        for (wp, (w, full)) in plans.iter().zip(input.workloads.iter().zip(cx.plans)) {
            // An unplanned workload counts as one where it would cost (the Year tab's rule).
            if wp.chosen.is_some()
                || (full.chosen.is_none() && costs_in(input, w, full, cx.start, month).0)
            {
                sums.add(wp, 1.0);
            }
        }
        let gpu = plans.iter().map(|wp| gpu_of(input, wp)).collect();
        let mut r = Replans {
            cx,
            plans,
            sums,
            gpu,
            fleet: 0.0,
            packs: RefCell::new(HashMap::new()),
            estimated: Cell::new(false),
            proven: RefCell::new(Vec::new()),
        };
        // The month's fleet, packed as a whole (as the plan packs its own).
        let mut scratch = Vec::new();
        r.fleet = super::fleet_for(input, &r.plans, &cx.readers(), 0.0, &mut scratch)
            .map_or(0.0, |f| f.saving);
        r
    }

    /// The fleet's saving on GPU `gpu` with the cuts `combo` made.
    fn pack(&self, gpu: &str, combo: &[&Alt]) -> f64 {
        let mut members: Vec<(usize, u8)> = (0..self.plans.len())
            .filter(|&i| self.gpu[i].as_deref() == Some(gpu))
            .filter(|&i| combo.iter().all(|a| a.workload != i))
            .map(|i| (i, 0))
            .collect();
        members.extend(
            combo
                .iter()
                .filter(|a| a.runs && gpu_of(self.cx.input, &a.plan).as_deref() == Some(gpu))
                .map(|a| (a.workload, a.action as u8 + 1)),
        );
        members.sort_unstable();
        let key = (gpu.to_string(), members);
        if let Some(v) = self.packs.borrow().get(&key) {
            return *v;
        }
        let mut plans: Vec<WorkloadPlan> = (0..self.plans.len()).map(|_| nothing()).collect();
        for &(i, tag) in &key.1 {
            plans[i] = match tag {
                0 => self.plans[i].clone(),
                _ => combo
                    .iter()
                    .find(|a| a.workload == i)
                    .map_or_else(nothing, |a| a.plan.clone()),
            };
        }
        // A trial's fleet warnings are not the plan's.
        let mut scratch = Vec::new();
        let fleet = super::fleet_for(self.cx.input, &plans, &self.cx.readers(), 0.0, &mut scratch);
        let saving = fleet.as_ref().map_or(0.0, |f| f.saving);
        if fleet.is_some_and(|f| f.solver.optimal) && combo.is_empty() {
            self.proven.borrow_mut().push(gpu.to_string());
        }
        self.packs.borrow_mut().insert(key, saving);
        saving
    }

    /// Whether a cut re-packs the fleet on GPU `gpu` (of at most [`MAX_PACK`] workloads): where
    /// the month's fleet shares its cards and its packing was proven optimal, within
    /// [`MAX_PACKS`] packs. A packing that found nothing to share, or ran into the
    /// solver's limits, may have taken the fleet's whole time limit, and each re-pack would too.
    fn repacks(&self, gpu: &str) -> bool {
        self.proven.borrow().iter().any(|g| g == gpu) && self.packs.borrow().len() < MAX_PACKS
    }

    /// The month's budget with the cuts `combo` made, and the fleet's saving in it: the
    /// portfolio's total with safety margin, less the fleet's saving, plus what the cuts add
    /// outside the plan (an API's bill); `None` when the portfolio has no value.
    fn after(&self, combo: &[&Alt]) -> Option<(f64, f64)> {
        let mut sums = self.sums.clone();
        let mut extra = 0.0;
        let mut gpus: Vec<String> = Vec::new();
        for a in combo {
            sums.add(&self.plans[a.workload], -1.0);
            if a.runs {
                sums.add(&a.plan, 1.0);
            }
            extra += a.extra;
            gpus.extend(self.gpu[a.workload].clone());
            gpus.extend(gpu_of(self.cx.input, &a.plan).filter(|_| a.runs));
        }
        gpus.sort();
        gpus.dedup();
        let totals = totals_of(self.cx.programs, self.cx.input, self.cx.columns, &sums).ok()?;
        let with_margin = totals.sum(NeedSum::TOTAL_WITH_MARGIN);
        let mut fleet = self.fleet;
        for g in &gpus {
            let size = self.gpu.iter().filter(|x| x.as_deref() == Some(g)).count();
            if size > MAX_PACK {
                // The GPU's fleet is taken as it was.
                self.estimated.set(true);
                continue;
            }
            let before = self.pack(g, &[]);
            if !self.repacks(g) {
                // Taken as it was too: nothing where it shared nothing.
                if before > 0.0 || self.packs.borrow().len() >= MAX_PACKS {
                    self.estimated.set(true);
                }
                continue;
            }
            fleet += self.pack(g, combo) - before;
        }
        Some((with_margin - fleet + extra, fleet))
    }
}

/// The GPU of a plan's chosen offer.
fn gpu_of(input: &Input, wp: &WorkloadPlan) -> Option<String> {
    let ch = wp.chosen.as_ref()?;
    Some(input.gpus[wp.candidates[ch.candidate].offer].gpu.clone())
}

/// The cuts of a plan when the Assumption budget_monthly is set: `None` without it (or when the
/// month's portfolio has no value), the month's budget without cuts when it is within.
pub(super) fn cuts(cx: &Context, warnings: &mut Vec<Warning>) -> Option<Cuts> {
    let input = cx.input;
    let budget = input.assumptions.number("budget_monthly", f64::NAN);
    if budget.is_nan() {
        return None;
    }
    let month = super::year::budget_month(input, cx.start);
    let order = cut_order(input);
    let rp = Replans::new(cx, month);
    let (planned, _) = rp.after(&[])?;
    let mut out = Cuts {
        budget,
        month: month.to_string(),
        planned,
        met: planned <= budget,
        complete: true,
        cuts: Vec::new(),
    };
    if out.met {
        return Some(out);
    }
    // The dearest workloads of the month are cut, at most MAX_WORKLOADS of them.
    let mut dearest: Vec<usize> = (0..input.workloads.len())
        .filter(|&i| rp.plans[i].chosen.is_some())
        .collect();
    if dearest.len() > MAX_WORKLOADS {
        let tco = |i: usize| rp.plans[i].chosen.as_ref().map_or(0.0, |c| c.tco);
        dearest.sort_by(|&a, &b| tco(b).total_cmp(&tco(a)).then(a.cmp(&b)));
        dearest.truncate(MAX_WORKLOADS);
        dearest.sort_unstable();
        out.complete = false;
    }
    let mut alts = Vec::new();
    for i in dearest {
        let w = &input.workloads[i];
        for (harm, &action) in order.iter().enumerate() {
            let Some(mut a) = alternative(cx, &rp.plans[i], i, w, action, month) else {
                continue;
            };
            a.harm = harm;
            let Some((after, fleet)) = rp.after(&[&a]) else {
                continue;
            };
            if planned - after > CENT {
                (a.after, a.fleet) = (after, fleet);
                alts.push(a);
            }
        }
    }
    // Mildest first, then the largest saving, then sheet order: the search's item order.
    alts.sort_by(|a, b| {
        a.harm
            .cmp(&b.harm)
            .then(a.after.total_cmp(&b.after))
            .then(a.workload.cmp(&b.workload))
    });
    let found = search(&rp, &alts, planned, budget);
    out.complete &= found.complete;
    let chosen = match found.combo {
        Some(c) => c,
        None => {
            // Nothing meets it: every workload's largest cut, as far as they go.
            let mut largest: Vec<usize> = Vec::new();
            for (k, a) in alts.iter().enumerate() {
                match largest
                    .iter_mut()
                    .find(|j| alts[**j].workload == a.workload)
                {
                    Some(j) if alts[*j].after > a.after => *j = k,
                    Some(_) => {}
                    None => largest.push(k),
                }
            }
            largest
        }
    };
    let mut chosen = chosen;
    // The items are in that order already: mildest, then the largest saving.
    chosen.sort_unstable();
    for n in 0..chosen.len() {
        let prefix: Vec<&Alt> = chosen[..=n].iter().map(|&k| &alts[k]).collect();
        let total = rp.after(&prefix).map_or(f64::NAN, |(t, _)| t);
        out.cuts
            .push(cut_of(input, &alts[chosen[n]], planned, total, true));
    }
    let mut others: Vec<&Alt> = (0..alts.len())
        .filter(|k| !chosen.contains(k))
        .map(|k| &alts[k])
        .collect();
    others.sort_by(|a, b| {
        a.harm
            .cmp(&b.harm)
            .then(a.after.total_cmp(&b.after))
            .then(a.workload.cmp(&b.workload))
    });
    out.cuts.extend(
        others
            .into_iter()
            .map(|a| cut_of(input, a, planned, f64::NAN, false)),
    );
    out.met = out.after() <= budget;
    out.complete &= !rp.estimated.get();
    warnings.push(warning(input, &out));
    Some(out)
}

/// The budget's warning: met by the chosen cuts, or over even with them.
fn warning(input: &Input, c: &Cuts) -> Warning {
    // Amounts as the terminal and the Summary write them (¥30,000.00), not 30000.00.
    let money = |v: f64| crate::model::money(&input.assumptions.currency(), v);
    let (b, over, m) = (money(c.budget), money(c.planned - c.budget), &c.month);
    let n = c.chosen().count();
    if c.met {
        Warning::warn(
            "Assumptions",
            format!("the budget {b} for {m} is exceeded by {over}: the {n} least-harm cut(s) listed in the Plan tab bring it within"),
        )
        .with_zh(format!("{m} 的预算 {b} 超出 {over}：方案页列出的 {n} 项伤害最小的降级方案可使其回到预算内"))
    } else {
        let left = money(c.after() - c.budget);
        Warning::warn(
            "Assumptions",
            format!("the budget {b} for {m} is exceeded by {over}, and every cut found leaves {left} over"),
        )
        .with_zh(format!(
            "{m} 的预算 {b} 超出 {over}，采取找到的全部削减后仍超出 {left}"
        ))
    }
}

/// The Assumption cut_order, least harm first (the reader checked its words).
fn cut_order(input: &Input) -> Vec<CutAction> {
    match input.assumptions.get("cut_order").map(|a| &a.value) {
        Some(Value::Text(t)) => {
            CutAction::parse_order(t).unwrap_or_else(|_| CutAction::ALL.to_vec())
        }
        _ => CutAction::ALL.to_vec(),
    }
}

/// A workload plan of nothing (a workload that does not cost in the month).
fn nothing() -> WorkloadPlan {
    WorkloadPlan {
        candidates: Vec::new(),
        chosen: None,
        unplanned: None,
    }
}

/// A workload plan of its chosen candidate alone (what the totals and the fleet read).
fn alone(wp: &WorkloadPlan) -> Option<WorkloadPlan> {
    let ch = wp.chosen.as_ref()?;
    Some(WorkloadPlan {
        candidates: vec![wp.candidates[ch.candidate].clone()],
        chosen: Some(Chosen {
            candidate: 0,
            inputs: Vec::new(),
            ..ch.clone()
        }),
        unplanned: None,
    })
}

/// A workload re-evaluated and re-chosen as `changed`, its chosen candidate alone.
fn replan(cx: &Context, changed: &Workload) -> Option<WorkloadPlan> {
    let monthly_min = cx.input.assumptions.number("monthly_min_utilization", 0.4);
    let e = evaluate_workload(cx.programs, cx.input, changed, cx.keys, 1).ok()?;
    let ch = choose(&e.candidates, &e.best, cx.keys, monthly_min)?;
    alone(&WorkloadPlan {
        candidates: e.candidates,
        chosen: Some(ch),
        unplanned: None,
    })
}

/// The cut `action` of workload `w` (the `i`th), when it applies: the changed workload
/// re-planned, the `--set` that makes it, and its words.
fn alternative(
    cx: &Context,
    now: &WorkloadPlan,
    i: usize,
    w: &Workload,
    action: CutAction,
    month: Month,
) -> Option<Alt> {
    let input = cx.input;
    let c = &now.candidates[0];
    let get = |n: &str| (cx.value)(c, n);
    let name = &w.name;
    let mut changed = w.clone();
    let mut set = Vec::new();
    let (mut extra, mut plan) = (0.0, None);
    let (change, risk): ([String; 2], [&str; 2]) = match action {
        CutAction::Spot => {
            // A service on spot is an outage when it is reclaimed: offline work only.
            if w.spot_ok || w.online {
                return None;
            }
            changed.spot_ok = true;
            set.push(format!("{name}.spot_ok=yes"));
            let p = replan(cx, &changed)?;
            let mode = p.chosen.as_ref()?.mode;
            if mode != super::Mode::Spot {
                return None;
            }
            plan = Some(p);
            (
                [
                    "run on spot instances".into(),
                    "改用竞价（Spot）实例".into(),
                ],
                [
                    "spot instances are reclaimed: the job must checkpoint and may finish later",
                    "竞价实例会被回收：任务须保存断点，完成时间可能推迟",
                ],
            )
        }
        CutAction::Fp8 | CutAction::Int8 | CutAction::Int4 => {
            let p = action.precision()?;
            if w.kind != Kind::Inference || p.bytes() >= w.precision.bytes() {
                return None;
            }
            changed.precision = p;
            set.push(format!("{name}.precision={}", p.key()));
            if changed.expert_precision.bytes() > p.bytes() {
                changed.expert_precision = p;
                // A blank expert_precision follows the precision; one written apart from it
                // must be set too. (One written equal to the precision cannot be told from a
                // blank here: its `--set` would need the expert_precision as well.)
                if w.expert_precision != w.precision {
                    set.push(format!("{name}.expert_precision={}", p.key()));
                }
            }
            let low = replan(cx, &changed)?;
            let (offer, mode) = {
                let ch = low.chosen.as_ref()?;
                (&input.gpus[low.candidates[0].offer], ch.mode)
            };
            let gpus = (cx.value)(&low.candidates[0], "gpus_total").unwrap_or(f64::NAN);
            let (p, gpu, mode) = (p.key(), offer.label(), mode.key());
            plan = Some(low);
            (
                [
                    format!("serve in {p} on {gpu} × {gpus} ({mode})"),
                    format!("改用 {p} 精度，部署在 {gpu} × {gpus}（{mode}）"),
                ],
                [
                    "answers of a quantized model may be worse: check its evaluations first",
                    "量化后模型的回答可能变差：先核对其评测结果",
                ],
            )
        }
        CutAction::NoRedundancy => {
            let (inst, repl) = (get("instances")?, get("replicas")?);
            if !w.online || inst <= repl {
                return None;
            }
            changed.numbers.redundancy = Some(0.0);
            set.push(format!("{name}.redundancy=0"));
            let p = replan(cx, &changed)?;
            let now_inst = (cx.value)(&p.candidates[0], "instances").unwrap_or(f64::NAN);
            plan = Some(p);
            let plural = if now_inst == 1.0 {
                "instance"
            } else {
                "instances"
            };
            (
                [
                    format!("run {now_inst} {plural} instead of {inst}, without a spare"),
                    format!("只运行 {now_inst} 个实例而非 {inst} 个，不留备用"),
                ],
                [
                    "no spare instance: a failure or a peak above plan is an outage (only for a non-critical service)",
                    "没有备用实例：一次故障或超出计划的峰值即会中断服务（仅适用于非关键服务）",
                ],
            )
        }
        CutAction::Api => {
            let api = w.api.as_deref()?;
            extra = get("api_monthly_cost").filter(|v| v.is_finite() && *v >= 0.0)?;
            (
                [
                    format!(
                        "use the API {api} instead (no --set: the API's bill is outside the plan)"
                    ),
                    format!("改用 API {api}（没有对应的 --set：API 费用在方案之外）"),
                ],
                [
                    "the data leaves for the API provider, and its price and limits are theirs",
                    "数据会发给 API 提供方，价格与限额也由对方决定",
                ],
            )
        }
        CutAction::Postpone => {
            if w.online {
                return None;
            }
            let later = month.plus(1);
            let first = w.start_month.unwrap_or(cx.start);
            changed.start_month = Some(later);
            set.push(format!("{name}.start_month={later}"));
            if let Some(e) = w.end_month.filter(|e| *e < later) {
                // It keeps its months: the end moves with the start.
                let end = e.plus(later.0 - first.0);
                changed.end_month = Some(end);
                set.push(format!("{name}.end_month={end}"));
            }
            (
                [format!("postpone it to {later}"), format!("推迟到 {later}")],
                ["the work is delivered later", "交付时间推后"],
            )
        }
    };
    let plan = match plan {
        Some(p) => p,
        None => now.clone(),
    };
    let runs = action != CutAction::Api && costs_in(input, &changed, &plan, cx.start, month).0;
    if action == CutAction::Postpone && runs {
        // A reserved term still binds it in the month: postponing saves nothing.
        return None;
    }
    Some(Alt {
        workload: i,
        action,
        harm: 0,
        plan,
        runs,
        extra,
        set,
        change,
        risk,
        after: f64::NAN,
        fleet: 0.0,
    })
}

/// A cut as the outputs list it.
fn cut_of(input: &Input, a: &Alt, planned: f64, total_after: f64, chosen: bool) -> Cut {
    let [change, change_zh] = a.change.clone();
    Cut {
        workload: input.workloads[a.workload].name.clone(),
        action: a.action.key(),
        change,
        saving: planned - a.after,
        risk: a.risk[0].to_string(),
        total_after,
        chosen,
        harm: a.harm + 1,
        set: a.set.clone(),
        budget_after: a.after,
        zh: (change_zh, a.risk[1].to_string()),
    }
}

/// What the search found: the chosen combination (indices into the cuts), if one meets the
/// budget, and whether the search was complete.
struct Found {
    combo: Option<Vec<usize>>,
    complete: bool,
}

/// A combination that meets the budget, as the search compares them: how many cuts at each
/// harm from the one searched down (the worst first), the budget after it, and its cuts.
type Met = (Vec<u32>, f64, Vec<usize>);

/// The least-harm search over the cuts (`alts`, each workload's cuts at distinct harms).
struct Search<'a> {
    rp: &'a Replans<'a>,
    alts: &'a [Alt],
    planned: f64,
    budget: f64,
    /// The fleet's saving in the plan: with each cut's change of it, how far the sum of cuts'
    /// savings may be from their saving together (the fleet is the part that does not add up).
    fleet0: f64,
    /// Combinations bounded, and combinations re-planned.
    nodes: usize,
    plans: usize,
    complete: bool,
}

/// The least-harm combination that meets the budget, at most one cut a workload. "Least harm"
/// is lexicographic: the mildest worst harm, then the fewest cuts at it, then the fewest at
/// each milder harm in turn, then the highest budget after that meets it (the smallest saving
/// that does: no deeper than needed), then the order of the cuts (mildest, largest saving). The search goes from the worst harm down: at each,
/// it tries the sets of that harm's cuts by size, smallest first, and a set goes on to the
/// milder harms only if its cuts, with the largest milder cut of every other workload, could
/// still meet the budget (their savings summed, give or take what the fleet's saving could
/// change); at the mildest, a combination is re-planned (its cuts applied together, the
/// portfolio and the fleet re-made) and meets the budget or not. The first size at which some
/// set meets it decides that harm. Bounded by [`MAX_NODES`] sets and [`MAX_PLANS`] re-plans,
/// never by time: past them the search stops with what it found.
fn search(rp: &Replans, alts: &[Alt], planned: f64, budget: f64) -> Found {
    let mut s = Search {
        rp,
        alts,
        planned,
        budget,
        fleet0: rp.fleet,
        nodes: 0,
        plans: 0,
        complete: true,
    };
    let levels = alts.iter().map(|a| a.harm + 1).max().unwrap_or(0);
    let mut combo = if levels == 0 {
        None
    } else {
        s.level(levels - 1, &[]).map(|(_, _, c)| c)
    };
    if combo.is_none() && !s.complete {
        combo = s.greedy();
    }
    Found {
        combo,
        complete: s.complete,
    }
}

impl Search<'_> {
    /// The saving of `a` alone.
    fn saving(&self, a: usize) -> f64 {
        self.planned - self.alts[a].after
    }

    /// Whether `combo`, with the largest cut below harm `below` of every workload it leaves
    /// uncut, could meet the budget.
    fn could_meet(&self, combo: &[usize], below: usize) -> bool {
        let cut: Vec<usize> = combo.iter().map(|&a| self.alts[a].workload).collect();
        let mut fill: Vec<(usize, usize)> = Vec::new();
        for (k, a) in self.alts.iter().enumerate() {
            if a.harm >= below || cut.contains(&a.workload) {
                continue;
            }
            match fill.iter_mut().find(|(w, _)| *w == a.workload) {
                Some((_, j)) if self.saving(*j) < self.saving(k) => *j = k,
                Some(_) => {}
                None => fill.push((a.workload, k)),
            }
        }
        let all: Vec<usize> = combo
            .iter()
            .copied()
            .chain(fill.iter().map(|(_, k)| *k))
            .collect();
        let saved: f64 = all.iter().map(|&a| self.saving(a)).sum();
        let slack = self.fleet0
            + all
                .iter()
                .map(|&a| (self.alts[a].fleet - self.fleet0).abs())
                .sum::<f64>();
        self.planned - saved <= self.budget + slack + CENT
    }

    /// The budget after `combo`, re-planned together.
    fn after(&mut self, combo: &[usize]) -> Option<f64> {
        self.plans += 1;
        let cuts: Vec<&Alt> = combo.iter().map(|&a| &self.alts[a]).collect();
        self.rp.after(&cuts).map(|(after, _)| after)
    }

    /// Past the search's bounds: the cuts in item order (mildest, then the largest saving), one
    /// a workload, until their savings summed reach the budget, then one by one more until the
    /// re-plan meets it; `None` if none does.
    fn greedy(&mut self) -> Option<Vec<usize>> {
        let mut combo: Vec<usize> = Vec::new();
        let mut saved = 0.0;
        for k in 0..self.alts.len() {
            if combo
                .iter()
                .any(|&j| self.alts[j].workload == self.alts[k].workload)
            {
                continue;
            }
            combo.push(k);
            saved += self.saving(k);
            if self.planned - saved <= self.budget && self.after(&combo)? <= self.budget {
                return Some(combo);
            }
        }
        None
    }

    /// The best combination that adds cuts of harm `level` and milder to `fixed` (cuts of
    /// harsher harms, decided): at this harm the fewest cuts, then the best below.
    fn level(&mut self, level: usize, fixed: &[usize]) -> Option<Met> {
        let taken: Vec<usize> = fixed.iter().map(|&a| self.alts[a].workload).collect();
        let items: Vec<usize> = (0..self.alts.len())
            .filter(|&k| self.alts[k].harm == level && !taken.contains(&self.alts[k].workload))
            .collect();
        for size in 0..=items.len() {
            let mut best: Option<Met> = None;
            let mut pick: Vec<usize> = (0..size).collect();
            loop {
                self.nodes += 1;
                if self.nodes > MAX_NODES || self.plans >= MAX_PLANS {
                    self.complete = false;
                    return best;
                }
                let mut combo = fixed.to_vec();
                combo.extend(pick.iter().map(|&i| items[i]));
                if self.could_meet(&combo, level) {
                    let found = if level == 0 {
                        self.after(&combo)
                            .filter(|a| *a <= self.budget)
                            .map(|a| (Vec::new(), a, combo))
                    } else {
                        self.level(level - 1, &combo)
                    };
                    if let Some((below, after, c)) = found {
                        let better = best.as_ref().is_none_or(|(b, a, _)| {
                            below < *b || (below == *b && after > *a + CENT)
                        });
                        if better {
                            best = Some((below, after, c));
                        }
                    }
                    if !self.complete {
                        break;
                    }
                }
                if !next_pick(&mut pick, items.len()) {
                    break;
                }
            }
            if let Some((below, after, c)) = best {
                let mut counts = vec![size as u32];
                counts.extend(below);
                return Some((counts, after, c));
            }
            if !self.complete {
                return None;
            }
        }
        None
    }
}

/// The next `pick.len()`-subset of `0..n` in lexicographic order; false after the last.
fn next_pick(pick: &mut [usize], n: usize) -> bool {
    let k = pick.len();
    for i in (0..k).rev() {
        if pick[i] < n - k + i {
            pick[i] += 1;
            for j in i + 1..k {
                pick[j] = pick[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::next_pick;

    /// The 2-subsets of 4 items, in order, then none.
    #[test]
    fn next_pick_goes_through_each_subset_once() {
        let mut pick = vec![0, 1];
        let mut seen = vec![pick.clone()];
        while next_pick(&mut pick, 4) {
            seen.push(pick.clone());
        }
        assert_eq!(
            seen,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        assert!(!next_pick(&mut [], 3));
    }
}

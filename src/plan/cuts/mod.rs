//! The downgrade plan (seed 001 §6.3, 降级方案): when the budget month's budget with margin
//! (less the fleet's saving) is over the Assumption `budget_monthly`, the least-harm set of cuts
//! that brings it within, and every other cut as an alternative. Each cut is a change to one
//! workload (spot, a lower precision, no redundancy, an API, postponing it) that the plan is
//! re-made with: the workload re-evaluated and re-chosen, the portfolio's totals and the fleet
//! re-computed over the month's workloads, so its saving is what the `--set` it names would
//! save. Pure: the compiled formulas and the fleet's packing, nothing else.

mod alternative;
mod replans;
mod search;

use super::programs::{Keys, Programs};
use super::{Candidate, FormulaColumn, Said, WorkloadPlan};
use crate::model::{CutAction, Input, Month, Value, Warning};
use alternative::alternative;
use replans::Replans;
use search::search;
use serde::Serialize;

/// Workloads cut at most, the dearest of the month: past them the others are left as they are.
const MAX_WORKLOADS: usize = 256;
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
    /// What to change, in words (the JSON gives the English).
    #[serde(serialize_with = "english")]
    pub change: Said,
    /// What this cut alone saves a month: `planned` less `budget_after`.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub saving: f64,
    /// The risk the cut takes (the JSON gives the English).
    #[serde(serialize_with = "english")]
    pub risk: Said,
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
}

/// A text's English, as the JSON gives a cut's change and risk (as a Warning's message).
fn english<S: serde::Serializer>(t: &Said, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&t.en)
}

impl Cut {
    /// What to change, in the language of the output.
    pub fn change(&self, lang: crate::lang::Lang) -> &str {
        self.change.get(lang)
    }

    /// The risk the cut takes, in the language of the output.
    pub fn risk(&self, lang: crate::lang::Lang) -> &str {
        self.risk.get(lang)
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
    let dearest = dearest(input, &rp, &mut out.complete);
    let alts = alternatives(cx, &rp, dearest, &order, planned, month);
    let found = search(&rp, &alts, planned, budget);
    out.complete &= found.complete;
    let chosen = match found.combo {
        Some(c) => c,
        // Nothing meets it: every workload's largest cut, as far as they go.
        None => largest_cuts(&alts),
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

/// The workloads the cuts may cut: those that cost in the month, at most [`MAX_WORKLOADS`] of
/// them, the dearest (`complete` cleared when some are left out).
fn dearest(input: &Input, rp: &Replans, complete: &mut bool) -> Vec<usize> {
    // The dearest workloads of the month are cut, at most MAX_WORKLOADS of them.
    let mut dearest: Vec<usize> = (0..input.workloads.len())
        .filter(|&i| rp.plans[i].chosen.is_some())
        .collect();
    if dearest.len() > MAX_WORKLOADS {
        let tco = |i: usize| rp.plans[i].chosen.as_ref().map_or(0.0, |c| c.tco);
        dearest.sort_by(|&a, &b| tco(b).total_cmp(&tco(a)).then(a.cmp(&b)));
        dearest.truncate(MAX_WORKLOADS);
        dearest.sort_unstable();
        *complete = false;
    }
    dearest
}

/// Each cut of each of the `dearest` workloads by the `order` of cuts that saves more than a
/// cent alone, with its budget after and the fleet's saving in it: in the search's item order.
fn alternatives(
    cx: &Context,
    rp: &Replans,
    dearest: Vec<usize>,
    order: &[CutAction],
    planned: f64,
    month: Month,
) -> Vec<Alt> {
    let input = cx.input;
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
    alts
}

/// Every workload's largest cut (the lowest budget after it), one a workload: what is chosen
/// when no combination meets the budget.
fn largest_cuts(alts: &[Alt]) -> Vec<usize> {
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

/// A cut as the outputs list it.
fn cut_of(input: &Input, a: &Alt, planned: f64, total_after: f64, chosen: bool) -> Cut {
    let [change, change_zh] = a.change.clone();
    Cut {
        workload: input.workloads[a.workload].name.clone(),
        action: a.action.key(),
        change: Said::new(change, change_zh),
        saving: planned - a.after,
        risk: Said::new(a.risk[0], a.risk[1]),
        total_after,
        chosen,
        harm: a.harm + 1,
        set: a.set.clone(),
        budget_after: a.after,
    }
}

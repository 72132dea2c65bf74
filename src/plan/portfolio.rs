//! The portfolio formulas, run once over the chosen candidates.

use super::programs::Programs;
use super::{inputs, FormulaColumn, WorkloadPlan};
use crate::error::{Error, Result};
use crate::model::Input;

/// The portfolio's figures over a set of workloads: what its formulas read, what they give, and
/// the sums of the chosen candidates the plan reports beside them. The workbook's live cells
/// take their cached values from here, so the plan and the workbook cannot disagree.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Totals {
    /// Each variable some portfolio formula reads, as bound: `total_<column>` sums,
    /// `workloads_planned`/`workloads_unplanned` and assumptions.
    pub inputs: Vec<(String, f64)>,
    /// The portfolio formulas in evaluation order, with their values.
    pub formulas: Vec<(String, f64)>,
    pub planned: Planned,
}

/// Sums over the chosen candidates (the TCO tab's lines that are not formulas of their own).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Planned {
    pub gpu_cost: f64,
    pub cold_start_cost: f64,
    pub rework_cost: f64,
    pub tco: f64,
    pub storage_cost: f64,
    pub egress_cost: f64,
}

impl Planned {
    /// The sums by name, in the JSON's order.
    pub fn entries(&self) -> [(&'static str, f64); 6] {
        [
            ("gpu_cost", self.gpu_cost),
            ("cold_start_cost", self.cold_start_cost),
            ("rework_cost", self.rework_cost),
            ("tco", self.tco),
            ("storage_cost", self.storage_cost),
            ("egress_cost", self.egress_cost),
        ]
    }

    pub fn get(&self, name: &str) -> Option<f64> {
        self.entries()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }
}

impl Totals {
    /// A required portfolio formula's value (NaN only if it was never evaluated).
    pub fn sum(&self, n: super::NeedSum) -> f64 {
        self.get(n.name()).unwrap_or(f64::NAN)
    }

    /// A portfolio line's value: its formula's, else (the safety margin, which no formula
    /// gives) the total with margin less the total.
    pub fn line(&self, name: &str) -> f64 {
        self.get(name).unwrap_or_else(|| {
            self.sum(super::NeedSum::TOTAL_WITH_MARGIN) - self.sum(super::NeedSum::TOTAL)
        })
    }

    /// The portfolio formulas, then the planned sums (the JSON `totals`, in order).
    pub fn entries(&self) -> impl Iterator<Item = (&str, f64)> {
        self.formulas
            .iter()
            .map(|(n, v)| (n.as_str(), *v))
            .chain(self.planned.entries())
    }

    /// A portfolio formula's value, or a planned sum's.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.entries().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// Any value a portfolio formula reads or gives: a formula's value, or an input as bound.
    pub fn variable(&self, name: &str) -> Option<f64> {
        let find = |list: &[(String, f64)]| list.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        find(&self.formulas).or_else(|| find(&self.inputs))
    }
}

/// Runs the portfolio formulas over the chosen candidates.
pub(super) fn portfolio(
    programs: &Programs,
    input: &Input,
    plans: &[WorkloadPlan],
    columns: &[FormulaColumn],
) -> Result<Totals> {
    portfolio_of(programs, input, plans, columns, &|_| true)
}

/// As [`portfolio`], over the workloads `runs` says run (a month of the Year tab).
pub(super) fn portfolio_of(
    programs: &Programs,
    input: &Input,
    plans: &[WorkloadPlan],
    columns: &[FormulaColumn],
    runs: &dyn Fn(usize) -> bool,
) -> Result<Totals> {
    let p = &programs.portfolio;
    let mut values = vec![0.0; p.width()];
    inputs::bind_assumptions(p, &input.assumptions, &mut values);
    let mut planned = Planned::default();
    let mut sums = vec![0.0; columns.len()];
    let mut count = 0.0;
    for (i, wp) in plans.iter().enumerate() {
        if !runs(i) {
            continue;
        }
        if let Some(ch) = &wp.chosen {
            count += 1.0;
            let c = &wp.candidates[ch.candidate];
            for (s, v) in sums.iter_mut().zip(&c.values) {
                *s += v;
            }
            planned.gpu_cost += ch.gpu_cost;
            planned.cold_start_cost += ch.cold_start_cost;
            planned.rework_cost += ch.rework_cost;
            planned.tco += ch.tco;
        }
    }
    let sum_of = |name: &str| {
        columns
            .iter()
            .position(|c| c.name == name)
            .map_or(0.0, |i| sums[i])
    };
    planned.storage_cost = sum_of("storage_cost");
    planned.egress_cost = sum_of("egress_cost");
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
    for name in inputs::PLANNED {
        set(&format!("total_{name}"), planned.get(name).unwrap_or(0.0));
    }
    set("workloads_planned", count);
    let unplanned = (0..plans.len())
        .filter(|&i| runs(i) && plans[i].chosen.is_none())
        .count();
    set("workloads_unplanned", unplanned as f64);
    let inputs = (0..p.inputs())
        .filter(|&s| p.reads(p.name(s)))
        .map(|s| (p.name(s).to_string(), values[s]))
        .collect();
    let mut scratch = p.scratch();
    p.eval(&mut values, &mut scratch).map_err(|e| {
        let d = programs.portfolio_def(e.def);
        Error::input(&input.file, d.location(), format!("has no value (a division by zero, an overflow, or an undefined result, here or in a formula it uses) for the portfolio: look at `{}`", d.expression))
    })?;
    let formulas = p
        .order
        .iter()
        .map(|f| (f.name.clone(), values[f.slot]))
        .collect();
    Ok(Totals {
        inputs,
        formulas,
        planned,
    })
}

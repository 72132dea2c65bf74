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
    /// The sums of the chosen candidates' costs, bound as the `total_<name>` inputs.
    pub planned: Planned,
}

/// Sums over the chosen candidates (the TCO tab's lines that are not formulas of their own).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Planned {
    /// GPU cost of the chosen modes a month, summed over planned workloads (workbook currency).
    pub gpu_cost: f64,
    /// Of `gpu_cost`, what pays for cold starts and billing rounding a month.
    pub cold_start_cost: f64,
    /// Of `gpu_cost`, what pays for spot rework a month.
    pub rework_cost: f64,
    /// The chosen candidates' TCO a month summed: GPU, storage and egress cost.
    pub tco: f64,
    /// The `storage_cost` column summed over the chosen candidates, a month.
    pub storage_cost: f64,
    /// The `egress_cost` column summed over the chosen candidates, a month.
    pub egress_cost: f64,
}

impl Planned {
    /// The sums by name, in the JSON's order: each a sum of cents, written to the cent (the
    /// sum of the lines shown, without floating point's 33720.029999…).
    pub fn entries(&self) -> [(&'static str, f64); 6] {
        [
            ("gpu_cost", self.gpu_cost),
            ("cold_start_cost", self.cold_start_cost),
            ("rework_cost", self.rework_cost),
            ("tco", self.tco),
            ("storage_cost", self.storage_cost),
            ("egress_cost", self.egress_cost),
        ]
        .map(|(n, v)| (n, crate::formula::cents(v)))
    }

    /// The sum named `name` (`gpu_cost`, `tco`, …) to the cent; `None` for another name.
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
    let mut sums = Sums::new(columns.len());
    for (i, wp) in plans.iter().enumerate() {
        if runs(i) {
            sums.add(wp, 1.0);
        }
    }
    totals_of(programs, input, columns, &sums)
}

/// What the portfolio formulas read of the chosen candidates: their columns summed, the
/// planned sums, and how many workloads are planned and unplanned. A re-plan that changes a
/// few workloads takes theirs out and puts the new ones in (the cuts).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Sums {
    columns: Vec<f64>,
    planned: Planned,
    count: f64,
    unplanned: f64,
}

impl Sums {
    pub(super) fn new(columns: usize) -> Sums {
        Sums {
            columns: vec![0.0; columns],
            planned: Planned::default(),
            count: 0.0,
            unplanned: 0.0,
        }
    }

    /// Adds a workload's plan (`sign` 1), or takes it out (−1).
    pub(super) fn add(&mut self, wp: &WorkloadPlan, sign: f64) {
        let Some(ch) = &wp.chosen else {
            self.unplanned += sign;
            return;
        };
        self.count += sign;
        let c = &wp.candidates[ch.candidate];
        for (s, v) in self.columns.iter_mut().zip(&c.values) {
            *s += sign * v;
        }
        let p = &mut self.planned;
        p.gpu_cost += sign * ch.gpu_cost;
        p.cold_start_cost += sign * ch.cold_start_cost;
        p.rework_cost += sign * ch.rework_cost;
        p.tco += sign * ch.tco;
    }
}

/// Runs the portfolio formulas over `sums`.
pub(super) fn totals_of(
    programs: &Programs,
    input: &Input,
    columns: &[FormulaColumn],
    sums: &Sums,
) -> Result<Totals> {
    let p = &programs.portfolio;
    let mut values = vec![0.0; p.width()];
    inputs::bind_assumptions(p, &input.assumptions, &mut values);
    let mut planned = sums.planned;
    let sums_of = &sums.columns;
    let sum_of = |name: &str| {
        columns
            .iter()
            .position(|c| c.name == name)
            .map_or(0.0, |i| sums_of[i])
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
    for (col, s) in columns.iter().zip(sums_of) {
        if !col.is_bool {
            set(&format!("total_{}", col.name), *s);
        }
    }
    for name in inputs::PLANNED {
        set(&format!("total_{name}"), planned.get(name).unwrap_or(0.0));
    }
    set("workloads_planned", sums.count);
    set("workloads_unplanned", sums.unplanned);
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

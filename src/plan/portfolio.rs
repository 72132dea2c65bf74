//! The portfolio formulas, run once over the chosen candidates.

use super::engine::Engine;
use super::{inputs, FormulaColumn, WorkloadPlan};
use crate::error::{Error, Result};
use crate::model::Input;

/// Runs the portfolio formulas over the chosen candidates; returns them with the planned sums.
pub(super) fn portfolio(
    engine: &Engine,
    input: &Input,
    plans: &[WorkloadPlan],
    columns: &[FormulaColumn],
) -> Result<Vec<(String, f64)>> {
    portfolio_of(engine, input, plans, columns, &|_| true)
}

/// As [`portfolio`], over the workloads `runs` says run (a month of the Year tab).
pub(super) fn portfolio_of(
    engine: &Engine,
    input: &Input,
    plans: &[WorkloadPlan],
    columns: &[FormulaColumn],
    runs: &dyn Fn(usize) -> bool,
) -> Result<Vec<(String, f64)>> {
    let p = &engine.portfolio;
    let mut values = vec![0.0; p.width()];
    inputs::bind_assumptions(p, &input.assumptions, &mut values);
    let mut planned = [0.0f64; 4];
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
    let unplanned = (0..plans.len())
        .filter(|&i| runs(i) && plans[i].chosen.is_none())
        .count();
    set("workloads_unplanned", unplanned as f64);
    let mut scratch = p.scratch();
    p.eval(&mut values, &mut scratch).map_err(|e| {
        let d = engine.portfolio_def(e.def);
        Error::input(&input.file, d.location(), format!("has no value (a division by zero, an overflow, or an undefined result, here or in a formula it uses) for the portfolio: look at `{}`", d.expression))
    })?;
    let mut out: Vec<(String, f64)> = p
        .order
        .iter()
        .map(|f| (f.name.clone(), values[f.slot]))
        .collect();
    for (name, v) in inputs::PLANNED.iter().zip(planned) {
        out.push((name.to_string(), v));
    }
    for name in ["storage_cost", "egress_cost"] {
        let sum = columns
            .iter()
            .position(|c| c.name == name)
            .map_or(0.0, |i| sums[i]);
        out.push((name.to_string(), sum));
    }
    Ok(out)
}

//! The re-plan of a sample: only what its keys change, the other workloads as the base plan
//! chose them, and the samples' budgets planned in parallel.

use super::reach::{base_rows, choice_stays, key_reach, KeyReach, PriceKey};
use crate::error::{Error, Result};
use crate::model::{Input, RangeDef};
use crate::plan::choose::choose;
use crate::plan::evaluate::{evaluate_workload, Best, FullRow};
use crate::plan::portfolio::portfolio;
use crate::plan::programs::{Keys, Programs};
use crate::plan::{Candidate, FormulaColumn, Mode, Plan, WorkloadPlan};

/// What a sampling worker keeps between samples: its copy of the input and of the evaluated
/// rows, overwritten in place (every sample sets every key).
struct Work {
    inp: Input,
    rows: Vec<Option<Vec<FullRow>>>,
}

/// Re-plans only what a sample changes. A key that only prices candidates (a GPU price or term,
/// or an assumption whose dependent formulas are costs, not sizing) re-runs just those cost
/// formulas over every evaluated (offer, replica size) of the base plan and chooses again; a key
/// that sizes (a workload column, a sizing assumption) re-evaluates the workloads it reaches; the
/// other workloads keep the base plan's choice; the portfolio formulas run over all. The budget
/// equals a full re-plan's (unit test).
pub(super) struct Replanner<'a> {
    base: &'a Plan,
    programs: &'a Programs,
    ranges: &'a [RangeDef],
    keys: Keys,
    columns: Vec<FormulaColumn>,
    /// Per workload: re-evaluate it in full.
    full: Vec<bool>,
    /// Per workload: its evaluated rows, when price keys reach it and no sizing key does.
    rows: Vec<Option<Vec<FullRow>>>,
    prices: Vec<PriceKey>,
    /// The cost formulas the price keys reach, in evaluation order.
    deps: Vec<usize>,
    /// Whether the price keys reach no mode's cost and no allowed mode (a storage or egress
    /// price): then they add the same to every candidate of a workload, the choice stays, and
    /// only the chosen row is re-run.
    choice_fixed: bool,
}

impl<'a> Replanner<'a> {
    pub(super) fn new(
        base: &'a Plan,
        programs: &'a Programs,
        ranges: &'a [RangeDef],
    ) -> Result<Self> {
        let input = &base.input;
        let p = &programs.candidate;
        let columns = base.columns.clone();
        let keys = Keys::new(&columns);
        let KeyReach {
            full,
            priced,
            prices,
        } = key_reach(input, programs, ranges, &keys);
        let slots: Vec<usize> = prices.iter().map(|k| k.slot).collect();
        let deps = p.dependents(&slots);
        let choice_fixed = choice_stays(programs, &keys, &deps);
        let rows = if priced {
            base_rows(base, programs, &keys, &full, choice_fixed)?
        } else {
            (0..input.workloads.len()).map(|_| None).collect()
        };
        Ok(Replanner {
            base,
            programs,
            ranges,
            keys,
            columns,
            full,
            rows,
            prices,
            deps,
            choice_fixed,
        })
    }

    /// The base choice of workload `i` with its storage and egress re-run at the sample's prices
    /// (`choice_fixed`): `rows` holds its chosen row alone.
    fn rerun_chosen(
        &self,
        i: usize,
        inp: &Input,
        rows: &[FullRow],
        values: &[f64],
    ) -> Result<WorkloadPlan> {
        let base = &self.base.workloads[i];
        let (Some(row), Some(ch)) = (rows.first(), base.chosen.as_ref()) else {
            return Ok(base.clone());
        };
        let p = &self.programs.candidate;
        let n_in = p.inputs();
        let k = &self.keys;
        let mut buf = row.values.clone();
        for pk in self.prices.iter().filter(|pk| pk.sets(row.offer)) {
            buf[pk.slot] = values[pk.range];
        }
        p.eval_only(&self.deps, &mut buf, &mut p.scratch())
            .map_err(|e| self.no_value(inp, e))?;
        let vals = &buf[n_in..];
        let mut chosen = ch.clone();
        chosen.candidate = 0;
        chosen.storage_cost = vals[k.storage];
        chosen.egress_cost = vals[k.egress];
        chosen.tco = chosen.gpu_cost + chosen.storage_cost + chosen.egress_cost;
        Ok(WorkloadPlan {
            candidates: vec![Candidate {
                offer: row.offer,
                values: vals.to_vec(),
                exclusion: None,
                costs: base.candidates[ch.candidate].costs,
                layout: base.candidates[ch.candidate].layout,
            }],
            chosen: Some(chosen),
            unplanned: None,
        })
    }

    /// The choice of a workload with the sample's prices, over its base rows.
    fn reprice(
        &self,
        inp: &Input,
        rows: &mut [FullRow],
        values: &[f64],
        monthly_min: f64,
    ) -> Result<WorkloadPlan> {
        let p = &self.programs.candidate;
        let n_in = p.inputs();
        let k = &self.keys;
        let mut scratch = p.scratch();
        let mut best: [Option<Best>; Mode::ALL.len()] = [None; Mode::ALL.len()];
        let mut cands: Vec<Candidate> = Vec::new();
        for row in rows.iter_mut().filter(|r| !r.out) {
            let buf = &mut row.values;
            for pk in self.prices.iter().filter(|pk| pk.sets(row.offer)) {
                buf[pk.slot] = values[pk.range];
            }
            p.eval_only(&self.deps, buf, &mut scratch)
                .map_err(|e| self.no_value(inp, e))?;
            let vals = &buf[n_in..];
            let mut costs = [None; Mode::ALL.len()];
            for (i, c) in costs.iter_mut().enumerate() {
                *c = k.mode_cost(vals, i);
            }
            if costs.iter().all(Option::is_none) {
                continue;
            }
            let extra = vals[k.storage] + vals[k.egress];
            let (gpus, size) = (vals[k.gpus_total], vals[k.gpus_per_replica]);
            let mut kept = false;
            for (i, c) in costs.iter().enumerate() {
                if let Some(c) = c {
                    let b = Best {
                        tco: c + extra,
                        gpus,
                        offer: row.offer,
                        size,
                        layout: row.layout,
                    };
                    if best[i].is_none_or(|cur| b.better_than(&cur)) {
                        best[i] = Some(b);
                        kept = true;
                    }
                }
            }
            if kept {
                cands.push(Candidate {
                    offer: row.offer,
                    values: vals.to_vec(),
                    exclusion: None,
                    costs,
                    layout: row.layout,
                });
            }
        }
        let chosen = choose(&cands, &best, k, monthly_min);
        Ok(WorkloadPlan {
            candidates: cands,
            chosen,
            unplanned: None,
        })
    }

    /// The error of a formula that has no value for a sample: where the formula is, and its
    /// expression.
    fn no_value(&self, inp: &Input, e: crate::formula::NonFinite) -> Error {
        let d = &self.programs.candidate_defs()[e.def];
        Error::input(
            &inp.file,
            d.location(),
            format!(
                "has no value for a sample of the Ranges sheet: look at `{}`",
                d.expression
            ),
        )
    }

    /// A worker's copies of the input and the rows.
    fn work(&self) -> Work {
        Work {
            inp: self.base.input.clone(),
            rows: self.rows.clone(),
        }
    }

    /// The budget with `values` set in `inp`, a copy of the base input that each worker keeps
    /// and reuses (every sample sets every key, so no value of an earlier sample remains).
    fn budget(&self, work: &mut Work, values: &[f64]) -> Result<f64> {
        let base = &self.base.input;
        let Work {
            inp,
            rows: work_rows,
        } = work;
        for (r, v) in self.ranges.iter().zip(values) {
            inp.set_number(&r.target, &r.column, *v)
                .map_err(|e| Error::input(&base.file, r.cell.clone(), e))?;
        }
        let monthly_min = inp.assumptions.number("monthly_min_utilization", 0.4);
        let inp = &*inp;
        let mut plans: Vec<WorkloadPlan> = Vec::with_capacity(inp.workloads.len());
        for (i, w) in inp.workloads.iter().enumerate() {
            if self.full[i] {
                let e = evaluate_workload(self.programs, inp, w, &self.keys, 1).map_err(|p| {
                    Error::Input {
                        file: base.file.clone(),
                        problems: vec![p],
                    }
                })?;
                let chosen = choose(&e.candidates, &e.best, &self.keys, monthly_min);
                plans.push(WorkloadPlan {
                    candidates: e.candidates,
                    chosen,
                    unplanned: None,
                });
            } else if let Some(rows) = work_rows[i].as_mut() {
                if self.choice_fixed {
                    plans.push(self.rerun_chosen(i, inp, rows, values)?);
                } else {
                    plans.push(self.reprice(inp, rows, values, monthly_min)?);
                }
            } else {
                plans.push(self.base.workloads[i].clone());
            }
        }
        let totals = portfolio(self.programs, inp, &plans, &self.columns)?;
        Ok(totals.get("total_with_margin").unwrap_or(0.0))
    }
}

/// The budget of each sample, in the samples' order, planned in parallel (at most 8 threads,
/// each on a contiguous chunk).
pub(super) fn sample_budgets(
    replanner: &Replanner,
    draws: &[Vec<f64>],
    done: &std::sync::atomic::AtomicUsize,
) -> Result<Vec<f64>> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    let one = |values: &Vec<f64>, work: &mut _| {
        let b = replanner.budget(work, values);
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        b
    };
    // One core (or a platform without threads, as WebAssembly in a browser): inline.
    if workers <= 1 {
        let mut work = replanner.work();
        return draws.iter().map(|v| one(v, &mut work)).collect();
    }
    let chunk = draws.len().div_ceil(workers).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = draws
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut work = replanner.work();
                    part.iter()
                        .map(|values| one(values, &mut work))
                        .collect::<Result<Vec<f64>>>()
                })
            })
            .collect();
        let mut all = Vec::with_capacity(draws.len());
        for h in handles {
            match h.join() {
                Ok(part) => all.extend(part?),
                Err(e) => std::panic::resume_unwind(e),
            }
        }
        Ok::<_, Error>(all)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::sensitivity::budget;
    use crate::plan::{plan_with, Options};

    /// The incremental re-plan of a sample gives the budget a full re-plan gives, whichever
    /// workloads the keys reach (one, all, or none).
    #[test]
    fn a_partial_replan_equals_a_full_one() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/startup.xlsx");
        let mut input = crate::read::read(&path, &[]).expect("the sample reads");
        let range = |key: &str, low: f64, high: f64| {
            let (target, column) = crate::model::change::parse_key(key);
            RangeDef {
                key: key.into(),
                target,
                // The one whole-number column here (Rule::of("Workloads", "concurrency")).
                whole: column == "concurrency",
                column,
                low,
                high,
                likely: None,
                cell: "Ranges!A2".into(),
            }
        };
        input.ranges = vec![
            range("chat-api.concurrency", 20.0, 120.0),
            range("gpu:RTX 4090.monthly", 1000.0, 3000.0),
            range("safety_margin", 0.1, 0.4),
            range("storage_price_gb_month", 0.1, 1.0),
            // Every offer's on-demand price: the choice between modes and offers moves.
            range("gpu:*.on_demand_hourly", 1.0, 20.0),
            // A money assumption that also sizes (replicas for the month's hours): in full.
            range("hours_in_month", 700.0, 744.0),
        ];
        let programs = Programs::compile(&input).expect("compiles");
        let opts = Options {
            keep: Some(1),
            threads: 1,
            now: 0,
        };
        let base = plan_with(input.clone(), &programs, &opts).expect("plans");
        for which in [
            vec![0usize],
            vec![1],
            vec![2],
            vec![3],
            vec![4],
            vec![5],
            vec![1, 4],
            vec![0, 1, 2, 3, 4, 5],
        ] {
            let ranges: Vec<RangeDef> = which.iter().map(|&i| input.ranges[i].clone()).collect();
            let r = Replanner::new(&base, &programs, &ranges).expect("replanner");
            // Prices and the storage price take the repricing path, the margin touches no
            // candidate, hours_in_month and a concurrency re-evaluate in full.
            match which.as_slice() {
                [1] | [3] | [4] | [1, 4] => {
                    assert!(r.full.iter().all(|f| !f), "{which:?}");
                    assert!(r.rows.iter().all(Option::is_some), "{which:?}");
                }
                [2] => assert!(r.full.iter().all(|f| !f) && r.rows.iter().all(Option::is_none)),
                _ => {}
            }
            // A storage price adds the same to every candidate: only the chosen row re-runs.
            match which.as_slice() {
                [3] => assert!(r.choice_fixed),
                [1] | [4] | [1, 4] => assert!(!r.choice_fixed),
                [5] => assert!(r.full.iter().all(|f| *f)),
                [0] => assert_eq!(r.full.iter().filter(|f| **f).count(), 1),
                _ => {}
            }
            for t in [0.0, 0.37, 1.0] {
                let values: Vec<f64> = ranges
                    .iter()
                    .map(|x| {
                        (x.low + t * (x.high - x.low))
                            .round()
                            .max(x.low)
                            .min(x.high)
                    })
                    .map(|v| if v == 0.0 { 0.25 } else { v })
                    .collect();
                let fast = r.budget(&mut r.work(), &values).expect("replans");
                let full = budget(&input, &programs, &ranges, &values, &opts).expect("plans");
                assert!(
                    (fast - full).abs() <= 1e-9 * full.abs().max(1.0),
                    "{which:?} at {values:?}: {fast} vs {full}"
                );
            }
        }
    }
}

//! Ranges and sensitivity (#19, part 2): a tornado (the budget with each Ranges key at its low
//! and at its high, the others at base) and the P10/P50/P90 of the budget over seeded random
//! samples of every key at once, each sample re-planned (the GPU and mode may change).

use super::choose::choose;
use super::engine::{Engine, Keys};
use super::evaluate::evaluate_workload;
use super::portfolio::portfolio;
use super::{plan_with, FormulaColumn, Options, Plan, WorkloadPlan};
use crate::error::{Error, Result};
use crate::model::{Input, RangeDef};
use crate::read::Target;

/// One Ranges row's swing: the budget at its low and at its high.
#[derive(Debug, Clone)]
pub struct TornadoRow {
    pub key: String,
    pub low: f64,
    pub high: f64,
    pub at_low: f64,
    pub at_high: f64,
}

impl TornadoRow {
    /// How far the budget moves across the range.
    pub fn swing(&self) -> f64 {
        (self.at_high - self.at_low).abs()
    }
}

#[derive(Debug, Clone)]
pub struct Sensitivity {
    pub seed: u64,
    pub samples: usize,
    /// The budget (total with margin) of the base plan.
    pub base: f64,
    pub p10: f64,
    pub p50: f64,
    pub p90: f64,
    /// Widest swing first.
    pub tornado: Vec<TornadoRow>,
}

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny generator whose sequence for a seed never
/// changes with a dependency update, so `--seed` reproduces a run on any version.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1): the top 53 bits.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A draw from the range: uniform, or triangular with mode `likely` (inverse CDF).
fn draw(r: &RangeDef, u: f64) -> f64 {
    let (a, b) = (r.low, r.high);
    if b <= a {
        return a;
    }
    match r.likely {
        None => a + u * (b - a),
        Some(c) => {
            let fc = (c - a) / (b - a);
            if u < fc {
                a + (u * (b - a) * (c - a)).sqrt()
            } else {
                b - ((1.0 - u) * (b - a) * (b - c)).sqrt()
            }
        }
    }
}

/// The `p` quantile of sorted values, interpolating between order statistics (Hyndman and Fan's
/// type 7, the default of R and NumPy).
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// The budget of `input` with `values` set (one per Ranges row), re-planned.
fn budget(
    input: &Input,
    engine: &Engine,
    ranges: &[RangeDef],
    values: &[f64],
    opts: &Options,
) -> Result<f64> {
    let mut inp = input.clone();
    for (r, v) in ranges.iter().zip(values) {
        crate::read::set_number(&mut inp, &r.key, *v)
            .map_err(|e| Error::input(&input.file, r.cell.clone(), e))?;
    }
    let p = plan_with(inp, engine, opts)?;
    Ok(p.total("total_with_margin").unwrap_or(0.0))
}

/// Which workloads a Ranges key can change: a workload column its workloads (`*` all), a GPU
/// column every workload, an assumption every workload when a candidate formula reads it and
/// none when only portfolio formulas do (a margin, a trial reserve, ops labour).
fn reach(input: &Input, engine: &Engine, key: &str) -> Vec<bool> {
    let n = input.workloads.len();
    let Ok(o) = crate::read::Override::parse(&format!("{key}=0")) else {
        return vec![true; n];
    };
    match &o.target {
        Target::Workload(name) => input
            .workloads
            .iter()
            .map(|w| name == "*" || &w.name == name)
            .collect(),
        Target::Gpu(_) => vec![true; n],
        Target::Assumption => {
            let p = &engine.candidate;
            let read = p
                .slot(&o.key)
                .is_some_and(|s| !p.dependents(&[s]).is_empty());
            vec![read; n]
        }
    }
}

/// Re-plans only what a sample changes: the workloads its keys reach are evaluated and chosen
/// again, the others keep the base plan's choice, and the portfolio formulas run over all —
/// the same budget a full re-plan gives, at a fraction of the work when the keys reach few
/// workloads or none.
struct Replanner<'a> {
    base: &'a Plan,
    engine: &'a Engine,
    ranges: &'a [RangeDef],
    keys: Keys,
    columns: Vec<FormulaColumn>,
    /// Per workload: whether any Ranges key reaches it.
    affected: Vec<bool>,
}

impl<'a> Replanner<'a> {
    fn new(base: &'a Plan, engine: &'a Engine, ranges: &'a [RangeDef]) -> Self {
        let input = &base.input;
        let mut affected = vec![false; input.workloads.len()];
        for r in ranges {
            for (a, b) in affected.iter_mut().zip(reach(input, engine, &r.key)) {
                *a |= b;
            }
        }
        let columns = base.columns.clone();
        Replanner {
            base,
            engine,
            ranges,
            keys: Keys::new(&columns),
            columns,
            affected,
        }
    }

    fn budget(&self, values: &[f64]) -> Result<f64> {
        let base = &self.base.input;
        let mut inp = base.clone();
        for (r, v) in self.ranges.iter().zip(values) {
            crate::read::set_number(&mut inp, &r.key, *v)
                .map_err(|e| Error::input(&base.file, r.cell.clone(), e))?;
        }
        let monthly_min = inp.assumptions.number("monthly_min_utilization", 0.4);
        let mut plans: Vec<WorkloadPlan> = Vec::with_capacity(inp.workloads.len());
        for (i, w) in inp.workloads.iter().enumerate() {
            if !self.affected[i] {
                plans.push(self.base.workloads[i].clone());
                continue;
            }
            let e = evaluate_workload(self.engine, &inp, w, &self.keys, 1).map_err(|p| {
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
        }
        let totals = portfolio(self.engine, &inp, &plans, &self.columns)?;
        Ok(totals
            .iter()
            .find(|(n, _)| n == "total_with_margin")
            .map_or(0.0, |(_, v)| *v))
    }
}

/// The tornado and the sampled percentiles of the budget for `input`'s Ranges rows.
pub fn sensitivity(
    input: &Input,
    engine: &Engine,
    samples: usize,
    seed: u64,
    now: i64,
) -> Result<Sensitivity> {
    let ranges = &input.ranges;
    // Each key's values must be ones its column accepts; whole-number columns are rounded.
    let mut whole = Vec::with_capacity(ranges.len());
    for r in ranges {
        for v in [r.low, r.high] {
            let (ok, _) = crate::read::value_rule(&r.key, v);
            ok.map_err(|e| Error::input(&input.file, r.cell.clone(), e))?;
        }
        whole.push(crate::read::value_rule(&r.key, r.low).1);
    }
    let opts = Options {
        keep: Some(1),
        threads: 1,
        now,
    };
    let base = budget(input, engine, &[], &[], &opts)?;
    let mut tornado = Vec::with_capacity(ranges.len());
    for r in ranges {
        let at = |v: f64| budget(input, engine, std::slice::from_ref(r), &[v], &opts);
        tornado.push(TornadoRow {
            key: r.key.clone(),
            low: r.low,
            high: r.high,
            at_low: at(r.low)?,
            at_high: at(r.high)?,
        });
    }
    tornado.sort_by(|a, b| b.swing().total_cmp(&a.swing()));
    // The samples re-plan from a base plan that keeps each workload's chosen candidate.
    let base_plan = plan_with(input.clone(), engine, &opts)?;
    let replanner = Replanner::new(&base_plan, engine, ranges);
    // The samples' values are drawn in order from one generator, then planned in parallel:
    // the same seed gives the same samples whatever the number of threads.
    let mut rng = SplitMix(seed);
    let draws: Vec<Vec<f64>> = (0..samples)
        .map(|_| {
            ranges
                .iter()
                .zip(&whole)
                .map(|(r, w)| {
                    let v = draw(r, rng.unit());
                    if *w {
                        v.round()
                    } else {
                        v
                    }
                })
                .collect()
        })
        .collect();
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    let chunk = draws.len().div_ceil(workers.max(1)).max(1);
    let mut totals: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = draws
            .chunks(chunk)
            .map(|part| {
                let replanner = &replanner;
                s.spawn(move || {
                    part.iter()
                        .map(|values| replanner.budget(values))
                        .collect::<Result<Vec<f64>>>()
                })
            })
            .collect();
        let mut all = Vec::with_capacity(samples);
        for h in handles {
            match h.join() {
                Ok(part) => all.extend(part?),
                Err(e) => std::panic::resume_unwind(e),
            }
        }
        Ok::<_, Error>(all)
    })?;
    totals.sort_by(f64::total_cmp);
    Ok(Sensitivity {
        seed,
        samples,
        base,
        p10: quantile(&totals, 0.1),
        p50: quantile(&totals, 0.5),
        p90: quantile(&totals, 0.9),
        tornado,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The incremental re-plan of a sample gives the budget a full re-plan gives, whichever
    /// workloads the keys reach (one, all, or none).
    #[test]
    fn a_partial_replan_equals_a_full_one() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/startup.xlsx");
        let mut input = crate::read::read(&path, &[]).expect("the sample reads");
        let range = |key: &str, low: f64, high: f64| RangeDef {
            key: key.into(),
            low,
            high,
            likely: None,
            cell: "Ranges!A2".into(),
        };
        input.ranges = vec![
            range("chat-api.concurrency", 20.0, 120.0),
            range("gpu:RTX 4090.monthly", 1000.0, 3000.0),
            range("safety_margin", 0.1, 0.4),
            range("storage_price_gb_month", 0.1, 1.0),
        ];
        let engine = Engine::compile(&input).expect("compiles");
        let opts = Options {
            keep: Some(1),
            threads: 1,
            now: 0,
        };
        let base = plan_with(input.clone(), &engine, &opts).expect("plans");
        for which in [vec![0usize], vec![1], vec![2], vec![3], vec![0, 1, 2, 3]] {
            let ranges: Vec<RangeDef> = which.iter().map(|&i| input.ranges[i].clone()).collect();
            let r = Replanner::new(&base, &engine, &ranges);
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
                let fast = r.budget(&values).expect("replans");
                let full = budget(&input, &engine, &ranges, &values, &opts).expect("plans");
                assert!(
                    (fast - full).abs() <= 1e-9 * full.abs().max(1.0),
                    "{which:?} at {values:?}: {fast} vs {full}"
                );
            }
        }
    }

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        // h = 4 × 0.1 = 0.4: 1 + 0.4 × (2 − 1) = 1.4; the median is 3; h = 3.6: 4.6.
        assert!((quantile(&x, 0.1) - 1.4).abs() < 1e-12);
        assert_eq!(quantile(&x, 0.5), 3.0);
        assert!((quantile(&x, 0.9) - 4.6).abs() < 1e-12);
    }

    #[test]
    fn splitmix_gives_its_published_first_values() {
        // SplitMix64 seeded with 0 (the reference sequence of Vigna's splitmix64.c).
        let mut r = SplitMix(0);
        assert_eq!(r.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn triangular_draws_follow_the_inverse_cdf() {
        let r = RangeDef {
            key: "k".into(),
            low: 0.0,
            high: 10.0,
            likely: Some(2.0),
            cell: String::new(),
        };
        // F(2) = 0.2: u = 0.2 gives the mode; u = 0.05 gives sqrt(0.05 × 10 × 2) = 1;
        // u = 0.6 gives 10 − sqrt(0.4 × 10 × 8) = 10 − sqrt(32).
        assert!((draw(&r, 0.2) - 2.0).abs() < 1e-12);
        assert!((draw(&r, 0.05) - 1.0).abs() < 1e-12);
        assert!((draw(&r, 0.6) - (10.0 - 32f64.sqrt())).abs() < 1e-12);
        let u = RangeDef { likely: None, ..r };
        assert_eq!(draw(&u, 0.25), 2.5);
    }
}

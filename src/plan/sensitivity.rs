//! Ranges and sensitivity (#19, part 2): a tornado (the budget with each Ranges key at its low
//! and at its high, the others at base) and the P10/P50/P90 of the budget over seeded random
//! samples of every key at once, each sample re-planned (the GPU and mode may change).

use super::choose::choose;
use super::evaluate::{evaluate_workload, evaluate_workload_into, Best, FullRow};
use super::portfolio::portfolio;
use super::programs::{Keys, Programs};
use super::Mode;
use super::{plan_with, Candidate, FormulaColumn, Options, Plan, WorkloadPlan};
use crate::error::{Error, Result};
use crate::formula::Program;
use crate::model::change::Target;
use crate::model::Price;
use crate::model::{Input, RangeDef};

/// One Ranges row's swing: the budget at its low and at its high.
#[derive(Debug, Clone)]
pub struct TornadoRow {
    /// The Ranges row's key as written (`chat-api.concurrency`, `gpu:H100.monthly`,
    /// `safety_margin`).
    pub key: String,
    /// The row's `low` value, in the varied column's unit.
    pub low: f64,
    /// The row's `high` value, in the varied column's unit.
    pub high: f64,
    /// The budget (total with margin, a month) re-planned with the key at `low`, the other
    /// keys at base.
    pub at_low: f64,
    /// The budget (total with margin, a month) re-planned with the key at `high`, the other
    /// keys at base.
    pub at_high: f64,
}

impl TornadoRow {
    /// How far the budget moves across the range.
    pub fn swing(&self) -> f64 {
        (self.at_high - self.at_low).abs()
    }
}

/// The Ranges sheet's sensitivity of the budget: the tornado, one key at a time, and the
/// percentiles of the budget over seeded samples of every key at once.
#[derive(Debug, Clone)]
pub struct Sensitivity {
    /// The seed of the [`SplitMix`] draws (`--seed`): the same seed gives the same samples.
    pub seed: u64,
    /// How many samples were drawn and re-planned (`--samples`); 0 for the tornado only.
    pub samples: usize,
    /// The budget (total with margin) of the base plan.
    pub base: f64,
    /// The percentiles of the sampled budgets; None with no samples (`--samples 0`: the
    /// tornado only), never a made-up 0.
    pub p10: Option<f64>,
    /// The median of the sampled budgets (type 7 [`quantile`]); None with no samples.
    pub p50: Option<f64>,
    /// The 90th percentile of the sampled budgets; None with no samples.
    pub p90: Option<f64>,
    /// Widest swing first.
    pub tornado: Vec<TornadoRow>,
}

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny generator whose sequence for a seed never
/// changes with a dependency update, so `--seed` reproduces a run on any version. The fleet's
/// property test and benchmark draw their portfolios from it too.
pub struct SplitMix(pub u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1): the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A whole number below `n` (1 or more).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
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
    programs: &Programs,
    ranges: &[RangeDef],
    values: &[f64],
    opts: &Options,
) -> Result<f64> {
    let mut inp = input.clone();
    for (r, v) in ranges.iter().zip(values) {
        inp.set_number(&r.target, &r.column, *v)
            .map_err(|e| Error::input(&input.file, r.cell.clone(), e))?;
    }
    let p = plan_with(inp, programs, opts)?;
    Ok(p.sum(super::NeedSum::TOTAL_WITH_MARGIN))
}

/// Which workloads a Ranges key can change: a workload column its workloads (`*` all), a GPU
/// column every workload, an assumption every workload when a candidate formula reads it and
/// none when only portfolio formulas do (a margin, a trial reserve, ops labour).
fn reach(input: &Input, programs: &Programs, r: &RangeDef) -> Vec<bool> {
    let n = input.workloads.len();
    match &r.target {
        Target::Workload(name) => input
            .workloads
            .iter()
            .map(|w| name == "*" || &w.name == name)
            .collect(),
        Target::Gpu(_) => vec![true; n],
        Target::Assumption => {
            let p = &programs.candidate;
            let read = p
                .slot(&r.column)
                .is_some_and(|s| !p.dependents(&[s]).is_empty());
            vec![read; n]
        }
    }
}

/// The candidate input a GPUs column sets (`on_demand_hourly` → `price_on_demand`), for the
/// columns that only price a candidate.
fn price_input(column: &str) -> Option<&'static str> {
    if let Some(p) = Price::parse(column) {
        return Some(p.spec().input);
    }
    Some(match column {
        "billing_granularity_min" => "billing_granularity_min",
        "min_rental_min" => "min_rental_min",
        _ => return None,
    })
}

/// A Ranges key that only prices candidates: the candidate input slot it sets, on the offers
/// it names (None: every offer, or an assumption).
struct PriceKey {
    range: usize,
    slot: usize,
    /// Per offer, whether the key sets it (`gpu:NAME`); None: every offer.
    offers: Option<Vec<bool>>,
}

impl PriceKey {
    fn sets(&self, offer: usize) -> bool {
        self.offers.as_ref().is_none_or(|o| o[offer])
    }
}

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
struct Replanner<'a> {
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
    fn new(base: &'a Plan, programs: &'a Programs, ranges: &'a [RangeDef]) -> Result<Self> {
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
            .map_err(|e| {
                let d = &self.programs.candidate_defs()[e.def];
                Error::input(
                    &inp.file,
                    d.location(),
                    format!(
                        "has no value for a sample of the Ranges sheet: look at `{}`",
                        d.expression
                    ),
                )
            })?;
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
            p.eval_only(&self.deps, buf, &mut scratch).map_err(|e| {
                let d = &self.programs.candidate_defs()[e.def];
                Error::input(
                    &inp.file,
                    d.location(),
                    format!(
                        "has no value for a sample of the Ranges sheet: look at `{}`",
                        d.expression
                    ),
                )
            })?;
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

/// Most values drawn for one run (samples × Ranges rows, 8 bytes each: 80 MB).
pub const MAX_DRAWS: usize = 10_000_000;

/// The tornado and the sampled percentiles of the budget for `input`'s Ranges rows.
pub fn sensitivity(
    input: &Input,
    programs: &Programs,
    samples: usize,
    seed: u64,
    now: i64,
) -> Result<Sensitivity> {
    sensitivity_counted(
        input,
        programs,
        samples,
        seed,
        now,
        &std::sync::atomic::AtomicUsize::new(0),
    )
}

/// [`sensitivity`], counting in `done` the samples planned so far: a run near the cap of draws
/// re-plans millions of samples, and the caller may show how far it is (the planner prints
/// nothing itself).
pub fn sensitivity_counted(
    input: &Input,
    programs: &Programs,
    samples: usize,
    seed: u64,
    now: i64,
    done: &std::sync::atomic::AtomicUsize,
) -> Result<Sensitivity> {
    let ranges = &input.ranges;
    // The draws are held at once (a value per key per sample): bounded before they are made.
    if samples.saturating_mul(ranges.len()) > MAX_DRAWS {
        return Err(Error::Usage(format!(
            "--samples {samples} × {} Ranges rows is {} values to draw; gpuplan draws at most {MAX_DRAWS} (give fewer --samples)",
            ranges.len(),
            samples.saturating_mul(ranges.len())
        )));
    }
    // Whole-number columns are sampled in whole numbers (the reader checked low and high).
    let whole: Vec<bool> = ranges.iter().map(|r| r.whole).collect();
    let opts = Options {
        keep: Some(1),
        threads: 1,
        now,
    };
    // The base plan: its budget, and the samples re-plan from it (it keeps each workload's
    // chosen candidate).
    let base_plan = plan_with(input.clone(), programs, &opts)?;
    let base = base_plan.sum(super::NeedSum::TOTAL_WITH_MARGIN);
    let tornado = tornado_rows(input, programs, &opts)?;
    let replanner = Replanner::new(&base_plan, programs, ranges)?;
    let draws = draw_samples(ranges, &whole, samples, seed);
    let mut totals = sample_budgets(&replanner, &draws, done)?;
    totals.sort_by(f64::total_cmp);
    let percentile = |p: f64| (!totals.is_empty()).then(|| quantile(&totals, p));
    Ok(Sensitivity {
        seed,
        samples,
        base,
        p10: percentile(0.1),
        p50: percentile(0.5),
        p90: percentile(0.9),
        tornado,
    })
}

/// The budget with each Ranges key at its low and at its high, the others at base; widest
/// swing first.
fn tornado_rows(input: &Input, programs: &Programs, opts: &Options) -> Result<Vec<TornadoRow>> {
    let ranges = &input.ranges;
    let mut tornado = Vec::with_capacity(ranges.len());
    for r in ranges {
        let at = |v: f64| budget(input, programs, std::slice::from_ref(r), &[v], opts);
        tornado.push(TornadoRow {
            key: r.key.clone(),
            low: r.low,
            high: r.high,
            at_low: at(r.low)?,
            at_high: at(r.high)?,
        });
    }
    tornado.sort_by(|a, b| b.swing().total_cmp(&a.swing()));
    Ok(tornado)
}

/// The values of every key for each of `samples` samples, drawn in order from one generator
/// seeded with `seed` (whole-number keys rounded): the same seed gives the same samples
/// whatever the number of threads that plan them.
fn draw_samples(ranges: &[RangeDef], whole: &[bool], samples: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = SplitMix(seed);
    (0..samples)
        .map(|_| {
            ranges
                .iter()
                .zip(whole)
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
        .collect()
}

/// The budget of each sample, in the samples' order, planned in parallel (at most 8 threads,
/// each on a contiguous chunk).
fn sample_budgets(
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

/// How the Ranges keys reach the workloads: what a sample re-evaluates in full, and the keys
/// that only price candidates.
struct KeyReach {
    /// Per workload: re-evaluate it in full.
    full: Vec<bool>,
    /// Whether a price key reaches a candidate formula (then the base rows are kept).
    priced: bool,
    prices: Vec<PriceKey>,
}

/// Sorts the Ranges keys into those that only price candidates (a price no sizing, fit or
/// allowed mode depends on) and those that re-evaluate the workloads they reach in full.
fn key_reach(input: &Input, programs: &Programs, ranges: &[RangeDef], keys: &Keys) -> KeyReach {
    let p = &programs.candidate;
    let n_in = p.inputs();
    // What a price may not reach: the sizing, fit and allowed modes.
    let mut sizing: Vec<usize> = [
        keys.gpus_per_replica,
        keys.fits,
        keys.replicas,
        keys.gpus_total,
    ]
    .into_iter()
    .chain(keys.allows.into_iter().flatten())
    .map(|c| n_in + c)
    .collect();
    sizing.sort_unstable();
    let reaches_sizing = |slots: &[usize]| {
        p.dependents(slots)
            .iter()
            .any(|&k| sizing.binary_search(&p.order[k].slot).is_ok())
    };
    let n = input.workloads.len();
    let mut full = vec![false; n];
    let mut priced = false;
    let mut prices = Vec::new();
    for (ri, r) in ranges.iter().enumerate() {
        match (price_slot(p, &r.target, &r.column), &r.target) {
            // An assumption no candidate formula reads: the portfolio only.
            (None, Target::Assumption) => {}
            (Some((slot, offer)), _) if !reaches_sizing(&[slot]) => {
                if p.dependents(&[slot]).is_empty() {
                    continue;
                }
                priced = true;
                prices.push(PriceKey {
                    range: ri,
                    slot,
                    offers: offer.map(|name| offers_named(input, &name)),
                });
            }
            _ => {
                for (f, b) in full.iter_mut().zip(reach(input, programs, r)) {
                    *f |= b;
                }
            }
        }
    }
    KeyReach {
        full,
        priced,
        prices,
    }
}

/// The candidate input slot a Ranges key sets where it may only price candidates (a GPU price
/// or term column, or an assumption), with the GPU it names (None: every offer).
fn price_slot(p: &Program, target: &Target, column: &str) -> Option<(usize, Option<String>)> {
    match target {
        Target::Gpu(name) => price_input(column)
            .and_then(|v| p.slot(v))
            .map(|s| (s, (name != "*").then(|| name.clone()))),
        Target::Assumption => p.slot(column).map(|s| (s, None)),
        Target::Workload(_) => None,
    }
}

/// Per offer, whether `name` names it (by GPU or by label).
fn offers_named(input: &Input, name: &str) -> Vec<bool> {
    let n = crate::model::normalize(name);
    input.gpus.iter().map(|g| g.is_named(&n)).collect()
}

/// Whether the price keys leave every workload's choice as it is: the formulas they reach
/// (`deps`) are no mode's cost, no allowed mode and no hidden cost, and are the same for every
/// candidate of a workload.
fn choice_stays(programs: &Programs, keys: &Keys, deps: &[usize]) -> bool {
    let p = &programs.candidate;
    let n_in = p.inputs();
    let mut choosing: Vec<usize> = keys
        .costs
        .into_iter()
        .flatten()
        .chain(keys.allows.into_iter().flatten())
        .chain(keys.hidden.into_iter().flatten().flatten())
        .map(|c| n_in + c)
        .collect();
    choosing.sort_unstable();
    // Fixed also needs what the keys reach to be the same for every candidate of a workload
    // (a storage formula reading a GPU figure could favour one offer over another).
    deps.iter().all(|&k| {
        choosing.binary_search(&p.order[k].slot).is_err() && !programs.varies_by_candidate(k)
    })
}

/// The evaluated rows of every workload a sample does not re-evaluate in full: all of them, or
/// only the chosen one where the choice stays (none for an unplanned workload).
fn base_rows(
    base: &Plan,
    programs: &Programs,
    keys: &Keys,
    full: &[bool],
    choice_fixed: bool,
) -> Result<Vec<Option<Vec<FullRow>>>> {
    let input = &base.input;
    let n_in = programs.candidate.inputs();
    let mut rows: Vec<Option<Vec<FullRow>>> = (0..input.workloads.len()).map(|_| None).collect();
    for (i, w) in input.workloads.iter().enumerate() {
        if full[i] {
            continue;
        }
        let mut sink = Vec::new();
        evaluate_workload_into(programs, input, w, keys, 1, Some(&mut sink)).map_err(|p| {
            Error::Input {
                file: input.file.clone(),
                problems: vec![p],
            }
        })?;
        if choice_fixed {
            // Only the chosen row matters (none for an unplanned workload).
            let chosen = base
                .chosen(i)
                .map(|(c, _)| (c.offer, c.values[keys.gpus_per_replica]));
            sink.retain(|r| {
                chosen.is_some_and(|(o, s)| {
                    r.offer == o && r.values[n_in + keys.gpus_per_replica] == s
                })
            });
            sink.truncate(1);
        }
        rows[i] = Some(sink);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// #44 item 10: a run at the cap of draws re-plans millions of samples, minutes for a large
    /// portfolio, with nothing to tell it from a hang. The samples planned are counted as they
    /// are (calc shows the count on its progress line), every one of them by the end.
    #[test]
    fn the_samples_planned_are_counted_as_they_are() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/startup.xlsx");
        let input = crate::read::read(&path, &[]).expect("the sample reads");
        assert!(!input.ranges.is_empty(), "startup has a Ranges sheet");
        let programs = Programs::compile(&input).expect("compiles");
        let done = std::sync::atomic::AtomicUsize::new(0);
        let s = sensitivity_counted(&input, &programs, 250, 7, 0, &done).expect("samples");
        assert_eq!(done.load(std::sync::atomic::Ordering::Relaxed), 250);
        assert_eq!(s.samples, 250);
    }

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
            target: Target::Assumption,
            column: "k".into(),
            whole: false,
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

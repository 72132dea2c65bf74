//! Ranges and sensitivity (#19, part 2): a tornado (the budget with each Ranges key at its low
//! and at its high, the others at base) and the P10/P50/P90 of the budget over seeded random
//! samples of every key at once, each sample re-planned (the GPU and mode may change).

mod draws;
mod reach;
mod replan;

pub use draws::{quantile, SplitMix};

use super::programs::Programs;
use super::{plan_with, Options};
use crate::error::{Error, Result};
use crate::model::{Input, RangeDef};
use draws::draw_samples;
use replan::{sample_budgets, Replanner};

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
}

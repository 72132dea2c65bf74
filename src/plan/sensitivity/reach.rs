//! How the Ranges keys reach the workloads: the keys that only price candidates (a cost
//! formula re-run over the base plan's rows) and those that re-evaluate the workloads they
//! reach in full, with the base rows the pricing keys re-run.

use crate::error::{Error, Result};
use crate::formula::Program;
use crate::model::change::Target;
use crate::model::{Input, Price, RangeDef};
use crate::plan::evaluate::{evaluate_workload_into, FullRow};
use crate::plan::programs::{Keys, Programs};
use crate::plan::Plan;

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
pub(super) struct PriceKey {
    pub(super) range: usize,
    pub(super) slot: usize,
    /// Per offer, whether the key sets it (`gpu:NAME`); None: every offer.
    offers: Option<Vec<bool>>,
}

impl PriceKey {
    pub(super) fn sets(&self, offer: usize) -> bool {
        self.offers.as_ref().is_none_or(|o| o[offer])
    }
}

/// How the Ranges keys reach the workloads: what a sample re-evaluates in full, and the keys
/// that only price candidates.
pub(super) struct KeyReach {
    /// Per workload: re-evaluate it in full.
    pub(super) full: Vec<bool>,
    /// Whether a price key reaches a candidate formula (then the base rows are kept).
    pub(super) priced: bool,
    pub(super) prices: Vec<PriceKey>,
}

/// Sorts the Ranges keys into those that only price candidates (a price no sizing, fit or
/// allowed mode depends on) and those that re-evaluate the workloads they reach in full.
pub(super) fn key_reach(
    input: &Input,
    programs: &Programs,
    ranges: &[RangeDef],
    keys: &Keys,
) -> KeyReach {
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
pub(super) fn choice_stays(programs: &Programs, keys: &Keys, deps: &[usize]) -> bool {
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
pub(super) fn base_rows(
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

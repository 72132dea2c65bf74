//! The formula trace of `gpuplan explain`.

use super::programs::Programs;
use crate::error::{Error, Result};
use crate::formula::Ty;
use crate::model::Input;

/// One formula's line in a trace.
#[derive(Debug, Clone)]
pub struct TraceLine {
    /// The formula's name (the Formulas sheet's `name` column).
    pub name: String,
    /// The formula's expression as the Formulas sheet writes it.
    pub expression: String,
    /// Its value on this candidate; for a boolean formula, non-zero is true and 0 false.
    pub value: f64,
    /// Whether the formula computes a boolean rather than a number.
    pub is_bool: bool,
    /// The Formulas sheet's `unit` column (`GiB`, `h`, `money`, …); may be empty.
    pub unit: String,
}

/// Every candidate formula of one workload on one offer, in evaluation order.
#[derive(Debug, Clone)]
pub struct Trace {
    /// The workload's name, as the Workloads sheet gives it.
    pub workload: String,
    /// The offer traced, as `GPU @ provider` (the GPU alone without a provider).
    pub offer: String,
    /// One line per candidate formula, in evaluation order.
    pub lines: Vec<TraceLine>,
}

/// The formula trace of workload `name` on `gpu` (default: the chosen offer, else the first).
pub fn trace(input: Input, name: &str, gpu: Option<&str>) -> Result<Trace> {
    let wi = workload_named(&input, name)?;
    let offer = offer_named(&input, gpu)?;
    let programs = Programs::compile(&input)?;
    let (offer, size) = offer_and_size(&input, &programs, wi, offer)?;
    let w = &input.workloads[wi];
    let values = values_at(&programs, &input, wi, offer, size)?;
    Ok(Trace {
        workload: w.name.clone(),
        offer: input.gpus[offer].label(),
        lines: lines(&programs, &values),
    })
}

/// The index of workload `name` (its case ignored where no name matches exactly).
fn workload_named(input: &Input, name: &str) -> Result<usize> {
    let Some(wi) = input
        .workloads
        .iter()
        .position(|w| w.name == name || w.name.eq_ignore_ascii_case(name))
    else {
        let hint =
            crate::support::suggest::hint(name, input.workloads.iter().map(|w| w.name.as_str()));
        return Err(Error::Usage(format!(
            "there is no workload named \"{name}\" in {}{hint}",
            input.file.display()
        )));
    };
    Ok(wi)
}

/// The index of the offer `gpu` names, by GPU or by label, if one is named.
fn offer_named(input: &Input, gpu: Option<&str>) -> Result<Option<usize>> {
    let Some(g) = gpu else {
        return Ok(None);
    };
    let named = crate::model::normalize(g);
    let offer = input
        .gpus
        .iter()
        .position(|o| o.is_named(&named))
        .ok_or_else(|| {
            Error::Usage(format!(
                "there is no GPU offer \"{g}\"{}",
                crate::support::suggest::hint(g, input.gpus.iter().map(|o| o.gpu.as_str()))
            ))
        })?;
    Ok(Some(offer))
}

/// The offer traced and its replica size: the chosen one, else the best candidate's on that
/// offer, else 0 where that offer has no kept candidate ([`values_at`] then finds the fewest
/// GPUs that hold the weights).
fn offer_and_size(
    input: &Input,
    programs: &Programs,
    wi: usize,
    offer: Option<usize>,
) -> Result<(usize, f64)> {
    let p = super::plan_with(input.clone(), programs, &super::Options::default())?;
    let size_of = |c: &super::Candidate| p.value(c, "gpus_per_replica").unwrap_or(1.0);
    Ok(match offer {
        None => match p.chosen(wi) {
            Some((c, _)) => (c.offer, size_of(c)),
            None => p.workloads[wi]
                .candidates
                .first()
                .map_or((0, 1.0), |c| (c.offer, size_of(c))),
        },
        Some(o) => (
            o,
            p.workloads[wi]
                .candidates
                .iter()
                .find(|c| c.offer == o)
                .map_or(0.0, size_of),
        ),
    })
}

/// The candidate values of workload `wi` on `offer` with `size` GPUs a replica; a size of 0
/// is the one that holds the weights and one request.
fn values_at(
    programs: &Programs,
    input: &Input,
    wi: usize,
    offer: usize,
    size: f64,
) -> Result<Vec<f64>> {
    let w = &input.workloads[wi];
    let evaluate = |size: f64| {
        programs
            .evaluate_one(input, w, offer, size)
            .map_err(|p| Error::Input {
                file: input.file.clone(),
                problems: vec![p],
            })
    };
    let mut values = evaluate(size.max(1.0))?;
    if size == 0.0 {
        // Not among the kept candidates: the size that holds the weights and one request.
        if let Some(slot) = programs.candidate.slot("gpus_per_replica") {
            let needs = values[slot];
            if needs > 1.0 {
                values = evaluate(needs)?;
            }
        }
    }
    Ok(values)
}

/// One line per candidate formula, in evaluation order, with its value in `values`.
fn lines(programs: &Programs, values: &[f64]) -> Vec<TraceLine> {
    programs
        .candidate
        .order
        .iter()
        .map(|f| {
            let d = &programs.candidate_defs()[f.def];
            TraceLine {
                name: f.name.clone(),
                expression: d.expression.clone(),
                value: values[f.slot],
                is_bool: f.ty == Ty::Bool,
                unit: d.unit.clone(),
            }
        })
        .collect()
}

//! The formula trace of `gpuplan explain`.

use super::engine::Engine;
use super::plan;
use crate::error::{Error, Result};
use crate::formula::Ty;
use crate::model::Input;

/// One formula's line in a trace.
#[derive(Debug, Clone)]
pub struct TraceLine {
    pub name: String,
    pub expression: String,
    pub value: f64,
    pub is_bool: bool,
    pub unit: String,
}

/// Every candidate formula of one workload on one offer, in evaluation order.
#[derive(Debug, Clone)]
pub struct Trace {
    pub workload: String,
    pub offer: String,
    pub lines: Vec<TraceLine>,
}

/// The formula trace of workload `name` on `gpu` (default: the chosen offer, else the first).
pub fn trace(input: Input, name: &str, gpu: Option<&str>) -> Result<Trace> {
    let Some(wi) = input
        .workloads
        .iter()
        .position(|w| w.name == name || w.name.eq_ignore_ascii_case(name))
    else {
        let hint = crate::suggest::hint(name, input.workloads.iter().map(|w| w.name.as_str()));
        return Err(Error::Usage(format!(
            "there is no workload named \"{name}\" in {}{hint}",
            input.file.display()
        )));
    };
    let offer = match gpu {
        Some(g) => Some(
            input
                .gpus
                .iter()
                .position(|o| {
                    crate::model::normalize(&o.gpu) == crate::model::normalize(g)
                        || crate::model::normalize(&o.label()) == crate::model::normalize(g)
                })
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "there is no GPU offer \"{g}\"{}",
                        crate::suggest::hint(g, input.gpus.iter().map(|o| o.gpu.as_str()))
                    ))
                })?,
        ),
        None => None,
    };
    // The replica size: the chosen one, else the best candidate's on that offer, else the
    // fewest GPUs that hold the weights.
    let p = plan(input.clone())?;
    let size_of = |c: &super::Candidate| p.value(c, "gpus_per_replica").unwrap_or(1.0);
    let (offer, size) = match offer {
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
    };
    let engine = Engine::compile(&input)?;
    let w = &input.workloads[wi];
    let evaluate = |size: f64| {
        engine
            .evaluate_one(&input, w, offer, size)
            .map_err(|p| Error::Input {
                file: input.file.clone(),
                problems: vec![p],
            })
    };
    let mut values = evaluate(size.max(1.0))?;
    if size == 0.0 {
        // Not among the kept candidates: the size that holds the weights and one request.
        if let Some(slot) = engine.candidate.slot("gpus_per_replica") {
            let needs = values[slot];
            if needs > 1.0 {
                values = evaluate(needs)?;
            }
        }
    }
    let lines = engine
        .candidate
        .order
        .iter()
        .map(|f| {
            let d = &engine.candidate_defs()[f.def];
            TraceLine {
                name: f.name.clone(),
                expression: d.expression.clone(),
                value: values[f.slot],
                is_bool: f.ty == Ty::Bool,
                unit: d.unit.clone(),
            }
        })
        .collect();
    Ok(Trace {
        workload: w.name.clone(),
        offer: input.gpus[offer].label(),
        lines,
    })
}

//! A row's estimate: its workload, model, GPU and assumptions as a one-GPU input, evaluated by
//! the default formulas.

use super::{Family, Metric, Row};
use crate::catalog;
use crate::error::{Error, Result};
use crate::lang::Lang;
use crate::model::{
    Assumptions, CellRef, Engines, GpuOffer, Input, ModelSpec, Workload, WorkloadNumbers,
};
use crate::plan::Programs;
use crate::read::{set_assumption, workload_number};

/// The catalog's model a row names.
fn row_model(row: &Row, models: &[ModelSpec]) -> Result<ModelSpec> {
    models
        .iter()
        .find(|m| m.name == row.model)
        .cloned()
        .ok_or_else(|| {
            Error::Usage(format!(
                "validation row {}: {} is not in the catalog",
                row.id, row.model
            ))
        })
}

/// The default assumptions with the row's own columns and its settings applied, checked as
/// the Assumptions sheet would check them.
fn row_assumptions(row: &Row) -> Result<Assumptions> {
    let mut assumptions = catalog::assumptions(Lang::En);
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let fraction = row.lora_trainable_fraction.map(|f| f.to_string());
    let columns = [
        Some(("grad_checkpointing", yes_no(row.grad_checkpointing))),
        Some(("flash_attention", yes_no(row.flash_attention))),
        fraction.as_deref().map(|f| ("lora_trainable_fraction", f)),
    ];
    let settings = row
        .settings
        .iter()
        .filter(|(k, _)| !is_workload_column(k))
        .map(|(k, v)| (k.as_str(), v.as_str()));
    for (key, value) in columns.into_iter().flatten().chain(settings) {
        set_assumption(&mut assumptions, key, value)
            .map_err(|e| Error::Usage(format!("validation row {}: {e}", row.id)))?;
    }
    Ok(assumptions)
}

/// A setting that names a numeric column of the Workloads sheet (`lora_rank=32`), which the
/// row's workload takes, not the assumptions.
fn is_workload_column(key: &str) -> bool {
    WorkloadNumbers::NAMES.contains(&key)
}

/// The row's settings that name a Workloads column, as numbers its cell would accept.
fn workload_settings(row: &Row) -> Result<Vec<(&str, f64)>> {
    row.settings
        .iter()
        .filter(|(k, _)| is_workload_column(k))
        .map(|(k, v)| {
            workload_number(k, v)
                .map(|x| (k.as_str(), x))
                .map_err(|e| Error::Usage(format!("validation row {}: {e}", row.id)))
        })
        .collect()
}

/// The assumptions a row's own columns set.
const ROW_COLUMNS: [&str; 3] = [
    "grad_checkpointing",
    "flash_attention",
    "lora_trainable_fraction",
];

/// The built-in engine profiles, less the values the row's own setup fixes (its settings, its
/// checkpointing, attention and LoRA share), which win over its engine's profile.
fn row_engines(row: &Row) -> Result<Engines> {
    let mut engines = catalog::engines();
    if let Some(e) = &row.engine {
        if engines.find(e).is_none() {
            return Err(Error::Usage(format!(
                "validation row {}: the engine {e} has no profile (built in: {})",
                row.id,
                engines.names().join(", ")
            )));
        }
        let fixed: Vec<&str> = row
            .settings
            .iter()
            .map(|(k, _)| k.as_str())
            .chain(ROW_COLUMNS)
            .collect();
        engines.values.retain(|v| !fixed.contains(&v.key.as_str()));
    }
    Ok(engines)
}

/// The row as a workload of its model, settings and GPUs, for one hour.
fn row_workload(row: &Row, model: ModelSpec) -> Result<Workload> {
    let mut numbers = WorkloadNumbers {
        context_len: Some(row.context_len),
        batch_size: Some(row.batch_size),
        concurrency: Some(row.concurrency),
        // An engine sets its pool at start, before any request: sized with one request of
        // one token, the replica is the row's GPUs even where a full request would not fit.
        avg_tokens: if row.metric.needs_card_memory() {
            Some(1.0)
        } else {
            row.avg_tokens
        },
        hours_per_month: Some(1.0),
        max_gpus: Some(row.gpus),
        ..WorkloadNumbers::default()
    };
    for (key, value) in workload_settings(row)? {
        if let Some(n) = numbers.get_mut(key) {
            *n = Some(value);
        }
    }
    Ok(Workload {
        model: Some(model),
        precision: row.precision,
        kv_precision: row.kv_precision,
        expert_precision: row.expert_precision,
        numbers,
        engine: row.engine.clone(),
        ..Workload::new(row.id.clone(), row.kind, CellRef::new("validation", 0, 0))
    })
}

/// The GPU the row is evaluated on: the catalog's figures for the row's GPU where they count,
/// memory enough for any workload unless the card's memory is what is measured.
fn row_gpu(row: &Row) -> Result<GpuOffer> {
    // Memory does not depend on the GPU but for FlashAttention; speed depends on its bandwidth.
    let known = catalog::find_gpu(&row.gpu);
    if row.metric.is_speed() && known.is_none() {
        return Err(Error::Usage(format!(
            "validation row {}: a {} row needs a GPU of the catalog, found {}",
            row.id,
            row.metric.key(),
            row.gpu
        )));
    }
    // A pool is a share of the card: its memory as the engine saw it, or the catalog's.
    let vram_gib = if row.metric.needs_card_memory() {
        row.gpu_gib
            .or(known.as_ref().map(|k| k.vram_gib))
            .ok_or_else(|| {
                Error::Usage(format!(
                    "validation row {}: a {} row needs gpu_gib or a GPU of the catalog, found {}",
                    row.id,
                    row.metric.key(),
                    row.gpu
                ))
            })?
    } else {
        1e6
    };
    Ok(GpuOffer {
        gpu: "validation".into(),
        platform: "cuda".into(),
        vram_gib,
        bandwidth_gbs: known.as_ref().map_or(1000.0, |k| k.bandwidth_gbs),
        fp16_tflops: known.as_ref().map_or(100.0, |k| k.fp16_tflops),
        fp8_tflops: known.as_ref().map_or(0.0, |k| k.fp8_tflops),
        fp16_acc16_tflops: known.as_ref().map_or(0.0, |k| k.fp16_acc16_tflops),
        // A catalog GPU's own compute capability: an engine's defaults depend on it, so do its
        // kernels' weight layouts (vLLM pads MXFP4 experts for Marlin below Hopper) and whether
        // FP8 runs natively. Off the catalog, FlashAttention-2 is assumed from 8.0 on.
        compute_capability: match &known {
            Some(k) => k.compute_capability,
            _ if row.flash_attention => 8.0,
            _ => 7.5,
        },
        gpus_per_node: row.gpus,
        interconnect_gbs: known.as_ref().map_or(0.0, |k| k.interconnect_gbs),
        nvlink: known.as_ref().is_some_and(|k| k.nvlink),
        on_demand_hourly: Some(1.0),
        billing_granularity_min: 60.0,
        available: true,
        ..GpuOffer::default()
    })
}

/// The input of one row: its workload and GPU, the catalog's models and default formulas.
fn row_input(row: &Row) -> Result<Input> {
    let models = catalog::models();
    let model = row_model(row, &models)?;
    let assumptions = row_assumptions(row)?;
    let engines = row_engines(row)?;
    let w = row_workload(row, model)?;
    let gpu = row_gpu(row)?;
    Ok(Input {
        file: "validation".into(),
        workloads: vec![w],
        gpus: vec![gpu],
        models,
        assumptions,
        engines,
        formulas: catalog::formulas(),
        ..Input::default()
    })
}

/// The estimate of one row: its workload on one GPU large enough to hold it, FlashAttention-2
/// available or not as measured, the row's checkpointing and LoRA share.
pub fn estimate(row: &Row) -> Result<f64> {
    let input = row_input(row)?;
    let programs = Programs::compile(&input)?;
    let values = programs
        .evaluate_one(&input, &input.workloads[0], 0, row.gpus)
        .map_err(|p| Error::Internal(p.to_string()))?;
    let value = |name: &str| {
        programs
            .candidate
            .slot(name)
            .map(|s| values[s])
            .unwrap_or(0.0)
    };
    // A multi-GPU row is measured on one GPU of the replica (vLLM logs each worker's weights and
    // KV pool): the replica's memory figures are spread evenly over its GPUs (tensor-parallel
    // shards, FSDP and ZeRO-3 shards; the working memory and overhead the formulas count per
    // GPU), so one GPU holds the replica's ÷ GPUs.
    let per_gpu = if row.metric.family() == Family::Memory {
        value("gpus_per_replica").max(1.0)
    } else {
        1.0
    };
    let v = value(row.metric.formula()) / per_gpu;
    if row.metric != Metric::Memory {
        return Ok(v);
    }
    Ok(as_allocator_sees(row, v, value("non_torch_gib"), |name| {
        value(name) / per_gpu
    }))
}

/// A memory row's estimate as its measurement sees it: torch's allocator figures do not see
/// what each GPU holds outside it (`non_torch`: the CUDA context, communication buffers), and
/// memory allocated once generation ends no longer holds the prefill's working set. `per_gpu`
/// gives a formula's value on one GPU of the replica.
fn as_allocator_sees(
    row: &Row,
    estimate: f64,
    non_torch: f64,
    per_gpu: impl Fn(&str) -> f64,
) -> f64 {
    let mut m = estimate;
    let allocator = [
        "max_memory_allocated",
        "allocated after",
        "max_memory_reserved",
    ];
    if allocator.iter().any(|a| row.measure.contains(a)) {
        m -= non_torch;
    }
    if row.measure.contains("allocated after") {
        m -= per_gpu("prefill_activation_gib");
    }
    m
}

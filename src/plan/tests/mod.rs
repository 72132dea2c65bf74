//! The planner on plain values, each number checked against arithmetic worked by hand.
//! One file per topic; the builders every topic uses are here.

use super::*;
use crate::catalog;
use crate::lang::Lang;
use crate::model::{Assumptions, CellRef, GpuOffer, Input, Kind, Precision, Value, Workload};

mod billing;
mod choice;
mod cuts;
mod exclusions;
mod formulas;
mod memory;
mod moe;
mod parallel;
mod speed;
mod training;

fn offer(
    gpu: &str,
    vram: f64,
    on_demand: Option<f64>,
    monthly: Option<f64>,
    spot: Option<f64>,
    reserved: Option<f64>,
) -> GpuOffer {
    GpuOffer {
        gpu: gpu.to_string(),
        provider: "test".to_string(),
        vram_gib: vram,
        bandwidth_gbs: 2000.0,
        fp16_tflops: 312.0,
        compute_capability: 8.0,
        nvlink: true,
        gpus_per_node: 8.0,
        on_demand_hourly: on_demand,
        monthly,
        spot_hourly: spot,
        reserved_monthly: reserved,
        billing_granularity_min: 60.0,
        min_rental_min: 0.0,
        available: true,
        platform: "cuda".to_string(),
        ..GpuOffer::default()
    }
}

fn workload(name: &str, kind: Kind, model: Option<&str>) -> Workload {
    let weights = if kind == Kind::Qlora {
        Precision::Int4
    } else {
        Precision::Bf16
    };
    Workload {
        model: model.map(|m| {
            catalog::models()
                .into_iter()
                .find(|x| x.name == m)
                .expect("catalog model")
        }),
        precision: weights,
        expert_precision: weights,
        online: crate::catalog::online_by_default(kind),
        spot_ok: kind == Kind::Batch,
        ..Workload::new(name, kind, CellRef::new("Workloads", 1, 0))
    }
}

fn input(workloads: Vec<Workload>, gpus: Vec<GpuOffer>, set: &[(&str, f64)]) -> Input {
    let mut assumptions: Assumptions = catalog::assumptions(Lang::En);
    // A yes/no assumption takes 0 as no and anything else as yes.
    for (k, v) in set {
        let a = assumptions
            .items
            .iter_mut()
            .find(|a| a.key == *k)
            .expect("assumption");
        a.value = match a.value {
            Value::Bool(_) => Value::Bool(*v != 0.0),
            _ => Value::Number(*v),
        };
    }
    Input {
        file: "test.xlsx".into(),
        workloads,
        gpus,
        models: catalog::models(),
        assumptions,
        engines: catalog::engines(),
        formulas: catalog::formulas(),
        ..Input::default()
    }
}

fn values_on(p: &Plan, w: usize, gpu: &str) -> Vec<(String, f64)> {
    let c = p.workloads[w]
        .candidates
        .iter()
        .find(|c| p.input.gpus[c.offer].gpu == gpu)
        .expect("candidate");
    p.columns
        .iter()
        .map(|c| c.name.clone())
        .zip(c.values.iter().copied())
        .collect()
}

fn v(values: &[(String, f64)], name: &str) -> f64 {
    values
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| *v)
        .unwrap_or_else(|| panic!("no {name}"))
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// A workload of `kind` and `model` run by `engine` at `context_len` tokens, 10 hours a month.
fn engine_workload(kind: Kind, model: &str, engine: &str, context_len: f64) -> Workload {
    let mut w = workload("w", kind, Some(model));
    w.engine = Some(engine.to_string());
    w.numbers.context_len = Some(context_len);
    w.numbers.hours_per_month = Some(10.0);
    w
}

/// One workload's values on one offer, the whole plan evaluated.
fn values_of(w: Workload, gpu: GpuOffer, set: &[(&str, f64)]) -> Vec<(String, f64)> {
    let name = gpu.gpu.clone();
    let p = plan(input(vec![w], vec![gpu], set)).unwrap();
    values_on(&p, 0, &name)
}

/// The values of serving `model` at `context_len` tokens on one offer of `gpu` with `vram` GiB.
fn serving(model: &str, context_len: f64, gpu: &str, vram: f64) -> Vec<(String, f64)> {
    let mut w = workload("chat", Kind::Inference, Some(model));
    w.numbers.context_len = Some(context_len);
    values_of(w, offer(gpu, vram, Some(20.0), None, None, None), &[])
}

/// DeepSeek-R1 served in its checkpoint's FP8, prompts of `context_len` tokens.
fn deepseek_r1_fp8(context_len: f64) -> Workload {
    let mut w = workload("r1", Kind::Inference, Some("DeepSeek-R1"));
    w.precision = Precision::Fp8;
    w.expert_precision = Precision::Fp8;
    w.numbers.context_len = Some(context_len);
    w
}

/// The values of DeepSeek-R1 in FP8 through vLLM on 141 GB cards, prompts of 32,768 tokens.
fn r1_fp8_through_vllm_on_h200s(set: &[(&str, f64)]) -> Vec<(String, f64)> {
    let mut w = deepseek_r1_fp8(32768.0);
    w.engine = Some("vllm".into());
    values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), set)
}

/// Llama-2-7B fully fine-tuned by `engine` at 2,048 tokens and `batch_size` sequences a GPU,
/// 10 hours a month, on an 80 GB A100 offer.
fn full_finetune_7b(engine: Option<&str>, batch_size: f64, set: &[(&str, f64)]) -> Plan {
    let mut w = workload("ft", Kind::FullFinetune, Some("Llama-2-7B"));
    w.engine = engine.map(str::to_string);
    w.numbers.context_len = Some(2048.0);
    w.numbers.batch_size = Some(batch_size);
    w.numbers.hours_per_month = Some(10.0);
    plan(input(
        vec![w],
        vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
        set,
    ))
    .unwrap()
}

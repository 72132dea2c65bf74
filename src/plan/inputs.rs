//! The variables the engine gives candidate and portfolio formulas (SPEC §4), and how a
//! workload, a GPU offer and the assumptions fill them, defaults included.

use crate::error::Problem;
use crate::formula::{InputVar, Program, Ty};
use crate::model::{Assumptions, GpuOffer, Kind, Value, Workload, WorkloadNumbers};

const MODEL_FIELDS: [&str; 7] = [
    "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn", "vocab",
];
const FLAGS: [&str; 10] = [
    "online",
    "spot_ok",
    "is_inference",
    "is_lora",
    "is_qlora",
    "is_full",
    "is_pretrain",
    "is_training",
    "is_image",
    "is_batch",
];
/// The offer's specifications; its prices and terms (`GpuOffer::TERMS`) and `gpu_index` follow.
const GPU_SPECS: [&str; 5] = [
    "gpu_vram_gib",
    "gpu_bandwidth_gbs",
    "gpu_tflops",
    "gpu_cc",
    "gpus_per_node",
];

/// Every numeric per-offer input, in binding order.
fn gpu_numbers() -> impl Iterator<Item = &'static str> {
    GPU_SPECS
        .into_iter()
        .chain(GpuOffer::TERMS)
        .chain(["gpu_index"])
}
const GPU_FLAGS: [&str; 5] = [
    "gpu_nvlink",
    "has_on_demand",
    "has_monthly",
    "has_spot",
    "has_reserved",
];

/// The candidate-scope inputs, in slot order: workload, model, flags, GPU, then assumptions.
/// Assumption keys that collide with a built-in name are reported.
pub fn candidate_inputs(assumptions: &Assumptions) -> (Vec<InputVar>, Vec<Problem>) {
    let mut vars = Vec::new();
    for n in WorkloadNumbers::NAMES {
        vars.push(InputVar::num(*n));
        vars.push(InputVar::bool(format!("has_{n}")));
    }
    vars.extend(MODEL_FIELDS.iter().map(|n| InputVar::num(*n)));
    vars.push(InputVar::num("bytes_per_param"));
    vars.push(InputVar::num("kv_bytes"));
    vars.extend(FLAGS.iter().map(|n| InputVar::bool(*n)));
    vars.extend(gpu_numbers().map(InputVar::num));
    vars.extend(GPU_FLAGS.iter().map(|n| InputVar::bool(*n)));
    let problems = add_assumptions(&mut vars, assumptions);
    (vars, problems)
}

pub use crate::model::PLANNED;

/// The portfolio-scope inputs: `total_<name>` for every numeric candidate formula and planned
/// figure, the count of planned workloads, then assumptions.
pub fn portfolio_inputs(
    candidate: &Program,
    assumptions: &Assumptions,
) -> (Vec<InputVar>, Vec<Problem>) {
    let mut vars: Vec<InputVar> = candidate
        .order
        .iter()
        .filter(|f| f.ty == Ty::Num)
        .map(|f| InputVar::num(format!("total_{}", f.name)))
        .collect();
    for p in PLANNED {
        if !vars.iter().any(|v| v.name == format!("total_{p}")) {
            vars.push(InputVar::num(format!("total_{p}")));
        }
    }
    vars.push(InputVar::num("workloads_planned"));
    vars.push(InputVar::num("workloads_unplanned"));
    let problems = add_assumptions(&mut vars, assumptions);
    (vars, problems)
}

fn add_assumptions(vars: &mut Vec<InputVar>, assumptions: &Assumptions) -> Vec<Problem> {
    let mut problems = Vec::new();
    for a in &assumptions.items {
        let ty = match a.value {
            Value::Number(_) => Ty::Num,
            Value::Bool(_) => Ty::Bool,
            Value::Text(_) => continue,
        };
        if vars.iter().any(|v| v.name == a.key) {
            problems.push(Problem::new(
                a.source.to_string(),
                format!(
                    "the assumption `{}` has the name of a built-in variable; rename it",
                    a.key
                ),
            ));
            continue;
        }
        vars.push(InputVar {
            name: a.key.clone(),
            ty,
        });
    }
    problems
}

fn b(x: bool) -> f64 {
    if x {
        1.0
    } else {
        0.0
    }
}

/// Writes assumption values into their slots.
pub fn bind_assumptions(p: &Program, assumptions: &Assumptions, values: &mut [f64]) {
    for a in &assumptions.items {
        let v = match a.value {
            Value::Number(n) => n,
            Value::Bool(x) => b(x),
            Value::Text(_) => continue,
        };
        if let Some(s) = p.slot(&a.key) {
            if s < p.inputs() {
                values[s] = v;
            }
        }
    }
}

/// Slots of the per-offer inputs, resolved once per program.
pub struct GpuSlots {
    slots: Vec<Option<usize>>,
    max_gpus: Option<usize>,
}

impl GpuSlots {
    pub fn new(p: &Program) -> Self {
        let names = gpu_numbers().chain(GPU_FLAGS);
        GpuSlots {
            slots: names.map(|n| p.slot(n)).collect(),
            max_gpus: p.slot("max_gpus"),
        }
    }

    /// Writes an offer's figures; `max_gpus` defaults to the offer's GPUs per node.
    pub fn bind(&self, offer: &GpuOffer, index: usize, w: &Workload, values: &mut [f64]) {
        let specs = [
            offer.vram_gib,
            offer.bandwidth_gbs,
            offer.fp16_tflops,
            offer.compute_capability,
            offer.gpus_per_node,
        ];
        let flags = [
            b(offer.nvlink),
            b(offer.on_demand_hourly.is_some()),
            b(offer.monthly.is_some()),
            b(offer.spot_hourly.is_some()),
            b(offer.reserved_monthly.is_some()),
        ];
        let figures = specs
            .into_iter()
            .chain(offer.terms().map(|t| t.unwrap_or(0.0)))
            .chain([index as f64])
            .chain(flags);
        for (slot, v) in self.slots.iter().zip(figures) {
            if let Some(s) = slot {
                values[*s] = v;
            }
        }
        if let (Some(s), None) = (self.max_gpus, w.numbers.max_gpus) {
            values[s] = offer.gpus_per_node;
        }
    }
}

/// Writes a workload's inputs (with their defaults) into `values`.
pub fn bind_workload(p: &Program, w: &Workload, assumptions: &Assumptions, values: &mut [f64]) {
    let mut set = |name: &str, v: f64| {
        if let Some(s) = p.slot(name) {
            if s < p.inputs() {
                values[s] = v;
            }
        }
    };
    let n = &w.numbers;
    let training = w.kind.is_training();
    let context = n
        .context_len
        .unwrap_or(if training { 2048.0 } else { 4096.0 });
    for key in WorkloadNumbers::NAMES {
        let given = n.get(key).flatten();
        let default = match *key {
            "params_b" => w.params_b(),
            "context_len" => context,
            "avg_tokens" => context,
            "concurrency" | "batch_size" | "runs_per_month" | "pilot_concurrency" => 1.0,
            "hours_per_month" if w.online => assumptions.number("hours_in_month", 730.0),
            "resolution" => 1024.0,
            _ => 0.0,
        };
        set(key, given.unwrap_or(default));
        set(&format!("has_{key}"), b(given.is_some()));
    }
    for f in MODEL_FIELDS {
        set(f, w.model.as_ref().map_or(0.0, |m| m.field(f)));
    }
    set("bytes_per_param", w.precision.bytes());
    set("kv_bytes", w.kv_precision.bytes());
    let k = w.kind;
    set("online", b(w.online));
    set("spot_ok", b(w.spot_ok));
    set("is_inference", b(k == Kind::Inference));
    set("is_lora", b(k == Kind::Lora));
    set("is_qlora", b(k == Kind::Qlora));
    set(
        "is_full",
        b(matches!(k, Kind::FullFinetune | Kind::Pretrain)),
    );
    set("is_pretrain", b(k == Kind::Pretrain));
    set("is_training", b(training));
    set("is_image", b(k == Kind::ImageGen));
    set("is_batch", b(k == Kind::Batch));
}

//! The variables the engine gives candidate and portfolio formulas (SPEC §4), and how a
//! workload, a GPU offer and the assumptions fill them, defaults included.

use crate::catalog::Fallback;
use crate::error::Problem;
use crate::formula::{InputVar, Program, Ty};
use crate::model::Price;
use crate::model::{
    Assumptions, Engines, GpuOffer, Kind, ModelSpec, Precision, Value, Workload, WorkloadNumbers,
};

/// The model's figures as formula variables: every Models field but params_b (a workload
/// column, the row's own figure winning over the model's).
fn model_fields() -> impl Iterator<Item = &'static str> {
    ModelSpec::FIELDS
        .iter()
        .copied()
        .filter(|f| *f != "params_b")
}
/// Bytes per value of the formats a workload stores.
const BYTES: [&str; 3] = ["bytes_per_param", "kv_bytes", "expert_bytes_per_param"];
const FLAGS: [&str; 14] = [
    "online",
    "spot_ok",
    "is_inference",
    "is_lora",
    "is_qlora",
    "is_full",
    "is_pretrain",
    "is_training",
    "is_image",
    "is_video",
    "is_batch",
    // int4 weights carry group scales the formulas add; the microscaling FP4 formats include theirs.
    "is_int4",
    "experts_int4",
    // MXFP4 experts, which some engines lay out larger than the checkpoint (expert_pad_factor).
    "experts_mxfp4",
];
/// The offer's specifications; its prices and terms (`GpuOffer::TERMS`) and `gpu_index` follow.
const GPU_SPECS: [&str; 14] = [
    "gpu_vram_gib",
    "gpu_bandwidth_gbs",
    "gpu_tflops",
    "gpu_cc",
    "gpus_per_node",
    "gpu_fp8_tflops",
    // The 16-bit rate accumulating in 16 bits: the GPUs sheet's, or fp16_tflops where blank.
    "gpu_fp16_acc16_tflops",
    "gpu_interconnect_gbs",
    "node_interconnect_gbs",
    // 0 where the offer's column is blank (`has_spot_interruptions` says which).
    "gpu_spot_interruptions_per_day",
    // A card bought (the owned mode): its depreciation, resale share, board power (0 unknown)
    // and hosting.
    "gpu_depreciation_months",
    "gpu_residual_share",
    "gpu_power_w",
    "gpu_hosting_monthly",
];

/// Every numeric per-offer input, in binding order.
fn gpu_numbers() -> impl Iterator<Item = &'static str> {
    GPU_SPECS
        .into_iter()
        .chain(GpuOffer::TERMS)
        .chain(["gpu_index"])
}
/// The offer's flags: NVLink, then one per price (`has_on_demand`, … the descriptor's), then
/// these.
const GPU_FLAGS: [&str; 3] = [
    "has_node_link",
    "has_spot_interruptions",
    // The workload's weights run through weight-only kernels on this offer (int8, int4, or a
    // format the platform does not compute in: FP8 on Ampere, FP4 before Blackwell).
    "weight_only_kernels",
];

/// Every per-offer flag, in binding order.
fn gpu_flags() -> impl Iterator<Item = &'static str> {
    std::iter::once("gpu_nvlink")
        .chain(Price::ALL.map(|p| p.spec().flag))
        .chain(GPU_FLAGS)
}

/// The prices of the API a workload compares with (its `api` column's APIs row), per million
/// tokens; 0 without one (`has_api` says which).
const API_PRICES: [&str; 3] = [
    "api_input_per_m",
    "api_output_per_m",
    "api_cached_input_per_m",
];

/// Binds the prices of the workload's API (cached input at the input price where the API has
/// no cache price).
pub fn bind_api(p: &Program, apis: &[crate::model::ApiPrice], w: &Workload, values: &mut [f64]) {
    let api = w.api.as_deref().and_then(|name| {
        apis.iter()
            .find(|a| crate::model::normalize(&a.model) == crate::model::normalize(name))
    });
    let prices = api.map_or([0.0; 3], |a| {
        [
            a.input_per_m,
            a.output_per_m,
            a.cached_input_per_m.unwrap_or(a.input_per_m),
        ]
    });
    for (name, v) in API_PRICES.iter().zip(prices) {
        if let Some(s) = p.slot(name) {
            values[s] = v;
        }
    }
    if let Some(s) = p.slot("has_api") {
        values[s] = if api.is_some() { 1.0 } else { 0.0 };
    }
}

/// The replica size the planner is trying (GPUs), bound per candidate.
pub const REPLICA_SIZE: &str = "replica_size";

/// The candidate-scope inputs, in slot order: workload, model (built-in fields, then the
/// user's Models columns), formats, flags, GPU, then assumptions. A user's Models column or
/// assumption that collides with a built-in name is reported.
pub fn candidate_inputs(
    assumptions: &Assumptions,
    model_columns: &[String],
) -> (Vec<InputVar>, Vec<Problem>) {
    let mut vars = Vec::new();
    for n in WorkloadNumbers::NAMES {
        vars.push(InputVar::num(*n));
        vars.push(InputVar::bool(format!("has_{n}")));
    }
    vars.extend(model_fields().map(InputVar::num));
    vars.extend(BYTES.iter().map(|n| InputVar::num(*n)));
    vars.extend(FLAGS.iter().map(|n| InputVar::bool(*n)));
    vars.extend(gpu_numbers().map(InputVar::num));
    vars.extend(gpu_flags().map(InputVar::bool));
    vars.push(InputVar::num(REPLICA_SIZE));
    vars.extend(API_PRICES.iter().map(|n| InputVar::num(*n)));
    vars.push(InputVar::bool("has_api"));
    let mut problems = Vec::new();
    for c in model_columns {
        if vars.iter().any(|v| v.name == *c) {
            problems.push(Problem::new(
                "Models",
                format!("the Models column `{c}` has the name of a built-in variable; rename it"),
            ));
        } else {
            vars.push(InputVar::num(c.clone()));
        }
    }
    problems.extend(add_assumptions(&mut vars, assumptions));
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

/// Writes the figures of the workload's engine profile over the assumptions it sets.
pub fn bind_engine(p: &Program, engines: &Engines, w: &Workload, values: &mut [f64]) {
    let Some(engine) = &w.engine else {
        return;
    };
    for v in engines.for_workload(engine, w.kind) {
        if let Some(s) = p.slot(&v.key).filter(|s| *s < p.inputs()) {
            values[s] = v.value;
        }
    }
}

/// Slots of the per-offer inputs, resolved once per program.
pub struct GpuSlots {
    slots: Vec<Option<usize>>,
    max_gpus: Option<usize>,
    replica_size: Option<usize>,
}

impl GpuSlots {
    /// Resolves in `p` the slots of the offer's numbers (GPU specs, price terms, `gpu_index`),
    /// its flags, `max_gpus` and the replica size; a name `p` does not read gets no slot.
    pub fn new(p: &Program) -> Self {
        let names = gpu_numbers().chain(gpu_flags());
        GpuSlots {
            slots: names.map(|n| p.slot(n)).collect(),
            max_gpus: p.slot("max_gpus"),
            replica_size: p.slot(REPLICA_SIZE),
        }
    }

    /// The slots an offer or a replica size writes.
    pub fn slots(&self) -> Vec<usize> {
        self.slots
            .iter()
            .chain([&self.max_gpus, &self.replica_size])
            .flatten()
            .copied()
            .collect()
    }

    /// The replica size's slot, if a formula reads it.
    pub fn size_slot(&self) -> Vec<usize> {
        self.replica_size.into_iter().collect()
    }

    /// Writes the replica size being tried.
    pub fn bind_size(&self, size: f64, values: &mut [f64]) {
        if let Some(s) = self.replica_size {
            values[s] = size;
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
            offer.fp8_tflops,
            if offer.fp16_acc16_tflops > 0.0 {
                offer.fp16_acc16_tflops
            } else {
                offer.fp16_tflops
            },
            offer.interconnect_gbs,
            offer.node_interconnect_gbs.unwrap_or(0.0),
            offer.spot_interruptions_per_day.unwrap_or(0.0),
            offer.depreciation_months,
            offer.residual_share,
            offer.power_w.unwrap_or(0.0),
            offer.hosting_monthly,
        ];
        let weight_only = matches!(w.precision, Precision::Int8 | Precision::Int4)
            || super::compat::weight_only(w, offer);
        let flags = std::iter::once(b(offer.nvlink))
            .chain(Price::ALL.map(|p| b(offer.price(p).is_some())))
            .chain([
                b(offer.node_interconnect_gbs.is_some()),
                b(offer.spot_interruptions_per_day.is_some()),
                b(weight_only),
            ]);
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

/// What a blank numeric Workloads column stands for (its default in templates/columns.tsv): a
/// figure, another column's value, the model's figure or an assumption's (the built-in value
/// where the sheet lacks it). The offer's figures are bound per offer ([`GpuSlots::bind`]), so
/// they are 0 here, as is a column without a default.
fn default_number(key: &str, w: &Workload, assumptions: &Assumptions) -> f64 {
    match crate::catalog::workload_default(key, w.kind, w.online) {
        None => 0.0,
        Some(Fallback::Value(v)) => v.parse().unwrap_or(0.0),
        Some(Fallback::Ref(r)) => {
            if let Some(given) = w.numbers.get(r) {
                given.unwrap_or_else(|| default_number(r, w, assumptions))
            } else if let Some(f) = r.strip_prefix("model.") {
                w.model.as_ref().map_or(0.0, |m| m.field(f))
            } else if r.starts_with("offer.") {
                0.0
            } else {
                let built_in = crate::catalog::assumption_number(r).unwrap_or(0.0);
                assumptions.number(r, built_in)
            }
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
    for key in WorkloadNumbers::NAMES {
        let given = n.get(key).flatten();
        set(
            key,
            given.unwrap_or_else(|| default_number(key, w, assumptions)),
        );
        set(&format!("has_{key}"), b(given.is_some()));
    }
    for f in model_fields() {
        set(f, w.model.as_ref().map_or(0.0, |m| m.field(f)));
    }
    // The model's active parameters, else (a dense model, or one sized by params_b) all of them.
    let active = w
        .model
        .as_ref()
        .map_or(0.0, |m| m.active_params_b)
        .min(w.params_b());
    set(
        "active_params_b",
        if active > 0.0 { active } else { w.params_b() },
    );
    if let Some(m) = &w.model {
        for (k, v) in &m.extra {
            set(k, *v);
        }
    }
    set("bytes_per_param", w.precision.bytes());
    set("kv_bytes", w.kv_precision.bytes());
    set("expert_bytes_per_param", w.expert_precision.bytes());
    set("is_int4", b(w.precision == Precision::Int4));
    set("experts_int4", b(w.expert_precision == Precision::Int4));
    set("experts_mxfp4", b(w.expert_precision == Precision::Mxfp4));
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
    set("is_video", b(k == Kind::VideoGen));
    set("is_batch", b(k == Kind::Batch));
}

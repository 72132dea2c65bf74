//! The planner on plain values, each number checked against arithmetic worked by hand.

use super::*;
use crate::catalog;
use crate::model::{
    Assumptions, CellRef, GpuOffer, Input, Kind, Precision, Value, Workload, WorkloadNumbers,
};

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
    Workload {
        name: name.to_string(),
        kind,
        model: model.map(|m| {
            catalog::models()
                .into_iter()
                .find(|x| x.name == m)
                .expect("catalog model")
        }),
        precision: if kind == Kind::Qlora {
            Precision::Int4
        } else {
            Precision::Bf16
        },
        kv_precision: Precision::Fp16,
        expert_precision: if kind == Kind::Qlora {
            Precision::Int4
        } else {
            Precision::Bf16
        },
        numbers: WorkloadNumbers::default(),
        online: kind.online_by_default(),
        spot_ok: kind == Kind::Batch,
        gpu: None,
        engine: None,
        api: None,
        start_month: None,
        end_month: None,
        window: None,
        peak_window: None,
        notes: String::new(),
        cell: CellRef::new("Workloads", 1, 0),
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
        model_columns: Vec::new(),
        assumptions,
        engines: catalog::engines(),
        formulas: catalog::formulas(),
        notices: Vec::new(),
        sha256: String::new(),
        scenarios: Vec::new(),
        apis: Vec::new(),
        ranges: Vec::new(),
        usage: Vec::new(),
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

#[test]
fn llama2_7b_fp16_weights_are_12_55_gib() {
    let mut w = workload("api", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    let p = plan(input(
        vec![w],
        vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
        &[],
    ))
    .unwrap();
    // 6.74e9 × 2 B / 2^30 = 12.5546 GiB
    assert!(close(
        v(&values_on(&p, 0, "A100-80G"), "weights_gib"),
        12.5546,
        1e-3
    ));
}

#[test]
fn kv_cache_uses_kv_heads() {
    // 4 requests × 4,096 tokens = 16,384 tokens, fp16 (2 B), on an 80 GiB card that holds all 4:
    //   Llama-2-7B:   2 × 32 layers × 32 kv heads × 128 × 2 B = 524,288 B/token → 8 GiB
    //   Llama-3.1-8B: 2 × 32 × 8 × 128 × 2 = 131,072 B/token → 2 GiB
    //   Qwen2.5-7B:   2 × 28 × 4 × 128 × 2 = 57,344 B/token → 0.875 GiB
    for (model, want) in [
        ("Llama-2-7B", 8.0),
        ("Llama-3.1-8B", 2.0),
        ("Qwen2.5-7B", 0.875),
    ] {
        let mut w = workload("api", Kind::Inference, Some(model));
        w.numbers.concurrency = Some(4.0);
        w.numbers.context_len = Some(4096.0);
        let p = plan(input(
            vec![w],
            vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
            &[],
        ))
        .unwrap();
        let vals = values_on(&p, 0, "A100-80G");
        assert_eq!(v(&vals, "concurrency_per_replica"), 4.0, "{model}");
        assert!(
            close(v(&vals, "kv_cache_gib"), want, 1e-9),
            "{model}: {}",
            v(&vals, "kv_cache_gib")
        );
    }
}

#[test]
fn pure_bf16_adamw_is_8_bytes_per_parameter() {
    // optimizer_bytes_per_param = 4 (two bf16 moments, no fp32 master copy):
    // weights 2 + grads 2 + moments 4 = 8 B × 6.74e9 / 2^30 = 50.217 GiB, of which the optimizer
    // is 4 × 6.74e9 / 2^30 = 25.108 GiB.
    let w = workload("ft", Kind::FullFinetune, Some("Llama-2-7B"));
    let p = plan(input(
        vec![w],
        vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
        &[("optimizer_bytes_per_param", 4.0)],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100-80G");
    assert!(close(v(&vals, "optimizer_gib"), 25.108, 1e-3));
    let states = v(&vals, "weights_gib") + v(&vals, "grads_gib") + v(&vals, "optimizer_gib");
    assert!(close(states, 50.217, 1e-3), "{states}");
}

#[test]
fn a_prefill_costs_three_ffn_and_four_hidden_16_bit_tensors_per_token() {
    // Qwen2.5-7B: 3 × 18,944 + 4 × 3,584 = 71,168 values × 2 bytes = 142,336 B per token.
    let mut w = workload("api", Kind::Inference, Some("Qwen2.5-7B"));
    w.numbers.context_len = Some(32768.0);
    let gpus = vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)];
    // A serving engine prefills 8,192 tokens at a time: 8,192 × 142,336 B = 1.0859375 GiB,
    // plus its fixed buffers of 0.5 GiB.
    let p = plan(input(vec![w.clone()], gpus.clone(), &[])).unwrap();
    let vals = values_on(&p, 0, "A100-80G");
    assert_eq!(v(&vals, "prefill_tokens"), 8192.0);
    assert_eq!(v(&vals, "prefill_activation_gib"), 1.0859375);
    assert_eq!(v(&vals, "fixed_activation_gib"), 1.5859375);
    // transformers generate prefills the whole 32,768-token context at once:
    // 32,768 × 142,336 B = 4.34375 GiB, and has no engine buffers.
    let p = plan(input(
        vec![w.clone()],
        gpus.clone(),
        &[
            ("prefill_chunk_tokens", 0.0),
            ("inference_activation_gib", 0.0),
        ],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100-80G");
    assert_eq!(v(&vals, "prefill_tokens"), 32768.0);
    assert_eq!(v(&vals, "fixed_activation_gib"), 4.34375);
    // Training has no prefill term.
    let p = plan(input(
        vec![workload("ft", Kind::Lora, Some("Qwen2.5-7B"))],
        gpus,
        &[],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100-80G");
    assert_eq!(v(&vals, "prefill_activation_gib"), 0.0);
}

#[test]
fn full_finetune_of_7b_needs_16_bytes_per_parameter_and_no_single_80gb_card() {
    let mut w = workload("ft", Kind::FullFinetune, Some("Llama-2-7B"));
    w.numbers.hours_per_month = Some(100.0);
    let p = plan(input(
        vec![w.clone()],
        vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
        &[],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100-80G");
    // weights 2 + grads 2 + master 4 + moments 8 = 16 B × 6.74e9 / 2^30 = 100.43 GiB
    let states = v(&vals, "weights_gib") + v(&vals, "grads_gib") + v(&vals, "optimizer_gib");
    assert!(
        close(states, 16.0 * 6.74e9 / 2f64.powi(30), 1e-6),
        "{states}"
    );
    assert!(v(&vals, "gpus_per_replica") >= 2.0);
    // With one GPU per replica allowed, nothing fits and the workload is unplanned with a reason.
    w.numbers.max_gpus = Some(1.0);
    let p = plan(input(
        vec![w],
        vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)],
        &[],
    ))
    .unwrap();
    assert!(p.workloads[0].chosen.is_none());
    let warn = p
        .warnings
        .iter()
        .find(|x| x.message.contains("unplanned"))
        .expect("unplanned warning");
    assert!(
        warn.message.contains("at most 1 allowed"),
        "{}",
        warn.message
    );
    // #34 item 10: the unplanned workload's reason was English in a Chinese plan. 16 B ×
    // 6.74e9 = 100.4 GiB of states alone is more than one 80 GB card: 2 GPUs at the least.
    let zh = warn.zh.as_deref().expect("the reason in Chinese");
    assert!(
        zh.contains("未能规划：没有放得下的报价。在最大的报价 A100-80G")
            && zh.contains("每个副本需要 2 张 GPU（含余量")
            && zh.ends_with(
                "最多允许 1 张。请降低上下文长度、并发数或精度，提高 max_gpus，或添加更大的报价"
            ),
        "{zh}"
    );
    assert_eq!(
        p.workloads[0].unplanned.as_ref().map(|u| u.zh.as_str()),
        Some(zh)
    );
}

#[test]
fn qlora_holds_4_bit_base_weights_and_a_few_percent_of_the_training_states() {
    let mut w = workload("ql", Kind::Qlora, Some("Llama-2-7B"));
    w.numbers.hours_per_month = Some(10.0);
    let p = plan(input(
        vec![w],
        vec![offer("A100-40G", 40.0, Some(10.0), None, None, None)],
        &[],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100-40G");
    // 4-bit weights with block scales (0.516 B), and the embeddings and output head
    // (2 × 32,000 × 4,096 = 0.262 B parameters) cast to fp32 for QLoRA training:
    // ((6.74 − 0.262144) × 0.516 + 0.262144 × 4) × 1e9 / 2^30 = 4.0896 GiB
    assert!(
        close(v(&vals, "base_weights_gib"), 4.0896, 1e-3),
        "{}",
        v(&vals, "base_weights_gib")
    );
    // trained: 1% of 6.74e9; grads 2 B + optimizer 12 B = 14 B × 6.74e7 / 2^30 = 0.8788 GiB,
    // 1% of the 87.9 GiB the same states would take in full fine-tuning.
    let states = v(&vals, "grads_gib") + v(&vals, "optimizer_gib");
    assert!(close(states, 0.8788, 1e-3), "{states}");
}

/// A workload of `kind` and `model` run by `engine` at `context_len` tokens, 10 hours a month.
fn engine_workload(kind: Kind, model: &str, engine: &str, context_len: f64) -> Workload {
    let mut w = workload("w", kind, Some(model));
    w.engine = Some(engine.to_string());
    w.numbers.context_len = Some(context_len);
    w.numbers.hours_per_month = Some(10.0);
    w
}

/// Engine profiles (#16): Unsloth's QLoRA against transformers + PEFT's on the same workload.
#[test]
fn unsloth_offloads_its_checkpoints_and_never_holds_the_logits() {
    // Llama-3.1-8B QLoRA at 21,848 tokens, batch 1 (Unsloth's 12 GB row):
    //   hf-peft: (2 × 32 layers + 34) × 21,848 × 4,096 + 16 × 21,848 × 128,256 bytes
    //            = 8,769,961,984 + 44,834,193,408 = 49.9228 GiB of activations
    //   unsloth: checkpoints in CPU memory, no logits (Cut Cross Entropy), one layer recomputed
    //            at 52 bytes: 52 × 21,848 × 4,096 = 4,653,449,216 B = 4.3339 GiB
    //   embeddings and head (2 × 128,256 × 4,096 = 1,050,673,152 parameters) at 2 bytes, not 4:
    //            1,050,673,152 × 2 / 2^30 = 1.9570 GiB less
    //   8-bit AdamW: 1% of 8.03e9 × 2 B = 0.1496 GiB of optimizer states, against 12 B: 0.8974
    let run = |engine: &str| {
        let w = engine_workload(Kind::Qlora, "Llama-3.1-8B", engine, 21848.0);
        values_of(
            w,
            offer("A100-80G", 80.0, Some(10.0), None, None, None),
            &[],
        )
    };
    let peft = run("hf-peft");
    let unsloth = run("unsloth");
    let act = |vals: &[(String, f64)]| v(vals, "train_activation_per_gpu_gib");
    assert!(close(act(&peft), 49.9228, 1e-3), "{}", act(&peft));
    assert!(close(act(&unsloth), 4.3339, 1e-3), "{}", act(&unsloth));
    let upcast = v(&peft, "base_weights_gib") - v(&unsloth, "base_weights_gib");
    assert!(close(upcast, 1.9570, 1e-3), "{upcast}");
    assert!(close(v(&unsloth, "optimizer_gib"), 0.1496, 1e-3));
    assert!(close(v(&peft, "optimizer_gib"), 0.8974, 1e-3));
}

/// Engine profiles (#16): LitGPT's QLoRA of October 2023 (bitsandbytes 0.41.1).
#[test]
fn litgpt_qlora_keeps_its_4_bit_inputs_and_quantizes_its_head() {
    // Llama-2-7B QLoRA at 1,304 tokens, batch 1, no activation checkpointing (its resource
    // table's row):
    //   layers   41.5 × 32 × 1,304 × 4,096                   = 7,093,092,352 B
    //   loss     16 × 1,304 × 32,000                          =   667,648,000 B
    //   inputs   2 × (3 × 4,096 + 11,008) × 1,304 × 32 layers = 1,944,190,976 B (1.8107 GiB)
    //            9,704,931,328 B = 9.0384 GiB of activations
    //   weights  ((6.74 − 0.262144) × 0.5625 + 0.262144 × 2 − 0.131072 × (2 − 0.5625)) × 1e9 /
    //            2^30 = 3.7064 GiB: the head (32,000 × 4,096) in 4 bits, the embeddings in bf16,
    //            and bnb.nf4's fp32 absmax a 64-weight block (4 / 64 = 0.0625 B a parameter),
    //            which the litgpt profile carries (3.4201 GiB at the default 0.016 of NF4-dq)
    //   the head dequantized to fp16 and bf16 for each product: 4 × 32,000 × 4,096 B
    //            = 0.4883 GiB a GPU
    let w = engine_workload(Kind::Qlora, "Llama-2-7B", "litgpt", 1304.0);
    let a100 = offer("A100-40G", 40.0, Some(10.0), None, None, None);
    let vals = values_of(w, a100, &[("grad_checkpointing", 0.0)]);
    let act = v(&vals, "train_activation_per_gpu_gib");
    assert!(close(act, 9.0384, 1e-3), "{act}");
    let weights = v(&vals, "base_weights_gib");
    assert!(close(weights, 3.7064, 1e-3), "{weights}");
    let copy = v(&vals, "kbit_transient_gib");
    assert!(close(copy, 0.4883, 1e-3), "{copy}");
}

/// Engine profiles (#16): LitGPT's FSDP LoRA keeps whole gradients for its frozen weights, so
/// more GPUs do not shrink them.
#[test]
fn litgpt_fsdp_lora_holds_the_frozen_weights_gradients_on_every_gpu() {
    // Llama-2-13B (13.0 B, 40 layers; embeddings and head 2 × 32,000 × 5,120 = 0.32768 B)
    // LoRA at 1,304 tokens with checkpointing, on 32 GB cards (32 / 1.2 = 26.7 GiB planned):
    //   one GPU           24.46 GiB of weights + 1.38 of activations + 1 of runtime: too much
    //   frozen gradients  (13.0 − 0.32768) × 1e9 × 2 B / 2^30 = 23.604 GiB on every GPU
    //   gathered layers   2 × (13.0 − 0.32768) × 1e9 / 40 × 2 B / 2^30 = 1.1802 GiB
    // so every GPU of a sharded replica needs over 23.6 + 1.18 + 1.35 + 1.38 = 27.5 GiB however
    // many share the weights: no replica fits (LitGPT's own table: 13B out of memory on two
    // 40 GB A100s, 35.57 GB a GPU on four).
    let w = engine_workload(Kind::Lora, "Llama-2-13B", "litgpt", 1304.0);
    let card = offer("card-32", 32.0, Some(10.0), None, None, None);
    let p = plan(input(vec![w], vec![card], &[])).unwrap();
    let vals = values_on(&p, 0, "card-32");
    assert!(p.chosen(0).is_none(), "no number of 32 GB cards holds it");
    assert!(v(&vals, "gpus_per_replica") > 1.0);
    let frozen = v(&vals, "frozen_grads_gib");
    assert!(close(frozen, 23.604, 1e-3), "{frozen}");
    let gathered = v(&vals, "gathered_gib");
    assert!(close(gathered, 1.1802, 1e-3), "{gathered}");
}

#[test]
fn on_demand_bills_cold_start_rounding_and_minimum_rental() {
    // 10 runs of 61 minutes, 30-minute cold start, hourly granularity, 120-minute minimum, ¥10/h:
    // 61 + 30 = 91 min → rounded to 120 min → max(120, 120) = 120 min → 10 × 2 h × ¥10 = ¥200.
    let mut w = workload("job", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(610.0 / 60.0);
    w.numbers.runs_per_month = Some(10.0);
    w.spot_ok = false;
    let mut g = offer("X", 24.0, Some(10.0), None, None, None);
    g.min_rental_min = 120.0;
    let p = plan(input(vec![w], vec![g], &[("cold_start_min", 30.0)])).unwrap();
    let (c, ch) = p.chosen(0).unwrap();
    assert_eq!(ch.mode, Mode::OnDemand);
    assert!(close(c.cost(Mode::OnDemand).unwrap(), 200.0, 1e-9));
    // Of it, 200 − 10 × 61/60 h × ¥10 = ¥98.33 pays for boot time and rounding.
    assert!(close(ch.cold_start_cost, 200.0 - 610.0 / 6.0, 1e-9));
}

#[test]
fn spot_with_rework_beats_on_demand_with_a_cold_start() {
    // Both billed 6,000 + 30 min = 100.5 h → 101 h (#34 item 8: spot pays the cold start and
    // rounding too). spot: 101 h × ¥4 + 100 h × ¥4 × 0.25 rework = ¥404 + ¥100 = ¥504;
    // on-demand: 101 h × ¥10 = ¥1,010.
    let mut w = workload("train", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(100.0);
    let p = plan(input(
        vec![w],
        vec![offer("X", 24.0, Some(10.0), None, Some(4.0), None)],
        &[("cold_start_min", 30.0), ("spot_rework", 0.25)],
    ))
    .unwrap();
    let (c, ch) = p.chosen(0).unwrap();
    assert!(close(c.cost(Mode::Spot).unwrap(), 504.0, 1e-9));
    assert!(close(c.cost(Mode::OnDemand).unwrap(), 1010.0, 1e-9));
    assert_eq!(ch.mode, Mode::Spot);
    assert!(close(ch.rework_cost, 100.0, 1e-9));
    // The half hour rounded up, at the spot price: 1 h × ¥4.
    assert!(close(ch.cold_start_cost, 4.0, 1e-9));
    // 1,010 / 504 = 2.004
    assert!(
        ch.advice
            .text(Lang::En)
            .ends_with("on-demand would cost 2.0× more"),
        "{}",
        ch.advice.text(Lang::En)
    );
}

#[test]
fn online_redundancy_rounds_one_replica_up_to_two_and_reserved_wins() {
    // One replica × (1 + 0.2) = 1.2 → 2 instances; monthly 2 × ¥5,000 = ¥10,000, reserved 2 × ¥4,000 = ¥8,000.
    let mut w = workload("api", Kind::Inference, Some("Qwen2.5-7B"));
    w.numbers.concurrency = Some(2.0);
    let p = plan(input(
        vec![w],
        vec![offer(
            "A100-80G",
            80.0,
            None,
            Some(5000.0),
            None,
            Some(4000.0),
        )],
        &[],
    ))
    .unwrap();
    let (c, ch) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "replicas"), Some(1.0));
    assert_eq!(p.value(c, "instances"), Some(2.0));
    assert_eq!(ch.mode, Mode::Reserved);
    assert!(close(ch.gpu_cost, 8000.0, 1e-9));
    assert!(close(c.cost(Mode::Monthly).unwrap(), 10000.0, 1e-9));
}

#[test]
fn ties_go_to_fewer_gpus_then_sheet_order() {
    // 10 GiB needs 10 × 1.2 = 12 GiB with headroom: two 10 GiB cards, 2 × ¥2.5 × 10 h = ¥50, the same as
    // one 24 GiB card at ¥5. Listed first, the two-GPU offer loses the tie; between the two
    // one-GPU offers at ¥5 the first in the sheet wins.
    let mut w = workload("job", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(10.0);
    w.spot_ok = false;
    let small = offer("S", 10.0, Some(2.5), None, None, None);
    let a = offer("A", 24.0, Some(5.0), None, None, None);
    let b = offer("B", 24.0, Some(5.0), None, None, None);
    let p = plan(input(
        vec![w],
        vec![small, a, b],
        &[("cold_start_min", 0.0)],
    ))
    .unwrap();
    let s = p.workloads[0]
        .candidates
        .iter()
        .find(|c| p.input.gpus[c.offer].gpu == "S")
        .unwrap();
    assert_eq!(p.value(s, "gpus_total"), Some(2.0));
    assert!(close(s.cost(Mode::OnDemand).unwrap(), 50.0, 1e-9));
    let (c, ch) = p.chosen(0).unwrap();
    assert_eq!(p.input.gpus[c.offer].gpu, "A");
    assert!(close(ch.tco, 50.0, 1e-9));
}

#[test]
fn bf16_is_excluded_below_compute_capability_8_with_a_warning() {
    let w = workload("api", Kind::Inference, Some("Qwen2.5-0.5B"));
    let mut t4 = offer("T4", 16.0, Some(1.0), None, None, None);
    t4.compute_capability = 7.5;
    let a10 = offer("A10", 24.0, Some(5.0), None, None, None);
    let p = plan(input(vec![w], vec![t4, a10], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.input.gpus[c.offer].gpu, "A10");
    let t4c = p.workloads[0]
        .candidates
        .iter()
        .find(|c| p.input.gpus[c.offer].gpu == "T4")
        .unwrap();
    // The platform cannot run bf16: an incompatibility, not a misfit.
    match &t4c.exclusion {
        Some(Exclusion::Incompatible(why)) => {
            assert!(
                why.en.contains("bf16 needs compute capability ≥ 8.0"),
                "{why:?}"
            );
            // #34 item 10: a Chinese plan's Candidates tab said it in English.
            assert_eq!(why.zh, "bf16 需要计算能力 ≥ 8.0；T4 为 7.5");
        }
        other => panic!("{other:?}"),
    }
    assert!(p.warnings.iter().any(|w| w.message.contains("T4 excluded")));
}

#[test]
fn only_a_cuda_card_before_8_0_is_warned_to_lack_flash_attention() {
    // A T4 (7.5) in fp16 materialises its attention scores, as no_flash_attention counts, and
    // says so; an MI300X, whose compute capability is not given (ROCm), has fused attention of
    // its own: no such warning.
    let flash = |p: &Plan| {
        p.warnings
            .iter()
            .any(|w| w.message.contains("FlashAttention-2 needs"))
    };
    let mut w = workload("api", Kind::Inference, Some("Qwen2.5-0.5B"));
    w.precision = Precision::Fp16;
    w.expert_precision = Precision::Fp16;
    let mut t4 = offer("T4", 16.0, Some(1.0), None, None, None);
    t4.compute_capability = 7.5;
    assert!(flash(&plan(input(vec![w.clone()], vec![t4], &[])).unwrap()));
    let mut mi300x = offer("MI300X", 192.0, Some(1.0), None, None, None);
    mi300x.compute_capability = 0.0;
    mi300x.platform = "rocm".to_string();
    let p = plan(input(vec![w], vec![mi300x], &[])).unwrap();
    assert!(p.chosen(0).is_some());
    assert!(!flash(&p));
}

#[test]
fn the_exclusion_warning_names_only_the_precisions_that_failed() {
    let mut w = workload("api", Kind::Inference, Some("Qwen2.5-0.5B"));
    w.precision = Precision::Bf16;
    w.kv_precision = Precision::Fp8;
    let with_cc = |name: &str, cc: f64| {
        let mut o = offer(name, 24.0, Some(5.0), None, None, None);
        o.compute_capability = cc;
        o
    };
    let message = |gpus: Vec<GpuOffer>, w: &Workload| {
        let p = plan(input(vec![w.clone()], gpus, &[])).unwrap();
        p.warnings
            .iter()
            .find(|x| x.message.contains("excluded"))
            .map(|x| x.message.clone())
            .unwrap_or_default()
    };
    // The A10 (8.6) runs bf16 but not the fp8 KV cache: only fp8 is named.
    let m = message(vec![with_cc("A10", 8.6), with_cc("H100", 9.0)], &w);
    assert!(m.contains("A10 excluded"), "{m}");
    assert!(m.contains("fp8 needs compute capability ≥ 8.9"), "{m}");
    assert!(!m.contains("bf16"), "{m}");
    // The T4 (7.5) runs neither: both are named.
    let m = message(vec![with_cc("T4", 7.5), with_cc("H100", 9.0)], &w);
    assert!(
        m.contains("bf16 needs compute capability ≥ 8.0 and fp8 needs"),
        "{m}"
    );
    // fp8 weights and KV cache: named once.
    w.precision = Precision::Fp8;
    let m = message(vec![with_cc("A10", 8.6), with_cc("H100", 9.0)], &w);
    assert_eq!(m.matches("fp8 needs").count(), 1, "{m}");
}

#[test]
fn editing_a_default_changes_exactly_that_value_and_added_formulas_show() {
    let mut w = workload("api", Kind::Inference, Some("Llama-2-7B"));
    w.numbers.concurrency = Some(1.0);
    let gpus = vec![offer("A100-80G", 80.0, Some(10.0), None, None, None)];
    let base = plan(input(vec![w.clone()], gpus.clone(), &[])).unwrap();
    let mut inp = input(vec![w], gpus, &[]);
    let fixed = inp
        .formulas
        .iter_mut()
        .find(|f| f.name == "fixed_activation_gib")
        .unwrap();
    fixed.expression = "if(is_inference || is_batch, 3, 0)".into();
    fixed.origin = Origin::Replaced;
    let mut added = fixed.clone();
    added.name = "kv_share".into();
    added.expression = "kv_cache_gib / total_vram_gib".into();
    added.origin = Origin::User;
    inp.formulas.push(added);
    let edited = plan(inp).unwrap();
    let (b, e) = (
        values_on(&base, 0, "A100-80G"),
        values_on(&edited, 0, "A100-80G"),
    );
    // Default: engine buffers 0.5 GiB + a prefill of 8,192 tokens × (3 × 11,008 + 4 × 4,096)
    // × 2 bytes = 8,192 × 98,816 B = 0.75390625 GiB.
    assert_eq!(v(&b, "fixed_activation_gib"), 1.25390625);
    assert_eq!(v(&e, "fixed_activation_gib"), 3.0);
    assert!(close(
        v(&e, "total_vram_gib") - v(&b, "total_vram_gib"),
        3.0 - 1.25390625,
        1e-9
    ));
    assert_eq!(v(&e, "weights_gib"), v(&b, "weights_gib"));
    assert!(close(
        v(&e, "kv_share"),
        v(&e, "kv_cache_gib") / v(&e, "total_vram_gib"),
        1e-12
    ));
    assert!(edited
        .warnings
        .iter()
        .any(|w| w.message.contains("fixed_activation_gib was replaced")));
}

#[test]
fn a_replica_over_90_percent_full_is_warned_about_from_its_total() {
    // Headroom 5%: a measured 22 GiB needs 22 × 1.05 = 23.1 GiB ≤ 24, so it fits, at
    // 22 / 24 = 91.7% of the card → warned "uses 92%".
    let mut w = workload("job", Kind::Batch, None);
    w.numbers.vram_gib = Some(22.0);
    let g = offer("X", 24.0, Some(1.0), None, None, None);
    let p = plan(input(
        vec![w.clone()],
        vec![g.clone()],
        &[("vram_headroom", 0.05)],
    ))
    .unwrap();
    assert!(p.chosen(0).is_some());
    let full = |p: &Plan| {
        p.warnings
            .iter()
            .any(|w| w.message.contains("of the memory of X"))
    };
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.contains("job uses 92% of the memory of X")),
        "{:?}",
        p.warnings
    );
    // 21.5 GiB with an edited requirement that adds 1 GiB: 21.5 × 1.05 + 1 = 23.575 ≤ 24 fits, at
    // 21.5 / 24 = 89.6%: no warning (reading the share back from the requirement would say
    // 23.575 / 1.05 / 24 = 93.5%).
    w.numbers.vram_gib = Some(21.5);
    let mut inp = input(vec![w], vec![g], &[("vram_headroom", 0.05)]);
    let req = inp
        .formulas
        .iter_mut()
        .find(|f| f.name == "required_vram_gib")
        .unwrap();
    req.expression = "total_vram_gib * (1 + vram_headroom) + 1".into();
    req.origin = Origin::Replaced;
    let p = plan(inp).unwrap();
    assert!(p.chosen(0).is_some());
    assert!(!full(&p), "{:?}", p.warnings);
}

#[test]
fn a_deleted_formula_the_planner_needs_is_named() {
    let w = workload("api", Kind::Inference, Some("Qwen2.5-7B"));
    let mut inp = input(
        vec![w],
        vec![offer("A", 80.0, Some(1.0), None, None, None)],
        &[],
    );
    inp.formulas.retain(|f| f.name != "cost_spot");
    let err = plan(inp).unwrap_err().to_string();
    assert!(err.contains("`cost_spot` is missing"), "{err}");
}

#[test]
fn division_by_zero_names_formula_workload_and_gpu() {
    let w = workload("api", Kind::Inference, Some("Qwen2.5-7B"));
    let mut inp = input(
        vec![w],
        vec![offer("A100", 80.0, Some(1.0), None, None, None)],
        &[],
    );
    inp.formulas
        .iter_mut()
        .find(|f| f.name == "utilization")
        .unwrap()
        .expression = "run_hours / (hours_in_month - 730)".into();
    let err = plan(inp).unwrap_err().to_string();
    assert!(
        err.contains("utilization") && err.contains("workload api on A100 @ test"),
        "{err}"
    );
}

#[test]
fn base_plus_burst_prices_monthly_base_and_daily_on_demand_peaks() {
    // Pilot: 19.5 GiB at 12 concurrent on Llama-2-7B (fixed 12.55 + 1 + 1 GiB overhead) →
    // per request (19.5 − 13.55 − 1) / 12 = 0.412 GiB. A 24 GiB card plans 24/1.2 − 1 = 19 GiB:
    // (19 − 13.55) / 0.412 = 13.2 → 13 per replica; 30 concurrent → 3 replicas → ×1.2 → 4 instances.
    // Base 12 concurrent → 1 replica → 2 instances monthly; 2 burst instances on demand 8 h a day.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.numbers.concurrency = Some(30.0);
    w.numbers.base_concurrency = Some(12.0);
    w.numbers.peak_hours_per_day = Some(8.0);
    w.numbers.pilot_vram_gib = Some(19.5);
    w.numbers.pilot_concurrency = Some(12.0);
    let card = offer("RTX 4090", 24.0, Some(6.0), Some(3000.0), None, None);
    let p = plan(input(vec![w], vec![card], &[("cold_start_min", 0.0)])).unwrap();
    let vals = values_on(&p, 0, "RTX 4090");
    assert_eq!(v(&vals, "concurrency_per_replica"), 13.0);
    assert_eq!(v(&vals, "instances"), 4.0);
    assert_eq!(v(&vals, "base_instances"), 2.0);
    assert_eq!(v(&vals, "burst_instances"), 2.0);
    // mixed = 2 × ¥3,000 + 2 × ¥6 × 8 h × 730/24 days = 6,000 + 2,920 = ¥8,920 (vs monthly 4 × 3,000 = 12,000)
    let (c, ch) = p.chosen(0).unwrap();
    assert!(close(c.cost(Mode::Mixed).unwrap(), 8920.0, 1e-6));
    assert_eq!(ch.mode, Mode::Mixed);
}

/// An input with one workload of every kind (each with the numbers its kind reads) on every
/// catalog GPU.
fn one_workload_of_every_kind() -> Input {
    let mut inp = input(Vec::new(), catalog::gpus(), &[]);
    for (kind, model) in [
        (Kind::Inference, Some("Qwen2.5-7B")),
        (Kind::Lora, Some("Llama-2-7B")),
        (Kind::Qlora, Some("Llama-3.1-8B")),
        (Kind::FullFinetune, Some("Qwen2.5-14B")),
        (Kind::ImageGen, Some("SDXL")),
        (Kind::Batch, None),
    ] {
        let mut w = workload(kind.key(), kind, model);
        w.numbers.hours_per_month = Some(100.0);
        w.numbers.vram_gib = if kind == Kind::Batch { Some(8.0) } else { None };
        w.numbers.base_concurrency = Some(2.0);
        w.numbers.peak_hours_per_day = Some(6.0);
        w.numbers.min_tokens_per_s = Some(20.0);
        w.numbers.concurrency = Some(8.0);
        inp.workloads.push(w);
    }
    inp
}

/// The same value from the compiled code and from evalexpr: equal, both NaN, or within a
/// relative 1e-12 (the two may round differently in the last bits).
fn same_value(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// Compares every formula of every workload of `inp` on every GPU with evalexpr; returns the
/// number of candidates compared.
fn compare_every_candidate(
    engine: &Engine,
    inp: &Input,
    defs: &[&crate::model::FormulaDef],
) -> usize {
    let p = &engine.candidate;
    let mut compared = 0;
    for w in &inp.workloads {
        for offer in 0..inp.gpus.len() {
            let values = engine.evaluate_one(inp, w, offer, 1.0).unwrap();
            let reference = crate::formula::reference_eval(p, defs, &values).unwrap();
            for (s, (a, b)) in values.iter().zip(&reference).enumerate() {
                assert!(
                    same_value(*a, *b),
                    "{} on {}: {} is {a} compiled, {b} in evalexpr",
                    w.name,
                    inp.gpus[offer].gpu,
                    p.name(s)
                );
            }
            compared += 1;
        }
    }
    compared
}

/// A xorshift generator from `seed`: reproducible random inputs without a dependency.
fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// A values array for `p` with random inputs: numbers in [0, 5000) (a fifth of them 0),
/// booleans at random; the formulas' slots are left 0.
fn random_inputs(p: &crate::formula::Program, next: &mut impl FnMut() -> u64) -> Vec<f64> {
    let mut values = vec![0.0; p.width()];
    for (s, v) in values.iter_mut().enumerate().take(p.inputs()) {
        let r = next();
        *v = match p.ty(s) {
            crate::formula::Ty::Bool => (r & 1) as f64,
            crate::formula::Ty::Num if r.is_multiple_of(5) => 0.0,
            crate::formula::Ty::Num => (r >> 11) as f64 / (1u64 << 53) as f64 * 5000.0,
        };
    }
    values
}

/// Evaluates `p` on `values` compiled and with evalexpr and compares every formula evaluated
/// before the first error, which the engine stops at. Random inputs may divide by zero. The
/// engine propagates an error through max, min and comparisons where evalexpr swallows an inf,
/// so evalexpr may be finite at the stop; but it must have met a non-finite value at or before
/// it (the engine makes no error up).
fn compare_up_to_the_first_error(
    p: &crate::formula::Program,
    defs: &[&crate::model::FormulaDef],
    values: &[f64],
    scratch: &mut crate::formula::Scratch,
) {
    let reference = crate::formula::reference_eval(p, defs, values).unwrap();
    let mut compiled = values.to_vec();
    let stopped = p.eval(&mut compiled, scratch).err().map(|e| e.def);
    for (k, f) in p.order.iter().enumerate() {
        if Some(f.def) == stopped {
            assert!(
                p.order[..=k].iter().any(|g| !reference[g.slot].is_finite()),
                "{}: evalexpr met no error where compiled stopped",
                f.name
            );
            break;
        }
        assert!(
            same_value(compiled[f.slot], reference[f.slot]),
            "{}: {} compiled, {} evalexpr",
            f.name,
            compiled[f.slot],
            reference[f.slot]
        );
    }
}

/// The compiled stack code and evalexpr itself agree, value for value, on the default formula
/// set: on sample workloads of every kind over every catalog GPU, and on random inputs.
#[test]
fn compiled_code_matches_evalexpr_on_the_default_set() {
    let inp = one_workload_of_every_kind();
    let engine = Engine::compile(&inp).unwrap();
    let defs: Vec<&crate::model::FormulaDef> = engine.candidate_defs().iter().collect();
    let p = &engine.candidate;
    let mut scratch = p.scratch();
    let mut compared = compare_every_candidate(&engine, &inp, &defs);
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..2000 {
        let values = random_inputs(p, &mut next);
        compare_up_to_the_first_error(p, &defs, &values, &mut scratch);
        compared += 1;
    }
    assert!(compared > 2000);
}

#[test]
fn keeping_the_best_n_and_threads_do_not_change_the_plan() {
    let mut ws = Vec::new();
    for (i, m) in [
        "Qwen2.5-7B",
        "Llama-3.1-8B",
        "Llama-2-13B",
        "Qwen2.5-32B",
        "Mistral-7B",
    ]
    .iter()
    .enumerate()
    {
        let mut w = workload(&format!("w{i}"), Kind::Inference, Some(m));
        w.numbers.concurrency = Some(10.0 * (i + 1) as f64);
        ws.push(w);
    }
    let inp = input(ws, catalog::gpus(), &[]);
    let engine = Engine::compile(&inp).unwrap();
    let all = plan_with(
        inp.clone(),
        &engine,
        &Options {
            keep: None,
            threads: 1,
            ..Options::default()
        },
    )
    .unwrap();
    let cut = plan_with(
        inp,
        &engine,
        &Options {
            keep: Some(3),
            threads: 2,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(all.totals, cut.totals);
    for w in 0..5 {
        let (a, ca) = all.chosen(w).unwrap();
        let (b, cb) = cut.chosen(w).unwrap();
        assert_eq!(
            (a.offer, ca.mode, ca.tco, a.values.clone()),
            (b.offer, cb.mode, cb.tco, b.values.clone())
        );
        assert_eq!(cut.workloads[w].candidates.len(), 3);
        // Every offer is a candidate at least once (several replica sizes may be tried on one).
        let offers: std::collections::BTreeSet<usize> = all.workloads[w]
            .candidates
            .iter()
            .map(|c| c.offer)
            .collect();
        assert_eq!(offers.len(), catalog::gpus().len());
    }
    // The plan says how many it kept and how many workloads had more (the writer's note).
    assert_eq!((cut.kept, cut.cut), (3, 5));
    assert_eq!(all.cut, 0);
    let note = crate::write::candidates_note(&cut).expect("a note");
    assert!(
        note.message.contains("keeps the best 3 candidates"),
        "{}",
        note.message
    );
    assert!(
        note.message.contains("--candidates all"),
        "{}",
        note.message
    );
}

/// The planner evaluates the formulas that depend on no GPU figure once per workload and, for a
/// larger replica, only those that read the size: both shortcuts must give the values a full
/// evaluation of every formula gives.
#[test]
fn workload_formulas_once_and_resizing_give_the_full_evaluation() {
    let mut ws = Vec::new();
    for (kind, model) in [
        (Kind::Inference, "Qwen3-30B-A3B"),
        (Kind::Inference, "DeepSeek-V3"),
        (Kind::Lora, "Llama-3.1-8B"),
        (Kind::FullFinetune, "Qwen2.5-14B"),
    ] {
        let mut w = workload(model, kind, Some(model));
        w.numbers.concurrency = Some(16.0);
        w.numbers.hours_per_month = Some(100.0);
        ws.push(w);
    }
    let inp = input(ws, catalog::gpus(), &[]);
    let engine = Engine::compile(&inp).unwrap();
    let p = &engine.candidate;
    assert!(engine.offer_formulas() < p.order.len());
    let mut scratch = p.scratch();
    let mut compared = 0;
    for w in &inp.workloads {
        for offer in 0..inp.gpus.len() {
            for size in [1.0, 2.0, 8.0] {
                let mut full = engine.input_values(&inp, w, offer, size);
                full.resize(p.width(), 0.0);
                let whole = p.eval(&mut full, &mut scratch);
                let fast = engine.evaluate_one(&inp, w, offer, size);
                assert_eq!(whole.is_ok(), fast.is_ok(), "{} on {offer}", w.name);
                let Ok(fast) = fast else { continue };
                assert_eq!(
                    full, fast,
                    "{} on {} at {size}",
                    w.name, inp.gpus[offer].gpu
                );
                let mut resized = engine.evaluate_one(&inp, w, offer, 1.0).unwrap();
                engine
                    .resize(&inp, w, offer, size, &mut resized, &mut scratch)
                    .unwrap();
                assert_eq!(resized, fast, "{} resized to {size}", w.name);
                compared += 1;
            }
        }
    }
    // 4 workloads × 28 offers × 3 sizes, none refused.
    assert_eq!(compared, 4 * inp.gpus.len() * 3);
}

// 2026 models (#14): worked examples from published config.json figures.

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

#[test]
fn deepseek_v3_caches_one_latent_of_576_values_per_layer_and_token() {
    // Multi-head latent attention: 61 layers × (kv_lora_rank 512 + qk_rope_head_dim 64) × 2 B
    // = 70,272 B per token — not 61 × 2 × 128 heads × 128 × 2 B = 3,997,696 B (57× more).
    let w = deepseek_r1_fp8(8192.0);
    let vals = values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[]);
    assert_eq!(v(&vals, "kv_bytes_per_token"), 70_272.0);
    // One request of 8,192 tokens: 70,272 × 8,192 B = 0.536 GiB.
    assert!(close(
        v(&vals, "request_kv_gib"),
        70_272.0 * 8192.0 / 1073741824.0,
        1e-12
    ));
}

#[test]
fn a_latent_cache_is_copied_to_every_gpu_of_a_tensor_parallel_group() {
    // DeepSeek-R1 in FP8 through vLLM on 141 GB cards spans 8 GPUs. Its latent cache has one
    // KV head, which vLLM gives every GPU whole: a 32,768-token request takes 70,272 B ×
    // 32,768 / 2^30 = 2.14453125 GiB on each of them, 8 × 2.14453125 = 17.15625 GiB of the
    // replica, so the pool holds 8 times fewer such requests than one copy would allow.
    let mut w = deepseek_r1_fp8(32768.0);
    w.engine = Some("vllm".into());
    let h200 = || offer("H200", 141.0, Some(30.0), None, None, None);
    let vals = values_of(w.clone(), h200(), &[]);
    assert_eq!(v(&vals, "gpus_per_replica"), 8.0);
    assert_eq!(v(&vals, "kv_replicas"), 8.0);
    assert!(close(v(&vals, "request_kv_gib"), 2.14453125, 1e-12));
    assert!(close(v(&vals, "per_request_gib"), 17.15625, 1e-9));
    let pool = v(&vals, "kv_pool_gib");
    assert!(close(v(&vals, "max_concurrency"), pool / 17.15625, 1e-9));
    // An engine that does not split by head (data-parallel attention, llama.cpp's layers)
    // keeps one copy: 8 times the requests in the same pool.
    let split = values_of(w, h200(), &[("kv_heads_split", 0.0)]);
    assert_eq!(v(&split, "kv_replicas"), 1.0);
    assert!(close(v(&split, "max_concurrency"), pool / 2.14453125, 1e-9));
    // Grouped-query attention with fewer KV heads than GPUs: Qwen3-235B-A22B's 4 heads on 8
    // GPUs, one head a GPU, 8 / 4 = 2 copies; Llama-3.1-70B's 8 heads on 8 GPUs, none.
    for (model, card, vram, copies) in [
        ("Qwen3-235B-A22B", "G80", 80.0, 2.0),
        ("Llama-3.1-70B", "G24", 24.0, 1.0),
    ] {
        let vals = serving(model, 4096.0, card, vram);
        let got = (v(&vals, "gpus_per_replica"), v(&vals, "kv_replicas"));
        assert_eq!(got, (8.0, copies), "{model}: GPUs and copies");
    }
}

#[test]
fn transformers_before_4_36_holds_two_caches_while_it_concatenates() {
    // Llama-2-7B, one request of 8,192 tokens: 2 × 32 layers × 32 KV heads × 128 × 2 B × 8,192
    // = 4 GiB of cache. transformers 4.35's models concatenate each step's keys and values
    // onto new tensors while generate holds the old ones: 8 GiB at the step's end; from 4.36
    // the Cache classes hold one.
    let run = |engine: &str| {
        let w = engine_workload(Kind::Inference, "Llama-2-7B", engine, 8192.0);
        values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[])
    };
    let old = run("transformers-4.35");
    let new = run("transformers");
    assert!(close(v(&old, "request_kv_gib"), 4.0, 1e-12));
    assert!(close(v(&old, "per_request_gib"), 8.0, 1e-12));
    assert!(close(v(&new, "per_request_gib"), 4.0, 1e-12));
}

#[test]
fn an_eager_prefill_pays_for_each_call_a_layer_makes() {
    // SGLang 0.5.6's calls a layer (research/sources/sglang-prefill-calls.md): 2 norms, 2
    // all-reduces under tensor parallelism, attention 7 (grouped-query) or 12 (latent), a dense
    // feed-forward 3, a mixture of experts 7 plus 4 for a shared expert, and with FP8
    // activations one quantization per weight product (attention 2 or 5, each feed-forward
    // part 2).
    // DeepSeek-R1 in FP8 on 141 GB cards spans 8 GPUs
    //   3 dense layers × (2 + 2 + 12 + 3 + 5 + 2)         = 3 × 26  =    78
    //   58 MoE layers  × (2 + 2 + 12 + 7 + 4 + 5 + 2 + 2) = 58 × 36 = 2,088
    //   2,166 calls; at prefill_call_us 68.1: 2,166 × 68.1 µs = 0.1475046 s of its TTFT.
    let w = deepseek_r1_fp8(610.0);
    // (a card of compute capability 9.0, which multiplies FP8 natively; on an 8.0 card FP8
    // weights run through weight-only kernels, 16-bit activations, and add no quantizations)
    let h200 = || GpuOffer {
        compute_capability: 9.0,
        ..offer("H200", 141.0, Some(30.0), None, None, None)
    };
    let eager = values_of(w.clone(), h200(), &[("prefill_call_us", 68.1)]);
    let graph = values_of(w, h200(), &[]);
    assert_eq!(v(&eager, "gpus_per_replica"), 8.0);
    assert_eq!(v(&eager, "eight_bit_activations"), 1.0);
    assert_eq!(v(&eager, "prefill_calls"), 2166.0);
    assert!(close(
        v(&eager, "ttft_s") - v(&graph, "ttft_s"),
        0.1475046,
        1e-9
    ));
    // On a 141 GB card of compute capability 8.0: 3 × 19 + 58 × 27 = 1,623.
    let cc8 = values_of(
        deepseek_r1_fp8(610.0),
        offer("G141", 141.0, Some(30.0), None, None, None),
        &[],
    );
    assert_eq!(v(&cc8, "eight_bit_activations"), 0.0);
    assert_eq!(v(&cc8, "prefill_calls"), 1623.0);
    // Llama-3.1-70B in bf16 on one 192 GB card: no all-reduces, 80 × (2 + 7 + 3) = 960; the
    // same on 8 cards of 24 GB, 80 × 14 = 1,120 (as the sglang profile's calibrate row on 8
    // A100s).
    let one = serving("Llama-3.1-70B", 610.0, "G192", 192.0);
    assert_eq!(v(&one, "gpus_per_replica"), 1.0);
    assert_eq!(v(&one, "prefill_calls"), 960.0);
    let tp8 = serving("Llama-3.1-70B", 610.0, "G24", 24.0);
    assert_eq!(v(&tp8, "gpus_per_replica"), 8.0);
    assert_eq!(v(&tp8, "prefill_calls"), 1120.0);
    // A training workload prefills nothing: no calls.
    let vals = values_of(
        workload("ft", Kind::Lora, Some("Llama-3.1-8B")),
        offer("H100", 80.0, Some(2.0), None, None, None),
        &[],
    );
    assert_eq!(v(&vals, "prefill_calls"), 0.0);
}

#[test]
fn qwen3_next_caches_keys_in_12_of_its_48_layers_and_a_fixed_state_in_the_rest() {
    // 12 gated-attention layers × 2 KV heads × 256 × 2 (K and V) × 2 B = 24,576 B per token;
    // the 36 Gated DeltaNet layers hold 37.69 MiB per request whatever its length (the
    // catalog's linear_state_mib). At 32,768 tokens: 24,576 × 32,768 B + 37.69 × 2^20 B
    // = 805,306,368 + 39,520,829.44 = 844,827,197.44 B = 0.78681 GiB, where 48 attention
    // layers would hold 3 GiB. A prefill computes scores in the 12 attention layers only:
    // 16 heads × 12 × 32,768² / 2 = 1.03079215104e11.
    let vals = serving("Qwen3-Next-80B-A3B", 32768.0, "H200", 141.0);
    assert_eq!(v(&vals, "full_attention_layers"), 12.0);
    assert_eq!(v(&vals, "kv_bytes_per_token"), 24_576.0);
    assert!(close(
        v(&vals, "request_kv_gib") * 1073741824.0,
        844_827_197.44,
        1e-9
    ));
    assert!(close(
        v(&vals, "prefill_scores") / 1.03079215104e11,
        1.0,
        1e-12
    ));
}

#[test]
fn gemma_3_27b_keeps_1024_tokens_in_52_of_its_62_layers() {
    // 2 × 16 KV heads × 128 × 2 B = 8,192 B per layer and token; a 32,768-token request holds
    // (10 × 32,768 + 52 × 1,024) × 8,192 B = 3,120,562,176 B = 2.906 GiB, not 62 × 32,768 ×
    // 8,192 B = 15.5 GiB.
    let vals = serving("Gemma-3-27B", 32768.0, "H100", 80.0);
    assert_eq!(v(&vals, "kv_bytes_per_layer"), 8192.0);
    assert_eq!(v(&vals, "request_kv_gib") * 1073741824.0, 3_120_562_176.0);
}

#[test]
fn gpt_oss_alternates_window_and_full_layers_and_llama_4_chunks_three_of_four() {
    // gpt-oss-120b: 36 layers, 18 sliding with a 128-token window; 8 KV heads × 64 × 2 × 2 B
    // = 2,048 B per layer and token. At 4,096 tokens: (18 × 4,096 + 18 × 128) × 2,048 B
    // = 155,713,536 B — half the 36 × 4,096 × 2,048 = 301,989,888 B of full attention.
    let mut w = workload("oss", Kind::Inference, Some("gpt-oss-120b"));
    w.expert_precision = Precision::Mxfp4;
    w.numbers.context_len = Some(4096.0);
    let vals = values_of(w, offer("H100", 80.0, Some(20.0), None, None, None), &[]);
    assert_eq!(v(&vals, "request_kv_gib") * 1073741824.0, 155_713_536.0);
    // Llama-4-Scout: 48 layers, 36 chunked at 8,192 tokens; 8 × 128 × 2 × 2 B = 4,096 B per
    // layer and token. At 131,072 tokens: (12 × 131,072 + 36 × 8,192) × 4,096 B
    // = 7,650,410,496 B, where full attention in every layer would hold 25,769,803,776 B (+237%).
    let mut w = workload("scout", Kind::Inference, Some("Llama-4-Scout"));
    w.numbers.context_len = Some(131_072.0);
    let vals = values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[]);
    assert_eq!(v(&vals, "request_kv_gib") * 1073741824.0, 7_650_410_496.0);
}

#[test]
fn gpt_oss_120b_in_mxfp4_fits_one_h100_at_4k_with_the_published_checkpoint_size() {
    // Experts: 128 × 3 × 2,880 × 2,880 × 36 = 114,661,785,600 parameters at MXFP4 (4.25 bits);
    // the rest, 116.83e9 − 114.66e9 = 2.168e9, in bf16: 2.168e9 × 2 + 114.66e9 × 0.53125
    // = 65.25e9 B, against the published checkpoint's 65,248,815,744 B.
    let mut w = workload("oss", Kind::Inference, Some("gpt-oss-120b"));
    w.expert_precision = Precision::Mxfp4;
    w.numbers.context_len = Some(4096.0);
    let p = plan(input(
        vec![w],
        vec![offer("H100", 80.0, Some(20.0), None, None, None)],
        &[],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "H100");
    assert_eq!(v(&vals, "expert_params_b"), 114.6617856);
    let bytes = v(&vals, "weights_gib") * 1073741824.0;
    let checkpoint = 65_248_815_744.0;
    assert!((bytes - checkpoint).abs() / checkpoint < 0.10, "{bytes}");
    assert!((bytes - 65.2496e9).abs() < 0.01e9, "{bytes}");
    // One H100 (80 GiB) holds it at 4k with the 20% headroom: one GPU per replica.
    assert_eq!(v(&vals, "gpus_per_replica"), 1.0);
    assert_eq!(v(&vals, "fits"), 1.0);
    assert!(p.chosen(0).is_some());
}

/// gpt-oss-120b with its MXFP4 experts, as OpenAI ships it, run by `engine` at 4,096 tokens.
fn gpt_oss_mxfp4(engine: &str) -> Workload {
    let mut w = engine_workload(Kind::Inference, "gpt-oss-120b", engine, 4096.0);
    w.expert_precision = Precision::Mxfp4;
    w
}

/// vLLM lays MXFP4 experts out for its kernels (#16): Marlin pads them below Hopper, Triton on
/// Hopper keeps a second copy of their scales; transformers holds the checkpoint as it is.
#[test]
fn vllm_pads_mxfp4_experts_for_marlin_and_keeps_triton_scales_twice() {
    // gpt-oss-120b's experts: 128 × 36 = 4,608 of 3 × 2,880 × 2,880 parameters at 17/32 bytes:
    //   checkpoint: 4,608 × 24,883,200 × 17 / 32          = 60,914,073,600 B
    //   Marlin (hidden to 3,072, width to 2,944 at one GPU):
    //               4,608 × 3 × 3,072 × 2,944 × 17 / 32    = 66,418,900,992 B (+5,504,827,392,
    //               the weights and scales research/sources/vllm-gptoss-weights.md counts)
    //   Triton on Hopper: the checkpoint's layout, and a copy of the scales beside it, one byte
    //               per 32 parameters: 114,661,785,600 / 32 = 3,583,180,800 B, held, never read
    // Each offer's expert weights, scale copy and weights a decode step does not read (less the
    // input embeddings) in bytes, and the share of the experts the step touches.
    let experts = |engine: &str, gpu: &str, cc: f64| {
        let w = gpt_oss_mxfp4(engine);
        let mut o = offer(gpu, 80.0, Some(20.0), None, None, None);
        o.compute_capability = cc;
        let vals = values_of(w, o, &[]);
        let bytes = |name: &str| v(&vals, name) * 1073741824.0;
        (
            bytes("expert_weights_gib"),
            bytes("expert_scale_copy_gib"),
            bytes("weights_gib") - bytes("decode_weights_gib") - bytes("input_embedding_gib"),
            v(&vals, "expert_touched_share"),
        )
    };
    // Within a byte (the GiB figures go through floating point).
    let near = |a: f64, b: f64| close(a, b, 1.0);
    let (e, copy, _, _) = experts("transformers", "A100", 8.0);
    assert!(near(e, 60_914_073_600.0) && near(copy, 0.0), "{e} {copy}");
    let (e, copy, _, _) = experts("vllm", "A100", 8.0);
    assert!(near(e, 66_418_900_992.0) && near(copy, 0.0), "{e} {copy}");
    // On Hopper the copy is held; a decode step skips it with the experts no token chose.
    let (e, copy, unread, touched) = experts("vllm", "H100", 9.0);
    assert!(
        near(e, 60_914_073_600.0) && near(copy, 3_583_180_800.0),
        "{e} {copy}"
    );
    assert!(near(unread, copy + e * (1.0 - touched)), "{unread}");
    // Blackwell runs them natively through FlashInfer (its own padding is not counted yet).
    let (e, copy, _, _) = experts("vllm", "B200", 10.0);
    assert!(near(e, 60_914_073_600.0) && near(copy, 0.0), "{e} {copy}");
}

/// Marlin pads each GPU's share of an expert's width (#16): at tensor parallel 2 the width per
/// GPU is 2,880 / 2 = 1,440, padded to 1,536, 3,072 in all against 2,944 on one GPU.
#[test]
fn marlin_pads_each_gpus_share_of_the_expert_width() {
    // gpt-oss-120b on 48 GiB Ada cards (compute capability 8.9) through vLLM. One card cannot
    // hold it, so the planner starts at two, where the experts take
    //   4,608 × 3 × 3,072 × 3,072 × 17 / 32 = 69,306,679,296 B a replica
    // (on one GPU they would be 4,608 × 3 × 3,072 × 2,944 × 17 / 32 = 66,418,900,992 B, as the
    // test above finds on an A100).
    let mut o = offer("L40", 48.0, Some(10.0), None, None, None);
    o.compute_capability = 8.9;
    let p = plan(input(vec![gpt_oss_mxfp4("vllm")], vec![o], &[])).unwrap();
    let two = p.workloads[0]
        .candidates
        .iter()
        .find(|c| p.value(c, "gpus_per_replica") == Some(2.0))
        .expect("a two-GPU replica");
    let bytes = p.value(two, "expert_weights_gib").unwrap() * 1073741824.0;
    assert!(close(bytes, 69_306_679_296.0, 1.0), "{bytes}");
    assert!(p.workloads[0]
        .candidates
        .iter()
        .all(|c| p.value(c, "gpus_per_replica") != Some(1.0)));
}

/// The formula values of one `model` chat in `precision` (its experts too) at 2,048 tokens on an
/// H100, with the assumptions `set`.
fn chat_values(model: &str, precision: Precision, set: &[(&str, f64)]) -> Vec<(String, f64)> {
    let mut w = workload("chat", Kind::Inference, Some(model));
    w.numbers.context_len = Some(2048.0);
    w.precision = precision;
    w.expert_precision = precision;
    values_of(w, offer("H100", 80.0, Some(20.0), None, None, None), set)
}

/// Triton's fused-MoE kernel has a floor at one token (#16): moe_layer_us a MoE layer, none for
/// a dense model.
#[test]
fn each_moe_layer_adds_the_fused_kernel_floor_to_a_decode_step() {
    // Qwen3-30B-A3B: 48 layers, all MoE: 48 × 30 µs = 1.44 ms a step more at moe_layer_us 30.
    // Qwen3-32B (dense, 64 layers): nothing.
    let step = |model: &str, us: f64| {
        let vals = chat_values(model, Precision::Bf16, &[("moe_layer_us", us)]);
        v(&vals, "decode_step_s")
    };
    let moe = step("Qwen3-30B-A3B", 30.0) - step("Qwen3-30B-A3B", 0.0);
    assert!(close(moe, 48.0 * 30e-6, 1e-12), "{moe}");
    assert_eq!(step("Qwen3-32B", 30.0), step("Qwen3-32B", 0.0));
}

/// vLLM 0.7.2's fused_marlin_moe (SGLang 0.4.6's GPTQ path) launches a kernel pair for every
/// expert a GPU holds (#16): marlin_moe_expert_us × experts a MoE layer, for int4 experts only.
#[test]
fn marlin_moe_launches_every_held_expert_for_int4_experts_only() {
    // Qwen3-30B-A3B in int4: 48 MoE layers × 128 experts × 3.98 µs = 24,453.12 µs = 24.45 ms a
    // step more; moe_fixed_us with moe_layer_us 30 beside it: 48 × (30 + 128 × 3.98)
    // = 48 × 539.44 = 25,893.12 µs. In bf16 the experts are not int4: 48 × 30 = 1,440 µs.
    let vals_of = |precision: Precision, us: f64| {
        chat_values(
            "Qwen3-30B-A3B",
            precision,
            &[("moe_layer_us", 30.0), ("marlin_moe_expert_us", us)],
        )
    };
    let int4 = vals_of(Precision::Int4, 3.98);
    assert!(
        close(v(&int4, "moe_fixed_us"), 25_893.12, 1e-6),
        "{}",
        v(&int4, "moe_fixed_us")
    );
    let added = v(&int4, "decode_step_s") - v(&vals_of(Precision::Int4, 0.0), "decode_step_s");
    assert!(close(added, 24_453.12e-6, 1e-12), "{added}");
    let bf16 = vals_of(Precision::Bf16, 3.98);
    assert!(
        close(v(&bf16, "moe_fixed_us"), 1_440.0, 1e-9),
        "{}",
        v(&bf16, "moe_fixed_us")
    );
}

#[test]
fn an_moe_decodes_at_active_speed_for_one_request_and_nears_total_at_a_batch() {
    // Qwen3-30B-A3B: 128 experts, 8 a token; experts 128 × 3 × 2,048 × 768 × 48
    // = 28,991,029,248 parameters; the rest 30.53e9 − 28.99e9 = 1.539e9.
    // One request reads 8/128 of the experts: 1.539e9 + 28.99e9 / 16 = 3.351e9 parameters,
    // its published 3.3B active, less the input embeddings it reads a row of
    // (151,936 × 2,048 = 0.311e9). Sixteen read 1 − (1 − 8/128)^16 = 64.4% of the experts, 128
    // read 99.97%.
    let read_share = |n: f64| {
        let mut w = workload("moe", Kind::Inference, Some("Qwen3-30B-A3B"));
        w.numbers.concurrency = Some(n);
        w.numbers.context_len = Some(1024.0);
        let vals = values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[]);
        assert_eq!(v(&vals, "concurrency_per_replica"), n);
        (
            v(&vals, "expert_touched_share"),
            v(&vals, "decode_weights_gib"),
            v(&vals, "weights_gib"),
        )
    };
    let (s1, d1, total) = read_share(1.0);
    assert_eq!(s1, 8.0 / 128.0);
    let active = (30.53 - 28.991029248 + 28.991029248 / 16.0 - 151_936.0 * 2048.0 / 1e9) * 2e9
        / 1073741824.0;
    assert!(close(d1, active, 1e-9), "{d1} vs {active}");
    let (s16, d16, _) = read_share(16.0);
    assert!(close(s16, 1.0 - (120.0f64 / 128.0).powi(16), 1e-12));
    assert!(d16 > d1 && d16 < total);
    let (s128, d128, _) = read_share(128.0);
    assert!(s128 > 0.9997 && close(d128, total, 0.02 * total));
    // A dense model reads all its weights at any batch but the input embeddings.
    let mut w = workload("dense", Kind::Inference, Some("Qwen3-32B"));
    w.numbers.concurrency = Some(1.0);
    let vals = values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[]);
    assert_eq!(
        v(&vals, "decode_weights_gib"),
        v(&vals, "weights_gib") - 151_936.0 * 5120.0 * 2.0 / 1073741824.0
    );
}

#[test]
fn an_eager_moe_block_pays_for_every_expert_it_walks_each_layer() {
    // transformers 4.51's Qwen3MoeSparseMoeBlock loops over all 128 experts of each of 48
    // layers (a torch.where host sync and the expert's kernels each, picked or not), so with
    // the transformers profile's eager_layer_us 610 and eager_expert_us 81 one decode step is
    // at least (48 × 610 + 48 × 128 × 81) µs = (29,280 + 497,664) µs = 0.526944 s: 1.898
    // tokens/s, against 1.89 measured on an H20. Reading its 3.35e9 active parameters at
    // 2,000 × 0.7 GB/s takes about 5 ms, so the eager bound is the step.
    let step = |model: &str, set: &[(&str, f64)]| {
        let mut w = workload("eager", Kind::Inference, Some(model));
        w.numbers.concurrency = Some(1.0);
        w.numbers.context_len = Some(2049.0);
        let vals = values_of(w, offer("H20", 96.0, Some(2.0), None, None, None), set);
        v(&vals, "decode_step_s")
    };
    let eager = [("eager_layer_us", 610.0), ("eager_expert_us", 81.0)];
    assert!(close(step("Qwen3-30B-A3B", &eager), 0.526944, 1e-12));
    // Without the profile (every engine but transformers) the step is the memory time again.
    assert!(step("Qwen3-30B-A3B", &[]) < 0.01);
    // DeepSeek-V2-Lite's first layer is dense (dense_layers 1): 27 × 610 + 26 × 64 × 81
    // = 16,470 + 134,784 µs = 0.151254 s.
    assert!(close(step("DeepSeek-V2-Lite", &eager), 0.151254, 1e-12));
    // A dense model walks no experts: Qwen3-0.6B stays at 28 × 610 µs = 0.01708 s.
    assert!(close(step("Qwen3-0.6B", &eager), 0.01708, 1e-12));
}

#[test]
fn moe_training_flops_come_from_active_parameters() {
    // Full fine-tuning of Qwen3-30B-A3B on 100 M tokens: 6 × 3.353e9 × 1e8 = 2.0118e18 FLOP,
    // not 6 × 30.53e9 × 1e8 = 1.8318e19. At 312 TFLOPS × mfu 0.35 on one replica:
    // 2.0118e18 / 1.092e14 / 3600 = 5.118 GPU-hours per GPU of the replica.
    let mut w = workload("ft", Kind::FullFinetune, Some("Qwen3-30B-A3B"));
    w.numbers.train_tokens_m = Some(100.0);
    w.numbers.max_gpus = Some(8.0);
    let vals = values_of(
        w,
        offer("A100-80G", 80.0, Some(10.0), None, None, None),
        &[],
    );
    assert!(close(v(&vals, "train_flops"), 6.0 * 3.353e9 * 1e8, 1e6));
    assert!(close(
        v(&vals, "train_gpu_hours"),
        6.0 * 3.353e9 * 1e8 / (312e12 * 0.35) / 3600.0,
        1e-9
    ));
}

#[test]
fn a_vision_tower_stays_16_bit_and_image_tokens_hold_kv() {
    // Qwen2.5-VL-7B in int4: the 0.677 B vision tower stays bf16 (1.354e9 B); the language
    // model's 7.613 B are quantized as usual. 1,024 image tokens add to a request's 4,096 text
    // tokens: (4,096 + 1,024) × 57,344 B = 293,601,280 B.
    let mut w = workload("vl", Kind::Inference, Some("Qwen2.5-VL-7B"));
    w.precision = Precision::Int4;
    w.expert_precision = Precision::Int4;
    w.numbers.context_len = Some(4096.0);
    w.numbers.image_tokens = Some(1024.0);
    let vals = values_of(w, offer("A10", 24.0, Some(5.0), None, None, None), &[]);
    assert!(close(
        v(&vals, "vision_weights_gib"),
        0.677 * 2e9 / 1073741824.0,
        1e-12
    ));
    assert_eq!(v(&vals, "request_kv_gib") * 1073741824.0, 293_601_280.0);
}

#[test]
fn video_and_image_jobs_are_sized_by_work_done() {
    // Wan2.1-14B, 720p clips of 81 frames: 21 × 80 × 45 = 75,600 latent tokens; working set
    // 75,600 × (3 × 13,824 + 4 × 5,120) × 2 B = 9,367,142,400 B.
    // 600 clips a month at 900 s each = 150 hours of one replica: one replica, 150 h billed.
    let mut w = workload("clips", Kind::VideoGen, Some("Wan2.1-14B"));
    w.online = false;
    w.numbers.resolution = Some(1280.0);
    w.numbers.frames = Some(81.0);
    w.numbers.items_per_month = Some(600.0);
    w.numbers.seconds_per_item = Some(900.0);
    let vals = values_of(w, offer("H100", 80.0, Some(20.0), None, None, None), &[]);
    assert_eq!(v(&vals, "video_tokens"), 75_600.0);
    assert_eq!(
        v(&vals, "video_request_gib") * 1073741824.0,
        9_367_142_400.0
    );
    assert_eq!(v(&vals, "work_replica_hours"), 150.0);
    assert_eq!(v(&vals, "replicas"), 1.0);
    assert_eq!(v(&vals, "run_hours"), 150.0);
    // 20,000 images a month at 30 s each = 166.67 hours.
    let mut w = workload("imgs", Kind::ImageGen, Some("FLUX.1-dev"));
    w.numbers.items_per_month = Some(20_000.0);
    w.numbers.seconds_per_item = Some(30.0);
    let vals = values_of(w, offer("L40S", 48.0, Some(10.0), None, None, None), &[]);
    assert!(close(v(&vals, "run_hours"), 20_000.0 * 30.0 / 3600.0, 1e-9));
}

// Parallel replicas and the GPUs of 2026 (#15).

#[test]
fn a_two_gpu_replica_pools_memory_for_all_20_requests_on_a800() {
    // Qwen3-32B in bf16: 32.76e9 × 2 B = 61.02 GiB of weights; an 8,192-token request holds
    // 64 × 2 × 8 × 128 × 2 B × 8,192 = 2 GiB; the prefill chunk of 8,192 tokens
    // × (3 × 25,600 + 4 × 5,120) × 2 B = 1.48 GiB plus 0.5 GiB of engine buffers.
    // One A800 (80 GiB / 1.2 = 66.7 GiB usable, less 1 GiB of CUDA context) holds the 63.0 GiB
    // fixed part and one request: 20 one-GPU replicas, 24 instances with 20% redundancy.
    // Two A800s (2 × (66.7 − 1 − 0.35 of communication buffers) = 130.6 GiB) hold
    // (130.6 − 63.0) / 2 = 33 requests: one replica serves all 20, two instances: 4 GPUs.
    let mut w = workload("chat", Kind::Inference, Some("Qwen3-32B"));
    w.numbers.concurrency = Some(20.0);
    w.numbers.context_len = Some(8192.0);
    let a800 = offer("A800", 80.0, None, Some(6000.0), None, None);
    let p = plan(input(vec![w], vec![a800], &[])).unwrap();
    let (c, ch) = p.chosen(0).unwrap();
    let val = |n: &str| p.value(c, n).unwrap();
    assert_eq!(val("gpus_per_replica"), 2.0);
    assert_eq!(val("replicas"), 1.0);
    assert_eq!(val("instances"), 2.0);
    assert_eq!(val("gpus_total"), 4.0);
    assert_eq!(ch.gpu_cost, 4.0 * 6000.0);
    // The one-GPU replica was tried and lost: 24 GPUs.
    let one = p.workloads[0]
        .candidates
        .iter()
        .find(|c| p.value(c, "gpus_per_replica") == Some(1.0))
        .unwrap();
    assert_eq!(p.value(one, "gpus_total"), Some(24.0));
}

#[test]
fn deepseek_r1_in_fp8_spans_two_h100_nodes_and_fits_one_h200_node() {
    // 671 B parameters, the 653.9 B of experts in fp8 and the 1.85 B of embeddings and head in
    // bf16: 672.9e9 B = 626.7 GiB. Eight H100s plan 8 × (66.7 − 1.35) = 522.7 GiB: too little;
    // sixteen (two nodes, max_gpus 16) hold it. Eight H200s plan 8 × (117.5 − 1.35) = 929 GiB.
    let mut w = workload("r1", Kind::Inference, Some("DeepSeek-R1"));
    w.precision = Precision::Fp8;
    w.expert_precision = Precision::Fp8;
    w.numbers.context_len = Some(8192.0);
    w.numbers.concurrency = Some(8.0);
    w.numbers.max_gpus = Some(16.0);
    let mut h100 = offer("H100", 80.0, None, Some(12000.0), None, None);
    h100.compute_capability = 9.0;
    let p = plan(input(vec![w.clone()], vec![h100], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(16.0));
    assert_eq!(p.value(c, "nodes_per_replica"), Some(2.0));
    assert!(p.warnings.iter().any(|x| x
        .message
        .contains("one replica spans 2 nodes of 8 H100 (16 GPUs)")));
    w.numbers.max_gpus = None;
    let mut h200 = offer("H200", 141.0, None, Some(16000.0), None, None);
    h200.compute_capability = 9.0;
    let p = plan(input(vec![w], vec![h200], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(8.0));
    assert!(!p.warnings.iter().any(|x| x.message.contains("spans")));
}

#[test]
fn an_ascend_offer_is_excluded_for_fp8_naming_its_platform_and_rocm_runs_bf16() {
    let mut w = workload("api", Kind::Inference, Some("Qwen2.5-7B"));
    w.precision = Precision::Fp8;
    w.expert_precision = Precision::Fp8;
    let ascend = catalog::find_gpu("Ascend 910B").unwrap();
    let mi300 = catalog::find_gpu("MI300X").unwrap();
    let p = plan(input(
        vec![w.clone()],
        vec![ascend.clone(), mi300.clone()],
        &[],
    ))
    .unwrap();
    let out = p.workloads[0]
        .candidates
        .iter()
        .find(|c| p.input.gpus[c.offer].gpu == "Ascend 910B")
        .unwrap();
    assert_eq!(
        out.exclusion.as_ref().map(Exclusion::text),
        Some("fp8 (weights) is not run on Ascend 910B (ascend): Ascend 910B and 910C have no FP8: convert the checkpoint to bf16 or to W8A8 int8 (msModelSlim)")
    );
    // #34 item 10: in a Chinese plan, with compat.tsv's note in Chinese.
    assert_eq!(
        out.exclusion.as_ref().map(|e| e.said(Lang::Zh)),
        Some("Ascend 910B（ascend）不支持 fp8（权重）：昇腾 910B 和 910C 不支持 FP8：请把检查点转换为 bf16 或 W8A8 int8（msModelSlim）")
    );
    assert!(p.warnings.iter().any(|x| x
        .zh
        .as_deref()
        .is_some_and(|z| z.contains("api 未考虑 Ascend 910B：ascend 不支持 fp8；"))));
    assert!(p.warnings.iter().any(|x| x
        .message
        .contains("Ascend 910B excluded for api: fp8 is not run on ascend")));
    // In bf16 both run; the MI300X (ROCm) is planned where it is the only offer.
    w.precision = Precision::Bf16;
    w.expert_precision = Precision::Bf16;
    let p = plan(input(vec![w], vec![mi300], &[])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.input.gpus[c.offer].platform, "rocm");
}

/// Engine profiles (#16): how a multi-GPU training replica splits its state.
#[test]
fn data_parallel_training_copies_the_state_to_every_gpu_and_fsdp_shards_it() {
    // Full fine-tune of Llama-2-7B (6.74 B) in bf16 with mixed-precision AdamW, 2,048 tokens:
    //   weights 6.74e9 × 2 B / 2^30 = 12.554 GiB, gradients the same, optimizer 12 B a parameter
    //   = 75.325 GiB: 100.433 GiB of state.
    //   An 80 GB card plans 80 / 1.2 = 66.667 GiB, less 1 GiB runtime, 0.35 GiB of tensor-parallel
    //   buffers past one GPU and 1.742 GiB of activations ((2 × 32 + 34) × 2,048 × 4,096 +
    //   16 × 2,048 × 32,000 bytes with checkpointing): 63.575 GiB for the state per GPU.
    // FSDP (zero_stage 3): 100.433 / 63.575 = 1.58 → a 2-GPU replica.
    // DDP (hf-peft, zero_stage 0): every GPU needs all 100.433 GiB: no number of GPUs holds it.
    // ZeRO-2 (deepspeed-zero2): each GPU also holds DeepSpeed's default reduction bucket,
    //   5e8 × 2 B / 2^30 = 0.9313 GiB, leaving 63.575 − 0.931 = 62.644 GiB; it holds the weights
    //   whole (12.554) and half the rest: (100.433 − 12.554) / (62.644 − 12.554) = 1.75 → 2 GPUs,
    //   the second GPU's copy of the weights in overhead:
    //   (1 + 0.35 + 0.9313) × 2 + 12.554 = 17.117 GiB.
    let run_with = |engine: Option<&str>, set: &[(&str, f64)]| full_finetune_7b(engine, 1.0, set);
    let run = |engine: Option<&str>| run_with(engine, &[]);
    let fsdp = run(Some("fsdp"));
    let (c, _) = fsdp.chosen(0).expect("FSDP plans it");
    let vals = values_on(&fsdp, 0, "A100-80G");
    assert_eq!(v(&vals, "gpus_per_replica"), 2.0);
    assert!(close(v(&vals, "replicated_gib"), 0.0, 1e-9));
    assert_eq!(c.offer, 0);
    // The default is the same as FSDP: a blank engine keeps today's plans.
    let default = run(None);
    assert_eq!(
        values_on(&default, 0, "A100-80G"),
        vals,
        "blank engine = zero_stage 3"
    );
    let ddp = run(Some("hf-peft"));
    assert!(
        ddp.chosen(0).is_none(),
        "DDP cannot hold 100 GiB on an 80 GB card"
    );
    let zero2 = run(Some("deepspeed-zero2"));
    let vals = values_on(&zero2, 0, "A100-80G");
    assert_eq!(v(&vals, "gpus_per_replica"), 2.0);
    assert!(close(v(&vals, "replicated_gib"), 12.554, 0.001));
    assert!(close(v(&vals, "zero_bucket_gib"), 0.9313, 0.0001));
    assert!(
        close(v(&vals, "overhead_gib"), 17.117, 0.001),
        "{}",
        v(&vals, "overhead_gib")
    );
    // The bucket is ZeRO-2's: under FSDP (stage 3) the same figure adds nothing.
    let sharded = run_with(Some("fsdp"), &[("zero_bucket_elems", 1e9)]);
    assert_eq!(
        v(&values_on(&sharded, 0, "A100-80G"), "zero_bucket_gib"),
        0.0
    );
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

#[test]
fn the_loss_and_gradients_not_live_together_count_the_larger() {
    // Llama-2-7B full fine-tuning, 8 sequences of 2,048 tokens a GPU (16,384 tokens), vocabulary
    // 32,000: the loss holds 16 B × 16,384 × 32,000 / 2^30 = 7.8125 GiB on each GPU.
    // Gradients: 2 B × 6.74e9 / 2^30 = 12.554 GiB a replica.
    let run = |engine: &str, set: &[(&str, f64)]| {
        values_on(&full_finetune_7b(Some(engine), 8.0, set), 0, "A100-80G")
    };
    // Default (gradients live at the loss, as under gradient accumulation): all of it counts.
    let vals = run("fsdp", &[]);
    assert!(close(v(&vals, "train_loss_gib"), 7.8125, 1e-9));
    assert!(close(v(&vals, "train_loss_peak_gib"), 7.8125, 1e-9));
    // One micro-batch a step with gradients set to None, FSDP: the replica takes 2 GPUs
    // (as in the test above), each holding 12.554 / 2 = 6.277 GiB of gradients after the loss;
    // the loss adds 7.8125 − 6.277 = 1.5355 GiB beyond them.
    let vals = run("fsdp", &[("grads_live_at_loss", 0.0)]);
    let shards = v(&vals, "gpus_per_replica");
    assert_eq!(shards, 2.0);
    let grads = 2.0 * 6.74e9 / 2f64.powi(30);
    assert!(close(grads, 12.554, 0.001));
    assert!(
        close(v(&vals, "train_loss_peak_gib"), 7.8125 - grads / 2.0, 1e-6),
        "{}",
        v(&vals, "train_loss_peak_gib")
    );
    // ZeRO-2 shards the gradients too; plain data parallelism (hf-peft, zero_stage 0) holds all
    // 12.554 GiB on each GPU, more than the loss: it adds nothing.
    let vals = run("hf-peft", &[("grads_live_at_loss", 0.0)]);
    assert_eq!(v(&vals, "train_loss_peak_gib"), 0.0);
}

#[test]
fn deepspeed_zero3_counts_its_bucket_and_the_optimizer_steps_fp32_sub_group() {
    // Llama-2-7B full fine-tuning, 1 × 2,048 tokens a GPU, checkpointed, on 80 GB A100s: 16 B ×
    // 6.74e9 / 2^30 = 100.4 GiB of states, so 2 GPUs, each with 3.37e9 parameters' share.
    // FSDP: the loss 16 B × 2,048 × 32,000 / 2^30 = 0.9766 GiB plus (2 × 32 + 34) B × 2,048 ×
    // 4,096 / 2^30 = 0.7656 GiB of activations = 1.7422 GiB; no bucket, no step transient.
    let run = |engine: &str, set: &[(&str, f64)]| {
        values_on(&full_finetune_7b(Some(engine), 1.0, set), 0, "A100-80G")
    };
    let fsdp = run("fsdp", &[]);
    assert_eq!(v(&fsdp, "zero_step_gib"), 0.0);
    assert_eq!(v(&fsdp, "zero_bucket_gib"), 0.0);
    assert!(close(
        v(&fsdp, "train_activation_per_gpu_gib"),
        1.7422,
        1e-4
    ));
    // DeepSpeed ZeRO-3 (the deepspeed-zero3 profile): one 5e8-element bf16 bucket kept from
    // initialization, 2 B × 5e8 / 2^30 = 0.9313 GiB; the step turns a 1e9-element sub-group
    // (below the GPU's 3.37e9) into fp32 through a bf16 copy: 6 B × 1e9 / 2^30 = 5.5879 GiB,
    // larger than the loss and activations, which are freed by then.
    let zero3 = run("deepspeed-zero3", &[]);
    assert_eq!(v(&zero3, "gpus_per_replica"), 2.0);
    assert!(close(v(&zero3, "zero_bucket_gib"), 0.9313, 1e-4));
    assert!(close(v(&zero3, "zero_step_gib"), 5.5879, 1e-4));
    assert!(close(
        v(&zero3, "train_activation_per_gpu_gib"),
        5.5879,
        1e-4
    ));
    // Set on the Assumptions sheet with no engine named (zero_stage 3): a foreach AdamW (8
    // bytes) and a sub-group larger than the GPU's share, which is then the whole share, 8 B ×
    // 6.74e9 / GPUs (on 2 GPUs 25.11 GiB; the planner takes more GPUs, whose share is smaller).
    let set = [("zero_step_bytes", 8.0), ("zero_subgroup_elems", 1e10)];
    let big = values_on(&full_finetune_7b(None, 1.0, &set), 0, "A100-80G");
    let shards = v(&big, "gpus_per_replica");
    assert!(shards > 1.0, "the share, not the sub-group, is the smaller");
    assert!(
        close(
            v(&big, "zero_step_gib"),
            8.0 * 6.74e9 / shards / 2f64.powi(30),
            1e-6
        ),
        "{} on {shards} GPUs",
        v(&big, "zero_step_gib")
    );
}

#[test]
fn an_optimizer_stepped_in_backward_holds_one_gradient_at_a_time() {
    // Llama-2-7B full fine-tuning: all gradients 2 B × 6.74e9 / 2^30 = 12.554 GiB; stepped in
    // backward, the largest one, the embedding's 32,000 × 4,096 (above an FFN matrix's
    // 4,096 × 11,008): 2 B × 131,072,000 / 2^30 = 0.2441 GiB.
    let vals = values_on(&full_finetune_7b(None, 1.0, &[]), 0, "A100-80G");
    assert!(close(v(&vals, "grads_gib"), 12.554, 0.001));
    let fused = full_finetune_7b(None, 1.0, &[("optimizer_in_backward", 1.0)]);
    let vals = values_on(&fused, 0, "A100-80G");
    assert!(
        close(v(&vals, "grads_gib"), 0.24414, 1e-5),
        "{}",
        v(&vals, "grads_gib")
    );
    // Without the model's shapes it keeps every gradient rather than guess one.
    let mut w = workload("ft", Kind::FullFinetune, None);
    w.numbers.params_b = Some(7.0);
    w.numbers.hours_per_month = Some(10.0);
    let vals = values_of(
        w,
        offer("A100-80G", 80.0, Some(10.0), None, None, None),
        &[("optimizer_in_backward", 1.0)],
    );
    assert!(close(
        v(&vals, "grads_gib"),
        7e9 * 2.0 / 2f64.powi(30),
        1e-6
    ));
}

// Hand-worked figures for what no other test covers (#17).

#[test]
fn a_latency_goal_caps_requests_per_replica_and_adds_replicas() {
    // Llama-2-7B in fp16 on an 80 GiB card of 2,000 GB/s at 0.7 efficiency: a decode step reads
    // 1,400 GB/s = 1,303.86 GiB/s; at 40 tokens/s per request a step may read 32.60 GiB: the
    // 12.554 GiB of weights and (32.60 − 12.554) / 2 GiB of KV per 4,096-token request = 10.02,
    // so 10 requests per replica (memory would hold 25). 30 concurrent → 3 replicas, +20%
    // redundancy → 4 instances.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.context_len = Some(4096.0);
    w.numbers.concurrency = Some(30.0);
    w.numbers.min_tokens_per_s = Some(40.0);
    let vals = values_of(w, offer("G80", 80.0, None, Some(1000.0), None, None), &[]);
    assert_eq!(v(&vals, "bw_concurrency"), 10.0);
    assert_eq!(v(&vals, "mem_concurrency"), 25.0);
    assert_eq!(v(&vals, "concurrency_per_replica"), 10.0);
    assert_eq!(v(&vals, "replicas"), 3.0);
    assert_eq!(v(&vals, "instances"), 4.0);
}

#[test]
fn a_throughput_target_adds_replicas_from_the_measured_speed() {
    // A pilot measured 20 tokens/s per request; 10 requests per replica (concurrency 10) make
    // 200 tokens/s a replica, and a 1,000 tokens/s target needs 5 replicas (the concurrency alone
    // needs 1); +20% redundancy → 6 instances.
    let mut w = workload("api", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.context_len = Some(2048.0);
    w.numbers.concurrency = Some(10.0);
    w.numbers.tokens_per_s_per_request = Some(20.0);
    w.numbers.target_tps = Some(1000.0);
    let vals = values_of(w, offer("G80", 80.0, None, Some(1000.0), None, None), &[]);
    assert_eq!(v(&vals, "replica_tps"), 200.0);
    assert_eq!(v(&vals, "replicas_for_concurrency"), 1.0);
    assert_eq!(v(&vals, "replicas_for_tps"), 5.0);
    assert_eq!(v(&vals, "instances"), 6.0);
}

#[test]
fn per_second_billing_bills_the_seconds_and_egress_and_ops_are_their_own_lines() {
    // One run of 10 h plus a 20-minute cold start, billed by the second (granularity 1/60 min):
    // 620 minutes, 10.333 h × ¥6 = ¥62.00 (hourly billing would bill 11 h: ¥66).
    // Egress 300 GB × ¥0.8 = ¥240; ops 4 h × ¥150 = ¥600.
    let mut w = workload("job", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(10.0);
    w.numbers.runs_per_month = Some(1.0);
    w.numbers.egress_gb = Some(300.0);
    w.spot_ok = false;
    let mut g = offer("X", 24.0, Some(6.0), None, None, None);
    g.billing_granularity_min = 1.0 / 60.0;
    let p = plan(input(
        vec![w],
        vec![g],
        &[("ops_hours_month", 4.0), ("ops_hourly_rate", 150.0)],
    ))
    .unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert!(close(c.cost(Mode::OnDemand).unwrap(), 62.0, 1e-9));
    assert!(close(p.total("egress_cost").unwrap(), 240.0, 1e-9));
    assert!(close(p.total("ops_cost").unwrap(), 600.0, 1e-9));
    // The typed totals (#17): the planned sums, and the inputs the portfolio formulas read as
    // bound. No storage; `total` = 62 + 0 + 240 + trial reserve + 600.
    assert!(close(p.totals.planned.gpu_cost, 62.0, 1e-9));
    assert!(close(p.totals.planned.egress_cost, 240.0, 1e-9));
    assert_eq!(p.totals.planned.storage_cost, 0.0);
    assert_eq!(p.totals.variable("total_egress_cost"), Some(240.0));
    assert!(close(
        p.totals.variable("total_gpu_cost").unwrap(),
        62.0,
        1e-9
    ));
    assert_eq!(p.totals.variable("ops_hours_month"), Some(4.0));
    let trial = p.total("trial_reserve_cost").unwrap();
    assert!(close(
        p.total("total").unwrap(),
        62.0 + 240.0 + trial + 600.0,
        1e-9
    ));
    // The JSON order: the formulas, then the six planned sums.
    let names: Vec<&str> = p.totals.entries().map(|(n, _)| n).collect();
    assert_eq!(
        names[names.len() - 6..],
        [
            "gpu_cost",
            "cold_start_cost",
            "rework_cost",
            "tco",
            "storage_cost",
            "egress_cost"
        ]
    );
}

/// Training hours from the month's tokens (#17: no test covered them), worked by hand.
#[test]
fn lora_training_hours_follow_the_tokens() {
    let mut w = workload("tune", Kind::Lora, Some("Llama-2-7B"));
    w.numbers.params_b = Some(7.0);
    w.numbers.train_tokens_m = Some(100.0);
    w.numbers.runs_per_month = Some(1.0);
    let p = plan(input(
        vec![w],
        vec![offer("A100", 80.0, Some(10.0), None, None, None)],
        &[("cold_start_min", 0.0)],
    ))
    .unwrap();
    let vals = values_on(&p, 0, "A100");
    // LoRA: 4 × 7e9 parameters × 1e8 tokens = 2.8e18 FLOPs, at 312 TFLOPS × mfu 0.35 =
    // 1.092e14 FLOP/s: 25,641.03 s = 7.1225 GPU-hours.
    let hours = 2.8e18 / 1.092e14 / 3600.0;
    assert!(close(v(&vals, "train_flops"), 2.8e18, 1.0));
    assert!(close(v(&vals, "train_gpu_hours"), hours, 1e-9));
    // One GPU per replica holds it: the instance runs 7.1225 h, billed by the hour (8 h) at
    // ¥10 = ¥80.
    assert_eq!(v(&vals, "gpus_per_replica"), 1.0);
    assert!(close(v(&vals, "run_hours"), hours, 1e-9));
    let (_, ch) = p.chosen(0).unwrap();
    assert_eq!(ch.mode, Mode::OnDemand);
    assert!(close(ch.gpu_cost, 80.0, 1e-9), "{}", ch.gpu_cost);
}

#[test]
fn a_tensor_parallel_prefill_over_pcie_pays_its_all_reduces() {
    // Llama-2-7B in fp16, an 8,192-token prompt at prefill_mfu 0.5 on two 312 TFLOPS cards
    // linked by PCIe alone at 64 GB/s (both directions): NCCL reaches pcie_allreduce_share
    // 0.23 of it, 14.72 GB/s. Two all-reduces a layer of 8,192 × 4,096 16-bit values, a ring
    // moving 2(n − 1)/n = 1 of each per GPU:
    //   32 layers × 4 × 0.5 × 8,192 × 4,096 × 2 B = 4,294,967,296 B / 14.72e9 = 0.291777 s,
    // on top of the FLOPs split two ways and the layers (0.39656 + 0.0096 s): 0.697937 s.
    // Over NVLink it is 0.406157 s (the test below): that all-reduce is in the fitted figures.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.context_len = Some(8192.0);
    w.numbers.max_ttft_s = Some(0.75);
    let set = [("prefill_mfu", 0.5)];
    let mut pcie = offer("P80", 80.0, None, Some(1000.0), None, None);
    pcie.nvlink = false;
    pcie.interconnect_gbs = 64.0;
    let p = plan(input(vec![w], vec![pcie], &set)).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(2.0));
    assert!(close(p.value(c, "allreduce_gbs").unwrap(), 14.72, 1e-9));
    assert!(close(
        p.value(c, "prefill_allreduce_s").unwrap(),
        0.291777,
        1e-5
    ));
    assert!(close(p.value(c, "ttft_s").unwrap(), 0.697937, 1e-5));
}

#[test]
fn llama_cpp_of_2024_accumulates_in_16_bits_and_expands_quantized_weights_per_chunk() {
    // Llama-2-7B in int4, a 1,024-token prompt prefilled in chunks of 512, on a card of
    // 312 TFLOPS (624 accumulating in 16 bits) and 2,000 GB/s:
    //   with prefill_accumulate_16bit the prefill runs at 624 TFLOPS, else at 312;
    //   with prefill_dequantize each of the 2 chunks reads the int4 linear weights and writes
    //   a 16-bit copy: (6.74e9 − 2 × 32,000 × 4,096) = 6.477856e9 parameters × (0.5 + 0.016
    //   group scales + 2) B = 16,298,285,696 B a chunk; 2 chunks / (2,000 GB/s × 0.7)
    //   = 0.0232833 s.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Int4;
    w.numbers.context_len = Some(1024.0);
    let mut g = offer("G80", 80.0, None, Some(1000.0), None, None);
    g.fp16_acc16_tflops = 624.0;
    let chunked = [("prefill_chunk_tokens", 512.0)];
    let vals = values_of(w.clone(), g.clone(), &chunked);
    assert_eq!(v(&vals, "prefill_tflops"), 312.0);
    assert_eq!(v(&vals, "prefill_dequant_s"), 0.0);
    let llama_cpp = [
        ("prefill_chunk_tokens", 512.0),
        ("prefill_accumulate_16bit", 1.0),
        ("prefill_dequantize", 1.0),
    ];
    let vals = values_of(w.clone(), g.clone(), &llama_cpp);
    assert_eq!(v(&vals, "prefill_tflops"), 624.0);
    assert!(close(v(&vals, "prefill_dequant_s"), 0.0232833, 1e-5));
    // A card with no 16-bit-accumulate figure runs at its fp16_tflops; fp16 weights expand
    // nothing.
    g.fp16_acc16_tflops = 0.0;
    assert_eq!(
        v(
            &values_of(w.clone(), g.clone(), &llama_cpp),
            "prefill_tflops"
        ),
        312.0
    );
    w.precision = Precision::Fp16;
    assert_eq!(v(&values_of(w, g, &llama_cpp), "prefill_dequant_s"), 0.0);
}

#[test]
fn a_prefill_that_materialises_its_attention_scores_pays_their_bytes() {
    // Llama-2-7B in fp16, an 8,192-token prompt, on a 312 TFLOPS, 2,000 GB/s card at
    // prefill_mfu 0.5, as in the test below (0.80271 s with flash attention), run without it:
    //   scores     32 heads × 32 layers × 8,192² / 2           = 3.4359738368e10
    //   traffic    24 bytes each (attention_score_bytes)        = 8.24633720832e11 B
    //   at 2,000 GB/s × bandwidth_efficiency 0.7 = 1.4e12 B/s    = 0.589024 s
    //   total      0.802713 + 0.589024                          = 1.391737 s.
    // Two cards under tensor parallelism split the FLOPs and the traffic:
    //   0.39656 + 0.294512 + 32 × 300 µs                         = 0.700669 s.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.context_len = Some(8192.0);
    let eager = [("prefill_mfu", 0.5), ("flash_attention", 0.0)];
    let g = || offer("G80", 80.0, None, Some(1000.0), None, None);
    let vals = values_of(w.clone(), g(), &eager);
    assert!(close(v(&vals, "prefill_scores"), 3.4359738368e10, 1e-9));
    assert!(close(v(&vals, "prefill_score_s"), 0.589024, 1e-5));
    assert!(close(v(&vals, "prefill_flops") / 1.23725641e14, 1.0, 1e-8));
    assert!(close(v(&vals, "ttft_s"), 1.391737, 1e-5));
    let mut two = g();
    two.gpus_per_node = 8.0;
    w.numbers.max_ttft_s = Some(1.0);
    let p = plan(input(vec![w.clone()], vec![two], &eager)).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(2.0));
    assert!(close(p.value(c, "ttft_s").unwrap(), 0.700669, 1e-5));
    w.numbers.max_ttft_s = None;
    // With flash attention on, a CUDA card before compute capability 8.0 still materialises
    // them; a ROCm card, whose compute capability is not given, does not.
    let flash = [("prefill_mfu", 0.5)];
    let mut turing = g();
    turing.compute_capability = 7.5;
    assert!(close(
        v(&values_of(w.clone(), turing, &flash), "ttft_s"),
        1.391737,
        1e-5
    ));
    let mut rocm = g();
    rocm.compute_capability = 0.0;
    rocm.platform = "rocm".to_string();
    assert!(close(
        v(&values_of(w, rocm, &flash), "ttft_s"),
        0.802713,
        1e-5
    ));
}

#[test]
fn time_to_first_token_is_the_prefill_at_prefill_mfu_and_a_goal_widens_the_replica() {
    // Llama-2-7B in fp16, an 8,192-token prompt, on a 312 TFLOPS card at prefill_mfu 0.5:
    //   linear     2 × (6.74e9 − 2 × 32,000 × 4,096 embedding and head) × 8,192
    //                                                          = 1.06133193e14 FLOP
    //   head       2 × 32,000 × 4,096, the last token only     = 2.62144e8 FLOP
    //   attention  4 × 32 heads × 128 × 32 layers × 8,192² / 2  = 1.7592186e13 FLOP
    //   total      1.23725641e14 FLOP / (312e12 × 0.5) = 0.79311 s on one card,
    //   plus 32 layers × prefill_layer_us 300 µs = 0.0096 s: 0.80271 s.
    // With max_ttft_s 0.5 one card is out; two cards under tensor parallelism take
    // 0.39656 + 0.0096 = 0.40616 s.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.precision = Precision::Fp16;
    w.numbers.context_len = Some(8192.0);
    let set = [("prefill_mfu", 0.5)];
    let g = || offer("G80", 80.0, None, Some(1000.0), None, None);
    let vals = values_of(w.clone(), g(), &set);
    assert!(close(v(&vals, "prefill_flops") / 1.23725641e14, 1.0, 1e-8));
    assert!(close(v(&vals, "ttft_s"), 0.802713, 1e-5));
    assert_eq!(v(&vals, "meets_ttft"), 1.0);
    assert_eq!(v(&vals, "gpus_per_replica"), 1.0);
    w.numbers.max_ttft_s = Some(0.5);
    let p = plan(input(vec![w], vec![g()], &set)).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "gpus_per_replica"), Some(2.0));
    assert!(close(p.value(c, "ttft_s").unwrap(), 0.406157, 1e-5));
    let out = p.workloads[0]
        .candidates
        .iter()
        .find(|c| p.value(c, "gpus_per_replica") == Some(1.0))
        .expect("the one-card candidate is kept");
    assert_eq!(
        out.exclusion.as_ref().map(|e| e.text()),
        Some("the first token takes 0.8 s at the workload's context; max_ttft_s is 0.5 s")
    );
    assert_eq!(
        out.exclusion.as_ref().map(|e| e.said(Lang::Zh)),
        Some("按该负载的上下文长度，首 token 需要 0.8 s；max_ttft_s 为 0.5 s")
    );
    // A card whose TFLOPS are not known: no time to first token (and no division by zero)
    // without a goal; with one, the card is out and says why.
    let mut blind = g();
    blind.fp16_tflops = 0.0;
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.numbers.context_len = Some(8192.0);
    let vals = values_of(w.clone(), blind.clone(), &set);
    assert_eq!(v(&vals, "ttft_s"), 0.0);
    assert_eq!(v(&vals, "meets_ttft"), 1.0);
    w.numbers.max_ttft_s = Some(0.5);
    let p = plan(input(vec![w], vec![blind], &set)).unwrap();
    assert!(p.chosen(0).is_none());
    assert_eq!(
        p.workloads[0].candidates[0]
            .exclusion
            .as_ref()
            .map(|e| e.text()),
        Some("max_ttft_s is 0.5 s, and the card's TFLOPS are not known (GPUs sheet: fp16_tflops)")
    );
}

#[test]
fn llama_3_1_405b_fp8_keeps_attention_in_bf16_and_weighs_57_gib_a_gpu_on_8() {
    // Meta's FP8 checkpoint (catalog: unquantized_params_b 77.11, its modules_to_not_convert:
    // 126 layers × 570,425,344 attention parameters + layers 0 and 125's MLPs, 2 × 2,617,245,696).
    // Embeddings and head: 2 × 128,256 × 16,384 = 4.202692608 B. FP8: 405.85 − 4.202692608 −
    // 77.11 = 324.537307392 B at 1 byte; BF16: 4.202692608 + 77.11 = 81.312692608 B at 2 bytes;
    // 487.162692608e9 B = 453.706 GiB, 56.713 GiB on each of 8 GPUs (vLLM logged 57.752 GiB on
    // 8 × H100: issue 6746). An all-FP8 body would be 410.052692608e9 B = 381.891 GiB (−17%).
    for (model, kept, gib) in [
        ("Llama-3.1-405B-FP8", 77.11, 453.7056),
        ("Llama-3.1-405B", 0.0, 381.8912),
    ] {
        let mut w = workload("fp8", Kind::Inference, Some(model));
        w.precision = Precision::Fp8;
        let vals = values_of(w, offer("H200", 141.0, Some(30.0), None, None, None), &[]);
        assert!(close(v(&vals, "kept16_params_b"), kept, 1e-9), "{model}");
        assert!(close(v(&vals, "weights_gib"), gib, 1e-3), "{model}");
    }
}

//! The formula set: editing defaults, errors naming their formula, and the compiled code
//! against evalexpr.

use super::*;

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
    programs: &Programs,
    inp: &Input,
    defs: &[&crate::model::FormulaDef],
) -> usize {
    let p = &programs.candidate;
    let mut compared = 0;
    for w in &inp.workloads {
        for offer in 0..inp.gpus.len() {
            let values = programs.evaluate_one(inp, w, offer, 1.0).unwrap();
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
    let programs = Programs::compile(&inp).unwrap();
    let defs: Vec<&crate::model::FormulaDef> = programs.candidate_defs().iter().collect();
    let p = &programs.candidate;
    let mut scratch = p.scratch();
    let mut compared = compare_every_candidate(&programs, &inp, &defs);
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..2000 {
        let values = random_inputs(p, &mut next);
        compare_up_to_the_first_error(p, &defs, &values, &mut scratch);
        compared += 1;
    }
    assert!(compared > 2000);
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
    let programs = Programs::compile(&inp).unwrap();
    let p = &programs.candidate;
    assert!(programs.offer_formulas() < p.order.len());
    let mut scratch = p.scratch();
    let mut compared = 0;
    for w in &inp.workloads {
        for offer in 0..inp.gpus.len() {
            for size in [1.0, 2.0, 8.0] {
                let mut full = programs.input_values(&inp, w, offer, size, Layout::AsSet);
                full.resize(p.width(), 0.0);
                let whole = p.eval(&mut full, &mut scratch);
                let fast = programs.evaluate_one(&inp, w, offer, size);
                assert_eq!(whole.is_ok(), fast.is_ok(), "{} on {offer}", w.name);
                let Ok(fast) = fast else { continue };
                assert_eq!(
                    full, fast,
                    "{} on {} at {size}",
                    w.name, inp.gpus[offer].gpu
                );
                let mut resized = programs.evaluate_one(&inp, w, offer, 1.0).unwrap();
                programs
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

//! Offers excluded for a workload, and the warnings that say why or warn of a tight fit.

use super::*;

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

//! Whether an offer's platform runs a workload's number formats (templates/compat.tsv): weights,
//! experts and KV cache, each natively, through a weight-only kernel (runs, with a note), or not
//! at all (the candidate is out, with the reason).

use super::Said;
use crate::catalog::{compat_rules, CompatRule, Support};
use crate::model::{format_number, GpuOffer, Precision, Workload};
use std::collections::HashMap;
use std::sync::OnceLock;

type Rules = HashMap<String, HashMap<&'static str, Vec<CompatRule>>>;

/// The rules by platform (lower case, as offers hold it) and format, in table order; built once.
/// Looked up for every candidate, so without allocating.
fn rules(platform: &str, p: Precision) -> &'static [CompatRule] {
    static RULES: OnceLock<Rules> = OnceLock::new();
    let map = RULES.get_or_init(|| {
        let mut m: Rules = HashMap::new();
        for r in compat_rules() {
            m.entry(r.platform.to_lowercase())
                .or_default()
                .entry(r.precision)
                .or_default()
                .push(r);
        }
        m
    });
    map.get(platform)
        .and_then(|by| by.get(p.key()))
        .map_or(&[], Vec::as_slice)
}

/// Whether some format of `w` runs through a weight-only kernel on `offer` (no allocation:
/// the planner asks for every candidate).
pub fn weight_only(w: &Workload, offer: &GpuOffer) -> bool {
    [
        (w.precision, "weights"),
        (w.expert_precision, "weights"),
        (w.kv_precision, "kv"),
    ]
    .into_iter()
    .any(|(p, role)| {
        matches!(rule_for(offer, p, role), Ok(Some(r)) if r.support == Support::WeightOnly)
    })
}

/// What an offer can do with a workload's formats.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Every format runs natively (or needs nothing special).
    Native,
    /// Runs, but some format through a weight-only kernel: the notes say which and how.
    WeightOnly(Vec<Said>),
    /// Cannot run: what each failing format needs (`fp8 needs compute capability ≥ 8.9`), and
    /// the whole reason in words.
    Excluded { needs: Vec<Said>, reason: Said },
}

/// The formats a workload stores, with their role in the table and what they hold (English,
/// Chinese).
fn formats(w: &Workload) -> Vec<(Precision, &'static str, [&'static str; 2])> {
    let mut v = vec![(w.precision, "weights", ["weights", "权重"])];
    if w.expert_precision != w.precision {
        v.push((w.expert_precision, "weights", ["experts", "专家"]));
    }
    v.push((w.kv_precision, "kv", ["KV cache", "KV 缓存"]));
    v
}

/// The first rule for (platform, format, role) that covers the offer's capability; `Err` when
/// the format has rules there but none covers it. No allocation.
fn rule_for(offer: &GpuOffer, p: Precision, role: &str) -> Result<Option<&'static CompatRule>, ()> {
    let mut any = false;
    let cc = offer.compute_capability;
    for r in rules(&offer.platform, p) {
        if r.role != role && r.role != "any" {
            continue;
        }
        any = true;
        if r.min_cc.is_none_or(|m| cc + 1e-9 >= m) && r.max_cc.is_none_or(|m| cc + 1e-9 < m) {
            return Ok(Some(r));
        }
    }
    if any {
        Err(())
    } else {
        Ok(None)
    }
}

/// The least capability any rule that runs the format asks for, on the offer's platform.
fn least_capability(offer: &GpuOffer, p: Precision, role: &str) -> f64 {
    rules(&offer.platform, p)
        .iter()
        .filter(|r| (r.role == role || r.role == "any") && r.support != Support::None)
        .filter_map(|r| r.min_cc)
        .fold(f64::INFINITY, f64::min)
}

/// Whether `offer` can run `w`'s formats.
pub fn verdict(w: &Workload, offer: &GpuOffer) -> Verdict {
    let mut notes = Vec::new();
    let mut needs: Vec<Said> = Vec::new();
    let mut reasons: Vec<Said> = Vec::new();
    let mut fail = |need: Said, reason: Said| {
        if !needs.contains(&need) {
            needs.push(need);
            reasons.push(reason);
        }
    };
    let (gpu, platform) = (&offer.gpu, &offer.platform);
    for (precision, role, [what, what_zh]) in formats(w) {
        let p = precision.key();
        let not_run = || {
            Said::new(
                format!("{p} is not run on {platform}"),
                format!("{platform} 不支持 {p}"),
            )
        };
        match rule_for(offer, precision, role) {
            Ok(None) => {}
            Ok(Some(r)) => match r.support {
                Support::Native => {}
                Support::WeightOnly => notes.push(Said::new(
                    format!("{what} in {p} on {gpu}: {}", r.note),
                    format!("{what_zh}为 {p}，在 {gpu} 上：{}", r.note_zh),
                )),
                Support::None => fail(
                    not_run(),
                    Said::new(
                        format!("{p} ({what}) is not run on {gpu} ({platform}): {}", r.note),
                        format!("{gpu}（{platform}）不支持 {p}（{what_zh}）：{}", r.note_zh),
                    ),
                ),
            },
            Err(()) => {
                let least = least_capability(offer, precision, role);
                if least.is_finite() {
                    let need = Said::new(
                        format!("{p} needs compute capability ≥ {least:.1}"),
                        format!("{p} 需要计算能力 ≥ {least:.1}"),
                    );
                    let cc = format_number(offer.compute_capability);
                    let reason = Said::new(
                        format!("{}; {gpu} has {cc}", need.en),
                        format!("{}；{gpu} 为 {cc}", need.zh),
                    );
                    fail(need, reason);
                } else {
                    let need = not_run();
                    let reason = Said::new(
                        format!("{} ({gpu})", need.en),
                        format!("{}（{gpu}）", need.zh),
                    );
                    fail(need, reason);
                }
            }
        }
    }
    if !needs.is_empty() {
        let join =
            |f: fn(&Said) -> &str, sep: &str| reasons.iter().map(f).collect::<Vec<_>>().join(sep);
        Verdict::Excluded {
            reason: Said::new(join(|s| &s.en, "; "), join(|s| &s.zh, "；")),
            needs,
        }
    } else if notes.is_empty() {
        Verdict::Native
    } else {
        Verdict::WeightOnly(notes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    fn offer(gpu: &str) -> GpuOffer {
        catalog::find_gpu(gpu).unwrap_or_else(|| panic!("{gpu} in the catalog"))
    }

    fn workload(p: Precision, experts: Precision, kv: Precision) -> Workload {
        Workload {
            precision: p,
            kv_precision: kv,
            expert_precision: experts,
            online: true,
            ..Workload::new(
                "w",
                crate::model::Kind::Inference,
                crate::model::CellRef::new("Workloads", 1, 0),
            )
        }
    }

    #[test]
    fn bf16_needs_ampere_and_fp8_weights_run_weight_only_below_ada() {
        use Precision::*;
        let v = verdict(&workload(Bf16, Bf16, Fp16), &offer("T4"));
        assert_eq!(
            v,
            Verdict::Excluded {
                needs: vec![Said::new(
                    "bf16 needs compute capability ≥ 8.0",
                    "bf16 需要计算能力 ≥ 8.0"
                )],
                reason: Said::new(
                    "bf16 needs compute capability ≥ 8.0; T4 has 7.5",
                    "bf16 需要计算能力 ≥ 8.0；T4 为 7.5"
                )
            }
        );
        // FP8 weights on an A100 (8.0): FP8 Marlin, weight-only — a note, not an exclusion.
        match verdict(&workload(Fp8, Fp8, Fp16), &offer("A100-80G")) {
            Verdict::WeightOnly(notes) => assert!(notes[0].en.contains("FP8 Marlin"), "{notes:?}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            verdict(&workload(Fp8, Fp8, Fp16), &offer("H100")),
            Verdict::Native
        );
        // An FP8 KV cache has no weight-only path: below 8.9 it is out.
        assert!(matches!(
            verdict(&workload(Bf16, Bf16, Fp8), &offer("A100-80G")),
            Verdict::Excluded { needs, .. } if needs[0].en == "fp8 needs compute capability ≥ 8.9" && needs.len() == 1
        ));
    }

    #[test]
    fn mxfp4_experts_are_native_on_blackwell_weight_only_on_hopper_and_ampere() {
        use Precision::*;
        // gpt-oss: bf16 attention, MXFP4 experts.
        let w = workload(Bf16, Mxfp4, Bf16);
        match verdict(&w, &offer("H100")) {
            Verdict::WeightOnly(notes) => {
                assert_eq!(notes.len(), 1);
                assert!(
                    notes[0].en.starts_with(
                        "experts in mxfp4 on H100: Hopper runs MXFP4 experts through Triton"
                    ),
                    "{notes:?}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            verdict(&w, &offer("A100-80G")),
            Verdict::WeightOnly(_)
        ));
        assert_eq!(verdict(&w, &offer("B200")), Verdict::Native);
        assert!(matches!(
            verdict(&w, &offer("V100")),
            Verdict::Excluded { .. }
        ));
    }
}

//! templates/engines.tsv: the built-in engine profiles.

use super::{field, records};
use crate::model::{Applies, EngineValue, Engines};

pub(super) const ENGINES_TSV: &str = include_str!("../../templates/engines.tsv");

/// The built-in engine profiles (templates/engines.tsv): `yes`/`no` values read as 1/0, a
/// blank `applies_to` as [`Applies::Any`], and no cell.
pub fn engines() -> Engines {
    let values = records(ENGINES_TSV)
        .iter()
        .map(|r| {
            let raw = field(r, "value");
            EngineValue {
                engine: field(r, "engine").to_string(),
                applies: Applies::parse(field(r, "applies_to")).unwrap_or(Applies::Any),
                key: field(r, "key").to_string(),
                value: match raw {
                    "yes" => 1.0,
                    "no" => 0.0,
                    _ => raw.parse().unwrap_or(0.0),
                },
                unit: field(r, "unit").to_string(),
                version: field(r, "version").to_string(),
                source: field(r, "source").to_string(),
                cell: None,
            }
        })
        .collect();
    Engines { values }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{assumptions, profile_keys};
    use crate::lang::Lang;

    #[test]
    fn every_built_in_engine_value_sets_a_profile_key_of_the_defaults_with_a_source() {
        let defaults = assumptions(Lang::En);
        let engines = engines();
        assert!(engines.names().len() >= 7, "{:?}", engines.names());
        for v in &engines.values {
            assert!(
                !v.source.is_empty() && !v.version.is_empty(),
                "{}",
                v.engine
            );
            if v.key.is_empty() {
                continue;
            }
            assert!(
                profile_keys().contains(&v.key.as_str()),
                "{} sets {}",
                v.engine,
                v.key
            );
            assert!(defaults.get(&v.key).is_some(), "{} has no default", v.key);
            assert!(v.value.is_finite() && v.value >= 0.0);
        }
        // vLLM takes 90% of each GPU for its weights, working memory and KV pool.
        let vllm: Vec<_> = engines
            .for_workload("vllm", crate::model::Kind::Inference)
            .filter(|v| v.key == "gpu_memory_utilization")
            .collect();
        assert_eq!(vllm.len(), 1);
        assert_eq!(vllm[0].value, 0.9);
        assert_eq!(
            engines
                .for_workload("vllm", crate::model::Kind::Lora)
                .count(),
            0
        );
        // vllm@0.17 is vLLM's profile with 0.17's own figures in place: the sampler's 14 bytes
        // (the sort path's 38 before), 0.25 GiB outside torch (0.35) and 1.85 GiB across GPUs
        // (the assumption's 0.35), every other figure vLLM's (the 0.9 share), each key once.
        let v17: Vec<_> = engines
            .for_workload("vllm@0.17", crate::model::Kind::Inference)
            .collect();
        let value = |key: &str| {
            let found: Vec<f64> = v17
                .iter()
                .filter(|v| v.key == key)
                .map(|v| v.value)
                .collect();
            assert_eq!(found.len(), 1, "{key}: {found:?}");
            found[0]
        };
        assert_eq!(value("sampler_bytes"), 14.0);
        assert_eq!(value("runtime_overhead_gib"), 0.25);
        assert_eq!(value("tp_comm_gib"), 1.85);
        assert_eq!(value("gpu_memory_utilization"), 0.9);
        let base = engines
            .for_workload("vllm", crate::model::Kind::Inference)
            .count();
        // vLLM's figures but its runtime_overhead_gib, which 0.17's replaces, and 0.17's three.
        assert_eq!(v17.len(), base - 1 + 3);
        assert_eq!(engines.find("VLLM@0.17"), Some("vllm@0.17"));
    }
}

//! Checks across the built-in tables: the GPUs and models the spec names, and every cell of the
//! data files that should hold a number parsing as one.

use super::apis::APIS_TSV;
use super::compat::COMPAT_TSV;
use super::engines::ENGINES_TSV;
use super::gpus::GPUS_TSV;
use super::models::MODELS_TSV;
use super::*;
use crate::model::Applies;

#[test]
fn catalogs_hold_what_the_spec_names() {
    let gpus = gpus();
    for name in [
        "RTX 3090", "RTX 4090", "RTX 5090", "A10", "L4", "L40S", "A100-40G", "A100-80G", "A800",
        "H100", "H800", "H20", "H200", "V100", "T4",
    ] {
        let g = gpus
            .iter()
            .find(|g| g.gpu == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(g.provider, "example");
        assert!(
            g.vram_gib > 0.0 && g.bandwidth_gbs > 0.0 && g.fp16_tflops > 0.0,
            "{name}"
        );
    }
    let models = models();
    for name in [
        "Llama-2-7B",
        "Llama-2-13B",
        "Llama-2-70B",
        "Llama-3.1-8B",
        "Llama-3.1-70B",
        "Mistral-7B",
        "Qwen2.5-0.5B",
        "Qwen2.5-7B",
        "Qwen2.5-14B",
        "Qwen2.5-32B",
        "Qwen2.5-72B",
        "GLM-4-9B",
        "DeepSeek-R1-Distill-Qwen-7B",
        "DeepSeek-R1-Distill-Qwen-14B",
        "DeepSeek-R1-Distill-Qwen-32B",
        "Yi-34B",
        "SD1.5",
        "SDXL",
        "FLUX.1-dev",
    ] {
        assert!(models.iter().any(|m| m.name == name), "{name} missing");
    }
    let qwen = models.iter().find(|m| m.name == "Qwen2.5-7B").unwrap();
    assert_eq!(
        (qwen.layers, qwen.kv_heads, qwen.head_dim),
        (28.0, 4.0, 128.0)
    );
}

/// A typo in a data file (`8O` for 80) would otherwise read as 0 GiB: every cell of a
/// numeric column parses, every text column of the sheet is known, and each row has no more
/// cells than the header.
#[test]
fn the_built_in_tables_parse_cell_by_cell() {
    let text_columns = [
        "gpu",
        "provider",
        "platform",
        "nvlink",
        "name",
        "source",
        "available",
    ];
    for (file, tsv) in [("gpus.tsv", GPUS_TSV), ("models.tsv", MODELS_TSV)] {
        let mut lines = rows(tsv);
        let header = lines.next().unwrap_or_default();
        for (n, r) in lines.enumerate() {
            assert!(
                r.len() <= header.len(),
                "{file} row {}: {} cells",
                n + 1,
                r.len()
            );
            for (h, cell) in header.iter().zip(&r) {
                let cell = cell.trim();
                if text_columns.contains(h) || cell.is_empty() {
                    continue;
                }
                assert!(
                    cell.parse::<f64>().is_ok_and(f64::is_finite),
                    "{file} row {} column {h}: {cell:?} is not a number",
                    n + 1
                );
            }
        }
    }
    for (file, tsv, numeric) in [
        ("engines.tsv", ENGINES_TSV, &["value"][..]),
        (
            "apis.tsv",
            APIS_TSV,
            &["input_per_m", "output_per_m", "cached_input_per_m"][..],
        ),
        ("compat.tsv", COMPAT_TSV, &["min_cc", "max_cc"][..]),
    ] {
        for r in records(tsv) {
            for key in numeric {
                let cell = field(&r, key);
                assert!(
                    cell.is_empty() || cell.parse::<f64>().is_ok_and(f64::is_finite),
                    "{file}: {key} {cell:?} is not a number"
                );
            }
        }
    }
    for r in records(ENGINES_TSV) {
        assert!(
            Applies::parse(field(&r, "applies_to")).is_some(),
            "engines.tsv: applies_to {:?}",
            field(&r, "applies_to")
        );
    }
}

/// The first line scripts/earlier_formulas.py writes in an earlier-defaults file: the SHA-256 of
/// today's defaults, one `name<TAB>value` line each.
fn digest_line(today: impl IntoIterator<Item = (String, String)>) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for (name, value) in today {
        h.update(format!("{name}\t{value}\n").as_bytes());
    }
    let digest: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    format!("# sha256 of today's defaults: {digest}")
}

/// templates/formulas.earlier.tsv records the SHA-256 of the defaults it was written beside: a
/// default changed without running scripts/earlier_formulas.py would leave its old expression
/// unknown, and a template holding it would read as the user's edit.
#[test]
fn the_earlier_formulas_file_was_written_for_todays_defaults() {
    let today = formulas().into_iter().map(|f| {
        let expr = f.expression.split_whitespace().collect::<Vec<_>>();
        (f.name, expr.join(" "))
    });
    assert_eq!(
        formulas::FORMULAS_EARLIER_TSV.lines().next().unwrap(),
        digest_line(today),
        "a default formula changed: run python3 scripts/earlier_formulas.py"
    );
    // None of today's expressions is taken for an earlier one.
    for f in formulas() {
        assert!(!earlier_default(&f.name, &f.expression), "{}", f.name);
    }
    assert!(earlier_default(
        "prefill_allreduce_s",
        "if(gpus_per_replica > 1 && (nodes_per_replica > 1 || !gpu_nvlink) && prefill_flops > 0, layers * 4 * (1 - 1 / gpus_per_replica) * context_len * hidden * 2 / (allreduce_gbs * 1e9), 0)"
    ));
}

/// templates/assumptions.earlier.tsv records the SHA-256 of the default assumptions it was
/// written beside (key and value of each row with a value, as scripts/earlier_formulas.py reads
/// them): a default changed without running the script would leave its old value unknown, and
/// a template holding it would read as the user's choice.
#[test]
fn the_earlier_assumptions_file_was_written_for_todays_defaults() {
    use crate::lang::Lang;
    use crate::model::Value;
    let today = records(assumptions::ASSUMPTIONS_TSV)
        .iter()
        .map(|r| {
            (
                field(r, "key").to_string(),
                field(r, "value").trim().to_string(),
            )
        })
        .filter(|(_, value)| !value.is_empty())
        .collect::<Vec<_>>();
    assert_eq!(
        assumptions::ASSUMPTIONS_EARLIER_TSV.lines().next().unwrap(),
        digest_line(today),
        "a default assumption changed: run python3 scripts/earlier_formulas.py"
    );
    // None of today's values is taken for an earlier one; Korthikanti's 34 bytes a layer is.
    for a in assumptions(Lang::En).items {
        assert!(!earlier_assumption(&a.key, &a.value), "{}", a.key);
    }
    assert!(earlier_assumption(
        "layer_activation_bytes",
        &Value::Number(34.0)
    ));
    assert!(!earlier_assumption(
        "layer_activation_bytes",
        &Value::Number(40.0)
    ));
}

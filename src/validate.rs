//! `gpuplan validate`: the default formulas against published measurements of GPU memory
//! (`samples/validation.csv`, compiled in). Each row is evaluated as a one-GPU candidate with the
//! row's settings, and the estimate of one replica's memory is compared with the measurement.

use crate::catalog;
use crate::error::{Error, Result};
use crate::model::{CellRef, GpuOffer, Input, Kind, Precision, Workload, WorkloadNumbers};
use crate::plan::Engine;
use crate::read::set_assumption;

/// The validation table shipped with gpuplan.
pub const BUILTIN: &str = include_str!("../samples/validation.csv");

/// One measurement.
#[derive(Debug, Clone)]
pub struct Row {
    pub id: String,
    pub model: String,
    pub kind: Kind,
    pub precision: Precision,
    pub kv_precision: Precision,
    /// The experts' format (an MoE checkpoint's), default the precision.
    pub expert_precision: Precision,
    pub context_len: f64,
    pub batch_size: f64,
    pub concurrency: f64,
    pub avg_tokens: Option<f64>,
    pub lora_trainable_fraction: Option<f64>,
    pub grad_checkpointing: bool,
    pub flash_attention: bool,
    /// Assumptions the measured setup fixes, as `key=value` pairs (`optimizer_bytes_per_param=4`
    /// for pure-bf16 AdamW, `prefill_chunk_tokens=0` for transformers generate).
    pub settings: Vec<(String, String)>,
    /// The measurement in GiB.
    pub measured_gib: f64,
    /// What was measured (`largest context that fits the card`, `max_memory_allocated`, …).
    pub measure: String,
    pub source: String,
}

/// A row's estimate against its measurement.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub row: Row,
    pub estimate_gib: f64,
    /// (estimate − measured) / measured.
    pub error: f64,
}

/// Fields of one CSV line (RFC 4180 quoting).
fn fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            (c, _) => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// Parses a validation table.
pub fn rows(csv: &str) -> std::result::Result<Vec<Row>, String> {
    let mut lines = csv.lines().filter(|l| !l.trim().is_empty());
    let header = fields(lines.next().ok_or("the table is empty")?);
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or(format!("no column {name}"))
    };
    let mut out = Vec::new();
    for (n, line) in lines.enumerate() {
        let f = fields(line);
        let at = |name: &str| -> std::result::Result<String, String> {
            Ok(f.get(col(name)?).cloned().unwrap_or_default())
        };
        let line_no = n + 2;
        let num = |name: &str| -> std::result::Result<Option<f64>, String> {
            let t = at(name)?;
            if t.trim().is_empty() {
                return Ok(None);
            }
            t.trim()
                .parse()
                .map(Some)
                .map_err(|_| format!("line {line_no}: {name} is not a number: {t}"))
        };
        let yes =
            |name: &str| -> std::result::Result<bool, String> { Ok(at(name)?.trim() == "yes") };
        let kind = Kind::parse(&at("kind")?).ok_or(format!("line {line_no}: unknown kind"))?;
        let precision = Precision::parse(&at("precision")?)
            .ok_or(format!("line {line_no}: unknown precision"))?;
        let kv = at("kv_precision")?;
        let kv_precision = if kv.trim().is_empty() {
            Precision::Fp16
        } else {
            Precision::parse(&kv).ok_or(format!("line {line_no}: unknown kv_precision"))?
        };
        // An optional column: blank or absent is the precision.
        let ex = col("expert_precision")
            .ok()
            .and_then(|i| f.get(i).cloned())
            .unwrap_or_default();
        let expert_precision = if ex.trim().is_empty() {
            precision
        } else {
            Precision::parse(&ex).ok_or(format!("line {line_no}: unknown expert_precision"))?
        };
        let measured = num("measured")?.ok_or(format!("line {line_no}: no measurement"))?;
        let unit = at("unit")?;
        let measured_gib = match unit.trim() {
            "GiB" => measured,
            "GB" => measured * 1e9 / 2f64.powi(30),
            "MiB" => measured / 1024.0,
            other => {
                return Err(format!(
                    "line {line_no}: unit must be GB, GiB or MiB, found {other}"
                ))
            }
        };
        let mut settings = Vec::new();
        // An optional column: a table without it fixes no assumptions.
        let text = col("settings")
            .ok()
            .and_then(|i| f.get(i).cloned())
            .unwrap_or_default();
        for pair in text.split(';').filter(|p| !p.trim().is_empty()) {
            let (k, v) = pair.split_once('=').ok_or(format!(
                "line {line_no}: settings are key=value pairs separated by ;, found {pair}"
            ))?;
            settings.push((k.trim().to_string(), v.trim().to_string()));
        }
        out.push(Row {
            id: at("id")?,
            model: at("model")?,
            kind,
            precision,
            kv_precision,
            expert_precision,
            context_len: num("context_len")?.unwrap_or(2048.0),
            batch_size: num("batch_size")?.unwrap_or(1.0),
            concurrency: num("concurrency")?.unwrap_or(1.0),
            avg_tokens: num("avg_tokens")?,
            lora_trainable_fraction: num("lora_trainable_fraction")?,
            grad_checkpointing: yes("grad_checkpointing")?,
            flash_attention: yes("flash_attention")?,
            settings,
            measured_gib,
            measure: at("measure")?,
            source: at("source")?,
        });
    }
    Ok(out)
}

/// The estimate of one row: its workload on one GPU large enough to hold it, FlashAttention-2
/// available or not as measured, the row's checkpointing and LoRA share.
pub fn estimate(row: &Row) -> Result<f64> {
    let models = catalog::models();
    let model = models
        .iter()
        .find(|m| m.name == row.model)
        .cloned()
        .ok_or_else(|| {
            Error::Usage(format!(
                "validation row {}: {} is not in the catalog",
                row.id, row.model
            ))
        })?;
    // The row's own columns and its settings set assumptions the same way, checked as the
    // Assumptions sheet would check them.
    let mut assumptions = catalog::assumptions(false);
    let checkpointing = if row.grad_checkpointing { "yes" } else { "no" };
    let fraction = row.lora_trainable_fraction.map(|f| f.to_string());
    let columns = [
        Some(("grad_checkpointing", checkpointing)),
        fraction.as_deref().map(|f| ("lora_trainable_fraction", f)),
    ];
    let settings = row.settings.iter().map(|(k, v)| (k.as_str(), v.as_str()));
    for (key, value) in columns.into_iter().flatten().chain(settings) {
        set_assumption(&mut assumptions, key, value)
            .map_err(|e| Error::Usage(format!("validation row {}: {e}", row.id)))?;
    }
    let numbers = WorkloadNumbers {
        context_len: Some(row.context_len),
        batch_size: Some(row.batch_size),
        concurrency: Some(row.concurrency),
        avg_tokens: row.avg_tokens,
        hours_per_month: Some(1.0),
        max_gpus: Some(1.0),
        ..WorkloadNumbers::default()
    };
    let w = Workload {
        name: row.id.clone(),
        kind: row.kind,
        model: Some(model),
        precision: row.precision,
        kv_precision: row.kv_precision,
        expert_precision: row.expert_precision,
        numbers,
        online: false,
        spot_ok: false,
        gpu: None,
        notes: String::new(),
        cell: CellRef::new("validation", 0, 0),
    };
    let gpu = GpuOffer {
        gpu: "validation".into(),
        platform: "cuda".into(),
        vram_gib: 1e6,
        bandwidth_gbs: 1000.0,
        fp16_tflops: 100.0,
        // FlashAttention-2 is assumed from compute capability 8.0 on.
        compute_capability: if row.flash_attention { 8.0 } else { 7.5 },
        gpus_per_node: 1.0,
        on_demand_hourly: Some(1.0),
        billing_granularity_min: 60.0,
        available: true,
        ..GpuOffer::default()
    };
    let input = Input {
        file: "validation".into(),
        workloads: vec![w],
        gpus: vec![gpu],
        models,
        model_columns: Vec::new(),
        assumptions,
        formulas: catalog::formulas(),
        notices: Vec::new(),
    };
    let engine = Engine::compile(&input)?;
    let values = engine
        .evaluate_one(&input, &input.workloads[0], 0)
        .map_err(|p| Error::Internal(p.to_string()))?;
    let total = engine
        .candidate
        .slot("total_vram_gib")
        .map(|s| values[s])
        .unwrap_or(0.0);
    // torch's max_memory_allocated does not see the CUDA context.
    let overhead = engine
        .candidate
        .slot("overhead_gib")
        .map(|s| values[s])
        .unwrap_or(0.0);
    Ok(if row.measure.contains("max_memory_allocated") {
        total - overhead
    } else {
        total
    })
}

/// Every row's estimate and error.
pub fn run(rows: &[Row]) -> Result<Vec<Outcome>> {
    rows.iter()
        .map(|r| {
            let e = estimate(r)?;
            Ok(Outcome {
                row: r.clone(),
                estimate_gib: e,
                error: (e - r.measured_gib) / r.measured_gib,
            })
        })
        .collect()
}

/// The worst and the median absolute error.
pub fn summary(outcomes: &[Outcome]) -> (f64, f64) {
    let mut errs: Vec<f64> = outcomes.iter().map(|o| o.error.abs()).collect();
    errs.sort_by(f64::total_cmp);
    let worst = errs.last().copied().unwrap_or(0.0);
    let median = match errs.len() {
        0 => 0.0,
        n if n % 2 == 1 => errs[n / 2],
        n => (errs[n / 2 - 1] + errs[n / 2]) / 2.0,
    };
    (worst, median)
}

/// The report `gpuplan validate` prints.
pub fn report(outcomes: &[Outcome]) -> String {
    let w = outcomes
        .iter()
        .map(|o| o.row.id.chars().count())
        .max()
        .unwrap_or(0)
        .max(3);
    let mut out = format!(
        "{:<w$} {:>13} {:>13} {:>8}  {}\n",
        "row", "estimate GiB", "measured GiB", "error", "what was measured"
    );
    for o in outcomes {
        out.push_str(&format!(
            "{:<w$} {:>13.2} {:>13.2} {:>+7.1}%  {}\n",
            o.row.id,
            o.estimate_gib,
            o.row.measured_gib,
            o.error * 100.0,
            o.row.measure
        ));
    }
    let (worst, median) = summary(outcomes);
    out.push_str(&format!(
        "\n{} rows: worst error {:.1}%, median {:.1}%\n",
        outcomes.len(),
        worst * 100.0,
        median * 100.0
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails when a change to the default formulas moves any published measurement past 15%,
    /// or the median past 7%.
    #[test]
    fn default_formulas_stay_within_15_percent_of_every_measurement() {
        let rows = rows(BUILTIN).unwrap();
        assert!(rows.len() >= 12, "{} rows", rows.len());
        // The issue's coverage: inference at short and long context on GQA and non-GQA
        // models, LoRA, QLoRA at several sequence lengths, full fine-tuning.
        let heads_of = |r: &Row| {
            catalog::models()
                .into_iter()
                .find(|m| m.name == r.model)
                .map(|m| (m.kv_heads, m.heads))
                .unwrap()
        };
        let inference: Vec<&Row> = rows.iter().filter(|r| r.kind == Kind::Inference).collect();
        assert!(inference.iter().any(|r| r.context_len <= 4096.0));
        assert!(inference.iter().any(|r| r.context_len >= 32768.0));
        assert!(inference.iter().any(|r| {
            let (kv, q) = heads_of(r);
            kv < q
        }));
        assert!(inference.iter().any(|r| {
            let (kv, q) = heads_of(r);
            kv == q
        }));
        assert!(rows.iter().any(|r| r.kind == Kind::Lora));
        let qlora: std::collections::BTreeSet<u64> = rows
            .iter()
            .filter(|r| r.kind == Kind::Qlora)
            .map(|r| r.context_len as u64)
            .collect();
        assert!(qlora.len() >= 3, "{qlora:?}");
        assert!(rows.iter().any(|r| r.kind == Kind::FullFinetune));
        let outcomes = run(&rows).unwrap();
        for o in &outcomes {
            assert!(
                o.error.abs() <= 0.15,
                "{}: estimate {:.2} GiB, measured {:.2} GiB ({:+.1}%)",
                o.row.id,
                o.estimate_gib,
                o.row.measured_gib,
                o.error * 100.0
            );
        }
        let (_, median) = summary(&outcomes);
        assert!(median <= 0.07, "median error {:.1}%", median * 100.0);
    }

    #[test]
    fn csv_fields_honour_quotes() {
        assert_eq!(
            fields(r#"a,"b, c","say ""hi""",d"#),
            vec!["a", "b, c", "say \"hi\"", "d"]
        );
    }

    #[test]
    fn units_convert_to_gib() {
        let csv = "id,model,kind,precision,kv_precision,context_len,batch_size,concurrency,avg_tokens,lora_trainable_fraction,grad_checkpointing,flash_attention,framework,gpu,measured,unit,measure,source,notes\nx,Llama-2-7B,inference,fp16,,100,1,1,,,no,yes,f,g,1000,MiB,m,s,\n";
        let r = rows(csv).unwrap();
        assert!((r[0].measured_gib - 1000.0 / 1024.0).abs() < 1e-12);
    }
}

//! The outputs of `explain` (the formula trace), `catalog` (the built-in GPUs, models and
//! engine profiles) and `model` (a model read from its config).

use super::text::{csv, table};
use crate::model::Price;
use crate::model::{format_number, GpuOffer, ModelSpec};
use crate::plan::Trace;
use crate::read::config::Imported;
use serde_json::Value;

/// Which catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum CatalogKind {
    /// The built-in GPU offers, with example prices (CNY per GPU)
    Gpus,
    /// The built-in models and their architecture figures
    Models,
    /// The built-in engine profiles (vLLM, SGLang and others) and their sources
    Engines,
}

/// Output format of `catalog`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// An aligned text table for the terminal
    Table,
    /// CSV with a header row, ready to paste into a sheet
    Csv,
    /// Pretty-printed JSON
    Json,
}

/// The formula trace of `explain`.
pub fn trace(t: &Trace) -> String {
    let mut rows = vec![vec![
        "formula".into(),
        "value".into(),
        "unit".into(),
        "expression".into(),
    ]];
    for l in &t.lines {
        let v = if l.is_bool {
            if l.value != 0.0 {
                "yes".into()
            } else {
                "no".into()
            }
        } else {
            format_number(l.value)
        };
        rows.push(vec![
            l.name.clone(),
            v,
            l.unit.clone(),
            l.expression.clone(),
        ]);
    }
    format!(
        "{} on {}\n\n{}",
        t.workload,
        t.offer,
        table(&rows, &[false, true, false, false])
    )
}

fn opt(v: Option<f64>) -> String {
    v.map(format_number).unwrap_or_default()
}

fn gpu_rows(gpus: &[GpuOffer]) -> Vec<Vec<String>> {
    let mut rows = vec![[
        "gpu",
        "provider",
        "platform",
        "vram_gib",
        "bandwidth_gbs",
        "fp16_tflops",
        "fp8_tflops",
        "fp16_acc16_tflops",
        "compute_capability",
        "nvlink",
        "interconnect_gbs",
        "gpus_per_node",
        "power_w",
    ]
    .into_iter()
    .chain(Price::ALL.map(Price::key))
    .map(String::from)
    .collect()];
    for g in gpus {
        let positive = |v: f64| {
            if v > 0.0 {
                format_number(v)
            } else {
                String::new()
            }
        };
        let mut row = vec![
            g.gpu.clone(),
            g.provider.clone(),
            g.platform.clone(),
            format_number(g.vram_gib),
            format_number(g.bandwidth_gbs),
            format_number(g.fp16_tflops),
            positive(g.fp8_tflops),
            positive(g.fp16_acc16_tflops),
            positive(g.compute_capability),
            if g.nvlink { "yes" } else { "no" }.into(),
            positive(g.interconnect_gbs),
            format_number(g.gpus_per_node),
            g.power_w.map(format_number).unwrap_or_default(),
        ];
        row.extend(Price::ALL.map(|p| opt(g.price(p))));
        rows.push(row);
    }
    rows
}

fn model_rows(models: &[ModelSpec]) -> Vec<Vec<String>> {
    let mut header = vec!["name".to_string()];
    header.extend(ModelSpec::FIELDS.iter().map(|f| f.to_string()));
    let mut rows = vec![header];
    for m in models {
        let mut r = vec![m.name.clone()];
        r.extend(ModelSpec::FIELDS.iter().map(|f| {
            let v = m.field(f);
            if v > 0.0 {
                format_number(v)
            } else {
                String::new()
            }
        }));
        rows.push(r);
    }
    rows
}

/// A model read by `gpuplan model`: each figure with its source (table), a Models row (csv),
/// or both (json).
pub fn imported(m: &Imported, format: Format) -> String {
    use Format;
    match format {
        Format::Csv => imported_csv(m),
        Format::Json => imported_json(m),
        Format::Table => imported_table(m),
    }
}

/// Field `f` of an imported model as its row shows it: rounded to four decimals, blank when
/// not above zero.
fn imported_value(m: &Imported, f: &str) -> String {
    let v = m.spec.field(f);
    if v > 0.0 {
        format_number((v * 1e4).round() / 1e4)
    } else {
        String::new()
    }
}

/// An imported model as a Models row: the header and the row, its source last.
fn imported_csv(m: &Imported) -> String {
    let mut header = vec!["name".to_string()];
    header.extend(ModelSpec::FIELDS.iter().map(|f| f.to_string()));
    header.push("source".into());
    let mut row = vec![m.spec.name.clone()];
    row.extend(ModelSpec::FIELDS.iter().map(|f| imported_value(m, f)));
    row.push(m.spec.source.clone());
    csv(&[header, row])
}

/// An imported model as JSON: its fields (null where not above zero), their sources, what is
/// missing, the notes and the checkpoint's figures.
fn imported_json(m: &Imported) -> String {
    let fields: serde_json::Map<String, Value> = ModelSpec::FIELDS
        .iter()
        .map(|f| {
            let v = m.spec.field(f);
            (
                f.to_string(),
                if v > 0.0 {
                    serde_json::json!(v)
                } else {
                    Value::Null
                },
            )
        })
        .collect();
    let sources: serde_json::Map<String, Value> = m
        .sources
        .iter()
        .map(|(f, s)| (f.to_string(), Value::String(s.clone())))
        .collect();
    let checkpoint = m.checkpoint.as_ref().map(|c| {
        serde_json::json!({
            "elements": c.elements,
            "bytes": c.bytes,
            "files": c.files,
            "packed": c.packed,
            "by_dtype": c.by_dtype.iter().map(|(d, (e, b))| (d.clone(), serde_json::json!({"elements": e, "bytes": b}))).collect::<serde_json::Map<String, Value>>(),
        })
    });
    let v = serde_json::json!({
        "name": m.spec.name,
        "architecture": m.architecture,
        "fields": fields,
        "sources": sources,
        "missing": m.missing,
        "notes": m.notes,
        "checkpoint": checkpoint,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// An imported model for the terminal: each field read with where it came from (the last
/// source of a field), what is missing, the notes, and how to add it to the Models sheet.
fn imported_table(m: &Imported) -> String {
    let mut rows = vec![vec!["field".to_string(), "value".into(), "from".into()]];
    for f in ModelSpec::FIELDS {
        if let Some((_, from)) = m.sources.iter().rev().find(|(k, _)| k == f) {
            rows.push(vec![f.to_string(), imported_value(m, f), from.clone()]);
        }
    }
    let mut out = format!(
        "{} ({})\n\n{}",
        m.spec.name,
        m.architecture,
        table(&rows, &[false, true, false])
    );
    if !m.missing.is_empty() {
        out.push_str(&format!(
            "\nnot in the files (left blank): {}\n",
            m.missing.join(", ")
        ));
    }
    for n in &m.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out.push_str("\nAdd it to the Models sheet: gpuplan model PATH --format csv\n");
    out
}

/// The built-in catalog in a format.
pub fn catalog(what: CatalogKind, format: Format) -> String {
    match format {
        Format::Json => {
            let v = match what {
                CatalogKind::Gpus => serde_json::to_value(crate::catalog::gpus()),
                CatalogKind::Models => serde_json::to_value(crate::catalog::models()),
                CatalogKind::Engines => serde_json::to_value(crate::catalog::engines().values),
            };
            serde_json::to_string_pretty(&v.unwrap_or(Value::Null)).unwrap_or_default() + "\n"
        }
        Format::Csv | Format::Table => {
            let mut rows = match what {
                CatalogKind::Gpus => gpu_rows(&crate::catalog::gpus()),
                CatalogKind::Models => model_rows(&crate::catalog::models()),
                CatalogKind::Engines => engine_rows(&crate::catalog::engines()),
            };
            // The sources are paragraphs: the CSV and JSON carry them, the table leaves them out.
            if what == CatalogKind::Engines && format == Format::Table {
                rows.iter_mut().for_each(|r| r.truncate(6));
            }
            let mut out = if format == Format::Csv {
                csv(&rows)
            } else {
                table(&rows, &[])
            };
            if format == Format::Table {
                match what {
                    CatalogKind::Gpus => out.push_str("\nPrices are EXAMPLES (CNY per GPU, from public USD list prices at 7.2); put your own quotes in the GPUs sheet.\n"),
                    CatalogKind::Engines => out.push_str("\nA workload's engine column applies its engine's figures; the Engines sheet edits them or adds engines (sources: gpuplan catalog engines --format csv).\n"),
                    CatalogKind::Models => {}
                }
            }
            out
        }
    }
}

/// The engine profiles as rows, each with its source.
fn engine_rows(engines: &crate::model::Engines) -> Vec<Vec<String>> {
    let mut rows = vec![[
        "engine",
        "applies_to",
        "key",
        "value",
        "unit",
        "version",
        "source",
    ]
    .map(String::from)
    .to_vec()];
    for v in &engines.values {
        rows.push(vec![
            v.engine.clone(),
            v.applies.key().to_string(),
            if v.key.is_empty() {
                "(defaults)".to_string()
            } else {
                v.key.clone()
            },
            if v.key.is_empty() {
                String::new()
            } else {
                format_number(v.value)
            },
            v.unit.clone(),
            v.version.clone(),
            v.source.clone(),
        ]);
    }
    rows
}

//! What goes to the terminal and to scripts: the plan as JSON (SPEC §8.4), the short summary
//! table, the formula trace of `explain`, the catalogs, and the actuals of `usage`.

mod json;
mod usage;

pub use json::{write as write_json, PlanJson};
pub use usage::{table as usage_table, write_json as write_usage_json};

use crate::lang::Lang;
use crate::model::{format_number, GpuOffer, ModelSpec, Severity};
use crate::plan::{NeedSum, Plan, Trace};
use crate::read::config::Imported;
use serde_json::Value;

/// `¥1,628.00`, `$12.50`, `¥1,628` (JPY), `1,000.00 CHF`.
pub fn money(currency: &str, v: f64) -> String {
    let symbol = crate::model::currency_symbol(currency);
    let decimals = symbol.map_or(2, |(_, d)| d);
    let scale = 10u128.pow(decimals as u32);
    let units = (v.abs() * scale as f64).round() as u128;
    let whole = (units / scale).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let n = if decimals > 0 {
        format!("{grouped}.{:0decimals$}", units % scale)
    } else {
        grouped
    };
    let sign = if v < 0.0 && units > 0 { "-" } else { "" };
    match symbol {
        Some((s, _)) => format!("{sign}{s}{n}"),
        None => format!("{sign}{n} {currency}"),
    }
}

/// Whether to colour output: a terminal, and no `NO_COLOR`.
pub fn use_color<T: std::io::IsTerminal>(stream: &T) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Terminal columns `s` takes (a CJK character two, an en dash one).
fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

fn pad(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(display_width(s))))
}

/// Aligned rows of cells.
pub fn table(rows: &[Vec<String>], right: &[bool]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width = display_width;
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| width(s))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if right.get(i).copied().unwrap_or(false) {
                    format!("{}{s}", " ".repeat(widths[i].saturating_sub(width(s))))
                } else {
                    pad(s, widths[i])
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The summary's terminal colours: bold, yellow, red and reset, all empty without colour.
struct Paint {
    bold: &'static str,
    yellow: &'static str,
    red: &'static str,
    reset: &'static str,
}

impl Paint {
    fn new(color: bool) -> Paint {
        if color {
            Paint {
                bold: "\x1b[1m",
                yellow: "\x1b[33m",
                red: "\x1b[31m",
                reset: "\x1b[0m",
            }
        } else {
            Paint {
                bold: "",
                yellow: "",
                red: "",
                reset: "",
            }
        }
    }
}

/// The terminal summary of a plan.
pub fn summary(plan: &Plan, color: bool, lang: Lang) -> String {
    let paint = Paint::new(color);
    let mut out = table(
        &workload_rows(plan, &paint, lang),
        &[false, false, false, true],
    );
    out.push('\n');
    out.push_str(&table(&total_rows(plan, &paint, lang), &[false, true]));
    out.push_str(&cut_lines(plan, lang));
    out.push_str(&warning_lines(plan, &paint, lang));
    out
}

/// The summary's first table: a header, then each workload's card, count, mode and monthly
/// cost (or unplanned), at most 25 of them and a line saying how many more.
fn workload_rows(plan: &Plan, paint: &Paint, lang: Lang) -> Vec<Vec<String>> {
    let cur = plan.input.assumptions.currency();
    let mut rows = vec![vec![
        lang.t("workload", "负载").to_string(),
        lang.t("GPU × count", "GPU × 数量").to_string(),
        lang.t("mode", "计费方式").to_string(),
        lang.t("monthly cost", "月度成本").to_string(),
    ]];
    // A terminal shows the first workloads; the workbook has them all.
    const ROWS: usize = 25;
    for (i, w) in plan.input.workloads.iter().enumerate().take(ROWS) {
        match plan.chosen(i) {
            Some((c, ch)) => {
                let g = &plan.input.gpus[c.offer];
                let n = plan.need(c, crate::plan::Need::GPUS_TOTAL);
                rows.push(vec![
                    w.name.clone(),
                    format!("{} × {}", g.gpu, format_number(n)),
                    ch.mode.label(lang).to_string(),
                    money(&cur, ch.tco),
                ]);
            }
            None => rows.push(vec![
                w.name.clone(),
                format!(
                    "{}{}{}",
                    paint.red,
                    crate::layout::UNPLANNED.get(lang),
                    paint.reset
                ),
                "-".into(),
                "-".into(),
            ]),
        }
    }
    let more = plan.input.workloads.len().saturating_sub(ROWS);
    if more > 0 {
        rows.push(vec![if lang == Lang::Zh {
            format!("… 另有 {more} 个负载（见总览页）")
        } else {
            format!("… and {more} more workloads (see the Summary tab)")
        }]);
    }
    rows
}

/// The summary's totals: each cost line that is not zero, the total, and the total with the
/// safety margin in bold.
fn total_rows(plan: &Plan, paint: &Paint, lang: Lang) -> Vec<Vec<String>> {
    let cur = plan.input.assumptions.currency();
    let (b, z) = (paint.bold, paint.reset);
    let t = |n| plan.sum(n);
    let planned = &plan.totals.planned;
    let lines = [
        (lang.t("GPU", "GPU"), planned.gpu_cost),
        (lang.t("storage", "存储"), planned.storage_cost),
        (lang.t("egress", "流量"), planned.egress_cost),
        (
            lang.t("trial reserve", "试错预留"),
            t(NeedSum::TRIAL_RESERVE_COST),
        ),
        (lang.t("ops labour", "运维人力"), t(NeedSum::OPS_COST)),
    ];
    let mut rows: Vec<Vec<String>> = lines
        .iter()
        .filter(|(_, v)| *v != 0.0)
        .map(|(l, v)| vec![l.to_string(), money(&cur, *v)])
        .collect();
    rows.push(vec![
        lang.t("total", "合计").into(),
        money(&cur, t(NeedSum::TOTAL)),
    ]);
    rows.push(vec![
        format!(
            "{b}{}{z}",
            lang.t("total with safety margin", "含安全边际总计")
        ),
        format!("{b}{}{z}", money(&cur, t(NeedSum::TOTAL_WITH_MARGIN))),
    ]);
    if let Some(f) = &plan.fleet {
        rows.push(vec![
            lang.t("fleet saving (Fleet tab)", "卡群节省（见卡群页）")
                .into(),
            money(&cur, -f.saving),
        ]);
        rows.push(vec![
            lang.t("budget with the fleet", "卡群方案预算").into(),
            money(&cur, f.budget),
        ]);
    }
    rows
}

/// The downgrade plan's lines under the budget: each cut, its saving and risk, and the budget
/// after it; empty without one.
fn cut_lines(plan: &Plan, lang: Lang) -> String {
    let Some(c) = &plan.cuts else {
        return String::new();
    };
    let cur = plan.input.assumptions.currency();
    let (b, over) = (money(&cur, c.budget), money(&cur, c.planned - c.budget));
    let mut out = if lang == Lang::Zh {
        format!("\n超出预算 {b}：超出 {over}；降级方案（按节省排序）：\n")
    } else {
        format!("\nover the budget {b} by {over}; cuts, by saving:\n")
    };
    for (i, cut) in c.cuts.iter().enumerate() {
        out.push_str(&format!(
            "  {}. {}: {}: -{} → {} ({}: {})\n",
            i + 1,
            cut.workload,
            cut.change(lang),
            money(&cur, cut.saving),
            money(&cur, cut.total_after),
            lang.t("risk", "风险"),
            cut.risk(lang)
        ));
    }
    out
}

/// The summary's tail: the plan's warnings (at most 20, then how many more), and how many
/// notes the Warnings tab holds besides.
fn warning_lines(plan: &Plan, paint: &Paint, lang: Lang) -> String {
    let (y, z) = (paint.yellow, paint.reset);
    let mut out = String::new();
    let warn: Vec<_> = plan
        .warnings
        .iter()
        .filter(|w| w.severity == Severity::Warning)
        .collect();
    let notes = plan.warnings.len() - warn.len();
    const WARNINGS: usize = 20;
    if !warn.is_empty() {
        out.push('\n');
        for w in warn.iter().take(WARNINGS) {
            out.push_str(&format!(
                "{y}{}{z}: {}: {}\n",
                lang.t("warning", "警告"),
                w.location,
                w.text(lang)
            ));
        }
        if warn.len() > WARNINGS {
            let n = warn.len() - WARNINGS;
            out.push_str(&if lang == Lang::Zh {
                format!("… 另有 {n} 条警告，见提示页\n")
            } else {
                format!("… and {n} more warnings in the Warnings tab\n")
            });
        }
    }
    if notes > 0 {
        out.push_str(&if lang == Lang::Zh {
            format!("（提示页另有 {notes} 条说明）\n")
        } else {
            format!("({notes} note(s) in the Warnings tab)\n")
        });
    }
    out
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
        "on_demand_hourly",
        "monthly",
        "spot_hourly",
        "reserved_monthly",
    ]
    .map(String::from)
    .to_vec()];
    for g in gpus {
        let positive = |v: f64| {
            if v > 0.0 {
                format_number(v)
            } else {
                String::new()
            }
        };
        rows.push(vec![
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
            opt(g.on_demand_hourly),
            opt(g.monthly),
            opt(g.spot_hourly),
            opt(g.reserved_monthly),
        ]);
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

fn csv(rows: &[Vec<String>]) -> String {
    rows.iter()
        .map(|r| {
            r.iter()
                .map(|c| {
                    if c.contains([',', '"', '\n']) {
                        format!("\"{}\"", c.replace('"', "\"\""))
                    } else {
                        c.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// A model read by `gpuplan model`: each figure with its source (table), a Models row (csv),
/// or both (json).
pub fn imported(m: &Imported, format: crate::cli::Format) -> String {
    use crate::cli::Format;
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
pub fn catalog(what: crate::cli::CatalogKind, format: crate::cli::Format) -> String {
    use crate::cli::{CatalogKind, Format};
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

/// A spinner on stderr naming the phase of a long `calc`: drawn only on a terminal, and only
/// once the run has taken more than a second, so short runs print nothing extra.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    pub fn new(enabled: bool) -> Progress {
        if !enabled || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            return Progress { bar: None };
        }
        let bar =
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden());
        if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
            bar.set_style(style);
        }
        let delayed = bar.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(1));
            if !delayed.is_finished() {
                delayed.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                delayed.enable_steady_tick(std::time::Duration::from_millis(120));
            }
        });
        Progress { bar: Some(bar) }
    }

    pub fn phase(&self, msg: String) {
        if let Some(b) = &self.bar {
            b.set_message(msg);
        }
    }

    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    /// Cleared on every way out, errors included, so a message is never mixed with the spinner.
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_by_terminal_columns() {
        // "负载" takes four columns, "4.46–4.51" nine (the en dash is one): the second column
        // starts at the same terminal column on every line.
        let t = table(
            &[
                vec!["负载".to_string(), "a".to_string()],
                vec!["4.46–4.51".to_string(), "b".to_string()],
            ],
            &[],
        );
        let starts: Vec<usize> = t
            .lines()
            .map(|l| {
                let cut = l.rfind(['a', 'b']).unwrap();
                display_width(&l[..cut])
            })
            .collect();
        assert_eq!(starts[0], starts[1], "{t}");
    }

    #[test]
    fn money_is_grouped_with_the_currency_symbol() {
        assert_eq!(money("CNY", 1628.0), "¥1,628.00");
        assert_eq!(money("USD", 1234567.891), "$1,234,567.89");
        assert_eq!(money("CHF", 12.5), "12.50 CHF");
        assert_eq!(money("CNY", -5.0), "-¥5.00");
        // The workbook's table: pounds with a symbol, yen without decimals.
        assert_eq!(money("GBP", 12.5), "£12.50");
        assert_eq!(money("JPY", 1234.6), "¥1,235");
    }
}

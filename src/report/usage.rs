//! The actuals of `gpuplan usage`: a table for the terminal and JSON for scripts, whose contract
//! is the [`Actual`](crate::usage::Actual) struct.

use crate::labels::Said;
use crate::lang::Lang;
use crate::model::{format_number, Warning};
use crate::usage::{Actual, Report, Settings};
use serde::Serialize;
use std::path::PathBuf;

/// The JSON document: the assumptions the figures depend on, the logs read, the actuals (one per
/// workload) and the warnings.
#[derive(Serialize)]
struct UsageJson<'a> {
    gpuplan_version: &'static str,
    assumptions: AssumptionsJson,
    logs: Vec<String>,
    actuals: &'a [Actual],
    warnings: &'a [Warning],
}

#[derive(Serialize)]
struct AssumptionsJson {
    usage_active_threshold: f64,
    hours_in_month: f64,
}

/// Writes the actuals' JSON, pretty-printed and ended by a newline.
pub fn write_json(
    report: &Report,
    settings: &Settings,
    logs: &[PathBuf],
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let doc = UsageJson {
        gpuplan_version: env!("CARGO_PKG_VERSION"),
        assumptions: AssumptionsJson {
            usage_active_threshold: settings.threshold,
            hours_in_month: settings.hours_in_month,
        },
        logs: logs.iter().map(|p| p.display().to_string()).collect(),
        actuals: &report.actuals,
        warnings: &report.warnings,
    };
    serde_json::to_writer_pretty(&mut *w, &doc).map_err(std::io::Error::from)?;
    w.write_all(b"\n")
}

fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

fn opt(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or_else(|| "–".to_string(), f)
}

/// The table of actuals, with what its columns mean underneath, in `lang`.
pub fn table(report: &Report, settings: &Settings, lang: Lang) -> String {
    let mut rows = vec![[
        ["workload", "负载"],
        ["GPUs", "GPU 数"],
        ["days", "天数"],
        ["active h/month", "活跃小时/月"],
        ["utilization", "利用率"],
        ["busy util", "忙时利用率"],
        ["memory peak GiB", "显存峰值 GiB"],
        ["p95 GiB", "P95 GiB"],
    ]
    .map(|[en, zh]| lang.t(en, zh).to_string())
    .to_vec()];
    for a in &report.actuals {
        rows.push(vec![
            a.workload.clone(),
            a.gpus.to_string(),
            format!("{:.1}", a.days_covered),
            format!("{:.1}", a.active_hours_month),
            percent(a.utilization),
            opt(a.busy_utilization, percent),
            opt(a.memory_peak_gib, |v| format!("{v:.1}")),
            opt(a.memory_p95_gib, |v| format!("{v:.1}")),
        ]);
    }
    let mut out = super::table(&rows, &[false, true, true, true, true, true, true, true]);
    let h = format_number(settings.hours_in_month);
    let threshold = format_number(settings.threshold * 100.0);
    out.push_str(
        Said::new(
            format!(
                "\nActive: utilization above {threshold}% (usage_active_threshold). Hours are GPU-hours summed over a workload's GPUs, extrapolated from the days the logs cover to a {h}-hour month; utilization = active h/month ÷ ({h} × GPUs). Busy util: the average while active.\n"
            ),
            format!(
                "\n活跃：利用率高于 {threshold}%（usage_active_threshold）。小时为负载各 GPU 的 GPU 小时之和，由日志覆盖的天数外推到 {h} 小时的一个月；利用率 = 活跃小时/月 ÷ ({h} × GPU 数)。忙时利用率：活跃期间的平均利用率。\n"
            ),
        )
        .get(lang),
    );
    out
}

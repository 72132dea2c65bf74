//! What goes to the terminal and to scripts: the plan's short summary (here) and its JSON (SPEC
//! §8.4, `json`), the formula trace of `explain` and the catalogs (`catalog`), the table of
//! `diff` (`diff`), the actuals of `usage` (`usage`), over the text helpers of `text` (aligned
//! tables, CSV, colour). Money is
//! written by [`crate::model::money`], which the workbook and the planner's messages share.

mod catalog;
mod diff;
mod json;
mod text;
mod usage;

pub use catalog::{catalog, imported, trace, CatalogKind, Format};
pub use diff::{diff as diff_table, diff_markdown};
pub use json::{write as write_json, PlanJson};
pub use text::{table, use_color};
pub use usage::{table as usage_table, write_json as write_usage_json};

use crate::calc::Calc;
use crate::labels::Said;
use crate::lang::Lang;
use crate::model::{format_number, format_tenths, money, Severity};
use crate::plan::{NeedSum, Plan};

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

/// The terminal summary of a calculation: its plan's workloads and totals, then its warnings.
pub fn summary(calc: &Calc, color: bool, lang: Lang) -> String {
    let plan = &calc.plan;
    let paint = Paint::new(color);
    let mut out = table(
        &workload_rows(plan, &paint, lang),
        &[false, false, false, true],
    );
    out.push('\n');
    out.push_str(&table(&total_rows(plan, &paint, lang), &[false, true]));
    out.push_str(&cut_lines(plan, lang));
    out.push_str(&warning_lines(calc, &paint, lang));
    out
}

/// What a screen shows of a calculation, in one language: the summary's two tables (a header
/// row first, then text cells, as the terminal prints them), the lines on the budget ceiling and
/// its cuts, the fleet's shared cards (a header row, then a row a card group; empty when
/// nothing shares), and every warning and note with its cell. The page in the browser renders it.
#[derive(Debug, serde::Serialize)]
pub struct Screen {
    /// The workloads table: a header (workload, GPU × count, mode, monthly cost), then a row a
    /// workload, at most 25 and a line saying how many more.
    pub workloads: Vec<Vec<String>>,
    /// The totals table: each cost line that is not zero, the total and the total with margin.
    pub totals: Vec<Vec<String>>,
    /// The budget ceiling's lines and its cuts, one string a non-blank line; empty without a
    /// `budget_monthly`.
    pub cuts: Vec<String>,
    /// The fleet table: a header, then a row a card group; empty when nothing shares a card.
    pub fleet: Vec<Vec<String>>,
    /// The planner's warnings, then the run's notes, notes (`info`) included.
    pub warnings: Vec<ScreenWarning>,
}

/// A warning or note as a screen shows it.
#[derive(Debug, serde::Serialize)]
pub struct ScreenWarning {
    /// Whether it is a warning or a note (`info`).
    pub severity: Severity,
    /// Where it is about, `sheet!cell` or a workload's name (`where` in the JSON).
    #[serde(rename = "where")]
    pub location: String,
    /// What is wrong and what to do, in the screen's language (English where there is no
    /// Chinese).
    pub message: String,
}

/// The [`Screen`] of `calc` in `lang`.
pub fn screen(calc: &Calc, lang: Lang) -> Screen {
    let plan = &calc.plan;
    let paint = Paint::new(false);
    Screen {
        workloads: workload_rows(plan, &paint, lang),
        totals: total_rows(plan, &paint, lang),
        cuts: cut_lines(plan, lang)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect(),
        fleet: fleet_rows(plan, lang),
        warnings: calc
            .warnings()
            .map(|w| ScreenWarning {
                severity: w.severity,
                location: w.location.clone(),
                message: w.text(lang).to_string(),
            })
            .collect(),
    }
}

/// The fleet's card groups: GPU, cards, how they are shared, the workloads on them (a moved
/// job marked) and what the sharing saves a month.
fn fleet_rows(plan: &Plan, lang: Lang) -> Vec<Vec<String>> {
    let Some(fleet) = plan.fleet.as_ref().filter(|f| !f.cards.is_empty()) else {
        return Vec::new();
    };
    let cur = plan.input.assumptions.currency();
    let mut rows = vec![[
        lang.t("GPU", "GPU"),
        lang.t("cards", "卡数"),
        lang.t("shared by", "共享方式"),
        lang.t("workloads", "负载"),
        lang.t("saving a month", "每月节省"),
    ]
    .map(str::to_string)
    .to_vec()];
    for c in &fleet.cards {
        let names: Vec<String> = c
            .workloads
            .iter()
            .map(|w| match w.role {
                "job" => format!("{} ({})", w.name, lang.t("job moved here", "移入的任务")),
                _ => w.name.clone(),
            })
            .collect();
        let sharing = match c.sharing {
            "idle_hours" => lang.t("idle hours lent to jobs", "空闲时段借给任务"),
            _ => lang.t("instances of several services", "多个服务的实例同卡"),
        };
        rows.push(vec![
            c.gpu.clone(),
            c.cards.to_string(),
            sharing.to_string(),
            names.join(lang.t(", ", "、")),
            money(&cur, c.workloads.iter().map(|w| w.saving).sum()),
        ]);
    }
    rows
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
                    crate::labels::layout::UNPLANNED.get(lang),
                    paint.reset
                ),
                "-".into(),
                "-".into(),
            ]),
        }
    }
    let more = plan.input.workloads.len().saturating_sub(ROWS);
    if more > 0 {
        rows.push(vec![Said::new(
            format!("… and {more} more workloads (see the Summary tab)"),
            format!("… 另有 {more} 个负载（见总览页）"),
        )
        .pick(lang)]);
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
    if let Some(o) = plan.ownership() {
        rows.push(vec![
            lang.t("owned cards: capital up front", "自购卡：一次性资本支出")
                .into(),
            money(&cur, o.capital),
        ]);
        let months = o.months_to_break_even.map_or_else(
            || lang.t("never", "无法回本").to_string(),
            |m| format!("{} {}", format_tenths(m), lang.t("months", "个月")),
        );
        rows.push(vec![
            lang.t("paid back against renting in", "相对租用的回本期")
                .into(),
            months,
        ]);
    }
    rows
}

/// The budget month's lines under the budget: within budget_monthly, one line; over it, the
/// least-harm cuts (each with its saving, the budget after it and the cuts above it, its
/// `--set` and risk) and the first other cuts; empty without a budget.
fn cut_lines(plan: &Plan, lang: Lang) -> String {
    let Some(c) = &plan.cuts else {
        return String::new();
    };
    let cur = plan.input.assumptions.currency();
    let (b, m) = (money(&cur, c.budget), &c.month);
    if !c.over() {
        let planned = money(&cur, c.planned);
        return Said::new(
            format!(
                "
within the budget {b} for {m}: {planned}
"
            ),
            format!(
                "
{m} 的预算 {planned} 在上限 {b} 以内
"
            ),
        )
        .pick(lang);
    }
    let over = money(&cur, c.planned - c.budget);
    let mut out = Said::new(
        format!(
            "
over the budget {b} for {m} by {over}; the least-harm cuts (cut_order):
"
        ),
        format!(
            "
{m} 超出预算 {b}：超出 {over}；伤害最小的降级方案（按 cut_order）：
"
        ),
    )
    .pick(lang);
    out.push_str(&chosen_lines(c, &cur, lang));
    out.push_str(&other_lines(c, &cur, lang));
    out
}

/// The least-harm cuts, a line each: its saving, the budget after it and the cuts above it,
/// its `--set` and its risk.
fn chosen_lines(c: &crate::plan::cuts::Cuts, cur: &str, lang: Lang) -> String {
    let mut out = String::new();
    let set = |cut: &crate::plan::cuts::Cut| match cut.set.is_empty() {
        true => String::new(),
        false => format!("{}; ", cut.set_args()),
    };
    for (i, cut) in c.chosen().enumerate() {
        out.push_str(&format!(
            "  {}. {}: {}: -{} → {} ({}{}: {})
",
            i + 1,
            cut.workload,
            cut.change(lang),
            money(cur, cut.saving),
            money(cur, cut.total_after),
            set(cut),
            lang.t("risk", "风险"),
            cut.risk(lang)
        ));
    }
    out
}

/// The first other cuts (each alone, mildest first) and how many more the Plan tab lists.
fn other_lines(c: &crate::plan::cuts::Cuts, cur: &str, lang: Lang) -> String {
    const OTHERS: usize = 5;
    let mut out = String::new();
    let others: Vec<_> = c.cuts.iter().filter(|x| !x.chosen).collect();
    if !others.is_empty() {
        out.push_str(lang.t(
            "  other cuts, each alone, mildest first:
",
            "  其他降级方案（单独实施，伤害由小到大）：
",
        ));
    }
    for cut in others.iter().take(OTHERS) {
        out.push_str(&format!(
            "     {}: {}: -{} → {} ({})
",
            cut.workload,
            cut.change(lang),
            money(cur, cut.saving),
            money(cur, cut.budget_after),
            match cut.set.is_empty() {
                true => cut.action.to_string(),
                false => cut.set_args(),
            }
        ));
    }
    if others.len() > OTHERS {
        let n = others.len() - OTHERS;
        out.push_str(
            Said::new(
                format!("     … {n} more on the Plan tab\n"),
                format!("     … 另有 {n} 项，见方案页\n"),
            )
            .get(lang),
        );
    }
    out
}

/// The summary's tail: the calculation's warnings (at most 20, then how many more), and how
/// many notes the Warnings tab holds besides.
fn warning_lines(calc: &Calc, paint: &Paint, lang: Lang) -> String {
    let (y, z) = (paint.yellow, paint.reset);
    let mut out = String::new();
    let warn: Vec<_> = calc
        .warnings()
        .filter(|w| w.severity == Severity::Warning)
        .collect();
    let notes = calc.warnings().count() - warn.len();
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
            out.push_str(
                Said::new(
                    format!("… and {n} more warnings in the Warnings tab\n"),
                    format!("… 另有 {n} 条警告，见提示页\n"),
                )
                .get(lang),
            );
        }
    }
    if notes > 0 {
        out.push_str(
            Said::new(
                format!("({notes} note(s) in the Warnings tab)\n"),
                format!("（提示页另有 {notes} 条说明）\n"),
            )
            .get(lang),
        );
    }
    out
}

//! Scenarios: the main plan beside every scenario of the Scenarios sheet (or the base, when
//! `--scenario` made a scenario the main plan), the plans as columns so that the page reads
//! down one plan and across the plans: what changed, the totals and their difference from the
//! main plan, the fleet's saving and the budget with it, the budget ceiling and its cuts; then
//! per workload each plan's GPU × count · mode, its TCO and the TCO's change. The scenarios'
//! figures are as planned; the main plan's totals are live (the TCO tab's cells) and repeated as
//! calculated in the last column, stamped "fixed at calculation", which the differences
//! (formulas over the tab) are taken against.

use super::live::{absolute, cell};
use super::plan_tab::live_cell;
use super::tco::Layout;
use super::{at, Col, Ctx, Extent, Tab};
use crate::calc::Calc;
use crate::formula::cents;
use crate::labels::{Label, Said};
use crate::plan::{NeedSum, Plan};
use crate::write::style::{fit_row_height, fit_width, note_on, number, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The totals' rows under the plans' names: key and `[English, Chinese, note in English, note in
/// Chinese]` (the width is unused: the plans are the columns).
const ROWS: [Col; 10] = [
    Col::new("changes", 0.0, ["Changes", "改动", "The scenario's changes, in the --set syntax, from the Scenarios sheet.", "情景表中该情景的改动（--set 语法）。"]),
    Col::new("total", 0.0, ["Total", "合计", "Monthly total before the safety margin. The main plan's is live (the TCO tab); a scenario's is as planned.", "未含安全边际的月度合计。主方案为实时公式（总拥有成本页）；情景为规划时数值。"]),
    Col::new("total_with_margin", 0.0, ["Total with safety margin", "含安全边际总计", "The monthly budget.", "月度预算。"]),
    Col::new("budget_change", 0.0, ["Δ budget", "预算差额", "This plan's budget less the main plan's as calculated (the last column, fixed at calculation).", "本方案预算减计算时的主方案预算（最后一列，计算时固定）。"]),
    Col::new("budget_change_pct", 0.0, ["Δ %", "差额比例", "The difference as a share of the main plan's budget.", "差额占主方案预算的比例。"]),
    Col::new("fleet_saving", 0.0, ["Fleet saving", "卡群节省", "What the fleet saves a month (jobs on idle service cards, services sharing a card; 0 when nothing shares or the Assumption fleet is no), as planned.", "卡群每月节省的金额（任务错峰使用服务卡的闲置时段、服务共用卡；无共用或参数 fleet 为否时为 0），为规划时数值。"]),
    Col::new("budget_with_fleet", 0.0, ["Budget with the fleet", "卡群方案预算", "The total with safety margin less the fleet's saving, as planned.", "含安全边际总计减去卡群节省，为规划时数值。"]),
    Col::new("fleet_budget_change", 0.0, ["Δ with the fleet", "卡群预算差额", "This plan's budget with the fleet less the main plan's as calculated: what a scenario such as fleet=no changes.", "本方案卡群方案预算减计算时的主方案卡群方案预算：如 fleet=no 等情景的影响。"]),
    Col::new("budget_ceiling", 0.0, ["Budget ceiling", "预算上限", "The Assumption budget_monthly of the plan; blank: none.", "该方案的参数 budget_monthly；空白表示未设。"]),
    Col::new("cuts", 0.0, ["Cuts", "降级方案", "Over its ceiling, the plan's cuts (the JSON's scenarios list each, as the main plan's Plan tab does its own): how many, and whether they bring it within.", "超出预算上限时该方案的降级方案（JSON 的 scenarios 逐条列出，主方案的方案页列出其自身的）：条数，以及是否能降到上限以内。"]),
];
/// The row of a totals' key: the plans' names are row 0.
const fn row(key: &str) -> u32 {
    at(&ROWS, key) as u32 + 1
}
const CHANGES: u32 = row("changes");
const TOTAL: u32 = row("total");
const TOTAL_WITH_MARGIN: u32 = row("total_with_margin");
const BUDGET_CHANGE: u32 = row("budget_change");
const BUDGET_CHANGE_PCT: u32 = row("budget_change_pct");
const FLEET_SAVING: u32 = row("fleet_saving");
const BUDGET_WITH_FLEET: u32 = row("budget_with_fleet");
const FLEET_BUDGET_CHANGE: u32 = row("fleet_budget_change");
const BUDGET_CEILING: u32 = row("budget_ceiling");
const CUTS: u32 = row("cuts");

/// The labels' column, and the main plan's; the scenarios follow it, then the main plan as
/// calculated.
const LABEL: u16 = 0;
const MAIN: u16 = 1;
const LABEL_WIDTH: f64 = 26.0;
/// A plan's column: at least this wide, at most the second (its GPU · count · mode whole).
const PLAN_WIDTH: (f64, f64) = (18.0, 30.0);
/// The per-workload block's rows for each workload: GPU × count · mode, TCO, Δ TCO.
const PER_WORKLOAD: u32 = 3;

/// One plan's row figures: total and budget.
fn totals(p: &Plan) -> (f64, f64) {
    (p.sum(NeedSum::TOTAL), p.sum(NeedSum::TOTAL_WITH_MARGIN))
}

/// One plan's fleet figures: its saving and its budget with the fleet (the budget itself when
/// nothing shares), read through `plan.fleet`'s `saving` and `budget` only.
fn with_fleet(p: &Plan) -> (f64, f64) {
    match &p.fleet {
        Some(f) => (f.saving, f.budget),
        None => (0.0, totals(p).1),
    }
}

/// A plan's ceiling and cuts as the row says them: the Assumption budget_monthly (`None`:
/// none), and the cuts' count and whether they bring it within, read through `plan.cuts`'s
/// `met` and `cuts` only; empty without a ceiling.
fn ceiling_and_cuts(cx: &Ctx, p: &Plan) -> (Option<f64>, String) {
    let ceiling =
        Some(p.input.assumptions.number("budget_monthly", f64::NAN)).filter(|b| b.is_finite());
    let said = match (&p.cuts, ceiling) {
        (_, None) => Said::default(),
        (None, Some(_)) => Label::new("within the ceiling", "在上限以内").into(),
        (Some(c), Some(_)) => {
            let n = c.cuts.len();
            let en = format!(
                "{n} {}, {}",
                if n == 1 { "cut" } else { "cuts" },
                if c.met {
                    "within the ceiling after them"
                } else {
                    "still over the ceiling after them"
                }
            );
            if c.met {
                Said::new(en, format!("{n} 条降级方案，执行后在上限以内"))
            } else {
                Said::new(en, format!("{n} 条降级方案，执行后仍超出上限"))
            }
        }
    };
    (ceiling, said.pick(cx.lang))
}

/// Writes the Scenarios tab: the plans as columns with their totals, then the workloads below
/// them, each plan in its column. The tab is written in constant memory, row by row.
pub fn write(ws: &mut Worksheet, cx: &Ctx, layout: &Layout) -> Result<Extent, XlsxError> {
    let s = &cx.s;
    let main_name = main_name(cx);
    let plans = plans(cx, &main_name);
    let fixed = fixed_column(cx);
    let width = plan_width(cx, &plans);
    // Row 0: the plans' names, the labels' header before them.
    text(ws, 0, LABEL, cx.t("Plan", "方案"), &s.header)?;
    note_on(
        ws,
        0,
        LABEL,
        cx.t(
            "The main plan first (the base, or the scenario --scenario named), then each scenario, then the main plan as calculated.",
            "首列为主方案（基准，或 --scenario 指定的情景），其后为各情景，最后为计算时的主方案。",
        ),
    )?;
    for (k, (name, _)) in plans.iter().enumerate() {
        text(ws, 0, MAIN + k as u16, name, &s.header)?;
    }
    text(
        ws,
        0,
        fixed,
        cx.t("Main plan as calculated", "计算时的主方案"),
        &s.header,
    )?;
    // The wrapped rows as tall as their longest text, set before the row is written.
    let changes: Vec<String> = std::iter::once(main_changes(cx.calc))
        .chain(cx.calc.scenarios.iter().map(|sc| sc.changes.join("; ")))
        .chain(std::iter::once(fixed_note(cx).to_string()))
        .collect();
    let cuts: Vec<String> = plans
        .iter()
        .map(|(_, p)| ceiling_and_cuts(cx, p).1)
        .collect();
    for (k, r) in ROWS.iter().enumerate() {
        let at = k as u32 + 1;
        let wrapped: &[String] = match at {
            CHANGES => &changes,
            CUTS => &cuts,
            _ => &[],
        };
        if !wrapped.is_empty() {
            let heights: Vec<(&str, f64)> = wrapped.iter().map(|t| (t.as_str(), width)).collect();
            fit_row_height(ws, at, &heights)?;
        }
        text(ws, at, LABEL, cx.t(r.head[0], r.head[1]), &s.bold)?;
        note_on(ws, at, LABEL, cx.t(r.head[2], r.head[3]))?;
        write_main_cell(ws, cx, layout, at)?;
        for (j, sc) in cx.calc.scenarios.iter().enumerate() {
            write_scenario_cell(ws, cx, at, MAIN + 1 + j as u16, sc)?;
        }
        write_fixed_cell(ws, cx, at)?;
    }
    let last = write_per_workload(ws, cx, &plans, CUTS + 2, width)?;
    let mut w = vec![LABEL_WIDTH];
    w.extend(std::iter::repeat_n(width, plans.len() + 1));
    widths(ws, &w)?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(last, fixed))
}

/// A plan's fleet, ceiling or cuts cell at row `r`, column `c` (as planned: the fleet and the
/// cuts are not live); nothing for another row.
fn write_fleet_or_cuts(
    ws: &mut Worksheet,
    cx: &Ctx,
    r: u32,
    c: u16,
    p: &Plan,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    let (saving, budget) = with_fleet(p);
    match r {
        FLEET_SAVING => number(ws, r, c, saving, &s.money)?,
        BUDGET_WITH_FLEET => number(ws, r, c, budget, &s.money_bold)?,
        BUDGET_CEILING => {
            if let Some(v) = ceiling_and_cuts(cx, p).0 {
                number(ws, r, c, v, &s.money)?;
            }
        }
        CUTS => text(ws, r, c, &ceiling_and_cuts(cx, p).1, &s.wrap)?,
        _ => {}
    }
    Ok(())
}

/// The main plan's cell at row `r`: its changes, its totals live over the TCO tab, its fleet and
/// cuts; it has no differences.
fn write_main_cell(ws: &mut Worksheet, cx: &Ctx, layout: &Layout, r: u32) -> Result<(), XlsxError> {
    let s = &cx.s;
    let tco = cx.sheet(Tab::Tco);
    let (t, m) = totals(cx.plan);
    match r {
        CHANGES => text(ws, r, MAIN, &main_changes(cx.calc), &s.wrap),
        TOTAL => live_cell(
            ws,
            r,
            MAIN,
            Ok(layout.amount(tco, layout.total)),
            t,
            &s.money,
            cx,
        ),
        TOTAL_WITH_MARGIN => live_cell(
            ws,
            r,
            MAIN,
            Ok(layout.amount(tco, layout.with_margin)),
            m,
            &s.money_bold,
            cx,
        ),
        _ => write_fleet_or_cuts(ws, cx, r, MAIN, cx.plan),
    }
}

/// A scenario's cell at row `r`, column `c`: its changes and totals as planned, and its budget's
/// difference from the main plan's as calculated (the last column), as formulas over the tab.
/// The differences were taken from the main plan's live cells, so a price edit moved the base
/// and not the scenarios: "price +20%" read −3.6% (#34 item 5).
fn write_scenario_cell(
    ws: &mut Worksheet,
    cx: &Ctx,
    r: u32,
    c: u16,
    sc: &crate::calc::Scenario,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    let m = totals(cx.plan).1;
    let (st, sm) = totals(&sc.plan);
    let fixed = fixed_column(cx);
    let of_main = |row: u32| absolute(cx.sheet(Tab::Scenarios), row, fixed);
    match r {
        CHANGES => text(ws, r, c, &sc.changes.join("; "), &s.wrap),
        TOTAL => number(ws, r, c, st, &s.money),
        TOTAL_WITH_MARGIN => number(ws, r, c, sm, &s.money_bold),
        BUDGET_CHANGE => {
            let (here, budget) = (cell(None, TOTAL_WITH_MARGIN, c), of_main(TOTAL_WITH_MARGIN));
            live_cell(
                ws,
                r,
                c,
                Ok(format!("{here}-{budget}")),
                sm - m,
                &s.money,
                cx,
            )
        }
        BUDGET_CHANGE_PCT => {
            let (here, budget) = (cell(None, TOTAL_WITH_MARGIN, c), of_main(TOTAL_WITH_MARGIN));
            live_cell(
                ws,
                r,
                c,
                Ok(format!("IF({budget}=0,0,({here}-{budget})/{budget})")),
                if m != 0.0 { (sm - m) / m } else { 0.0 },
                &s.pct,
                cx,
            )
        }
        FLEET_BUDGET_CHANGE => {
            let (here, budget) = (cell(None, BUDGET_WITH_FLEET, c), of_main(BUDGET_WITH_FLEET));
            live_cell(
                ws,
                r,
                c,
                Ok(format!("{here}-{budget}")),
                with_fleet(&sc.plan).1 - with_fleet(cx.plan).1,
                &s.money,
                cx,
            )
        }
        _ => write_fleet_or_cuts(ws, cx, r, c, &sc.plan),
    }
}

/// The note over the main plan as calculated: the scenarios do not follow edits.
fn fixed_note(cx: &Ctx) -> &'static str {
    cx.t(
        "Fixed at calculation: each scenario is a re-plan and does not follow edits in this workbook; its Δ is against this column. Rerun gpuplan after an edit.",
        "计算时固定：每个情景均为重新规划，不随本工作簿中的修改变化；差额相对本列计算。修改后请重新运行 gpuplan。",
    )
}

/// The last column's cell at row `r`: the main plan's totals and fleet as calculated, under
/// [`fixed_note`].
fn write_fixed_cell(ws: &mut Worksheet, cx: &Ctx, r: u32) -> Result<(), XlsxError> {
    let s = &cx.s;
    let c = fixed_column(cx);
    let (t, m) = totals(cx.plan);
    let (saving, with) = with_fleet(cx.plan);
    match r {
        CHANGES => text(ws, r, c, fixed_note(cx), &s.wrap),
        TOTAL => number(ws, r, c, t, &s.money),
        TOTAL_WITH_MARGIN => number(ws, r, c, m, &s.money),
        FLEET_SAVING => number(ws, r, c, saving, &s.money),
        BUDGET_WITH_FLEET => number(ws, r, c, with, &s.money),
        _ => Ok(()),
    }
}

/// The main plan's name: the scenario `--scenario` named, or the base.
fn main_name(cx: &Ctx) -> String {
    cx.calc
        .scenario
        .clone()
        .unwrap_or_else(|| cx.t("base", "基准").to_string())
}

/// The plans in their columns' order, named: the main plan, then each scenario.
fn plans<'a>(cx: &'a Ctx, main_name: &'a str) -> Vec<(&'a str, &'a Plan)> {
    std::iter::once((main_name, cx.plan))
        .chain(
            cx.calc
                .scenarios
                .iter()
                .map(|sc| (sc.name.as_str(), &sc.plan)),
        )
        .collect()
}

/// The tab's width in characters, for the print setup: the labels and every plan's column.
pub fn printed_width(cx: &Ctx) -> f64 {
    let name = main_name(cx);
    let plans = plans(cx, &name);
    LABEL_WIDTH + plan_width(cx, &plans) * (plans.len() + 1) as f64
}

/// The column of the main plan as calculated: after the scenarios.
fn fixed_column(cx: &Ctx) -> u16 {
    MAIN + 1 + cx.calc.scenarios.len() as u16
}

/// A plan's GPU, count and mode in one cell, "RTX 4090 @ example × 2 · monthly"; `None` where
/// the plan could not place workload `i`.
fn outcome(cx: &Ctx, p: &Plan, i: usize) -> Option<String> {
    let (cand, ch) = p.chosen(i)?;
    let n = p.need(cand, crate::plan::Need::GPUS_TOTAL);
    Some(format!(
        "{} × {} · {}",
        p.input.gpus[cand.offer].label(),
        crate::model::format_number(n),
        ch.mode.label(cx.lang)
    ))
}

/// The plans' columns' width: the longest plan name or outcome whole, within [`PLAN_WIDTH`].
fn plan_width(cx: &Ctx, plans: &[(&str, &Plan)]) -> f64 {
    let texts: Vec<String> = plans
        .iter()
        .flat_map(|(name, p)| {
            std::iter::once(name.to_string())
                .chain((0..p.workloads.len()).filter_map(|i| outcome(cx, p, i)))
        })
        .collect();
    fit_width(texts.iter().map(String::as_str), PLAN_WIDTH.0, PLAN_WIDTH.1)
}

/// The changes of the scenario `--scenario` made the main plan, in the --set syntax; empty
/// for the base.
fn main_changes(calc: &Calc) -> String {
    match &calc.scenario {
        Some(_) => calc
            .plan
            .input
            .scenarios
            .iter()
            .find(|d| Some(&d.name) == calc.scenario.as_ref())
            .map(|d| {
                d.changes
                    .iter()
                    .map(|c| c.text())
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .unwrap_or_default(),
        None => String::new(),
    }
}

/// From row `top`: a title, the plans' names again, then per workload three rows: each plan's
/// GPU × count · mode, its monthly TCO, and the TCO less the main plan's (scenarios only).
/// Returns the block's last row.
fn write_per_workload(
    ws: &mut Worksheet,
    cx: &Ctx,
    plans: &[(&str, &Plan)],
    top: u32,
    width: f64,
) -> Result<u32, XlsxError> {
    let s = &cx.s;
    text(
        ws,
        top,
        LABEL,
        cx.t(
            "Per workload: each plan's GPU × count · billing mode and monthly TCO (scenarios as planned)",
            "各负载：各方案的 GPU × 数量 · 计费方式与月度总成本（情景为规划时数值）",
        ),
        &s.subtitle,
    )?;
    let head = top + 1;
    text(ws, head, LABEL, cx.t("Workload", "负载"), &s.header)?;
    for (k, (name, _)) in plans.iter().enumerate() {
        text(ws, head, MAIN + k as u16, name, &s.header)?;
    }
    let (tco_label, change_label) = (
        format!("  {}", cx.t("TCO", "总拥有成本")),
        format!("  {}", cx.t("Δ TCO", "Δ 总拥有成本")),
    );
    let mut last = head;
    for (i, w) in cx.plan.input.workloads.iter().enumerate() {
        let r = head + 1 + PER_WORKLOAD * i as u32;
        let main_tco = cx.plan.chosen(i).map(|(_, ch)| ch.tco);
        let tco = |p: &Plan| p.chosen(i).map(|(_, ch)| ch.tco);
        // Row by row (constant memory): the outcomes, the TCOs, the changes.
        let outcomes: Vec<Option<String>> = plans.iter().map(|(_, p)| outcome(cx, p, i)).collect();
        // An outcome wider than its column wraps ("RTX 4090 @ example × 4 · 包月保底 + 按量弹性").
        let heights: Vec<(&str, f64)> = outcomes
            .iter()
            .flatten()
            .map(|t| (t.as_str(), width))
            .collect();
        fit_row_height(ws, r, &heights)?;
        text(ws, r, LABEL, &w.name, &s.bold)?;
        for (k, said) in outcomes.iter().enumerate() {
            let c = MAIN + k as u16;
            match said {
                Some(said) => text(ws, r, c, said, &s.wrap)?,
                None => text(
                    ws,
                    r,
                    c,
                    crate::labels::layout::UNPLANNED.get(cx.lang),
                    &s.bad,
                )?,
            }
        }
        text(ws, r + 1, LABEL, &tco_label, &s.text)?;
        for (k, (_, p)) in plans.iter().enumerate() {
            if let Some(t) = tco(p) {
                number(ws, r + 1, MAIN + k as u16, t, &s.money)?;
            }
        }
        text(ws, r + 2, LABEL, &change_label, &s.muted)?;
        // The main plan has no change.
        for (k, (_, p)) in plans.iter().enumerate().skip(1) {
            if let (Some(t), Some(base)) = (tco(p), main_tco) {
                number(ws, r + 2, MAIN + k as u16, cents(t - base), &s.money)?;
            }
        }
        last = r + 2;
    }
    Ok(last)
}

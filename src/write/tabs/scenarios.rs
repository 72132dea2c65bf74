//! Scenarios: the main plan beside every scenario of the Scenarios sheet (or the base, when
//! `--scenario` made a scenario the main plan) — totals with what changed and by how much, then
//! per workload the GPU, count, mode and TCO of each. The scenarios' figures are as planned; the
//! main plan's totals are live (the TCO tab's cells), and the differences are formulas over the
//! tab.

use super::live::{absolute, cell};
use super::plan_tab::live_cell;
use super::tco::Layout;
use super::{Ctx, Extent, Tab};
use crate::plan::{NeedSum, Plan};
use crate::write::style::{number, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The totals' columns: `[English, Chinese, note in English, note in Chinese]`.
const COLUMNS: [[&str; 4]; 6] = [
    ["Plan", "方案", "The main plan first (the base, or the scenario --scenario named), then each scenario.", "首行为主方案（基准，或 --scenario 指定的情景），其后为各情景。"],
    ["Changes", "改动", "The scenario's changes, in the --set syntax, from the Scenarios sheet.", "情景表中该情景的改动（--set 语法）。"],
    ["Total", "合计", "Monthly total before the safety margin. The main plan's is live (the TCO tab); a scenario's is as planned.", "未含安全边际的月度合计。主方案为实时公式（总拥有成本页）；情景为规划时数值。"],
    ["Total with safety margin", "含安全边际总计", "The monthly budget.", "月度预算。"],
    ["Δ budget", "预算差额", "This plan's budget less the main plan's.", "本方案预算减主方案预算。"],
    ["Δ %", "差额比例", "The difference as a share of the main plan's budget.", "差额占主方案预算的比例。"],
];

/// One plan's row figures: total and budget.
fn totals(p: &Plan) -> (f64, f64) {
    (p.sum(NeedSum::TOTAL), p.sum(NeedSum::TOTAL_WITH_MARGIN))
}

/// Writes the Scenarios tab: the totals of the main plan and of each scenario, then the
/// workloads side by side below them.
pub fn write(ws: &mut Worksheet, cx: &Ctx, layout: &Layout) -> Result<Extent, XlsxError> {
    let plan = cx.plan;
    let main_name = plan.scenario.clone().unwrap_or_else(|| "base".to_string());
    cx.header(ws, 0, &COLUMNS)?;
    write_main_totals(ws, cx, layout, &main_name)?;
    write_scenario_totals(ws, cx)?;
    let plans: Vec<(&str, &Plan)> = std::iter::once((main_name.as_str(), plan))
        .chain(plan.scenarios.iter().map(|sc| (sc.name.as_str(), &sc.plan)))
        .collect();
    let top = plan.scenarios.len() as u32 + 3;
    let (head, last_col) = write_per_workload(ws, cx, &plans, top)?;
    let mut w = vec![26.0, 40.0, 14.0, 16.0, 14.0, 10.0];
    w.resize((last_col as usize + 1).max(6), 14.0);
    widths(ws, &w)?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(
        head + plan.workloads.len() as u32,
        last_col.max(5),
    ))
}

/// The changes of the scenario `--scenario` made the main plan, in the --set syntax; empty
/// for the base.
fn main_changes(plan: &Plan) -> String {
    match &plan.scenario {
        Some(_) => plan
            .input
            .scenarios
            .iter()
            .find(|d| Some(&d.name) == plan.scenario.as_ref())
            .map(|d| {
                d.changes
                    .iter()
                    .map(|(c, _)| c.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .unwrap_or_default(),
        None => String::new(),
    }
}

/// Row 1: the main plan's name, its changes and its totals, live over the TCO tab.
fn write_main_totals(
    ws: &mut Worksheet,
    cx: &Ctx,
    layout: &Layout,
    main_name: &str,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    let tco = cx.sheet(Tab::Tco);
    let (t, m) = totals(cx.plan);
    text(ws, 1, 0, main_name, &s.bold)?;
    text(ws, 1, 1, &main_changes(cx.plan), &s.wrap)?;
    live_cell(
        ws,
        1,
        2,
        Ok(layout.amount(tco, layout.total)),
        t,
        &s.money,
        cx,
    )?;
    live_cell(
        ws,
        1,
        3,
        Ok(layout.amount(tco, layout.with_margin)),
        m,
        &s.money_bold,
        cx,
    )
}

/// One row per scenario from row 2: its name, changes and totals as planned, and its budget's
/// difference from the main plan's, as formulas over the tab.
fn write_scenario_totals(ws: &mut Worksheet, cx: &Ctx) -> Result<(), XlsxError> {
    let s = &cx.s;
    let (_, m) = totals(cx.plan);
    let budget = absolute(cx.sheet(Tab::Scenarios), 1, 3);
    for (k, sc) in cx.plan.scenarios.iter().enumerate() {
        let r = 2 + k as u32;
        let (st, sm) = totals(&sc.plan);
        text(ws, r, 0, &sc.name, &s.bold)?;
        text(ws, r, 1, &sc.changes.join("; "), &s.wrap)?;
        number(ws, r, 2, st, &s.money)?;
        number(ws, r, 3, sm, &s.money_bold)?;
        let here = cell(None, r, 3);
        live_cell(
            ws,
            r,
            4,
            Ok(format!("{here}-{budget}")),
            sm - m,
            &s.money,
            cx,
        )?;
        live_cell(
            ws,
            r,
            5,
            Ok(format!("IF({budget}=0,0,({here}-{budget})/{budget})")),
            if m != 0.0 { (sm - m) / m } else { 0.0 },
            &s.pct,
            cx,
        )?;
    }
    Ok(())
}

/// From row `top`: a title, a header row, then per workload the GPU, GPUs, mode and TCO of each
/// plan (and the TCO's change from the main plan's after the first). Returns the header's row
/// and the last column.
fn write_per_workload(
    ws: &mut Worksheet,
    cx: &Ctx,
    plans: &[(&str, &Plan)],
    top: u32,
) -> Result<(u32, u16), XlsxError> {
    let s = &cx.s;
    text(
        ws,
        top,
        0,
        cx.t(
            "Per workload: GPU, GPUs, billing mode and monthly TCO of each plan (scenarios as planned)",
            "各负载：各方案的 GPU、GPU 数、计费方式与月度总成本（情景为规划时数值）",
        ),
        &s.subtitle,
    )?;
    let head = top + 1;
    let (starts, last_col) = write_per_workload_header(ws, cx, plans, head)?;
    for (i, w) in cx.plan.input.workloads.iter().enumerate() {
        let r = head + 1 + i as u32;
        text(ws, r, 0, &w.name, &s.text)?;
        let main_tco = cx.plan.chosen(i).map(|(_, ch)| ch.tco);
        for (k, (_, p)) in plans.iter().enumerate() {
            // The main plan has no change column.
            let base = if k > 0 { main_tco } else { None };
            write_outcome(ws, cx, r, starts[k], p, i, base)?;
        }
    }
    Ok((head, last_col))
}

/// The per-workload header at row `head`: the workload, then per plan GPU, GPUs, mode, TCO
/// (and Δ TCO after the first). Returns each plan's first column and the last column.
fn write_per_workload_header(
    ws: &mut Worksheet,
    cx: &Ctx,
    plans: &[(&str, &Plan)],
    head: u32,
) -> Result<(Vec<u16>, u16), XlsxError> {
    let s = &cx.s;
    let mut c = 1u16;
    text(ws, head, 0, cx.t("Workload", "负载"), &s.header)?;
    let mut starts = Vec::new();
    for (k, (name, _)) in plans.iter().enumerate() {
        starts.push(c);
        let labels = [
            format!("{name}: GPU"),
            format!("{name}: {}", cx.t("GPUs", "GPU 数")),
            format!("{name}: {}", cx.t("mode", "计费方式")),
            format!("{name}: TCO"),
        ];
        for l in &labels {
            text(ws, head, c, l, &s.header)?;
            c += 1;
        }
        if k > 0 {
            text(ws, head, c, &format!("{name}: Δ TCO"), &s.header)?;
            c += 1;
        }
    }
    Ok((starts, c - 1))
}

/// Workload `i` in plan `p` from column `at`: its GPU, count, mode and TCO, and the TCO less
/// `main_tco` when given; "unplanned" when the plan could not place it.
fn write_outcome(
    ws: &mut Worksheet,
    cx: &Ctx,
    r: u32,
    at: u16,
    p: &Plan,
    i: usize,
    main_tco: Option<f64>,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    match p.chosen(i) {
        Some((cand, ch)) => {
            text(ws, r, at, &p.input.gpus[cand.offer].label(), &s.text)?;
            number(
                ws,
                r,
                at + 1,
                p.value(cand, "gpus_total").unwrap_or(0.0),
                &s.integer,
            )?;
            text(ws, r, at + 2, ch.mode.label(cx.lang), &s.text)?;
            number(ws, r, at + 3, ch.tco, &s.money)?;
            if let Some(base) = main_tco {
                number(ws, r, at + 4, ch.tco - base, &s.money)?;
            }
        }
        None => text(ws, r, at, cx.t("unplanned", "未规划"), &s.bad)?,
    }
    Ok(())
}

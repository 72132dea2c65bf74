//! Scenarios: the main plan beside every scenario of the Scenarios sheet (or the base, when
//! `--scenario` made a scenario the main plan) — totals with what changed and by how much, the
//! fleet's saving and the budget with it, the budget ceiling and its cuts, then per workload the
//! GPU, count, mode and TCO of each. The scenarios' figures are as planned; the
//! main plan's totals are live (the TCO tab's cells) and repeated as calculated in a row stamped
//! "fixed at calculation", which the differences (formulas over the tab) are taken against.

use super::live::{absolute, cell};
use super::plan_tab::live_cell;
use super::tco::Layout;
use super::{at, heads_of, widths_of, Col, Ctx, Extent, Tab};
use crate::calc::Calc;
use crate::plan::{NeedSum, Plan};
use crate::write::style::{fit_row_height, number, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The totals' columns: key, width and `[English, Chinese, note in English, note in Chinese]`.
const COLUMNS: [Col; 11] = [
    Col::new("plan", 26.0, ["Plan", "方案", "The main plan first (the base, or the scenario --scenario named), then each scenario.", "首行为主方案（基准，或 --scenario 指定的情景），其后为各情景。"]),
    Col::new("changes", 40.0, ["Changes", "改动", "The scenario's changes, in the --set syntax, from the Scenarios sheet.", "情景表中该情景的改动（--set 语法）。"]),
    Col::new("total", 14.0, ["Total", "合计", "Monthly total before the safety margin. The main plan's is live (the TCO tab); a scenario's is as planned.", "未含安全边际的月度合计。主方案为实时公式（总拥有成本页）；情景为规划时数值。"]),
    Col::new("total_with_margin", 16.0, ["Total with safety margin", "含安全边际总计", "The monthly budget.", "月度预算。"]),
    Col::new("budget_change", 14.0, ["Δ budget", "预算差额", "This plan's budget less the main plan's as calculated (the row stamped fixed at calculation).", "本方案预算减计算时的主方案预算（标注计算时固定的一行）。"]),
    Col::new("budget_change_pct", 10.0, ["Δ %", "差额比例", "The difference as a share of the main plan's budget.", "差额占主方案预算的比例。"]),
    Col::new("fleet_saving", 14.0, ["Fleet saving", "卡群节省", "What the fleet saves a month (jobs on idle service cards, services sharing a card; 0 when nothing shares or the Assumption fleet is no), as planned.", "卡群每月节省的金额（任务错峰使用服务卡的闲置时段、服务共用卡；无共用或参数 fleet 为否时为 0），为规划时数值。"]),
    Col::new("budget_with_fleet", 16.0, ["Budget with the fleet", "卡群方案预算", "The total with safety margin less the fleet's saving, as planned.", "含安全边际总计减去卡群节省，为规划时数值。"]),
    Col::new("fleet_budget_change", 14.0, ["Δ with the fleet", "卡群预算差额", "This plan's budget with the fleet less the main plan's as calculated: what a scenario such as fleet=no changes.", "本方案卡群方案预算减计算时的主方案卡群方案预算：如 fleet=no 等情景的影响。"]),
    Col::new("budget_ceiling", 14.0, ["Budget ceiling", "预算上限", "The Assumption budget_monthly of the plan; blank: none.", "该方案的参数 budget_monthly；空白表示未设。"]),
    Col::new("cuts", 30.0, ["Cuts", "降级方案", "Over its ceiling, the plan's cuts (the JSON's scenarios list each, as the main plan's Plan tab does its own): how many, and whether they bring it within.", "超出预算上限时该方案的降级方案（JSON 的 scenarios 逐条列出，主方案的方案页列出其自身的）：条数，以及是否能降到上限以内。"]),
];
const PLAN: u16 = at(&COLUMNS, "plan");
const CHANGES: u16 = at(&COLUMNS, "changes");
const TOTAL: u16 = at(&COLUMNS, "total");
const TOTAL_WITH_MARGIN: u16 = at(&COLUMNS, "total_with_margin");
const BUDGET_CHANGE: u16 = at(&COLUMNS, "budget_change");
const BUDGET_CHANGE_PCT: u16 = at(&COLUMNS, "budget_change_pct");
const FLEET_SAVING: u16 = at(&COLUMNS, "fleet_saving");
const BUDGET_WITH_FLEET: u16 = at(&COLUMNS, "budget_with_fleet");
const FLEET_BUDGET_CHANGE: u16 = at(&COLUMNS, "fleet_budget_change");
const BUDGET_CEILING: u16 = at(&COLUMNS, "budget_ceiling");
const CUTS: u16 = at(&COLUMNS, "cuts");

/// The per-workload block below the totals: its title and the workloads in the plan column,
/// then each plan's columns from the next one.
const WORKLOAD: u16 = PLAN;
const FIRST_OUTCOME: u16 = WORKLOAD + 1;

/// Each plan's columns in the per-workload block, in order: key, width and `[English, Chinese,
/// "", ""]`; the header is the plan's name before the label, without a note. The main plan has
/// no `tco_change`.
const OUTCOME: [Col; 5] = [
    Col::new("gpu", 14.0, ["GPU", "GPU", "", ""]),
    Col::new("gpus_total", 14.0, ["GPUs", "GPU 数", "", ""]),
    Col::new("mode", 14.0, ["mode", "计费方式", "", ""]),
    Col::new("tco", 14.0, ["TCO", "总拥有成本", "", ""]),
    Col::new("tco_change", 14.0, ["Δ TCO", "Δ 总拥有成本", "", ""]),
];
/// Offsets from a plan's first column in the per-workload block.
const GPU: u16 = at(&OUTCOME, "gpu");
const GPUS_TOTAL: u16 = at(&OUTCOME, "gpus_total");
const MODE: u16 = at(&OUTCOME, "mode");
const TCO: u16 = at(&OUTCOME, "tco");
const TCO_CHANGE: u16 = at(&OUTCOME, "tco_change");
// The main plan's columns are the others' less the last, the change.
const _: () = assert!(TCO_CHANGE as usize == OUTCOME.len() - 1);

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
        (_, None) => String::new(),
        (None, Some(_)) => cx.t("within the ceiling", "在上限以内").to_string(),
        (Some(c), Some(_)) => {
            let n = c.cuts.len();
            match (cx.lang, c.met) {
                (crate::lang::Lang::Zh, true) => format!("{n} 条降级方案，执行后在上限以内"),
                (crate::lang::Lang::Zh, false) => format!("{n} 条降级方案，执行后仍超出上限"),
                (_, met) => format!(
                    "{n} {}, {}",
                    if n == 1 { "cut" } else { "cuts" },
                    if met {
                        "within the ceiling after them"
                    } else {
                        "still over the ceiling after them"
                    }
                ),
            }
        }
    };
    (ceiling, said)
}

/// A row's fleet, ceiling and cuts cells (as planned: the fleet and the cuts are not live).
fn write_fleet_and_cuts(ws: &mut Worksheet, cx: &Ctx, r: u32, p: &Plan) -> Result<(), XlsxError> {
    let s = &cx.s;
    let (saving, budget) = with_fleet(p);
    number(ws, r, FLEET_SAVING, saving, &s.money)?;
    number(ws, r, BUDGET_WITH_FLEET, budget, &s.money_bold)?;
    let (ceiling, cuts) = ceiling_and_cuts(cx, p);
    if let Some(c) = ceiling {
        number(ws, r, BUDGET_CEILING, c, &s.money)?;
    }
    text(ws, r, CUTS, &cuts, &s.wrap)
}

/// Writes the Scenarios tab: the totals of the main plan and of each scenario, then the
/// workloads side by side below them.
pub fn write(ws: &mut Worksheet, cx: &Ctx, layout: &Layout) -> Result<Extent, XlsxError> {
    let plan = cx.plan;
    let main_name = cx
        .calc
        .scenario
        .clone()
        .unwrap_or_else(|| cx.t("base", "基准").to_string());
    cx.header(ws, 0, &heads_of(&COLUMNS))?;
    write_main_totals(ws, cx, layout, &main_name)?;
    write_scenario_totals(ws, cx)?;
    let plans: Vec<(&str, &Plan)> = std::iter::once((main_name.as_str(), plan))
        .chain(
            cx.calc
                .scenarios
                .iter()
                .map(|sc| (sc.name.as_str(), &sc.plan)),
        )
        .collect();
    let top = cx.calc.scenarios.len() as u32 + 3;
    let (head, block_widths) = write_per_workload(ws, cx, &plans, top)?;
    let w = column_widths(&block_widths);
    widths(ws, &w)?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(
        head + plan.workloads.len() as u32,
        w.len() as u16 - 1,
    ))
}

/// The width of every column: the totals' where they reach, then the per-workload block's
/// (`block`, from column 0).
fn column_widths(block: &[f64]) -> Vec<f64> {
    let mut w = widths_of(&COLUMNS);
    // Where both tables use a column, the wider: a GPU's name in the per-workload block is
    // printed whole under a narrow column of the totals ("RTX 4090 @ e" before).
    for (a, b) in w.iter_mut().zip(block) {
        *a = a.max(*b);
    }
    w.extend(block.iter().skip(w.len()));
    w
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
    text(ws, 1, PLAN, main_name, &s.bold)?;
    let changes = main_changes(cx.calc);
    text(ws, 1, CHANGES, &changes, &s.wrap)?;
    fit_row_height(ws, 1, &[(&changes, COLUMNS[CHANGES as usize].width)])?;
    live_cell(
        ws,
        1,
        TOTAL,
        Ok(layout.amount(tco, layout.total)),
        t,
        &s.money,
        cx,
    )?;
    live_cell(
        ws,
        1,
        TOTAL_WITH_MARGIN,
        Ok(layout.amount(tco, layout.with_margin)),
        m,
        &s.money_bold,
        cx,
    )?;
    write_fleet_and_cuts(ws, cx, 1, cx.plan)
}

/// The row under the scenarios that holds the main plan's totals as calculated.
fn fixed_base_row(cx: &Ctx) -> u32 {
    cx.calc.scenarios.len() as u32 + 2
}

/// One row per scenario from row 2: its name, changes and totals as planned, and its budget's
/// difference from the main plan's as calculated, as formulas over the tab; then that fixed
/// base, stamped "fixed at calculation". The differences were taken from the main plan's live
/// row, so a price edit moved the base and not the scenarios: "price +20%" read −3.6% (#34
/// item 5).
fn write_scenario_totals(ws: &mut Worksheet, cx: &Ctx) -> Result<(), XlsxError> {
    let s = &cx.s;
    let (t, m) = totals(cx.plan);
    let fixed = fixed_base_row(cx);
    let budget = absolute(cx.sheet(Tab::Scenarios), fixed, TOTAL_WITH_MARGIN);
    let fleet_budget = absolute(cx.sheet(Tab::Scenarios), fixed, BUDGET_WITH_FLEET);
    let main_fleet_budget = with_fleet(cx.plan).1;
    for (k, sc) in cx.calc.scenarios.iter().enumerate() {
        let r = 2 + k as u32;
        let (st, sm) = totals(&sc.plan);
        text(ws, r, PLAN, &sc.name, &s.bold)?;
        let changes = sc.changes.join("; ");
        text(ws, r, CHANGES, &changes, &s.wrap)?;
        fit_row_height(ws, r, &[(&changes, COLUMNS[CHANGES as usize].width)])?;
        number(ws, r, TOTAL, st, &s.money)?;
        number(ws, r, TOTAL_WITH_MARGIN, sm, &s.money_bold)?;
        let here = cell(None, r, TOTAL_WITH_MARGIN);
        live_cell(
            ws,
            r,
            BUDGET_CHANGE,
            Ok(format!("{here}-{budget}")),
            sm - m,
            &s.money,
            cx,
        )?;
        live_cell(
            ws,
            r,
            BUDGET_CHANGE_PCT,
            Ok(format!("IF({budget}=0,0,({here}-{budget})/{budget})")),
            if m != 0.0 { (sm - m) / m } else { 0.0 },
            &s.pct,
            cx,
        )?;
        write_fleet_and_cuts(ws, cx, r, &sc.plan)?;
        let here = cell(None, r, BUDGET_WITH_FLEET);
        live_cell(
            ws,
            r,
            FLEET_BUDGET_CHANGE,
            Ok(format!("{here}-{fleet_budget}")),
            with_fleet(&sc.plan).1 - main_fleet_budget,
            &s.money,
            cx,
        )?;
    }
    text(
        ws,
        fixed,
        PLAN,
        cx.t("Main plan as calculated", "计算时的主方案"),
        &s.muted,
    )?;
    let note = cx.t(
        "Fixed at calculation: each scenario is a re-plan and does not follow edits in this workbook; its Δ is against this row. Rerun gpuplan after an edit.",
        "计算时固定：每个情景均为重新规划，不随本工作簿中的修改变化；差额相对本行计算。修改后请重新运行 gpuplan。",
    );
    text(ws, fixed, CHANGES, note, &s.wrap)?;
    fit_row_height(ws, fixed, &[(note, COLUMNS[CHANGES as usize].width)])?;
    number(ws, fixed, TOTAL, t, &s.money)?;
    number(ws, fixed, TOTAL_WITH_MARGIN, m, &s.money)?;
    let (saving, with) = with_fleet(cx.plan);
    number(ws, fixed, FLEET_SAVING, saving, &s.money)?;
    number(ws, fixed, BUDGET_WITH_FLEET, with, &s.money)?;
    Ok(())
}

/// From row `top`: a title, a header row, then per workload the GPU, GPUs, mode and TCO of each
/// plan (and the TCO's change from the main plan's after the first). Returns the header's row
/// and the block's column widths from column 0.
fn write_per_workload(
    ws: &mut Worksheet,
    cx: &Ctx,
    plans: &[(&str, &Plan)],
    top: u32,
) -> Result<(u32, Vec<f64>), XlsxError> {
    let s = &cx.s;
    text(
        ws,
        top,
        WORKLOAD,
        cx.t(
            "Per workload: GPU, GPUs, billing mode and monthly TCO of each plan (scenarios as planned)",
            "各负载：各方案的 GPU、GPU 数、计费方式与月度总成本（情景为规划时数值）",
        ),
        &s.subtitle,
    )?;
    let head = top + 1;
    let (starts, block_widths) = write_per_workload_header(ws, cx, plans, head)?;
    for (i, w) in cx.plan.input.workloads.iter().enumerate() {
        let r = head + 1 + i as u32;
        text(ws, r, WORKLOAD, &w.name, &s.text)?;
        let main_tco = cx.plan.chosen(i).map(|(_, ch)| ch.tco);
        for (k, (_, p)) in plans.iter().enumerate() {
            // The main plan has no change column.
            let base = if k > 0 { main_tco } else { None };
            write_outcome(ws, cx, r, starts[k], p, i, base)?;
        }
    }
    Ok((head, block_widths))
}

/// The per-workload header at row `head`: the workload, then per plan GPU, GPUs, mode, TCO
/// (and Δ TCO after the first). Returns each plan's first column and the widths of the block's
/// columns from column 0, those up to the workload's from the totals' columns above them.
fn write_per_workload_header(
    ws: &mut Worksheet,
    cx: &Ctx,
    plans: &[(&str, &Plan)],
    head: u32,
) -> Result<(Vec<u16>, Vec<f64>), XlsxError> {
    let s = &cx.s;
    text(ws, head, WORKLOAD, cx.t("Workload", "负载"), &s.header)?;
    let mut block_widths = widths_of(&COLUMNS)[..FIRST_OUTCOME as usize].to_vec();
    let mut labels: Vec<String> = vec![cx.t("Workload", "负载").to_string()];
    let mut starts = Vec::new();
    for (k, (name, _)) in plans.iter().enumerate() {
        let first = block_widths.len() as u16;
        starts.push(first);
        for (j, col) in OUTCOME.iter().enumerate() {
            // The main plan has no change column.
            if k == 0 && j as u16 == TCO_CHANGE {
                continue;
            }
            let label = format!("{name}: {}", cx.t(col.head[0], col.head[1]));
            text(ws, head, first + j as u16, &label, &s.header)?;
            labels.push(label);
            // The GPU column as wide as its longest label ("A100-80G @ example" printed
            // "A100-80G @ exam", #34 item 2).
            block_widths.push(if j as u16 == GPU {
                gpu_width(plans)
            } else {
                col.width
            });
        }
    }
    // The header row as tall as its longest label wrapped in its column (it printed on one
    // squeezed line). The labels' columns: the workload's, then the plans' in order.
    let label_widths: Vec<f64> = std::iter::once(block_widths[WORKLOAD as usize])
        .chain(block_widths[FIRST_OUTCOME as usize..].iter().copied())
        .collect();
    let label_refs: Vec<&str> = labels.iter().map(String::as_str).collect();
    crate::write::style::fit_header_height(ws, head, &label_refs, &label_widths)?;
    Ok((starts, block_widths))
}

/// The width of the per-workload GPU columns: the longest chosen offer's label of any plan.
fn gpu_width(plans: &[(&str, &Plan)]) -> f64 {
    let labels: Vec<String> = plans
        .iter()
        .flat_map(|(_, p)| {
            (0..p.workloads.len())
                .filter_map(|w| p.chosen(w))
                .map(|(c, _)| p.input.gpus[c.offer].label())
        })
        .collect();
    crate::write::style::fit_width(
        labels.iter().map(String::as_str),
        OUTCOME[GPU as usize].width,
        40.0,
    )
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
            text(ws, r, at + GPU, &p.input.gpus[cand.offer].label(), &s.text)?;
            number(
                ws,
                r,
                at + GPUS_TOTAL,
                p.need(cand, crate::plan::Need::GPUS_TOTAL),
                &s.integer,
            )?;
            text(ws, r, at + MODE, ch.mode.label(cx.lang), &s.text)?;
            number(ws, r, at + TCO, ch.tco, &s.money)?;
            if let Some(base) = main_tco {
                number(ws, r, at + TCO_CHANGE, ch.tco - base, &s.money)?;
            }
        }
        None => text(
            ws,
            r,
            at + GPU,
            crate::layout::UNPLANNED.get(cx.lang),
            &s.bad,
        )?,
    }
    Ok(())
}

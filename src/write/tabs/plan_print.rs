//! The Plan tab's printed block (#34 item 2): its 42 columns (about 550 characters) printed at
//! a quarter size one page wide, or half size two pages wide, so the print shows instead, below
//! the table, each workload's choice and monthly cost in twelve columns one page wide (about
//! 180 characters: 80% size), the figures live references to the table's cells, and under each
//! its advice and notes across the row.

use super::live::cell;
use super::plan_tab::{self, live_cell, live_text};
use super::{Col, Ctx};
use crate::model::Workload;
use crate::plan::{Candidate, Chosen, Need};
use crate::write::style::{fit_row_height, text};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The block's columns, from column A, each in a Plan column wide enough for it, and the Plan
/// column it shows (`key` names it).
const COLUMNS: [Col; 12] = [
    Col::new(
        "name",
        0.0,
        [
            crate::labels::layout::WORKLOAD.en,
            crate::labels::layout::WORKLOAD.zh,
            "",
            "",
        ],
    ),
    Col::new(
        "gpus_total",
        0.0,
        [
            crate::labels::layout::GPUS.en,
            crate::labels::layout::GPUS.zh,
            "",
            "",
        ],
    ),
    Col::new(
        "gpu",
        0.0,
        [
            crate::labels::layout::GPU.en,
            crate::labels::layout::GPU.zh,
            "",
            "",
        ],
    ),
    Col::new(
        "mode",
        0.0,
        [
            crate::labels::layout::BILLING_MODE.en,
            crate::labels::layout::BILLING_MODE.zh,
            "",
            "",
        ],
    ),
    Col::new("model", 0.0, ["Model", "模型", "", ""]),
    Col::new("run_hours", 0.0, ["Hours per month", "每月小时", "", ""]),
    Col::new("utilization", 0.0, ["Utilization", "利用率", "", ""]),
    Col::new("gpu_cost", 0.0, ["GPU cost", "GPU 费用", "", ""]),
    Col::new("storage_cost", 0.0, ["Storage cost", "存储费用", "", ""]),
    Col::new("egress_cost", 0.0, ["Egress cost", "流量费用", "", ""]),
    Col::new(
        "tco",
        0.0,
        [
            crate::labels::layout::MONTHLY_TCO.en,
            crate::labels::layout::MONTHLY_TCO.zh,
            "",
            "",
        ],
    ),
    Col::new(
        "cheapest_now",
        0.0,
        ["Cheapest mode now", "当前最便宜方式", "", ""],
    ),
];

/// The last column the block (and the Plan tab's print) reaches.
pub const LAST_COL: u16 = COLUMNS.len() as u16 - 1;

/// The Plan column a block column shows.
fn source(key: &str) -> u16 {
    plan_tab::position(key).unwrap_or(plan_tab::NAME)
}

/// Writes the block from `row` down (its title, header, and two rows a workload: the figures,
/// then the advice and notes); returns the last row written.
pub fn section(ws: &mut Worksheet, cx: &Ctx, row: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let widths = write_heads(ws, cx, row)?;
    let mut r = row + 1;
    for (i, w) in plan.input.workloads.iter().enumerate() {
        r += 1;
        text(ws, r, 0, &w.name, &s.text)?;
        let advice = match cx.chosen(i) {
            None => {
                text(
                    ws,
                    r,
                    2,
                    crate::labels::layout::UNPLANNED.get(cx.lang),
                    &s.bad,
                )?;
                plan.workloads[i]
                    .unplanned
                    .as_ref()
                    .map_or(String::new(), |u| u.get(cx.lang).to_string())
            }
            Some((c, ch)) => figures_row(ws, cx, r, (i, w), c, ch)?,
        };
        r = write_below(ws, cx, r, advice, w, &widths)?;
    }
    Ok(r)
}

/// The block's title at `row` and its header below it, fitted to the Plan columns' widths.
/// Returns those widths.
fn write_heads(ws: &mut Worksheet, cx: &Ctx, row: u32) -> Result<Vec<f64>, XlsxError> {
    text(
        ws,
        row,
        0,
        cx.t(
            "For print: each workload's choice and monthly cost (live, from the table above)",
            "打印用：各负载的选择与月度费用（实时引用上表）",
        ),
        &cx.s.subtitle,
    )?;
    cx.plain_header(ws, row + 1, &COLUMNS)?;
    let labels: Vec<&str> = COLUMNS.iter().map(|c| cx.t(c.head[0], c.head[1])).collect();
    let widths: Vec<f64> = (0..=LAST_COL).map(width).collect();
    crate::write::style::fit_header_height(ws, row + 1, &labels, &widths)?;
    Ok(widths)
}

/// A planned workload's figures at row `r` (workload `i`, `w`), each live over its Plan row:
/// GPUs, offer, mode, model, hours, utilization, the costs and the cheapest mode now. Returns
/// its advice.
fn figures_row(
    ws: &mut Worksheet,
    cx: &Ctx,
    r: u32,
    (i, w): (usize, &Workload),
    c: &Candidate,
    ch: &Chosen,
) -> Result<String, XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let at = |key: &str| cell(None, plan_tab::row(i), source(key));
    let n = |ws: &mut Worksheet, col: u16, key: &str, v: f64, fmt| {
        live_cell(ws, r, col, Ok(at(key)), v, fmt, cx)
    };
    n(
        ws,
        1,
        "gpus_total",
        plan.need(c, Need::GPUS_TOTAL),
        &s.integer,
    )?;
    text(ws, r, 2, &plan.input.gpus[c.offer].label(), &s.text)?;
    text(ws, r, 3, ch.mode.label(cx.lang), &s.text)?;
    let model = w.model.as_ref().map_or("", |m| m.name.as_str());
    text(ws, r, 4, model, &s.text)?;
    n(
        ws,
        5,
        "run_hours",
        plan.need(c, Need::RUN_HOURS),
        &s.live_number,
    )?;
    let utilization = plan.value(c, "utilization").unwrap_or(0.0);
    n(ws, 6, "utilization", utilization, &s.pct)?;
    n(ws, 7, "gpu_cost", ch.gpu_cost, &s.money_bold)?;
    n(ws, 8, "storage_cost", ch.storage_cost, &s.money)?;
    n(ws, 9, "egress_cost", ch.egress_cost, &s.money)?;
    n(ws, 10, "tco", ch.tco, &s.money_bold)?;
    let now = plan_tab::cheapest_now(c, cx.lang);
    live_text(ws, r, LAST_COL, &at("cheapest_now"), now, &s.text)?;
    Ok(ch.advice.text(cx.lang))
}

/// The row under a workload's figures (after `r`), when it has advice or notes: both across
/// the row, its height fitted. Returns the last row written.
fn write_below(
    ws: &mut Worksheet,
    cx: &Ctx,
    mut r: u32,
    advice: String,
    w: &Workload,
    widths: &[f64],
) -> Result<u32, XlsxError> {
    let below = match (advice.is_empty(), w.notes.is_empty()) {
        (_, true) => advice,
        (true, false) => w.notes.clone(),
        (false, false) => format!("{advice}\n{}", w.notes),
    };
    if !below.is_empty() {
        r += 1;
        let below = crate::write::style::clip(&below);
        ws.merge_range(r, 1, r, LAST_COL, &below, &cx.s.wrap)?;
        let across: f64 = widths[1..].iter().sum();
        fit_row_height(ws, r, &[(&below, across)])?;
    }
    Ok(r)
}

/// The width of Plan column `col`: the block's column in its place is printed at it.
fn width(col: u16) -> f64 {
    plan_tab::COLUMNS[col as usize].width
}

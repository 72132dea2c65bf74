//! Billing: per workload the monthly GPU cost of every mode on the chosen offer, the cheapest
//! highlighted; blank where the mode is not offered or not allowed.

use super::live::{cell, cheapest_label};
use super::plan_tab::{self, live_cell, live_text};
use super::{Ctx, Extent};
use crate::lang::Lang;
use crate::plan::Mode;
use crate::write::style::{fit_header_height, number, text, widths};
use rust_xlsxwriter::{ConditionalFormatFormula, Worksheet, XlsxError};

/// The columns of the modes' costs, in `Mode::ALL` order.
const FIRST_MODE: u16 = 2;
const LAST_MODE: u16 = FIRST_MODE + Mode::ALL.len() as u16 - 1;

/// What each mode's cost means, in `Mode::ALL` order: `(English, Chinese)`.
const MODE_NOTES: [(&str, &str); 5] = [
    ("Each run's hours plus the cold start, rounded up to the billing granularity, at least the minimum rental.", "每次运行时长加冷启动，按计费粒度向上取整，且不少于最小起租时长。"),
    ("The monthly price per GPU, whatever the hours.", "每卡包月价，与使用时长无关。"),
    ("Spot price × hours × (1 + spot_rework); only for workloads that tolerate interruptions.", "竞价价 × 小时 × (1 + 重跑比例)；仅限可中断任务。"),
    ("The reserved monthly price per GPU.", "每卡预留月价。"),
    ("Monthly instances for the off-peak concurrency, on-demand ones during peak hours.", "非高峰并发用包月实例，高峰时段用按量实例。"),
];

/// The columns after the modes' costs: `[English, Chinese, note in English, note in Chinese]`.
const AFTER_MODES: [[&str; 4]; 5] = [
    [
        "Chosen mode",
        "选用方式",
        "The cheapest of the modes (highlighted).",
        "最便宜的方式（高亮）。",
    ],
    [
        "Chosen cost",
        "选用费用",
        "Monthly GPU cost of the chosen mode.",
        "选用方式的月度 GPU 费用。",
    ],
    [
        "Next best (as planned)",
        "次优方式（规划时）",
        "The cheapest option with another mode (on any offer), as planned: it does not follow edits; the Cheapest now column does.",
        "其他计费方式中最便宜的方案（任意报价），为规划时结果，不随修改变化；“当前最便宜”列会随之变化。",
    ],
    [
        "Next best costs × (as planned)",
        "次优贵出倍数（规划时）",
        "How many times the chosen TCO the next best costs, as planned.",
        "次优方案成本是选用方案的倍数（规划时）。",
    ],
    [
        "Cheapest now",
        "当前最便宜",
        "Live: the mode with the lowest cost in this row after any edit of prices or assumptions. When it differs from the chosen mode, rerun gpuplan to re-plan.",
        "实时公式：修改价格或参数后本行费用最低的计费方式；与选用方式不同时，请重新运行 gpuplan。",
    ],
];

/// The columns' widths, one per column of the header.
const COLUMN_WIDTHS: [f64; 12] = [
    22.0, 24.0, 15.0, 15.0, 15.0, 15.0, 20.0, 15.0, 15.0, 15.0, 15.0, 16.0,
];

/// Writes the Billing tab: the header, one row per workload with each mode's cost live over the
/// Plan tab, and the cheapest mode of each row in green.
pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    let cols = columns();
    cx.header(ws, 0, &cols)?;
    let n = cx.plan.workloads.len() as u32;
    for i in 0..cx.plan.input.workloads.len() {
        write_row(ws, cx, i)?;
    }
    if n > 0 {
        mark_cheapest(ws, cx, n)?;
    }
    widths(ws, &COLUMN_WIDTHS)?;
    let labels: Vec<&str> = cols.iter().map(|c| cx.t(c[0], c[1])).collect();
    fit_header_height(ws, 0, &labels, &COLUMN_WIDTHS)?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(n, COLUMN_WIDTHS.len() as u16 - 1))
}

/// The header's columns: the workload, the GPU, each mode with its note, then the chosen mode
/// and what follows it.
fn columns() -> Vec<[&'static str; 4]> {
    let mut cols = vec![
        ["Workload", "负载", "The workload's name.", "负载名称。"],
        [
            "GPU",
            "GPU",
            "The chosen offer; every mode is priced on it.",
            "选中的报价；各计费方式均按此报价计算。",
        ],
    ];
    for (m, (ne, nz)) in Mode::ALL.iter().zip(MODE_NOTES) {
        cols.push([m.label(Lang::En), m.label(Lang::Zh), ne, nz]);
    }
    cols.extend(AFTER_MODES);
    cols
}

/// Workload `i`'s row: its chosen offer, each mode's cost (the Plan tab's cell), the chosen mode
/// and cost, the next best as planned and the live cheapest mode; "unplanned" when it has none.
fn write_row(ws: &mut Worksheet, cx: &Ctx, i: usize) -> Result<(), XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let r = i as u32 + 1;
    text(ws, r, 0, &plan.input.workloads[i].name, &s.text)?;
    let Some((c, ch)) = cx.chosen(i) else {
        text(ws, r, 1, cx.t("unplanned", "未规划"), &s.bad)?;
        return Ok(());
    };
    text(ws, r, 1, &plan.input.gpus[c.offer].label(), &s.text)?;
    // Live: each mode's cost is the Plan tab's formula cell for this workload.
    for (k, m) in Mode::ALL.iter().enumerate() {
        if let Some(v) = c.cost(*m) {
            let at = plan_tab::cell_of(cx, i, plan_tab::cost_column(*m));
            live_cell(ws, r, FIRST_MODE + k as u16, Ok(at), v, &s.money, cx)?;
        }
    }
    text(ws, r, 7, ch.mode.label(cx.lang), &s.bold)?;
    live_cell(
        ws,
        r,
        8,
        Ok(plan_tab::cell_of(cx, i, plan_tab::GPU_COST)),
        ch.gpu_cost,
        &s.money_bold,
        cx,
    )?;
    if let Some((m, ratio)) = ch.advice.next {
        text(ws, r, 9, m.label(cx.lang), &s.text)?;
        number(ws, r, 10, ratio, s.number_for(ratio))?;
    }
    let labels: Vec<&str> = Mode::ALL.iter().map(|m| m.label(cx.lang)).collect();
    live_text(
        ws,
        r,
        11,
        &cheapest_label(
            &format!("{}:{}", cell(None, r, FIRST_MODE), cell(None, r, LAST_MODE)),
            &labels,
        ),
        plan_tab::cheapest_now(c, cx.lang),
        &s.bold,
    )
}

/// The cheapest priced mode of each of the `n` workloads' rows, in green.
fn mark_cheapest(ws: &mut Worksheet, cx: &Ctx, n: u32) -> Result<(), XlsxError> {
    let cheapest = ConditionalFormatFormula::new()
        .set_rule(
            format!(
                "=AND(ISNUMBER({first}),{first}=MIN(${first}:${last}))",
                first = cell(None, 1, FIRST_MODE),
                last = cell(None, 1, LAST_MODE)
            )
            .as_str(),
        )
        .set_format(&cx.s.good);
    ws.add_conditional_format(1, FIRST_MODE, n, LAST_MODE, &cheapest)?;
    Ok(())
}

//! Billing: per workload the monthly GPU cost of every mode on the chosen offer, the cheapest
//! highlighted; blank where the mode is not offered or not allowed.

use super::live::{cell, cheapest_label};
use super::plan_tab::{self, live_cell, live_text};
use super::{at, heads_of, widths_of, workload_col, Col, Ctx, Extent};
use crate::plan::Mode;
use crate::write::style::{fit_header_height, number, text, widths};
use rust_xlsxwriter::{ConditionalFormatFormula, Worksheet, XlsxError};

/// The columns before the modes' costs.
const LEAD: [Col; 2] = [
    workload_col(22.0),
    Col::new(
        "gpu",
        24.0,
        [
            "GPU",
            "GPU",
            "The chosen offer; every mode is priced on it.",
            "选中的报价；各计费方式均按此报价计算。",
        ],
    ),
];
pub(super) const WORKLOAD: u16 = at(&LEAD, "workload");
const GPU: u16 = at(&LEAD, "gpu");

/// A mode's cost column is as wide as this, base plus burst's label ("base + burst") wider.
fn mode_width(m: Mode) -> f64 {
    if m.spec().prices.len() > 1 {
        20.0
    } else {
        15.0
    }
}

/// The columns of the modes' costs, in `Mode::ALL` order.
pub(super) const FIRST_MODE: u16 = LEAD.len() as u16;
const LAST_MODE: u16 = FIRST_MODE + Mode::ALL.len() as u16 - 1;

/// The columns after the modes' costs.
const AFTER_MODES: [Col; 8] = [
    Col::new(
        "chosen_mode",
        15.0,
        [
            "Chosen mode",
            "选用方式",
            "The cheapest of the modes (highlighted).",
            "最便宜的方式（高亮）。",
        ],
    ),
    Col::new(
        "chosen_cost",
        15.0,
        [
            "Chosen cost",
            "选用费用",
            "Monthly GPU cost of the chosen mode.",
            "选用方式的月度 GPU 费用。",
        ],
    ),
    Col::new(
        "next_best",
        15.0,
        [
            "Next best (as planned)",
            "次优方式（规划时）",
            "The cheapest option with another mode (on any offer), as planned: it does not follow edits; the Cheapest now column does.",
            "其他计费方式中最便宜的方案（任意报价），为规划时结果，不随修改变化；“当前最便宜”列会随之变化。",
        ],
    ),
    Col::new(
        "next_ratio",
        15.0,
        [
            "Next best costs × (as planned)",
            "次优贵出倍数（规划时）",
            "How many times the chosen TCO the next best costs, as planned.",
            "次优方案成本是选用方案的倍数（规划时）。",
        ],
    ),
    Col::new(
        "cheapest_now",
        16.0,
        [
            "Cheapest now",
            "当前最便宜",
            "Live: the mode with the lowest cost in this row after any edit of prices or assumptions. When it differs from the chosen mode, rerun gpuplan to re-plan.",
            "实时公式：修改价格或参数后本行费用最低的计费方式；与选用方式不同时，请重新运行 gpuplan。",
        ],
    ),
    Col::new(
        "spot_rework_share",
        15.0,
        [
            "Spot re-done share",
            "竞价重做比例",
            "Of the work's hours, the share spot re-does on this offer (the formula spot_rework_share): with the offer's interruptions a day (λ) and checkpoints every c minutes, λ × (c/2 + cold start); without checkpoints, a run of T hours takes (1/λ + cold start)(e^(λT) − 1) hours; without a rate, the Assumption spot_rework. Blank: the workload does not tolerate interruptions or the offer has no spot price.",
            "本报价上竞价重做的工时占工作工时的比例（公式 spot_rework_share）：给出每日中断次数（λ）且每 c 分钟存断点时为 λ ×（c/2 + 冷启动）；不存断点时 T 小时的运行耗时 (1/λ + 冷启动)(e^(λT) − 1) 小时；未给出中断频率时为参数 spot_rework。空白表示负载不能容忍中断或报价没有竞价价格。",
        ],
    ),
    Col::new(
        "owned_breakeven_on_demand",
        15.0,
        [
            "Owning beats on demand above",
            "自建优于按量的利用率",
            "The utilization above which owning a card of this offer costs less than renting it on demand (the formula owned_breakeven_on_demand): its month at no work (depreciation, hosting, idle power) over the on-demand price less the power an hour of work adds. Blank: the offer has no purchase price.",
            "利用率高于此值时，自购该报价的卡比按量租用便宜（公式 owned_breakeven_on_demand）：不工作时一个月的费用（折旧、托管、待机电费）除以按量价格减去每工作一小时增加的电费。空白表示报价没有购置价。",
        ],
    ),
    Col::new(
        "owned_breakeven_monthly",
        15.0,
        [
            "Owning beats monthly below",
            "自建优于包月的利用率",
            "The utilization below which owning a card costs less than renting it by the month (the formula owned_breakeven_monthly): the monthly price is paid whatever the use, an owned card's power grows with it. Blank: the offer has no purchase or monthly price.",
            "利用率低于此值时，自购卡比包月便宜（公式 owned_breakeven_monthly）：包月价与用量无关，自购卡的电费随用量增长。空白表示报价没有购置价或包月价。",
        ],
    ),
];
const CHOSEN_MODE: u16 = LAST_MODE + 1 + at(&AFTER_MODES, "chosen_mode");
const CHOSEN_COST: u16 = LAST_MODE + 1 + at(&AFTER_MODES, "chosen_cost");
const NEXT_BEST: u16 = LAST_MODE + 1 + at(&AFTER_MODES, "next_best");
const NEXT_RATIO: u16 = LAST_MODE + 1 + at(&AFTER_MODES, "next_ratio");
const CHEAPEST_NOW: u16 = LAST_MODE + 1 + at(&AFTER_MODES, "cheapest_now");
const SPOT_REWORK: u16 = LAST_MODE + 1 + at(&AFTER_MODES, "spot_rework_share");
const OWNED_VS_ON_DEMAND: u16 = LAST_MODE + 1 + at(&AFTER_MODES, "owned_breakeven_on_demand");
const OWNED_VS_MONTHLY: u16 = LAST_MODE + 1 + at(&AFTER_MODES, "owned_breakeven_monthly");

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
    let column_widths = column_widths();
    widths(ws, &column_widths)?;
    let labels: Vec<&str> = cols.iter().map(|c| cx.t(c[0], c[1])).collect();
    fit_header_height(ws, 0, &labels, &column_widths)?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(n, column_widths.len() as u16 - 1))
}

/// The header's columns: the workload, the GPU, each mode with its note, then the chosen mode
/// and what follows it.
fn columns() -> Vec<[&'static str; 4]> {
    let mut cols = heads_of(&LEAD);
    for m in Mode::ALL {
        let (label, note) = (m.spec().label, m.spec().note);
        cols.push([label.en, label.zh, note.en, note.zh]);
    }
    cols.extend(heads_of(&AFTER_MODES));
    cols
}

/// The width of every column, in the header's order.
fn column_widths() -> Vec<f64> {
    let mut w = widths_of(&LEAD);
    w.extend(Mode::ALL.map(mode_width));
    w.extend(widths_of(&AFTER_MODES));
    w
}

/// Workload `i`'s row: its chosen offer, each mode's cost (the Plan tab's cell), the chosen mode
/// and cost, the next best as planned and the live cheapest mode; "unplanned" when it has none.
fn write_row(ws: &mut Worksheet, cx: &Ctx, i: usize) -> Result<(), XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let r = i as u32 + 1;
    text(ws, r, WORKLOAD, &plan.input.workloads[i].name, &s.text)?;
    let Some((c, ch)) = cx.chosen(i) else {
        text(
            ws,
            r,
            GPU,
            crate::labels::layout::UNPLANNED.get(cx.lang),
            &s.bad,
        )?;
        return Ok(());
    };
    text(ws, r, GPU, &plan.input.gpus[c.offer].label(), &s.text)?;
    // Live: each mode's cost is the Plan tab's formula cell for this workload.
    for (k, m) in Mode::ALL.iter().enumerate() {
        if let Some(v) = c.cost(*m) {
            let at = plan_tab::cell_of(cx, i, plan_tab::cost_column(*m));
            live_cell(ws, r, FIRST_MODE + k as u16, Ok(at), v, &s.money, cx)?;
        }
    }
    text(ws, r, CHOSEN_MODE, ch.mode.label(cx.lang), &s.bold)?;
    live_cell(
        ws,
        r,
        CHOSEN_COST,
        Ok(plan_tab::cell_of(cx, i, plan_tab::GPU_COST)),
        ch.gpu_cost,
        &s.money_bold,
        cx,
    )?;
    if let Some((m, ratio)) = ch.advice.next {
        text(ws, r, NEXT_BEST, m.label(cx.lang), &s.text)?;
        number(ws, r, NEXT_RATIO, ratio, s.number_for(ratio))?;
    }
    let offer = &plan.input.gpus[c.offer];
    if plan.input.workloads[i].spot_ok && offer.spot_hourly.is_some() {
        if let Some(v) = plan.value(c, "spot_rework_share") {
            number(ws, r, SPOT_REWORK, v, &s.pct)?;
        }
    }
    write_breakeven(ws, cx, r, c)?;
    let labels: Vec<&str> = Mode::ALL.iter().map(|m| m.label(cx.lang)).collect();
    live_text(
        ws,
        r,
        CHEAPEST_NOW,
        &cheapest_label(
            &format!("{}:{}", cell(None, r, FIRST_MODE), cell(None, r, LAST_MODE)),
            &labels,
        ),
        plan_tab::cheapest_now(c, cx.lang),
        &s.bold,
    )
}

/// The utilizations at which owning the offer's card breaks even with renting it, where it has a
/// purchase price: above the first, owning beats on demand ("never" where the on-demand price
/// does not exceed an hour's power); below the second, it beats monthly ("at any use" from
/// 100%, "never" at 0 or less).
fn write_breakeven(
    ws: &mut Worksheet,
    cx: &Ctx,
    r: u32,
    c: &crate::plan::Candidate,
) -> Result<(), XlsxError> {
    let (s, plan) = (&cx.s, cx.plan);
    let offer = &plan.input.gpus[c.offer];
    if offer.purchase_price.is_none() {
        return Ok(());
    }
    let (never, any) = (cx.t("never", "不会"), cx.t("at any use", "任何用量"));
    if offer.on_demand_hourly.is_some() {
        if let Some(u) = plan.value(c, "owned_breakeven_on_demand") {
            if u > 1.0 {
                text(ws, r, OWNED_VS_ON_DEMAND, never, &s.text)?;
            } else {
                number(ws, r, OWNED_VS_ON_DEMAND, u, &s.pct)?;
            }
        }
    }
    if offer.monthly.is_some() {
        if let Some(u) = plan.value(c, "owned_breakeven_monthly") {
            match u {
                u if u >= 1.0 => text(ws, r, OWNED_VS_MONTHLY, any, &s.text)?,
                u if u <= 0.0 => text(ws, r, OWNED_VS_MONTHLY, never, &s.text)?,
                u => number(ws, r, OWNED_VS_MONTHLY, u, &s.pct)?,
            }
        }
    }
    Ok(())
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

//! The TCO tab's priced line items (#43 item 4), as a cloud cost estimate lists them: per
//! workload and what it pays by, the offer, the billing mode, the quantity of GPUs, the rate
//! and its unit, the billed hours, the month and the year, with their totals. A
//! base-plus-burst workload has two lines: its monthly base and its hourly burst. The month is
//! live over the Plan tab (its GPU cost, or the base's cards at its monthly price); the year is
//! the month times the months the workload costs in (the Year tab's grid, as planned).

use super::live::local_range;
use super::plan_tab::{self, live_cell};
use super::Ctx;
use crate::labels::{Label, Said};
use crate::model::Per;
use crate::plan::Mode;
use crate::write::style::{number, text};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The block's columns from A: label, width (characters; the first three are the TCO tab's).
const HEADS: [Label; 9] = [
    Label::new("Workload", "负载"),
    Label::new("Offer", "报价"),
    Label::new("Billing", "计费方式"),
    Label::new("GPUs", "GPU 数"),
    Label::new("Rate", "单价"),
    Label::new("Per", "计价单位"),
    Label::new("Hours a GPU", "每卡小时"),
    Label::new("Month", "月度金额"),
    Label::new("Year", "全年金额"),
];
const QUANTITY: u16 = 3;
const RATE: u16 = 4;
const PER: u16 = 5;
const HOURS: u16 = 6;
const MONTH: u16 = 7;
const YEAR: u16 = 8;
/// The widths of the columns past the TCO tab's three.
pub const WIDTHS: [f64; 6] = [8.0, 12.0, 12.0, 12.0, 14.0, 16.0];

/// One priced line: the workload, what it pays by, and its figures.
struct Item {
    w: usize,
    mode: Mode,
    part: Part,
    quantity: f64,
    rate: f64,
    hours: Option<f64>,
    month: f64,
    /// The month as a live formula body.
    formula: String,
}

/// Which part of a workload's GPU cost a line is.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Whole,
    Base,
    Burst,
}

/// The lines of every planned workload, in sheet order.
fn items(cx: &Ctx) -> Vec<Item> {
    let plan = cx.plan;
    let mut out = Vec::new();
    for w in 0..plan.workloads.len() {
        let Some((c, ch)) = cx.chosen(w) else {
            continue;
        };
        let offer = &plan.input.gpus[c.offer];
        let gpus = plan.need(c, crate::plan::Need::GPUS_TOTAL);
        let cost_cell = plan_tab::absolute_of(cx, w, plan_tab::GPU_COST);
        // A GPU's billed hours: the formulas' own (cold starts, rounding and spot rework
        // included), else what the month buys at the rate.
        let value = |n: &str| plan.value(c, n);
        let hourly =
            |rate: f64, q: f64, month: f64| (rate > 0.0 && q > 0.0).then(|| month / (rate * q));
        let billed = value("billed_hours_on_demand");
        let spot_hours = || Some(billed? + value("run_hours")? * value("spot_rework")?);
        match ch.mode {
            Mode::Mixed => {
                let (base_cards, monthly) = plan.base_cards(c).unwrap_or((0.0, 0.0));
                let base = base_cards * monthly;
                let price = plan_tab::absolute_of(cx, w, plan_tab::PRICE_MONTHLY);
                out.push(Item {
                    w,
                    mode: Mode::Monthly,
                    part: Part::Base,
                    quantity: base_cards,
                    rate: monthly,
                    hours: None,
                    month: base,
                    formula: format!("{base_cards}*{price}"),
                });
                let rate = offer.on_demand_hourly.unwrap_or(0.0);
                let burst = (gpus - base_cards).max(0.0);
                out.push(Item {
                    w,
                    mode: Mode::OnDemand,
                    part: Part::Burst,
                    quantity: burst,
                    rate,
                    hours: value("burst_billed_hours")
                        .or_else(|| hourly(rate, burst, ch.gpu_cost - base)),
                    month: ch.gpu_cost - base,
                    formula: format!("{cost_cell}-{base_cards}*{price}"),
                });
            }
            mode => {
                // The mode's own price (base plus burst, of two, is split above); a card bought
                // is a month of its ownership per GPU.
                let price = mode.spec().prices[0];
                let rate = match price.spec().per {
                    Per::Once if gpus > 0.0 => ch.gpu_cost / gpus,
                    _ => offer.price(price).unwrap_or(0.0),
                };
                out.push(Item {
                    w,
                    mode,
                    part: Part::Whole,
                    quantity: gpus,
                    rate,
                    hours: match mode {
                        Mode::OnDemand => billed.or_else(|| hourly(rate, gpus, ch.gpu_cost)),
                        Mode::Spot => spot_hours().or_else(|| hourly(rate, gpus, ch.gpu_cost)),
                        Mode::Monthly | Mode::Reserved | Mode::Mixed | Mode::Owned => None,
                    },
                    month: ch.gpu_cost,
                    formula: cost_cell,
                });
            }
        }
    }
    out
}

/// Writes the block from `row` (its title), returns its last row.
pub fn write(ws: &mut Worksheet, cx: &Ctx, row: u32) -> Result<u32, XlsxError> {
    let head = write_heads(ws, cx, row)?;
    let items = items(cx);
    let mut r = head;
    let (mut month_sum, mut year_sum) = (0.0, 0.0);
    for it in &items {
        r += 1;
        let year = item_row(ws, cx, r, it)?;
        month_sum += it.month;
        year_sum += year;
    }
    r += 1;
    write_totals(ws, cx, head, r, items.is_empty(), (month_sum, year_sum))?;
    Ok(r)
}

/// The block's title at `row` and its header row below it. Returns the header's row.
fn write_heads(ws: &mut Worksheet, cx: &Ctx, row: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    text(
        ws,
        row,
        0,
        cx.t(
            "GPU line items: what each workload pays for its GPUs, by rate (month live; year as planned)",
            "GPU 费用明细：各负载按单价计的 GPU 费用（月度实时，全年为规划时月份）",
        ),
        &s.subtitle,
    )?;
    let head = row + 1;
    for (c, h) in HEADS.iter().enumerate() {
        text(ws, head, c as u16, h.get(cx.lang), &s.header)?;
    }
    Ok(head)
}

/// One priced line at row `r`: the workload (and its part), the offer, the mode, the quantity,
/// the rate and its unit, the hours, the month (live) and the year. Returns the year's value.
fn item_row(ws: &mut Worksheet, cx: &Ctx, r: u32, it: &Item) -> Result<f64, XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let wl = &plan.input.workloads[it.w];
    let name = match it.part {
        Part::Whole => Said::new(&wl.name, &wl.name),
        Part::Base => Said::new(
            format!("{} (base)", wl.name),
            format!("{}（保底）", wl.name),
        ),
        Part::Burst => Said::new(
            format!("{} (burst)", wl.name),
            format!("{}（弹性）", wl.name),
        ),
    };
    text(ws, r, 0, name.get(cx.lang), &s.text)?;
    let offer = cx
        .chosen(it.w)
        .map(|(c, _)| plan.input.gpus[c.offer].label())
        .unwrap_or_default();
    text(ws, r, 1, &offer, &s.text)?;
    text(ws, r, 2, it.mode.label(cx.lang), &s.text)?;
    number(ws, r, QUANTITY, it.quantity, &s.integer)?;
    number(ws, r, RATE, it.rate, &s.money)?;
    let per = match it.mode.spec().prices[0].spec().per {
        Per::Hour => cx.t("GPU-hour", "卡·小时"),
        Per::Month | Per::Once => cx.t("GPU-month", "卡·月"),
    };
    text(ws, r, PER, per, &s.text)?;
    if let Some(h) = it.hours {
        number(ws, r, HOURS, h, s.number_for(h))?;
    }
    live_cell(ws, r, MONTH, Ok(it.formula.clone()), it.month, &s.money, cx)?;
    let months = plan.year.costs[it.w].iter().filter(|x| **x).count() as f64;
    let year = crate::formula::cents(it.month * months);
    let at = super::live::cell(None, r, MONTH);
    live_cell(
        ws,
        r,
        YEAR,
        Ok(format!("{at}*{months}")),
        year,
        &s.money,
        cx,
    )?;
    Ok(year)
}

/// The totals' row `r`: the month and the year (`sums`, as cached) summed over the lines
/// between the header's row `head` and `r`; 0 when there are none (`empty`).
fn write_totals(
    ws: &mut Worksheet,
    cx: &Ctx,
    head: u32,
    r: u32,
    empty: bool,
    (month_sum, year_sum): (f64, f64),
) -> Result<(), XlsxError> {
    let s = &cx.s;
    text(ws, r, 0, cx.t("GPUs in all", "GPU 合计"), &s.bold)?;
    for (col, v) in [(MONTH, month_sum), (YEAR, year_sum)] {
        let f = if empty {
            "0".to_string()
        } else {
            format!("SUM({})", local_range(head + 1, r - 1, col))
        };
        live_cell(
            ws,
            r,
            col,
            Ok(f),
            crate::formula::cents(v),
            &s.money_bold,
            cx,
        )?;
    }
    Ok(())
}

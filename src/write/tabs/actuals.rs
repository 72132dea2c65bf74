//! Actuals (`calc --usage LOG…`): per workload with measured usage, the plan beside what really
//! ran — hours, utilization, memory and monthly TCO — and the advice from the measured figures
//! with the monthly saving of a re-plan at them. Values: the logs are not part of this workbook.

use super::{at, heads_of, widths_of, Col, Ctx, Extent};
use crate::labels::Said;
use crate::usage::bills::BillComparison;
use crate::usage::compare as actuals;
use crate::write::style::{fit_row_height, number, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The measured figures' columns, one row per measured workload.
const MEASURED: [Col; 17] = [
    Col::new(
        "workload",
        24.0,
        [
            "Workload",
            "负载",
            "Workloads the logs measured (through the Usage sheet or --map).",
            "日志中测到的负载（按用量表或 --map 对应）。",
        ],
    ),
    Col::new(
        "gpus",
        9.0,
        [
            "GPUs measured",
            "实测 GPU 数",
            "GPUs of the workload with samples in the logs.",
            "日志中有采样的 GPU 数。",
        ],
    ),
    Col::new(
        "days_covered",
        9.0,
        [
            "Days covered",
            "覆盖天数",
            "First sample to last, in days: the measured month is extrapolated from them.",
            "首个到最后一个采样的天数，按此外推到一个月。",
        ],
    ),
    Col::new(
        "run_hours",
        11.0,
        [
            "Planned h/month",
            "计划小时/月",
            "run_hours: hours each instance runs a month in the plan.",
            "run_hours：方案中每个实例每月运行小时数。",
        ],
    ),
    Col::new(
        "measured_hours",
        11.0,
        [
            "Measured h/month",
            "实测小时/月",
            "Active hours a month of each GPU: measured utilization × hours_in_month.",
            "每块 GPU 每月活跃小时：实测利用率 × 每月小时数。",
        ],
    ),
    Col::new(
        "planned_utilization",
        11.0,
        [
            "Planned utilization",
            "计划利用率",
            "run_hours ÷ hours_in_month.",
            "run_hours ÷ 每月小时数。",
        ],
    ),
    Col::new(
        "measured_utilization",
        11.0,
        [
            "Measured utilization",
            "实测利用率",
            "Active share of the month (samples above usage_active_threshold).",
            "每月活跃占比（利用率高于 usage_active_threshold 的采样）。",
        ],
    ),
    Col::new(
        "busy_utilization",
        11.0,
        [
            "Busy utilization",
            "活跃时利用率",
            "Average GPU utilization while active.",
            "活跃时的平均 GPU 利用率。",
        ],
    ),
    Col::new(
        "required_vram_gib",
        11.0,
        [
            "Planned memory GiB",
            "计划显存 GiB",
            "required_vram_gib: what a replica was sized for.",
            "required_vram_gib：每个副本按此选卡。",
        ],
    ),
    Col::new(
        "replica_vram_gib",
        11.0,
        [
            "Card memory GiB",
            "卡显存 GiB",
            "replica_vram_gib: the memory of a replica's cards.",
            "replica_vram_gib：每个副本所用卡的显存。",
        ],
    ),
    Col::new(
        "memory_peak_gib",
        11.0,
        [
            "Memory peak GiB",
            "显存峰值 GiB",
            "Largest memory used on one of its GPUs.",
            "单块 GPU 上的最大显存占用。",
        ],
    ),
    Col::new(
        "memory_p95_gib",
        11.0,
        [
            "Memory p95 GiB",
            "显存 P95 GiB",
            "95th percentile of the memory samples.",
            "显存采样的第 95 百分位。",
        ],
    ),
    Col::new(
        "planned_tco",
        13.0,
        [
            "Planned TCO",
            "计划月度总成本",
            "The plan's monthly TCO of the workload.",
            "方案中该负载的月度总成本。",
        ],
    ),
    Col::new(
        "as_is",
        13.0,
        [
            "As planned at measured use",
            "原方案按实测",
            "The planned card, count and billing mode, re-planned at the measured hours: what carrying on costs a month.",
            "原方案的卡、数量与计费方式按实测小时数计算：继续运行每月的费用。",
        ],
    ),
    Col::new(
        "replanned_tco",
        13.0,
        [
            "Re-planned TCO",
            "按实测重算",
            "Monthly TCO re-planned with the measured hours (and the memory peak where the card is over twice too large).",
            "按实测小时数（卡显存超过峰值两倍时按峰值）重新规划的月度总成本。",
        ],
    ),
    Col::new(
        "saving",
        13.0,
        [
            "Saving",
            "每月节省",
            "What the advice saves a month: carrying on as planned at the measured use less the re-planned TCO; 0 when the plan is kept.",
            "建议带来的每月节省：原方案按实测的费用减重新规划的费用；保持原方案时为 0。",
        ],
    ),
    Col::new(
        "advice",
        70.0,
        [
            "Advice",
            "建议",
            "From the measured figures: monthly or reserved above the utilization bands, a smaller card when the memory peak stays below half the card, spot for interruptible work that runs in bursts.",
            "按实测：利用率高于区间时包月或预留，显存峰值长期低于一半时换小卡，可中断的间歇任务用竞价。",
        ],
    ),
];
const WORKLOAD: u16 = at(&MEASURED, "workload");
const GPUS: u16 = at(&MEASURED, "gpus");
const DAYS_COVERED: u16 = at(&MEASURED, "days_covered");
const RUN_HOURS: u16 = at(&MEASURED, "run_hours");
const MEASURED_HOURS: u16 = at(&MEASURED, "measured_hours");
const PLANNED_UTILIZATION: u16 = at(&MEASURED, "planned_utilization");
const MEASURED_UTILIZATION: u16 = at(&MEASURED, "measured_utilization");
const BUSY_UTILIZATION: u16 = at(&MEASURED, "busy_utilization");
const REQUIRED_VRAM_GIB: u16 = at(&MEASURED, "required_vram_gib");
const REPLICA_VRAM_GIB: u16 = at(&MEASURED, "replica_vram_gib");
const MEMORY_PEAK_GIB: u16 = at(&MEASURED, "memory_peak_gib");
const MEMORY_P95_GIB: u16 = at(&MEASURED, "memory_p95_gib");
const PLANNED_TCO: u16 = at(&MEASURED, "planned_tco");
const AS_IS: u16 = at(&MEASURED, "as_is");
const REPLANNED_TCO: u16 = at(&MEASURED, "replanned_tco");
const SAVING: u16 = at(&MEASURED, "saving");
const ADVICE: u16 = at(&MEASURED, "advice");
/// The last column of the tab: the measured table is the widest block.
const LAST_COL: u16 = MEASURED.len() as u16 - 1;

/// The bill block's columns (`calc --bills`), below the measured figures. Headers without
/// notes; `width` is not applied: the block lies under the measured columns, whose widths hold.
#[rustfmt::skip]
const BILL: [Col; 9] = [
    Col::new("workload", 0.0, ["Workload", "负载", "", ""]),
    Col::new("planned_hours", 0.0, ["Planned GPU-h", "计划 GPU 小时", "", ""]),
    Col::new("billed_hours", 0.0, ["Billed GPU-h", "账单 GPU 小时", "", ""]),
    Col::new("planned_cost", 0.0, ["Planned GPU cost", "计划 GPU 费用", "", ""]),
    Col::new("billed", 0.0, ["Billed", "账单金额", "", ""]),
    Col::new("difference", 0.0, ["Difference", "差额", "", ""]),
    Col::new("hours_effect", 0.0, ["Of which hours", "其中时长", "", ""]),
    Col::new("price_effect", 0.0, ["Of which price", "其中价格", "", ""]),
    Col::new("cause", 0.0, ["Cause", "原因", "", ""]),
];
const BILL_WORKLOAD: u16 = at(&BILL, "workload");
const BILL_PLANNED_HOURS: u16 = at(&BILL, "planned_hours");
const BILL_BILLED_HOURS: u16 = at(&BILL, "billed_hours");
const BILL_PLANNED_COST: u16 = at(&BILL, "planned_cost");
const BILL_BILLED: u16 = at(&BILL, "billed");
const BILL_DIFFERENCE: u16 = at(&BILL, "difference");
const BILL_HOURS_EFFECT: u16 = at(&BILL, "hours_effect");
const BILL_PRICE_EFFECT: u16 = at(&BILL, "price_effect");
const BILL_CAUSE: u16 = at(&BILL, "cause");

/// Writes the Actuals tab: one row per measured workload, then the last month's bill beside the
/// plan when the run has `--bills`.
pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    cx.header(ws, 0, &heads_of(&MEASURED))?;
    let currency = cx.plan.input.assumptions.currency();
    let money = |v: f64| crate::model::money(&currency, v);
    let mut r = 0;
    for row in &cx.calc.actuals {
        r += 1;
        write_measured(ws, cx, r, row, &money)?;
    }
    // The last month's bill beside the plan (calc --bills), below the measured figures.
    if let Some(b) = &cx.calc.bills {
        r = write_bill(ws, cx, b, r + 2)?;
    }
    widths(ws, &widths_of(&MEASURED))?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(r, LAST_COL))
}

/// Row `r`: one workload's measured figures beside the planned ones, the costs as planned, at
/// the measured use and re-planned, the saving and the advice (its amounts written by `money`).
fn write_measured(
    ws: &mut Worksheet,
    cx: &Ctx,
    r: u32,
    row: &actuals::Row,
    money: &dyn Fn(f64) -> String,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    let a = &row.actual;
    text(ws, r, WORKLOAD, &a.workload, &s.text)?;
    number(ws, r, GPUS, a.gpus as f64, &s.count)?;
    number(
        ws,
        r,
        DAYS_COVERED,
        a.days_covered,
        s.number_for(a.days_covered),
    )?;
    number(
        ws,
        r,
        MEASURED_HOURS,
        row.measured_hours,
        s.number_for(row.measured_hours),
    )?;
    number(ws, r, MEASURED_UTILIZATION, a.utilization, &s.pct)?;
    if let Some(b) = a.busy_utilization {
        number(ws, r, BUSY_UTILIZATION, b, &s.pct)?;
    }
    if let Some(p) = a.memory_peak_gib {
        number(ws, r, MEMORY_PEAK_GIB, p, &s.gib)?;
    }
    if let Some(p) = a.memory_p95_gib {
        number(ws, r, MEMORY_P95_GIB, p, &s.gib)?;
    }
    if let Some(p) = &row.planned {
        number(ws, r, RUN_HOURS, p.run_hours, s.number_for(p.run_hours))?;
        number(ws, r, PLANNED_UTILIZATION, p.utilization, &s.pct)?;
        number(ws, r, REQUIRED_VRAM_GIB, p.required_vram_gib, &s.gib)?;
        number(ws, r, REPLICA_VRAM_GIB, p.replica_vram_gib, &s.gib)?;
        number(ws, r, PLANNED_TCO, p.tco, &s.money)?;
        number(ws, r, SAVING, row.saving, &s.money_bold)?;
    }
    if let Some(c) = row.as_is {
        number(ws, r, AS_IS, c, &s.money)?;
    }
    if let Some(p) = &row.replanned {
        number(ws, r, REPLANNED_TCO, p.tco, &s.money)?;
    }
    let advice = row.advice(money);
    let advice = advice.get(cx.lang);
    text(ws, r, ADVICE, advice, &s.wrap)?;
    fit_row_height(ws, r, &[(advice, MEASURED[ADVICE as usize].width)])
}

/// From row `r`: a title, a header, one row per workload of the bill `b` with the difference
/// split into hours and price, and the totals. Returns the last row written.
fn write_bill(
    ws: &mut Worksheet,
    cx: &Ctx,
    b: &BillComparison,
    mut r: u32,
) -> Result<u32, XlsxError> {
    let s = &cx.s;
    // The title starts the block in column A, whatever the block's first column holds.
    text(
        ws,
        r,
        0,
        Said::new(
            format!("The {} bill against the plan", b.month),
            format!("{} 账单与方案对比", b.month),
        )
        .get(cx.lang),
        &s.subtitle,
    )?;
    r += 1;
    cx.plain_header(ws, r, &BILL)?;
    for row in &b.rows {
        r += 1;
        text(ws, r, BILL_WORKLOAD, &row.workload, &s.text)?;
        if let Some(h) = row.planned_hours {
            number(ws, r, BILL_PLANNED_HOURS, h, s.number_for(h))?;
        }
        number(
            ws,
            r,
            BILL_BILLED_HOURS,
            row.billed_hours,
            s.number_for(row.billed_hours),
        )?;
        if let Some(c) = row.planned_cost {
            number(ws, r, BILL_PLANNED_COST, c, &s.money)?;
        }
        number(ws, r, BILL_BILLED, row.billed, &s.money)?;
        number(ws, r, BILL_DIFFERENCE, row.difference, &s.money_bold)?;
        number(ws, r, BILL_HOURS_EFFECT, row.hours_effect, &s.money)?;
        number(ws, r, BILL_PRICE_EFFECT, row.price_effect, &s.money)?;
        text(ws, r, BILL_CAUSE, &row.cause, &s.text)?;
    }
    r += 1;
    text(ws, r, BILL_WORKLOAD, cx.t("Total", "合计"), &s.bold)?;
    number(ws, r, BILL_PLANNED_COST, b.planned, &s.money_bold)?;
    number(ws, r, BILL_BILLED, b.billed, &s.money_bold)?;
    number(ws, r, BILL_DIFFERENCE, b.billed - b.planned, &s.money_bold)?;
    Ok(r)
}

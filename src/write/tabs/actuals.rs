//! Actuals (`calc --usage LOG…`): per workload with measured usage, the plan beside what really
//! ran — hours, utilization, memory and monthly TCO — and the advice from the measured figures
//! with the monthly saving of a re-plan at them. Values: the logs are not part of this workbook.

use super::{Ctx, Extent};
use crate::lang::Lang;
use crate::plan::actuals;
use crate::usage::bills::BillComparison;
use crate::write::style::{number, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The columns: `[English, Chinese, note in English, note in Chinese]`.
const COLUMNS: [[&str; 4]; 17] = [
    ["Workload", "负载", "Workloads the logs measured (through the Usage sheet or --map).", "日志中测到的负载（按用量表或 --map 对应）。"],
    ["GPUs measured", "实测 GPU 数", "GPUs of the workload with samples in the logs.", "日志中有采样的 GPU 数。"],
    ["Days covered", "覆盖天数", "First sample to last, in days: the measured month is extrapolated from them.", "首个到最后一个采样的天数，按此外推到一个月。"],
    ["Planned h/month", "计划小时/月", "run_hours: hours each instance runs a month in the plan.", "run_hours：方案中每个实例每月运行小时数。"],
    ["Measured h/month", "实测小时/月", "Active hours a month of each GPU: measured utilization × hours_in_month.", "每块 GPU 每月活跃小时：实测利用率 × 每月小时数。"],
    ["Planned utilization", "计划利用率", "run_hours ÷ hours_in_month.", "run_hours ÷ 每月小时数。"],
    ["Measured utilization", "实测利用率", "Active share of the month (samples above usage_active_threshold).", "每月活跃占比（利用率高于 usage_active_threshold 的采样）。"],
    ["Busy utilization", "活跃时利用率", "Average GPU utilization while active.", "活跃时的平均 GPU 利用率。"],
    ["Planned memory GiB", "计划显存 GiB", "required_vram_gib: what a replica was sized for.", "required_vram_gib：每个副本按此选卡。"],
    ["Card memory GiB", "卡显存 GiB", "replica_vram_gib: the memory of a replica's cards.", "replica_vram_gib：每个副本所用卡的显存。"],
    ["Memory peak GiB", "显存峰值 GiB", "Largest memory used on one of its GPUs.", "单块 GPU 上的最大显存占用。"],
    ["Memory p95 GiB", "显存 P95 GiB", "95th percentile of the memory samples.", "显存采样的第 95 百分位。"],
    ["Planned TCO", "计划月度总成本", "The plan's monthly TCO of the workload.", "方案中该负载的月度总成本。"],
    ["As planned at measured use", "原方案按实测", "The planned card, count and billing mode, re-planned at the measured hours: what carrying on costs a month.", "原方案的卡、数量与计费方式按实测小时数计算：继续运行每月的费用。"],
    ["Re-planned TCO", "按实测重算", "Monthly TCO re-planned with the measured hours (and the memory peak where the card is over twice too large).", "按实测小时数（卡显存超过峰值两倍时按峰值）重新规划的月度总成本。"],
    ["Saving", "每月节省", "What the advice saves a month: carrying on as planned at the measured use less the re-planned TCO; 0 when the plan is kept.", "建议带来的每月节省：原方案按实测的费用减重新规划的费用；保持原方案时为 0。"],
    ["Advice", "建议", "From the measured figures: monthly or reserved above the utilization bands, a smaller card when the memory peak stays below half the card, spot for interruptible work that runs in bursts.", "按实测：利用率高于区间时包月或预留，显存峰值长期低于一半时换小卡，可中断的间歇任务用竞价。"],
];

/// The columns' widths, one per column of `COLUMNS`.
const WIDTHS: [f64; 17] = [
    24.0, 9.0, 9.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 11.0, 13.0, 13.0, 13.0, 13.0,
    70.0,
];

/// Writes the Actuals tab: one row per measured workload, then the last month's bill beside the
/// plan when the run has `--bills`.
pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    cx.header(ws, 0, &COLUMNS)?;
    let currency = cx.plan.input.assumptions.currency();
    let money = |v: f64| crate::report::money(&currency, v);
    let mut r = 0;
    for row in &cx.plan.actuals {
        r += 1;
        write_measured(ws, cx, r, row, &money)?;
    }
    // The last month's bill beside the plan (calc --bills), below the measured figures.
    if let Some(b) = &cx.plan.bills {
        r = write_bill(ws, cx, b, r + 2)?;
    }
    widths(ws, &WIDTHS)?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(r, 16))
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
    text(ws, r, 0, &a.workload, &s.text)?;
    number(ws, r, 1, a.gpus as f64, &s.count)?;
    number(ws, r, 2, a.days_covered, s.number_for(a.days_covered))?;
    number(
        ws,
        r,
        4,
        row.measured_hours,
        s.number_for(row.measured_hours),
    )?;
    number(ws, r, 6, a.utilization, &s.pct)?;
    if let Some(b) = a.busy_utilization {
        number(ws, r, 7, b, &s.pct)?;
    }
    if let Some(p) = a.memory_peak_gib {
        number(ws, r, 10, p, &s.gib)?;
    }
    if let Some(p) = a.memory_p95_gib {
        number(ws, r, 11, p, &s.gib)?;
    }
    if let Some(p) = &row.planned {
        number(ws, r, 3, p.run_hours, s.number_for(p.run_hours))?;
        number(ws, r, 5, p.utilization, &s.pct)?;
        number(ws, r, 8, p.required_vram_gib, &s.gib)?;
        number(ws, r, 9, p.replica_vram_gib, &s.gib)?;
        number(ws, r, 12, p.tco, &s.money)?;
        number(ws, r, 15, row.saving, &s.money_bold)?;
    }
    if let Some(c) = row.as_is {
        number(ws, r, 13, c, &s.money)?;
    }
    if let Some(p) = &row.replanned {
        number(ws, r, 14, p.tco, &s.money)?;
    }
    text(ws, r, 16, &row.advice(money, cx.lang), &s.wrap)
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
    text(
        ws,
        r,
        0,
        &if cx.lang == Lang::Zh {
            format!("{} 账单与方案对比", b.month)
        } else {
            format!("The {} bill against the plan", b.month)
        },
        &s.subtitle,
    )?;
    r += 1;
    let heads = [
        cx.t("Workload", "负载"),
        cx.t("Planned GPU-h", "计划 GPU 小时"),
        cx.t("Billed GPU-h", "账单 GPU 小时"),
        cx.t("Planned GPU cost", "计划 GPU 费用"),
        cx.t("Billed", "账单金额"),
        cx.t("Difference", "差额"),
        cx.t("Of which hours", "其中时长"),
        cx.t("Of which price", "其中价格"),
        cx.t("Cause", "原因"),
    ];
    for (c, h) in heads.iter().enumerate() {
        text(ws, r, c as u16, h, &s.header)?;
    }
    for row in &b.rows {
        r += 1;
        text(ws, r, 0, &row.workload, &s.text)?;
        if let Some(h) = row.planned_hours {
            number(ws, r, 1, h, s.number_for(h))?;
        }
        number(ws, r, 2, row.billed_hours, s.number_for(row.billed_hours))?;
        if let Some(c) = row.planned_cost {
            number(ws, r, 3, c, &s.money)?;
        }
        number(ws, r, 4, row.billed, &s.money)?;
        number(ws, r, 5, row.difference, &s.money_bold)?;
        number(ws, r, 6, row.hours_effect, &s.money)?;
        number(ws, r, 7, row.price_effect, &s.money)?;
        text(ws, r, 8, &row.cause, &s.text)?;
    }
    r += 1;
    text(ws, r, 0, cx.t("Total", "合计"), &s.bold)?;
    number(ws, r, 3, b.planned, &s.money_bold)?;
    number(ws, r, 4, b.billed, &s.money_bold)?;
    number(ws, r, 5, b.billed - b.planned, &s.money_bold)?;
    Ok(r)
}

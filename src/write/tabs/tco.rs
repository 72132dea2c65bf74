//! TCO: every cost line (category, workload, amount), hidden costs each on its own line, then
//! the portfolio lines, the total and the total with the safety margin.

use super::{heads, Category, Ctx};
use crate::write::style::{header, number, text};
use rust_xlsxwriter::{Worksheet, XlsxError};

pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<(), XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    header(ws, 0, &heads(cx, &[
        ["Category", "类别", "GPU time, cold starts and rounding, spot rework, storage, egress, trial reserve, ops labour.", "GPU 计算、冷启动与取整、竞价重跑、存储、流量、试错预留、运维人力。"],
        ["Workload", "负载", "The workload the line belongs to; blank for portfolio lines.", "所属负载；汇总项为空。"],
        ["Monthly amount", "月度金额", "Per month.", "每月金额。"],
    ]), s)?;
    let mut r = 0;
    for c in Category::ALL {
        for (i, w) in plan.input.workloads.iter().enumerate() {
            let Some((_, ch)) = cx.chosen(i) else {
                continue;
            };
            let v = c.of_workload(ch);
            // Storage and egress lines show even at zero, so a forgotten figure is visible.
            let always = matches!(c, Category::GpuTime | Category::Storage | Category::Egress);
            if v.abs() > 1e-9 || always {
                r += 1;
                text(ws, r, 0, c.label(cx.zh), &s.text)?;
                text(ws, r, 1, &w.name, &s.text)?;
                number(ws, r, 2, v, &s.money)?;
            }
        }
        if matches!(c, Category::TrialReserve | Category::Ops) {
            r += 1;
            text(ws, r, 0, c.label(cx.zh), &s.text)?;
            number(ws, r, 2, c.total(plan), &s.money)?;
        }
    }
    let t = |n: &str| plan.total(n).unwrap_or(0.0);
    r += 2;
    text(ws, r, 0, cx.t("Total", "合计"), &s.bold)?;
    number(ws, r, 2, t("total"), &s.money_bold)?;
    r += 1;
    text(ws, r, 0, cx.t("Safety margin", "安全边际"), &s.text)?;
    number(ws, r, 2, t("total_with_margin") - t("total"), &s.money)?;
    r += 1;
    text(
        ws,
        r,
        0,
        cx.t("Total with safety margin", "含安全边际总计"),
        &s.bold,
    )?;
    number(ws, r, 2, t("total_with_margin"), &s.money_total)?;
    // Other portfolio formulas (the user's own) follow, so nothing computed is hidden.
    let shown = [
        "trial_reserve_cost",
        "ops_cost",
        "total",
        "total_with_margin",
        "safety_margin_cost",
    ];
    let others: Vec<&(String, f64)> = plan
        .totals
        .iter()
        .filter(|(n, _)| !shown.contains(&n.as_str()))
        .collect();
    if !others.is_empty() {
        r += 2;
        text(ws, r, 0, cx.t("Portfolio figures", "汇总指标"), &s.subtitle)?;
        for (n, v) in others {
            r += 1;
            text(ws, r, 0, n, &s.text)?;
            number(ws, r, 2, *v, &s.number)?;
        }
    }
    ws.set_column_width(0, 34)?;
    ws.set_column_width(1, 24)?;
    ws.set_column_width(2, 18)?;
    ws.set_freeze_panes(1, 0)?;
    Ok(())
}

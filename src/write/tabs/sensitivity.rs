//! Sensitivity: the Ranges sheet's tornado (the budget with each key at its low and at its high,
//! the others at base, widest swing first) with its chart, and the P10/P50/P90 of the budget over
//! seeded random samples of every key at once. Figures as planned: each is a re-plan.

use super::{Ctx, Extent, Tab};
use crate::lang::Lang;
use crate::write::charts::Point;
use crate::write::style::{number, text, widths};
use rust_xlsxwriter::{Chart, ChartLegendPosition, ChartType, Worksheet, XlsxError};

pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    let s = &cx.s;
    let Some(sens) = &cx.plan.sensitivity else {
        return Ok(Extent::new(0, 0));
    };
    cx.header(
        ws,
        0,
        &[
            ["Key", "参数", "What varies (the Ranges sheet's key).", "变化的参数（范围表的 key）。"],
            ["Low", "下限", "Its low value.", "下限取值。"],
            ["High", "上限", "Its high value.", "上限取值。"],
            ["Budget at low", "下限时预算", "The monthly budget (total with safety margin), re-planned with the key at its low and everything else at base.", "该参数取下限、其余取基准值时重新规划的月度预算（含安全边际）。"],
            ["Budget at high", "上限时预算", "The same with the key at its high.", "该参数取上限时的月度预算。"],
            ["Swing", "波动幅度", "How far the budget moves across the range; the widest first.", "预算在该范围内的变化幅度，从大到小排列。"],
            ["Δ at low", "下限差额", "Budget at low less the base budget (the chart's left bar).", "下限时预算减基准预算（图中左侧条）。"],
            ["Δ at high", "上限差额", "Budget at high less the base budget (the chart's right bar).", "上限时预算减基准预算（图中右侧条）。"],
        ],
    )?;
    for (i, t) in sens.tornado.iter().enumerate() {
        let r = i as u32 + 1;
        text(ws, r, 0, &t.key, &s.bold)?;
        number(ws, r, 1, t.low, s.number_for(t.low))?;
        number(ws, r, 2, t.high, s.number_for(t.high))?;
        number(ws, r, 3, t.at_low, &s.money)?;
        number(ws, r, 4, t.at_high, &s.money)?;
        number(ws, r, 5, t.swing(), &s.money_bold)?;
        number(ws, r, 6, t.at_low - sens.base, &s.money)?;
        number(ws, r, 7, t.at_high - sens.base, &s.money)?;
    }
    let n = sens.tornado.len() as u32;
    let mut row = n + 2;
    text(
        ws,
        row,
        0,
        &if cx.lang == Lang::Zh {
            format!(
                "预算分布（{} 个随机样本，种子 {}，每个样本重新规划）",
                sens.samples, sens.seed
            )
        } else {
            format!(
                "The budget over {} random samples (seed {}), each re-planned",
                sens.samples, sens.seed
            )
        },
        &s.subtitle,
    )?;
    for (label, v) in [
        (cx.t("Base budget", "基准预算"), sens.base),
        ("P10", sens.p10),
        ("P50", sens.p50),
        ("P90", sens.p90),
    ] {
        row += 1;
        text(ws, row, 0, label, &s.bold)?;
        number(ws, row, 1, v, &s.money)?;
    }
    if n > 0 {
        let sheet = cx.sheet(Tab::Sensitivity);
        let keys: Vec<Option<Point>> = sens
            .tornado
            .iter()
            .map(|t| Some(Point::Text(t.key.clone())))
            .collect();
        let mut chart = Chart::new(ChartType::Bar);
        chart.title().set_name(cx.t(
            "Budget swing by key (vs the base)",
            "各参数导致的预算变化（相对基准）",
        ));
        for (col, name, pick) in [
            (6u16, cx.t("at low", "取下限"), 0),
            (7, cx.t("at high", "取上限"), 1),
        ] {
            let values = sens
                .tornado
                .iter()
                .map(|t| {
                    Some(Point::Number(
                        if pick == 0 { t.at_low } else { t.at_high } - sens.base,
                    ))
                })
                .collect();
            chart
                .add_series()
                .set_name(name)
                .set_overlap(100)
                .set_categories(cx.charts.range(sheet, 1, 0, keys.clone()))
                .set_values(cx.charts.range(sheet, 1, col, values));
        }
        // The widest swing at the top: a bar chart lists its categories bottom-up.
        chart.x_axis().set_reverse();
        chart.legend().set_position(ChartLegendPosition::Bottom);
        chart.set_width(620).set_height(40 * n.max(4) + 120);
        ws.insert_chart(row + 2, 0, &chart)?;
    }
    widths(ws, &[30.0, 12.0, 12.0, 16.0, 16.0, 14.0, 14.0, 14.0])?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(row + 2 + (2 * n.max(4) + 6), 7))
}

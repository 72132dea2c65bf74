//! Sensitivity: the Ranges sheet's tornado (the budget with each key at its low and at its high,
//! the others at base, widest swing first) with its chart, and the P10/P50/P90 of the budget over
//! seeded random samples of every key at once. Figures as planned: each is a re-plan.

use super::{at, heads_of, widths_of, Col, Ctx, Extent, Tab};
use crate::labels::Said;
use crate::model::Price;
use crate::plan::sensitivity::Sensitivity;
use crate::write::charts::Point;
use crate::write::style::{money_format, number, text, widths};
use rust_xlsxwriter::{Chart, ChartLegendPosition, ChartType, Worksheet, XlsxError};

/// The tornado's columns: key, width and `[English, Chinese, note in English, note in Chinese]`.
const COLUMNS: [Col; 8] = [
    Col::new(
        "key",
        30.0,
        [
            "Key",
            "参数",
            "What varies (the Ranges sheet's key).",
            "变化的参数（范围表的 key）。",
        ],
    ),
    Col::new("low", 12.0, ["Low", "下限", "Its low value.", "下限取值。"]),
    Col::new("high", 12.0, ["High", "上限", "Its high value.", "上限取值。"]),
    Col::new(
        "at_low",
        16.0,
        [
            "Budget at low",
            "下限时预算",
            "The monthly budget (total with safety margin), re-planned with the key at its low and everything else at base.",
            "该参数取下限、其余取基准值时重新规划的月度预算（含安全边际）。",
        ],
    ),
    Col::new(
        "at_high",
        16.0,
        [
            "Budget at high",
            "上限时预算",
            "The same with the key at its high.",
            "该参数取上限时的月度预算。",
        ],
    ),
    Col::new(
        "swing",
        14.0,
        [
            "Swing",
            "波动幅度",
            "How far the budget moves across the range; the widest first.",
            "预算在该范围内的变化幅度，从大到小排列。",
        ],
    ),
    Col::new(
        "delta_at_low",
        14.0,
        [
            "Δ at low",
            "下限差额",
            "Budget at low less the base budget (the chart's left bar).",
            "下限时预算减基准预算（图中左侧条）。",
        ],
    ),
    Col::new(
        "delta_at_high",
        14.0,
        [
            "Δ at high",
            "上限差额",
            "Budget at high less the base budget (the chart's right bar).",
            "上限时预算减基准预算（图中右侧条）。",
        ],
    ),
];
const KEY: u16 = at(&COLUMNS, "key");
const LOW: u16 = at(&COLUMNS, "low");
const HIGH: u16 = at(&COLUMNS, "high");
const AT_LOW: u16 = at(&COLUMNS, "at_low");
const AT_HIGH: u16 = at(&COLUMNS, "at_high");
const SWING: u16 = at(&COLUMNS, "swing");
const DELTA_AT_LOW: u16 = at(&COLUMNS, "delta_at_low");
const DELTA_AT_HIGH: u16 = at(&COLUMNS, "delta_at_high");
/// The last column.
const LAST: u16 = COLUMNS.len() as u16 - 1;

/// The blocks below the tornado: the budget's distribution (its title and labels in the key
/// column, each figure in the column after it), then the chart from the same column.
const LABEL: u16 = KEY;
const VALUE: u16 = KEY + 1;

/// Writes the Sensitivity tab: the tornado's rows, the budget's distribution below them and
/// the tornado chart below that. Empty when the input has no ranges.
pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    let Some(sens) = &cx.calc.sensitivity else {
        return Ok(Extent::new(0, 0));
    };
    cx.header(ws, 0, &heads_of(&COLUMNS))?;
    write_tornado(ws, cx, sens)?;
    let n = sens.tornado.len() as u32;
    let mut last = write_distribution(ws, cx, sens, n + 2)?;
    if n > 0 {
        insert_chart(ws, cx, sens, last + 2)?;
        // The chart's rows, at the default row height, are part of the printed page.
        last += 2 + chart_height(n).div_ceil(DEFAULT_ROW_PX);
    }
    widths(ws, &widths_of(&COLUMNS))?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(last, LAST))
}

/// Excel's default row height, in pixels (15 points).
const DEFAULT_ROW_PX: u32 = 20;

/// The tornado chart's height in pixels: 40 a key (room for four at least) and 120 for its
/// title, axis and legend.
fn chart_height(keys: u32) -> u32 {
    40 * keys.max(4) + 120
}

/// One row per key, widest swing first: its range, the budget at each end, the swing and each
/// end's difference from the base budget.
fn write_tornado(ws: &mut Worksheet, cx: &Ctx, sens: &Sensitivity) -> Result<(), XlsxError> {
    let s = &cx.s;
    for (i, t) in sens.tornado.iter().enumerate() {
        let r = i as u32 + 1;
        text(ws, r, KEY, key_label(&t.key).get(cx.lang), &s.bold)?;
        number(ws, r, LOW, t.low, key_format(cx, &t.key, t.low))?;
        number(ws, r, HIGH, t.high, key_format(cx, &t.key, t.high))?;
        number(ws, r, AT_LOW, t.at_low, &s.money)?;
        number(ws, r, AT_HIGH, t.at_high, &s.money)?;
        number(ws, r, SWING, t.swing(), &s.money_bold)?;
        number(ws, r, DELTA_AT_LOW, t.at_low - sens.base, &s.money)?;
        number(ws, r, DELTA_AT_HIGH, t.at_high - sens.base, &s.money)?;
    }
    Ok(())
}

/// A Ranges key as the tab shows it: in Chinese a GPU price is named in Chinese with its key
/// after it (`RTX 4090 包月单价(每卡) · gpu:RTX 4090.monthly`); any other key, and every key in
/// English, as written (the --set syntax to copy).
fn key_label(key: &str) -> Said {
    let term = |field: &str| {
        Price::parse(field).map(|p| crate::labels::layout::offer_term(p.spec().input))
    };
    let zh = key
        .strip_prefix("gpu:")
        .and_then(|k| k.rsplit_once('.'))
        .and_then(|(gpu, field)| Some((gpu, term(field)?)))
        .map_or_else(
            || key.to_string(),
            |(gpu, t)| format!("{gpu} {} · {key}", t.zh),
        );
    Said::new(key, zh)
}

/// The format of a Ranges key's low or high value `v`: a GPU price or an assumption priced per
/// unit (`per h`, `per GB-month`) as money, a share as a percentage, anything else as a number.
fn key_format<'a>(cx: &'a Ctx, key: &str, v: f64) -> &'a rust_xlsxwriter::Format {
    let s = &cx.s;
    if let Some(field) = key.strip_prefix("gpu:").and_then(|k| k.rsplit('.').next()) {
        if Price::parse(field).is_some() {
            return &s.money;
        }
    }
    match cx.plan.input.assumptions.get(key).map(|a| a.unit.as_str()) {
        Some("share") => &s.pct,
        Some(unit) if unit.starts_with("per ") => &s.money,
        _ => s.number_for(v),
    }
}

/// From row `row`: a title with the samples and seed, then the base budget and the P10, P50
/// and P90 of the sampled budgets. Returns the last row written.
fn write_distribution(
    ws: &mut Worksheet,
    cx: &Ctx,
    sens: &Sensitivity,
    mut row: u32,
) -> Result<u32, XlsxError> {
    let s = &cx.s;
    text(
        ws,
        row,
        LABEL,
        Said::new(
            format!(
                "The budget over {} random samples (seed {}), each re-planned",
                sens.samples, sens.seed
            ),
            format!(
                "预算分布（{} 个随机样本，种子 {}，每个样本重新规划）",
                sens.samples, sens.seed
            ),
        )
        .get(cx.lang),
        &s.subtitle,
    )?;
    for (label, v) in [
        (cx.t("Base budget", "基准预算"), Some(sens.base)),
        ("P10", sens.p10),
        ("P50", sens.p50),
        ("P90", sens.p90),
    ] {
        row += 1;
        text(ws, row, LABEL, label, &s.bold)?;
        match v {
            Some(v) => number(ws, row, VALUE, v, &s.money)?,
            // --samples 0: no percentiles, said so rather than shown as 0.
            None => text(
                ws,
                row,
                VALUE,
                cx.t("no samples (--samples 0)", "无样本（--samples 0）"),
                &s.bold,
            )?,
        }
    }
    Ok(row)
}

/// The tornado chart at row `at`: each key's difference from the base budget at its low and at
/// its high, cached from the tornado, the widest swing at the top.
fn insert_chart(
    ws: &mut Worksheet,
    cx: &Ctx,
    sens: &Sensitivity,
    at: u32,
) -> Result<(), XlsxError> {
    let n = sens.tornado.len() as u32;
    let sheet = cx.sheet(Tab::Sensitivity);
    let keys: Vec<Option<Point>> = sens
        .tornado
        .iter()
        .map(|t| Some(Point::Text(key_label(&t.key).pick(cx.lang))))
        .collect();
    let mut chart = Chart::new(ChartType::Bar);
    chart.title().set_name(cx.t(
        "Budget swing by key (vs the base)",
        "各参数导致的预算变化（相对基准）",
    ));
    for (col, name, pick) in [
        (DELTA_AT_LOW, cx.t("at low", "取下限"), 0),
        (DELTA_AT_HIGH, cx.t("at high", "取上限"), 1),
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
            .set_categories(cx.charts.range(sheet, 1, KEY, keys.clone()))
            .set_values(cx.charts.range(sheet, 1, col, values));
    }
    // The widest swing at the top: a bar chart lists its categories bottom-up, so its category
    // axis (rust_xlsxwriter's y axis in a bar chart) runs reversed, the value axis crossing it
    // at the last category to stay at the bottom. Reversing the value axis instead mirrored the
    // bars, a cheaper low on the right (#34 item 6).
    chart
        .y_axis()
        .set_reverse()
        .set_crossing(rust_xlsxwriter::ChartAxisCrossing::Max)
        .set_label_position(rust_xlsxwriter::ChartAxisLabelPosition::Low);
    let currency = cx.plan.input.assumptions.currency();
    chart
        .x_axis()
        .set_num_format(money_format(&currency).replace(".00", ""));
    chart.legend().set_position(ChartLegendPosition::Bottom);
    chart.set_width(620).set_height(chart_height(n));
    ws.insert_chart(at, LABEL, &chart)?;
    Ok(())
}

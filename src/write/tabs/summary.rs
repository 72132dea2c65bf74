//! Summary: the answer first — the monthly budget with and without the safety margin, the cost
//! per category, one row per workload, and charts of cost by workload, by category and by mode.

use super::live::{cell, excel_text, local_range, Live};
use super::plan_tab::{self, live_cell, live_text};
use super::tco::Layout;
use super::{at, heads_of, widths_of, Category, Col, Ctx, Extent, Tab};
use crate::labels::{Label, Said};
use crate::model::format_number;
use crate::plan::{Need, NeedSum};
use crate::write::charts::Point;
use crate::write::style::{money_format, number, text, widths};
use rust_xlsxwriter::{Chart, ChartLegendPosition, ChartType, Worksheet, XlsxError};

/// The budget table, in the sheet's first columns under the facts of the run.
const BUDGET: [Col; 2] = [
    Col::new(
        "cost_line",
        30.0,
        [
            "Cost line",
            "成本项",
            "Each hidden cost is its own line, never folded into another.",
            "每项隐性成本单列，不并入其他项。",
        ],
    ),
    Col::new(
        "amount",
        15.0,
        [
            "Monthly amount",
            "月度金额",
            "Per month, in the currency of the Assumptions sheet.",
            "每月金额，货币见参数表。",
        ],
    ),
];
const COST_LINE: u16 = at(&BUDGET, "cost_line");
const AMOUNT: u16 = at(&BUDGET, "amount");
/// The facts of the run above the budget: a label and a value a line, in the budget's columns.
const FACT_LABEL: u16 = COST_LINE;
const FACT_VALUE: u16 = AMOUNT;

/// The workload table, below the budget, from the same first column.
const WORKLOADS: [Col; 9] = [
    Col::new(
        "workload",
        30.0,
        [
            "Workload",
            "负载",
            "The workload's name from the Workloads sheet.",
            "负载表中的名称。",
        ],
    ),
    Col::new(
        "kind",
        15.0,
        ["Kind", "类型", "What it does.", "任务类型。"],
    ),
    Col::new(
        "gpu",
        // "RTX 4090 48GB @ example" whole on the printed page.
        24.0,
        [
            "GPU",
            "GPU",
            "The GPU offer chosen: the cheapest that fits.",
            "选中的 GPU 报价：能装下的最便宜方案。",
        ],
    ),
    Col::new(
        "gpus_total",
        8.0,
        [
            "GPUs",
            "GPU 数",
            "GPUs rented: instances × GPUs per replica.",
            "租用 GPU 数 = 实例数 × 单副本 GPU 数。",
        ],
    ),
    Col::new(
        "instances",
        9.0,
        [
            "Instances",
            "实例数",
            "Instances including redundancy.",
            "含冗余的实例数。",
        ],
    ),
    Col::new(
        "mode",
        // "包月保底 + 按量弹性" (base + burst in Chinese): eight wide characters and " + ".
        20.0,
        [
            "Billing mode",
            "计费方式",
            "The cheapest billing mode for this workload.",
            "最便宜的计费方式。",
        ],
    ),
    Col::new(
        "tco",
        12.0,
        [
            "Monthly TCO",
            "月度总成本",
            "GPU cost (cold starts and rework included) + storage + egress.",
            "GPU 费用（含冷启动与重跑）+ 存储 + 流量。",
        ],
    ),
    Col::new(
        "share",
        8.0,
        [
            "Share",
            "占比",
            "Share of the workloads' TCO.",
            "占全部负载成本的比例。",
        ],
    ),
    Col::new(
        "unit_cost",
        // "¥3.95/1k requests; ¥2.08/M tokens" whole.
        36.0,
        [
            "Cost per unit",
            "单位成本",
            "Monthly TCO over the work the workload gives the volume of: per 1,000 requests and per million tokens (requests_per_day, input_tokens, output_tokens), per image or clip (items_per_month), per training run (runs_per_month); as planned.",
            "月度总成本除以负载给出的工作量：每千次请求与每百万词元（requests_per_day、input_tokens、output_tokens）、每张图或每段视频（items_per_month）、每次训练（runs_per_month）；为规划时数值。",
        ],
    ),
];
const WORKLOAD: u16 = at(&WORKLOADS, "workload");
const KIND: u16 = at(&WORKLOADS, "kind");
const GPU: u16 = at(&WORKLOADS, "gpu");
const GPUS_TOTAL: u16 = at(&WORKLOADS, "gpus_total");
const INSTANCES: u16 = at(&WORKLOADS, "instances");
const MODE: u16 = at(&WORKLOADS, "mode");
const TCO: u16 = at(&WORKLOADS, "tco");
const SHARE: u16 = at(&WORKLOADS, "share");
const UNIT_COST: u16 = at(&WORKLOADS, "unit_cost");

/// The tables' last column: the workload table is the wider.
const LAST_COL: u16 = WORKLOADS.len() as u16 - 1;
const _: () = assert!(BUDGET.len() <= WORKLOADS.len());
/// The charts' column: right of the tables, past an empty one.
const CHARTS: u16 = LAST_COL + 2;

/// The sheet's column widths: the tables share their columns, each as wide as the wider of the
/// two there. Narrow enough that the tables print on one A4 page at 9 pt or more, also where
/// the default font is wider than Calibri (LibreOffice without Carlito).
fn sheet_widths() -> Vec<f64> {
    let mut w = widths_of(&WORKLOADS);
    for (c, b) in w.iter_mut().zip(widths_of(&BUDGET)) {
        *c = c.max(b);
    }
    w
}

/// Writes the Summary tab: the title and the facts of the run, the monthly budget, one row per
/// workload, and the charts to their right.
pub fn write(
    ws: &mut Worksheet,
    cx: &Ctx,
    layout: &Layout,
    live: &Live,
) -> Result<Extent, XlsxError> {
    text(
        ws,
        0,
        0,
        cx.t("GPU plan — monthly budget", "GPU 算力月度预算"),
        &cx.s.title,
    )?;
    ws.set_row_height(0, 24)?;
    let top = super::approval::write(ws, cx, layout, live, 2)?;
    let facts = facts(cx);
    for (i, (k, v)) in facts.iter().enumerate() {
        text(ws, top + 2 + i as u32, FACT_LABEL, k, &cx.s.bold)?;
        text(ws, top + 2 + i as u32, FACT_VALUE, v, &cx.s.text)?;
    }
    let budget_at = top + 2 + facts.len() as u32 + 1;
    let (first_cat, row) = write_budget(ws, cx, layout, live, budget_at)?;
    let row = super::fleet::summary_lines(ws, cx, row, COST_LINE, AMOUNT)?;
    let (first_w, last_w) = write_workloads(ws, cx, row + 2)?;
    widths(ws, &sheet_widths())?;

    // Charts to the right of the tables, inside the printed page (#34 item 1: they sat
    // outside the print area and never printed).
    ws.insert_chart(1, CHARTS, &cost_by_workload(cx, first_w))?;
    ws.insert_chart(CHART_ROWS + 1, CHARTS, &cost_by_category(cx, first_cat))?;
    let mut last_chart = 2 * CHART_ROWS + 1;
    if let Some(modes) = billing_modes(cx) {
        ws.insert_chart(2 * CHART_ROWS + 1, CHARTS, &modes)?;
        last_chart = 3 * CHART_ROWS + 1;
    }
    Ok(Extent::new(last_w.max(last_chart), CHARTS + CHART_COLS - 1))
}

/// Rows a chart takes at the default row height (288 pixels at 20 a row, and a gap).
const CHART_ROWS: u32 = 16;
/// Columns a chart takes at the default width (520 pixels at 64 a column).
const CHART_COLS: u16 = 9;

/// The facts of the run under the title: input, when, by what, the currency and how many
/// workloads were planned.
fn facts(cx: &Ctx) -> [(&'static str, String); 10] {
    let plan = cx.plan;
    let planned = plan.planned_count();
    let unplanned = plan.workloads.len() - planned;
    [
        (
            cx.t("Input file", "输入文件"),
            plan.input.file.display().to_string(),
        ),
        (cx.t("Input saved", "输入保存日期"), cx.date.to_string()),
        (
            crate::labels::layout::INPUT_SHA256.get(cx.lang),
            cx.stamp.input_sha256.clone(),
        ),
        (
            cx.t("Changed with --set", "--set 修改"),
            if cx.stamp.sets.is_empty() {
                cx.t("none", "无").to_string()
            } else {
                cx.stamp.sets_text()
            },
        ),
        (
            cx.t("Other options", "其他选项"),
            if cx.stamp.options.is_empty() {
                cx.t("none", "无").to_string()
            } else {
                cx.stamp.options_text()
            },
        ),
        (
            cx.t("Generated", "生成时间"),
            format!(
                "{} (UTC)",
                cx.stamp
                    .generated_iso()
                    .replace('T', " ")
                    .trim_end_matches('Z')
            ),
        ),
        (
            cx.t("By", "生成工具"),
            format!("gpuplan {}", cx.stamp.version),
        ),
        (
            crate::labels::layout::CURRENCY.get(cx.lang),
            plan.input.assumptions.currency(),
        ),
        (
            cx.t("Workloads", "负载"),
            Said::new(
                format!("{planned} planned, {unplanned} unplanned"),
                format!("已规划 {planned} 个，未规划 {unplanned} 个"),
            )
            .pick(cx.lang),
        ),
        (cx.t("Appendix", "附录"), appendix(cx)),
    ]
}

/// The appendix tabs this workbook has, hidden so that a print of the workbook is the approval
/// view (#34 item 2), and how to show one.
fn appendix(cx: &Ctx) -> String {
    let tabs: Vec<Label> = super::Tab::ALL
        .into_iter()
        .filter(|t| t.is_appendix() && super::shows(*t, cx.calc))
        .map(|t| t.label())
        .collect();
    let tabs = Said::join(&tabs, Label::new(", ", "、"));
    Said::new(
        format!(
            "{}: hidden, not printed (right-click a tab → Unhide)",
            tabs.en
        ),
        format!(
            "{}：已隐藏，不打印（右键单击工作表标签 → 取消隐藏）",
            tabs.zh
        ),
    )
    .pick(cx.lang)
}

/// The monthly budget from `row` down: one line per cost category, the total, the safety
/// margin and the total with it, live over the Plan and TCO tabs. Returns the first category's
/// row and the last row written.
fn write_budget(
    ws: &mut Worksheet,
    cx: &Ctx,
    layout: &Layout,
    live: &Live,
    mut row: u32,
) -> Result<(u32, u32), XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    text(
        ws,
        row,
        COST_LINE,
        cx.t("Monthly budget", "月度预算"),
        &s.subtitle,
    )?;
    row += 1;
    cx.header(ws, row, &heads_of(&BUDGET))?;
    let first_cat = row + 1;
    let tco_sheet = cx.sheet(Tab::Tco);
    for c in Category::ALL {
        row += 1;
        text(ws, row, COST_LINE, c.label().get(cx.lang), &s.text)?;
        // Live: sums over the Plan tab's cost columns, and the TCO tab's portfolio lines.
        let f = super::approval::category_formula(cx, layout, c);
        live_cell(ws, row, AMOUNT, Ok(f), c.total(plan), &s.money, cx)?;
    }
    let t = |n: NeedSum| plan.sum(n);
    row += 1;
    text(ws, row, COST_LINE, cx.t("Total", "合计"), &s.bold)?;
    let total = Ok(layout.amount(tco_sheet, layout.total));
    live_cell(ws, row, AMOUNT, total, t(NeedSum::TOTAL), &s.money_bold, cx)?;
    row += 1;
    write_margin_label(ws, cx, live, row)?;
    let margin = Ok(layout.amount(tco_sheet, layout.margin));
    let v = t(NeedSum::TOTAL_WITH_MARGIN) - t(NeedSum::TOTAL);
    live_cell(ws, row, AMOUNT, margin, v, &s.money, cx)?;
    row += 1;
    text(
        ws,
        row,
        COST_LINE,
        cx.t("Budget: total with safety margin", "预算：含安全边际总计"),
        &s.total_label,
    )?;
    let budget = Ok(layout.amount(tco_sheet, layout.with_margin));
    live_cell(
        ws,
        row,
        AMOUNT,
        budget,
        t(NeedSum::TOTAL_WITH_MARGIN),
        &s.money_total,
        cx,
    )?;
    ws.set_row_height(row, 22)?;
    Ok((first_cat, row))
}

/// `Safety margin (20%)` at `row`: live where the margin is editable, so the label follows an
/// edit of it.
fn write_margin_label(
    ws: &mut Worksheet,
    cx: &Ctx,
    live: &Live,
    row: u32,
) -> Result<(), XlsxError> {
    let margin = cx.plan.input.assumptions.number("safety_margin", 0.0);
    let label = cx.t("Safety margin", "安全边际");
    let m = format!(
        "{label} ({}%)",
        format_number((margin * 100.0 * 100.0).round() / 100.0)
    );
    match live.assumption_cell("safety_margin") {
        Some(at) => live_text(
            ws,
            row,
            COST_LINE,
            &format!(
                "{}&ROUND({at}*100,2)&\"%)\"",
                excel_text(&format!("{label} ("))
            ),
            &m,
            &cx.s.text,
        ),
        None => text(ws, row, COST_LINE, &m, &cx.s.text),
    }
}

/// The workload table from `row` down (a title, the header, one row per workload). Returns
/// the first and last workload rows.
fn write_workloads(ws: &mut Worksheet, cx: &Ctx, mut row: u32) -> Result<(u32, u32), XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    text(ws, row, WORKLOAD, cx.t("Workloads", "负载"), &s.subtitle)?;
    row += 1;
    cx.header(ws, row, &heads_of(&WORKLOADS))?;
    let first_w = row + 1;
    let sum_tco: f64 = (0..plan.workloads.len())
        .filter_map(|w| cx.chosen(w))
        .map(|(_, ch)| ch.tco)
        .sum();
    let n = plan.workloads.len() as u32;
    // Each share over the whole column of TCOs.
    let tcos = local_range(first_w, first_w + n - 1, TCO);
    for (i, w) in plan.input.workloads.iter().enumerate() {
        row += 1;
        text(ws, row, WORKLOAD, &w.name, &s.text)?;
        text(ws, row, KIND, w.kind.label().get(cx.lang), &s.text)?;
        match cx.chosen(i) {
            Some((c, ch)) => {
                text(ws, row, GPU, &plan.input.gpus[c.offer].label(), &s.text)?;
                // Centred, so that a count does not run into the billing mode's text.
                number(
                    ws,
                    row,
                    GPUS_TOTAL,
                    plan.need(c, Need::GPUS_TOTAL),
                    &s.count,
                )?;
                number(ws, row, INSTANCES, plan.need(c, Need::INSTANCES), &s.count)?;
                text(ws, row, MODE, ch.mode.label(cx.lang), &s.text)?;
                let at = plan_tab::cell_of(cx, i, plan_tab::TCO);
                live_cell(ws, row, TCO, Ok(at), ch.tco, &s.money, cx)?;
                let share = format!("IF(SUM({tcos})=0,0,{}/SUM({tcos}))", cell(None, row, TCO));
                let v = if sum_tco > 0.0 { ch.tco / sum_tco } else { 0.0 };
                live_cell(ws, row, SHARE, Ok(share), v, &s.pct, cx)?;
                let currency = plan.input.assumptions.currency();
                let units: Vec<String> = plan
                    .unit_costs(i)
                    .iter()
                    .map(|u| {
                        format!(
                            "{}{}",
                            unit_money(&currency, u.amount),
                            u.per.label().get(cx.lang)
                        )
                    })
                    .collect();
                if !units.is_empty() {
                    let sep = Label::new("; ", "；").get(cx.lang);
                    // Indented off the share's figure to its left.
                    let fmt = s.text.clone().set_indent(1);
                    text(ws, row, UNIT_COST, &units.join(sep), &fmt)?;
                }
            }
            None => {
                text(
                    ws,
                    row,
                    GPU,
                    cx.t("unplanned: see Warnings", "未规划：见提示页"),
                    &s.bad,
                )?;
            }
        }
    }
    Ok((first_w, row))
}

/// A unit cost in the plan's currency: to the cent from a cent up, with four significant
/// digits below it (¥0.0042 per million tokens is not ¥0.00).
fn unit_money(currency: &str, v: f64) -> String {
    if v >= 0.01 {
        crate::model::money(currency, v)
    } else {
        let symbol = crate::model::currency_symbol(currency).map_or("", |(s, _)| s);
        let digits = (2 - v.log10().floor() as i32 + 2).clamp(2, 10) as usize;
        format!("{symbol}{v:.digits$}")
    }
}

/// Each workload's name, the categories of the charts by workload.
fn workload_names(cx: &Ctx) -> Vec<Option<Point>> {
    cx.plan
        .input
        .workloads
        .iter()
        .map(|w| Some(Point::Text(w.name.clone())))
        .collect()
}

/// A bar chart of each workload's monthly TCO, over the workload table from `first_w`.
fn cost_by_workload(cx: &Ctx, first_w: u32) -> Chart {
    let plan = cx.plan;
    let sheet = cx.sheet(Tab::Summary);
    let mut chart = Chart::new(ChartType::Bar);
    chart
        .title()
        .set_name(cx.t("Monthly cost by workload", "各负载月度成本"));
    let tcos = (0..plan.workloads.len())
        .map(|i| cx.chosen(i).map(|(_, ch)| Point::Number(ch.tco)))
        .collect();
    chart
        .add_series()
        .set_name(cx.t("Monthly TCO", "月度总成本"))
        .set_categories(
            cx.charts
                .range(sheet, first_w, WORKLOAD, workload_names(cx)),
        )
        .set_values(cx.charts.range(sheet, first_w, TCO, tcos));
    chart.legend().set_hidden();
    // In thousands (¥16k): whole amounts ran together along the axis ("¥9,000¥10,000").
    chart
        .x_axis()
        .set_num_format(money_format(&plan.input.assumptions.currency()).replace(".00", ",\"k\""));
    chart.set_width(520).set_height(300);
    chart
}

/// A pie chart of the cost categories, over the budget table from `first_cat`.
fn cost_by_category(cx: &Ctx, first_cat: u32) -> Chart {
    let sheet = cx.sheet(Tab::Summary);
    let mut chart = Chart::new(ChartType::Pie);
    chart.title().set_name(cx.t("Cost by category", "成本构成"));
    chart
        .add_series()
        .set_categories(
            cx.charts.range(
                sheet,
                first_cat,
                COST_LINE,
                Category::ALL
                    .iter()
                    .map(|c| Some(Point::Text(c.label().get(cx.lang).to_string())))
                    .collect(),
            ),
        )
        .set_values(
            cx.charts.range(
                sheet,
                first_cat,
                AMOUNT,
                Category::ALL
                    .iter()
                    .map(|c| Some(Point::Number(c.total(cx.plan))))
                    .collect(),
            ),
        );
    chart.legend().set_position(ChartLegendPosition::Right);
    chart.set_width(520).set_height(300);
    chart
}

/// A column chart of each workload's cost in every billing mode, over the Billing tab; `None`
/// when there is no workload.
fn billing_modes(cx: &Ctx) -> Option<Chart> {
    let plan = cx.plan;
    if plan.workloads.is_empty() {
        return None;
    }
    let billing = cx.sheet(Tab::Billing);
    let mut chart = Chart::new(ChartType::Column);
    chart
        .title()
        .set_name(cx.t("Billing modes compared", "计费方式对比"));
    // The Billing tab's columns: its workloads' names and its modes' costs.
    for (k, m) in crate::plan::Mode::ALL.iter().enumerate() {
        let col = super::billing::FIRST_MODE + k as u16;
        let costs = (0..plan.workloads.len())
            .map(|i| {
                cx.chosen(i)
                    .and_then(|(c, _)| c.cost(*m))
                    .map(Point::Number)
            })
            .collect();
        chart
            .add_series()
            .set_name(m.label(cx.lang))
            .set_categories(cx.charts.range(
                billing,
                1,
                super::billing::WORKLOAD,
                workload_names(cx),
            ))
            .set_values(cx.charts.range(billing, 1, col, costs));
    }
    chart.legend().set_position(ChartLegendPosition::Bottom);
    chart
        .y_axis()
        .set_num_format(money_format(&plan.input.assumptions.currency()).replace(".00", ""));
    chart.set_width(520).set_height(320);
    Some(chart)
}

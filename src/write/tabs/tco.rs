//! TCO: every cost line (category, workload, amount), hidden costs each on its own line, then
//! the portfolio lines, the total and the total with the safety margin — all live formulas over
//! the Plan tab and the Assumptions tab.

use super::live::{absolute, Live};
use super::plan_tab::{self, live_cell};
use super::{at, heads_of, widths_of, Category, Col, Ctx, Extent, Tab};
use crate::labels::layout::{TOTAL, TOTAL_WITH_MARGIN};
use crate::model::Scope;
use crate::plan::{Hidden, Mode};
use crate::write::style::{text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};
use std::collections::HashMap;

/// Where everything is on the TCO tab (0-based rows; amounts in the [`AMOUNT`] column).
pub struct Layout {
    /// (category, workload, row)
    pub lines: Vec<(Category, Option<usize>, u32)>,
    /// Portfolio formula → row.
    pub portfolio: Vec<(String, u32)>,
    pub total: u32,
    pub margin: u32,
    pub with_margin: u32,
    /// Row of the heading above the other portfolio figures, if any.
    pub others_heading: Option<u32>,
}

/// The columns: key, width and `[English, Chinese, note in English, note in Chinese]`.
const COLUMNS: [Col; 3] = [
    Col::new(
        "category",
        34.0,
        [
            "Category",
            "类别",
            "GPU time, cold starts and rounding, spot rework, storage, egress, trial reserve, ops labour.",
            "GPU 计算、冷启动与取整、竞价重跑、存储、流量、试错预留、运维人力。",
        ],
    ),
    Col::new(
        "workload",
        24.0,
        [
            "Workload",
            "负载",
            "The workload the line belongs to; blank for portfolio lines.",
            "所属负载；汇总项为空。",
        ],
    ),
    Col::new(
        "amount",
        18.0,
        [
            "Monthly amount",
            "月度金额",
            "Per month; live formulas over the Plan and Assumptions tabs.",
            "每月金额；引用方案页与参数页的实时公式。",
        ],
    ),
];
/// A line's label: its category, a total's name or a portfolio figure's.
const CATEGORY: u16 = at(&COLUMNS, "category");
const WORKLOAD: u16 = at(&COLUMNS, "workload");
const AMOUNT: u16 = at(&COLUMNS, "amount");
/// The last column.
const LAST: u16 = COLUMNS.len() as u16 - 1;

const MAIN: [&str; 5] = [
    "trial_reserve_cost",
    "ops_cost",
    "total",
    "safety_margin_cost",
    "total_with_margin",
];

fn shows(c: Category, mode: Mode) -> bool {
    match c {
        Category::GpuTime | Category::Storage | Category::Egress => true,
        Category::ColdStart => mode.hidden_formula(Hidden::ColdStarts).is_some(),
        Category::SpotRework => mode.hidden_formula(Hidden::Rework).is_some(),
        Category::TrialReserve | Category::Ops => false,
    }
}

impl Layout {
    pub fn new(cx: &Ctx) -> Layout {
        let plan = cx.plan;
        let mut lines = Vec::new();
        let mut portfolio: Vec<(String, u32)> = Vec::new();
        let mut r = 0;
        for c in Category::ALL {
            for i in 0..plan.workloads.len() {
                let Some((_, ch)) = cx.chosen(i) else {
                    continue;
                };
                // Cold-start and rework lines show for the modes that have them, even at zero, so
                // an edited assumption has a line to land on.
                if shows(c, ch.mode) || c.of_workload(ch).abs() > 1e-9 {
                    r += 1;
                    lines.push((c, Some(i), r));
                }
            }
            if let Some(n) = c.portfolio_name() {
                r += 1;
                lines.push((c, None, r));
                portfolio.push((n.name().to_string(), r));
            }
        }
        let (total, margin, with_margin) = (r + 2, r + 3, r + 4);
        portfolio.push(("total".into(), total));
        portfolio.push(("safety_margin_cost".into(), margin));
        portfolio.push(("total_with_margin".into(), with_margin));
        let others: Vec<String> = plan
            .input
            .formulas
            .iter()
            .filter(|f| f.scope == Scope::Portfolio && !MAIN.contains(&f.name.as_str()))
            .map(|f| f.name.clone())
            .collect();
        let others_heading = (!others.is_empty()).then_some(with_margin + 2);
        for (k, name) in others.into_iter().enumerate() {
            portfolio.push((name, with_margin + 3 + k as u32));
        }
        Layout {
            lines,
            portfolio,
            total,
            margin,
            with_margin,
            others_heading,
        }
    }

    pub fn amount(&self, sheet: &str, row: u32) -> String {
        absolute(sheet, row, AMOUNT)
    }
}

/// `total_<name>` as a SUM over a Plan column, where the Plan tab has one.
fn plan_sum(cx: &Ctx, name: &str) -> Option<String> {
    plan_tab::range_named(cx, name).map(|r| format!("SUM({r})"))
}

/// Writes the TCO tab: the header, each cost line, the total, margin and total with margin, and
/// the other portfolio figures, where `layout` placed them.
pub fn write(
    ws: &mut Worksheet,
    cx: &Ctx,
    live: &Live,
    layout: &Layout,
) -> Result<Extent, XlsxError> {
    cx.header(ws, 0, &heads_of(&COLUMNS))?;
    let tab = TcoTab::new(cx, live, layout);
    tab.write_lines(ws)?;
    tab.write_totals(ws)?;
    tab.write_others(ws)?;
    let last = layout
        .portfolio
        .iter()
        .map(|(_, r)| *r)
        .max()
        .unwrap_or(layout.with_margin);
    // The priced line items below, their columns past these three.
    let last = super::line_items::write(ws, cx, last + 3)?;
    let mut w = widths_of(&COLUMNS);
    w.extend(super::line_items::WIDTHS);
    widths(ws, &w)?;
    ws.set_freeze_panes(1, 0)?;
    Ok(Extent::new(
        last,
        LAST + super::line_items::WIDTHS.len() as u16,
    ))
}

/// What the TCO tab's sections share: the context, the layout, this tab's name and each
/// portfolio figure's amount cell, which the portfolio formulas refer to.
struct TcoTab<'a> {
    cx: &'a Ctx<'a>,
    live: &'a Live,
    layout: &'a Layout,
    /// This tab's name.
    me: &'static str,
    /// Portfolio formula → its amount cell on this tab.
    cells: HashMap<String, String>,
}

impl<'a> TcoTab<'a> {
    /// The shared context, with the amount cell of every portfolio figure of `layout`.
    fn new(cx: &'a Ctx<'a>, live: &'a Live, layout: &'a Layout) -> TcoTab<'a> {
        let me = cx.sheet(Tab::Tco);
        let cells = layout
            .portfolio
            .iter()
            .map(|(n, r)| (n.clone(), layout.amount(me, *r)))
            .collect();
        TcoTab {
            cx,
            live,
            layout,
            me,
            cells,
        }
    }

    /// The amount of the portfolio figure `name` at `row`: the live formula where the input has
    /// that portfolio formula (the safety margin otherwise as the difference of the totals),
    /// the total with margin in the total's format, bold where asked.
    fn portfolio_cell(
        &self,
        ws: &mut Worksheet,
        row: u32,
        name: &str,
        bold: bool,
    ) -> Result<(), XlsxError> {
        let cx = self.cx;
        let s = &cx.s;
        let plan = cx.plan;
        let layout = self.layout;
        let sums = |name: &str| plan_sum(cx, name);
        let value = |v: &str| plan.totals.variable(v);
        let f = if plan
            .input
            .formulas
            .iter()
            .any(|f| f.name == name && f.scope == Scope::Portfolio)
        {
            self.live.portfolio(name, &sums, &self.cells, &value)
        } else if name == "safety_margin_cost" {
            Ok(format!(
                "{}-{}",
                layout.amount(self.me, layout.with_margin),
                layout.amount(self.me, layout.total)
            ))
        } else {
            Err(format!("no portfolio formula {name}"))
        };
        let v = plan.totals.line(name);
        let fmt = if name == "total_with_margin" {
            &s.money_total
        } else if bold {
            &s.money_bold
        } else {
            &s.money
        };
        live_cell(ws, row, AMOUNT, f, v, fmt, cx)
    }

    /// Each cost line: its category, and either a portfolio figure or the workload with its
    /// amount live over the Plan tab's row.
    fn write_lines(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let cx = self.cx;
        let s = &cx.s;
        for (c, w, row) in &self.layout.lines {
            text(ws, *row, CATEGORY, c.label().get(cx.lang), &s.text)?;
            if let Some(n) = c.portfolio_name() {
                self.portfolio_cell(ws, *row, n.name(), false)?;
                continue;
            }
            let Some((i, (_, ch))) = w.and_then(|i| Some((i, cx.chosen(i)?))) else {
                continue;
            };
            text(
                ws,
                *row,
                WORKLOAD,
                &cx.plan.input.workloads[i].name,
                &s.text,
            )?;
            let at = |col: u16| plan_tab::cell_of(cx, i, col);
            let f = c
                .plan_formula(at)
                .ok_or_else(|| format!("{c:?} is not a per-workload line"));
            live_cell(ws, *row, AMOUNT, f, c.of_workload(ch), &s.money, cx)?;
        }
        Ok(())
    }

    /// The total, the safety margin and the total with the safety margin.
    fn write_totals(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let cx = self.cx;
        let s = &cx.s;
        let layout = self.layout;
        for (row, label, name, bold) in [
            (layout.total, TOTAL.get(cx.lang), "total", true),
            (
                layout.margin,
                cx.t("Safety margin", "安全边际"),
                "safety_margin_cost",
                false,
            ),
            (
                layout.with_margin,
                TOTAL_WITH_MARGIN.get(cx.lang),
                "total_with_margin",
                true,
            ),
        ] {
            text(
                ws,
                row,
                CATEGORY,
                label,
                if bold { &s.bold } else { &s.text },
            )?;
            self.portfolio_cell(ws, row, name, bold)?;
        }
        Ok(())
    }

    /// The input's other portfolio formulas under their heading, if it has any.
    fn write_others(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let cx = self.cx;
        let s = &cx.s;
        let Some(h) = self.layout.others_heading else {
            return Ok(());
        };
        text(
            ws,
            h,
            CATEGORY,
            cx.t("Portfolio figures", "汇总指标"),
            &s.subtitle,
        )?;
        for (name, row) in self
            .layout
            .portfolio
            .iter()
            .filter(|(n, _)| !MAIN.contains(&n.as_str()))
        {
            text(ws, *row, CATEGORY, name, &s.text)?;
            self.portfolio_cell(ws, *row, name, false)?;
        }
        Ok(())
    }
}

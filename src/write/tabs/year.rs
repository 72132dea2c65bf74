//! Year: twelve months from `plan_start` — each workload's monthly TCO in the months it costs,
//! the cost lines and the portfolio formulas month by month, the reserved spend a term commits,
//! and the annual total; live formulas over the Plan tab and a grid of the months each workload
//! runs, which finance may edit (1 runs, 0 not) to move a ramp-up or an end.

use super::live::{cell, Live};
use super::plan_tab::{self, live_cell};
use super::{at, heads_of, widths_of, workload_col, Category, Col, Ctx, Extent};
use crate::formula::cents;
use crate::plan::year::MONTHS;
use crate::plan::Mode;
use crate::write::style::{number, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};
use std::collections::HashMap;

/// The columns before the months.
const LEAD: [Col; 3] = [
    workload_col(28.0),
    Col::new(
        "start_month",
        9.0,
        [
            "Start",
            "开始",
            "start_month of the Workloads sheet (blank: the first month).",
            "负载表 start_month（空白表示首月）。",
        ],
    ),
    Col::new(
        "end_month",
        9.0,
        [
            "End",
            "结束",
            "end_month of the Workloads sheet (blank: the last month); a reserved term may bind longer.",
            "负载表 end_month（空白表示末月）；预留期限可能更长。",
        ],
    ),
];
const WORKLOAD: u16 = at(&LEAD, "workload");
const START_MONTH: u16 = at(&LEAD, "start_month");
const END_MONTH: u16 = at(&LEAD, "end_month");
/// The lines below the workloads (cost lines, portfolio lines, the committed spend) and the
/// grids of months: their titles and labels in the workload column.
const LABEL: u16 = WORKLOAD;

/// Each month's column, twelve from `plan_start`: its width and what it means `(English,
/// Chinese)`; the header is the month's label. The grids below use the same columns.
const MONTH: (f64, &str, &str) = (
    12.0,
    "Live: the Plan tab's monthly TCO × the month's 1/0 in the grid below.",
    "实时公式：方案页月度总成本 × 下方表格中该月的 1/0。",
);
/// The columns of the months.
const FIRST_MONTH: u16 = LEAD.len() as u16;
const LAST_MONTH: u16 = FIRST_MONTH + MONTHS as u16 - 1;

/// The columns after the months.
const AFTER_MONTHS: [Col; 1] = [Col::new(
    "annual",
    14.0,
    ["Year", "全年", "The twelve months' sum.", "十二个月合计。"],
)];
const ANNUAL: u16 = LAST_MONTH + 1 + at(&AFTER_MONTHS, "annual");

/// The portfolio lines after the per-workload categories, in order.
const PORTFOLIO: [(&str, &str, &str); 5] = [
    ("trial_reserve_cost", "Trial-and-error reserve", "试错预留"),
    ("ops_cost", "Ops labour", "运维人力"),
    ("total", "Total", "合计"),
    ("safety_margin_cost", "Safety margin", "安全边际"),
    (
        "total_with_margin",
        "Total with safety margin",
        "含安全边际总计",
    ),
];

/// Writes the Year tab: the header, one row per workload, the cost lines and the portfolio
/// lines month by month, the reserved spend committed, and the grids of months below.
pub fn write(ws: &mut Worksheet, cx: &Ctx, live: &Live) -> Result<Extent, XlsxError> {
    let tab = YearTab::new(cx, live);
    tab.write_header(ws)?;
    tab.write_workloads(ws)?;
    let row = tab.write_cost_lines(ws)?;
    tab.write_portfolio_lines(ws, row)?;
    tab.write_committed(ws, row + PORTFOLIO.len() as u32)?;
    tab.write_grids(ws)?;
    widths(ws, &column_widths())?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(tab.committed_first + tab.n.max(1) - 1, ANNUAL))
}

/// The Year tab's annual budget, the twelve months' total with safety margin: its absolute cell
/// and its value, for the Summary's approval block.
pub(super) fn annual_budget(cx: &Ctx, live: &Live) -> (String, f64) {
    let tab = YearTab::new(cx, live);
    let per_workload = Category::ALL
        .iter()
        .filter(|c| c.portfolio_name().is_none())
        .count() as u32;
    let at = PORTFOLIO
        .iter()
        .position(|(name, ..)| *name == "total_with_margin")
        .unwrap_or(PORTFOLIO.len() - 1) as u32;
    let row = tab.lines_first + per_workload + at;
    let value = cents(
        (0..MONTHS)
            .map(|k| cx.plan.year.months[k].line("total_with_margin"))
            .sum(),
    );
    (
        super::live::absolute(cx.sheet(super::Tab::Year), row, ANNUAL),
        value,
    )
}

/// What the Year tab's sections share: the context, the month labels, and where each block
/// is (0-based rows).
struct YearTab<'a> {
    cx: &'a Ctx<'a>,
    live: &'a Live,
    month_labels: Vec<String>,
    /// Workloads.
    n: u32,
    /// The first cost line.
    lines_first: u32,
    /// The first row of the grid of months each workload costs in, below everything else.
    grid_first: u32,
    /// The first row of the grid of months a reserved term commits.
    committed_first: u32,
}

impl<'a> YearTab<'a> {
    /// Lays the tab out for the plan's workloads: the cost lines below them, then the grids.
    fn new(cx: &'a Ctx<'a>, live: &'a Live) -> YearTab<'a> {
        let year = &cx.plan.year;
        let n = cx.plan.workloads.len() as u32;
        let lines_first = n + 3;
        // The cost lines, the portfolio lines, then the committed and pay-as-you-go GPUs.
        let lines = Category::ALL.len() as u32 - 2 + PORTFOLIO.len() as u32 + 2;
        let grid_first = lines_first + lines + 3;
        YearTab {
            cx,
            live,
            month_labels: (0..MONTHS).map(|k| year.month(k).to_string()).collect(),
            n,
            lines_first,
            grid_first,
            committed_first: grid_first + n.max(1) + 3,
        }
    }

    /// The cell of the grid from row `grid` that says whether workload `w` counts in month `k`.
    fn flag(&self, grid: u32, w: usize, k: usize) -> String {
        cell(None, grid + w as u32, FIRST_MONTH + k as u16)
    }

    /// Month `k`'s column of the grid from row `grid`, over every workload.
    fn flag_range(&self, grid: u32, k: usize) -> String {
        let c = crate::model::column_letters((FIRST_MONTH + k as u16).into());
        format!("${c}${}:${c}${}", grid + 1, grid + self.n)
    }

    /// The header: the workload, its start and end, the twelve months and the year.
    fn write_header(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let mut cols: Vec<[&str; 4]> = heads_of(&LEAD);
        let (_, ne, nz) = MONTH;
        for m in &self.month_labels {
            cols.push([m, m, ne, nz]);
        }
        cols.extend(heads_of(&AFTER_MONTHS));
        self.cx.header(ws, 0, &cols)
    }

    /// One row per workload: its TCO in the months it costs.
    fn write_workloads(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let cx = self.cx;
        let s = &cx.s;
        let year = &cx.plan.year;
        for (i, w) in cx.plan.input.workloads.iter().enumerate() {
            let r = i as u32 + 1;
            text(ws, r, WORKLOAD, &w.name, &s.text)?;
            text(
                ws,
                r,
                START_MONTH,
                &w.start_month.map_or(String::new(), |m| m.to_string()),
                &s.text,
            )?;
            text(
                ws,
                r,
                END_MONTH,
                &w.end_month.map_or(String::new(), |m| m.to_string()),
                &s.text,
            )?;
            let Some((_, ch)) = cx.chosen(i) else {
                text(
                    ws,
                    r,
                    FIRST_MONTH,
                    crate::labels::layout::UNPLANNED.get(cx.lang),
                    &s.bad,
                )?;
                continue;
            };
            let tco = plan_tab::absolute_of(cx, i, plan_tab::TCO);
            let mut annual = 0.0;
            for k in 0..MONTHS {
                let on = year.costs[i][k];
                let v = if on { ch.tco } else { 0.0 };
                annual += v;
                let f = format!("{tco}*{}", self.flag(self.grid_first, i, k));
                live_cell(ws, r, FIRST_MONTH + k as u16, Ok(f), v, &s.money, cx)?;
            }
            live_cell(
                ws,
                r,
                ANNUAL,
                Ok(sum_row(r)),
                cents(annual),
                &s.money_bold,
                cx,
            )?;
        }
        Ok(())
    }

    /// The per-workload cost lines month by month, under their title; returns the row after
    /// the last.
    fn write_cost_lines(&self, ws: &mut Worksheet) -> Result<u32, XlsxError> {
        let cx = self.cx;
        let s = &cx.s;
        let year = &cx.plan.year;
        let mut row = self.lines_first;
        text(
            ws,
            row - 1,
            LABEL,
            cx.t("Cost lines by month", "按月成本项"),
            &s.subtitle,
        )?;
        for c in Category::ALL
            .iter()
            .filter(|c| c.portfolio_name().is_none())
        {
            text(ws, row, LABEL, c.label().get(cx.lang), &s.text)?;
            let mut annual = 0.0;
            for k in 0..MONTHS {
                let v: f64 = (0..cx.plan.workloads.len())
                    .filter(|w| year.costs[*w][k])
                    .filter_map(|w| cx.chosen(w))
                    .map(|(_, ch)| c.of_workload(ch))
                    .sum();
                annual += v;
                let f = c
                    .plan_formula(|col| match plan_tab::range_of(cx, col) {
                        Some(r) => {
                            format!("SUMPRODUCT({r},{})", self.flag_range(self.grid_first, k))
                        }
                        None => "0".to_string(),
                    })
                    .ok_or_else(|| "not a per-workload line".to_string());
                live_cell(ws, row, FIRST_MONTH + k as u16, f, v, &s.money, cx)?;
            }
            live_cell(
                ws,
                row,
                ANNUAL,
                Ok(sum_row(row)),
                cents(annual),
                &s.money_bold,
                cx,
            )?;
            row += 1;
        }
        Ok(row)
    }

    /// The portfolio lines from `row`: each month's over that month's sums.
    fn write_portfolio_lines(&self, ws: &mut Worksheet, row: u32) -> Result<(), XlsxError> {
        let cx = self.cx;
        let s = &cx.s;
        let year = &cx.plan.year;
        let portfolio_rows: HashMap<&str, u32> = PORTFOLIO
            .iter()
            .enumerate()
            .map(|(j, (name, ..))| (*name, row + j as u32))
            .collect();
        for (j, (name, en, zh)) in PORTFOLIO.iter().enumerate() {
            let r = row + j as u32;
            let bold = matches!(*name, "total" | "total_with_margin");
            text(
                ws,
                r,
                LABEL,
                cx.t(en, zh),
                if bold { &s.bold } else { &s.text },
            )?;
            let mut annual = 0.0;
            for k in 0..MONTHS {
                let f = self.portfolio_formula(name, &portfolio_rows, k);
                let v = year.months[k].line(name);
                annual += v;
                let fmt = if *name == "total_with_margin" {
                    &s.money_bold
                } else {
                    &s.money
                };
                live_cell(ws, r, FIRST_MONTH + k as u16, f, v, fmt, cx)?;
            }
            let fmt = if *name == "total_with_margin" {
                &s.money_total
            } else if bold {
                &s.money_bold
            } else {
                &s.money
            };
            live_cell(ws, r, ANNUAL, Ok(sum_row(r)), cents(annual), fmt, cx)?;
        }
        Ok(())
    }

    /// The live formula of portfolio line `name` in month `k`: the plan's portfolio formula over
    /// the month's sums of the Plan tab and the month's cells of the lines at `portfolio_rows`;
    /// the safety margin as the difference of the totals where no formula gives it.
    fn portfolio_formula(
        &self,
        name: &str,
        portfolio_rows: &HashMap<&str, u32>,
        k: usize,
    ) -> Result<String, String> {
        let cx = self.cx;
        let year = &cx.plan.year;
        let cells: HashMap<String, String> = portfolio_rows
            .iter()
            .map(|(n, pr)| (n.to_string(), cell(None, *pr, FIRST_MONTH + k as u16)))
            .collect();
        let sums = |key: &str| {
            plan_tab::range_named(cx, key)
                .map(|r| format!("SUMPRODUCT({r},{})", self.flag_range(self.grid_first, k)))
        };
        let value = |v: &str| year.months[k].variable(v);
        let has_formula = cx
            .plan
            .input
            .formulas
            .iter()
            .any(|f| f.name == *name && f.scope == crate::model::Scope::Portfolio);
        if has_formula {
            self.live.portfolio(name, &sums, &cells, &value)
        } else if name == "safety_margin_cost" {
            Ok(format!("{}-{}", cells["total_with_margin"], cells["total"]))
        } else {
            Err(format!("no portfolio formula {name}"))
        }
    }

    /// The GPU spend month by month in two rows from `row`: committed (monthly and reserved
    /// cards, a base-plus-burst service's base: [`committed_formula`]) and pay-as-you-go (the
    /// rest of the GPU cost), each over the months a workload costs in. The Summary's
    /// committed and pay-as-you-go lines are the budget month's, and JSON `year.months[]`
    /// carries the same figures.
    fn write_committed(&self, ws: &mut Worksheet, row: u32) -> Result<(), XlsxError> {
        let cx = self.cx;
        let s = &cx.s;
        let plan = cx.plan;
        let labels = [
            cx.t("Of the GPUs: committed", "其中 GPU：承诺性支出"),
            cx.t("Of the GPUs: pay-as-you-go", "其中 GPU：按用量支出"),
        ];
        // Rows in order: the tab streams in constant-memory mode.
        let months: Vec<(f64, f64)> = (0..MONTHS).map(|k| plan.month_gpus(k)).collect();
        text(ws, row, LABEL, labels[0], &s.muted)?;
        for (k, (committed, _)) in months.iter().enumerate() {
            let range = self.flag_range(self.grid_first, k);
            let flag = |w: usize| self.flag(self.grid_first, w, k);
            let f = committed_formula(cx, Some((&range, &flag)));
            live_cell(
                ws,
                row,
                FIRST_MONTH + k as u16,
                Ok(f),
                *committed,
                &s.money,
                cx,
            )?;
        }
        let year: f64 = months.iter().map(|m| m.0).sum();
        live_cell(ws, row, ANNUAL, Ok(sum_row(row)), cents(year), &s.money, cx)?;
        text(ws, row + 1, LABEL, labels[1], &s.muted)?;
        for (k, (_, payg)) in months.iter().enumerate() {
            let col = FIRST_MONTH + k as u16;
            let range = self.flag_range(self.grid_first, k);
            let f = plan_tab::range_of(cx, plan_tab::GPU_COST)
                .map(|r| format!("SUMPRODUCT({r},{range})-{}", cell(None, row, col)))
                .ok_or_else(|| "no workloads".to_string());
            live_cell(ws, row + 1, col, f, *payg, &s.money, cx)?;
        }
        let year: f64 = months.iter().map(|m| m.1).sum();
        live_cell(
            ws,
            row + 1,
            ANNUAL,
            Ok(sum_row(row + 1)),
            cents(year),
            &s.money,
            cx,
        )
    }

    /// The grids: 1 where the workload costs (editable), 1 where a reserved term commits. Rows
    /// are written in order (the tab streams in constant-memory mode).
    fn write_grids(&self, ws: &mut Worksheet) -> Result<(), XlsxError> {
        let cx = self.cx;
        let s = &cx.s;
        let year = &cx.plan.year;
        let titles = [
            cx.t(
                "Months each workload costs in: 1 yes, 0 no (from start_month, end_month and reserved terms; edit to move a ramp-up or an end)",
                "各负载计费月份：1 是，0 否（来自 start_month、end_month 与预留期限；可修改以调整上线或结束月份）",
            ),
            cx.t(
                "Months a reserved term commits: 1 yes (reserved_term_months of the offer, from the workload's start)",
                "预留期限承诺月份：1 是（报价的 reserved_term_months，自负载开始起算）",
            ),
        ];
        for (title, (first, grid, editable)) in titles.iter().zip([
            (self.grid_first, &year.costs, true),
            (self.committed_first, &year.committed, false),
        ]) {
            text(ws, first - 2, LABEL, title, &s.subtitle)?;
            text(ws, first - 1, LABEL, cx.t("Workload", "负载"), &s.header)?;
            for (k, m) in self.month_labels.iter().enumerate() {
                text(ws, first - 1, FIRST_MONTH + k as u16, m, &s.header)?;
            }
            for (i, w) in cx.plan.input.workloads.iter().enumerate() {
                let r = first + i as u32;
                text(ws, r, LABEL, &w.name, &s.text)?;
                for (k, on) in grid[i].iter().enumerate() {
                    let v = f64::from(u8::from(*on));
                    let fmt = if editable {
                        &s.input_integer
                    } else {
                        &s.integer
                    };
                    number(ws, r, FIRST_MONTH + k as u16, v, fmt)?;
                }
            }
        }
        Ok(())
    }
}

/// The width of every column, in the header's order.
fn column_widths() -> Vec<f64> {
    let mut w = widths_of(&LEAD);
    w.extend(std::iter::repeat_n(MONTH.0, MONTHS));
    w.extend(widths_of(&AFTER_MONTHS));
    w
}

/// The SUM of row `r`'s twelve months.
fn sum_row(r: u32) -> String {
    format!(
        "SUM({}:{})",
        cell(None, r, FIRST_MONTH),
        cell(None, r, LAST_MONTH)
    )
}

/// The committed GPUs ([`Plan::committed`](crate::plan::Plan::committed)) as a live formula:
/// the Plan tab's GPU cost of its rows in a committed mode (monthly, reserved: by the Billing
/// mode column), and
/// each base-plus-burst row's base cards at the row's monthly price. With `flags` (the Year
/// tab: a month's column of the costs-in grid, and the cell of workload `w` in it) each
/// workload's part counts in the months it costs in.
pub fn committed_formula(cx: &Ctx, flags: Option<(&str, &dyn Fn(usize) -> String)>) -> String {
    let plan = cx.plan;
    let mut parts = Vec::new();
    if let (Some(modes), Some(costs)) = (
        plan_tab::range_of(cx, plan_tab::MODE),
        plan_tab::range_of(cx, plan_tab::GPU_COST),
    ) {
        let labels: Vec<String> = Mode::ALL
            .into_iter()
            .filter(|m| m.is_committed())
            .map(|m| super::live::excel_text(m.label(cx.lang)))
            .collect();
        parts.push(match flags {
            None => labels
                .iter()
                .map(|l| format!("SUMIF({modes},{l},{costs})"))
                .collect::<Vec<_>>()
                .join("+"),
            Some((range, _)) => {
                let any: Vec<String> = labels.iter().map(|l| format!("({modes}={l})")).collect();
                format!("SUMPRODUCT({costs},{},{range})", any.join("+"))
            }
        });
    }
    let sheet = cx.sheet(crate::labels::layout::Tab::Plan);
    for w in 0..plan.workloads.len() {
        let Some((c, ch)) = cx.chosen(w) else {
            continue;
        };
        if ch.mode != Mode::Mixed {
            continue;
        }
        if let Some((cards, _)) = plan.base_cards(c).filter(|(k, _)| *k > 0.0) {
            let price = super::live::absolute(sheet, plan_tab::row(w), plan_tab::PRICE_MONTHLY);
            parts.push(match flags {
                None => format!("{cards}*{price}"),
                Some((_, flag)) => format!("{cards}*{price}*{}", flag(w)),
            });
        }
    }
    if parts.is_empty() {
        "0".to_string()
    } else {
        parts.join("+")
    }
}

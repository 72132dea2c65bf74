//! The Plan tab's section of cuts (降级方案): when the budget needed is over the Assumption
//! budget_monthly, each cut ranked by saving with its risk and the budget after it.

use super::{Col, Ctx};
use crate::layout::{CUTS_UNMET, CUT_SAVING};
use crate::write::style::{number, text};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The section's columns, from column A: each in a Plan tab column wide enough for it (money
/// in the narrow ones, the texts wrapped in the 22-character Model and GPU columns).
const COLUMNS: [Col; 5] = [
    Col::new("workload", 0.0, ["Workload", "负载", "", ""]),
    Col::new("saving", 0.0, [CUT_SAVING.en, CUT_SAVING.zh, "", ""]),
    Col::new("cut", 0.0, ["Cut", "降级方案", "", ""]),
    Col::new("total_after", 0.0, ["Budget after", "降级后预算", "", ""]),
    Col::new("risk", 0.0, ["Risk", "风险", "", ""]),
];

/// Writes the cuts from `row` down (nothing without them); returns the last row written.
pub fn section(ws: &mut Worksheet, cx: &Ctx, row: u32) -> Result<u32, XlsxError> {
    let Some(c) = cx.plan.cuts.as_ref() else {
        return Ok(row);
    };
    let s = &cx.s;
    let money = |v: f64| crate::model::money(&cx.plan.input.assumptions.currency(), v);
    let title = if cx.lang == crate::lang::Lang::Zh {
        format!(
            "降级方案：预算 {} 超出 {}（按节省排序，累计至预算以内）",
            money(c.budget),
            money(c.planned - c.budget)
        )
    } else {
        format!(
            "Cuts: over the budget {} by {} (by saving, cumulated until within it)",
            money(c.budget),
            money(c.planned - c.budget)
        )
    };
    text(ws, row, 0, &title, &s.subtitle)?;
    cx.plain_header(ws, row + 1, &COLUMNS)?;
    let mut r = row + 1;
    for cut in &c.cuts {
        r += 1;
        text(ws, r, 0, &cut.workload, &s.text)?;
        number(ws, r, 1, cut.saving, &s.money)?;
        let (change, risk) = (cut.change(cx.lang), cut.risk(cx.lang));
        text(ws, r, 2, change, &s.wrap)?;
        number(ws, r, 3, cut.total_after, &s.money)?;
        text(ws, r, 4, risk, &s.wrap)?;
        let width = |c: usize| super::plan_tab::COLUMNS[c].width;
        crate::write::style::fit_row_height(ws, r, &[(change, width(2)), (risk, width(4))])?;
    }
    if !c.met {
        r += 1;
        text(ws, r, 0, CUTS_UNMET.get(cx.lang), &s.bad)?;
    }
    Ok(r)
}

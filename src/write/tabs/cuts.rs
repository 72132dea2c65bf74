//! The Plan tab's section of cuts (降级方案): when the budget month's budget is over the
//! Assumption budget_monthly, the least-harm cuts that meet it (chosen, the budget after each
//! cumulated), then every other cut alone, each with its harm, risk and `--set`.

use super::{Col, Ctx};
use crate::labels::layout::{CUTS_UNMET, CUT_SAVING};
use crate::labels::Said;
use crate::write::style::{number, text};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The section's columns, from column A: each in a Plan tab column wide enough for it (money
/// in the narrow ones, the texts wrapped in the 22-character Model and GPU columns).
const COLUMNS: [Col; 8] = [
    Col::new("workload", 0.0, ["Workload", "负载", "", ""]),
    Col::new("saving", 0.0, [CUT_SAVING.en, CUT_SAVING.zh, "", ""]),
    Col::new("cut", 0.0, ["Cut", "降级方案", "", ""]),
    Col::new("total_after", 0.0, ["Budget after", "降级后预算", "", ""]),
    Col::new("risk", 0.0, ["Risk", "风险", "", ""]),
    Col::new("chosen", 0.0, ["Chosen", "选用", "", ""]),
    Col::new(
        "harm",
        0.0,
        ["Harm (cut_order)", "伤害等级(cut_order)", "", ""],
    ),
    Col::new("set", 0.0, ["As --set", "对应 --set", "", ""]),
];

/// Writes the cuts from `row` down (nothing without a budget it is over); returns the last row
/// written.
pub fn section(ws: &mut Worksheet, cx: &Ctx, row: u32) -> Result<u32, XlsxError> {
    let Some(c) = cx.plan.cuts.as_ref().filter(|c| c.over()) else {
        return Ok(row);
    };
    let s = &cx.s;
    let money = |v: f64| crate::model::money(&cx.plan.input.assumptions.currency(), v);
    let (b, over, m) = (money(c.budget), money(c.planned - c.budget), &c.month);
    let title = Said::new(
        format!("Cuts: the budget {b} for {m} is over by {over} (first the least-harm set that meets it, the budget after cumulated; then each other cut alone, mildest first)"),
        format!("降级方案：{m} 的预算 {b} 超出 {over}（先列满足预算、伤害最小的组合，预算累计；其余各项单独实施，伤害由小到大）"),
    );
    text(ws, row, 0, title.get(cx.lang), &s.subtitle)?;
    cx.plain_header(ws, row + 1, &COLUMNS)?;
    let mut r = row + 1;
    for cut in &c.cuts {
        r += 1;
        text(ws, r, 0, &cut.workload, &s.text)?;
        number(ws, r, 1, cut.saving, &s.money)?;
        let (change, risk) = (cut.change(cx.lang), cut.risk(cx.lang));
        text(ws, r, 2, change, &s.wrap)?;
        let after = if cut.chosen {
            cut.total_after
        } else {
            cut.budget_after
        };
        number(ws, r, 3, after, &s.money)?;
        text(ws, r, 4, risk, &s.wrap)?;
        let chosen = match cut.chosen {
            true => cx.t("yes", "是"),
            false => cx.t("no", "否"),
        };
        text(ws, r, 5, chosen, &s.text)?;
        number(ws, r, 6, cut.harm as f64, &s.integer)?;
        let set = if cut.set.is_empty() {
            cx.t("(none: outside the plan)", "（无：在方案之外）")
                .to_string()
        } else {
            cut.set_args()
        };
        text(ws, r, 7, &set, &s.wrap)?;
        let width = |c: usize| super::plan_tab::COLUMNS[c].width;
        crate::write::style::fit_row_height(
            ws,
            r,
            &[(change, width(2)), (risk, width(4)), (&set, width(7))],
        )?;
    }
    if !c.met {
        r += 1;
        text(ws, r, 0, CUTS_UNMET.get(cx.lang), &s.bad)?;
    }
    Ok(r)
}

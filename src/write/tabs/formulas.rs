//! Formulas: every formula used, its expression as text, its scope and unit, whether it is
//! gpuplan's default, a default the sheet replaced, or the user's own, and what it models.

use super::{at, heads_of, widths_of, Col, Ctx, Extent};
use crate::catalog::formula_description;
use crate::model::Origin;
use crate::write::style::{fit_row_height, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The columns, one row per formula. Expression and description wrap, so the tab prints one
/// page wide at 8 pt or more.
const COLUMNS: [Col; 6] = [
    Col::new(
        "name",
        20.0,
        [
            "Name",
            "名称",
            "The formula's name: a column of the Candidates tab.",
            "公式名：候选方案页的一列。",
        ],
    ),
    Col::new(
        "expression",
        38.0,
        [
            "Expression",
            "表达式",
            "The expression evaluated (evalexpr syntax), as text.",
            "计算所用表达式（evalexpr 语法），以文本显示。",
        ],
    ),
    Col::new(
        "scope",
        8.0,
        [
            "Scope",
            "作用域",
            "candidate: per workload × offer; portfolio: once after the plan.",
            "candidate：每个负载×报价；portfolio：计划后计算一次。",
        ],
    ),
    Col::new(
        "unit",
        6.0,
        ["Unit", "单位", "Unit of the result.", "结果单位。"],
    ),
    Col::new(
        "origin",
        8.0,
        [
            "Origin",
            "来源",
            "default, replaced (a default the sheet edited) or user (the sheet's own).",
            "default 默认、replaced 已修改的默认、user 用户新增。",
        ],
    ),
    Col::new(
        "description",
        56.0,
        [
            "Description",
            "说明",
            "What it models and where its constants come from.",
            "含义与常数来源。",
        ],
    ),
];
const NAME: u16 = at(&COLUMNS, "name");
const EXPRESSION: u16 = at(&COLUMNS, "expression");
const SCOPE: u16 = at(&COLUMNS, "scope");
const UNIT: u16 = at(&COLUMNS, "unit");
const ORIGIN: u16 = at(&COLUMNS, "origin");
const DESCRIPTION: u16 = at(&COLUMNS, "description");
const LAST_COL: u16 = COLUMNS.len() as u16 - 1;

pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    let s = &cx.s;
    cx.header(ws, 0, &heads_of(&COLUMNS))?;
    for (i, f) in cx.plan.input.formulas.iter().enumerate() {
        let r = i as u32 + 1;
        text(ws, r, NAME, &f.name, &s.bold)?;
        text(ws, r, EXPRESSION, &f.expression, &s.wrap)?;
        text(ws, r, SCOPE, f.scope.key(), &s.text)?;
        text(ws, r, UNIT, &f.unit, &s.text)?;
        let (origin, fmt) = match f.origin {
            Origin::Default => (cx.t("default", "默认"), &s.muted),
            Origin::Replaced => (cx.t("replaced", "已修改"), &s.bad),
            Origin::User => (cx.t("user", "用户"), &s.good),
        };
        text(ws, r, ORIGIN, origin, fmt)?;
        let description = formula_description(f).get(cx.lang);
        text(ws, r, DESCRIPTION, description, &s.wrap)?;
        let width = |c: u16| COLUMNS[c as usize].width;
        fit_row_height(
            ws,
            r,
            &[
                (&f.expression, width(EXPRESSION)),
                (description, width(DESCRIPTION)),
            ],
        )?;
    }
    widths(ws, &widths_of(&COLUMNS))?;
    ws.set_freeze_panes(1, 1)?;
    Ok(Extent::new(cx.plan.input.formulas.len() as u32, LAST_COL))
}

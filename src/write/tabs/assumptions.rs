//! Assumptions: every value used, where it came from (the sheet's cell, the default, or
//! `--set`), its unit and note. Key in column A, value in column B.

use super::Ctx;
use crate::model::{Source, Value};
use crate::write::style::{number, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

pub fn write(ws: &mut Worksheet, cx: &Ctx, live: &super::live::Live) -> Result<(), XlsxError> {
    let s = &cx.s;
    cx.header(
        ws,
        0,
        &[
            [
                "Key",
                "参数名",
                "The assumption's name (a formula variable).",
                "参数名（公式变量）。",
            ],
            [
                "Value",
                "取值",
                "The value used for this plan.",
                "本方案使用的取值。",
            ],
            ["Unit", "单位", "Unit of the value.", "单位。"],
            [
                "Source",
                "来源",
                "Where it came from: a cell of the input, the built-in default, or --set.",
                "来源：输入表单元格、内置默认值或 --set。",
            ],
            ["Note", "说明", "What it means.", "含义。"],
        ],
    )?;
    let zh_notes = crate::catalog::assumptions(true);
    for (i, a) in cx.plan.input.assumptions.items.iter().enumerate() {
        let r = i as u32 + 1;
        text(ws, r, 0, &a.key, &s.bold)?;
        match &a.value {
            Value::Number(n) => number(ws, r, 1, *n, &s.number)?,
            Value::Bool(b) => text(ws, r, 1, cx.yes_no(*b), &s.text)?,
            Value::Text(t) => text(ws, r, 1, t, &s.text)?,
        }
        text(ws, r, 2, &a.unit, &s.text)?;
        let src = match &a.source {
            Source::Default => cx.t("default", "默认").to_string(),
            Source::Set => "--set".to_string(),
            Source::Sheet(c) => c.clone(),
        };
        text(
            ws,
            r,
            3,
            &src,
            if a.source == Source::Default {
                &s.muted
            } else {
                &s.text
            },
        )?;
        let note = match (&a.source, cx.zh) {
            (Source::Default, true) => zh_notes
                .get(&a.key)
                .map_or(a.note.as_str(), |d| d.note.as_str()),
            _ => a.note.as_str(),
        };
        text(
            ws,
            r,
            4,
            cx.yes_no(live.is_editable_assumption(&a.key)),
            &s.text,
        )?;
        text(ws, r, 5, note, &s.text)?;
    }
    widths(ws, &[26.0, 12.0, 14.0, 16.0, 8.0, 100.0])?;
    ws.set_freeze_panes(1, 0)?;
    Ok(())
}

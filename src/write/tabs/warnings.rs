//! Warnings: every warning and note of the run, with where it applies and what to do.

use super::{at, heads_of, widths_of, Col, Ctx, Extent};
use crate::model::{Severity, Warning};
use crate::write::style::{fit_row_height, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The columns, one row per warning. The message wraps, so the tab prints one page wide at 8 pt
/// or more.
const COLUMNS: [Col; 3] = [
    Col::new(
        "severity",
        9.0,
        [
            "Severity",
            "级别",
            "warning: check before relying on the plan; info: for the record.",
            "warning：使用方案前请核对；info：备查。",
        ],
    ),
    Col::new(
        "location",
        20.0,
        [
            "Where",
            "位置",
            "Sheet and cell, workload, or formula.",
            "工作表与单元格、负载或公式。",
        ],
    ),
    Col::new(
        "message",
        103.0,
        [
            "Message",
            "内容",
            "What happened and what to do.",
            "问题与处理建议。",
        ],
    ),
];
const SEVERITY: u16 = at(&COLUMNS, "severity");
const LOCATION: u16 = at(&COLUMNS, "location");
const MESSAGE: u16 = at(&COLUMNS, "message");
const LAST_COL: u16 = COLUMNS.len() as u16 - 1;

/// Writes the calculation's warnings and `more` (those raised while writing the workbook).
pub fn write(ws: &mut Worksheet, cx: &Ctx, more: &[Warning]) -> Result<Extent, XlsxError> {
    let s = &cx.s;
    cx.header(ws, 0, &heads_of(&COLUMNS))?;
    let mut sorted: Vec<_> = cx.calc.warnings().chain(more).collect();
    sorted.sort_by_key(|w| std::cmp::Reverse(w.severity));
    for (i, w) in sorted.iter().enumerate() {
        let r = i as u32 + 1;
        let (label, fmt) = match w.severity {
            Severity::Warning => (cx.t("warning", "警告"), &s.bad),
            Severity::Info => (cx.t("info", "备注"), &s.muted),
        };
        text(ws, r, SEVERITY, label, fmt)?;
        text(ws, r, LOCATION, &w.location, &s.wrap)?;
        let message = w.text(cx.lang);
        text(ws, r, MESSAGE, message, &s.wrap)?;
        let width = |c: u16| COLUMNS[c as usize].width;
        fit_row_height(
            ws,
            r,
            &[(&w.location, width(LOCATION)), (message, width(MESSAGE))],
        )?;
    }
    if sorted.is_empty() {
        text(ws, 1, MESSAGE, cx.t("No warnings.", "没有提示。"), &s.muted)?;
    }
    widths(ws, &widths_of(&COLUMNS))?;
    ws.set_freeze_panes(1, 0)?;
    Ok(Extent::new(sorted.len().max(1) as u32, LAST_COL))
}

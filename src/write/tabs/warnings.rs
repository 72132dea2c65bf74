//! Warnings: every warning and note of the run, with where it applies and what to do.

use super::{Ctx, Extent};
use crate::model::{Severity, Warning};
use crate::write::style::{text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// Writes the plan's warnings and `more` (those raised while writing the workbook).
pub fn write(ws: &mut Worksheet, cx: &Ctx, more: &[Warning]) -> Result<Extent, XlsxError> {
    let s = &cx.s;
    cx.header(
        ws,
        0,
        &[
            [
                "Severity",
                "级别",
                "warning: check before relying on the plan; info: for the record.",
                "warning：使用方案前请核对；info：备查。",
            ],
            [
                "Where",
                "位置",
                "Sheet and cell, workload, or formula.",
                "工作表与单元格、负载或公式。",
            ],
            [
                "Message",
                "内容",
                "What happened and what to do.",
                "问题与处理建议。",
            ],
        ],
    )?;
    let mut sorted: Vec<_> = cx.plan.warnings.iter().chain(more).collect();
    sorted.sort_by_key(|w| std::cmp::Reverse(w.severity));
    for (i, w) in sorted.iter().enumerate() {
        let r = i as u32 + 1;
        let (label, fmt) = match w.severity {
            Severity::Warning => ("warning", &s.bad),
            Severity::Info => ("info", &s.muted),
        };
        text(ws, r, 0, label, fmt)?;
        text(ws, r, 1, &w.location, &s.wrap)?;
        text(ws, r, 2, &w.message, &s.wrap)?;
    }
    if sorted.is_empty() {
        text(ws, 1, 2, cx.t("No warnings.", "没有提示。"), &s.muted)?;
    }
    // The message wraps, so the tab prints one page wide at 8 pt or more.
    widths(ws, &[9.0, 20.0, 103.0])?;
    ws.set_freeze_panes(1, 0)?;
    Ok(Extent::new(sorted.len().max(1) as u32, 2))
}

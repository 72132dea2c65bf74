//! Assumptions: every value used, where it came from (the sheet's cell, the default, or
//! `--set`), its unit and note. Key in column A, value in column B.

use super::live::Live;
use super::{Ctx, Extent};
use crate::lang::Lang;
use crate::model::{Assumption, Assumptions, EngineValue, Source, Value};
use crate::write::style::{number, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The columns: `[English, Chinese, note in English, note in Chinese]`.
const COLUMNS: [[&str; 4]; 6] = [
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
    [
        "Live",
        "实时",
        "yes: money or billing, recomputed by the workbook's formulas when you edit the value here (input style); no: it sizes memory, speed or GPUs, so a change needs a rerun of gpuplan (--set key=value).",
        "是：金额或计费参数，在此修改后工作簿公式自动重算（输入样式）；否：影响显存、速度或 GPU 数量，修改需重新运行 gpuplan（--set key=value）。",
    ],
    ["Note", "说明", "What it means.", "含义。"],
];

/// Writes the Assumptions tab: one row per assumption, then the engine profiles the workloads
/// use, if any.
pub fn write(ws: &mut Worksheet, cx: &Ctx, live: &Live) -> Result<Extent, XlsxError> {
    cx.header(ws, 0, &COLUMNS)?;
    let zh_notes = crate::catalog::assumptions(Lang::Zh);
    for (i, a) in cx.plan.input.assumptions.items.iter().enumerate() {
        write_assumption(ws, cx, live, &zh_notes, i as u32 + 1, a)?;
    }
    let used = engines_used(cx);
    let last = if used.is_empty() {
        input_rows(cx)
    } else {
        write_engines(ws, cx, &used)?
    };
    widths(ws, &[22.0, 10.0, 9.0, 13.0, 6.0, 74.0])?;
    ws.set_freeze_panes(1, 0)?;
    Ok(Extent::new(last, 5))
}

/// Row `r`: one assumption's key, value (an input cell where the live formulas read it), unit,
/// source, whether it is live, and its note (the Chinese one of a default in Chinese).
fn write_assumption(
    ws: &mut Worksheet,
    cx: &Ctx,
    live: &Live,
    zh_notes: &Assumptions,
    r: u32,
    a: &Assumption,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    text(ws, r, 0, &a.key, &s.bold)?;
    match &a.value {
        // Money assumptions are inputs of the live formulas; the others need a rerun.
        Value::Number(n) if live.is_editable_assumption(&a.key) => number(ws, r, 1, *n, &s.input)?,
        Value::Number(n) => number(ws, r, 1, *n, s.number_for(*n))?,
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
    let note = match (&a.source, cx.lang) {
        (Source::Default, Lang::Zh) => zh_notes
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
    text(ws, r, 5, note, &s.wrap)
}

/// The engine profiles' figures the workloads use: each replaces the assumption above for the
/// workloads that name the engine.
fn engines_used<'a>(cx: &'a Ctx) -> Vec<&'a EngineValue> {
    let input = &cx.plan.input;
    input
        .engines
        .values
        .iter()
        .filter(|v| {
            !v.key.is_empty()
                && input.workloads.iter().any(|w| {
                    w.engine.as_deref() == Some(v.engine.as_str()) && v.applies.covers(w.kind)
                })
        })
        .collect()
}

/// Below the assumptions: a title, a header and one row per engine figure in `used`. Returns
/// the last row written.
fn write_engines(ws: &mut Worksheet, cx: &Ctx, used: &[&EngineValue]) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let mut r = input_rows(cx) + 2;
    text(
        ws,
        r,
        0,
        cx.t(
            "Engine profiles in use: these figures replace the values above for the workloads that name the engine (Plan tab, Engine column).",
            "使用中的引擎配置：以下数值替换上表中对应参数，仅用于指定该引擎的负载（方案页引擎列）。",
        ),
        &s.bold,
    )?;
    r += 1;
    // The version and source go in the wide Note column.
    for (c, h) in [
        cx.t("Engine", "引擎"),
        cx.t("Key", "参数名"),
        cx.t("Value", "取值"),
        cx.t("Applies to", "适用于"),
        "",
        cx.t("Version / source", "版本 / 来源"),
    ]
    .iter()
    .enumerate()
    {
        text(ws, r, c as u16, h, &s.header)?;
    }
    for v in used {
        r += 1;
        text(ws, r, 0, &v.engine, &s.text)?;
        text(ws, r, 1, &v.key, &s.bold)?;
        number(ws, r, 2, v.value, s.number_for(v.value))?;
        text(ws, r, 3, v.applies.key(), &s.text)?;
        let from = match &v.cell {
            Some(c) => format!("{} ({c})", v.source),
            None => v.source.clone(),
        };
        text(ws, r, 5, &format!("{}: {from}", v.version), &s.wrap)?;
    }
    Ok(r)
}

/// The last row of the assumptions themselves.
fn input_rows(cx: &Ctx) -> u32 {
    cx.plan.input.assumptions.items.len() as u32
}

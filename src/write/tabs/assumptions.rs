//! Assumptions: every value used, where it came from (the sheet's cell, the default, or
//! `--set`), its unit and note. Key in column A, value in column B.

use super::live::Live;
use super::{at, heads_of, widths_of, Col, Ctx, Extent};
use crate::labels::{Said, Text};
use crate::model::{Assumption, EngineValue, Source, Value};
use crate::write::style::{fit_row_height, number, text, widths};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The columns, one row per assumption.
const COLUMNS: [Col; 6] = [
    Col::new(
        "key",
        22.0,
        [
            "Key",
            "参数名",
            "The assumption's name (a formula variable).",
            "参数名（公式变量）。",
        ],
    ),
    Col::new(
        "value",
        10.0,
        [
            "Value",
            "取值",
            "The value used for this plan.",
            "本方案使用的取值。",
        ],
    ),
    // "per GB-month" whole (it printed "per GB-mont", #34 item 2).
    Col::new("unit", 13.0, ["Unit", "单位", "Unit of the value.", "单位。"]),
    Col::new(
        "source",
        13.0,
        [
            "Source",
            "来源",
            "Where it came from: a cell of the input, the built-in default, or --set.",
            "来源：输入表单元格、内置默认值或 --set。",
        ],
    ),
    Col::new(
        "live",
        6.0,
        [
            "Live",
            "实时",
            "yes: money or billing, recomputed by the workbook's formulas when you edit the value here (input style); no: it sizes memory, speed or GPUs, so a change needs a rerun of gpuplan (--set key=value).",
            "是：金额或计费参数，在此修改后工作簿公式自动重算（输入样式）；否：影响显存、速度或 GPU 数量，修改需重新运行 gpuplan（--set key=value）。",
        ],
    ),
    Col::new("note", 74.0, ["Note", "说明", "What it means.", "含义。"]),
];
const KEY: u16 = at(&COLUMNS, "key");
/// The value's column, where the other tabs' live formulas read the money assumptions
/// (`Live::new` in live.rs).
pub(super) const VALUE: u16 = at(&COLUMNS, "value");

/// Whether an assumption is money finance may edit (templates/assumptions.tsv role money, or
/// the user's own): these open the tab, in their own block (#34 item 11).
pub(super) fn is_money(key: &str) -> bool {
    matches!(
        crate::catalog::assumption_role(key),
        Some(crate::catalog::AssumptionRole::Money) | None
    )
}

/// The tab's row of each assumption (the header is row 0), as the live formulas read them:
/// the money ones first, in their order, then a title row, then the engineering constants.
pub(super) fn rows(items: &[Assumption]) -> Vec<u32> {
    let money = items.iter().filter(|a| is_money(&a.key)).count() as u32;
    let (mut next_money, mut next_other) = (1, money + 2);
    items
        .iter()
        .map(|a| {
            let at = if is_money(&a.key) {
                &mut next_money
            } else {
                &mut next_other
            };
            *at += 1;
            *at - 1
        })
        .collect()
}

/// Each numeric assumption's key, its value's cell (absolute, on `sheet`) and whether the
/// workbook recomputes with it: money and billing assumptions (templates/assumptions.tsv, role
/// money) and the user's own are; the others size the GPUs, which needs a rerun of gpuplan.
pub fn value_cells(items: &[Assumption], sheet: &str) -> Vec<(String, String, bool)> {
    let rows = rows(items);
    items
        .iter()
        .zip(rows)
        .filter(|(a, _)| matches!(a.value, crate::model::Value::Number(_)))
        .map(|(a, r)| {
            (
                a.key.clone(),
                super::live::absolute(sheet, r, VALUE),
                is_money(&a.key),
            )
        })
        .collect()
}

/// The last row of the money block (the header's row 0 when there is none).
fn money_rows(items: &[Assumption]) -> u32 {
    items.iter().filter(|a| is_money(&a.key)).count() as u32
}
const UNIT: u16 = at(&COLUMNS, "unit");
const SOURCE: u16 = at(&COLUMNS, "source");
const LIVE: u16 = at(&COLUMNS, "live");
const NOTE: u16 = at(&COLUMNS, "note");
const LAST_COL: u16 = COLUMNS.len() as u16 - 1;

/// The engine profiles' columns, below the assumptions. Headers without notes; `width` is not
/// applied: the block lies under the assumptions' columns, whose widths hold.
#[rustfmt::skip]
const ENGINES: [Col; 6] = [
    Col::new("engine", 0.0, ["Engine", "引擎", "", ""]),
    Col::new("key", 0.0, ["Key", "参数名", "", ""]),
    Col::new("value", 0.0, ["Value", "取值", "", ""]),
    Col::new("applies_to", 0.0, ["Applies to", "适用于", "", ""]),
    // Under Live, left blank so that the version and source reach the wide Note column.
    Col::new("blank", 0.0, ["", "", "", ""]),
    Col::new("version_source", 0.0, ["Version / source", "版本 / 来源", "", ""]),
];
const ENGINE_ENGINE: u16 = at(&ENGINES, "engine");
const ENGINE_KEY: u16 = at(&ENGINES, "key");
const ENGINE_VALUE: u16 = at(&ENGINES, "value");
const ENGINE_APPLIES_TO: u16 = at(&ENGINES, "applies_to");
const ENGINE_VERSION_SOURCE: u16 = at(&ENGINES, "version_source");
const _: () = assert!(
    ENGINE_VERSION_SOURCE == NOTE,
    "the version and source go in the wide Note column"
);

/// Writes the Assumptions tab: one row per assumption, then the engine profiles the workloads
/// use, if any.
pub fn write(ws: &mut Worksheet, cx: &Ctx, live: &Live) -> Result<Extent, XlsxError> {
    cx.header(ws, 0, &heads_of(&COLUMNS))?;
    let items = &cx.plan.input.assumptions.items;
    let rows = rows(items);
    let money = money_rows(items);
    // Rows are written in order (the sheet streams): the money block, the title, the rest.
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| rows[i]);
    let mut titled = false;
    for i in order {
        if !titled && rows[i] > money {
            text(
                ws,
                money + 1,
                KEY,
                cx.t(
                    "Engineering constants: they size memory, speed and GPUs; a change needs a rerun of gpuplan (--set key=value)",
                    "工程参数：决定显存、速度与 GPU 数量；修改需重新运行 gpuplan（--set key=value）",
                ),
                &cx.s.subtitle,
            )?;
            titled = true;
        }
        write_assumption(ws, cx, live, rows[i], &items[i])?;
    }
    let used = engines_used(cx);
    let last = if used.is_empty() {
        input_rows(cx)
    } else {
        write_engines(ws, cx, &used)?
    };
    widths(ws, &widths_of(&COLUMNS))?;
    ws.set_freeze_panes(1, 0)?;
    Ok(Extent::new(last, LAST_COL))
}

/// The rows the approval print shows: the header and the money block.
pub(super) fn printed_rows(cx: &Ctx) -> u32 {
    money_rows(&cx.plan.input.assumptions.items).max(1)
}

/// Row `r`: one assumption's key, value (an input cell where the live formulas read it), unit,
/// source, whether it is live, and its note (the Chinese one of a default in Chinese).
fn write_assumption(
    ws: &mut Worksheet,
    cx: &Ctx,
    live: &Live,
    r: u32,
    a: &Assumption,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    text(ws, r, KEY, &a.key, &s.bold)?;
    match &a.value {
        // Money assumptions are inputs of the live formulas; the others need a rerun.
        Value::Number(n) if live.is_editable_assumption(&a.key) => {
            let fmt = match a.unit.as_str() {
                "share" => &s.input_pct,
                unit if unit.starts_with("per ") => &s.input_money,
                _ => &s.input,
            };
            number(ws, r, VALUE, *n, fmt)?
        }
        Value::Number(n) => number(ws, r, VALUE, *n, s.number_for(*n))?,
        Value::Bool(b) => text(ws, r, VALUE, cx.yes_no(*b), &s.text)?,
        Value::Text(t) => text(ws, r, VALUE, t, &s.text)?,
    }
    text(ws, r, UNIT, unit(&a.unit).get(cx.lang), &s.text)?;
    let src = match &a.source {
        Source::Default => cx.t("default", "默认").to_string(),
        Source::Set => "--set".to_string(),
        Source::Sheet(c) => c.clone(),
    };
    text(
        ws,
        r,
        SOURCE,
        &src,
        if a.source == Source::Default {
            &s.muted
        } else {
            &s.text
        },
    )?;
    // A default's note in Chinese from templates/assumptions.tsv; the sheet's own as written.
    let note_zh = match (&a.source, crate::catalog::assumption_note(&a.key)) {
        (Source::Default, Some(n)) => n.zh,
        _ => a.note.as_str(),
    };
    text(
        ws,
        r,
        LIVE,
        cx.yes_no(live.is_editable_assumption(&a.key)),
        &s.text,
    )?;
    // In Chinese the key's Chinese name first (#43 item 8: the keys printed in English alone).
    let note = Said::new(
        &a.note,
        match crate::labels::layout::assumption_name(&a.key) {
            Some(name) => format!("【{}】{note_zh}", name.zh),
            None => note_zh.to_string(),
        },
    );
    let note = note.get(cx.lang);
    text(ws, r, NOTE, note, &s.wrap)?;
    fit_row_height(ws, r, &[(note, COLUMNS[NOTE as usize].width)])
}

/// A unit of templates/assumptions.tsv in both languages ("share" read as English in the
/// Chinese workbook, #34 item 10); units that are symbols (GiB, µs) stay as they are.
fn unit(unit: &str) -> Text<&str> {
    let zh = match unit {
        "share" => "比例",
        "h" => "小时",
        "min" => "分钟",
        "month" => "月",
        "per h" => "每小时",
        "per GB-month" => "每 GB·月",
        "per GB" => "每 GB",
        "yes/no" => "是/否",
        "bytes" => "字节",
        "tokens" => "词元",
        "sequences" => "序列",
        "layers" => "层",
        "copies" => "份",
        "elements" => "元素",
        "stage" => "阶段",
        "text" => "文本",
        other => other,
    };
    Text { en: unit, zh }
}

/// The engine profiles' figures the workloads use, in the profiles' order: each replaces the
/// assumption above for the workloads that name the engine (a `base@version` profile's
/// inherited figures included, under the base's name).
fn engines_used<'a>(cx: &'a Ctx) -> Vec<&'a EngineValue> {
    let input = &cx.plan.input;
    // Each engine and kind the workloads name, once, however many workloads name it.
    let mut named: Vec<(&str, crate::model::Kind)> = Vec::new();
    for w in &input.workloads {
        if let Some(e) = w.engine.as_deref() {
            if !named.contains(&(e, w.kind)) {
                named.push((e, w.kind));
            }
        }
    }
    let used: Vec<&EngineValue> = named
        .iter()
        .flat_map(|(e, kind)| input.engines.for_workload(e, *kind))
        .collect();
    input
        .engines
        .values
        .iter()
        .filter(|v| !v.key.is_empty() && used.iter().any(|u| std::ptr::eq(*u, *v)))
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
    cx.plain_header(ws, r, &ENGINES)?;
    for v in used {
        r += 1;
        text(ws, r, ENGINE_ENGINE, &v.engine, &s.text)?;
        text(ws, r, ENGINE_KEY, &v.key, &s.bold)?;
        number(ws, r, ENGINE_VALUE, v.value, s.number_for(v.value))?;
        text(ws, r, ENGINE_APPLIES_TO, v.applies.key(), &s.text)?;
        let from = match &v.cell {
            Some(c) => format!("{} ({c})", v.source),
            None => v.source.clone(),
        };
        let version_source = format!("{}: {from}", v.version);
        text(ws, r, ENGINE_VERSION_SOURCE, &version_source, &s.wrap)?;
        // The block's own widths are 0: its columns are the tab's.
        let width = COLUMNS[ENGINE_VERSION_SOURCE as usize].width;
        fit_row_height(ws, r, &[(&version_source, width)])?;
    }
    Ok(r)
}

/// The last row of the assumptions themselves (and the engineering title between the blocks).
fn input_rows(cx: &Ctx) -> u32 {
    let items = &cx.plan.input.assumptions.items;
    let extra = u32::from(items.iter().any(|a| !is_money(&a.key)));
    items.len() as u32 + extra
}

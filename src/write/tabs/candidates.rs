//! Candidates: every (workload, GPU offer) evaluated — whether it is feasible and why not, the
//! price of each mode, and every candidate formula's value — as an Excel table with autofilter.

use super::{at, heads, heads_of, widths_of, workload_col, Col, Ctx, Extent};
use crate::labels::Said;
use crate::model::Workload;
use crate::plan::{Candidate, Mode};
use crate::write::style::{clip, header, text, widths};
use rust_xlsxwriter::{Table, TableColumn, TableStyle, Worksheet, XlsxError};

/// Cells up to which the tab is an Excel table. rust_xlsxwriter keeps every cell of a table's
/// range in a hash map (its overlap check), even in constant-memory mode: about 50 bytes and
/// 0.5 µs a cell (840 MB for 200,000 × 80 cells; a third of a 1,000 × 100 run, 2.1 million
/// cells). A million cells is 10,000 candidates of 100 columns.
const TABLE_CELLS: usize = 1_000_000;

/// The columns before the modes' costs.
const FIXED: [Col; 8] = [
    workload_col(20.0),
    Col::new("gpu", 14.0, ["GPU", "GPU", "The GPU offer.", "GPU 报价。"]),
    Col::new(
        "provider",
        12.0,
        ["Provider", "服务商", "Who rents it.", "服务商。"],
    ),
    Col::new(
        "layout",
        16.0,
        [
            "Layout",
            "缓存布局",
            "The launch flags of the cache layout the row assumes, where it is one the engine offers beside the Assumptions' (-tp 8 -dcp 8); blank: as the Assumptions set it.",
            "该行假设的缓存布局的启动参数（引擎另外提供的布局，如 -tp 8 -dcp 8）；空白表示按参数表设置。",
        ],
    ),
    Col::new(
        "fits",
        9.0,
        [
            "Feasible",
            "可行",
            "The candidate fits and can run the workload's precision.",
            "能装下且支持该精度。",
        ],
    ),
    Col::new(
        "exclusion",
        40.0,
        [
            "Why not",
            "不可行原因",
            "Why the candidate cannot be chosen.",
            "不能选用的原因。",
        ],
    ),
    Col::new(
        "cheapest_mode",
        14.0,
        [
            "Cheapest mode",
            "最便宜方式",
            "The cheapest priced mode on this offer.",
            "该报价下最便宜的计费方式。",
        ],
    ),
    Col::new(
        "cheapest_cost",
        14.0,
        [
            "Cheapest cost",
            "最低费用",
            "Its monthly GPU cost.",
            "对应月度 GPU 费用。",
        ],
    ),
];
const WORKLOAD: u16 = at(&FIXED, "workload");
const GPU: u16 = at(&FIXED, "gpu");
const PROVIDER: u16 = at(&FIXED, "provider");
const LAYOUT: u16 = at(&FIXED, "layout");
const FITS: u16 = at(&FIXED, "fits");
const EXCLUSION: u16 = at(&FIXED, "exclusion");
const CHEAPEST_MODE: u16 = at(&FIXED, "cheapest_mode");
pub(super) const CHEAPEST_COST: u16 = at(&FIXED, "cheapest_cost");

/// The column of the first mode's cost, in `Mode::ALL` order; the formula columns follow the
/// last.
const FIRST_MODE: u16 = FIXED.len() as u16;
pub(super) const FIRST_FORMULA: u16 = FIRST_MODE + Mode::ALL.len() as u16;
/// The width of each mode's cost column and of each formula column.
const MODE_WIDTH: f64 = 14.0;
const FORMULA_WIDTH: f64 = 14.0;

/// Writes the Candidates tab: the columns' layout and the table (or autofilter) first, as the
/// constant-memory sheet needs, then the header and one row per candidate of every workload.
pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    let plan = cx.plan;
    let cols = columns(cx);
    let rows: usize = plan.workloads.iter().map(|w| w.candidates.len()).sum();
    let last_col = FIRST_FORMULA + plan.columns.len() as u16 - 1;
    lay_out(ws, cx, &cols, rows, last_col)?;
    header(ws, 0, &cols, &cx.s)?;
    let mut r = 0u32;
    for (wi, w) in plan.input.workloads.iter().enumerate() {
        for c in &plan.workloads[wi].candidates {
            r += 1;
            write_candidate(ws, cx, r, w, c)?;
        }
    }
    Ok(Extent::new(r, last_col))
}

/// The header's labels and notes, in the chosen language: the fixed columns, each mode's cost,
/// then every candidate formula with its unit.
fn columns(cx: &Ctx) -> Vec<(String, String)> {
    let mut fixed = heads_of(&FIXED);
    let mode_labels: Vec<Said> = Mode::ALL
        .iter()
        .map(|m| {
            let name = m.name();
            Said::new(format!("{} cost", name.en), format!("{}费用", name.zh))
        })
        .collect();
    for label in &mode_labels {
        fixed.push([
            &label.en,
            &label.zh,
            "Monthly GPU cost of this mode; blank where not offered or not allowed.",
            "该方式月度 GPU 费用；空白表示不提供或不允许。",
        ]);
    }
    let mut cols = heads(cx, &fixed);
    for c in &cx.plan.columns {
        let unit = if c.unit.is_empty() {
            String::new()
        } else {
            format!(" [{}]", c.unit)
        };
        cols.push((c.name.clone(), format!("{}{unit}", cx.t("Formula", "公式"))));
    }
    cols
}

/// Everything about columns, the table and the panes, set before the first row: the sheet is
/// written in constant-memory mode, row by row. `rows` candidates under the header `cols`, up
/// to `last_col`.
fn lay_out(
    ws: &mut Worksheet,
    cx: &Ctx,
    cols: &[(String, String)],
    rows: usize,
    last_col: u16,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    widths(ws, &widths_of(&FIXED))?;
    for c in FIRST_MODE..FIRST_FORMULA {
        ws.set_column_width(c, MODE_WIDTH)?;
    }
    for c in FIRST_FORMULA..=last_col {
        ws.set_column_width(c, FORMULA_WIDTH)?;
    }
    ws.set_column_format(CHEAPEST_COST, &s.money)?;
    for k in 0..Mode::ALL.len() as u16 {
        ws.set_column_format(FIRST_MODE + k, &s.money)?;
    }
    // The formula columns stay in General, which shows each value's digits and never a
    // trailing point.

    // The workload and the GPU stay in view.
    ws.set_freeze_panes(1, GPU + 1)?;
    // Past TABLE_CELLS the tab gets a plain autofilter instead, which streams.
    if rows * (last_col as usize + 1) <= TABLE_CELLS {
        let columns: Vec<TableColumn> = cols
            .iter()
            .map(|(h, _)| TableColumn::new().set_header(h))
            .collect();
        let table = Table::new()
            .set_columns(&columns)
            .set_style(TableStyle::Light9)
            .set_autofilter(true);
        ws.add_table(0, WORKLOAD, (rows as u32).max(1), last_col, &table)?;
    } else {
        ws.autofilter(0, WORKLOAD, rows as u32, last_col)?;
    }
    Ok(())
}

/// Row `r`: candidate `c` of the workload `w` — its offer and cache layout, whether it fits and
/// why not, its cheapest mode and cost, each mode's cost and every formula's value.
fn write_candidate(
    ws: &mut Worksheet,
    cx: &Ctx,
    r: u32,
    w: &Workload,
    c: &Candidate,
) -> Result<(), XlsxError> {
    let s = &cx.s;
    let g = &cx.plan.input.gpus[c.offer];
    // Plain writes with column formats: a format per cell costs a hash lookup each, and
    // this tab can hold millions of cells.
    ws.write_string(r, WORKLOAD, clip(&w.name))?;
    ws.write_string(r, GPU, clip(&g.gpu))?;
    ws.write_string(r, PROVIDER, clip(&g.provider))?;
    let size = cx.plan.value(c, "gpus_per_replica").unwrap_or(1.0);
    if let Some(flags) = c.layout.flags(w.engine.as_deref(), size) {
        ws.write_string(r, LAYOUT, clip(&flags))?;
    }
    // Formatted directly: LibreOffice's PDF export fails on a conditional format over a
    // boolean column, and these values never change.
    if c.fits() {
        ws.write_boolean(r, FITS, true)?;
    } else {
        ws.write_boolean_with_format(r, FITS, false, &s.bad)?;
        text(
            ws,
            r,
            EXCLUSION,
            c.exclusion.as_ref().map_or("", |e| e.said(cx.lang)),
            &s.bad,
        )?;
    }
    if let Some((m, v)) = c.cheapest() {
        ws.write_string(r, CHEAPEST_MODE, m.label(cx.lang))?;
        ws.write_number(r, CHEAPEST_COST, v)?;
    }
    for (k, m) in Mode::ALL.iter().enumerate() {
        if let Some(v) = c.cost(*m) {
            ws.write_number(r, FIRST_MODE + k as u16, v)?;
        }
    }
    for (k, (col, v)) in cx.plan.columns.iter().zip(&c.values).enumerate() {
        let at = FIRST_FORMULA + k as u16;
        if col.is_bool {
            ws.write_boolean(r, at, *v != 0.0)?;
        } else if v.is_finite() {
            ws.write_number(r, at, *v)?;
        }
    }
    Ok(())
}

//! Candidates: every (workload, GPU offer) evaluated — whether it is feasible and why not, the
//! price of each mode, and every candidate formula's value — as an Excel table with autofilter.

use super::{heads, Ctx, Extent};
use crate::lang::Lang;
use crate::plan::Mode;
use crate::write::style::{clip, header, text, widths};
use rust_xlsxwriter::{Table, TableColumn, TableStyle, Worksheet, XlsxError};

/// Cells up to which the tab is an Excel table. rust_xlsxwriter keeps every cell of a table's
/// range in a hash map (its overlap check), even in constant-memory mode: about 50 bytes and
/// 0.5 µs a cell (840 MB for 200,000 × 80 cells; a third of a 1,000 × 100 run, 2.1 million
/// cells). A million cells is 10,000 candidates of 100 columns.
const TABLE_CELLS: usize = 1_000_000;

pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<Extent, XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let mut fixed = vec![
        ["Workload", "负载", "The workload's name.", "负载名称。"],
        ["GPU", "GPU", "The GPU offer.", "GPU 报价。"],
        ["Provider", "服务商", "Who rents it.", "服务商。"],
        [
            "Feasible",
            "可行",
            "The candidate fits and can run the workload's precision.",
            "能装下且支持该精度。",
        ],
        [
            "Why not",
            "不可行原因",
            "Why the candidate cannot be chosen.",
            "不能选用的原因。",
        ],
        [
            "Cheapest mode",
            "最便宜方式",
            "The cheapest priced mode on this offer.",
            "该报价下最便宜的计费方式。",
        ],
        [
            "Cheapest cost",
            "最低费用",
            "Its monthly GPU cost.",
            "对应月度 GPU 费用。",
        ],
    ];
    let mode_labels: Vec<(String, String)> = Mode::ALL
        .iter()
        .map(|m| {
            (
                format!("{} cost", m.label(Lang::En)),
                format!("{}费用", m.label(Lang::Zh)),
            )
        })
        .collect();
    for (en, zh) in &mode_labels {
        fixed.push([
            en,
            zh,
            "Monthly GPU cost of this mode; blank where not offered or not allowed.",
            "该方式月度 GPU 费用；空白表示不提供或不允许。",
        ]);
    }
    let mut cols = heads(cx, &fixed);
    for c in &plan.columns {
        let unit = if c.unit.is_empty() {
            String::new()
        } else {
            format!(" [{}]", c.unit)
        };
        cols.push((c.name.clone(), format!("{}{unit}", cx.t("Formula", "公式"))));
    }
    // The sheet is written in constant-memory mode, row by row: everything about columns, the
    // table and the panes is set before the first row.
    let first_formula = fixed.len() as u16;
    let rows: usize = plan.workloads.iter().map(|w| w.candidates.len()).sum();
    let last_col = first_formula + plan.columns.len() as u16 - 1;
    widths(ws, &[20.0, 14.0, 12.0, 9.0, 40.0])?;
    for c in 5..=last_col {
        ws.set_column_width(c, 14)?;
    }
    ws.set_column_format(6, &s.money)?;
    for k in 0..Mode::ALL.len() as u16 {
        ws.set_column_format(7 + k, &s.money)?;
    }
    // The formula columns stay in General, which shows each value's digits and never a
    // trailing point.
    ws.set_freeze_panes(1, 2)?;
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
        ws.add_table(0, 0, (rows as u32).max(1), last_col, &table)?;
    } else {
        ws.autofilter(0, 0, rows as u32, last_col)?;
    }
    header(ws, 0, &cols, s)?;
    let mut r = 0u32;
    for (wi, w) in plan.input.workloads.iter().enumerate() {
        for c in &plan.workloads[wi].candidates {
            r += 1;
            let g = &plan.input.gpus[c.offer];
            // Plain writes with column formats: a format per cell costs a hash lookup each, and
            // this tab can hold millions of cells.
            ws.write_string(r, 0, clip(&w.name))?;
            ws.write_string(r, 1, clip(&g.gpu))?;
            ws.write_string(r, 2, clip(&g.provider))?;
            // Formatted directly: LibreOffice's PDF export fails on a conditional format over a
            // boolean column, and these values never change.
            if c.fits() {
                ws.write_boolean(r, 3, true)?;
            } else {
                ws.write_boolean_with_format(r, 3, false, &s.bad)?;
                text(
                    ws,
                    r,
                    4,
                    c.exclusion.as_ref().map_or("", |e| e.text()),
                    &s.bad,
                )?;
            }
            if let Some((m, v)) = c.cheapest() {
                ws.write_string(r, 5, m.label(cx.lang))?;
                ws.write_number(r, 6, v)?;
            }
            for (k, m) in Mode::ALL.iter().enumerate() {
                if let Some(v) = c.cost(*m) {
                    ws.write_number(r, 7 + k as u16, v)?;
                }
            }
            for (k, (col, v)) in plan.columns.iter().zip(&c.values).enumerate() {
                let at = first_formula + k as u16;
                if col.is_bool {
                    ws.write_boolean(r, at, *v != 0.0)?;
                } else if v.is_finite() {
                    ws.write_number(r, at, *v)?;
                }
            }
        }
    }
    Ok(Extent::new(r, last_col))
}

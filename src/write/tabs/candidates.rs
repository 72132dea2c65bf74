//! Candidates: every (workload, GPU offer) evaluated — whether it is feasible and why not, the
//! price of each mode, and every candidate formula's value — as an Excel table with autofilter.

use super::{heads, Ctx};
use crate::plan::Mode;
use crate::write::style::{header, number, text};
use rust_xlsxwriter::{Table, TableColumn, TableStyle, Worksheet, XlsxError};

pub fn write(ws: &mut Worksheet, cx: &Ctx) -> Result<(), XlsxError> {
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
                format!("{} cost", m.label(false)),
                format!("{}费用", m.label(true)),
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
    header(ws, 0, &cols, s)?;
    let first_formula = fixed.len() as u16;
    let mut r = 0u32;
    for (wi, w) in plan.input.workloads.iter().enumerate() {
        for c in &plan.workloads[wi].candidates {
            r += 1;
            let g = &plan.input.gpus[c.offer];
            text(ws, r, 0, &w.name, &s.text)?;
            text(ws, r, 1, &g.gpu, &s.text)?;
            text(ws, r, 2, &g.provider, &s.text)?;
            // Formatted directly: LibreOffice's PDF export fails on a conditional format over a
            // boolean column, and these values never change.
            let flag = if c.fits() { &s.text } else { &s.bad };
            ws.write_boolean_with_format(r, 3, c.fits(), flag)?;
            text(ws, r, 4, c.exclusion.as_deref().unwrap_or(""), flag)?;
            if let Some((m, v)) = c.cheapest() {
                text(ws, r, 5, m.label(cx.zh), &s.text)?;
                number(ws, r, 6, v, &s.money)?;
            }
            for (k, m) in Mode::ALL.iter().enumerate() {
                if let Some(v) = c.cost(*m) {
                    number(ws, r, 7 + k as u16, v, &s.money)?;
                }
            }
            for (k, (col, v)) in plan.columns.iter().zip(&c.values).enumerate() {
                let at = first_formula + k as u16;
                if col.is_bool {
                    ws.write_boolean(r, at, *v != 0.0)?;
                } else {
                    number(ws, r, at, *v, &s.number)?;
                }
            }
        }
    }
    let last_col = first_formula + plan.columns.len() as u16 - 1;
    let columns: Vec<TableColumn> = cols
        .iter()
        .map(|(h, _)| TableColumn::new().set_header(h))
        .collect();
    let table = Table::new()
        .set_columns(&columns)
        .set_style(TableStyle::Light9)
        .set_autofilter(true);
    ws.add_table(0, 0, r.max(1), last_col, &table)?;
    ws.set_column_width(0, 20)?;
    ws.set_column_width(1, 14)?;
    ws.set_column_width(2, 12)?;
    ws.set_column_width(4, 40)?;
    for c in 5..=last_col {
        ws.set_column_width(c, 14)?;
    }
    ws.set_freeze_panes(1, 2)?;
    Ok(())
}

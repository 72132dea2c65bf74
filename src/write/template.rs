//! The template workbook `gpuplan init` writes: the input sheets with `Label (key)` headers,
//! a note on every header, dropdowns, frozen headers, and the built-in data to edit.

use super::style::{self, Styles};
use crate::catalog::{self, Column, ColumnType};
use crate::labels::Text;
use crate::lang::Lang;
use crate::model::Price;
use crate::model::{GpuOffer, Kind, Value};
use rust_xlsxwriter::{DataValidation, Formula, Workbook, Worksheet, XlsxError};

/// Example workloads for the template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Example {
    /// Seed 001's ten-person team: a LoRA, an inference service, a batch job.
    Team,
    /// Seed 000's table: a 7B API at 60 concurrent requests, a LoRA, a 20B full fine-tune, ComfyUI.
    Api,
    /// No example workloads, only the headers and built-in data (`init --blank`).
    None,
}

impl Example {
    /// The example an `init --example` name picks, case aside: `team` (`seed001`, `001`) or
    /// `api` (`seed000`, `000`); `None` for any other name.
    pub fn parse(name: &str) -> Option<Example> {
        match name.to_lowercase().as_str() {
            "team" | "seed001" | "001" => Some(Example::Team),
            "api" | "seed000" | "000" => Some(Example::Api),
            _ => None,
        }
    }
}

fn dropdown(c: &Column, lang: Lang) -> Option<DataValidation> {
    let list: Vec<String> = match c.ty {
        ColumnType::Kind => Kind::ALL
            .iter()
            .map(|k| k.label().get(lang).to_string())
            .collect(),
        // The words templates/columns.tsv allows the column.
        ColumnType::Precision | ColumnType::KvPrecision => {
            c.words.iter().map(|w| w.to_string()).collect()
        }
        ColumnType::Bool => vec![
            style::yes_no(true).get(lang).to_string(),
            style::yes_no(false).get(lang).to_string(),
        ],
        _ => return None,
    };
    DataValidation::new()
        .allow_list_strings(&list)
        .ok()
        .map(|d| d.ignore_blank(true))
}

fn write_headers(
    ws: &mut Worksheet,
    cols: &[Column],
    lang: Lang,
    s: &Styles,
) -> Result<(), XlsxError> {
    let heads: Vec<(String, String)> = cols
        .iter()
        .map(|c| (c.header(lang), c.note().get(lang).to_string()))
        .collect();
    style::header(ws, 0, &heads, s)?;
    for (i, c) in cols.iter().enumerate() {
        let w = style::fit_width([c.header(lang).as_str()], 10.0, 28.0);
        ws.set_column_width(
            i as u16,
            if c.key == "notes" || c.key == "description" {
                60.0
            } else {
                w
            },
        )?;
    }
    ws.set_freeze_panes(1, 0)?;
    Ok(())
}

/// Rows below the header that carry each column's dropdown.
const VALIDATED_ROWS: u32 = 1000;

/// The template workbook's bytes.
pub fn template(
    lang: Lang,
    example: Example,
    creation: &rust_xlsxwriter::ExcelDateTime,
) -> Result<Vec<u8>, XlsxError> {
    let s = Styles::new("CNY");
    let mut wb = Workbook::new();
    wb.set_properties(
        &rust_xlsxwriter::DocProperties::new()
            .set_title("gpuplan budget template")
            .set_author("gpuplan")
            .set_creation_datetime(creation),
    );
    workloads_sheet(&mut wb, lang, example, &s)?;
    gpus_sheet(&mut wb, lang, &s)?;
    models_sheet(&mut wb, lang, &s)?;
    assumptions_sheet(&mut wb, lang, &s)?;
    engines_sheet(&mut wb, lang, &s)?;
    formulas_sheet(&mut wb, lang, &s)?;

    // Scenarios: headers only; each row a change of a named what-if (the notes say the syntax).
    let (ws, _) = input_sheet(&mut wb, "Scenarios", lang, &s)?;
    style::widths(ws, &[24.0, 60.0])?;

    // Ranges: headers only; each row a key that may vary between low and high (Sensitivity tab).
    let (ws, _) = input_sheet(&mut wb, "Ranges", lang, &s)?;
    style::widths(ws, &[34.0, 12.0, 12.0, 12.0])?;

    apis_sheet(&mut wb, lang, &s)?;

    // Usage: empty until the team has logs; `gpuplan usage LOG… --workbook` reads it.
    let (ws, _) = input_sheet(&mut wb, "Usage", lang, &s)?;
    style::widths(ws, &[44.0, 24.0])?;
    wb.save_to_buffer()
}

/// Adds the input sheet `sheet`, named in `lang`, with its headers; returns it and its columns.
fn input_sheet<'w>(
    wb: &'w mut Workbook,
    sheet: &str,
    lang: Lang,
    s: &Styles,
) -> Result<(&'w mut Worksheet, Vec<Column>), XlsxError> {
    let cols = catalog::columns(sheet);
    let ws = wb.add_worksheet();
    ws.set_name(catalog::sheet_name(sheet, lang))?;
    write_headers(ws, &cols, lang, s)?;
    Ok((ws, cols))
}

/// The Workloads sheet: the dropdowns, then the chosen example's workloads.
fn workloads_sheet(
    wb: &mut Workbook,
    lang: Lang,
    example: Example,
    s: &Styles,
) -> Result<(), XlsxError> {
    let (ws, cols) = input_sheet(wb, "Workloads", lang, s)?;
    workload_dropdowns(ws, &cols, lang)?;
    let rows = match example {
        Example::Team => catalog::examples("team"),
        Example::Api => catalog::examples("api"),
        Example::None => Vec::new(),
    };
    for (r, row) in rows.into_iter().enumerate() {
        // The Chinese template's notes are the examples' notes_zh.
        let zh_notes = row.iter().find(|(k, _)| *k == "notes_zh").map(|(_, v)| *v);
        for (key, v) in row {
            let v = match (key, zh_notes) {
                ("notes_zh", _) => continue,
                ("notes", Some(zh)) => Text { en: v, zh }.get(lang),
                _ => v,
            };
            let Some((col, c)) = catalog::find_column(&cols, key) else {
                continue;
            };
            let (col, ty) = (col as u16, c.ty);
            let r = r as u32 + 1;
            match v.parse::<f64>() {
                Ok(n) if !matches!(ty, ColumnType::Text | ColumnType::Kind) => {
                    style::number(ws, r, col, n, &s.general)?
                }
                _ => {
                    // A kind or a yes/no as the Chinese template's dropdown offers it; in
                    // English as the example gives it.
                    let zh = match ty {
                        ColumnType::Kind => Kind::parse(v).map_or(v, |k| k.label().zh),
                        ColumnType::Bool => style::yes_no(v == "yes").zh,
                        _ => v,
                    };
                    style::text(ws, r, col, Text { en: v, zh }.get(lang), &s.text)?;
                }
            }
        }
    }
    Ok(())
}

/// The Workloads sheet's dropdowns: each typed column's, the built-in engines and the GPUs
/// sheet's offers.
fn workload_dropdowns(ws: &mut Worksheet, cols: &[Column], lang: Lang) -> Result<(), XlsxError> {
    let gpus_sheet = catalog::sheet_name("GPUs", lang);
    for (i, c) in cols.iter().enumerate() {
        let col = i as u16;
        if let Some(dv) = dropdown(c, lang) {
            ws.add_data_validation(1, col, VALIDATED_ROWS, col, &dv)?;
        }
        if c.key == "engine" {
            // The built-in engines; another is allowed (with a warning) once the Engines sheet
            // gives it a profile.
            let names: Vec<String> = catalog::engines()
                .names()
                .iter()
                .map(|n| n.to_string())
                .collect();
            let dv = DataValidation::new()
                .allow_list_strings(&names)?
                .ignore_blank(true)
                .set_error_style(rust_xlsxwriter::DataValidationErrorStyle::Warning);
            ws.add_data_validation(1, col, VALIDATED_ROWS, col, &dv)?;
        }
        if c.key == "gpu" {
            let dv = DataValidation::new()
                .allow_list_formula(Formula::new(format!("='{gpus_sheet}'!$A$2:$A$500")))
                .ignore_blank(true);
            ws.add_data_validation(1, col, VALIDATED_ROWS, col, &dv)?;
        }
    }
    Ok(())
}

/// The GPUs sheet: the dropdowns and the built-in offers.
fn gpus_sheet(wb: &mut Workbook, lang: Lang, s: &Styles) -> Result<(), XlsxError> {
    let (ws, cols) = input_sheet(wb, "GPUs", lang, s)?;
    for (i, c) in cols.iter().enumerate() {
        if let Some(dv) = dropdown(c, lang) {
            ws.add_data_validation(1, i as u16, VALIDATED_ROWS, i as u16, &dv)?;
        }
    }
    for (r, g) in catalog::gpus().iter().enumerate() {
        let r = r as u32 + 1;
        let yes = |b: bool| style::yes_no(b).get(lang);
        for (i, c) in cols.iter().enumerate() {
            let col = i as u16;
            match c.key {
                "gpu" => style::text(ws, r, col, &g.gpu, &s.text)?,
                "provider" => style::text(ws, r, col, &g.provider, &s.text)?,
                "nvlink" => style::text(ws, r, col, yes(g.nvlink), &s.text)?,
                "available" => style::text(ws, r, col, yes(g.available), &s.text)?,
                key => {
                    if let Some(v) = gpu_figure(g, key) {
                        let f = if c.ty == ColumnType::Money {
                            &s.money
                        } else {
                            &s.general
                        };
                        style::number(ws, r, col, v, f)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// The figure of a built-in offer the template writes in a numeric column; `None` for a price
/// not offered or a column the template leaves blank.
fn gpu_figure(g: &GpuOffer, key: &str) -> Option<f64> {
    match key {
        "vram_gib" => Some(g.vram_gib),
        "bandwidth_gbs" => Some(g.bandwidth_gbs),
        "fp16_tflops" => Some(g.fp16_tflops),
        "compute_capability" => Some(g.compute_capability),
        "gpus_per_node" => Some(g.gpus_per_node),
        "billing_granularity_min" => Some(g.billing_granularity_min),
        "min_rental_min" => Some(g.min_rental_min),
        key => Price::parse(key).and_then(|p| g.price(p)),
    }
}

/// The Models sheet: the built-in models, a blank where a figure is 0.
fn models_sheet(wb: &mut Workbook, lang: Lang, s: &Styles) -> Result<(), XlsxError> {
    let (ws, cols) = input_sheet(wb, "Models", lang, s)?;
    for (r, m) in catalog::models().iter().enumerate() {
        let r = r as u32 + 1;
        style::text(ws, r, 0, &m.name, &s.text)?;
        for (i, c) in cols.iter().enumerate().skip(1) {
            let v = m.field(c.key);
            if v > 0.0 {
                style::number(ws, r, i as u16, v, &s.general)?;
            }
        }
    }
    Ok(())
}

/// The width of the Assumptions sheet's note column (D), in characters.
const NOTE_WIDTH: f64 = 90.0;
/// The Engines sheet's column widths: engine, applies_to, key, value, unit, version, source.
const ENGINE_WIDTHS: [f64; 7] = [14.0, 11.0, 30.0, 9.0, 9.0, 16.0, 100.0];
/// The Formulas sheet's column widths: name, expression, scope, unit, description.
const FORMULA_WIDTHS: [f64; 5] = [28.0, 70.0, 11.0, 9.0, 90.0];
/// The APIs sheet's column widths: provider, model, three prices, source.
const API_WIDTHS: [f64; 6] = [22.0, 14.0, 12.0, 12.0, 12.0, 90.0];

/// The Assumptions sheet: each built-in assumption with its value, unit and note.
fn assumptions_sheet(wb: &mut Workbook, lang: Lang, s: &Styles) -> Result<(), XlsxError> {
    let (ws, _) = input_sheet(wb, "Assumptions", lang, s)?;
    ws.set_column_width(0, 26)?;
    ws.set_column_width(3, NOTE_WIDTH)?;
    for (r, a) in catalog::assumptions(lang).items.iter().enumerate() {
        let r = r as u32 + 1;
        style::text(ws, r, 0, &a.key, &s.bold)?;
        match &a.value {
            Value::Number(n) => style::number(ws, r, 1, *n, &s.general)?,
            Value::Bool(b) => style::text(ws, r, 1, style::yes_no(*b).get(lang), &s.text)?,
            Value::Text(t) => style::text(ws, r, 1, t, &s.text)?,
        }
        style::text(ws, r, 2, &a.unit, &s.text)?;
        style::text(ws, r, 3, &a.note, &s.wrap)?;
        style::fit_row_height(ws, r, &[(&a.note, NOTE_WIDTH)])?;
    }
    Ok(())
}

/// The Engines sheet: the built-in engine profiles, each value with its version and source.
fn engines_sheet(wb: &mut Workbook, lang: Lang, s: &Styles) -> Result<(), XlsxError> {
    let (ws, _) = input_sheet(wb, "Engines", lang, s)?;
    style::widths(ws, &ENGINE_WIDTHS)?;
    let applies_dv = DataValidation::new()
        .allow_list_strings(&["serving", "training", "any"])?
        .ignore_blank(true);
    ws.add_data_validation(1, 1, VALIDATED_ROWS, 1, &applies_dv)?;
    for (r, v) in catalog::engines().values.iter().enumerate() {
        let r = r as u32 + 1;
        style::text(ws, r, 0, &v.engine, &s.bold)?;
        style::text(ws, r, 1, v.applies.key(), &s.text)?;
        if !v.key.is_empty() {
            style::text(ws, r, 2, &v.key, &s.text)?;
            if v.unit == "yes/no" {
                style::text(ws, r, 3, style::yes_no(v.value != 0.0).get(lang), &s.text)?;
            } else {
                style::number(ws, r, 3, v.value, &s.general)?;
            }
            style::text(ws, r, 4, &v.unit, &s.text)?;
        }
        style::text(ws, r, 5, &v.version, &s.text)?;
        style::text(ws, r, 6, &v.source, &s.wrap)?;
        style::fit_row_height(ws, r, &[(&v.source, ENGINE_WIDTHS[6])])?;
    }
    Ok(())
}

/// The Formulas sheet: the default formulas, to read and edit.
fn formulas_sheet(wb: &mut Workbook, lang: Lang, s: &Styles) -> Result<(), XlsxError> {
    let (ws, _) = input_sheet(wb, "Formulas", lang, s)?;
    style::widths(ws, &FORMULA_WIDTHS)?;
    let scope_dv = DataValidation::new()
        .allow_list_strings(&["candidate", "portfolio"])?
        .ignore_blank(true);
    ws.add_data_validation(1, 2, VALIDATED_ROWS, 2, &scope_dv)?;
    for (r, f) in catalog::formulas().iter().enumerate() {
        let r = r as u32 + 1;
        style::text(ws, r, 0, &f.name, &s.bold)?;
        style::text(ws, r, 1, &f.expression, &s.wrap)?;
        style::text(ws, r, 2, f.scope.key(), &s.text)?;
        style::text(ws, r, 3, &f.unit, &s.text)?;
        let description = catalog::formula_description(f).get(lang);
        style::text(ws, r, 4, description, &s.wrap)?;
        style::fit_row_height(
            ws,
            r,
            &[
                (&f.expression, FORMULA_WIDTHS[1]),
                (description, FORMULA_WIDTHS[4]),
            ],
        )?;
    }
    Ok(())
}

/// The APIs sheet: the built-in example prices, each with where and when it was read.
fn apis_sheet(wb: &mut Workbook, lang: Lang, s: &Styles) -> Result<(), XlsxError> {
    let (ws, _) = input_sheet(wb, "APIs", lang, s)?;
    style::widths(ws, &API_WIDTHS)?;
    for (r, a) in catalog::apis().iter().enumerate() {
        let r = r as u32 + 1;
        style::text(ws, r, 0, &a.provider, &s.text)?;
        style::text(ws, r, 1, &a.model, &s.bold)?;
        style::number(ws, r, 2, a.input_per_m, &s.general)?;
        style::number(ws, r, 3, a.output_per_m, &s.general)?;
        if let Some(c) = a.cached_input_per_m {
            style::number(ws, r, 4, c, &s.general)?;
        }
        style::text(ws, r, 5, &a.source, &s.wrap)?;
        style::fit_row_height(ws, r, &[(&a.source, API_WIDTHS[5])])?;
    }
    Ok(())
}

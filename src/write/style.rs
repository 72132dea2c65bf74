//! Cell formats shared by every tab, and small writing helpers that keep input text as text.

use rust_xlsxwriter::{Color, Format, FormatAlign, FormatBorder, Worksheet, XlsxError};

/// Excel refuses longer strings.
const MAX_TEXT: usize = 32_000;

pub struct Styles {
    pub header: Format,
    pub title: Format,
    pub subtitle: Format,
    pub bold: Format,
    pub text: Format,
    pub wrap: Format,
    pub number: Format,
    pub integer: Format,
    pub gib: Format,
    pub pct: Format,
    pub money: Format,
    pub money_bold: Format,
    pub money_total: Format,
    pub bad: Format,
    pub good: Format,
    pub muted: Format,
}

/// The number format of money in a currency: a symbol where `currency_symbol` has one, any
/// other ISO code as a suffix.
pub fn money_format(currency: &str) -> String {
    match crate::model::currency_symbol(currency) {
        Some((s, 0)) => format!("{s}#,##0"),
        Some((s, _)) => format!("{s}#,##0.00"),
        None => format!("#,##0.00 \"{}\"", currency.replace('"', "")),
    }
}

impl Styles {
    pub fn new(currency: &str) -> Styles {
        let money = money_format(currency);
        Styles {
            header: Format::new()
                .set_bold()
                .set_text_wrap()
                .set_align(FormatAlign::VerticalCenter)
                .set_background_color(Color::RGB(0x1F4E78))
                .set_font_color(Color::White)
                .set_border_bottom(FormatBorder::Thin),
            title: Format::new()
                .set_bold()
                .set_font_size(16)
                .set_font_color(Color::RGB(0x1F4E78)),
            subtitle: Format::new()
                .set_bold()
                .set_font_size(12)
                .set_font_color(Color::RGB(0x1F4E78)),
            bold: Format::new().set_bold(),
            text: Format::new(),
            wrap: Format::new().set_text_wrap().set_align(FormatAlign::Top),
            number: Format::new().set_num_format("#,##0.##"),
            integer: Format::new().set_num_format("#,##0"),
            gib: Format::new().set_num_format("#,##0.0"),
            pct: Format::new().set_num_format("0%"),
            money: Format::new().set_num_format(&money),
            money_bold: Format::new().set_num_format(&money).set_bold(),
            money_total: Format::new()
                .set_num_format(&money)
                .set_bold()
                .set_font_size(14)
                .set_background_color(Color::RGB(0xE2EFDA))
                .set_border(FormatBorder::Thin),
            bad: Format::new()
                .set_background_color(Color::RGB(0xFFC7CE))
                .set_font_color(Color::RGB(0x9C0006)),
            good: Format::new()
                .set_background_color(Color::RGB(0xC6EFCE))
                .set_font_color(Color::RGB(0x006100)),
            muted: Format::new()
                .set_font_color(Color::RGB(0x7F7F7F))
                .set_italic(),
        }
    }
}

/// `yes`/`no`, or `是`/`否` in Chinese: how yes/no values are written in every workbook.
pub fn yes_no(b: bool, zh: bool) -> &'static str {
    match (b, zh) {
        (true, false) => "yes",
        (false, false) => "no",
        (true, true) => "是",
        (false, true) => "否",
    }
}

/// Text trimmed to what Excel accepts in a cell.
pub fn clip(s: &str) -> std::borrow::Cow<'_, str> {
    if s.len() > MAX_TEXT {
        std::borrow::Cow::Owned(s.chars().take(MAX_TEXT).collect())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// Writes text from the input as text, never as a formula, trimmed to Excel's limit.
pub fn text(ws: &mut Worksheet, row: u32, col: u16, s: &str, f: &Format) -> Result<(), XlsxError> {
    ws.write_string_with_format(row, col, clip(s), f)?;
    Ok(())
}

/// Writes a number, leaving the cell blank for a value that is not finite.
pub fn number(ws: &mut Worksheet, row: u32, col: u16, v: f64, f: &Format) -> Result<(), XlsxError> {
    if v.is_finite() {
        ws.write_number_with_format(row, col, v, f)?;
    }
    Ok(())
}

/// A header row with a note on each cell explaining it.
pub fn header(
    ws: &mut Worksheet,
    row: u32,
    cols: &[(String, String)],
    s: &Styles,
) -> Result<(), XlsxError> {
    for (i, (label, note)) in cols.iter().enumerate() {
        text(ws, row, i as u16, label, &s.header)?;
        if !note.is_empty() {
            let n = rust_xlsxwriter::Note::new(note.chars().take(2000).collect::<String>())
                .set_author("gpuplan")
                .set_width(320)
                .set_height(120);
            ws.insert_note(row, i as u16, &n)?;
        }
    }
    ws.set_row_height(row, 32)?;
    Ok(())
}

/// Sets the widths of the first columns, from column A, in characters.
pub fn widths(ws: &mut Worksheet, widths: &[f64]) -> Result<(), XlsxError> {
    for (c, w) in widths.iter().enumerate() {
        ws.set_column_width(c as u16, *w)?;
    }
    Ok(())
}

/// Width of a column from its longest text, between `min` and `max` characters.
pub fn fit_width<'a>(texts: impl IntoIterator<Item = &'a str>, min: f64, max: f64) -> f64 {
    let widest = texts
        .into_iter()
        .map(|t| {
            t.chars()
                .map(|c| if c.is_ascii() { 1.0 } else { 2.0 })
                .sum::<f64>()
        })
        .fold(0.0, f64::max);
    (widest + 2.0).clamp(min, max)
}

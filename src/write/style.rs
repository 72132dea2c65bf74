//! Cell formats shared by every tab, and small writing helpers that keep input text as text.

use crate::labels::Label;
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
    /// The budget's label, level with the taller, centred total beside it.
    pub total_label: Format,
    /// A value as typed: Excel's General format, which never shows a trailing point.
    pub general: Format,
    /// A computed value with decimals to show: at most two, chosen by [`Styles::number_for`]
    /// only for values that have one, the first always shown (`#,##0.0#`: `#,##0.##` showed
    /// `730.` for a whole number, and `1.` after an edit, #34 item 11).
    decimals: Format,
    /// A live value that is not money: one or two decimals, never a bare trailing point.
    pub live_number: Format,
    pub integer: Format,
    /// A count in a table beside text: whole, centred.
    pub count: Format,
    pub gib: Format,
    pub pct: Format,
    pub money: Format,
    pub money_bold: Format,
    pub money_total: Format,
    /// An editable input of the plan workbook (a price, a term, a money assumption): Excel's
    /// Input cell style (orange fill, dark blue text, grey border) and unlocked, while every
    /// other cell stays locked under the sheet's protection.
    pub input: Format,
    pub input_money: Format,
    pub input_integer: Format,
    /// An editable share (the safety margin, the trial reserve) as a percentage.
    pub input_pct: Format,
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
        // Body cells sit at the top of their row, as wrapped notes do: a row made taller for a
        // long note keeps its key, figures and note on one line.
        let body = || Format::new().set_align(FormatAlign::Top);
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
            bold: body().set_bold(),
            text: body(),
            wrap: body().set_text_wrap(),
            general: body(),
            decimals: body().set_num_format("#,##0.0#"),
            live_number: body().set_num_format("#,##0.0#"),
            integer: body().set_num_format("#,##0"),
            count: body()
                .set_num_format("#,##0")
                .set_align(FormatAlign::Center),
            gib: body().set_num_format("#,##0.0"),
            pct: body().set_num_format("0%"),
            money: body().set_num_format(&money),
            money_bold: body().set_num_format(&money).set_bold(),
            total_label: Format::new()
                .set_bold()
                .set_align(FormatAlign::VerticalCenter),
            money_total: Format::new()
                .set_num_format(&money)
                .set_align(FormatAlign::VerticalCenter)
                .set_bold()
                .set_font_size(14)
                .set_background_color(Color::RGB(0xE2EFDA))
                .set_border(FormatBorder::Thin),
            input: input_style(body()),
            input_money: input_style(body().set_num_format(&money)),
            input_integer: input_style(body().set_num_format("#,##0")),
            input_pct: input_style(body().set_num_format("0%")),
            bad: body()
                .set_background_color(Color::RGB(0xFFC7CE))
                .set_font_color(Color::RGB(0x9C0006)),
            good: body()
                .set_background_color(Color::RGB(0xC6EFCE))
                .set_font_color(Color::RGB(0x006100)),
            muted: body().set_font_color(Color::RGB(0x7F7F7F)).set_italic(),
        }
    }
}

impl Styles {
    /// The format of a computed number that no edit changes: whole numbers (to two decimals)
    /// with thousands separators and no point, others with their one or two decimals, and a
    /// nonzero value below 0.005 in General so that it does not read as 0.
    pub fn number_for(&self, v: f64) -> &Format {
        let cents = (v * 100.0).round();
        if v == 0.0 || (v.abs() >= 0.005 && cents % 100.0 == 0.0) {
            &self.integer
        } else if v.abs() < 0.005 {
            &self.general
        } else {
            &self.decimals
        }
    }
}

/// Excel's built-in Input cell style, unlocked.
fn input_style(f: Format) -> Format {
    f.set_background_color(Color::RGB(0xFFCC99))
        .set_font_color(Color::RGB(0x3F3F76))
        .set_border(FormatBorder::Thin)
        .set_border_color(Color::RGB(0x7F7F7F))
        .set_unlocked()
}

/// `yes`/`no`, `是`/`否` in Chinese: how yes/no values are written in every workbook.
pub const fn yes_no(b: bool) -> Label {
    if b {
        Label::new("yes", "是")
    } else {
        Label::new("no", "否")
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
        note_on(ws, row, i as u16, note)?;
    }
    ws.set_row_height(row, 32)?;
    Ok(())
}

/// A note on a cell explaining it (none for an empty text), as a header's.
pub fn note_on(ws: &mut Worksheet, row: u32, col: u16, note: &str) -> Result<(), XlsxError> {
    if !note.is_empty() {
        let n = rust_xlsxwriter::Note::new(note.chars().take(2000).collect::<String>())
            .set_author("gpuplan")
            .set_width(320)
            .set_height(120);
        ws.insert_note(row, col, &n)?;
    }
    Ok(())
}

/// Lines a label takes when wrapped at word boundaries in a column `width` characters wide
/// (display width: a CJK character counts two and may break anywhere).
fn wrapped_lines(label: &str, width: f64) -> usize {
    // Bold header text runs about a tenth wider than the width unit.
    wrapped_lines_at(label, width, 1.1)
}

/// Lines a text takes when wrapped at word boundaries in a column `width` characters wide, its
/// characters `factor` width units wide on average, less a character of padding.
fn wrapped_lines_at(text: &str, width: f64, factor: f64) -> usize {
    use unicode_width::UnicodeWidthStr;
    let room = ((width - 1.0) / factor).max(1.0);
    let mut lines = 1usize;
    let mut used = 0.0;
    for word in text.split(' ') {
        let w = word.width() as f64;
        let need = if used == 0.0 { w } else { used + 1.0 + w };
        if need <= room {
            used = need;
        } else if w <= room {
            lines += usize::from(used > 0.0);
            used = w;
        } else {
            // A word longer than the line (or CJK text) breaks across lines.
            let start = if used > 0.0 { used + 1.0 } else { 0.0 };
            let total = start + w;
            lines += (total / room).ceil() as usize - 1;
            used = total % room;
        }
    }
    lines
}

/// Sets a header row's height so that every label shows whole in its column (`widths` from
/// column A, in characters), at least the two lines headers get by default.
pub fn fit_header_height(
    ws: &mut Worksheet,
    row: u32,
    labels: &[&str],
    widths: &[f64],
) -> Result<(), XlsxError> {
    let lines = labels
        .iter()
        .zip(widths)
        .map(|(l, w)| wrapped_lines(l, *w))
        .max()
        .unwrap_or(2)
        .max(2);
    ws.set_row_height(row, 15.0 * lines as f64 + 2.0)?;
    Ok(())
}

/// Sets a body row's height so that every wrapped text in it shows whole in its column (`cells`:
/// each text with its column's width in characters): LibreOffice and WPS print a row at the
/// height it is given, so wrapped notes ran into the rows below. A row of one line keeps the
/// default height; the tallest row Excel allows (409 points) caps it.
pub fn fit_row_height(
    ws: &mut Worksheet,
    row: u32,
    cells: &[(&str, f64)],
) -> Result<(), XlsxError> {
    let lines = cells
        .iter()
        .map(|(text, width)| {
            text.split('\n')
                .map(|line| wrapped_lines_at(line, *width, 1.0))
                .sum::<usize>()
        })
        .max()
        .unwrap_or(1);
    if lines > 1 {
        ws.set_row_height(row, (15.0 * lines as f64).min(409.0))?;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_wrap_at_words_in_their_column() {
        // Width 13: (13 − 1) / 1.1 = 10.9 characters a line.
        assert_eq!(wrapped_lines("GPUs", 13.0), 1);
        // "On-demand" (9) | "price per" (9) | "GPU-hour" (8): three lines.
        assert_eq!(wrapped_lines("On-demand price per GPU-hour", 13.0), 3);
        // 13 CJK characters are 26 columns: three lines of at most 10.9.
        assert_eq!(wrapped_lines("按量单价每卡每小时按量单价", 13.0), 3);
        assert_eq!(wrapped_lines("Workload", 22.0), 1);
        // Body text at one width unit a character: a 20-wide column holds 19 (a character of
        // padding). "aaaa bbbb cccc dddd" is 4 × 4 + 3 = 19: it fits; a fifth word wraps.
        assert_eq!(wrapped_lines_at("aaaa bbbb cccc dddd", 20.0, 1.0), 1);
        assert_eq!(wrapped_lines_at("aaaa bbbb cccc dddd eeee", 20.0, 1.0), 2);
        // A 45-character word in that column breaks across ceil(45 / 19) = 3 lines.
        assert_eq!(wrapped_lines_at(&"x".repeat(45), 20.0, 1.0), 3);
    }

    #[test]
    fn whole_numbers_get_no_decimal_point() {
        let s = Styles::new("CNY");
        let code = |f: &Format| -> String {
            if std::ptr::eq(f, &s.integer) {
                "integer".into()
            } else if std::ptr::eq(f, &s.general) {
                "general".into()
            } else {
                "decimals".into()
            }
        };
        assert_eq!(code(s.number_for(730.0)), "integer");
        assert_eq!(code(s.number_for(0.0)), "integer");
        // 1.999 shows as 2.00 at two decimals: whole.
        assert_eq!(code(s.number_for(1.999)), "integer");
        assert_eq!(code(s.number_for(1.25)), "decimals");
        // Below 0.005 it would read as 0: General shows its digits.
        assert_eq!(code(s.number_for(0.0004)), "general");
    }
}

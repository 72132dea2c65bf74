//! The workbook container, opened defensively: size and magic bytes first, then the zip is
//! inspected (entry count, real inflated sizes, compression ratio, the shared-strings count that
//! calamine would reserve; in worksheets, references past Excel's grid and negative shared-string
//! indices) before calamine parses anything, and sheets are streamed cell by cell under row,
//! column and cell caps. calamine's dense ranges are never built.

use crate::error::Error;
use calamine::{DataRef, Reader, Xlsx};
use std::io::{Cursor, Read};
use std::path::Path;

/// Largest input file accepted.
pub const MAX_FILE_BYTES: u64 = 50_000_000;

/// What a workbook is called in the size refusal.
pub const WORKBOOK: &str = "an .xlsx workbook";

/// Most zip entries accepted (a workbook has a few dozen).
const MAX_ENTRIES: usize = 10_000;
/// Largest inflated size of one entry, and of all together.
const MAX_ENTRY_BYTES: u64 = 256 * 1024 * 1024;
const MAX_TOTAL_BYTES: u64 = 512 * 1024 * 1024;
/// An entry that inflates more than this many times its compressed size (and past 16 MiB) is a zip bomb.
const MAX_RATIO: u64 = 200;
/// Row and column caps per sheet, and a cap on cells in all.
pub const MAX_ROWS: u32 = 100_000;
/// Most columns read per sheet: a value in a column past this (IV, the 256th) is refused.
pub const MAX_COLS: u32 = 256;
const MAX_CELLS: usize = 4_000_000;

/// A cell value as read, before any typing.
#[derive(Debug, Clone, PartialEq)]
pub enum Raw {
    /// A number (integer or float) in a format other than a percentage.
    Number(f64),
    /// A string as stored, untrimmed (also an ISO date or duration stored as text).
    Text(String),
    /// A TRUE/FALSE cell.
    Bool(bool),
    /// A spreadsheet error value such as `#DIV/0!`.
    Error(String),
    /// A date or time (Excel serial number).
    Date(f64),
    /// A formula with no saved value.
    Uncomputed(String),
    /// A number shown as a percentage (a cell in a `0%` format, as Excel makes one where `50%`
    /// is typed): the number itself, 0.5. Only a share column reads it.
    Percent(f64),
}

/// A sheet's non-empty cells, in reading order (row-major).
#[derive(Debug, Clone, Default)]
pub struct RawSheet {
    /// The sheet's name as written in the workbook.
    pub name: String,
    /// Each non-empty cell as (0-based row, 0-based column, value); text of nothing but spaces
    /// and invisible characters counts as blank and is left out.
    pub cells: Vec<(u32, u32, Raw)>,
}

/// An opened, inspected workbook.
pub struct Workbook {
    inner: Xlsx<Cursor<Vec<u8>>>,
    names: Vec<String>,
    hidden: Vec<String>,
}

fn unreadable(path: &Path, reason: impl Into<String>) -> Error {
    Error::Unreadable {
        file: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// Opens the bytes of a file (read with at most [`MAX_FILE_BYTES`]), refusing what is not a
/// sound xlsx package.
pub fn open_bytes(path: &Path, bytes: Vec<u8>) -> Result<Workbook, Error> {
    // Bytes handed over (the page in the browser) meet the bound a file on disk meets.
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(crate::support::files::too_big(
            path,
            bytes.len() as u64,
            MAX_FILE_BYTES,
            WORKBOOK,
        ));
    }
    if bytes.is_empty() {
        return Err(unreadable(
            path,
            "the file is empty; expected an .xlsx workbook",
        ));
    }
    if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        // An OLE container: an encrypted OOXML package holds an "EncryptionInfo" stream (named in
        // UTF-16 in the directory), a legacy workbook a "Workbook" or "Book" stream.
        let utf16 =
            |name: &str| -> Vec<u8> { name.encode_utf16().flat_map(u16::to_le_bytes).collect() };
        let has = |name: &str| {
            let needle = utf16(name);
            bytes.windows(needle.len()).any(|w| w == needle.as_slice())
        };
        let reason = if has("EncryptionInfo") {
            "this workbook is password-protected (encrypted); open it in Excel or LibreOffice, remove the password (File → Info → Protect Workbook, or Save As without a password) and save it as .xlsx"
        } else {
            "this is a legacy .xls workbook (Excel 97–2003); open it in Excel or LibreOffice and save it as .xlsx"
        };
        return Err(unreadable(path, reason));
    }
    if !bytes.starts_with(b"PK\x03\x04") {
        let looks_like_text = bytes
            .iter()
            .take(512)
            .all(|b| b.is_ascii_graphic() || b.is_ascii_whitespace() || *b >= 0x80);
        let what = if looks_like_text {
            "it looks like a text or CSV file"
        } else {
            "it is not a zip package"
        };
        return Err(unreadable(
            path,
            format!("not an .xlsx workbook ({what}); open it in Excel or LibreOffice and save it as .xlsx"),
        ));
    }
    inspect_zip(path, &bytes)?;
    let inner = Xlsx::new(Cursor::new(bytes))
        .map_err(|e| unreadable(path, format!("not a readable .xlsx workbook: {e}")))?;
    let names = inner.sheet_names();
    let hidden = inner
        .sheets_metadata()
        .iter()
        .filter(|m| m.visible != calamine::SheetVisible::Visible)
        .map(|m| m.name.clone())
        .collect();
    Ok(Workbook {
        inner,
        names,
        hidden,
    })
}

/// Checks every entry by inflating it (declared sizes can lie) and the shared-strings header.
fn inspect_zip(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let damaged = |e: &dyn std::fmt::Display| {
        unreadable(path, format!("the workbook is damaged or truncated ({e}); save it again from Excel or LibreOffice"))
    };
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| damaged(&e))?;
    if zip.len() > MAX_ENTRIES {
        return Err(unreadable(
            path,
            format!(
                "the package has {} parts; a workbook has a few dozen",
                zip.len()
            ),
        ));
    }
    let mut is_ods = false;
    let mut total: u64 = 0;
    let mut buf = vec![0u8; 64 * 1024];
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| damaged(&e))?;
        let name = entry
            .name()
            .map(|n| n.to_string())
            .map_err(|e| damaged(&e))?;
        if name == "mimetype" {
            is_ods = true;
        }
        let compressed = entry.compressed_size().max(1);
        let declared = entry.size();
        if declared > MAX_ENTRY_BYTES || declared / compressed > MAX_RATIO && declared > 16 << 20 {
            return Err(bomb(path, &name, declared));
        }
        let mut inflated: u64 = 0;
        let mut head: Vec<u8> = Vec::new();
        let mut scan =
            (name.starts_with("xl/worksheets/") && name.ends_with(".xml")).then(SheetScan::default);
        loop {
            let n = entry.read(&mut buf).map_err(|e| damaged(&e))?;
            if n == 0 {
                break;
            }
            if let Some(sc) = scan.as_mut() {
                sc.feed(&buf[..n]).map_err(|why| {
                    unreadable(path, format!("{name}: {why}; the file is damaged or was not written by a spreadsheet program"))
                })?;
            }
            if head.len() < 4096 {
                head.extend_from_slice(&buf[..n.min(4096 - head.len())]);
            }
            inflated += n as u64;
            total += n as u64;
            if inflated > MAX_ENTRY_BYTES
                || inflated / compressed > MAX_RATIO && inflated > 16 << 20
                || total > MAX_TOTAL_BYTES
            {
                return Err(bomb(path, &name, inflated));
            }
        }
        if name.ends_with("sharedStrings.xml") {
            if let Some(count) = attribute_number(&head, "uniqueCount") {
                // Each string costs at least `<si><t/></si>`; a larger claim is a lie that would make
                // calamine reserve terabytes.
                if count > inflated / 8 + 16 {
                    return Err(unreadable(
                        path,
                        format!("{name} claims {count} strings but holds {inflated} bytes; the file is damaged or hostile"),
                    ));
                }
            }
        }
    }
    if is_ods {
        return Err(unreadable(
            path,
            "this is an OpenDocument (.ods) spreadsheet; save it as .xlsx (Excel 2007-365) and run again",
        ));
    }
    Ok(())
}

/// Excel's grid: 1,048,576 rows by 16,384 columns (A to XFD).
const EXCEL_ROWS: u64 = 1_048_576;
const EXCEL_COLS: u64 = 16_384;

/// A streaming look at a worksheet's XML, tag by tag, for what calamine would take silently or
/// panic on: a cell or row reference past Excel's grid (row 4,294,967,297 wraps onto row 1) and a
/// negative shared-string index.
#[derive(Default)]
struct SheetScan {
    /// Inside a tag: its bytes so far (only the first 4 KiB are kept).
    tag: Option<Vec<u8>>,
    /// The last cell tag was a shared string (`t="s"`).
    shared: bool,
    /// Collecting the text of a shared-string cell's `<v>`.
    value: Option<Vec<u8>>,
}

impl SheetScan {
    fn feed(&mut self, bytes: &[u8]) -> Result<(), String> {
        for &b in bytes {
            if let Some(v) = self.value.as_mut() {
                if b == b'<' {
                    let text = String::from_utf8_lossy(v).trim().to_string();
                    self.value = None;
                    if !text.is_empty() && !text.bytes().all(|c| c.is_ascii_digit()) {
                        return Err(format!(
                            "a shared-string cell holds the index \"{}\", not a whole number ≥ 0",
                            text.chars().take(24).collect::<String>()
                        ));
                    }
                } else if v.len() < 64 {
                    v.push(b);
                    continue;
                } else {
                    continue;
                }
            }
            match (&mut self.tag, b) {
                (None, b'<') => self.tag = Some(Vec::new()),
                (Some(t), b'>') => {
                    let tag = std::mem::take(t);
                    self.tag = None;
                    self.tag_done(&tag)?;
                }
                (Some(t), _) if t.len() < 4096 => t.push(b),
                _ => {}
            }
        }
        Ok(())
    }

    fn tag_done(&mut self, tag: &[u8]) -> Result<(), String> {
        let name_end = tag
            .iter()
            .position(|c| c.is_ascii_whitespace() || *c == b'/')
            .unwrap_or(tag.len());
        // Without its namespace prefix: the Open XML SDK writes `<x:c r="A1">`.
        let name = &tag[..name_end];
        let local = name
            .iter()
            .rposition(|c| *c == b':')
            .map_or(name, |i| &name[i + 1..]);
        match local {
            b"c" => {
                self.shared = attribute(tag, b"t").as_deref() == Some("s");
                if let Some(r) = attribute(tag, b"r") {
                    check_reference(&r)?;
                }
            }
            b"row" => {
                if let Some(r) = attribute(tag, b"r") {
                    check_reference(&format!("A{r}"))?;
                }
            }
            b"v" if self.shared => self.value = Some(Vec::new()),
            _ => {}
        }
        Ok(())
    }
}

/// The value of `name="…"` (or `name = '…'`, as XML allows) in a tag's bytes.
fn attribute(tag: &[u8], name: &[u8]) -> Option<String> {
    let mut i = 0;
    while i + name.len() < tag.len() {
        let before_ok = i > 0 && tag[i - 1].is_ascii_whitespace();
        if before_ok && tag[i..].starts_with(name) {
            let mut k = i + name.len();
            while k < tag.len() && tag[k].is_ascii_whitespace() {
                k += 1;
            }
            if tag.get(k) == Some(&b'=') {
                k += 1;
                while k < tag.len() && tag[k].is_ascii_whitespace() {
                    k += 1;
                }
                let quote = *tag.get(k)?;
                if quote == b'"' || quote == b'\'' {
                    let start = k + 1;
                    let end = tag[start..].iter().position(|c| *c == quote)? + start;
                    return Some(String::from_utf8_lossy(&tag[start..end]).into_owned());
                }
            }
        }
        i += 1;
    }
    None
}

/// Refuses a reference (`D7`) outside Excel's grid, or one that is not letters then digits.
fn check_reference(r: &str) -> Result<(), String> {
    let letters: String = r.chars().take_while(char::is_ascii_alphabetic).collect();
    let digits = &r[letters.len()..];
    let bad = || {
        format!("the cell reference \"{}\" is outside Excel's grid (rows 1 to 1,048,576, columns A to XFD)", r.chars().take(32).collect::<String>())
    };
    if letters.is_empty()
        || letters.len() > 3
        || digits.is_empty()
        || digits.len() > 7
        || !digits.bytes().all(|c| c.is_ascii_digit())
    {
        return Err(bad());
    }
    let col = letters
        .to_ascii_uppercase()
        .bytes()
        .fold(0u64, |acc, c| acc * 26 + u64::from(c - b'A' + 1));
    let row: u64 = digits.parse().map_err(|_| bad())?;
    if row == 0 || row > EXCEL_ROWS || col > EXCEL_COLS {
        return Err(bad());
    }
    Ok(())
}

fn bomb(path: &Path, name: &str, size: u64) -> Error {
    unreadable(
        path,
        format!(
            "the part {name} inflates to over {} MB; refusing it as a zip bomb",
            size / 1_000_000
        ),
    )
}

fn attribute_number(head: &[u8], attr: &str) -> Option<u64> {
    let text = String::from_utf8_lossy(head);
    let at = text.find(&format!("{attr}=\""))? + attr.len() + 2;
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

impl Workbook {
    /// The names of every sheet, hidden ones included, in the workbook's order.
    pub fn sheet_names(&self) -> &[String] {
        &self.names
    }

    /// Whether a sheet is hidden (or very hidden) in the workbook.
    pub fn is_hidden(&self, name: &str) -> bool {
        self.hidden.iter().any(|h| h == name)
    }

    /// Streams one sheet's non-empty cells, refusing a cell past the row or column cap.
    pub fn read_sheet(
        &mut self,
        path: &Path,
        name: &str,
        cells_so_far: &mut usize,
    ) -> Result<RawSheet, Error> {
        let mut reader = self
            .inner
            .worksheet_cells_reader(name)
            .map_err(|e| unreadable(path, format!("sheet {name} cannot be read: {e}")))?;
        let mut sheet = RawSheet {
            name: name.to_string(),
            cells: Vec::new(),
        };
        loop {
            let cell = match reader.next_cell_with_formula() {
                Ok(Some(c)) => c,
                Ok(None) => break,
                Err(e) => return Err(unreadable(path, format!("sheet {name} is damaged: {e}"))),
            };
            let (row, col) = cell.pos;
            let raw = match &cell.value {
                // A formula whose value was never computed (openpyxl writes them so): calamine
                // computes nothing, and a blank would be read silently as a default.
                DataRef::Empty => match &cell.formula {
                    Some(f) => Raw::Uncomputed(f.chars().take(60).collect()),
                    None => continue,
                },
                DataRef::Float(f) => Raw::Number(*f),
                DataRef::Int(i) => Raw::Number(*i as f64),
                DataRef::Bool(b) => Raw::Bool(*b),
                DataRef::String(s) => Raw::Text(s.clone()),
                DataRef::SharedString(s) => Raw::Text((*s).to_string()),
                DataRef::DateTime(d) => Raw::Date(d.as_f64()),
                DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => Raw::Text(s.clone()),
                DataRef::Error(e) => Raw::Error(e.to_string()),
            };
            // Text of nothing but spaces and invisible characters (a zero-width space pasted from
            // a web page) is a blank cell, not a name nobody can see.
            if let Raw::Text(t) = &raw {
                if crate::support::fields::normalize_header(t).is_empty() {
                    continue;
                }
            }
            if row >= MAX_ROWS || col >= MAX_COLS {
                let cell = crate::model::CellRef::new(name, row, col);
                return Err(Error::input(
                    path,
                    cell.to_string(),
                    format!(
                        "a value this far out is beyond what gpuplan reads (at most {MAX_ROWS} rows and {MAX_COLS} columns per sheet); delete it or move the table up"
                    ),
                ));
            }
            *cells_so_far += 1;
            if *cells_so_far > MAX_CELLS {
                return Err(unreadable(path, format!("the workbook holds more than {MAX_CELLS} cells; gpuplan reads at most that")));
            }
            sheet.cells.push((row, col, raw));
        }
        drop(reader);
        self.mark_percentages(path, name, &mut sheet)?;
        Ok(sheet)
    }

    /// Marks the numbers shown as percentages (their cell's number format has a `%`) as
    /// [`Raw::Percent`]: `50%` typed in Excel is stored as 0.5 in a `0%` format, which would
    /// otherwise be read as half an hour in an hours column. A second pass over the sheet, for
    /// the cells' style ids, which the pass that reads values and formulas does not give.
    fn mark_percentages(
        &mut self,
        path: &Path,
        name: &str,
        sheet: &mut RawSheet,
    ) -> Result<(), Error> {
        let mut reader = self
            .inner
            .worksheet_cells_reader(name)
            .map_err(|e| unreadable(path, format!("sheet {name} cannot be read: {e}")))?;
        let percent: Vec<bool> = reader
            .styles()
            .iter()
            .map(|s| {
                s.number_format
                    .as_ref()
                    .is_some_and(|f| is_percent_format(&f.format_code))
            })
            .collect();
        if !percent.contains(&true) {
            return Ok(());
        }
        let mut shown = std::collections::HashSet::new();
        loop {
            match reader.next_style_id() {
                Ok(Some((r, c, id))) if percent.get(id) == Some(&true) => {
                    shown.insert((r, c));
                }
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(e) => return Err(unreadable(path, format!("sheet {name} is damaged: {e}"))),
            }
        }
        for (r, c, raw) in &mut sheet.cells {
            if let Raw::Number(v) = raw {
                if shown.contains(&(*r, *c)) {
                    *raw = Raw::Percent(*v);
                }
            }
        }
        Ok(())
    }
}

/// Whether a number format shows a percentage: a `%` outside quoted text and not escaped
/// (`0%`, `0.00%`, `#,##0.0%;[Red]-0.0%`; not `0"%"` nor `0\%`, which show a literal sign
/// after the number itself).
pub fn is_percent_format(code: &str) -> bool {
    let mut quoted = false;
    let mut chars = code.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '\\' if !quoted => {
                chars.next();
            }
            '%' if !quoted => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::is_percent_format;

    #[test]
    fn percentage_formats_are_told_from_a_literal_percent_sign() {
        for code in ["0%", "0.00%", "#,##0.0%;[Red]-0.0%", "[$-409]0%"] {
            assert!(is_percent_format(code), "{code}");
        }
        for code in [
            "General",
            "0.00",
            r#"0"%""#,
            r"0\%",
            "yyyy-mm-dd",
            r#""100%" 0"#,
        ] {
            assert!(!is_percent_format(code), "{code}");
        }
    }
}

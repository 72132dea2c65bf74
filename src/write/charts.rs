//! Chart data caches. A chart part holds, beside each range it plots (`<c:f>`), a cache of the
//! range's values, which previews, viewers and converters that do not recalculate show instead
//! of the cells. rust_xlsxwriter fills caches from the cells it keeps in memory; it keeps none in
//! constant-memory mode and never the result of a formula, so most of our series had empty
//! caches (blank charts in a preview). The tabs record what each plotted range holds as they
//! write it, and [`fill`] writes those values into the chart parts of the saved package, copying
//! every other part as it is (raw, without recompression).

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{Read, Seek, Write};

/// A plotted cell's value; `None` is a blank cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Point {
    Number(f64),
    Text(String),
}

/// (sheet, first row, column) → the values of the column from that row down (0-based).
type Ranges = HashMap<(String, u32, u16), Vec<Option<Point>>>;

/// The values of every plotted range, recorded while the tabs are written.
#[derive(Default)]
pub struct Caches {
    ranges: RefCell<Ranges>,
}

impl Caches {
    /// Records the values of the one-column range of `sheet` from `first_row` down in `col`, and
    /// returns the range as rust_xlsxwriter takes it: (sheet, first row, col, last row, col).
    pub fn range<'a>(
        &self,
        sheet: &'a str,
        first_row: u32,
        col: u16,
        values: Vec<Option<Point>>,
    ) -> (&'a str, u32, u16, u32, u16) {
        let last = first_row + (values.len() as u32).max(1) - 1;
        self.ranges
            .borrow_mut()
            .insert((sheet.to_string(), first_row, col), values);
        (sheet, first_row, col, last, col)
    }

    /// Records one cell (a series name) and returns it as rust_xlsxwriter takes it.
    pub fn cell<'a>(&self, sheet: &'a str, row: u32, col: u16, text: &str) -> (&'a str, u32, u16) {
        self.ranges.borrow_mut().insert(
            (sheet.to_string(), row, col),
            vec![Some(Point::Text(text.to_string()))],
        );
        (sheet, row, col)
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.borrow().is_empty()
    }

    /// The recorded values of a reference as a chart writes it (`Sheet!$A$2:$A$9`,
    /// `'总览'!$G$26:$G$31`, `Memory!$C$1`).
    fn lookup(&self, reference: &str) -> Option<Vec<Option<Point>>> {
        let (sheet, cells) = reference.rsplit_once('!')?;
        let sheet = sheet
            .strip_prefix('\'')
            .and_then(|s| s.strip_suffix('\''))
            .map_or_else(|| sheet.to_string(), |s| s.replace("''", "'"));
        let first = cells.split(':').next()?;
        let (row, col) = parse_cell(first)?;
        self.ranges.borrow().get(&(sheet, row, col)).cloned()
    }
}

/// `$G$26` → (25, 6), 0-based.
fn parse_cell(a1: &str) -> Option<(u32, u16)> {
    let t = a1.replace('$', "");
    let split = t.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = t.split_at(split);
    let mut col: u32 = 0;
    for c in letters.chars() {
        if !c.is_ascii_uppercase() {
            return None;
        }
        col = col * 26 + (c as u32 - 'A' as u32 + 1);
    }
    let row: u32 = digits.parse().ok()?;
    (col >= 1 && row >= 1).then(|| (row - 1, (col - 1) as u16))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The reference element for `reference` with its cache: `strRef` when the values are text (a
/// category or a series name), else `numRef`.
fn reference_xml(reference: &str, values: &[Option<Point>]) -> String {
    let text = values.iter().any(|v| matches!(v, Some(Point::Text(_))));
    let mut points = String::new();
    for (i, v) in values.iter().enumerate() {
        let v = match v {
            Some(Point::Text(t)) => escape(t),
            Some(Point::Number(n)) if n.is_finite() => format!("{n}"),
            _ => continue,
        };
        points.push_str(&format!("<c:pt idx=\"{i}\"><c:v>{v}</c:v></c:pt>"));
    }
    let n = values.len();
    if text {
        format!(
            "<c:strRef><c:f>{reference}</c:f><c:strCache><c:ptCount val=\"{n}\"/>{points}</c:strCache></c:strRef>"
        )
    } else {
        format!(
            "<c:numRef><c:f>{reference}</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val=\"{n}\"/>{points}</c:numCache></c:numRef>"
        )
    }
}

/// A chart part with every recorded reference's cache rewritten from the recorded values;
/// references with no record stay as they are.
fn rewrite_chart(xml: &str, caches: &Caches) -> String {
    let mut out = String::with_capacity(xml.len() * 2);
    let mut rest = xml;
    loop {
        // The next reference element, whichever kind comes first.
        let next = ["<c:numRef>", "<c:strRef>"]
            .iter()
            .filter_map(|open| rest.find(open).map(|at| (at, *open)))
            .min_by_key(|(at, _)| *at);
        let Some((at, open)) = next else { break };
        let close = if open == "<c:numRef>" {
            "</c:numRef>"
        } else {
            "</c:strRef>"
        };
        let Some(len) = rest[at..].find(close).map(|e| e + close.len()) else {
            break;
        };
        let element = &rest[at..at + len];
        let reference = element
            .split_once("<c:f>")
            .and_then(|(_, r)| r.split_once("</c:f>"))
            .map(|(f, _)| f.replace("&apos;", "'").replace("&amp;", "&"));
        out.push_str(&rest[..at]);
        match reference
            .as_deref()
            .and_then(|r| caches.lookup(r).map(|v| (r, v)))
        {
            Some((r, values)) => out.push_str(&reference_xml(&escape(r), &values)),
            None => out.push_str(element),
        }
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

/// Copies the package `from` to `to`, with the chart parts' caches filled from `caches`.
pub fn fill<R: Read + Seek, W: Write + Seek>(
    from: R,
    to: W,
    caches: &Caches,
) -> zip::result::ZipResult<()> {
    let mut archive = zip::ZipArchive::new(from)?;
    let mut out = zip::ZipWriter::new(to);
    for i in 0..archive.len() {
        let is_chart = {
            let f = archive.by_index_raw(i)?;
            let name = f.name()?;
            name.starts_with("xl/charts/chart") && name.ends_with(".xml")
        };
        if !is_chart {
            out.raw_copy_file(archive.by_index_raw(i)?)?;
            continue;
        }
        let mut f = archive.by_index(i)?;
        let name = f.name()?.to_string();
        let mut xml = String::new();
        f.read_to_string(&mut xml)?;
        drop(f);
        out.start_file(
            name,
            zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated),
        )?;
        out.write_all(rewrite_chart(&xml, caches).as_bytes())?;
    }
    out.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse_to_zero_based_rows_and_columns() {
        assert_eq!(parse_cell("$G$26"), Some((25, 6)));
        assert_eq!(parse_cell("A1"), Some((0, 0)));
        assert_eq!(parse_cell("$AA$3"), Some((2, 26)));
        assert_eq!(parse_cell("$1"), None);
    }

    #[test]
    fn an_empty_cache_is_filled_and_categories_become_text() {
        let caches = Caches::default();
        caches.range(
            "总览",
            25,
            0,
            vec![
                Some(Point::Text("chat-api".into())),
                Some(Point::Text("a<b".into())),
            ],
        );
        caches.range("总览", 25, 6, vec![Some(Point::Number(6000.0)), None]);
        let xml = "<c:ser><c:cat><c:numRef><c:f>'总览'!$A$26:$A$27</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val=\"2\"/></c:numCache></c:numRef></c:cat><c:val><c:numRef><c:f>'总览'!$G$26:$G$27</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val=\"2\"/></c:numCache></c:numRef></c:val><c:val><c:numRef><c:f>Other!$B$2:$B$3</c:f></c:numRef></c:val></c:ser>";
        let got = rewrite_chart(xml, &caches);
        assert_eq!(
            got,
            "<c:ser><c:cat><c:strRef><c:f>'总览'!$A$26:$A$27</c:f><c:strCache><c:ptCount val=\"2\"/><c:pt idx=\"0\"><c:v>chat-api</c:v></c:pt><c:pt idx=\"1\"><c:v>a&lt;b</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>'总览'!$G$26:$G$27</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val=\"2\"/><c:pt idx=\"0\"><c:v>6000</c:v></c:pt></c:numCache></c:numRef></c:val><c:val><c:numRef><c:f>Other!$B$2:$B$3</c:f></c:numRef></c:val></c:ser>"
        );
    }
}

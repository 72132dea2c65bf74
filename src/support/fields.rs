//! The one CSV reader of every table gpuplan reads as text — validation tables, `--map`, bills
//! exports and usage logs: the fields of a line as RFC 4180 quotes them (a quoted field may hold
//! the delimiter, `"Acme Cloud, Inc."`, and a doubled quote), by csv-core's parser. Lines are
//! split by their callers (usage logs are streamed a line at a time), so a quoted field cannot
//! span lines.

/// The unquoted fields of one line, in one buffer (reused between the lines a caller splits with
/// the same `Split`).
#[derive(Debug, Default)]
pub struct Split {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    count: usize,
}

impl Split {
    /// Splits `line` (without its line break) at `delimiter`, quotes taken off as RFC 4180 says.
    pub fn line(&mut self, line: &[u8], delimiter: u8) -> &Split {
        let mut reader = csv_core::ReaderBuilder::new().delimiter(delimiter).build();
        // Unquoting never lengthens a field, and a line has at most one field more than it has
        // bytes: one call with these buffers reads the whole line.
        self.bytes.clear();
        self.bytes.resize(line.len(), 0);
        self.ends.clear();
        self.ends.resize(line.len() + 1, 0);
        self.count = 0;
        let (mut input, mut out) = (line, 0);
        loop {
            let (res, nin, nout, nend) =
                reader.read_record(input, &mut self.bytes[out..], &mut self.ends[self.count..]);
            input = &input[nin..];
            out += nout;
            self.count += nend;
            match res {
                csv_core::ReadRecordResult::InputEmpty if !input.is_empty() => {}
                // Fed in full: an empty input ends the record.
                csv_core::ReadRecordResult::InputEmpty => input = &[],
                csv_core::ReadRecordResult::Record | csv_core::ReadRecordResult::End => break,
                // Not reached with the buffers sized above; stop rather than loop.
                csv_core::ReadRecordResult::OutputFull
                | csv_core::ReadRecordResult::OutputEndsFull => break,
            }
        }
        // An empty line is one empty field, as a spreadsheet reads it.
        if self.count == 0 {
            self.ends[0] = 0;
            self.count = 1;
        }
        self
    }

    /// The fields, in order.
    pub fn fields(&self) -> impl Iterator<Item = &[u8]> {
        let ends = &self.ends[..self.count];
        ends.iter().enumerate().map(move |(i, &end)| {
            let start = if i == 0 { 0 } else { ends[i - 1] };
            &self.bytes[start..end]
        })
    }
}

/// The fields of a line of text, as RFC 4180 reads them (not trimmed).
pub fn fields(line: &str, delimiter: u8) -> Vec<String> {
    Split::default()
        .line(line.as_bytes(), delimiter)
        .fields()
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect()
}

/// Characters that show nothing: zero-width spaces and joiners, the word joiner, the byte-order
/// mark and the soft hyphen.
pub fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}'
    )
}

/// Text as it would be compared: full-width forms made ASCII (`Ｃｏｎｃｕｒｒｅｎｃｙ`, `（`),
/// invisible characters dropped, lower case, runs of white space made one space, trimmed.
pub fn normalize_header(text: &str) -> String {
    let mapped: String = text
        .chars()
        .filter(|c| !invisible(*c))
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' | '\u{00A0}' => ' ',
            c => c,
        })
        .collect::<String>()
        .to_lowercase();
    mapped.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Does a header cell name a column? Its key (spaces and dashes taken for underscores), its
/// English or Chinese label, or `… (key)`, after [`normalize_header`].
pub fn header_matches(header: &str, key: &str, labels: [&str; 2]) -> bool {
    let h = normalize_header(header);
    let as_key: String = h
        .chars()
        .map(|c| if c == ' ' || c == '-' { '_' } else { c })
        .collect();
    h == key
        || as_key == key
        || labels.iter().any(|l| h == normalize_header(l))
        || h.ends_with(&format!("({key})"))
        || h.ends_with(&format!("( {key} )"))
}

/// Numbers from text the way people type them: `1,000`, `12,345.6`, `20%`, `¥6`, ` 24 `. A comma
/// is a thousands separator only between groups of three digits: `9,5` (a decimal comma) is not
/// a number here, rather than silently 95.
pub fn parse_number_text(text: &str) -> Option<f64> {
    let t: String = text
        .trim()
        .trim_start_matches(['¥', '$', '€', '￥'])
        .chars()
        .filter(|c| !matches!(c, '_' | ' ' | '\u{a0}'))
        .map(|c| if c == '，' { ',' } else { c })
        .collect();
    let (body, percent) = match t.strip_suffix('%') {
        Some(p) => (p, true),
        None => (t.as_str(), false),
    };
    let plain = if body.contains(',') {
        without_thousands(body)?
    } else {
        body.to_string()
    };
    let v = plain.parse::<f64>().ok().filter(|v| v.is_finite())?;
    Some(if percent { v / 100.0 } else { v })
}

/// `-12,345.6` → `-12345.6`; None unless the commas separate groups of three digits before
/// any decimal point.
fn without_thousands(s: &str) -> Option<String> {
    let (sign, rest) = match s.strip_prefix(['-', '+']) {
        Some(r) => (&s[..1], r),
        None => ("", s),
    };
    let (int, frac) = match rest.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (rest, None),
    };
    let digits = |g: &str| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit());
    let mut groups = int.split(',');
    let first = groups.next()?;
    if !digits(first) || first.len() > 3 || frac.is_some_and(|f| f.contains(',')) {
        return None;
    }
    let mut out = format!("{sign}{first}");
    for g in groups {
        if g.len() != 3 || !digits(g) {
            return None;
        }
        out.push_str(g);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields_keep_their_delimiters_and_doubled_quotes() {
        assert_eq!(
            fields(r#"2026-01,"Acme Cloud, Inc.","say ""hi""",,5"#, b','),
            ["2026-01", "Acme Cloud, Inc.", r#"say "hi""#, "", "5"]
        );
        assert_eq!(fields("a\tb c\t", b'\t'), ["a", "b c", ""]);
        assert_eq!(fields("", b','), [""]);
        // An unterminated quote takes the rest of the line (csv-core prefers a parse to none).
        assert_eq!(fields(r#"a,"b,c"#, b','), ["a", "b,c"]);
    }
}

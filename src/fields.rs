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

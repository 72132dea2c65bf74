//! The lines of a log, read through one fixed buffer: a line is handed out as a slice of the
//! buffer, never copied or allocated, and a line longer than [`MAX_LINE`] is refused, so a log of
//! any size (or a file that is not a log at all) is read in bounded memory.

use std::io::Read;

/// The longest line accepted. nvidia-smi's widest query rows are a few hundred bytes.
pub const MAX_LINE: usize = 64 * 1024;
/// The read buffer: large reads for speed; always room for a whole line after compaction.
const BUFFER: usize = 1024 * 1024;

/// Why no line could be handed out.
#[derive(Debug)]
pub enum LineError {
    /// The line (its number is [`Lines::number`]) is longer than [`MAX_LINE`].
    TooLong,
    Io(std::io::Error),
}

/// One line, borrowed from the buffer.
#[derive(Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// Without its `\n` or `\r\n`.
    pub text: &'a [u8],
    /// It ended with a newline (the last line of a log cut short does not).
    pub complete: bool,
    /// Its number, from 1.
    pub number: u64,
}

pub struct Lines<R> {
    src: R,
    buf: Vec<u8>,
    /// The unread bytes are `buf[start..end]`; `buf[start..scan]` holds no newline.
    start: usize,
    scan: usize,
    end: usize,
    eof: bool,
    /// The number (from 1) of the line last handed out.
    pub number: u64,
}

impl<R: Read> Lines<R> {
    pub fn new(src: R) -> Self {
        Lines {
            src,
            buf: vec![0; BUFFER],
            start: 0,
            scan: 0,
            end: 0,
            eof: false,
            number: 0,
        }
    }

    /// The next line.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, LineError> {
        let (from, to, complete) = loop {
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.scan..self.end]) {
                let at = self.scan + i;
                let from = self.start;
                self.start = at + 1;
                self.scan = self.start;
                break (from, at, true);
            }
            self.scan = self.end;
            if self.end - self.start > MAX_LINE {
                self.number += 1;
                return Err(LineError::TooLong);
            }
            if self.eof {
                if self.start == self.end {
                    return Ok(None);
                }
                let from = self.start;
                self.start = self.end;
                break (from, self.end, false);
            }
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.scan -= self.start;
                self.start = 0;
            }
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(LineError::Io(e)),
            }
        };
        self.number += 1;
        if to - from > MAX_LINE {
            return Err(LineError::TooLong);
        }
        let mut line = &self.buf[from..to];
        if let [rest @ .., b'\r'] = line {
            line = rest;
        }
        Ok(Some(Line {
            text: line,
            complete,
            number: self.number,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8]) -> Vec<(String, bool)> {
        let mut l = Lines::new(text);
        let mut out = Vec::new();
        while let Some(line) = l.next_line().unwrap_or_else(|e| panic!("{e:?}")) {
            out.push((
                String::from_utf8_lossy(line.text).into_owned(),
                line.complete,
            ));
        }
        out
    }

    #[test]
    fn lines_end_with_newline_or_crlf_and_the_last_may_be_cut() {
        assert_eq!(
            all(b"a,b\r\n\nc\nd"),
            [
                ("a,b".to_string(), true),
                (String::new(), true),
                ("c".to_string(), true),
                ("d".to_string(), false)
            ]
        );
        assert!(all(b"").is_empty());
    }

    #[test]
    fn lines_across_many_buffer_fills_come_out_whole() {
        let line = "2026/11/02 10:00:00.123, 0, 80 %, 40536 MiB\n";
        let text = line.repeat(3 * BUFFER / line.len() + 7);
        let got = all(text.as_bytes());
        assert_eq!(got.len(), 3 * BUFFER / line.len() + 7);
        assert!(got.iter().all(|(l, c)| *c && l == line.trim_end()));
    }

    #[test]
    fn a_line_past_the_limit_is_refused_with_its_number() {
        let mut text = b"ok\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE + 1));
        text.push(b'\n');
        let mut l = Lines::new(&text[..]);
        let first = l
            .next_line()
            .ok()
            .flatten()
            .map(|x| (x.text.to_vec(), x.complete, x.number));
        assert_eq!(first, Some((b"ok".to_vec(), true, 1)));
        assert!(matches!(l.next_line(), Err(LineError::TooLong)));
        assert_eq!(l.number, 2);
        // Without a newline at all: refused as soon as the limit is passed, not at the end.
        let endless = vec![b'y'; 4 * BUFFER];
        let mut l = Lines::new(&endless[..]);
        assert!(matches!(l.next_line(), Err(LineError::TooLong)));
    }
}

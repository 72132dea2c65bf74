//! A log line's fields as bytes: trimmed, unquoted, missing, a number with its unit, and a
//! field as a message shows it.

use crate::support::fields::Split;

/// A field as it reads in a message: quoted, at most 60 characters.
pub fn shown(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    let short: String = s.chars().take(60).collect();
    let more = if short.len() < s.len() { "…" } else { "" };
    format!("\"{short}{more}\"")
}

pub(super) fn trim(b: &[u8]) -> &[u8] {
    b.trim_ascii()
}

/// A CSV field: spaces around it and one pair of double quotes taken off.
pub(super) fn field(b: &[u8]) -> &[u8] {
    let b = trim(b);
    match b {
        [b'"', inner @ .., b'"'] => trim(inner),
        _ => b,
    }
}

/// A CSV line's first field, unquoted and trimmed, as the CSV reader splits the line. Only a
/// quoted first field can hold a comma: any other is read without the reader (this runs on
/// every data row of a log, to tell a header written again).
pub(super) fn first_field(line: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if trim(line).first() != Some(&b'"') {
        let first = line.split(|c| *c == b',').next().unwrap_or_default();
        return std::borrow::Cow::Borrowed(field(first));
    }
    let mut split = Split::default();
    let first = split.line(line, b',').fields().next().unwrap_or_default();
    std::borrow::Cow::Owned(field(first).to_vec())
}

/// `[N/A]`, `N/A`, `[Not Supported]`, `-` (dmon) or nothing: no value.
pub(super) fn missing(b: &[u8]) -> bool {
    b.is_empty()
        || b == b"-"
        || b.eq_ignore_ascii_case(b"N/A")
        || b.eq_ignore_ascii_case(b"[N/A]")
        || b.eq_ignore_ascii_case(b"[Not Supported]")
        || b.eq_ignore_ascii_case(b"Not Supported")
}

/// A decimal number at the start of `b` (no sign, no exponent), and what follows it.
pub(super) fn number(b: &[u8]) -> Option<(f64, &[u8])> {
    let mut whole: u64 = 0;
    let mut i = 0;
    while let Some(c) = b.get(i).filter(|c| c.is_ascii_digit()) {
        whole = whole.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
        i += 1;
    }
    if i == 0 {
        return None;
    }
    let mut v = whole as f64;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let mut scale = 0.1;
        let start = i;
        while let Some(c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            v += f64::from(c - b'0') * scale;
            scale /= 10.0;
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    Some((v, trim(&b[i..])))
}

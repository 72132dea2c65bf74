//! Timestamps as the logs write them, parsed by hand from bytes (a month of 1-second samples on
//! 8 GPUs is 21 million of them): milliseconds since 1970-01-01 00:00. A time without a zone is
//! taken as it is written (only differences between samples matter); a zone (`Z`, `+08:00`)
//! brings it to UTC, so logs from machines in different zones line up.

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;

/// Days from 1970-01-01 to a civil date (proleptic Gregorian; Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The number of `n` ASCII digits at the start of `b`.
fn digits(b: &[u8], n: usize) -> Option<i64> {
    let part = b.get(..n)?;
    let mut v = 0i64;
    for &c in part {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(c - b'0');
    }
    Some(v)
}

/// The day of a date, in ms since 1970, after checking month and day.
fn civil_ms(y: i64, m: i64, d: i64) -> Option<i64> {
    if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d) * DAY_MS)
}

/// `20261102` (dmon's `-o D` column).
pub fn compact_date(b: &[u8]) -> Option<i64> {
    if b.len() != 8 {
        return None;
    }
    civil_ms(digits(b, 4)?, digits(&b[4..], 2)?, digits(&b[6..], 2)?)
}

/// `HH:MM:SS` with an optional fraction (`.123`, `,5`): ms since midnight, and the bytes after it.
fn clock(b: &[u8]) -> Option<(i64, &[u8])> {
    let h = digits(b, 2)?;
    let m = digits(b.get(3..)?, 2)?;
    let s = digits(b.get(6..)?, 2)?;
    if b[2] != b':' || b[5] != b':' || h > 23 || m > 59 || s > 60 {
        return None;
    }
    let mut ms = ((h * 60 + m) * 60 + s) * 1000;
    let mut rest = &b[8..];
    if let [b'.' | b',', tail @ ..] = rest {
        let n = tail.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        // Milliseconds: the first three digits of the fraction; the rest is finer than logs sample.
        let mut frac = 0;
        for i in 0..3 {
            frac = frac * 10
                + tail
                    .get(i)
                    .filter(|_| i < n)
                    .map_or(0, |c| i64::from(c - b'0'));
        }
        ms += frac;
        rest = &tail[n..];
    }
    Some((ms, rest))
}

/// `HH:MM:SS` alone (dmon's `-o T` column): ms since midnight.
pub fn time_of_day(b: &[u8]) -> Option<i64> {
    match clock(b)? {
        (ms, []) => Some(ms),
        _ => None,
    }
}

/// A zone after a time: nothing, `Z`, ` UTC`, `+08:00`, `+0800` or `+08`; the ms to subtract.
fn zone(b: &[u8]) -> Option<i64> {
    let b = b.strip_prefix(b" ").unwrap_or(b);
    match b {
        [] | b"Z" | b"z" | b"UTC" => Some(0),
        [sign @ (b'+' | b'-'), tail @ ..] => {
            let h = digits(tail, 2)?;
            let m = match &tail[2..] {
                [] => 0,
                [b':', mm @ ..] | mm if mm.len() == 2 => digits(mm, 2)?,
                _ => return None,
            };
            if h > 23 || m > 59 {
                return None;
            }
            let offset = (h * 60 + m) * 60_000;
            Some(if *sign == b'+' { offset } else { -offset })
        }
        _ => None,
    }
}

/// Unix seconds, whole or with a fraction (`1762077600`, `1762077600.25`), in ms.
fn unix(b: &[u8]) -> Option<i64> {
    let (whole, frac) = match b.iter().position(|c| *c == b'.') {
        Some(i) => (&b[..i], &b[i + 1..]),
        None => (b, &b""[..]),
    };
    if whole.is_empty() || whole.len() > 11 || !frac.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let secs = digits(whole, whole.len())?;
    let mut ms = 0;
    for i in 0..3 {
        ms = ms * 10 + frac.get(i).map_or(0, |c| i64::from(c - b'0'));
    }
    Some(secs * 1000 + ms)
}

/// A timestamp of nvidia-smi (`2026/11/02 10:00:00.123`), ISO 8601 (`2026-11-02T10:00:00Z`,
/// `2026-11-02 10:00:00+08:00`) or Unix seconds, in ms since 1970-01-01 00:00 (UTC where a
/// zone is given).
pub fn parse(b: &[u8]) -> Option<i64> {
    if b.first().is_some_and(u8::is_ascii_digit)
        && b.iter().all(|c| c.is_ascii_digit() || *c == b'.')
    {
        return unix(b);
    }
    let y = digits(b, 4)?;
    let sep = *b.get(4)?;
    if !(sep == b'/' || sep == b'-') || b.get(7) != Some(&sep) {
        return None;
    }
    let day = civil_ms(y, digits(&b[5..], 2)?, digits(b.get(8..)?, 2)?)?;
    match b.get(10) {
        None => Some(day),
        Some(b' ' | b'T' | b't') => {
            let (ms, rest) = clock(&b[11..])?;
            Some(day + ms - zone(rest)?)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_written_form_gives_the_same_instant() {
        // 2026-11-02 is day 20,759 after 1970-01-01: 56 years of 365 days, 14 leap days
        // (1972…2024) and the 305 days from 1 January to 2 November 2026.
        let day = (56 * 365 + 14 + 305) * DAY_MS;
        let ten = day + 10 * 3_600_000;
        assert_eq!(parse(b"2026/11/02 10:00:00.000"), Some(ten));
        assert_eq!(parse(b"2026/11/02 10:00:00.123"), Some(ten + 123));
        assert_eq!(parse(b"2026-11-02T10:00:00Z"), Some(ten));
        assert_eq!(parse(b"2026-11-02 10:00:00"), Some(ten));
        assert_eq!(parse(b"2026-11-02T18:00:00+08:00"), Some(ten));
        assert_eq!(parse(b"2026-11-02T18:00:00+0800"), Some(ten));
        assert_eq!(parse(b"2026-11-02T05:00:00-05"), Some(ten));
        assert_eq!(parse(b"2026-11-02T10:00:00.5Z"), Some(ten + 500));
        assert_eq!(parse(b"1793613600"), Some(ten));
        assert_eq!(parse(b"1793613600.25"), Some(ten + 250));
        assert_eq!(compact_date(b"20261102"), Some(day));
        assert_eq!(time_of_day(b"10:00:00"), Some(10 * 3_600_000));
    }

    #[test]
    fn a_time_is_written_back_as_iso_8601() {
        let ten = parse(b"2026/11/02 10:00:00.000").unwrap();
        assert_eq!(crate::support::time::iso_ms(ten), "2026-11-02T10:00:00");
        assert_eq!(
            crate::support::time::iso_ms(ten + 123),
            "2026-11-02T10:00:00.123"
        );
        // A zone brings the time to UTC: 18:00 at +08:00 is 10:00.
        assert_eq!(
            crate::support::time::iso_ms(parse(b"2026-11-02T18:00:00+08:00").unwrap()),
            "2026-11-02T10:00:00"
        );
        assert_eq!(
            crate::support::time::iso_ms(parse(b"2024/02/29 23:59:59").unwrap()),
            "2024-02-29T23:59:59"
        );
        assert_eq!(crate::support::time::iso_ms(0), "1970-01-01T00:00:00");
    }

    #[test]
    fn impossible_dates_and_times_are_refused() {
        for bad in [
            &b"2026/13/02 10:00:00"[..],
            b"2026/02/29 10:00:00",
            b"2026/11/02 24:00:00",
            b"2026/11/02 10:60:00",
            b"2026/11/02 10:00",
            b"2026.11.02 10:00:00",
            b"2026-11-02T10:00:00+25:00",
            b"2026-11-02T10:00:00 PST",
            b"abc",
            b"",
            b"12345678901234",
        ] {
            assert_eq!(parse(bad), None, "{}", String::from_utf8_lossy(bad));
        }
        assert_eq!(parse(b"2024/02/29 00:00:00").map(|t| t % DAY_MS), Some(0));
        assert_eq!(compact_date(b"2026110"), None);
        assert_eq!(time_of_day(b"10:00:00x"), None);
    }
}

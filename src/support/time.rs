//! Dates and timings: the civil date of a timestamp (the Summary's input date), and the phase
//! clock of `calc --timings` with the peak memory after each phase.

use std::path::Path;

/// `YYYY-MM-DD` of a Unix timestamp (UTC), by Howard Hinnant's days-from-civil inverse.
pub fn civil_date(secs: i64) -> String {
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// ISO 8601 date and time in UTC of a Unix timestamp: `2026-12-02T20:13:28Z`.
pub fn iso_datetime(secs: i64) -> String {
    format!("{}Z", iso_ms(secs * 1000))
}

/// ISO 8601 date and time without a zone of a time in milliseconds, `2026-11-02T10:00:00`,
/// with `.123` where it is not a whole second.
pub fn iso_ms(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let t = secs.rem_euclid(86_400);
    let frac = match ms.rem_euclid(1000) {
        0 => String::new(),
        f => format!(".{f:03}"),
    };
    format!(
        "{}T{:02}:{:02}:{:02}{frac}",
        civil_date(secs),
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

/// `YYYY-MM-DD` of a spreadsheet date serial (days since 1899-12-30, as Excel and LibreOffice
/// count in the 1900 system).
pub fn serial_date(serial: f64) -> String {
    civil_date(((serial.floor() as i64) - 25_569) * 86_400)
}

/// `SOURCE_DATE_EPOCH` when set to a number.
pub fn source_date_epoch() -> Option<i64> {
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
}

/// Now, as seconds since the Unix epoch, or `SOURCE_DATE_EPOCH` when set: the time a workbook
/// says it was made (reproducible when the variable is set).
pub fn generation_time() -> i64 {
    source_date_epoch().unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    })
}

/// The date the input was saved (`SOURCE_DATE_EPOCH` when set), as YYYY-MM-DD: deterministic
/// for the same file, unlike today's date.
pub fn input_date(input: &Path) -> String {
    let secs = source_date_epoch()
        .or_else(|| {
            let m = std::fs::metadata(input).ok()?.modified().ok()?;
            Some(m.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs() as i64)
        })
        .unwrap_or(0);
    civil_date(secs)
}

/// Seconds since a start, for the phase timings. WebAssembly in a browser has no clock in std
/// (`Instant::now` panics there): the engine's laps read 0 and the page times itself.
#[derive(Clone, Copy)]
pub struct Stopwatch {
    #[cfg(not(target_arch = "wasm32"))]
    started: std::time::Instant,
}

impl Stopwatch {
    /// A stopwatch started now.
    pub fn start() -> Stopwatch {
        Stopwatch {
            #[cfg(not(target_arch = "wasm32"))]
            started: std::time::Instant::now(),
        }
    }

    /// Seconds since [`Stopwatch::start`] (0 where there is no clock).
    pub fn seconds(&self) -> f64 {
        #[cfg(not(target_arch = "wasm32"))]
        return self.started.elapsed().as_secs_f64();
        #[cfg(target_arch = "wasm32")]
        0.0
    }
}

/// Phase timings for `--timings`, with the peak memory after each phase.
pub struct Clock {
    show: bool,
    last: Stopwatch,
    laps: Vec<(&'static str, f64)>,
}

impl Clock {
    /// A clock started now; `show` (`--timings`) decides whether it prints anything.
    pub fn new(show: bool) -> Clock {
        Clock {
            show,
            last: Stopwatch::start(),
            laps: Vec::new(),
        }
    }

    /// Ends the phase `name`: records the seconds since the last lap (or the start), prints the
    /// peak memory so far when shown, and starts the next phase.
    pub fn lap(&mut self, name: &'static str) {
        self.laps.push((name, self.last.seconds()));
        self.memory(name);
        self.last = Stopwatch::start();
    }

    /// Laps timed elsewhere, covering the time since the last lap.
    pub fn laps(&mut self, laps: &[(&'static str, f64)]) {
        self.laps.extend_from_slice(laps);
        if let Some((name, _)) = laps.last() {
            self.memory(name);
        }
        self.last = Stopwatch::start();
    }

    fn memory(&self, name: &str) {
        if let (true, Some(kb)) = (self.show, peak_memory_kb()) {
            eprintln!("timings: after {name}: peak memory {} MB", kb / 1024);
        }
    }

    /// Prints every phase's seconds and their total to stderr as one `timings:` line, when
    /// shown.
    pub fn report(&self) {
        if self.show {
            let total: f64 = self.laps.iter().map(|(_, t)| t).sum();
            let parts: Vec<String> = self
                .laps
                .iter()
                .map(|(n, t)| format!("{n} {t:.3}s"))
                .collect();
            eprintln!("timings: {} (total {total:.3}s)", parts.join(", "));
        }
    }
}

/// The process's peak resident memory so far (Linux), for `--timings`.
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_datetimes_of_known_timestamps() {
        // 1,700,000,000 s = 19,675 days + 80,000 s: 2023-11-14, 22:13:20.
        assert_eq!(iso_datetime(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(iso_datetime(0), "1970-01-01T00:00:00Z");
        // One second before the epoch: the last second of 1969.
        assert_eq!(iso_datetime(-1), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn civil_dates_of_known_timestamps() {
        assert_eq!(civil_date(0), "1970-01-01");
        // 2000-02-29 00:00 UTC = 951,782,400 s: a leap day of a century divisible by 400.
        assert_eq!(civil_date(951_782_400), "2000-02-29");
        // One second before: still the 28th.
        assert_eq!(civil_date(951_782_399), "2000-02-28");
        // 2026-12-02 = 20,789 days after 1970-01-01 → 1,796,169,600 s.
        assert_eq!(civil_date(1_796_169_600), "2026-12-02");
        assert_eq!(civil_date(-86_400), "1969-12-31");
    }

    #[test]
    fn spreadsheet_serials_are_days_since_1899_12_30() {
        // Serial 25,569 is 1970-01-01; 45,352 is 25,569 + 19,783 days = 2024-03-01.
        assert_eq!(serial_date(25_569.0), "1970-01-01");
        assert_eq!(serial_date(45_352.0), "2024-03-01");
        // A time of day does not move the date.
        assert_eq!(serial_date(45_352.75), "2024-03-01");
    }
}

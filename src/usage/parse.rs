//! The three log formats, recognised from the header line and read field by field from bytes:
//!
//! - `nvidia-smi --query-gpu=timestamp,index,uuid,utilization.gpu,memory.used,… --format=csv`
//!   (with or without `nounits`; any of its columns, in any order);
//! - `nvidia-smi dmon` (`# gpu … sm …` headers, whitespace-separated; `-s um` adds `fb`, the
//!   memory used; `-o DT` adds the date and time);
//! - a plain CSV of `timestamp, gpu, utilization, memory_used_mib` (and `hostname`, optionally).

use super::stamp;
use super::stats::MAX_MEMORY_MIB;
use crate::support::fields::Split;

/// Which tool wrote a log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Smi,
    Plain,
    Dmon,
}

impl Kind {
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Smi => "nvidia-smi --query-gpu CSV",
            Kind::Plain => "plain CSV",
            Kind::Dmon => "nvidia-smi dmon",
        }
    }
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Skip,
    Timestamp,
    Date,
    Time,
    Index,
    Uuid,
    /// A plain log's GPU: an index, a uuid, `host:index` or a name of the user's.
    Gpu,
    Host,
    Util,
    Memory,
    Total,
}

/// How a log's samples are placed in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// A date and time on each row.
    Stamp,
    /// dmon `-o T`: the time of day only; the days are counted at each midnight.
    TimeOfDay,
    /// dmon without `-o`: none; samples are `--interval` apart.
    Untimed,
}

/// The columns of a log, from its header line.
#[derive(Debug, Clone)]
pub struct Layout {
    pub kind: Kind,
    roles: Vec<Role>,
    /// Per column: the header gives a unit (`utilization.gpu [%]`), so values should carry it.
    units: Vec<bool>,
    /// Column names as the header writes them, for messages.
    names: Vec<String>,
    /// The header line's bytes: the same line later in the log is skipped.
    pub header: Vec<u8>,
    pub timing: Timing,
    /// The log has a memory-used column.
    pub memory: bool,
}

/// One data row, its fields borrowed from the line.
#[derive(Debug, Default)]
pub struct Row<'a> {
    /// ms since 1970 (Stamp), ms since midnight (TimeOfDay), or 0 (Untimed).
    pub t: i64,
    pub index: Option<&'a [u8]>,
    pub uuid: Option<&'a [u8]>,
    pub gpu: Option<&'a [u8]>,
    pub host: Option<&'a [u8]>,
    /// Utilization in % (None: the log says N/A).
    pub util: Option<f64>,
    /// Memory used and total, MiB.
    pub memory: Option<f64>,
    pub total: Option<f64>,
    /// A value's unit disagrees with the header (`80 %` under `utilization.gpu` without `[%]`,
    /// or `80` under `[%]`).
    pub mixed_units: bool,
}

/// A data line's fields by their column's role, before the figures are read from them.
#[derive(Default)]
struct Fields<'a> {
    /// The row, with its GPU fields (index, uuid, gpu, host) set.
    row: Row<'a>,
    /// The timestamp, or dmon's time of day.
    stamp: &'a [u8],
    /// dmon's date.
    date: &'a [u8],
    /// Utilization, memory used and memory total, each with whether the header gives a unit.
    util: (&'a [u8], bool),
    memory: (&'a [u8], bool),
    total: (&'a [u8], bool),
    /// Fields on the line.
    count: usize,
}

impl<'a> Fields<'a> {
    /// The line's next field, put where its column's role says (nowhere past the header's).
    fn take(&mut self, layout: &Layout, f: &'a [u8]) {
        let i = self.count;
        self.count += 1;
        let (Some(role), Some(unit)) = (layout.roles.get(i), layout.units.get(i)) else {
            return;
        };
        match role {
            Role::Skip => {}
            Role::Timestamp | Role::Time => self.stamp = f,
            Role::Date => self.date = f,
            Role::Index => self.row.index = Some(f),
            Role::Uuid => self.row.uuid = Some(f),
            Role::Gpu => self.row.gpu = Some(f),
            Role::Host => self.row.host = Some(f),
            Role::Util => self.util = (f, *unit),
            Role::Memory => self.memory = (f, *unit),
            Role::Total => self.total = (f, *unit),
        }
    }
}

/// Checks that a row names its GPU: no empty (or N/A) index, uuid or gpu field, and an index
/// that is a whole number.
fn gpu_fields_named(row: &Row) -> Result<(), String> {
    for (id, what) in [(row.index, "index"), (row.uuid, "uuid"), (row.gpu, "gpu")] {
        if id.is_some_and(|v| v.is_empty() || missing(v)) {
            return Err(format!(
                "the {what} field is empty: each row must name its GPU"
            ));
        }
    }
    if let Some(i) = row.index {
        if !i.iter().all(u8::is_ascii_digit) {
            return Err(format!(
                "expected the GPU index as a whole number, found {}",
                shown(i)
            ));
        }
    }
    Ok(())
}

/// A field as it reads in a message: quoted, at most 60 characters.
pub fn shown(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    let short: String = s.chars().take(60).collect();
    let more = if short.len() < s.len() { "…" } else { "" };
    format!("\"{short}{more}\"")
}

fn trim(b: &[u8]) -> &[u8] {
    b.trim_ascii()
}

/// A CSV field: spaces around it and one pair of double quotes taken off.
fn field(b: &[u8]) -> &[u8] {
    let b = trim(b);
    match b {
        [b'"', inner @ .., b'"'] => trim(inner),
        _ => b,
    }
}

/// A CSV line's first field, unquoted and trimmed, as the CSV reader splits the line. Only a
/// quoted first field can hold a comma: any other is read without the reader (this runs on
/// every data row of a log, to tell a header written again).
fn first_field(line: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if trim(line).first() != Some(&b'"') {
        let first = line.split(|c| *c == b',').next().unwrap_or_default();
        return std::borrow::Cow::Borrowed(field(first));
    }
    let mut split = Split::default();
    let first = split.line(line, b',').fields().next().unwrap_or_default();
    std::borrow::Cow::Owned(field(first).to_vec())
}

/// `[N/A]`, `N/A`, `[Not Supported]`, `-` (dmon) or nothing: no value.
fn missing(b: &[u8]) -> bool {
    b.is_empty()
        || b == b"-"
        || b.eq_ignore_ascii_case(b"N/A")
        || b.eq_ignore_ascii_case(b"[N/A]")
        || b.eq_ignore_ascii_case(b"[Not Supported]")
        || b.eq_ignore_ascii_case(b"Not Supported")
}

/// A decimal number at the start of `b` (no sign, no exponent), and what follows it.
fn number(b: &[u8]) -> Option<(f64, &[u8])> {
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

/// The column names of the CSV formats that gpuplan reads (nvidia-smi's query names and the
/// plain format's), as [`role_of`] knows them.
const CSV_NAMES: [&str; 18] = [
    "timestamp",
    "time",
    "index",
    "uuid",
    "gpu_uuid",
    "gpu",
    "gpu_id",
    "hostname",
    "host",
    "utilization.gpu",
    "utilization",
    "utilization_gpu",
    "memory.used",
    "memory_used_mib",
    "memory_used",
    "memory.total",
    "memory_total_mib",
    "memory_total",
];

/// What a column holds, from its name in a header (lower case, without its `[unit]`).
fn role_of(name: &str, dmon: bool) -> Role {
    match (name, dmon) {
        ("date", true) => Role::Date,
        ("time", true) => Role::Time,
        ("gpu" | "idx", true) => Role::Index,
        ("sm", true) => Role::Util,
        ("fb", true) => Role::Memory,
        (_, true) => Role::Skip,
        ("timestamp" | "time", false) => Role::Timestamp,
        ("index", false) => Role::Index,
        ("uuid" | "gpu_uuid", false) => Role::Uuid,
        ("gpu" | "gpu_id", false) => Role::Gpu,
        ("hostname" | "host", false) => Role::Host,
        ("utilization.gpu" | "utilization" | "utilization_gpu", false) => Role::Util,
        ("memory.used" | "memory_used_mib" | "memory_used", false) => Role::Memory,
        ("memory.total" | "memory_total_mib" | "memory_total", false) => Role::Total,
        _ => Role::Skip,
    }
}

const EXPECTED: &str = "expected a usage log's header line: nvidia-smi --query-gpu=timestamp,index,uuid,utilization.gpu,memory.used --format=csv (with or without nounits), an nvidia-smi dmon header (# gpu … sm …), or a plain CSV header timestamp,gpu,utilization,memory_used_mib";

impl Layout {
    /// The layout a header line gives; the message says what is missing or wrong.
    pub fn from_header(line: &[u8]) -> Result<Layout, String> {
        let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        let text = trim(line);
        match text.first() {
            Some(b'#') => Layout::dmon(line, &text[1..]),
            _ => Layout::csv(line),
        }
    }

    fn dmon(line: &[u8], after_hash: &[u8]) -> Result<Layout, String> {
        let names: Vec<String> = after_hash
            .split(u8::is_ascii_whitespace)
            .filter(|f| !f.is_empty())
            .map(|f| String::from_utf8_lossy(f).to_lowercase())
            .collect();
        let roles: Vec<Role> = names.iter().map(|n| role_of(n, true)).collect();
        let has = |r: Role| roles.contains(&r);
        if !has(Role::Index) {
            return Err(format!("{EXPECTED}; found {}", shown(line)));
        }
        if !has(Role::Util) {
            return Err(format!(
                "this nvidia-smi dmon log has no sm column (the GPU's utilization); record it with `nvidia-smi dmon -s um -o DT` (u: utilization, m: memory used; DT: date and time). Found {}",
                shown(line)
            ));
        }
        let timing = match (has(Role::Date), has(Role::Time)) {
            (true, true) => Timing::Stamp,
            (_, true) => Timing::TimeOfDay,
            _ => Timing::Untimed,
        };
        Ok(Layout {
            kind: Kind::Dmon,
            units: vec![false; roles.len()],
            memory: has(Role::Memory),
            roles,
            names,
            header: line.to_vec(),
            timing,
        })
    }

    fn csv(line: &[u8]) -> Result<Layout, String> {
        let mut roles = Vec::new();
        let mut units = Vec::new();
        let mut names = Vec::new();
        // Split as the data rows are, by the one CSV reader: a quoted name holding a comma
        // (`"rack, host"`) is one column, or every column after it would be read one field off.
        let mut split = Split::default();
        for raw in split.line(line, b',').fields() {
            let f = String::from_utf8_lossy(field(raw)).to_string();
            // `utilization.gpu [%]`: the name, and whether values carry a unit.
            let (name, unit) = match f.split_once('[') {
                Some((n, u)) if u.ends_with(']') => (n.trim().to_string(), true),
                _ => (f.trim().to_string(), false),
            };
            let lower = name.to_lowercase();
            roles.push(role_of(&lower, false));
            units.push(unit);
            names.push(name);
        }
        let has = |r: Role| roles.contains(&r);
        let known = roles.iter().filter(|r| **r != Role::Skip).count();
        if known < 2 {
            let first = first_field(line);
            let hint = if stamp::parse(&first).is_some() {
                "; this looks like a data row: the log needs its header line (nvidia-smi writes it with --format=csv, not csv,noheader)"
            } else {
                ""
            };
            return Err(format!("{EXPECTED}; found {}{hint}", shown(line)));
        }
        let smi = names.iter().any(|n| n.contains('.')) || has(Role::Index) || has(Role::Uuid);
        let kind = if smi { Kind::Smi } else { Kind::Plain };
        let what = kind.describe();
        let mut lacking = Vec::new();
        if !has(Role::Timestamp) {
            lacking.push("timestamp");
        }
        if !(has(Role::Index) || has(Role::Uuid) || has(Role::Gpu)) {
            lacking.push(if smi { "index or uuid" } else { "gpu" });
        }
        if !has(Role::Util) {
            lacking.push(if smi {
                "utilization.gpu"
            } else {
                "utilization"
            });
        }
        if !lacking.is_empty() {
            let fix = if smi {
                "query them with nvidia-smi --query-gpu=timestamp,index,uuid,utilization.gpu,memory.used,memory.total --format=csv -l 60"
            } else {
                "a plain log's header is timestamp,gpu,utilization,memory_used_mib"
            };
            return Err(format!(
                "this {what} log has no {} column; {fix}. Found {}",
                lacking.join(", no "),
                shown(line)
            ));
        }
        for (i, r) in roles.iter().enumerate() {
            if *r != Role::Skip && roles[..i].contains(r) {
                return Err(format!(
                    "the column {} appears twice in the header {}",
                    names[i],
                    shown(line)
                ));
            }
        }
        Ok(Layout {
            kind,
            memory: has(Role::Memory),
            roles,
            units,
            names,
            header: line.to_vec(),
            timing: Timing::Stamp,
        })
    }

    /// Whether a line of a CSV log is a header: its first field (without a `[unit]`) names a
    /// column gpuplan reads, or the first column of this log's header. A data row's first field
    /// is a time, an index, a uuid or a name, never one of those.
    pub fn is_csv_header(&self, line: &[u8]) -> bool {
        let first = first_field(line);
        let first = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&first);
        if !first.first().is_some_and(u8::is_ascii_alphabetic) {
            return false;
        }
        let name = trim(match first.iter().position(|c| *c == b'[') {
            Some(i) => &first[..i],
            None => first,
        });
        CSV_NAMES
            .iter()
            .any(|n| name.eq_ignore_ascii_case(n.as_bytes()))
            || self
                .names
                .first()
                .is_some_and(|n| name.eq_ignore_ascii_case(n.as_bytes()))
    }

    /// Whether a dmon line (after its `#`) is a header, not the units line under it.
    pub fn is_dmon_header(after_hash: &[u8]) -> bool {
        let first = after_hash
            .split(u8::is_ascii_whitespace)
            .find(|f| !f.is_empty())
            .unwrap_or_default();
        [&b"gpu"[..], b"date", b"time"]
            .iter()
            .any(|h| first.eq_ignore_ascii_case(h))
    }

    /// The column names, for messages.
    fn listed(&self) -> String {
        self.names.join(", ")
    }

    /// One data row. The message says which field is wrong and what it holds. A line with
    /// quoted fields is unquoted into `split` (the row's fields may then borrow from it).
    pub fn row<'a>(&self, line: &'a [u8], split: &'a mut Split) -> Result<Row<'a>, String> {
        let Fields {
            mut row,
            stamp,
            date,
            util,
            memory,
            total,
            count,
        } = self.fields(line, split);
        if count != self.roles.len() {
            return Err(format!(
                "expected {} fields ({}), found {count}: {}",
                self.roles.len(),
                self.listed(),
                shown(line)
            ));
        }
        row.t = self.time(stamp, date)?;
        gpu_fields_named(&row)?;
        let mut mixed = false;
        row.util = self.percent(util, &mut mixed)?;
        row.memory = self.mib(memory, "memory used", &mut mixed)?;
        row.total = self.mib(total, "memory total", &mut mixed)?;
        row.mixed_units = mixed;
        Ok(row)
    }

    /// A data line split into its fields (at whitespace for dmon, at commas otherwise), each
    /// put where its column's role says.
    fn fields<'a>(&self, line: &'a [u8], split: &'a mut Split) -> Fields<'a> {
        let mut fields = Fields::default();
        if self.kind == Kind::Dmon {
            for f in line
                .split(u8::is_ascii_whitespace)
                .filter(|f| !f.is_empty())
            {
                fields.take(self, f);
            }
        } else if memchr::memchr(b'"', line).is_none() {
            // No quote: RFC 4180 splits it at every comma, without copying.
            for f in line.split(|c| *c == b',') {
                fields.take(self, field(f));
            }
        } else {
            // Quoted fields (a hostname or GPU name with a comma): the one CSV reader.
            for f in split.line(line, b',').fields() {
                fields.take(self, field(f));
            }
        }
        fields
    }

    /// A row's time from its time (or timestamp) and date fields, as [`Row::t`] holds it.
    fn time(&self, stamp_field: &[u8], date_field: &[u8]) -> Result<i64, String> {
        match self.timing {
            Timing::Untimed => Ok(0),
            Timing::TimeOfDay => stamp::time_of_day(stamp_field).ok_or_else(|| {
                format!("expected the time as HH:MM:SS, found {}", shown(stamp_field))
            }),
            Timing::Stamp if self.kind == Kind::Dmon => stamp::compact_date(date_field)
                .zip(stamp::time_of_day(stamp_field))
                .map(|(d, t)| d + t)
                .ok_or_else(|| {
                    format!(
                        "expected the date and time as YYYYMMDD HH:MM:SS, found {} {}",
                        shown(date_field),
                        shown(stamp_field)
                    )
                }),
            Timing::Stamp => stamp::parse(stamp_field).ok_or_else(|| {
                format!(
                    "expected a timestamp such as 2026/11/02 10:00:00.123 (nvidia-smi), 2026-11-02T10:00:00Z or Unix seconds, found {}",
                    shown(stamp_field)
                )
            }),
        }
    }

    fn percent(
        &self,
        (f, declared): (&[u8], bool),
        mixed: &mut bool,
    ) -> Result<Option<f64>, String> {
        if missing(f) {
            return Ok(None);
        }
        let bad = || {
            format!(
                "expected the utilization as a percentage from 0 to 100 (80 or 80 %), found {}",
                shown(f)
            )
        };
        let (v, unit) = number(f).ok_or_else(bad)?;
        match unit {
            b"" => *mixed |= declared,
            b"%" => *mixed |= !declared && self.kind != Kind::Plain,
            _ => return Err(bad()),
        }
        if v > 100.0 {
            return Err(bad());
        }
        Ok(Some(v))
    }

    fn mib(
        &self,
        (f, declared): (&[u8], bool),
        what: &str,
        mixed: &mut bool,
    ) -> Result<Option<f64>, String> {
        if missing(f) {
            return Ok(None);
        }
        let bad = || {
            format!(
                "expected the {what} in MiB (40536 or 40536 MiB), found {}",
                shown(f)
            )
        };
        let (v, unit) = number(f).ok_or_else(bad)?;
        let factor = match unit {
            b"" => {
                *mixed |= declared;
                1.0
            }
            b"MiB" | b"MB" => {
                *mixed |= !declared && self.kind != Kind::Plain;
                1.0
            }
            b"GiB" | b"GB" => 1024.0,
            b"KiB" | b"KB" => 1.0 / 1024.0,
            _ => return Err(bad()),
        };
        let mib = v * factor;
        if mib > MAX_MEMORY_MIB {
            return Err(format!(
                "the {what} is {}, more than any GPU holds (gpuplan reads at most 1 TiB); is the column in the wrong unit?",
                shown(f)
            ));
        }
        Ok(Some(mib))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A buffer for a row's unquoted fields, kept for the test's length.
    fn split() -> &'static mut Split {
        Box::leak(Box::default())
    }

    fn layout(h: &str) -> Layout {
        Layout::from_header(h.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn an_nvidia_smi_row_with_units_reads_its_figures() {
        let l = layout("timestamp, index, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]");
        assert_eq!(l.kind, Kind::Smi);
        let r = l
            .row(b"2026/11/02 10:00:00.123, 0, GPU-5f1c, NVIDIA A100-SXM4-80GB, 80 %, 40536 MiB, 81920 MiB", split())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.index, Some(&b"0"[..]));
        assert_eq!(r.uuid, Some(&b"GPU-5f1c"[..]));
        assert_eq!(
            (r.util, r.memory, r.total),
            (Some(80.0), Some(40536.0), Some(81920.0))
        );
        assert!(!r.mixed_units);
        // Without a unit under a header that gives one: read, and flagged.
        let r = l
            .row(
                b"2026/11/02 10:00:01.123, 0, GPU-5f1c, A100, 80, 40536 MiB, 81920 MiB",
                split(),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(r.mixed_units);
    }

    #[test]
    fn nounits_any_order_and_na_values() {
        let l = layout("utilization.gpu, memory.used, index, timestamp");
        let r = l
            .row(b"12, [N/A], 3, 2026/11/02 10:00:00.000", split())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (r.util, r.memory, r.index),
            (Some(12.0), None, Some(&b"3"[..]))
        );
        assert!(l
            .row(b"12 %, 5, 3, 2026/11/02 10:00:00.000", split())
            .is_ok_and(|r| r.mixed_units));
    }

    #[test]
    fn a_dmon_header_with_date_time_and_fb() {
        let l = layout("#Date       Time        gpu     sm    mem    enc    dec    jpg    ofa     fb   bar1   ccpm ");
        assert_eq!(
            (l.kind, l.timing, l.memory),
            (Kind::Dmon, Timing::Stamp, true)
        );
        let r = l
            .row(b" 20261102   10:00:00      1     80     12      0      0      0      0  40960      2      0 ", split())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (r.util, r.memory, r.index),
            (Some(80.0), Some(40960.0), Some(&b"1"[..]))
        );
        assert!(Layout::is_dmon_header(b"Date Time gpu"));
        assert!(!Layout::is_dmon_header(b"YYYYMMDD   HH:MM:SS    Idx"));
        let plain = layout("# gpu   pwr gtemp mtemp    sm   mem   enc   dec  mclk  pclk");
        assert_eq!((plain.timing, plain.memory), (Timing::Untimed, false));
    }

    #[test]
    fn headers_that_lack_what_the_figures_need_say_so() {
        let e = Layout::from_header(b"timestamp, index, memory.used [MiB]").err();
        assert!(e.is_some_and(|e| e.contains("no utilization.gpu column")));
        let e = Layout::from_header(b"# gpu   pwr gtemp").err();
        assert!(e.is_some_and(|e| e.contains("no sm column")));
        let e = Layout::from_header(b"2026/11/02 10:00:00.123, 0, 80 %").err();
        assert!(e.is_some_and(|e| e.contains("needs its header line")));
        let e = Layout::from_header(b"hello world").err();
        assert!(e.is_some_and(|e| e.contains("expected a usage log's header line")));
    }

    #[test]
    fn a_header_again_is_told_from_a_row_that_starts_with_a_name() {
        let l = layout("gpu, timestamp, utilization, memory_used_mib");
        assert!(l.is_csv_header(b"gpu, timestamp, utilization, memory_used_mib"));
        assert!(l.is_csv_header(b"timestamp, index, utilization.gpu [%]"));
        assert!(!l.is_csv_header(b"a100-east, 2026-11-02T10:00:00Z, 80, 100"));
        assert!(!l.is_csv_header(b"GPU-5f1c, 2026-11-02T10:00:00Z, 80, 100"));
        assert!(!l.is_csv_header(b"2026/11/02 10:00:00.000, 0, 80 %"));
        // Every name role_of knows is in the list is_csv_header looks in.
        for n in CSV_NAMES {
            assert_ne!(role_of(n, false), Role::Skip, "{n}");
        }
    }

    /// #44 item 10: the header line was split at every comma, the data rows by the CSV reader:
    /// a quoted header field holding a comma (`"rack, host"`) became two columns, so every
    /// column after it was read from the field to its left (the utilization from the memory).
    #[test]
    fn a_quoted_header_field_with_a_comma_is_one_column() {
        let l = layout(r#"timestamp,"rack, host",gpu,utilization,memory_used_mib"#);
        let r = l
            .row(br#"2026-11-02T10:00:00Z,"r1, node1",0,80,1024"#, split())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (r.gpu, r.util, r.memory),
            (Some(&b"0"[..]), Some(80.0), Some(1024.0))
        );
        assert!(l.is_csv_header(br#""timestamp","rack, host",gpu,utilization,memory_used_mib"#));
    }

    #[test]
    fn bad_fields_are_named() {
        let l = layout("timestamp,gpu,utilization,memory_used_mib");
        assert_eq!(l.kind, Kind::Plain);
        let e = |line: &str| l.row(line.as_bytes(), split()).err().unwrap_or_default();
        assert!(e("2026-11-02T10:00:00Z,0,80").contains("expected 4 fields"));
        assert!(e("2026-11-02T10:00:00Z,0,180,5").contains("from 0 to 100"));
        assert!(e("2026-11-02T10:00:00Z,0,abc,5").contains("\"abc\""));
        assert!(e("yesterday,0,80,5").contains("expected a timestamp"));
        assert!(e("2026-11-02T10:00:00Z,0,80,5 parsecs").contains("in MiB"));
        assert!(e("2026-11-02T10:00:00Z,0,80,99999999").contains("1 TiB"));
        assert!(l
            .row(b"1793613600,GPU-x,80%,40 GiB", split())
            .is_ok_and(|r| r.memory == Some(40960.0)));
    }
}

//! A log's layout from its header line (nvidia-smi's CSV, dmon or a plain CSV), and a header
//! written again told from a data row.

use super::bytes::{field, first_field, shown, trim};
use super::{role_of, Kind, Layout, Role, Timing, CSV_NAMES};
use crate::support::fields::Split;
use crate::usage::stamp;

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
}

//! One data row of a log: its fields put where their columns' roles say, then its time, its
//! GPU and its figures read, each with what is wrong in it.

use super::bytes::{field, missing, number, shown};
use super::{Kind, Layout, Role, Row, Timing};
use crate::support::fields::Split;
use crate::usage::stamp;
use crate::usage::stats::MAX_MEMORY_MIB;

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

impl Layout {
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

    /// A figure in its column's unit: a bare number (mixed where the header gives the unit),
    /// the column's own unit on the value (mixed where the header gives none, in a log other
    /// than plain), or another unit `scales` converts; `None` where the field is missing.
    fn scaled(
        &self,
        (f, declared): (&[u8], bool),
        own: &[&[u8]],
        scales: &[(&[u8], f64)],
        bad: &dyn Fn() -> String,
        mixed: &mut bool,
    ) -> Result<Option<f64>, String> {
        if missing(f) {
            return Ok(None);
        }
        let (v, unit) = number(f).ok_or_else(bad)?;
        let factor = if unit.is_empty() {
            *mixed |= declared;
            1.0
        } else if own.contains(&unit) {
            *mixed |= !declared && self.kind != Kind::Plain;
            1.0
        } else {
            scales
                .iter()
                .find(|(u, _)| *u == unit)
                .map(|(_, s)| *s)
                .ok_or_else(bad)?
        };
        Ok(Some(v * factor))
    }

    fn percent(&self, field: (&[u8], bool), mixed: &mut bool) -> Result<Option<f64>, String> {
        let bad = || {
            format!(
                "expected the utilization as a percentage from 0 to 100 (80 or 80 %), found {}",
                shown(field.0)
            )
        };
        match self.scaled(field, &[b"%"], &[], &bad, mixed)? {
            Some(v) if v > 100.0 => Err(bad()),
            v => Ok(v),
        }
    }

    fn mib(
        &self,
        field: (&[u8], bool),
        what: &str,
        mixed: &mut bool,
    ) -> Result<Option<f64>, String> {
        let bad = || {
            format!(
                "expected the {what} in MiB (40536 or 40536 MiB), found {}",
                shown(field.0)
            )
        };
        let scales: [(&[u8], f64); 4] = [
            (b"GiB", 1024.0),
            (b"GB", 1024.0),
            (b"KiB", 1.0 / 1024.0),
            (b"KB", 1.0 / 1024.0),
        ];
        let mib = self.scaled(field, &[b"MiB", b"MB"], &scales, &bad, mixed)?;
        if mib.is_some_and(|m| m > MAX_MEMORY_MIB) {
            return Err(format!(
                "the {what} is {}, more than any GPU holds (gpuplan reads at most 1 TiB); is the column in the wrong unit?",
                shown(field.0)
            ));
        }
        Ok(mib)
    }
}

//! The three log formats, recognised from the header line and read field by field from bytes:
//!
//! - `nvidia-smi --query-gpu=timestamp,index,uuid,utilization.gpu,memory.used,… --format=csv`
//!   (with or without `nounits`; any of its columns, in any order);
//! - `nvidia-smi dmon` (`# gpu … sm …` headers, whitespace-separated; `-s um` adds `fb`, the
//!   memory used; `-o DT` adds the date and time);
//! - a plain CSV of `timestamp, gpu, utilization, memory_used_mib` (and `hostname`, optionally).

mod bytes;
mod header;
mod row;
#[cfg(test)]
mod tests;

pub use bytes::shown;

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

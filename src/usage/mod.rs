//! `gpuplan usage`: what really ran, from GPU usage logs. Each log is streamed line by line
//! (bounded memory whatever its size), its format recognised from its header; each sample goes
//! to its GPU's stream and, through the mapping of GPUs to workloads, to a workload; at the end
//! each workload gets its [`Actual`]: active hours extrapolated to a month, utilization, memory
//! peak and 95th percentile, and the days the logs cover.
//!
//! Definitions (the README and `gpuplan usage --help` say the same):
//! - a sample is **active** when its utilization is above `usage_active_threshold` (a share);
//! - each sample stands for the time to its GPU's next sample, at most twice the GPU's median
//!   interval (a gap in the log counts as idle), and the last sample for one median interval;
//! - a GPU's **span** is its first to its last sample plus one median interval; its active hours
//!   are extrapolated to a month as active × `hours_in_month` ÷ span;
//! - a workload's hours are GPU-hours summed over its GPUs; its `utilization` is those hours ÷
//!   (`hours_in_month` × its GPUs): the share of the month each of its GPUs was busy, the plan's
//!   `run_hours ÷ hours_in_month` per instance;
//! - `busy_utilization` is the time-weighted average utilization of the active samples.
//!
//! This file holds the figures' types and the run's state; `file` reads one log line by line
//! (its header, its rows, what it warns of), `gpus` moves each GPU's stream of samples on, and
//! `actuals` adds each workload's GPUs up into its [`Actual`].

mod actuals;
pub mod bills;
pub mod compare;
mod file;
mod gpus;
mod lines;
mod map;
mod parse;
mod stamp;
mod stats;

pub use map::{read_map, GpuId};

use crate::error::{Error, Problem, Result};
use crate::model::{GpuMapping, Warning};
use actuals::Workload;
use serde::Serialize;
use stats::Intervals;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What the figures depend on besides the logs.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// `usage_active_threshold`: a sample is active above this share (0.1 = 10 %).
    pub threshold: f64,
    /// `hours_in_month`.
    pub hours_in_month: f64,
    /// `--interval`: seconds between the samples of a dmon log without times.
    pub interval_s: f64,
}

/// What one workload really used.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Actual {
    /// The workload's name from the mapping (Usage sheet or `--map`), or, without a
    /// mapping, the GPU's id as the logs name it.
    pub workload: String,
    /// GPUs with samples.
    pub gpus: usize,
    /// Active GPU-hours extrapolated to a month (summed over the workload's GPUs).
    pub active_hours_month: f64,
    /// active_hours_month ÷ (hours_in_month × gpus), 0 to 1.
    pub utilization: f64,
    /// Average utilization while active, 0 to 1; null without active samples.
    pub busy_utilization: Option<f64>,
    /// Largest memory used on one of its GPUs, GiB; null when the logs have no memory figures.
    pub memory_peak_gib: Option<f64>,
    /// 95th percentile of the memory samples, GiB (at most 16 MiB above the exact value).
    pub memory_p95_gib: Option<f64>,
    /// First sample to last plus one sampling interval, in days.
    pub days_covered: f64,
    /// Its first and last sample times over all logs, ISO 8601 (`2026-11-02T10:00:00`, with
    /// milliseconds where not whole seconds): in UTC where the logs give a zone, as written where
    /// they do not; null when no GPU of it has dated samples (a dmon log without its date).
    pub first_sample: Option<String>,
    /// Its last sample time, as [`Actual::first_sample`] is written.
    pub last_sample: Option<String>,
    /// Samples read for it.
    pub samples: u64,
    /// Active GPU-hours over the days covered, before the extrapolation.
    pub active_hours: f64,
    /// Memory of its largest GPU, GiB (nvidia-smi's memory.total); null when not logged.
    pub memory_total_gib: Option<f64>,
    /// Its GPUs as the logs name them.
    pub gpu_ids: Vec<String>,
}

/// The result of reading the logs.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// One entry per workload with samples: the mapping's workloads in its order, then
    /// GPUs as first seen; never empty.
    pub actuals: Vec<Actual>,
    /// What the reader noticed on the way: cut-short or out-of-order lines, GPUs no mapping
    /// names, mapping rows no log holds, workloads without samples, short coverage.
    pub warnings: Vec<Warning>,
}

/// One GPU's stream of samples.
struct Gpu {
    id: GpuId,
    workload: Option<usize>,
    /// `FILE:LINE` where it first appears.
    first_seen: String,
    samples: u64,
    first_t: i64,
    last_t: i64,
    last_active: bool,
    last_util: f64,
    intervals: Intervals,
    /// The sampling interval of an untimed dmon log (ms).
    nominal: Option<f64>,
    /// Whether every sample had a date (a full timestamp): a dmon log with times of day only,
    /// or none, starts on a made-up day, which the logs' first and last times leave out.
    dated: bool,
    /// The longest interval, and the file and line of the sample after it.
    longest: (i64, usize, u64),
    /// Samples of a GPU no mapping names.
    ignored: u64,
}

/// One run over the logs: each GPU's stream and the workloads they feed, with what was noticed
/// on the way. Its reading is in `file`, its GPUs' streams in `gpus`, its sums in `actuals`.
struct Analysis<'m> {
    settings: Settings,
    mapping: Option<&'m [GpuMapping]>,
    used: Vec<bool>,
    gpus: Vec<Gpu>,
    by_key: HashMap<String, usize>,
    workloads: Vec<Workload>,
    warnings: Vec<Warning>,
    problems: Vec<Problem>,
    more: usize,
}

/// Reads the logs and works out each workload's actuals. Without a mapping, each GPU is its own
/// workload, named as the logs name it.
pub fn analyze(
    logs: &[PathBuf],
    mapping: Option<&[GpuMapping]>,
    settings: Settings,
) -> Result<Report> {
    let mut a = Analysis {
        settings,
        mapping,
        used: vec![false; mapping.map_or(0, <[GpuMapping]>::len)],
        gpus: Vec::new(),
        by_key: HashMap::new(),
        workloads: Vec::new(),
        warnings: Vec::new(),
        problems: Vec::new(),
        more: 0,
    };
    for m in mapping.unwrap_or_default() {
        if !a.workloads.iter().any(|w| w.name == m.workload) {
            a.workloads.push(Workload {
                name: m.workload.clone(),
                ..Workload::default()
            });
        }
    }
    for (no, path) in logs.iter().enumerate() {
        a.read(no, path)?;
    }
    if !a.problems.is_empty() {
        return Err(Error::Lines {
            problems: a.problems,
            more: a.more,
        });
    }
    a.finish(logs)
}

/// The host of a log's GPUs: its file name up to the first dot (`node1.smi.csv` → `node1`).
pub fn host_of(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    match name.split('.').next() {
        Some(h) if !h.is_empty() => h.to_string(),
        _ => name,
    }
}

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

pub mod bills;
pub mod compare;
mod lines;
mod map;
mod parse;
mod stamp;
mod stats;

pub use map::{read_map, GpuId};

use crate::error::{Error, Problem, Result, SHOWN_PROBLEMS};
use crate::model::{GpuMapping, Warning};
use lines::{LineError, Lines};
use parse::{Kind, Layout, Timing};
use serde::Serialize;
use stamp::DAY_MS;
use stats::{Intervals, Memory};
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

/// Most GPUs in one run: a bound on memory (a log whose GPU column holds garbage would otherwise
/// make a stream per line).
const MAX_GPUS: usize = 4096;
/// Problems in one file before it is given up as the wrong kind of file.
const MAX_FILE_PROBLEMS: usize = 1000;

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

/// A workload's figures across its GPUs.
#[derive(Default)]
struct Workload {
    name: String,
    memory: Memory,
    no_memory: u64,
    total_mib: Option<f64>,
    /// Samples whose memory used exceeds the memory total on the same line.
    over_total: u64,
}

impl Workload {
    /// A sample's memory figures: used (or counted as missing) and total.
    fn add(&mut self, row: &parse::Row) {
        match row.memory {
            Some(m) => self.memory.add(m),
            None => self.no_memory += 1,
        }
        if let Some(total) = row.total {
            self.total_mib = Some(self.total_mib.map_or(total, |t: f64| t.max(total)));
            if row.memory.is_some_and(|m| m > total) {
                self.over_total += 1;
            }
        }
    }

    /// Warns when the logs cover less than a day, and when memory figures are missing.
    fn warn(&self, days: f64, warnings: &mut Vec<Warning>) {
        if days < 1.0 {
            warnings.push(Warning::warn(
                self.name.clone(),
                format!(
                    "the logs cover {:.1} hours only; a month extrapolated from so little is a rough guess",
                    days * 24.0
                ),
            ).with_zh(format!(
                "日志只覆盖 {:.1} 小时，据此推算整月只是粗略估计",
                days * 24.0
            )));
        }
        if self.over_total > 0 {
            warnings.push(Warning::warn(
                self.name.clone(),
                format!(
                    "{} sample(s) use more memory than the GPU's memory.total on the same line: the columns may be swapped or the log damaged; the memory peak is taken as logged",
                    self.over_total
                ),
            ).with_zh(format!(
                "{} 个样本的显存用量超过同一行的 memory.total：列可能错位或日志已损坏；显存峰值按记录值计",
                self.over_total
            )));
        }
        if self.memory.count() == 0 {
            warnings.push(
                Warning::warn(
                    self.name.clone(),
                    "no memory figures in its logs: the memory peak is unknown",
                )
                .with_zh("日志中没有显存数据：显存峰值未知"),
            );
        } else if self.no_memory > 0 {
            warnings.push(Warning::info(
                self.name.clone(),
                format!(
                    "{} of its samples have no memory figure; the peak and 95th percentile are of the other {}",
                    self.no_memory,
                    self.memory.count()
                ),
            ).with_zh(format!(
                "{} 个样本没有显存数据；峰值和 95 分位数按其余 {} 个样本计算",
                self.no_memory,
                self.memory.count()
            )));
        }
    }
}

/// What a line of a log that has its layout is, besides a data row.
enum HeaderLine {
    /// The header again (nvidia-smi may write it again), or dmon's units line under it: skipped.
    Again,
    /// A different header: the lines after it follow it.
    New,
    /// Not a header: a data row.
    Data,
}

/// Whether a line of a log laid out as `layout` is a header, the same or a new one.
fn header_line(layout: &Layout, text: &[u8]) -> HeaderLine {
    let trimmed = text.trim_ascii_start();
    if layout.kind == Kind::Dmon {
        if let Some(after) = trimmed.strip_prefix(b"#") {
            if Layout::is_dmon_header(after) && text != layout.header.as_slice() {
                return HeaderLine::New;
            }
            return HeaderLine::Again; // a repeated header, or the units line under it
        }
    } else if text == layout.header.as_slice() {
        return HeaderLine::Again; // nvidia-smi may write its header again
    } else if layout.is_csv_header(text) {
        return HeaderLine::New;
    }
    HeaderLine::Data
}

/// A kind of warning counted in one file: where it first happened, what, and how often.
#[derive(Default)]
struct Tally {
    count: u64,
    first: u64,
    detail: String,
}

impl Tally {
    fn add(&mut self, line: u64, detail: impl FnOnce() -> String) {
        if self.count == 0 {
            self.first = line;
            self.detail = detail();
        }
        self.count += 1;
    }

    fn warn(
        &self,
        file: &str,
        warnings: &mut Vec<Warning>,
        what: impl FnOnce(&str, u64) -> [String; 2],
    ) {
        if self.count > 0 {
            let [en, zh] = what(&self.detail, self.count);
            warnings.push(Warning::warn(format!("{file}:{}", self.first), en).with_zh(zh));
        }
    }
}

/// One log being read.
struct File {
    no: usize,
    name: String,
    /// The file's name up to its first dot: the host of its GPUs.
    host: String,
    layout: Option<Layout>,
    /// GPU fields seen in this file (uuid, index or gpu; host) → GPU, so that a line costs a
    /// comparison of a few bytes, not a lookup by a built string.
    local: Vec<(Vec<u8>, Vec<u8>, usize)>,
    /// dmon `-o T`: the day (ms) and the latest time read.
    day: i64,
    latest: i64,
    problems: usize,
    samples: u64,
    max_util: f64,
    backwards: Tally,
    mixed: Tally,
    no_util: Tally,
    cut: Tally,
}

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

impl Analysis<'_> {
    fn problem(&mut self, file: &mut File, line: u64, message: String) {
        file.problems += 1;
        if self.problems.len() < SHOWN_PROBLEMS {
            self.problems
                .push(Problem::new(format!("{}:{line}", file.name), message));
        } else {
            self.more += 1;
        }
    }

    fn read(&mut self, no: usize, path: &Path) -> Result<()> {
        let unreadable = |e: std::io::Error| Error::Unreadable {
            file: path.to_path_buf(),
            reason: format!("cannot read the file: {}", crate::error::describe(&e)),
        };
        let f = std::fs::File::open(path).map_err(unreadable)?;
        let mut lines = Lines::new(f);
        let mut file = File {
            no,
            name: path.display().to_string(),
            host: host_of(path),
            layout: None,
            local: Vec::new(),
            day: 0,
            latest: i64::MIN,
            problems: 0,
            samples: 0,
            max_util: 0.0,
            backwards: Tally::default(),
            mixed: Tally::default(),
            no_util: Tally::default(),
            cut: Tally::default(),
        };
        loop {
            let lines::Line {
                text,
                complete,
                number,
            } = match lines.next_line() {
                Ok(Some(l)) => l,
                Ok(None) => break,
                Err(LineError::TooLong) => {
                    let message = format!(
                        "a line longer than {} KiB: not a usage log, or a damaged one; the rest of the file was not read",
                        lines::MAX_LINE / 1024
                    );
                    self.problem(&mut file, lines.number, message);
                    break;
                }
                Err(LineError::Io(e)) => return Err(unreadable(e)),
            };
            if !self.line(&mut file, text, complete, number) {
                break;
            }
        }
        self.end_of_file(&file);
        Ok(())
    }

    /// One line; false when the rest of the file is not worth reading.
    fn line(&mut self, file: &mut File, text: &[u8], complete: bool, number: u64) -> bool {
        if text.trim_ascii().is_empty() {
            return true;
        }
        let Some(layout) = &file.layout else {
            return self.first_line(file, text, number);
        };
        match header_line(layout, text) {
            HeaderLine::Again => return true,
            HeaderLine::New => return self.relayout(file, text, number),
            HeaderLine::Data => {}
        }
        let mut split = crate::support::fields::Split::default();
        let row = match layout.row(text, &mut split) {
            Ok(r) => r,
            Err(message) if !complete => {
                file.cut.add(number, || message);
                return true;
            }
            Err(message) => {
                self.problem(file, number, message);
                return self.keep_reading(file, number);
            }
        };
        let Some(util) = row.util else {
            file.no_util.add(number, String::new);
            return true;
        };
        if row.mixed_units {
            let header = String::from_utf8_lossy(&layout.header).trim().to_string();
            file.mixed.add(number, || header);
        }
        let timing = layout.timing;
        let g = self.gpu_of(file, &row, number);
        let Some(g) = g else {
            return self.keep_reading(file, number);
        };
        let workload = self.gpus[g].workload;
        let Some(w) = workload else {
            self.gpus[g].ignored += 1;
            return true;
        };
        let t = self.sample_time(file, g, timing, row.t);
        file.latest = file.latest.max(t);
        if self.step(file, g, t, util, number) {
            self.workloads[w].add(&row);
        }
        true
    }

    /// The time (ms) of GPU `g`'s next sample, whose row says `row_t`: as the row gives it, on
    /// the day a dmon log with times only has reached, or (untimed) one `--interval` after the
    /// GPU's last sample.
    fn sample_time(&mut self, file: &mut File, g: usize, timing: Timing, row_t: i64) -> i64 {
        let interval_ms = self.settings.interval_s * 1000.0;
        let gpu = &mut self.gpus[g];
        match timing {
            Timing::Stamp => row_t,
            Timing::TimeOfDay => {
                gpu.dated = false;
                // The day turns when the time of day falls back by more than 12 hours.
                let mut t = file.day + row_t;
                if file.latest != i64::MIN && t < file.latest - DAY_MS / 2 {
                    file.day += DAY_MS;
                    t += DAY_MS;
                }
                t
            }
            Timing::Untimed => {
                gpu.dated = false;
                gpu.nominal = Some(interval_ms);
                if gpu.samples == 0 {
                    0
                } else {
                    gpu.last_t + interval_ms.round() as i64
                }
            }
        }
    }

    /// Moves GPU `g`'s stream on to a sample at `t` with utilization `util` (%), the interval
    /// since its last sample counted; false, the sample tallied as going back in time and
    /// skipped, when `t` is before that last sample.
    fn step(&mut self, file: &mut File, g: usize, t: i64, util: f64, number: u64) -> bool {
        let active = util / 100.0 > self.settings.threshold;
        let gpu = &mut self.gpus[g];
        if gpu.samples > 0 {
            let d = t - gpu.last_t;
            if d < 0 {
                let name = gpu.id.name();
                let (from, to) = (gpu.last_t, t);
                file.backwards.add(number, || {
                    format!(
                        "{name}'s clock goes back from {} to {}",
                        clock_text(from),
                        clock_text(to)
                    )
                });
                return false;
            }
            gpu.intervals.add(d, gpu.last_active, gpu.last_util);
            if d > gpu.longest.0 {
                gpu.longest = (d, file.no, number);
            }
        } else {
            gpu.first_t = t;
        }
        gpu.last_t = t;
        gpu.last_active = active;
        gpu.last_util = util;
        gpu.samples += 1;
        file.samples += 1;
        file.max_util = file.max_util.max(util);
        true
    }

    fn keep_reading(&mut self, file: &mut File, number: u64) -> bool {
        if file.problems < MAX_FILE_PROBLEMS {
            return true;
        }
        let message = format!(
            "{MAX_FILE_PROBLEMS} lines could not be read; the rest of the file was not read (is it a usage log?)"
        );
        self.problem(file, number, message);
        false
    }

    /// The first line: the header, or a clear word on what the file is instead.
    fn first_line(&mut self, file: &mut File, text: &[u8], number: u64) -> bool {
        let what = if text.starts_with(b"\x1f\x8b") {
            Some("this file is gzip-compressed; decompress it first (gunzip -k FILE, or zcat FILE > FILE.csv)")
        } else if text.starts_with(b"PK\x03\x04") {
            Some("this is a zip package (a workbook?), not a usage log; give the workbook with --workbook")
        } else if text.starts_with(b"\xff\xfe")
            || text.starts_with(b"\xfe\xff")
            || (text.len() >= 2 && text[1] == 0 && text[0] != 0)
        {
            // PowerShell's `>` writes UTF-16: a byte-order mark, or a NUL after each ASCII byte.
            Some("this log is UTF-16 text (PowerShell's `>` writes it); gpuplan reads UTF-8: write it with `nvidia-smi ... | Out-File -Encoding utf8 FILE`, or convert it with `iconv -f UTF-16 -t UTF-8 FILE > FILE.csv`")
        } else if text.contains(&0) {
            Some("this is a binary file, not a usage log (text written by nvidia-smi or a CSV)")
        } else {
            None
        };
        if let Some(what) = what {
            self.problem(file, number, what.to_string());
            return false;
        }
        self.relayout(file, text, number)
    }

    fn relayout(&mut self, file: &mut File, text: &[u8], number: u64) -> bool {
        match Layout::from_header(text) {
            Ok(l) => {
                if l.timing == Timing::Untimed {
                    self.warnings.push(Warning::info(
                        format!("{}:{number}", file.name),
                        format!(
                            "an nvidia-smi dmon log without dates or times: its samples are taken as {} s apart (--interval), counted from the start of the file; record with `nvidia-smi dmon -o DT` to time them",
                            crate::model::format_number(self.settings.interval_s)
                        ),
                    ).with_zh(format!(
                        "nvidia-smi dmon 日志没有日期和时间：样本按间隔 {} 秒（--interval）从文件开头起计时；请用 `nvidia-smi dmon -o DT` 记录以带上时间",
                        crate::model::format_number(self.settings.interval_s)
                    )));
                }
                if l.timing == Timing::TimeOfDay {
                    self.warnings.push(Warning::info(
                        format!("{}:{number}", file.name),
                        "an nvidia-smi dmon log with times but no dates: a day is counted each time the clock passes midnight; record with `-o DT` to date them",
                    ).with_zh("nvidia-smi dmon 日志有时间但没有日期：时钟每过一次午夜计为一天；请用 `-o DT` 记录以带上日期"));
                }
                if !l.memory {
                    let [en, zh] = match l.kind {
                        Kind::Dmon => ["this dmon log has no fb column (memory used): the memory peak is unknown; record with `nvidia-smi dmon -s um -o DT`", "此 dmon 日志没有 fb 列（已用显存）：显存峰值未知；请用 `nvidia-smi dmon -s um -o DT` 记录"],
                        Kind::Smi => ["this log has no memory.used column: the memory peak is unknown; add memory.used to --query-gpu", "此日志没有 memory.used 列：显存峰值未知；请在 --query-gpu 中加上 memory.used"],
                        Kind::Plain => ["this log has no memory_used_mib column: the memory peak is unknown", "此日志没有 memory_used_mib 列：显存峰值未知"],
                    };
                    self.warnings
                        .push(Warning::warn(format!("{}:{number}", file.name), en).with_zh(zh));
                }
                // A new header may name the GPUs differently.
                file.local.clear();
                file.layout = Some(l);
                true
            }
            Err(message) => {
                self.problem(file, number, message);
                false
            }
        }
    }

    /// The GPU of a row: looked up by its bytes in the file's list, else made (and mapped).
    fn gpu_of(&mut self, file: &mut File, row: &parse::Row, number: u64) -> Option<usize> {
        let key: &[u8] = row.uuid.or(row.index).or(row.gpu).unwrap_or_default();
        let host: &[u8] = row.host.unwrap_or_default();
        if let Some((_, _, g)) = file
            .local
            .iter()
            .find(|(k, h, _)| k.as_slice() == key && h.as_slice() == host)
        {
            return Some(*g);
        }
        let text = |b: &[u8]| String::from_utf8_lossy(b).trim().to_string();
        let host_name = row.host.map_or_else(|| file.host.clone(), text);
        let id = match (row.uuid, row.index, row.gpu) {
            (None, None, Some(g)) => GpuId::from_plain(&host_name, &text(g)),
            (uuid, index, _) => GpuId {
                host: host_name,
                index: index.and_then(|i| text(i).parse().ok()),
                uuid: uuid.map(text),
                label: None,
            },
        };
        let keys = id.keys();
        // Two hosts' logs of the same file name give the same host:index; their uuids, where
        // both are logged, tell them apart (uuid wins).
        let same_uuid = |known: &GpuId| match (&known.uuid, &id.uuid) {
            (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
            _ => true,
        };
        let g = match keys
            .iter()
            .find_map(|k| self.by_key.get(k))
            .filter(|&&g| same_uuid(&self.gpus[g].id))
        {
            Some(&g) => {
                // The same GPU, now seen with its uuid (or its index) as well.
                let known = &mut self.gpus[g].id;
                if known.uuid.is_none() {
                    known.uuid = id.uuid;
                }
                if known.index.is_none() {
                    known.index = id.index;
                }
                g
            }
            None => {
                if self.gpus.len() >= MAX_GPUS {
                    let message = format!(
                        "more than {MAX_GPUS} different GPUs in the logs; is the GPU column right? Found {}",
                        parse::shown(key)
                    );
                    self.problem(file, number, message);
                    return None;
                }
                let workload = self.workload_of(&id);
                self.gpus.push(Gpu {
                    id,
                    workload,
                    first_seen: format!("{}:{number}", file.name),
                    samples: 0,
                    first_t: 0,
                    last_t: 0,
                    last_active: false,
                    last_util: 0.0,
                    intervals: Intervals::default(),
                    nominal: None,
                    dated: true,
                    longest: (0, 0, 0),
                    ignored: 0,
                });
                self.gpus.len() - 1
            }
        };
        for k in keys {
            self.by_key.entry(k).or_insert(g);
        }
        file.local.push((key.to_vec(), host.to_vec(), g));
        Some(g)
    }

    /// The workload a new GPU's samples go to: its mapping row's, or (without a mapping) its own.
    fn workload_of(&mut self, id: &GpuId) -> Option<usize> {
        match self.mapping {
            Some(mapping) => {
                let row = map::find(mapping, id)?;
                self.used[row] = true;
                self.workloads
                    .iter()
                    .position(|w| w.name == mapping[row].workload)
            }
            None => {
                self.workloads.push(Workload {
                    name: id.name(),
                    ..Workload::default()
                });
                Some(self.workloads.len() - 1)
            }
        }
    }

    fn end_of_file(&mut self, file: &File) {
        let w = &mut self.warnings;
        let name = &file.name;
        file.cut.warn(name, w, |detail, _| {
            [format!("the last line is cut short (the log was still being written, or was truncated) and was skipped: {detail}"),
             format!("最后一行不完整（日志仍在写入或被截断），已跳过：{detail}")]
        });
        file.backwards.warn(name, w, |detail, n| {
            [format!("{detail}; the sample is skipped ({n} sample(s) in this file went back in time: a clock set back, or logs given out of order — give each GPU's logs oldest first)"),
             format!("{detail}；该样本已跳过（此文件中有 {n} 个样本的时间倒退：时钟被回拨，或日志顺序有误——请按时间先后给出每张 GPU 的日志）")]
        });
        file.mixed.warn(name, w, |header, n| {
            [format!("values with and without units are mixed in one log ({n} line(s) disagree with the header {header:?}); they were read in the header's units (% and MiB)"),
             format!("同一日志中混有带单位和不带单位的数值（{n} 行与表头 {header:?} 不一致），已按表头的单位（% 和 MiB）读取")]
        });
        file.no_util.warn(name, w, |_, n| {
            [
                format!("{n} sample(s) without a utilization figure (N/A) were skipped"),
                format!("已跳过 {n} 个没有利用率数据（N/A）的样本"),
            ]
        });
        let kind = file.layout.as_ref().map(|l| l.kind);
        if kind == Some(Kind::Plain)
            && file.samples > 0
            && file.max_util > 0.0
            && file.max_util <= 1.0
        {
            w.push(Warning::warn(
                name.clone(),
                "the utilization never exceeds 1: if it is a fraction (0–1), multiply it by 100; gpuplan reads percent (0–100)",
            ).with_zh("利用率从未超过 1：如果是小数（0–1），请乘以 100；gpuplan 按百分数（0–100）读取"));
        }
        if file.layout.is_some() && file.samples == 0 && file.problems == 0 {
            let ignored = self.gpus.iter().any(|g| g.ignored > 0);
            if !ignored {
                w.push(
                    Warning::warn(name.clone(), "the log holds no samples")
                        .with_zh("日志中没有样本"),
                );
            }
        }
        if file.layout.is_none() && file.problems == 0 {
            w.push(Warning::warn(name.clone(), "the file is empty").with_zh("文件为空"));
        }
    }

    /// Each workload's actuals from its GPUs' streams, with the warnings on GPUs no mapping
    /// names, mapping rows no log holds, and each workload's figures; an error when no workload
    /// has any.
    fn finish(mut self, logs: &[PathBuf]) -> Result<Report> {
        self.warn_unmapped_gpus();
        self.warn_unused_mappings();
        let mut actuals = Vec::new();
        for w in 0..self.workloads.len() {
            if let Some(actual) = self.actual(w, logs) {
                actuals.push(actual);
            }
        }
        if actuals.is_empty() {
            return Err(self.no_actuals());
        }
        Ok(Report {
            actuals,
            warnings: self.warnings,
        })
    }

    /// Warns of each GPU whose samples were ignored because no mapping row names it.
    fn warn_unmapped_gpus(&mut self) {
        for g in &self.gpus {
            if g.workload.is_none() && g.ignored > 0 {
                self.warnings.push(Warning::warn(
                    g.first_seen.clone(),
                    format!(
                        "the GPU {} maps to no workload (no row of the Usage sheet or --map names it by its uuid, host:index or index); its {} sample(s) are ignored",
                        g.id.name(),
                        g.ignored
                    ),
                ).with_zh(format!(
                    "GPU {} 没有对应的负载（用量表或 --map 中没有按 uuid、host:index 或序号指向它的行），其 {} 个样本已忽略",
                    g.id.name(),
                    g.ignored
                )));
            }
        }
    }

    /// Warns of each mapping row that no GPU in the logs matched.
    fn warn_unused_mappings(&mut self) {
        if let Some(mapping) = self.mapping {
            for (m, used) in mapping.iter().zip(&self.used) {
                if !used {
                    self.warnings.push(
                        Warning::warn(
                            m.location.clone(),
                            format!(
                                "no log holds the GPU {} (mapped to {})",
                                m.gpu_id, m.workload
                            ),
                        )
                        .with_zh(format!(
                            "没有日志包含 GPU {}（对应负载 {}）",
                            m.gpu_id, m.workload
                        )),
                    );
                }
            }
        }
    }

    /// Workload `w`'s actual, with the warnings on its GPUs and figures; None (with a warning
    /// when a mapping names it) when none of its GPUs has samples to count.
    fn actual(&mut self, w: usize, logs: &[PathBuf]) -> Option<Actual> {
        let h = self.settings.hours_in_month;
        let sums = self.sums(w, logs);
        let wl = &self.workloads[w];
        if sums.gpu_ids.is_empty() {
            if self.mapping.is_some() {
                self.warnings.push(
                    Warning::warn(
                        wl.name.clone(),
                        "no samples in the logs for this workload; it is left out",
                    )
                    .with_zh("日志中没有该负载的样本，已略去"),
                );
            }
            return None;
        }
        let gpus = sums.gpu_ids.len();
        let days = (sums.end - sums.start) / DAY_MS as f64;
        wl.warn(days, &mut self.warnings);
        let gib = |mib: f64| mib / 1024.0;
        let active_hours_month = sums.month_ms / 3.6e6;
        Some(Actual {
            workload: wl.name.clone(),
            gpus,
            active_hours_month,
            utilization: active_hours_month / (h * gpus as f64),
            busy_utilization: (sums.active_ms > 0.0).then(|| sums.util_ms / sums.active_ms / 100.0),
            memory_peak_gib: wl.memory.peak().map(gib),
            memory_p95_gib: wl.memory.p95().map(gib),
            days_covered: days,
            first_sample: sums.dated.map(|(t, _)| crate::support::time::iso_ms(t)),
            last_sample: sums.dated.map(|(_, t)| crate::support::time::iso_ms(t)),
            samples: sums.samples,
            active_hours: sums.active_ms / 3.6e6,
            memory_total_gib: wl.total_mib.map(gib),
            gpu_ids: sums.gpu_ids,
        })
    }

    /// Workload `w`'s GPUs with samples added up, each GPU's hours extrapolated over its own
    /// span; a GPU with a single sample is left out and one whose log has gaps warned of.
    fn sums(&mut self, w: usize, logs: &[PathBuf]) -> Sums {
        let h = self.settings.hours_in_month;
        let mut sums = Sums {
            gpu_ids: Vec::new(),
            active_ms: 0.0,
            util_ms: 0.0,
            month_ms: 0.0,
            start: f64::MAX,
            end: f64::MIN,
            dated: None,
            samples: 0,
        };
        let mut short = Vec::new();
        for g in self
            .gpus
            .iter()
            .filter(|g| g.workload == Some(w) && g.samples > 0)
        {
            let Some(t) = g.intervals.totals(g.nominal, g.last_active, g.last_util) else {
                self.warnings.push(
                    Warning::warn(
                        g.first_seen.clone(),
                        format!(
                            "the GPU {} has a single sample: no interval to count; it is left out",
                            g.id.name()
                        ),
                    )
                    .with_zh(format!(
                        "GPU {} 只有一个样本，无法计算时间间隔，已略去",
                        g.id.name()
                    )),
                );
                continue;
            };
            let span = (g.last_t - g.first_t) as f64 + t.median_ms;
            if let Some(warning) = gaps_warning(g, span, t.logged_ms, logs) {
                self.warnings.push(warning);
            }
            sums.active_ms += t.active_ms;
            sums.util_ms += t.util_ms;
            sums.month_ms += t.active_ms / span * h * 3.6e6;
            sums.start = sums.start.min(g.first_t as f64);
            sums.end = sums.end.max(g.last_t as f64 + t.median_ms);
            if g.dated {
                sums.dated = Some(sums.dated.map_or((g.first_t, g.last_t), |(a, b)| {
                    (a.min(g.first_t), b.max(g.last_t))
                }));
            }
            sums.samples += g.samples;
            sums.gpu_ids.push(g.id.name());
            if span < DAY_MS as f64 {
                short.push((g.first_seen.clone(), g.id.name(), span));
            }
        }
        // A GPU seen for a short while in a longer log is extrapolated to a month from that
        // while (the workload's own warning covers logs under a day in all).
        let days = (sums.end - sums.start) / DAY_MS as f64;
        if days >= 1.0 {
            for (at, name, span) in short {
                self.warnings.push(Warning::warn(
                    at,
                    format!(
                        "the GPU {name} is in the logs for {:.1} hours of their {days:.1} days; its month is extrapolated from those hours as if it ran all month (if it was added or removed, give only the logs of its days)",
                        span / 3.6e6
                    ),
                ).with_zh(format!(
                    "GPU {name} 在共 {days:.1} 天的日志中只出现了 {:.1} 小时；其月度用量按这段时间推算，视作整月运行（如该 GPU 是中途加入或撤下的，请只给出它在用那几天的日志）",
                    span / 3.6e6
                )));
            }
        }
        sums
    }

    /// The error when no workload has actuals, with every warning so far (they say why).
    fn no_actuals(&self) -> Error {
        let why = if self.mapping.is_some() {
            "no sample in the logs belongs to a mapped GPU; check the Usage sheet (or --map) against the GPUs the warnings name"
        } else {
            "the logs hold no samples"
        };
        Error::Usage(format!(
            "{why}{}",
            self.warnings
                .iter()
                .map(|w| format!("\nwarning: {}: {}", w.location, w.message))
                .collect::<String>()
        ))
    }
}

/// A workload's GPUs added up.
struct Sums {
    /// Its GPUs with samples, as messages name them.
    gpu_ids: Vec<String>,
    /// Active time, utilization × time while active, and active time extrapolated to a month
    /// (each GPU over its own span), ms.
    active_ms: f64,
    util_ms: f64,
    month_ms: f64,
    /// The first sample and the end of the last one over all its GPUs, ms.
    start: f64,
    end: f64,
    /// The first and the last sample (not its end) over its GPUs whose samples all have dates, ms.
    dated: Option<(i64, i64)>,
    samples: u64,
}

/// The warning on a GPU whose log over `span` (ms) accounts for `logged_ms` only, when the gaps
/// are more than 1 % of it: at the sample that ends the longest gap.
fn gaps_warning(g: &Gpu, span: f64, logged_ms: f64, logs: &[PathBuf]) -> Option<Warning> {
    let gaps = span - logged_ms;
    (gaps > 0.01 * span).then(|| {
        let (longest, file, line) = g.longest;
        let file = logs
            .get(file)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        Warning::warn(
            format!("{file}:{line}"),
            format!(
                "the log of GPU {} has gaps of {:.1} h in all over {:.1} days (the longest, {:.1} h, ends here); the gaps count as idle time",
                g.id.name(),
                gaps / 3.6e6,
                span / DAY_MS as f64,
                longest as f64 / 3.6e6
            ),
        )
        .with_zh(format!(
            "GPU {} 的日志在 {:.1} 天内共有 {:.1} 小时的空缺（最长一段 {:.1} 小时，在此结束）；空缺按空闲计",
            g.id.name(),
            span / DAY_MS as f64,
            gaps / 3.6e6,
            longest as f64 / 3.6e6
        ))
    })
}

/// A time as messages show it: `2026-11-02 10:00:05` (ms since 1970), or seconds from the start
/// for untimed logs.
fn clock_text(ms: i64) -> String {
    if ms < DAY_MS * 365 {
        return format!("{:.3} s", ms as f64 / 1000.0);
    }
    let text = crate::support::time::iso_datetime(ms.div_euclid(1000));
    text.trim_end_matches('Z').replace('T', " ")
}

//! One log read line by line: its first line (the header, or a clear word on what the file
//! is instead), a header again or a new one, each data row sent on to its GPU, the lines given
//! up on as problems, and at its end the warnings it tallied.

use super::lines::{self, LineError, Lines};
use super::parse::{Kind, Layout, Timing};
use super::{host_of, Analysis};
use crate::error::{Error, Problem, Result, SHOWN_PROBLEMS};
use crate::model::Warning;
use std::path::Path;

/// Problems in one file before it is given up as the wrong kind of file.
const MAX_FILE_PROBLEMS: usize = 1000;

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
pub(super) struct Tally {
    count: u64,
    first: u64,
    detail: String,
}

impl Tally {
    pub(super) fn add(&mut self, line: u64, detail: impl FnOnce() -> String) {
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
pub(super) struct File {
    pub(super) no: usize,
    pub(super) name: String,
    /// The file's name up to its first dot: the host of its GPUs.
    pub(super) host: String,
    pub(super) layout: Option<Layout>,
    /// GPU fields seen in this file (uuid, index or gpu; host) → GPU, so that a line costs a
    /// comparison of a few bytes, not a lookup by a built string.
    pub(super) local: Vec<(Vec<u8>, Vec<u8>, usize)>,
    /// dmon `-o T`: the day (ms) and the latest time read.
    pub(super) day: i64,
    pub(super) latest: i64,
    pub(super) problems: usize,
    pub(super) samples: u64,
    pub(super) max_util: f64,
    pub(super) backwards: Tally,
    pub(super) mixed: Tally,
    pub(super) no_util: Tally,
    pub(super) cut: Tally,
}

impl Analysis<'_> {
    pub(super) fn problem(&mut self, file: &mut File, line: u64, message: String) {
        file.problems += 1;
        if self.problems.len() < SHOWN_PROBLEMS {
            self.problems
                .push(Problem::new(format!("{}:{line}", file.name), message));
        } else {
            self.more += 1;
        }
    }

    pub(super) fn read(&mut self, no: usize, path: &Path) -> Result<()> {
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
}

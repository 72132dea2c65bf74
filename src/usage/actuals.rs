//! Each workload's [`Actual`]: its GPUs' streams added up, each GPU's hours extrapolated over
//! its own span, with the warnings on its figures, on GPUs no mapping names and on mapping rows
//! no log holds.

use super::stamp::DAY_MS;
use super::stats::Memory;
use super::{parse, Actual, Analysis, Gpu, Report};
use crate::error::{Error, Result};
use crate::model::Warning;
use std::path::PathBuf;

/// A workload's figures across its GPUs.
#[derive(Default)]
pub(super) struct Workload {
    pub(super) name: String,
    pub(super) memory: Memory,
    pub(super) no_memory: u64,
    pub(super) total_mib: Option<f64>,
    /// Samples whose memory used exceeds the memory total on the same line.
    pub(super) over_total: u64,
}

impl Workload {
    /// A sample's memory figures: used (or counted as missing) and total.
    pub(super) fn add(&mut self, row: &parse::Row) {
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

impl Analysis<'_> {
    /// Each workload's actuals from its GPUs' streams, with the warnings on GPUs no mapping
    /// names, mapping rows no log holds, and each workload's figures; an error when no workload
    /// has any.
    pub(super) fn finish(mut self, logs: &[PathBuf]) -> Result<Report> {
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

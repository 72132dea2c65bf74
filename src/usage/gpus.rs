//! Each GPU's stream of samples: a row's GPU found (or made, and mapped to its workload), the
//! time of its next sample, and the stream moved on to it.

use super::actuals::Workload;
use super::file::File;
use super::parse::{self, Timing};
use super::stamp::DAY_MS;
use super::stats::Intervals;
use super::{map, Analysis, Gpu, GpuId};

/// Most GPUs in one run: a bound on memory (a log whose GPU column holds garbage would otherwise
/// make a stream per line).
const MAX_GPUS: usize = 4096;

impl Analysis<'_> {
    /// The time (ms) of GPU `g`'s next sample, whose row says `row_t`: as the row gives it, on
    /// the day a dmon log with times only has reached, or (untimed) one `--interval` after the
    /// GPU's last sample.
    pub(super) fn sample_time(
        &mut self,
        file: &mut File,
        g: usize,
        timing: Timing,
        row_t: i64,
    ) -> i64 {
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
    pub(super) fn step(
        &mut self,
        file: &mut File,
        g: usize,
        t: i64,
        util: f64,
        number: u64,
    ) -> bool {
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

    /// The GPU of a row: looked up by its bytes in the file's list, else made (and mapped).
    pub(super) fn gpu_of(
        &mut self,
        file: &mut File,
        row: &parse::Row,
        number: u64,
    ) -> Option<usize> {
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
            None => self.new_gpu(file, id, key, number)?,
        };
        for k in keys {
            self.by_key.entry(k).or_insert(g);
        }
        file.local.push((key.to_vec(), host.to_vec(), g));
        Some(g)
    }

    /// A GPU first seen at line `number`, with the workload its samples go to; `None`, with a
    /// problem, past [`MAX_GPUS`] (`key` is the row's GPU field, for the message).
    fn new_gpu(&mut self, file: &mut File, id: GpuId, key: &[u8], number: u64) -> Option<usize> {
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
        Some(self.gpus.len() - 1)
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

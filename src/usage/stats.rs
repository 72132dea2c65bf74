//! The figures kept while a log streams by, each in memory that does not grow with the log: a
//! GPU's sampling intervals grouped in bins 1 % wide (its active time and the median interval
//! come from them at the end), and a workload's memory samples in 16 MiB bins (its 95th
//! percentile comes from them).

use std::collections::BTreeMap;

/// One bin of intervals: how many, their total length, and those that follow an active sample.
#[derive(Debug, Default, Clone, Copy)]
struct Bin {
    count: u64,
    ms: i64,
    active: u64,
    active_ms: i64,
    /// Σ utilization (%) of the active samples, and Σ utilization × interval.
    util: f64,
    util_ms: f64,
}

/// A GPU's sampling intervals. Each sample stands for the time to the GPU's next sample, at most
/// twice the GPU's median interval (so a gap in the log is not counted as activity); the last
/// sample stands for one median interval.
#[derive(Debug, Default)]
pub struct Intervals {
    bins: BTreeMap<i32, Bin>,
    /// The bin of the last interval seen, to skip the logarithm when the next is the same.
    last: Option<(i64, i32)>,
}

/// The bin of an interval: its logarithm in steps of 1 %; zero-length intervals (two samples at
/// the same time) get their own. At most about 3,000 bins for intervals from 1 ms to years.
fn bin_of(ms: i64) -> i32 {
    if ms <= 0 {
        i32::MIN
    } else {
        ((ms as f64).ln() * 100.0).floor() as i32
    }
}

/// What a GPU's intervals come to, with its last sample counted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Totals {
    /// The median interval between samples (ms).
    pub median_ms: f64,
    /// Time the samples stand for (capped), and the part of it after active samples.
    pub logged_ms: f64,
    pub active_ms: f64,
    /// Σ utilization (%) × time over the active samples: ÷ active_ms gives the average.
    pub util_ms: f64,
}

impl Intervals {
    /// The interval from a sample (active or not, at utilization `util` %) to the next.
    pub fn add(&mut self, ms: i64, active: bool, util: f64) {
        let key = match self.last {
            Some((m, k)) if m == ms => k,
            _ => {
                let k = bin_of(ms);
                self.last = Some((ms, k));
                k
            }
        };
        let b = self.bins.entry(key).or_default();
        b.count += 1;
        b.ms += ms;
        if active {
            b.active += 1;
            b.active_ms += ms;
            b.util += util;
            b.util_ms += util * ms as f64;
        }
    }

    /// The median interval: the mean of the bin holding the middle interval (exact when the
    /// sampling is regular); `None` without intervals.
    pub fn median(&self) -> Option<f64> {
        // Zero-length intervals (two samples stamped alike: whole-second stamps sampled faster,
        // or two hosts' samples in one file) are not a sampling rate: a median of 0 would count
        // no time at all. The median is that of the intervals that pass time.
        let timed = self.bins.range(i32::MIN + 1..);
        let n: u64 = timed.clone().map(|(_, b)| b.count).sum();
        if n == 0 {
            return None;
        }
        let middle = n.div_ceil(2);
        let mut seen = 0;
        for b in timed.map(|(_, b)| b) {
            seen += b.count;
            if seen >= middle {
                return Some(b.ms as f64 / b.count as f64);
            }
        }
        None
    }

    /// The totals, the median interval taken from the intervals or, where there are none (a
    /// single sample), from `nominal`; the last sample, active or not at `last_util` %, counts
    /// one median interval. `None` when no median is known.
    pub fn totals(
        &self,
        nominal: Option<f64>,
        last_active: bool,
        last_util: f64,
    ) -> Option<Totals> {
        let median = nominal.or_else(|| self.median())?;
        let cap = 2.0 * median;
        let mut t = Totals {
            median_ms: median,
            logged_ms: median,
            active_ms: 0.0,
            util_ms: 0.0,
        };
        if last_active {
            t.active_ms = median;
            t.util_ms = last_util * median;
        }
        for b in self.bins.values() {
            // A bin is 1 % wide: its mean decides whether its intervals pass the cap.
            if b.ms as f64 / b.count as f64 <= cap {
                t.logged_ms += b.ms as f64;
                t.active_ms += b.active_ms as f64;
                t.util_ms += b.util_ms;
            } else {
                t.logged_ms += cap * b.count as f64;
                t.active_ms += cap * b.active as f64;
                t.util_ms += cap * b.util;
            }
        }
        Some(t)
    }
}

/// Width of a memory bin (MiB): the 95th percentile is exact to this.
pub const MEMORY_BIN_MIB: u32 = 16;
/// The largest memory figure accepted (MiB): 1 TiB, well above any GPU's memory, bounds the bins.
pub const MAX_MEMORY_MIB: f64 = 1024.0 * 1024.0;

/// Memory samples of a workload's GPUs: a count and the largest value in each 16 MiB bin that
/// holds any (kept sparse: a dense list to 1 TiB would be 1 MB a GPU whatever the log's size).
#[derive(Debug, Default)]
pub struct Memory {
    bins: BTreeMap<u32, (u64, u32)>,
    count: u64,
    peak: f64,
}

impl Memory {
    /// A sample, in MiB (0 to [`MAX_MEMORY_MIB`], checked by the reader).
    pub fn add(&mut self, mib: f64) {
        let v = mib.round().clamp(0.0, MAX_MEMORY_MIB) as u32;
        let b = self.bins.entry(v / MEMORY_BIN_MIB).or_default();
        b.0 += 1;
        b.1 = b.1.max(v);
        self.count += 1;
        self.peak = self.peak.max(mib);
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// The largest sample (MiB).
    pub fn peak(&self) -> Option<f64> {
        (self.count > 0).then_some(self.peak)
    }

    /// The 95th percentile (MiB, nearest rank: the smallest value at or below which 95 % of the
    /// samples lie), given as the largest sample of the bin that holds it: never below the
    /// true value and at most 16 MiB above it; exact when that bin's samples are equal.
    pub fn p95(&self) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        // ⌈0.95 n⌉ in integers: (95 n + 99) / 100.
        let rank = (self.count * 95).div_ceil(100);
        let mut seen = 0;
        for &(n, max) in self.bins.values() {
            seen += n;
            if seen >= rank && n > 0 {
                return Some(f64::from(max));
            }
        }
        Some(self.peak)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_samples_count_their_interval_and_a_gap_only_twice_the_median() {
        let mut iv = Intervals::default();
        // Ten 60 s intervals after active samples at 80 %, then a 1-hour gap after an idle one.
        for _ in 0..10 {
            iv.add(60_000, true, 80.0);
        }
        iv.add(3_600_000, false, 0.0);
        assert_eq!(iv.median(), Some(60_000.0));
        let t = iv
            .totals(None, true, 40.0)
            .unwrap_or_else(|| panic!("totals"));
        // Active: 10 × 60 s + the last sample's 60 s = 660 s; the gap counts 120 s, idle.
        assert_eq!(t.active_ms, 660_000.0);
        assert_eq!(t.logged_ms, 660_000.0 + 120_000.0);
        // Utilization × time: 10 × 80 × 60 s + 40 × 60 s.
        assert_eq!(t.util_ms, 10.0 * 80.0 * 60_000.0 + 40.0 * 60_000.0);
    }

    #[test]
    fn a_single_sample_needs_a_nominal_interval() {
        let iv = Intervals::default();
        assert_eq!(iv.totals(None, true, 50.0), None);
        let t = iv
            .totals(Some(1000.0), true, 50.0)
            .unwrap_or_else(|| panic!("totals"));
        assert_eq!((t.active_ms, t.logged_ms), (1000.0, 1000.0));
    }

    #[test]
    fn the_95th_percentile_is_the_nearest_rank() {
        let mut m = Memory::default();
        // 94 samples at 1,024 MiB and 6 at 40,960: the 95th of 100 is 40,960.
        for _ in 0..94 {
            m.add(1024.0);
        }
        for _ in 0..6 {
            m.add(40_960.0);
        }
        assert_eq!(m.p95(), Some(40_960.0));
        assert_eq!(m.peak(), Some(40_960.0));
        // 95 and 5: the 95th is still 1,024.
        let mut m = Memory::default();
        for _ in 0..95 {
            m.add(1024.0);
        }
        for _ in 0..5 {
            m.add(40_960.0);
        }
        assert_eq!(m.p95(), Some(1024.0));
        assert_eq!(Memory::default().p95(), None);
    }
}

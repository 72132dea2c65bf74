//! A host's day types: the sets of its specs' runs that fit one day and to which no further
//! run fits, each checked by a placement, listed within limits.

use super::place::fit_day;
use super::{Pattern, Spec};
use crate::plan::fleet::{Limits, Run};
use std::collections::HashMap;

/// Day types checked for one host at most (each a placement search).
const CHECKS_A_HOST: usize = 400;
/// Leaves of the search for day types visited for one host at most.
const LEAVES_A_HOST: usize = 2_000;

/// The search for a host's day types, with what it has checked.
struct Lister<'a> {
    specs: &'a [Spec],
    free: &'a [u32],
    limits: Limits,
    memo: HashMap<Vec<usize>, Option<Vec<Run>>>,
    checks: usize,
    leaves: usize,
    most: Vec<usize>,
    out: Vec<Pattern>,
    exhausted: bool,
}

impl Lister<'_> {
    /// Where `counts` runs fit a day (memoised); `None` when they do not, or a limit stops the
    /// check (then `exhausted`).
    fn fits(&mut self, counts: &[usize]) -> Option<Vec<Run>> {
        if counts.iter().all(|&c| c == 0) {
            return Some(Vec::new());
        }
        if let Some(r) = self.memo.get(counts) {
            return r.clone();
        }
        if self.checks >= CHECKS_A_HOST {
            self.exhausted = true;
            return None;
        }
        self.checks += 1;
        let r = fit_day(
            self.specs,
            self.free,
            counts,
            self.limits.placements,
            &mut self.exhausted,
        );
        self.memo.insert(counts.to_vec(), r.clone());
        r
    }

    fn full(&mut self) -> bool {
        if self.out.len() >= self.limits.patterns || self.leaves >= LEAVES_A_HOST {
            self.exhausted = true;
            return true;
        }
        false
    }

    /// Every maximal mix from spec `j` on, the counts before it fixed: the highest counts
    /// first.
    fn mixes(&mut self, j: usize, counts: &mut Vec<usize>) {
        if self.full() {
            return;
        }
        if j == self.specs.len() {
            self.leaves += 1;
            let mixed = counts.iter().filter(|&&c| c > 0).count() > 1;
            if !mixed {
                return;
            }
            for i in 0..counts.len() {
                if counts[i] < self.most[i] {
                    counts[i] += 1;
                    let more = self.fits(counts).is_some();
                    counts[i] -= 1;
                    if more {
                        return;
                    }
                }
            }
            if let Some(runs) = self.fits(counts) {
                self.out.push(Pattern {
                    counts: counts.clone(),
                    runs,
                });
            }
            return;
        }
        // The most runs of spec j that fit with those before it; fewer fit too.
        let mut c = self.most[j];
        while c > 0 {
            counts[j] = c;
            if self.fits(counts).is_some() {
                break;
            }
            c -= 1;
        }
        for v in (0..=c).rev() {
            counts[j] = v;
            self.mixes(j + 1, counts);
            if self.full() {
                break;
            }
        }
        counts[j] = 0;
    }
}

/// The day types of one host: the sets of its specs' runs that fit a day and to which no
/// further run fits (any other is a part of one of them), with their placements. Each spec at
/// its most alone comes first, so every job has a day type; `exhausted` is set where a limit
/// cut the list short.
pub(super) fn patterns(
    specs: &[Spec],
    free: &[u32],
    limits: Limits,
    exhausted: &mut bool,
) -> Vec<Pattern> {
    let n = specs.len();
    let mut l = Lister {
        specs,
        free,
        limits,
        memo: HashMap::new(),
        checks: 0,
        leaves: 0,
        most: vec![0; n],
        out: Vec::new(),
        exhausted: false,
    };
    // Each spec's most runs in a day (never more than its month needs).
    for i in 0..n {
        let mut counts = vec![0; n];
        let mut best = None;
        for c in 1..=specs[i].demand {
            counts[i] = c;
            match l.fits(&counts) {
                Some(r) => best = Some((c, r)),
                None => break,
            }
        }
        if let Some((c, runs)) = best {
            l.most[i] = c;
            let mut counts = vec![0; n];
            counts[i] = c;
            l.out.push(Pattern { counts, runs });
        }
    }
    // Then every maximal mix of two or more, the dearest jobs' runs first.
    let mut counts = vec![0; n];
    l.mixes(0, &mut counts);
    *exhausted |= l.exhausted;
    l.out
}

//! The placement of a day's runs: each run of a multiset on cards free over its whole span,
//! inside its job's window, found by a bounded search.

use super::Spec;
use crate::plan::fleet::Run;

/// Slots `a..a + len` as a mask.
fn span(a: usize, len: usize) -> u32 {
    (((1u64 << len) - 1) << a) as u32
}

/// The search for a placement of a multiset of runs on a day's free cards.
struct Placer<'a> {
    specs: &'a [Spec],
    /// The spec of each run to place, identical runs side by side.
    order: Vec<usize>,
    free: Vec<u32>,
    runs: Vec<Run>,
    budget: u64,
}

/// The placement limit was reached before an answer.
struct Exhausted;

impl Placer<'_> {
    fn place(&mut self, i: usize) -> Result<bool, Exhausted> {
        let Some(&si) = self.order.get(i) else {
            return Ok(true);
        };
        let s = self.specs[si];
        // Two runs of one job never overlap (a job's runs, and a checkpointed run's pieces,
        // follow one another): the second starts after the first ends.
        let from = match i.checked_sub(1) {
            Some(p) if self.order[p] == si => self.runs[p].first_slot + self.runs[p].len,
            _ => 0,
        };
        if from + s.len > 24 {
            return Ok(false);
        }
        for a in from..=24 - s.len {
            let m = span(a, s.len);
            if m & !s.allowed != 0 {
                continue;
            }
            // Cards free over the whole run, grouped by what else they have free: cards of
            // one group are interchangeable. Fullest groups last (best fit first).
            let mut classes: Vec<(u32, Vec<usize>)> = Vec::new();
            for (c, f) in self.free.iter().enumerate() {
                if f & m == m {
                    match classes.iter_mut().find(|(g, _)| g == f) {
                        Some((_, cs)) => cs.push(c),
                        None => classes.push((*f, vec![c])),
                    }
                }
            }
            if classes.iter().map(|(_, c)| c.len()).sum::<usize>() < s.k {
                continue;
            }
            classes.sort_by_key(|(g, cs)| (g.count_ones(), cs[0]));
            let mut pick = vec![0; classes.len()];
            if self.choose(i, si, a, &classes, 0, s.k, &mut pick)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Picks `left` more cards from `classes[ci..]` for run `i` at slot `a`, then places the
    /// runs after it.
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &mut self,
        i: usize,
        si: usize,
        a: usize,
        classes: &[(u32, Vec<usize>)],
        ci: usize,
        left: usize,
        pick: &mut Vec<usize>,
    ) -> Result<bool, Exhausted> {
        if left == 0 {
            if self.budget == 0 {
                return Err(Exhausted);
            }
            self.budget -= 1;
            let s = self.specs[si];
            let m = span(a, s.len);
            let cards: Vec<usize> = classes
                .iter()
                .zip(pick.iter())
                .flat_map(|((_, cs), n)| cs[..*n].iter().copied())
                .collect();
            for &c in &cards {
                self.free[c] &= !m;
            }
            self.runs.push(Run {
                job: s.job,
                first_slot: a,
                len: s.len,
                cards: cards.clone(),
            });
            if self.place(i + 1)? {
                return Ok(true);
            }
            self.runs.pop();
            for &c in &cards {
                self.free[c] |= m;
            }
            return Ok(false);
        }
        let Some((_, cs)) = classes.get(ci) else {
            return Ok(false);
        };
        let rest: usize = classes[ci + 1..].iter().map(|(_, c)| c.len()).sum();
        for n in (0..=cs.len().min(left)).rev() {
            if left - n > rest {
                continue;
            }
            pick[ci] = n;
            if self.choose(i, si, a, classes, ci + 1, left - n, pick)? {
                pick[ci] = 0;
                return Ok(true);
            }
        }
        pick[ci] = 0;
        Ok(false)
    }
}

/// Where `counts` runs of each spec fit one day of `free` cards: the runs placed, `None`
/// when they do not (or the placement limit was reached: `exhausted` is then set).
pub(super) fn fit_day(
    specs: &[Spec],
    free: &[u32],
    counts: &[usize],
    budget: u64,
    exhausted: &mut bool,
) -> Option<Vec<Run>> {
    // Card-slots first: more than the day has free never fits.
    let need: usize = specs.iter().zip(counts).map(|(s, n)| s.k * s.len * n).sum();
    let have: usize = free.iter().map(|f| f.count_ones() as usize).sum();
    if need > have {
        return None;
    }
    let mut order: Vec<usize> = specs
        .iter()
        .enumerate()
        .flat_map(|(i, _)| std::iter::repeat_n(i, counts[i]))
        .collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(specs[i].k * specs[i].len), i));
    let mut p = Placer {
        specs,
        order,
        free: free.to_vec(),
        runs: Vec::new(),
        budget,
    };
    match p.place(0) {
        Ok(true) => Some(p.runs),
        Ok(false) => None,
        Err(Exhausted) => {
            *exhausted = true;
            None
        }
    }
}

//! The least-harm search over the cuts: the combination that meets the budget with the
//! mildest harms, bounded by sets and re-plans, never by time.

use super::replans::Replans;
use super::{Alt, CENT};

/// Sets of cuts the search bounds at most: past it the search stops with what it found.
const MAX_NODES: usize = 50_000;
/// Combinations re-planned at most (each re-packs the fleet on the GPUs its cuts touch).
const MAX_PLANS: usize = 400;

/// What the search found: the chosen combination (indices into the cuts), if one meets the
/// budget, and whether the search was complete.
pub(super) struct Found {
    pub(super) combo: Option<Vec<usize>>,
    pub(super) complete: bool,
}

/// A combination that meets the budget, as the search compares them: how many cuts at each
/// harm from the one searched down (the worst first), the budget after it, and its cuts.
type Met = (Vec<u32>, f64, Vec<usize>);

/// The least-harm search over the cuts (`alts`, each workload's cuts at distinct harms).
struct Search<'a> {
    rp: &'a Replans<'a>,
    alts: &'a [Alt],
    planned: f64,
    budget: f64,
    /// The fleet's saving in the plan: with each cut's change of it, how far the sum of cuts'
    /// savings may be from their saving together (the fleet is the part that does not add up).
    fleet0: f64,
    /// Combinations bounded, and combinations re-planned.
    nodes: usize,
    plans: usize,
    complete: bool,
}

/// The least-harm combination that meets the budget, at most one cut a workload. "Least harm"
/// is lexicographic: the mildest worst harm, then the fewest cuts at it, then the fewest at
/// each milder harm in turn, then the highest budget after that meets it (the smallest saving
/// that does: no deeper than needed), then the order of the cuts (mildest, largest saving). The search goes from the worst harm down: at each,
/// it tries the sets of that harm's cuts by size, smallest first, and a set goes on to the
/// milder harms only if its cuts, with the largest milder cut of every other workload, could
/// still meet the budget (their savings summed, give or take what the fleet's saving could
/// change); at the mildest, a combination is re-planned (its cuts applied together, the
/// portfolio and the fleet re-made) and meets the budget or not. The first size at which some
/// set meets it decides that harm. Bounded by [`MAX_NODES`] sets and [`MAX_PLANS`] re-plans,
/// never by time: past them the search stops with what it found.
pub(super) fn search(rp: &Replans, alts: &[Alt], planned: f64, budget: f64) -> Found {
    let mut s = Search {
        rp,
        alts,
        planned,
        budget,
        fleet0: rp.fleet,
        nodes: 0,
        plans: 0,
        complete: true,
    };
    let levels = alts.iter().map(|a| a.harm + 1).max().unwrap_or(0);
    let mut combo = if levels == 0 {
        None
    } else {
        s.level(levels - 1, &[]).map(|(_, _, c)| c)
    };
    if combo.is_none() && !s.complete {
        combo = s.greedy();
    }
    Found {
        combo,
        complete: s.complete,
    }
}

impl Search<'_> {
    /// The saving of `a` alone.
    fn saving(&self, a: usize) -> f64 {
        self.planned - self.alts[a].after
    }

    /// Whether `combo`, with the largest cut below harm `below` of every workload it leaves
    /// uncut, could meet the budget.
    fn could_meet(&self, combo: &[usize], below: usize) -> bool {
        let cut: Vec<usize> = combo.iter().map(|&a| self.alts[a].workload).collect();
        let mut fill: Vec<(usize, usize)> = Vec::new();
        for (k, a) in self.alts.iter().enumerate() {
            if a.harm >= below || cut.contains(&a.workload) {
                continue;
            }
            match fill.iter_mut().find(|(w, _)| *w == a.workload) {
                Some((_, j)) if self.saving(*j) < self.saving(k) => *j = k,
                Some(_) => {}
                None => fill.push((a.workload, k)),
            }
        }
        let all: Vec<usize> = combo
            .iter()
            .copied()
            .chain(fill.iter().map(|(_, k)| *k))
            .collect();
        let saved: f64 = all.iter().map(|&a| self.saving(a)).sum();
        let slack = self.fleet0
            + all
                .iter()
                .map(|&a| (self.alts[a].fleet - self.fleet0).abs())
                .sum::<f64>();
        self.planned - saved <= self.budget + slack + CENT
    }

    /// The budget after `combo`, re-planned together.
    fn after(&mut self, combo: &[usize]) -> Option<f64> {
        self.plans += 1;
        let cuts: Vec<&Alt> = combo.iter().map(|&a| &self.alts[a]).collect();
        self.rp.after(&cuts).map(|(after, _)| after)
    }

    /// Past the search's bounds: the cuts in item order (mildest, then the largest saving), one
    /// a workload, until their savings summed reach the budget, then one by one more until the
    /// re-plan meets it; `None` if none does.
    fn greedy(&mut self) -> Option<Vec<usize>> {
        let mut combo: Vec<usize> = Vec::new();
        let mut saved = 0.0;
        for k in 0..self.alts.len() {
            if combo
                .iter()
                .any(|&j| self.alts[j].workload == self.alts[k].workload)
            {
                continue;
            }
            combo.push(k);
            saved += self.saving(k);
            if self.planned - saved <= self.budget && self.after(&combo)? <= self.budget {
                return Some(combo);
            }
        }
        None
    }

    /// The best combination that adds cuts of harm `level` and milder to `fixed` (cuts of
    /// harsher harms, decided): at this harm the fewest cuts, then the best below.
    fn level(&mut self, level: usize, fixed: &[usize]) -> Option<Met> {
        let taken: Vec<usize> = fixed.iter().map(|&a| self.alts[a].workload).collect();
        let items: Vec<usize> = (0..self.alts.len())
            .filter(|&k| self.alts[k].harm == level && !taken.contains(&self.alts[k].workload))
            .collect();
        for size in 0..=items.len() {
            let mut best: Option<Met> = None;
            let mut pick: Vec<usize> = (0..size).collect();
            loop {
                self.nodes += 1;
                if self.nodes > MAX_NODES || self.plans >= MAX_PLANS {
                    self.complete = false;
                    return best;
                }
                let mut combo = fixed.to_vec();
                combo.extend(pick.iter().map(|&i| items[i]));
                if self.could_meet(&combo, level) {
                    let found = if level == 0 {
                        self.after(&combo)
                            .filter(|a| *a <= self.budget)
                            .map(|a| (Vec::new(), a, combo))
                    } else {
                        self.level(level - 1, &combo)
                    };
                    if let Some((below, after, c)) = found {
                        let better = best.as_ref().is_none_or(|(b, a, _)| {
                            below < *b || (below == *b && after > *a + CENT)
                        });
                        if better {
                            best = Some((below, after, c));
                        }
                    }
                    if !self.complete {
                        break;
                    }
                }
                if !next_pick(&mut pick, items.len()) {
                    break;
                }
            }
            if let Some((below, after, c)) = best {
                let mut counts = vec![size as u32];
                counts.extend(below);
                return Some((counts, after, c));
            }
            if !self.complete {
                return None;
            }
        }
        None
    }
}

/// The next `pick.len()`-subset of `0..n` in lexicographic order; false after the last.
fn next_pick(pick: &mut [usize], n: usize) -> bool {
    let k = pick.len();
    for i in (0..k).rev() {
        if pick[i] < n - k + i {
            pick[i] += 1;
            for j in i + 1..k {
                pick[j] = pick[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::next_pick;

    /// The 2-subsets of 4 items, in order, then none.
    #[test]
    fn next_pick_goes_through_each_subset_once() {
        let mut pick = vec![0, 1];
        let mut seen = vec![pick.clone()];
        while next_pick(&mut pick, 4) {
            seen.push(pick.clone());
        }
        assert_eq!(
            seen,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        assert!(!next_pick(&mut [], 3));
    }
}

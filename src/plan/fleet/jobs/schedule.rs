//! A host's month as the outputs show it: its day types less the runs beyond each job's
//! month, merged, and each day type's grid of who holds each card in each hour.

use super::{HostSpecs, Pattern};
use crate::plan::fleet::{DayType, FleetInput, Holder, Host, Run, Schedule};

/// A host's month from its day types: the runs beyond each job's month taken out (a day type
/// split where only some of its days lose them), identical day types merged, and the days left
/// as a day of the service alone.
pub(super) fn schedule(
    input: &FleetInput,
    h: &HostSpecs,
    mut types: Vec<(Pattern, usize)>,
    days: usize,
) -> Schedule {
    let host = &input.hosts[h.host];
    for (si, s) in h.specs.iter().enumerate() {
        let covered: usize = types.iter().map(|(p, d)| p.counts[si] * d).sum();
        let mut surplus = covered.saturating_sub(s.demand);
        let mut i = types.len();
        while surplus > 0 && i > 0 {
            i -= 1;
            let a = types[i].0.counts[si];
            if a == 0 {
                continue;
            }
            let (pat, d) = types[i].clone();
            let take = surplus.min(a * d);
            let (whole, part) = (take / a, take % a);
            types[i].1 = d - whole - usize::from(part > 0);
            if whole > 0 {
                types.push((without(&pat, si, s.job, a), whole));
            }
            if part > 0 {
                types.push((without(&pat, si, s.job, part), 1));
            }
            surplus -= take;
        }
    }
    types.retain(|(p, d)| *d > 0 && !p.runs.is_empty());
    // Merge the same arrangements.
    let mut merged: Vec<(Pattern, usize)> = Vec::new();
    for (p, d) in types {
        match merged.iter_mut().find(|(q, _)| q.runs == p.runs) {
            Some((_, e)) => *e += d,
            None => merged.push((p, d)),
        }
    }
    let used: usize = merged.iter().map(|(_, d)| d).sum();
    let mut day_types: Vec<DayType> = merged
        .into_iter()
        .map(|(p, d)| day_type(input, host, h.first, p.runs, d))
        .collect();
    if used < days {
        day_types.push(day_type(input, host, h.first, Vec::new(), days - used));
    }
    Schedule {
        host: h.host,
        first_hour: h.first,
        day_types,
    }
}

/// `p` less `drop` runs of spec `si` (job `job`): the last ones.
fn without(p: &Pattern, si: usize, job: usize, drop: usize) -> Pattern {
    let mut q = p.clone();
    q.counts[si] -= drop;
    let mut left = drop;
    let mut i = q.runs.len();
    while left > 0 && i > 0 {
        i -= 1;
        if q.runs[i].job == job {
            q.runs.remove(i);
            left -= 1;
        }
    }
    q
}

/// A day type's grid: each card's holder in each clock hour. A checkpointed job's pieces that
/// follow one another on the same cards are shown as one run.
fn day_type(input: &FleetInput, host: &Host, first: usize, runs: Vec<Run>, days: usize) -> DayType {
    let mut runs_in: Vec<Run> = runs;
    runs_in.sort_by(|a, b| (a.job, &a.cards, a.first_slot).cmp(&(b.job, &b.cards, b.first_slot)));
    let mut runs: Vec<Run> = Vec::new();
    for r in runs_in {
        match runs.last_mut() {
            Some(l)
                if input.jobs[r.job].resumable
                    && l.job == r.job
                    && l.cards == r.cards
                    && l.first_slot + l.len == r.first_slot =>
            {
                l.len += r.len;
            }
            _ => runs.push(r),
        }
    }
    runs.sort_by_key(|r| (r.first_slot, r.cards.first().copied(), r.job));
    let mut cards = vec![[Holder::Idle; 24]; host.cards];
    for (c, row) in cards.iter_mut().enumerate() {
        for (hour, cell) in row.iter_mut().enumerate() {
            if c >= host.idle(hour) {
                *cell = Holder::Service;
            }
        }
    }
    for r in &runs {
        for s in r.first_slot..r.first_slot + r.len {
            let hour = (first + s) % 24;
            for &c in &r.cards {
                cards[c][hour] = Holder::Job(r.job);
            }
        }
    }
    DayType { days, runs, cards }
}

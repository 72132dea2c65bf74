//! Jobs on the idle hours of hosts, as a schedule: each host's day is 24 slots from its
//! [`Host::first_hour`], a run holds its cards together for consecutive whole slots inside the
//! job's window, and the month is day types, each a set of runs that fit one day, used on some
//! of the month's days. The day types a host could use are listed (each one checked by placing
//! every run on a card, complete within the placement limit), then a programme chooses which
//! jobs move where and how many days each day type runs (a cutting-stock programme: every run
//! of a moved job is in some day).

mod group;
mod patterns;
mod place;
mod schedule;

use super::{FleetInput, Host, Limits, Moved, Run, Schedule, Solved};
use group::{components, solve_group};
use patterns::patterns;
use schedule::schedule;

/// Hosts a job is tried on at most (the first of its cards, in sheet order).
const HOSTS_A_JOB: usize = 16;

/// The jobs' part of the fleet.
pub(super) struct Jobs {
    pub moved: Vec<Moved>,
    pub schedules: Vec<Schedule>,
    /// The cost of the jobs left on their own rental, and its best bound.
    pub cost: f64,
    pub bound: f64,
}

/// One job's runs as one host's day sees them.
#[derive(Debug, Clone, Copy)]
struct Spec {
    /// Index into the input's jobs.
    job: usize,
    /// Index into the job's fits.
    fit: usize,
    /// Cards each run holds, and its whole hours (1 for a job that checkpoints: its pieces).
    k: usize,
    len: usize,
    /// Slots of the day inside the job's window.
    allowed: u32,
    /// Runs (or pieces) a month.
    demand: usize,
    cost: f64,
}

/// A set of runs that fit one day of a host, with where each runs.
#[derive(Debug, Clone)]
struct Pattern {
    /// Runs of each of the host's specs.
    counts: Vec<usize>,
    runs: Vec<Run>,
}

/// The slots (from `first`) in which hour `h` passes `keep`.
fn slots(first: usize, keep: impl Fn(usize) -> bool) -> u32 {
    (0..24)
        .filter(|&s| keep((first + s) % 24))
        .fold(0, |m, s| m | 1 << s)
}

/// A host's day: each card's free slots at the start (idle cards are the lowest-numbered: the
/// service keeps the others, so a card idle in an hour stays idle while fewer are busy).
fn free_cards(h: &Host, first: usize) -> Vec<u32> {
    (0..h.cards)
        .map(|c| slots(first, |hour| c < h.idle(hour)))
        .collect()
}

/// A host's choice: which of its specs move there, and the days of each day type (index).
type HostChoice = (Vec<bool>, Vec<(usize, usize)>);
/// A host's answer: the specs moved there and its day types with their days.
type HostAnswer = (Vec<Spec>, Vec<(Pattern, usize)>);

/// One host's candidates: its specs and day types.
struct HostSpecs {
    host: usize,
    first: usize,
    specs: Vec<Spec>,
    patterns: Vec<Pattern>,
}

/// Moves jobs onto hosts' idle cards: the moves, each host's month, the jobs' remaining cost
/// and its bound.
pub(super) fn move_jobs(input: &FleetInput, limits: Limits, solved: &mut Solved) -> Jobs {
    let total: f64 = input.jobs.iter().map(|j| j.cost).sum();
    let mut out = Jobs {
        moved: Vec::new(),
        schedules: Vec::new(),
        cost: total,
        bound: total,
    };
    let days = input.days;
    if days == 0 || input.jobs.is_empty() || input.hosts.is_empty() {
        return out;
    }
    let hosts = host_specs(input, limits, solved);
    let floor = floor_of(input, &hosts, total);
    // Hosts linked by a job they could both carry are solved together.
    let groups = components(&hosts, input.jobs.len());
    let mut cost = total;
    let mut bound = floor;
    let mut proven_bound = 0.0;
    let mut all_proven = solved.optimal;
    for g in groups {
        let part: Vec<&HostSpecs> = g.iter().map(|&i| &hosts[i]).collect();
        let answer = solve_group(&part, input, days, limits, solved);
        let group_cost: f64 = part
            .iter()
            .flat_map(|h| &h.specs)
            .map(|s| s.job)
            .collect::<std::collections::BTreeSet<usize>>()
            .iter()
            .map(|&j| input.jobs[j].cost)
            .sum();
        let saved: f64 = answer.moved.iter().map(|(s, _)| s.cost).sum();
        cost -= saved;
        match answer.bound {
            Some(b) => proven_bound += (group_cost - b).max(0.0),
            None => all_proven = false,
        }
        record(&mut out, input, &part, answer.hosts, days);
    }
    // With every group's programme proven (no limit cut a list of day types), the bound is
    // what they proved; else the floor.
    if all_proven {
        bound = bound.max(total - proven_bound);
    }
    out.moved.sort_by_key(|m| m.job);
    out.cost = cost;
    out.bound = bound.min(cost);
    out
}

/// Each host's specs: the jobs with a fit for its card whose one run fits its day and whose
/// month fits its days at the most runs a day, with the host's day types (hosts that can take
/// none left out).
fn host_specs(input: &FleetInput, limits: Limits, solved: &mut Solved) -> Vec<HostSpecs> {
    let days = input.days;
    let mut hosts: Vec<HostSpecs> = Vec::new();
    let mut tried = vec![0usize; input.jobs.len()];
    for (hi, h) in input.hosts.iter().enumerate() {
        let first = h.first_hour();
        let free = free_cards(h, first);
        let specs = specs_of(input, h, first, &tried);
        let mut exhausted = false;
        let patterns = patterns(&specs, &free, limits, &mut exhausted);
        if exhausted {
            solved.optimal = false;
        }
        let Some((specs, patterns)) = keep_movable(&specs, patterns, days) else {
            continue;
        };
        for s in &specs {
            tried[s.job] += 1;
        }
        hosts.push(HostSpecs {
            host: hi,
            first,
            specs,
            patterns,
        });
    }
    hosts
}

/// The specs of the jobs with a fit for host `h`'s card (its day from slot `first`) whose one
/// run fits a day, each job tried on fewer than [`HOSTS_A_JOB`] hosts: the dearest first.
fn specs_of(input: &FleetInput, h: &Host, first: usize, tried: &[usize]) -> Vec<Spec> {
    let mut specs = Vec::new();
    for (ji, j) in input.jobs.iter().enumerate() {
        if tried[ji] >= HOSTS_A_JOB || j.cost <= 0.0 {
            continue;
        }
        let Some(fi) = j.fits.iter().position(|f| {
            f.card == h.card
                && f.cards > 0
                && f.cards <= h.cards
                && f.hours > 0.0
                && f.vram_gib <= h.vram_gib * (1.0 + 1e-9)
        }) else {
            continue;
        };
        let (demand, len) = j.demand(&j.fits[fi]);
        if len > 24 {
            continue;
        }
        specs.push(Spec {
            job: ji,
            fit: fi,
            k: j.fits[fi].cards,
            len,
            allowed: slots(first, |hour| j.window.contains(hour)),
            demand,
            cost: j.cost,
        });
    }
    // The dearest first (ties in sheet order), so that limits cut the cheapest.
    specs.sort_by(|a, b| b.cost.total_cmp(&a.cost).then(a.job.cmp(&b.job)));
    specs
}

/// A host's specs and day types less the specs whose month does not fit its `days` even alone;
/// `None` when none is left.
fn keep_movable(
    specs: &[Spec],
    mut patterns: Vec<Pattern>,
    days: usize,
) -> Option<(Vec<Spec>, Vec<Pattern>)> {
    // A spec whose month does not fit the days even alone cannot move here.
    let keep: Vec<bool> = (0..specs.len())
        .map(|i| {
            let most = patterns.iter().map(|p| p.counts[i]).max().unwrap_or(0);
            most > 0 && most * days >= specs[i].demand
        })
        .collect();
    if !keep.iter().any(|k| *k) {
        return None;
    }
    let idx: Vec<usize> = (0..specs.len()).filter(|&i| keep[i]).collect();
    for p in &mut patterns {
        let dropped: Vec<usize> = (0..specs.len())
            .filter(|&i| !keep[i])
            .map(|i| specs[i].job)
            .collect();
        p.runs.retain(|r| !dropped.contains(&r.job));
        p.counts = idx.iter().map(|&i| p.counts[i]).collect();
    }
    patterns.retain(|p| p.counts.iter().any(|&c| c > 0));
    let specs: Vec<Spec> = idx.iter().map(|&i| specs[i]).collect();
    Some((specs, patterns))
}

/// The floor of the jobs' cost: every job that could move, moved.
fn floor_of(input: &FleetInput, hosts: &[HostSpecs], total: f64) -> f64 {
    let mut movable = vec![false; input.jobs.len()];
    for h in hosts {
        for s in &h.specs {
            movable[s.job] = true;
        }
    }
    total
        - input
            .jobs
            .iter()
            .zip(&movable)
            .filter(|(_, m)| **m)
            .map(|(j, _)| j.cost)
            .sum::<f64>()
}

/// Adds a group's answer to `out`: each spec moved, and the month of each host it moved to.
fn record(
    out: &mut Jobs,
    input: &FleetInput,
    part: &[&HostSpecs],
    hosts: Vec<HostAnswer>,
    days: usize,
) {
    for (h, (spec_list, day_types)) in part.iter().zip(hosts) {
        if spec_list.is_empty() {
            continue;
        }
        for s in &spec_list {
            out.moved.push(Moved {
                job: s.job,
                host: h.host,
                fit: s.fit,
                saving: s.cost,
            });
        }
        out.schedules.push(schedule(input, h, day_types, days));
    }
}

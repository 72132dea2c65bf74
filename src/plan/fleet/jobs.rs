//! Jobs on the idle hours of hosts, as a schedule: each host's day is 24 slots from its
//! [`Host::first_hour`], a run holds its cards together for consecutive whole slots inside the
//! job's window, and the month is day types, each a set of runs that fit one day, used on some
//! of the month's days. The day types a host could use are listed (each one checked by placing
//! every run on a card, complete within the placement limit), then a programme chooses which
//! jobs move where and how many days each day type runs (a cutting-stock programme: every run
//! of a moved job is in some day).

use super::solve::{solve, spent, Answer};
use super::{DayType, FleetInput, Holder, Host, Limits, Moved, Run, Schedule, Solved, EPS};
use microlp::{ComparisonOp, OptimizationDirection, Problem, Variable};
use std::collections::HashMap;

/// Hosts a job is tried on at most (the first of its cards, in sheet order).
const HOSTS_A_JOB: usize = 16;
/// Day types checked for one host at most (each a placement search).
const CHECKS_A_HOST: usize = 400;
/// Variables of one programme at most: past it the greedy answer is kept (a count, so the
/// answer still depends on the input alone).
const MAX_VARIABLES: usize = 6000;

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

/// Slots `a..a + len` as a mask.
fn span(a: usize, len: usize) -> u32 {
    (((1u64 << len) - 1) << a) as u32
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
fn fit_day(
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
fn patterns(specs: &[Spec], free: &[u32], limits: Limits, exhausted: &mut bool) -> Vec<Pattern> {
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
    // Each host's specs: the jobs with a fit for its card whose one run fits its day and
    // whose month fits its days at the most runs a day.
    let mut hosts: Vec<HostSpecs> = Vec::new();
    let mut tried = vec![0usize; input.jobs.len()];
    for (hi, h) in input.hosts.iter().enumerate() {
        let first = h.first_hour();
        let free = free_cards(h, first);
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
        let mut exhausted = false;
        let mut patterns = patterns(&specs, &free, limits, &mut exhausted);
        if exhausted {
            solved.optimal = false;
        }
        // A spec whose month does not fit the days even alone cannot move here.
        let keep: Vec<bool> = (0..specs.len())
            .map(|i| {
                let most = patterns.iter().map(|p| p.counts[i]).max().unwrap_or(0);
                most > 0 && most * days >= specs[i].demand
            })
            .collect();
        if !keep.iter().any(|k| *k) {
            continue;
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
    // The floor: every job that could move, moved.
    let mut movable = vec![false; input.jobs.len()];
    for h in &hosts {
        for s in &h.specs {
            movable[s.job] = true;
        }
    }
    let floor: f64 = total
        - input
            .jobs
            .iter()
            .zip(&movable)
            .filter(|(_, m)| **m)
            .map(|(j, _)| j.cost)
            .sum::<f64>();
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
        for (h, (spec_list, day_types)) in part.iter().zip(answer.hosts) {
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

/// The groups of hosts some job links (indices into `hosts`), in host order.
fn components(hosts: &[HostSpecs], jobs: usize) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..hosts.len()).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let mut first_host: Vec<Option<usize>> = vec![None; jobs];
    for (hi, h) in hosts.iter().enumerate() {
        for s in &h.specs {
            match first_host[s.job] {
                Some(o) => {
                    let (a, b) = (root(&mut parent, o), root(&mut parent, hi));
                    parent[a.max(b)] = a.min(b);
                }
                None => first_host[s.job] = Some(hi),
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut at: HashMap<usize, usize> = HashMap::new();
    for hi in 0..hosts.len() {
        let r = root(&mut parent, hi);
        let k = *at.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[k].push(hi);
    }
    groups
}

/// A group's answer: per host, the specs moved there and the days of each day type; the
/// moved specs; and the proven optimum of the jobs left (`None` when not proven).
struct GroupAnswer {
    hosts: Vec<HostAnswer>,
    moved: Vec<(Spec, usize)>,
    bound: Option<f64>,
}

/// Covers `need` runs of each chosen spec with day types, greedily: each step takes the day
/// type that covers the most of what is left (over each spec's month), for as many days as
/// none of its runs is wasted, until all is covered; `None` when the days run out.
fn cover(
    patterns: &[Pattern],
    chosen: &[bool],
    specs: &[Spec],
    days: usize,
) -> Option<Vec<(usize, usize)>> {
    let mut left: Vec<usize> = specs
        .iter()
        .zip(chosen)
        .map(|(s, c)| if *c { s.demand } else { 0 })
        .collect();
    let mut used: Vec<(usize, usize)> = Vec::new();
    let mut days_left = days;
    while left.iter().any(|&l| l > 0) {
        if days_left == 0 {
            return None;
        }
        let gain = |p: &Pattern| -> f64 {
            p.counts
                .iter()
                .zip(&left)
                .zip(specs)
                .map(|((&c, &l), s)| c.min(l) as f64 / s.demand.max(1) as f64)
                .sum()
        };
        let (pi, best) = patterns.iter().enumerate().map(|(i, p)| (i, gain(p))).fold(
            (usize::MAX, 0.0),
            |a, b| if b.1 > a.1 + EPS { b } else { a },
        );
        if pi == usize::MAX || best <= EPS {
            return None;
        }
        let p = &patterns[pi];
        let times = p
            .counts
            .iter()
            .zip(&left)
            .filter(|(c, l)| **c > 0 && **l > 0)
            .map(|(c, l)| l / c)
            .min()
            .unwrap_or(0)
            .clamp(1, days_left);
        for (l, c) in left.iter_mut().zip(&p.counts) {
            *l = l.saturating_sub(c * times);
        }
        days_left -= times;
        match used.iter_mut().find(|(i, _)| *i == pi) {
            Some((_, d)) => *d += times,
            None => used.push((pi, times)),
        }
    }
    Some(used)
}

/// The greedy answer of a group: jobs dearest first, each onto the first host whose chosen
/// jobs it still lets [`cover`] cover. Per host: its chosen specs and cover.
fn greedy(part: &[&HostSpecs], input: &FleetInput, days: usize) -> Vec<HostChoice> {
    let mut out: Vec<HostChoice> = part
        .iter()
        .map(|h| (vec![false; h.specs.len()], Vec::new()))
        .collect();
    let mut order: Vec<usize> = part
        .iter()
        .flat_map(|h| h.specs.iter().map(|s| s.job))
        .collect();
    order.sort_by(|&a, &b| {
        input.jobs[b]
            .cost
            .total_cmp(&input.jobs[a].cost)
            .then(a.cmp(&b))
    });
    order.dedup();
    for j in order {
        for (hi, h) in part.iter().enumerate() {
            let Some(si) = h.specs.iter().position(|s| s.job == j) else {
                continue;
            };
            let mut chosen = out[hi].0.clone();
            chosen[si] = true;
            if let Some(c) = cover(&h.patterns, &chosen, &h.specs, days) {
                out[hi] = (chosen, c);
                break;
            }
        }
    }
    out
}

/// Solves one group: the programme where it is small enough, from the greedy answer.
///
/// The programme: a binary x[j,h] (job j moves to host h), an integer n[h,p] ∈ [0, days]
/// (days host h uses day type p); Σₕ x ≤ 1 for each job, Σₚ n ≤ days for each host, and
/// Σₚ runs(j,p)·n[h,p] ≥ runs a month(j)·x[j,h]. Minimise the cost of the jobs not moved.
fn solve_group(
    part: &[&HostSpecs],
    input: &FleetInput,
    days: usize,
    limits: Limits,
    solved: &mut Solved,
) -> GroupAnswer {
    let greedy = greedy(part, input, days);
    let answer_of = |chosen: Vec<HostChoice>| -> GroupAnswer {
        let mut hosts = Vec::new();
        let mut moved = Vec::new();
        for (h, (c, cover)) in part.iter().zip(chosen) {
            let specs: Vec<Spec> = h
                .specs
                .iter()
                .zip(&c)
                .filter(|(_, c)| **c)
                .map(|(s, _)| *s)
                .collect();
            for s in &specs {
                moved.push((*s, h.host));
            }
            let types = cover
                .into_iter()
                .filter(|(_, d)| *d > 0)
                .map(|(p, d)| (project(&h.patterns[p], &c, &h.specs), d))
                .collect();
            hosts.push((specs, types));
        }
        GroupAnswer {
            hosts,
            moved,
            bound: None,
        }
    };
    let group_cost: f64 = {
        let mut jobs: Vec<usize> = part
            .iter()
            .flat_map(|h| h.specs.iter().map(|s| s.job))
            .collect();
        jobs.sort_unstable();
        jobs.dedup();
        jobs.iter().map(|&j| input.jobs[j].cost).sum()
    };
    let greedy_saved: f64 = greedy
        .iter()
        .zip(part)
        .flat_map(|((c, _), h)| {
            h.specs
                .iter()
                .zip(c)
                .filter(|(_, c)| **c)
                .map(|(s, _)| s.cost)
        })
        .sum();
    let width: usize = part
        .iter()
        .map(|h| h.specs.len() + h.patterns.len())
        .sum::<usize>()
        + 1;
    // Everything movable is moved: nothing to improve.
    if (group_cost - greedy_saved).abs() <= EPS {
        let mut a = answer_of(greedy);
        a.bound = Some(0.0);
        return a;
    }
    if width > MAX_VARIABLES || spent(limits, solved) {
        return answer_of(greedy);
    }
    let mut p = Problem::new(OptimizationDirection::Minimize);
    let one = p.add_var(group_cost, (1.0, 1.0));
    let mut warm = vec![(one, 1.0)];
    let mut x: Vec<Vec<Variable>> = Vec::new();
    let mut n: Vec<Vec<Variable>> = Vec::new();
    let d = i32::try_from(days).unwrap_or(i32::MAX);
    for (h, (c, cover)) in part.iter().zip(&greedy) {
        let xs: Vec<Variable> = h.specs.iter().map(|s| p.add_binary_var(-s.cost)).collect();
        let ns: Vec<Variable> = h
            .patterns
            .iter()
            .map(|_| p.add_integer_var(0.0, (0, d)))
            .collect();
        for (v, on) in xs.iter().zip(c) {
            warm.push((*v, if *on { 1.0 } else { 0.0 }));
        }
        for (pi, v) in ns.iter().enumerate() {
            let days = cover.iter().find(|(i, _)| *i == pi).map_or(0, |(_, d)| *d);
            warm.push((*v, days as f64));
        }
        p.add_constraint(
            ns.iter().map(|v| (*v, 1.0)).collect::<Vec<_>>(),
            ComparisonOp::Le,
            days as f64,
        );
        for (si, s) in h.specs.iter().enumerate() {
            let mut row: Vec<(Variable, f64)> = h
                .patterns
                .iter()
                .zip(&ns)
                .filter(|(pt, _)| pt.counts[si] > 0)
                .map(|(pt, v)| (*v, pt.counts[si] as f64))
                .collect();
            row.push((xs[si], -(s.demand as f64)));
            p.add_constraint(row, ComparisonOp::Ge, 0.0);
        }
        x.push(xs);
        n.push(ns);
    }
    // One host at most for each job.
    let mut per_job: HashMap<usize, Vec<(Variable, f64)>> = HashMap::new();
    for (h, xs) in part.iter().zip(&x) {
        for (s, v) in h.specs.iter().zip(xs) {
            per_job.entry(s.job).or_default().push((*v, 1.0));
        }
    }
    let mut rows: Vec<(usize, Vec<(Variable, f64)>)> = per_job.into_iter().collect();
    rows.sort_by_key(|(j, _)| *j);
    for (_, row) in rows {
        if row.len() > 1 {
            p.add_constraint(row, ComparisonOp::Le, 1.0);
        }
    }
    let Some(a) = solve(&p, warm, width, limits, solved) else {
        return answer_of(greedy);
    };
    let chosen = read_answer(part, &a, &x, &n, days);
    let saved = |c: &[HostChoice]| -> f64 {
        c.iter()
            .zip(part)
            .flat_map(|((c, _), h)| {
                h.specs
                    .iter()
                    .zip(c)
                    .filter(|(_, c)| **c)
                    .map(|(s, _)| s.cost)
            })
            .sum()
    };
    match chosen {
        Some(c) if saved(&c) >= greedy_saved - EPS => {
            let bound = a.bound;
            let mut ans = answer_of(c);
            ans.bound = Some(bound);
            ans
        }
        _ => {
            solved.fallbacks += 1;
            answer_of(greedy)
        }
    }
}

/// The programme's answer as chosen specs and day types, checked: every chosen spec covered,
/// no host over its days; `None` otherwise.
fn read_answer(
    part: &[&HostSpecs],
    a: &Answer,
    x: &[Vec<Variable>],
    n: &[Vec<Variable>],
    days: usize,
) -> Option<Vec<HostChoice>> {
    let mut out = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for ((h, xs), ns) in part.iter().zip(x).zip(n) {
        let chosen: Vec<bool> = xs.iter().map(|v| a.of(*v) > 0.5).collect();
        let used: Vec<(usize, usize)> = ns
            .iter()
            .enumerate()
            .map(|(i, v)| (i, a.of(*v).round().max(0.0) as usize))
            .filter(|(_, d)| *d > 0)
            .collect();
        if used.iter().map(|(_, d)| d).sum::<usize>() > days {
            return None;
        }
        for (si, s) in h.specs.iter().enumerate() {
            if !chosen[si] {
                continue;
            }
            if seen.contains(&s.job) {
                return None;
            }
            seen.push(s.job);
            let covered: usize = used
                .iter()
                .map(|(p, d)| h.patterns[*p].counts[si] * d)
                .sum();
            if covered < s.demand {
                return None;
            }
        }
        out.push((chosen, used));
    }
    Some(out)
}

/// A day type with only the chosen specs' runs.
fn project(p: &Pattern, chosen: &[bool], specs: &[Spec]) -> Pattern {
    let keep: Vec<usize> = specs
        .iter()
        .zip(chosen)
        .filter(|(_, c)| **c)
        .map(|(s, _)| s.job)
        .collect();
    Pattern {
        counts: p
            .counts
            .iter()
            .zip(chosen)
            .map(|(c, on)| if *on { *c } else { 0 })
            .collect(),
        runs: p
            .runs
            .iter()
            .filter(|r| keep.contains(&r.job))
            .cloned()
            .collect(),
    }
}

/// A host's month from its day types: the runs beyond each job's month taken out (a day type
/// split where only some of its days lose them), identical day types merged, and the days left
/// as a day of the service alone.
fn schedule(
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

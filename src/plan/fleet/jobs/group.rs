//! The groups of hosts some job links, and each group solved: a greedy answer, then, where it
//! is small enough, the programme that chooses which jobs move where and how many days each
//! day type runs, checked before it is kept.

use super::{HostAnswer, HostChoice, HostSpecs, Pattern, Spec};
use crate::plan::fleet::solve::{solve, spent, Answer};
use crate::plan::fleet::{FleetInput, Limits, Solved, EPS};
use microlp::{ComparisonOp, OptimizationDirection, Problem, Variable};
use std::collections::HashMap;

/// Variables of one programme at most: past it the greedy answer is kept (a count, so the
/// answer still depends on the input alone).
const MAX_VARIABLES: usize = 6000;

/// The groups of hosts some job links (indices into `hosts`), in host order.
pub(super) fn components(hosts: &[HostSpecs], jobs: usize) -> Vec<Vec<usize>> {
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
pub(super) struct GroupAnswer {
    pub(super) hosts: Vec<HostAnswer>,
    pub(super) moved: Vec<(Spec, usize)>,
    pub(super) bound: Option<f64>,
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
pub(super) fn solve_group(
    part: &[&HostSpecs],
    input: &FleetInput,
    days: usize,
    limits: Limits,
    solved: &mut Solved,
) -> GroupAnswer {
    let greedy = greedy(part, input, days);
    let group_cost: f64 = {
        let mut jobs: Vec<usize> = part
            .iter()
            .flat_map(|h| h.specs.iter().map(|s| s.job))
            .collect();
        jobs.sort_unstable();
        jobs.dedup();
        jobs.iter().map(|&j| input.jobs[j].cost).sum()
    };
    let greedy_saved: f64 = saved(part, &greedy);
    let width: usize = part
        .iter()
        .map(|h| h.specs.len() + h.patterns.len())
        .sum::<usize>()
        + 1;
    // Everything movable is moved: nothing to improve.
    if (group_cost - greedy_saved).abs() <= EPS {
        let mut a = answer_of(part, greedy);
        a.bound = Some(0.0);
        return a;
    }
    if width > MAX_VARIABLES || spent(limits, solved) {
        return answer_of(part, greedy);
    }
    let Programme { p, warm, x, n } = programme(part, &greedy, group_cost, days);
    let Some(a) = solve(&p, warm, width, limits, solved) else {
        return answer_of(part, greedy);
    };
    let chosen = read_answer(part, &a, &x, &n, days);
    match chosen {
        Some(c) if saved(part, &c) >= greedy_saved - EPS => {
            let bound = a.bound;
            let mut ans = answer_of(part, c);
            ans.bound = Some(bound);
            ans
        }
        _ => {
            solved.fallbacks += 1;
            answer_of(part, greedy)
        }
    }
}

/// A group's answer from each host's choice: per host the specs moved there and its day types
/// (only their runs) with their days, and the moved specs; no bound.
fn answer_of(part: &[&HostSpecs], chosen: Vec<HostChoice>) -> GroupAnswer {
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
}

/// What the specs chosen in `c` save: their costs summed, host by host.
fn saved(part: &[&HostSpecs], c: &[HostChoice]) -> f64 {
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
}

/// A group's programme ([`solve_group`]), with the greedy answer as its warm start and its
/// variables host by host: x (a spec moves there) and n (the days of each day type).
struct Programme {
    p: Problem,
    warm: Vec<(Variable, f64)>,
    x: Vec<Vec<Variable>>,
    n: Vec<Vec<Variable>>,
}

/// Builds a group's programme from its hosts' specs and day types, `greedy` the warm start.
fn programme(
    part: &[&HostSpecs],
    greedy: &[HostChoice],
    group_cost: f64,
    days: usize,
) -> Programme {
    let mut p = Problem::new(OptimizationDirection::Minimize);
    let one = p.add_var(group_cost, (1.0, 1.0));
    let mut warm = vec![(one, 1.0)];
    let mut x: Vec<Vec<Variable>> = Vec::new();
    let mut n: Vec<Vec<Variable>> = Vec::new();
    let d = i32::try_from(days).unwrap_or(i32::MAX);
    for (h, (c, cover)) in part.iter().zip(greedy) {
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
    Programme { p, warm, x, n }
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

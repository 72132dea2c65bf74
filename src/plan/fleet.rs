//! The fleet (seed 001 §5.4, 错峰 and 混部): after each workload is planned on cards of its own,
//! offline jobs move into the hours that cards rented by the month for services leave idle, and
//! small services share a card. Pure: typed inputs, mixed-integer programmes solved by microlp
//! (a greedy answer as warm start), typed outputs. The per-workload plan is always a feasible
//! answer, so the fleet never costs more than it.

mod of_plan;

pub use of_plan::{fleet_of, Carried, FleetCard, FleetPlan, SolverJson};

use crate::model::DayWindow;
use microlp::{ComparisonOp, OptimizationDirection, Problem, SolveOptions, Variable};
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// A service rented by the month whose cards are partly idle off-peak.
#[derive(Debug, Clone, PartialEq)]
pub struct Host {
    /// Index of the workload.
    pub workload: usize,
    /// The card (GPU and platform): jobs move only onto the same card.
    pub card: String,
    /// Memory of one card, GiB.
    pub vram_gib: f64,
    /// Cards rented.
    pub cards: usize,
    /// Cards the service itself uses in each hour of the day (at peak all of them, off-peak
    /// those of its base instances).
    pub busy: [usize; 24],
}

impl Host {
    /// Cards idle in hour `h`.
    pub fn idle(&self, h: usize) -> usize {
        self.cards.saturating_sub(self.busy[h])
    }
}

/// An offline job billed by the hour, which could run on a host's idle cards instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub workload: usize,
    /// The card it was planned on (GPU and platform).
    pub card: String,
    /// Cards it runs on at once (all its instances).
    pub cards: usize,
    /// Memory it needs on each card, GiB.
    pub vram_gib: f64,
    /// Hours a day it runs: its month's hours over the days of the month.
    pub hours_per_day: f64,
    /// Hours one run lasts (a run longer than the idle window pauses and resumes).
    pub run_hours: f64,
    /// When it may run.
    pub window: DayWindow,
    /// Its GPU cost on its own rental a month: what moving it saves.
    pub cost: f64,
}

/// An online service whose instances could share a card with other services' instances.
#[derive(Debug, Clone, PartialEq)]
pub struct Service {
    pub workload: usize,
    /// What it may share with: the same offer and billing mode (one price a card).
    pub group: String,
    /// Its instances, each on one card of its own in the per-workload plan.
    pub instances: usize,
    /// Memory one instance needs, GiB (with the headroom, or the engine's own budget).
    pub vram_gib: f64,
    /// Share of one card's throughput one instance uses at peak (0–1).
    pub load: f64,
    /// Memory of one card, GiB.
    pub card_vram_gib: f64,
    /// What one card costs a month.
    pub card_cost: f64,
}

/// What the packing may spend: branch-and-bound nodes for each programme (deterministic), and
/// seconds for all of them together (a safety net: a programme started past it keeps its
/// greedy answer).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    pub nodes: u64,
    pub seconds: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            nodes: 5000,
            seconds: 1.5,
        }
    }
}

/// The workloads that may share cards.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FleetInput {
    pub hosts: Vec<Host>,
    pub jobs: Vec<Job>,
    pub services: Vec<Service>,
}

/// A job moved onto a host's idle cards.
#[derive(Debug, Clone, PartialEq)]
pub struct Moved {
    /// The job's workload.
    pub job: usize,
    /// The host's workload.
    pub host: usize,
    /// Cards it holds in each hour of the day (its cards × the share of the hour it runs).
    pub cards: [f64; 24],
    /// Its GPU cost, no longer paid.
    pub saving: f64,
}

/// One card carrying instances of several services.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedCard {
    pub group: String,
    /// The workloads with an instance on it.
    pub services: Vec<usize>,
    /// Memory their instances need together, and the card's, GiB.
    pub vram_gib: f64,
    pub card_vram_gib: f64,
    /// Share of the card's throughput they use together at peak.
    pub load: f64,
}

/// How the solver ended.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Solved {
    /// Every programme proven optimal.
    pub optimal: bool,
    /// Relative gap between the answer's cost and the best proven bound, over all programmes.
    pub gap: f64,
    pub nodes: u64,
    /// Programmes where the solver failed, and the greedy answer was kept.
    pub fallbacks: usize,
}

/// The fleet: what moved and what shares, and the saving against each workload on its own.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Fleet {
    pub moved: Vec<Moved>,
    pub shared: Vec<SharedCard>,
    /// Cards saved by sharing, by group: (group, cards before, cards after, card cost).
    pub groups: Vec<(String, usize, usize, f64)>,
    /// Monthly saving against the per-workload plan (never negative).
    pub saving: f64,
    pub solved: Solved,
}

const EPS: f64 = 1e-6;
/// Instances of one group packed together at most (a larger group is packed in chunks).
const CHUNK: usize = 128;
/// Hosts a job is tried on at most (the first of its card).
const HOSTS_A_JOB: usize = 64;
/// Variables of a programme at most: past it the greedy answer is kept.
const MAX_VARIABLES: usize = 20_000;

/// Packs the fleet: moves jobs onto idle host cards and services onto shared cards.
pub fn pack(input: &FleetInput, limits: Limits) -> Fleet {
    let deadline = Instant::now() + Duration::from_secs_f64(limits.seconds.max(0.0));
    let mut fleet = Fleet {
        solved: Solved {
            optimal: true,
            ..Solved::default()
        },
        ..Fleet::default()
    };
    let mut cost = 0.0;
    let mut bound = 0.0;
    let (moved, c, b) = move_jobs(input, limits.nodes, deadline, &mut fleet.solved);
    cost += c;
    bound += b;
    fleet.saving += moved.iter().map(|m| m.saving).sum::<f64>();
    fleet.moved = moved;
    // The services of each group, in sheet order; a large group is packed in chunks of at most
    // CHUNK instances, so that the work grows with the portfolio, not with its square.
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut groups: Vec<(&str, Vec<&Service>)> = Vec::new();
    for s in &input.services {
        let k = *index.entry(&s.group).or_insert_with(|| {
            groups.push((&s.group, Vec::new()));
            groups.len() - 1
        });
        groups[k].1.push(s);
    }
    for (g, members) in groups {
        let (mut before, mut after) = (0, 0);
        let mut chunk: Vec<&Service> = Vec::new();
        let mut chunks: Vec<Vec<&Service>> = Vec::new();
        for s in members {
            if chunk.iter().map(|x| x.instances).sum::<usize>() + s.instances > CHUNK
                && !chunk.is_empty()
            {
                chunks.push(std::mem::take(&mut chunk));
            }
            chunk.push(s);
        }
        chunks.push(chunk);
        let card_cost = chunks[0][0].card_cost;
        for members in chunks {
            let n: usize = members.iter().map(|s| s.instances).sum();
            let (cards, c, b) = share_cards(&members, limits.nodes, deadline, &mut fleet.solved);
            cost += c;
            bound += b;
            before += n;
            // A card holds at least one instance, so at most n cards; with n each holds one
            // and none is shared.
            after += cards.len();
            fleet
                .shared
                .extend(cards.into_iter().filter(|c| c.services.len() > 1));
        }
        if after < before {
            fleet.saving += (before - after) as f64 * card_cost;
            fleet.groups.push((g.to_string(), before, after, card_cost));
        }
    }
    fleet.solved.gap = if cost > EPS {
        ((cost - bound) / cost).max(0.0)
    } else {
        0.0
    };
    fleet
}

/// The hours of host `h` job `j` may use: in its window, with enough idle cards.
fn usable_hours(j: &Job, h: &Host) -> Vec<usize> {
    (0..24)
        .map(|k| (j.window.start as usize + k) % 24)
        .filter(|&t| j.window.contains(t) && h.idle(t) >= j.cards)
        .collect()
}

/// Whether job `j` could run on host `h` alone.
fn eligible(j: &Job, h: &Host) -> bool {
    j.card == h.card
        && j.vram_gib <= h.vram_gib * (1.0 + 1e-9)
        && j.cards > 0
        && j.hours_per_day > 0.0
        && usable_hours(j, h).len() as f64 + EPS >= j.hours_per_day
}

/// The greedy answer: the costliest jobs first, each on the first host with room, filling the
/// hours of its window in order. Returns each job's host and hours.
fn greedy_jobs(input: &FleetInput, hosts: &[Vec<usize>]) -> Vec<Option<(usize, [f64; 24])>> {
    let mut left: Vec<[f64; 24]> = input
        .hosts
        .iter()
        .map(|h| std::array::from_fn(|t| h.idle(t) as f64))
        .collect();
    let mut order: Vec<usize> = (0..input.jobs.len()).collect();
    order.sort_by(|&a, &b| input.jobs[b].cost.total_cmp(&input.jobs[a].cost));
    let mut out = vec![None; input.jobs.len()];
    for g in order {
        let j = &input.jobs[g];
        for &hi in &hosts[g] {
            let h = &input.hosts[hi];
            let mut share = [0.0; 24];
            let mut need = j.hours_per_day;
            for t in usable_hours(j, h) {
                if need <= EPS {
                    break;
                }
                let free = (left[hi][t] / j.cards as f64).min(1.0);
                let take = free.min(need);
                if take > EPS {
                    share[t] = take;
                    need -= take;
                }
            }
            if need <= EPS {
                for t in 0..24 {
                    left[hi][t] -= share[t] * j.cards as f64;
                }
                out[g] = Some((hi, share));
                break;
            }
        }
    }
    out
}

/// Moves jobs onto hosts: returns the moves, the jobs' remaining cost and its proven bound.
///
/// The programme: a binary x[j,h] (job j runs on host h), a share y[j,h,t] ∈ [0,1] of each
/// hour t it runs there; Σₕ x ≤ 1, Σₜ y ≥ hours_per_day·x, y ≤ x, and in every hour
/// Σⱼ cards·y ≤ the host's idle cards. Minimise the cost of the jobs left on their own rental.
fn move_jobs(
    input: &FleetInput,
    nodes: u64,
    deadline: Instant,
    solved: &mut Solved,
) -> (Vec<Moved>, f64, f64) {
    let total: f64 = input.jobs.iter().map(|j| j.cost).sum();
    // Each job's hosts: the first HOSTS_A_JOB of its card it could run on alone.
    let mut by_card: HashMap<&str, Vec<usize>> = HashMap::new();
    for (hi, h) in input.hosts.iter().enumerate() {
        by_card.entry(&h.card).or_default().push(hi);
    }
    let hosts: Vec<Vec<usize>> = input
        .jobs
        .iter()
        .map(|j| {
            by_card.get(j.card.as_str()).map_or(Vec::new(), |hs| {
                hs.iter()
                    .copied()
                    .filter(|&hi| eligible(j, &input.hosts[hi]))
                    .take(HOSTS_A_JOB)
                    .collect()
            })
        })
        .collect();
    let greedy = greedy_jobs(input, &hosts);
    let pairs: Vec<(usize, usize, Vec<usize>)> = hosts
        .iter()
        .enumerate()
        .flat_map(|(g, hs)| {
            hs.iter()
                .map(move |&hi| (g, hi, usable_hours(&input.jobs[g], &input.hosts[hi])))
        })
        .collect();
    let greedy_cost = total
        - greedy
            .iter()
            .zip(&input.jobs)
            .filter(|(a, _)| a.is_some())
            .map(|(_, j)| j.cost)
            .sum::<f64>();
    let to_moves = |answer: &[Option<(usize, [f64; 24])>]| -> Vec<Moved> {
        answer
            .iter()
            .enumerate()
            .filter_map(|(g, a)| {
                a.map(|(hi, share)| {
                    let j = &input.jobs[g];
                    Moved {
                        job: j.workload,
                        host: input.hosts[hi].workload,
                        cards: share.map(|s| s * j.cards as f64),
                        saving: j.cost,
                    }
                })
            })
            .collect()
    };
    if pairs.is_empty() {
        return (Vec::new(), total, total);
    }
    // A bound without the solver: every job that could move, moved.
    let mut movable = vec![false; input.jobs.len()];
    for (g, _, _) in &pairs {
        movable[*g] = true;
    }
    let floor = total
        - input
            .jobs
            .iter()
            .zip(&movable)
            .filter(|(_, m)| **m)
            .map(|(j, _)| j.cost)
            .sum::<f64>();
    let size: usize = pairs.iter().map(|(_, _, hs)| 1 + hs.len()).sum();
    if size > MAX_VARIABLES || Instant::now() >= deadline {
        solved.optimal = false;
        return (to_moves(&greedy), greedy_cost, floor);
    }
    let mut p = Problem::new(OptimizationDirection::Minimize);
    // The constant part of the objective (every job's cost), as a variable fixed at 1, so the
    // objective is the cost left and the gap is relative to it.
    let one = p.add_var(total, (1.0, 1.0));
    let mut x: Vec<Variable> = Vec::with_capacity(pairs.len());
    let mut y: Vec<Vec<(usize, Variable)>> = Vec::with_capacity(pairs.len());
    for (g, _, hours) in &pairs {
        x.push(p.add_binary_var(-input.jobs[*g].cost));
        y.push(
            hours
                .iter()
                .map(|&t| (t, p.add_var(0.0, (0.0, 1.0))))
                .collect(),
        );
    }
    let mut per_job: Vec<Vec<(Variable, f64)>> = vec![Vec::new(); input.jobs.len()];
    for ((g, _, _), v) in pairs.iter().zip(&x) {
        per_job[*g].push((*v, 1.0));
    }
    for row in per_job {
        if row.len() > 1 {
            p.add_constraint(row, ComparisonOp::Le, 1.0);
        }
    }
    for (k, (g, _, _)) in pairs.iter().enumerate() {
        let mut row: Vec<(Variable, f64)> = y[k].iter().map(|(_, v)| (*v, 1.0)).collect();
        row.push((x[k], -input.jobs[*g].hours_per_day));
        p.add_constraint(row, ComparisonOp::Ge, 0.0);
        for (_, v) in &y[k] {
            p.add_constraint([(*v, 1.0), (x[k], -1.0)], ComparisonOp::Le, 0.0);
        }
    }
    // Ordered by host and hour, so that the programme is the same on every run.
    let mut per_hour: BTreeMap<(usize, usize), Vec<(Variable, f64)>> = BTreeMap::new();
    for (k, (g, hi, _)) in pairs.iter().enumerate() {
        let c = input.jobs[*g].cards as f64;
        for (t, v) in &y[k] {
            per_hour.entry((*hi, *t)).or_default().push((*v, c));
        }
    }
    for ((hi, t), row) in per_hour {
        p.add_constraint(row, ComparisonOp::Le, input.hosts[hi].idle(t) as f64);
    }
    let mut warm = vec![(one, 1.0)];
    for (k, (g, hi, hours)) in pairs.iter().enumerate() {
        let on = matches!(greedy[*g], Some((gh, _)) if gh == *hi);
        warm.push((x[k], if on { 1.0 } else { 0.0 }));
        for (i, _) in hours.iter().enumerate() {
            let share = match greedy[*g] {
                Some((gh, s)) if gh == *hi => s[y[k][i].0],
                _ => 0.0,
            };
            warm.push((y[k][i].1, share));
        }
    }
    let Some((values, cost, bound)) = solve(&p, warm, nodes, deadline, solved) else {
        return (to_moves(&greedy), greedy_cost, floor);
    };
    let mut answer = vec![None; input.jobs.len()];
    for (k, (g, hi, _)) in pairs.iter().enumerate() {
        if values[x[k].idx()] > 0.5 {
            let mut share = [0.0; 24];
            for (t, v) in &y[k] {
                share[*t] = values[v.idx()].clamp(0.0, 1.0);
            }
            answer[*g] = Some((*hi, share));
        }
    }
    if cost <= greedy_cost + EPS && jobs_fit(input, &answer) {
        (to_moves(&answer), cost, bound.max(floor))
    } else {
        solved.fallbacks += 1;
        (
            to_moves(&greedy),
            greedy_cost,
            bound.max(floor).min(greedy_cost),
        )
    }
}

/// Whether an answer keeps every host within its idle cards and gives every moved job its
/// hours in its window: checked apart from the solver, which works in floating point.
fn jobs_fit(input: &FleetInput, answer: &[Option<(usize, [f64; 24])>]) -> bool {
    let mut used = vec![[0.0f64; 24]; input.hosts.len()];
    for (g, a) in answer.iter().enumerate() {
        let Some((hi, share)) = a else { continue };
        let j = &input.jobs[g];
        if !eligible(j, &input.hosts[*hi]) || share.iter().sum::<f64>() + 1e-4 < j.hours_per_day {
            return false;
        }
        for t in 0..24 {
            if share[t] > EPS && !j.window.contains(t) {
                return false;
            }
            used[*hi][t] += share[t] * j.cards as f64;
        }
    }
    input
        .hosts
        .iter()
        .zip(&used)
        .all(|(h, u)| (0..24).all(|t| u[t] <= h.idle(t) as f64 + 1e-4))
}

/// Whether instances of `a` and `b` fit one card together with what is on it.
fn room(card: &SharedCard, s: &Service) -> bool {
    card.vram_gib + s.vram_gib <= s.card_vram_gib * (1.0 + 1e-9) && card.load + s.load <= 1.0 + 1e-9
}

/// The greedy packing: instances by memory, largest first, each on the first card with room
/// that holds no instance of the same service (first fit decreasing).
fn greedy_cards(members: &[&Service]) -> Vec<SharedCard> {
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|&a, &b| members[b].vram_gib.total_cmp(&members[a].vram_gib));
    let mut cards: Vec<SharedCard> = Vec::new();
    for i in order {
        let s = members[i];
        for _ in 0..s.instances {
            let at = cards
                .iter()
                .position(|c| !c.services.contains(&s.workload) && room(c, s));
            let k = match at {
                Some(k) => k,
                None => {
                    cards.push(SharedCard {
                        group: s.group.clone(),
                        services: Vec::new(),
                        vram_gib: 0.0,
                        card_vram_gib: s.card_vram_gib,
                        load: 0.0,
                    });
                    cards.len() - 1
                }
            };
            let c = &mut cards[k];
            c.services.push(s.workload);
            c.vram_gib += s.vram_gib;
            c.load += s.load;
        }
    }
    cards
}

/// Packs the instances of one group's services onto as few cards as the programme finds,
/// starting from the greedy packing: returns the cards, their cost and its proven bound.
///
/// The programme: a binary u[k] (card k is rented) for the greedy answer's cards, a binary
/// z[i,k] (an instance of service i is on card k); Σₖ z = instances, Σᵢ memory·z ≤ card
/// memory·u, Σᵢ load·z ≤ u, u[k] ≥ u[k+1] (no two orders of the same cards). Minimise Σ u.
fn share_cards(
    members: &[&Service],
    nodes: u64,
    deadline: Instant,
    solved: &mut Solved,
) -> (Vec<SharedCard>, f64, f64) {
    let greedy = greedy_cards(members);
    let price = members[0].card_cost;
    let greedy_cost = greedy.len() as f64 * price;
    let mem: f64 = members
        .iter()
        .map(|s| s.vram_gib * s.instances as f64)
        .sum();
    let load: f64 = members.iter().map(|s| s.load * s.instances as f64).sum();
    let widest = members.iter().map(|s| s.instances).max().unwrap_or(0);
    let floor = (mem / members[0].card_vram_gib - 1e-9)
        .ceil()
        .max((load - 1e-9).ceil())
        .max(widest as f64);
    if greedy.len() as f64 <= floor + EPS {
        return (greedy, greedy_cost, greedy_cost);
    }
    let n = greedy.len();
    if n * (members.len() + 1) > MAX_VARIABLES || Instant::now() >= deadline {
        solved.optimal = false;
        return (greedy, greedy_cost, floor * price);
    }
    let mut p = Problem::new(OptimizationDirection::Minimize);
    let u: Vec<Variable> = (0..n).map(|_| p.add_binary_var(price)).collect();
    let z: Vec<Vec<Variable>> = members
        .iter()
        .map(|_| (0..n).map(|_| p.add_binary_var(0.0)).collect())
        .collect();
    for (i, s) in members.iter().enumerate() {
        p.add_constraint(
            z[i].iter().map(|v| (*v, 1.0)).collect::<Vec<_>>(),
            ComparisonOp::Eq,
            s.instances as f64,
        );
    }
    for k in 0..n {
        let mut m: Vec<(Variable, f64)> = members
            .iter()
            .enumerate()
            .map(|(i, s)| (z[i][k], s.vram_gib))
            .collect();
        m.push((u[k], -members[0].card_vram_gib));
        p.add_constraint(m, ComparisonOp::Le, 0.0);
        let mut l: Vec<(Variable, f64)> = members
            .iter()
            .enumerate()
            .map(|(i, s)| (z[i][k], s.load))
            .collect();
        l.push((u[k], -1.0));
        p.add_constraint(l, ComparisonOp::Le, 0.0);
        if k + 1 < n {
            p.add_constraint([(u[k], 1.0), (u[k + 1], -1.0)], ComparisonOp::Ge, 0.0);
        }
    }
    let mut warm: Vec<(Variable, f64)> = u.iter().map(|v| (*v, 1.0)).collect();
    for (i, s) in members.iter().enumerate() {
        for (k, c) in greedy.iter().enumerate() {
            let on = c.services.contains(&s.workload);
            warm.push((z[i][k], if on { 1.0 } else { 0.0 }));
        }
    }
    let Some((values, cost, bound)) = solve(&p, warm, nodes, deadline, solved) else {
        return (greedy, greedy_cost, floor * price);
    };
    let mut cards: Vec<SharedCard> = Vec::new();
    for k in 0..n {
        let mut card = SharedCard {
            group: members[0].group.clone(),
            services: Vec::new(),
            vram_gib: 0.0,
            card_vram_gib: members[0].card_vram_gib,
            load: 0.0,
        };
        for (i, s) in members.iter().enumerate() {
            if values[z[i][k].idx()] > 0.5 {
                card.services.push(s.workload);
                card.vram_gib += s.vram_gib;
                card.load += s.load;
            }
        }
        if !card.services.is_empty() {
            cards.push(card);
        }
    }
    if cards.len() <= greedy.len() && cards_fit(members, &cards) {
        (cards, cost, bound.max(floor * price))
    } else {
        solved.fallbacks += 1;
        (greedy, greedy_cost, floor * price)
    }
}

/// Whether every instance is on a card, no card holds two of one service, and every card's
/// memory and load are within it.
fn cards_fit(members: &[&Service], cards: &[SharedCard]) -> bool {
    members.iter().all(|s| {
        cards
            .iter()
            .filter(|c| c.services.contains(&s.workload))
            .count()
            == s.instances
    }) && cards.iter().all(|c| {
        let mut seen = c.services.clone();
        seen.sort_unstable();
        seen.dedup();
        seen.len() == c.services.len()
            && c.vram_gib <= c.card_vram_gib * (1.0 + 1e-9)
            && c.load <= 1.0 + 1e-6
    })
}

/// Solves `p` from the warm start within `nodes` and before `deadline`: every variable's value,
/// the objective and the best proven bound; `None` (and a fallback counted) when the solver
/// gives no answer or the time is spent.
fn solve(
    p: &Problem,
    warm: Vec<(Variable, f64)>,
    nodes: u64,
    deadline: Instant,
    solved: &mut Solved,
) -> Option<(Vec<f64>, f64, f64)> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        solved.optimal = false;
        return None;
    }
    let mut opts = SolveOptions::default();
    opts.node_limit = Some(nodes);
    opts.time_limit = Some(left);
    opts.warm_start = Some(warm.clone());
    let outcome = p.solve_with(opts).ok();
    let Some(sol) = outcome.and_then(|o| o.into_solution().ok()) else {
        solved.fallbacks += 1;
        solved.optimal = false;
        return None;
    };
    let stats = sol.stats();
    solved.nodes += stats.nodes_solved;
    let optimal = sol.status() == microlp::SolutionStatus::Optimal;
    solved.optimal &= optimal;
    let cost = sol.objective();
    let bound = if optimal {
        cost
    } else {
        stats.best_bound.unwrap_or(f64::NEG_INFINITY).min(cost)
    };
    // The warm start names every variable of the programme.
    let mut values = vec![0.0; warm.iter().map(|(v, _)| v.idx() + 1).max().unwrap_or(0)];
    for (v, _) in &warm {
        values[v.idx()] = sol.var_value_raw(*v);
    }
    Some((values, cost, bound))
}

#[cfg(test)]
mod tests;

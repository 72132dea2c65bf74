//! Services sharing a card (混部): the instances of one group's services (same offer and billing
//! mode) packed onto as few cards as fit their memory, their peak load and their month's hours,
//! no card holding two instances of one service.

use super::solve::{solve, spent, Answer};
use super::{Limits, Service, SharedCard, Solved, EPS};
use microlp::{ComparisonOp, OptimizationDirection, Problem, Variable};
use std::collections::HashMap;

/// Instances of one group packed together at most (a larger group is packed in chunks).
const CHUNK: usize = 128;
/// Instances of a group packed by the programme at most; a larger one keeps the greedy
/// first-fit-decreasing packing (by memory; memory, load and hours all checked) and its gap to
/// the bound is reported. The programme is a bin-packing MIP whose cards are all alike:
/// on 1,000 generated workloads over 100 offers, chunks of up to 128 instances spent 6.7 s of
/// branch and bound and found no card the greedy packing had not (scripts/bench.sh), where
/// small groups are solved to optimality in a few nodes.
const MIP_INSTANCES: usize = 24;

/// Variables of a programme at most: past it the greedy answer is kept.
const MAX_VARIABLES: usize = 20_000;

/// The services' part of the fleet.
pub(super) struct Shares {
    pub shared: Vec<SharedCard>,
    pub groups: Vec<(String, usize, usize, f64)>,
    pub saving: f64,
    /// The cost of the cards after, and its best bound.
    pub cost: f64,
    pub bound: f64,
}

/// A figure of a service.
type Of = fn(&Service) -> f64;

/// Packs every group of services.
pub(super) fn share(input: &super::FleetInput, limits: Limits, solved: &mut Solved) -> Shares {
    let mut out = Shares {
        shared: Vec::new(),
        groups: Vec::new(),
        saving: 0.0,
        cost: 0.0,
        bound: 0.0,
    };
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
            let (cards, c, b) = share_cards(&members, input.hours_in_month, limits, solved);
            out.cost += c;
            out.bound += b;
            before += n;
            // A card holds at least one instance, so at most n cards; with n each holds one
            // and none is shared.
            after += cards.len();
            out.shared
                .extend(cards.into_iter().filter(|c| c.services.len() > 1));
        }
        if after < before {
            out.saving += (before - after) as f64 * card_cost;
            out.groups.push((g.to_string(), before, after, card_cost));
        }
    }
    out
}

/// Whether an instance of `s` fits `card` with what is on it: memory, peak load and the
/// month's hours.
fn room(card: &SharedCard, s: &Service, hours: f64) -> bool {
    card.vram_gib + s.vram_gib <= card.card_vram_gib * (1.0 + 1e-9)
        && card.load + s.load <= 1.0 + 1e-9
        && card.busy_hours + s.busy_hours <= hours * (1.0 + 1e-9)
}

fn empty_card(s: &Service) -> SharedCard {
    SharedCard {
        group: s.group.clone(),
        services: Vec::new(),
        vram_gib: 0.0,
        card_vram_gib: s.card_vram_gib,
        load: 0.0,
        busy_hours: 0.0,
    }
}

fn put(c: &mut SharedCard, s: &Service) {
    c.services.push(s.workload);
    c.vram_gib += s.vram_gib;
    c.load += s.load;
    c.busy_hours += s.busy_hours;
}

/// The greedy packing: instances by memory, largest first, each on the first card with room
/// that holds no instance of the same service (first fit decreasing).
fn greedy_cards(members: &[&Service], hours: f64) -> Vec<SharedCard> {
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|&a, &b| members[b].vram_gib.total_cmp(&members[a].vram_gib));
    let mut cards: Vec<SharedCard> = Vec::new();
    for i in order {
        let s = members[i];
        for _ in 0..s.instances {
            let at = cards
                .iter()
                .position(|c| !c.services.contains(&s.workload) && room(c, s, hours));
            let k = match at {
                Some(k) => k,
                None => {
                    cards.push(empty_card(s));
                    cards.len() - 1
                }
            };
            put(&mut cards[k], s);
        }
    }
    cards
}

/// Packs the instances of one group's services onto as few cards as the programme finds,
/// starting from the greedy packing: returns the cards, their cost and its proven bound.
///
/// The programme: a binary u[k] (card k is rented) for the greedy answer's cards, a binary
/// z[i,k] (an instance of service i is on card k); Σₖ z = instances, Σᵢ memory·z ≤ card
/// memory·u, Σᵢ load·z ≤ u, Σᵢ hours·z ≤ the month's hours·u, u[k] ≥ u[k+1] (no two orders of
/// the same cards). Minimise Σ u.
fn share_cards(
    members: &[&Service],
    hours: f64,
    limits: Limits,
    solved: &mut Solved,
) -> (Vec<SharedCard>, f64, f64) {
    let greedy = greedy_cards(members, hours);
    let price = members[0].card_cost;
    let greedy_cost = greedy.len() as f64 * price;
    let floor = floor_cards(members, hours);
    if greedy.len() as f64 <= floor + EPS {
        return (greedy, greedy_cost, greedy_cost);
    }
    let n = greedy.len();
    let instances: usize = members.iter().map(|s| s.instances).sum();
    if instances > MIP_INSTANCES || n * (members.len() + 1) > MAX_VARIABLES || spent(limits, solved)
    {
        return (greedy, greedy_cost, floor * price);
    }
    let (p, z, warm) = programme(members, &greedy, hours, price);
    let width = n * (members.len() + 1);
    let Some(a) = solve(&p, warm, width, limits, solved) else {
        return (greedy, greedy_cost, floor * price);
    };
    let cards = cards_of(&a, members, &z, n);
    if cards.len() <= greedy.len() && cards_fit(members, &cards, hours) {
        (cards, a.cost, a.bound.max(floor * price))
    } else {
        solved.fallbacks += 1;
        (greedy, greedy_cost, floor * price)
    }
}

/// The fewest cards a group's instances could take: by their memory, their load and their
/// hours, and no fewer than the most instances of one service (none shares a card).
fn floor_cards(members: &[&Service], hours: f64) -> f64 {
    let sum =
        |f: fn(&Service) -> f64| -> f64 { members.iter().map(|s| f(s) * s.instances as f64).sum() };
    let widest = members.iter().map(|s| s.instances).max().unwrap_or(0);
    (sum(|s| s.vram_gib) / members[0].card_vram_gib - 1e-9)
        .ceil()
        .max((sum(|s| s.load) - 1e-9).ceil())
        .max((sum(|s| s.busy_hours) / hours.max(EPS) - 1e-9).ceil())
        .max(widest as f64)
}

/// The programme of [`share_cards`] over the greedy answer's cards (its warm start): the
/// problem, the variables z of each service on each card, and the warm start.
fn programme(
    members: &[&Service],
    greedy: &[SharedCard],
    hours: f64,
    price: f64,
) -> (Problem, Vec<Vec<Variable>>, Vec<(Variable, f64)>) {
    let n = greedy.len();
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
    let card_vram = members[0].card_vram_gib;
    for k in 0..n {
        let capacity: [(Of, f64); 3] = [
            (|s| s.vram_gib, card_vram),
            (|s| s.load, 1.0),
            (|s| s.busy_hours, hours),
        ];
        for (of, cap) in capacity {
            let mut row: Vec<(Variable, f64)> = members
                .iter()
                .enumerate()
                .map(|(i, s)| (z[i][k], of(s)))
                .collect();
            row.push((u[k], -cap));
            p.add_constraint(row, ComparisonOp::Le, 0.0);
        }
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
    (p, z, warm)
}

/// The programme's answer `a` as cards: each of the `n` cards with the instances on it, the
/// empty ones left out.
fn cards_of(a: &Answer, members: &[&Service], z: &[Vec<Variable>], n: usize) -> Vec<SharedCard> {
    let mut cards: Vec<SharedCard> = Vec::new();
    for k in 0..n {
        let mut card = empty_card(members[0]);
        for (zi, s) in z.iter().zip(members) {
            if a.of(zi[k]) > 0.5 {
                put(&mut card, s);
            }
        }
        if !card.services.is_empty() {
            cards.push(card);
        }
    }
    cards
}

/// Whether every instance is on a card, no card holds two of one service, and every card's
/// memory, load and hours are within it.
fn cards_fit(members: &[&Service], cards: &[SharedCard], hours: f64) -> bool {
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
            && c.busy_hours <= hours * (1.0 + 1e-6)
    })
}

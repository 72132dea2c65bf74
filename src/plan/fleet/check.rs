//! The check of a fleet, written apart from the solver and from the input's rules alone: per
//! day type, per card, per hour, who holds it; every run whole, inside its window and on idle
//! cards; every moved job's month covered; every shared card within its memory, load and
//! hours; and the saving the sum of what moved and what was given up.

use super::{
    DayType, Fit, Fleet, FleetInput, Holder, Host, Job, Moved, Schedule, Service, SharedCard,
};
use std::collections::HashMap;

/// `Ok` when every claim of `fleet` holds for `input`; else what does not.
pub fn check(input: &FleetInput, fleet: &Fleet) -> Result<(), String> {
    check_jobs(input, fleet)?;
    check_shares(input, fleet)?;
    let moved: f64 = fleet.moved.iter().map(|m| input.jobs[m.job].cost).sum();
    let given_up: f64 = fleet
        .groups
        .iter()
        .map(|(_, before, after, cost)| (*before as f64 - *after as f64) * cost)
        .sum();
    if (moved + given_up - fleet.saving).abs() > 1e-6 * (1.0 + fleet.saving.abs()) {
        return Err(format!(
            "the saving {} is not the moved jobs' {moved} plus the cards given up {given_up}",
            fleet.saving
        ));
    }
    if fleet.saving < 0.0 {
        return Err("a negative saving".into());
    }
    Ok(())
}

fn check_jobs(input: &FleetInput, fleet: &Fleet) -> Result<(), String> {
    let mut seen = vec![false; input.jobs.len()];
    for m in &fleet.moved {
        check_moved(input, fleet, m, &mut seen)?;
    }
    for s in &fleet.schedules {
        let h = input.hosts.get(s.host).ok_or("a schedule of no host")?;
        let days: usize = s.day_types.iter().map(|t| t.days).sum();
        if days > input.days || s.first_hour >= 24 {
            return Err(format!(
                "host {}'s schedule has {days} days of {}",
                s.host, input.days
            ));
        }
        for t in &s.day_types {
            check_day_type(input, fleet, s, h, t)?;
        }
    }
    Ok(())
}

/// A moved job: in the input, moved once (`seen` marks it), onto a host whose cards it fits,
/// saving its cost, and its month covered by the host's schedule.
fn check_moved(
    input: &FleetInput,
    fleet: &Fleet,
    m: &Moved,
    seen: &mut [bool],
) -> Result<(), String> {
    let j = input
        .jobs
        .get(m.job)
        .ok_or("a moved job that is not in the input")?;
    let h = input
        .hosts
        .get(m.host)
        .ok_or("a host that is not in the input")?;
    let f = j.fits.get(m.fit).ok_or("a fit the job does not have")?;
    if std::mem::replace(&mut seen[m.job], true) {
        return Err(format!("job {} moved twice", m.job));
    }
    if f.card != h.card || f.vram_gib > h.vram_gib * (1.0 + 1e-9) || f.cards > h.cards {
        return Err(format!(
            "job {} does not fit host {}'s cards",
            m.job, m.host
        ));
    }
    if (m.saving - j.cost).abs() > 1e-9 {
        return Err(format!(
            "job {} saves {} but costs {}",
            m.job, m.saving, j.cost
        ));
    }
    let s = fleet
        .schedules
        .iter()
        .find(|s| s.host == m.host)
        .ok_or(format!("host {} carries a job but has no schedule", m.host))?;
    check_covered(j, f, m, s)
}

/// A moved job's runs in its host's schedule: each whole (unless it checkpoints) and on as many
/// cards as its fit, together covering its month.
fn check_covered(j: &Job, f: &Fit, m: &Moved, s: &Schedule) -> Result<(), String> {
    // Runs whole hours: its hours over its runs, rounded up (a job that checkpoints: its
    // runs' hours in pieces of whole hours).
    let runs = j.runs.max(1);
    let run_len = (f.hours / runs as f64 - 1e-9).ceil().max(1.0) as usize;
    let mut whole_runs = 0usize;
    let mut hours = 0usize;
    for t in &s.day_types {
        for r in t.runs.iter().filter(|r| r.job == m.job) {
            if !j.resumable && r.len < run_len {
                return Err(format!(
                    "job {}'s run of {} h is shorter than {run_len} h",
                    m.job, r.len
                ));
            }
            if r.cards.len() != f.cards {
                return Err(format!(
                    "job {}'s run holds {} cards, not {}",
                    m.job,
                    r.cards.len(),
                    f.cards
                ));
            }
            whole_runs += t.days;
            hours += t.days * r.len;
        }
    }
    let covered = if j.resumable {
        hours >= runs * run_len
    } else {
        whole_runs >= runs
    };
    if !covered {
        return Err(format!(
            "job {}'s month is not covered ({whole_runs} runs, {hours} h)",
            m.job
        ));
    }
    Ok(())
}

/// One day type of a host's schedule: a grid of the host's cards, each run of a job moved there
/// inside the day, its window and the rented cards, never two runs of one job at once, and the
/// grid saying what the runs hold, with the service's cards left to it.
fn check_day_type(
    input: &FleetInput,
    fleet: &Fleet,
    s: &Schedule,
    h: &Host,
    t: &DayType,
) -> Result<(), String> {
    if t.cards.len() != h.cards {
        return Err(format!(
            "host {}'s day type has {} cards",
            s.host,
            t.cards.len()
        ));
    }
    // Every card-hour from the runs: at most one run, and the grid says the same.
    let held = held_cards(input, fleet, s, h, t)?;
    // A job's runs follow one another: never two of them in the same hour.
    for (a, r) in t.runs.iter().enumerate() {
        for q in &t.runs[a + 1..] {
            if q.job == r.job
                && q.first_slot < r.first_slot + r.len
                && r.first_slot < q.first_slot + q.len
            {
                return Err(format!("two runs of job {} at once", r.job));
            }
        }
    }
    for hour in 0..24 {
        let mut service = 0;
        for (c, row) in t.cards.iter().enumerate() {
            let want = held[c][hour].map_or(Holder::Idle, Holder::Job);
            match (row[hour], want) {
                (Holder::Service, Holder::Idle) => service += 1,
                (got, want) if got == want => {}
                (got, _) => {
                    return Err(format!(
                        "card {c} at {hour}:00 says {got:?}, its runs {want:?}"
                    ))
                }
            }
        }
        if service < h.busy[hour] {
            return Err(format!(
                "host {} at {hour}:00 keeps {service} cards for its service, which needs {}",
                s.host, h.busy[hour]
            ));
        }
    }
    Ok(())
}

/// Who holds each card in each hour of a day type by its runs: at most one run a card-hour,
/// every run of a job moved to the host, inside the day and its window, on rented cards.
fn held_cards(
    input: &FleetInput,
    fleet: &Fleet,
    s: &Schedule,
    h: &Host,
    t: &DayType,
) -> Result<Vec<[Option<usize>; 24]>, String> {
    let mut held = vec![[None::<usize>; 24]; h.cards];
    for r in &t.runs {
        let m = fleet
            .moved
            .iter()
            .find(|m| m.job == r.job && m.host == s.host)
            .ok_or(format!(
                "a run of job {} not moved to host {}",
                r.job, s.host
            ))?;
        let j = &input.jobs[m.job];
        if r.len == 0 || r.first_slot + r.len > 24 {
            return Err(format!("job {}'s run leaves the day", r.job));
        }
        let mut cards = r.cards.clone();
        cards.sort_unstable();
        cards.dedup();
        if cards.len() != r.cards.len() || cards.iter().any(|&c| c >= h.cards) {
            return Err(format!(
                "job {}'s run names a card twice or one not rented",
                r.job
            ));
        }
        for slot in r.first_slot..r.first_slot + r.len {
            let hour = (s.first_hour + slot) % 24;
            if !j.window.contains(hour) {
                return Err(format!(
                    "job {} runs at {hour}:00, outside its window",
                    r.job
                ));
            }
            for &c in &r.cards {
                if held[c][hour].replace(r.job).is_some() {
                    return Err(format!("two runs on card {c} at {hour}:00"));
                }
            }
        }
    }
    Ok(held)
}

fn check_shares(input: &FleetInput, fleet: &Fleet) -> Result<(), String> {
    // Each service by its workload and group, and each group's shared cards: a portfolio of
    // thousands of services is checked in linear time.
    let by_id: HashMap<(usize, &str), &Service> = input
        .services
        .iter()
        .map(|s| ((s.workload, s.group.as_str()), s))
        .collect();
    let mut of_group: HashMap<&str, Vec<&SharedCard>> = HashMap::new();
    for c in &fleet.shared {
        of_group.entry(c.group.as_str()).or_default().push(c);
    }
    let mut members_of: HashMap<&str, Vec<&Service>> = HashMap::new();
    for s in &input.services {
        members_of.entry(s.group.as_str()).or_default().push(s);
    }
    for c in &fleet.shared {
        let mut ids = c.services.clone();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() != c.services.len() || ids.len() < 2 {
            return Err("a shared card with one service, or one service twice".into());
        }
        let (mut vram, mut load, mut hours) = (0.0, 0.0, 0.0);
        let mut cap = f64::INFINITY;
        for w in &c.services {
            let s = by_id
                .get(&(*w, c.group.as_str()))
                .ok_or(format!("service {w} is not of group {}", c.group))?;
            vram += s.vram_gib;
            load += s.load;
            hours += s.busy_hours;
            cap = cap.min(s.card_vram_gib);
        }
        if vram > cap * (1.0 + 1e-9)
            || load > 1.0 + 1e-6
            || hours > input.hours_in_month * (1.0 + 1e-6)
        {
            return Err(format!(
                "a shared card of {} over its memory ({vram:.2} of {cap:.2} GiB), load ({load:.3}) or hours ({hours:.1} of {})",
                c.group, input.hours_in_month
            ));
        }
    }
    for (g, before, after, _) in &fleet.groups {
        let members = members_of.get(g.as_str()).map_or(&[][..], Vec::as_slice);
        let n: usize = members.iter().map(|s| s.instances).sum();
        let shared = of_group.get(g.as_str()).map_or(&[][..], Vec::as_slice);
        let on_shared: usize = shared.iter().map(|c| c.services.len()).sum();
        let mut cards_of: HashMap<usize, usize> = HashMap::new();
        for c in shared {
            for w in &c.services {
                *cards_of.entry(*w).or_default() += 1;
            }
        }
        if *before != n || *after != shared.len() + (n - on_shared.min(n)) || on_shared > n {
            return Err(format!(
                "group {g}: {before} → {after} cards does not match its {n} instances"
            ));
        }
        for s in members {
            let cards = cards_of.get(&s.workload).copied().unwrap_or(0);
            if cards > s.instances {
                return Err(format!(
                    "service {} on {cards} cards, with {} instances",
                    s.workload, s.instances
                ));
            }
        }
    }
    Ok(())
}

//! The packing's answer for the outputs: each host's cards with the jobs moved onto them and
//! their schedules, the shared cards, the saving of each workload, and the warnings of what
//! did not move.

use super::super::{Fleet, FleetInput, Holder, Host, Moved, Schedule, Service};
use super::{chosen_offer, Carried, DayTypeJson, FleetCard, ScheduleJson, ServiceNote};
use crate::model::{Input, Warning};
use crate::plan::WorkloadPlan;
use std::collections::HashMap;

/// The fleet's saving in terms of the workloads' GPU costs ([`FleetPlan::terms`]): each moved
/// job's whole cost, and for each group of services its cards saved × its first service's
/// cost a card (the price [`share`](super::share) saved them at) over that service's cost.
pub(super) fn saving_terms(
    plans: &[WorkloadPlan],
    fi: &FleetInput,
    fleet: &Fleet,
) -> Vec<(usize, f64)> {
    let gpu_cost = |w: usize| plans[w].chosen.as_ref().map_or(0.0, |c| c.gpu_cost);
    let mut terms: Vec<(usize, f64)> = fleet
        .moved
        .iter()
        .map(|m| fi.jobs[m.job].workload)
        .filter(|&w| gpu_cost(w) > 0.0)
        .map(|w| (w, 1.0))
        .collect();
    for (group, before, after, card_cost) in &fleet.groups {
        let Some(first) = fi.services.iter().find(|s| &s.group == group) else {
            continue;
        };
        let cost = gpu_cost(first.workload);
        if cost > 0.0 {
            terms.push((first.workload, (before - after) as f64 * card_cost / cost));
        }
    }
    terms
}

/// A note for each job that could have moved onto a host's idle cards (its card and memory
/// fit) but did not because one run is longer than its window and it does not checkpoint.
pub(super) fn not_moved_warnings(
    input: &Input,
    fi: &FleetInput,
    fleet: &Fleet,
    warnings: &mut Vec<Warning>,
) {
    for (ji, j) in fi.jobs.iter().enumerate() {
        if j.resumable || fleet.moved.iter().any(|m| m.job == ji) {
            continue;
        }
        let window = (0..24).filter(|&h| j.window.contains(h)).count();
        let Some((h, fit)) = fi.hosts.iter().find_map(|h| {
            j.fits
                .iter()
                .find(|f| f.card == h.card && f.vram_gib <= h.vram_gib && f.cards <= h.cards)
                .map(|f| (h, f))
        }) else {
            continue;
        };
        let run = j.run_len(fit);
        let idle = (0..24)
            .filter(|&t| j.window.contains(t) && h.idle(t) >= fit.cards)
            .count();
        if run <= idle.min(window) {
            continue;
        }
        let (name, host) = (
            &input.workloads[j.workload].name,
            &input.workloads[h.workload].name,
        );
        warnings.push(
            Warning::info(
                input.workloads[j.workload].cell.to_string(),
                format!(
                    "{name} could run on {host}'s idle cards, but one run takes {run} h and they are idle {idle} h a day in its window: give checkpoint_min (it checkpoints, so a run may resume the next day) or more runs_per_month"
                ),
            )
            .with_zh(format!(
                "{name} 可以使用 {host} 的闲置卡，但单次运行需 {run} 小时，而其时间窗内这些卡每天只空闲 {idle} 小时：请填写 checkpoint_min（保存断点，次日可续跑）或增加 runs_per_month"
            )),
        );
    }
}

/// The hosts that carry moved jobs, each with its month.
pub(super) fn host_cards(
    input: &Input,
    plans: &[WorkloadPlan],
    fi: &FleetInput,
    fleet: &Fleet,
    warnings: &mut Vec<Warning>,
) -> Vec<FleetCard> {
    let name = |i: usize| input.workloads[i].name.clone();
    let days = fi.days.max(1) as f64;
    let mut out = Vec::new();
    for s in &fleet.schedules {
        let h = &fi.hosts[s.host];
        let offer = chosen_offer(plans, h.workload).map(|o| &input.gpus[o]);
        let mut carried = vec![Carried {
            name: name(h.workload),
            role: "service",
            hours: h.busy.map(|b| b as f64),
            vram_gib: 0.0,
            saving: 0.0,
            memory_share: None,
            launch: None,
        }];
        for m in fleet.moved.iter().filter(|m| m.host == s.host) {
            carried.push(moved_job(input, fi, s, h, m, days, warnings));
        }
        out.push(FleetCard {
            gpu: offer.map_or(String::new(), |o| o.label()),
            cards: h.cards,
            sharing: "idle_hours",
            workloads: carried,
            schedule: Some(schedule_json(input, fi, s, h)),
        });
    }
    out
}

/// A job moved onto a host's idle cards as the outputs show it: the cards it holds in each hour
/// on average, with a note where its runs are split across days.
pub(super) fn moved_job(
    input: &Input,
    fi: &FleetInput,
    s: &Schedule,
    h: &Host,
    m: &Moved,
    days: f64,
    warnings: &mut Vec<Warning>,
) -> Carried {
    let name = |i: usize| input.workloads[i].name.clone();
    let j = &fi.jobs[m.job];
    let mut hours = [0.0; 24];
    for t in &s.day_types {
        for row in &t.cards {
            for (hour, cell) in row.iter().enumerate() {
                if *cell == Holder::Job(m.job) {
                    hours[hour] += t.days as f64 / days;
                }
            }
        }
    }
    let fit = &j.fits[m.fit];
    let run = j.run_len(fit);
    let longest = s
        .day_types
        .iter()
        .flat_map(|t| &t.runs)
        .filter(|r| r.job == m.job)
        .map(|r| r.len)
        .max()
        .unwrap_or(0);
    if j.resumable && longest < run {
        let who = name(j.workload);
        warnings.push(
            Warning::info(
                input.workloads[j.workload].cell.to_string(),
                format!(
                    "{who}: a run of {run} h is split across days on {}'s idle cards (at most {longest} h in one day), resuming from its checkpoint",
                    name(h.workload)
                ),
            )
            .with_zh(format!(
                "{who}：单次运行 {run} 小时，在 {} 的闲置卡上分多天完成（一天最多 {longest} 小时），从断点续跑",
                name(h.workload)
            )),
        );
    }
    Carried {
        name: name(j.workload),
        role: "job",
        hours,
        vram_gib: fit.vram_gib,
        saving: m.saving,
        memory_share: None,
        launch: None,
    }
}

/// A host's month as the outputs show it: on how many days each day type runs, and in it who
/// holds each card in each hour, by name.
pub(super) fn schedule_json(
    input: &Input,
    fi: &FleetInput,
    s: &Schedule,
    h: &Host,
) -> ScheduleJson {
    let name = |i: usize| input.workloads[i].name.clone();
    let holder = |c: &Holder| match c {
        Holder::Idle => None,
        Holder::Service => Some(name(h.workload)),
        Holder::Job(j) => Some(name(fi.jobs[*j].workload)),
    };
    ScheduleJson {
        first_hour: s.first_hour,
        days_in_month: fi.days,
        day_types: s
            .day_types
            .iter()
            .map(|t| DayTypeJson {
                days: t.days,
                cards: t
                    .cards
                    .iter()
                    .map(|row| row.each_ref().map(holder))
                    .collect(),
            })
            .collect(),
    }
}

/// The cards shared by services, with each instance's memory and launch flag.
pub(super) fn shared_cards(
    input: &Input,
    plans: &[WorkloadPlan],
    fi: &FleetInput,
    fleet: &Fleet,
    notes: &[ServiceNote],
    warnings: &mut Vec<Warning>,
) -> Vec<FleetCard> {
    let name = |i: usize| input.workloads[i].name.clone();
    // The first service and note of each workload, found once.
    let mut svc_of: HashMap<usize, &Service> = HashMap::new();
    for x in &fi.services {
        svc_of.entry(x.workload).or_insert(x);
    }
    let mut note_of: HashMap<usize, &ServiceNote> = HashMap::new();
    for n in notes {
        note_of.entry(n.workload).or_insert(n);
    }
    let mut out = Vec::new();
    for s in &fleet.shared {
        let gpu = s
            .services
            .first()
            .and_then(|&w| chosen_offer(plans, w))
            .map_or(String::new(), |o| input.gpus[o].label());
        if s.vram_gib >= 0.95 * s.card_vram_gib {
            let names: Vec<String> = s.services.iter().map(|&i| name(i)).collect();
            warnings.push(Warning::warn(
                input.workloads[s.services[0]].cell.to_string(),
                format!(
                    "{} share one {gpu} with {:.1} of its {:.0} GiB: within 5% of what it allows, a peak of either may run out of memory",
                    names.join(" and "),
                    s.vram_gib,
                    s.card_vram_gib
                ),
            ).with_zh(format!(
                "{} 共用一张 {gpu}，可用 {:.0} GiB 中占用 {:.1} GiB：与上限相差不到 5%，任一方的峰值都可能导致显存不足",
                names.join(" 和 "),
                s.card_vram_gib,
                s.vram_gib
            )));
        }
        out.push(FleetCard {
            gpu,
            cards: 1,
            sharing: "shared",
            workloads: s
                .services
                .iter()
                .map(|&i| {
                    let svc = svc_of.get(&i);
                    let note = note_of.get(&i);
                    Carried {
                        name: name(i),
                        role: "service",
                        hours: [1.0; 24],
                        vram_gib: svc.map_or(0.0, |x| x.vram_gib),
                        saving: 0.0,
                        memory_share: note.and_then(|n| n.memory_share),
                        launch: note.and_then(|n| n.launch.clone()),
                    }
                })
                .collect(),
            schedule: None,
        });
    }
    out
}

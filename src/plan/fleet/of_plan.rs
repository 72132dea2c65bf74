//! The fleet of a plan: its workloads' chosen candidates as the packing's hosts, jobs and
//! services, and the packing's answer as the cards and schedules the outputs show (the Fleet
//! tab, JSON `fleet`), with the warnings of a tight share.

use super::{pack, Fit, Fleet, FleetInput, Holder, Host, Job, Limits, Moved, Schedule, Service};
use crate::model::{DayWindow, Input, Warning};
use crate::plan::{Candidate, Chosen, Mode, WorkloadPlan};
use serde::Serialize;
use std::collections::HashMap;

/// How the fleet reads a plan's figures: a candidate formula's value by name, and an input of
/// the chosen candidate's formulas by name (an assumption as its engine profile sets it).
pub struct Readers<'a> {
    /// A candidate formula's value for a candidate, by the formula's name; `None` when no
    /// formula has that name or the candidate has no values.
    pub value: &'a dyn Fn(&Candidate, &str) -> Option<f64>,
    /// An input of the chosen candidate's formulas (a workload, model, GPU or assumption
    /// value), by name; `None` when the formulas read no such input.
    pub input: &'a dyn Fn(&Chosen, &str) -> Option<f64>,
}

/// The fleet as the outputs show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetPlan {
    /// What sharing saves a month against each workload on cards of its own.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub saving: f64,
    /// The budget with it: the total with safety margin less the saving (the margin and the
    /// reserves on the saved rent are kept).
    #[serde(serialize_with = "crate::model::cents_json")]
    pub budget: f64,
    /// The cards that carry more than one workload.
    pub cards: Vec<FleetCard>,
    /// How the solver ended.
    pub solver: SolverJson,
    /// The saving as Σ factor × a workload's GPU cost (the Plan tab's GPU cost column): a job
    /// moved onto idle cards saves its whole GPU cost (factor 1), a group of services the
    /// cards it no longer rents at its first service's price a card. The Summary writes it as
    /// a formula, so that an edited price moves the saving and the budget with the fleet.
    #[serde(skip)]
    pub terms: Vec<(usize, f64)>,
}

impl FleetPlan {
    /// The names of the workloads on its cards: the services and the jobs moved onto them.
    pub fn sharing(&self) -> impl Iterator<Item = &str> {
        self.cards
            .iter()
            .flat_map(|c| &c.workloads)
            .map(|w| w.name.as_str())
    }
}

/// How the solver ended: whether the answer meets the best bound, and the gap to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolverJson {
    /// Whether the answer meets the best bound found: no better fleet exists.
    pub optimal: bool,
    /// Relative gap between the answer's cost and the best bound over all programmes (0–1; 0
    /// when optimal).
    pub gap: f64,
    /// Branch-and-bound nodes explored, all programmes together.
    pub nodes: u64,
    /// Programmes where the greedy answer was kept because the solver gave none.
    pub fallbacks: usize,
}

/// A rented card (or group of cards) and what runs on it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetCard {
    /// GPU and provider.
    pub gpu: String,
    /// Cards rented: all of the host service's cards for `idle_hours`, 1 for `shared`.
    pub cards: usize,
    /// `idle_hours`: a service's cards lent to jobs; `shared`: one card holding instances of
    /// several services.
    pub sharing: &'static str,
    /// The workloads on the card(s): for `idle_hours` the host service first, then the jobs
    /// moved there.
    pub workloads: Vec<Carried>,
    /// For `idle_hours`: the month's day types, card by card and hour by hour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<ScheduleJson>,
}

/// A host's month: on how many days each day type runs, and in it who holds each card in each
/// hour of the day (0–23; null: idle).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScheduleJson {
    /// The clock hour a day of the schedule starts at: no run crosses it.
    pub first_hour: usize,
    /// Whole days of the month the schedule covers (`hours_in_month / 24`, rounded down).
    pub days_in_month: usize,
    /// The day types, each with the days it runs on and its cards' holders hour by hour.
    pub day_types: Vec<DayTypeJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DayTypeJson {
    pub days: usize,
    /// Per card, the 24 hours' holders.
    pub cards: Vec<[Option<String>; 24]>,
}

/// One workload on a card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Carried {
    /// The workload's name, as the Workloads sheet gives it.
    pub name: String,
    /// `service` (the card's own, or one sharing it) or `job` (moved onto idle hours).
    pub role: &'static str,
    /// Cards it holds in each hour of the day (0–23), on average over the month's days.
    pub hours: [f64; 24],
    /// Memory it takes on each card, GiB.
    pub vram_gib: f64,
    /// What it no longer pays a month (a moved job's own rental).
    #[serde(serialize_with = "crate::model::cents_json")]
    pub saving: f64,
    /// On a shared card, for an engine that preallocates: its share of the card's memory
    /// (0–1, rounded up to the hundredth).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_share: Option<f64>,
    /// With `memory_share`: the engine's flag to launch it with that share
    /// (`--gpu-memory-utilization 0.42` for vLLM, `--mem-fraction-static` for SGLang).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch: Option<String>,
}

/// The figures of one chosen candidate the packing reads.
struct Figures {
    per_replica: f64,
    instances: f64,
    gpus: f64,
    required: f64,
    run_hours: f64,
}

/// What the outputs need of each service beside the packing's input.
struct ServiceNote {
    workload: usize,
    memory_share: Option<f64>,
    launch: Option<String>,
}

/// The fleet of the chosen candidates, and its warnings; `None` when the Assumption `fleet`
/// is no, or nothing shares. `with_margin` is the plan's total with safety margin, from which
/// the fleet's budget is its saving less.
pub fn fleet_of(
    input: &Input,
    plans: &[WorkloadPlan],
    read: &Readers,
    with_margin: f64,
    warnings: &mut Vec<Warning>,
) -> Option<FleetPlan> {
    if matches!(
        input.assumptions.get("fleet").map(|a| &a.value),
        Some(crate::model::Value::Bool(false))
    ) {
        return None;
    }
    let hours_in_month = input.assumptions.number("hours_in_month", 730.0);
    let mut fi = FleetInput {
        days: (hours_in_month / 24.0 + 1e-9).floor().max(0.0) as usize,
        hours_in_month,
        ..FleetInput::default()
    };
    let mut notes: Vec<ServiceNote> = Vec::new();
    let value = read.value;
    for (i, (w, wp)) in input.workloads.iter().zip(plans).enumerate() {
        add_workload(&mut fi, &mut notes, input, read, i, w, wp);
    }
    // Each job's fits: its plan on each host's card (its candidate on that offer), re-sized
    // to its hours there.
    add_fits(&mut fi, plans, value);
    if (fi.jobs.is_empty() || fi.hosts.is_empty()) && fi.services.len() < 2 {
        return None;
    }
    let fleet = pack(&fi, Limits::default());
    not_moved_warnings(input, &fi, &fleet, warnings);
    let cards = host_cards(input, plans, &fi, &fleet, warnings)
        .into_iter()
        .chain(shared_cards(input, plans, &fi, &fleet, &notes, warnings))
        .collect();
    if fleet.saving <= 0.0 {
        return None;
    }
    let terms = saving_terms(plans, &fi, &fleet);
    Some(FleetPlan {
        terms,
        saving: fleet.saving,
        budget: with_margin - fleet.saving,
        cards,
        solver: SolverJson {
            optimal: fleet.solved.optimal,
            gap: fleet.solved.gap,
            nodes: fleet.solved.nodes,
            fallbacks: fleet.solved.fallbacks,
        },
    })
}

/// Workload `w`'s (the `i`th's) chosen candidate in the packing's input: a service rented by the month with
/// idle cards off-peak as a host, an offline job billed by the hour as a job, a service of one
/// card a replica as a service that may share it (with its note); nothing otherwise.
fn add_workload(
    fi: &mut FleetInput,
    notes: &mut Vec<ServiceNote>,
    input: &Input,
    read: &Readers,
    i: usize,
    w: &crate::model::Workload,
    wp: &WorkloadPlan,
) {
    let Some(ch) = &wp.chosen else { return };
    let hours_in_month = fi.hours_in_month;
    let value = read.value;
    let c = &wp.candidates[ch.candidate];
    let offer = &input.gpus[c.offer];
    let get = |n: &str| value(c, n).unwrap_or(f64::NAN);
    let f = Figures {
        per_replica: get("gpus_per_replica"),
        instances: get("instances"),
        gpus: get("gpus_total"),
        required: get("required_vram_gib"),
        run_hours: get("run_hours"),
    };
    if !(f.per_replica >= 1.0 && f.gpus >= 1.0 && f.required.is_finite()) {
        return;
    }
    let whole_month = ch.mode.is_committed();
    if let (true, true, Some(peak)) = (w.online, whole_month, w.peak_window) {
        // Off-peak it needs only the replicas of its off-peak concurrency (none without a
        // base_concurrency: it is busy only at its peak); the rest of its cards (its
        // redundancy included) are idle.
        let per = get("concurrency_per_replica").max(1.0);
        let gpus = f.gpus as usize;
        let base = w.numbers.base_concurrency.unwrap_or(0.0);
        let off = ((base / per).ceil() * f.per_replica).min(f.gpus) as usize;
        fi.hosts.push(Host {
            workload: i,
            card: card_key(c.offer),
            vram_gib: offer.vram_gib,
            cards: gpus,
            busy: std::array::from_fn(|h| if peak.contains(h) { gpus } else { off }),
        });
        return;
    }
    if !w.online && matches!(ch.mode, Mode::OnDemand | Mode::Spot) && f.run_hours > 0.0 {
        let runs = w.numbers.runs_per_month.unwrap_or(1.0).max(1.0).ceil() as usize;
        fi.jobs.push(Job {
            workload: i,
            runs,
            resumable: w.numbers.checkpoint_min.is_some(),
            window: w.window.unwrap_or(DayWindow::ALL_DAY),
            cost: ch.gpu_cost,
            fits: Vec::new(),
        });
        return;
    }
    let hourly_all_month = ch.mode == Mode::OnDemand && f.run_hours >= hours_in_month - 1e-9;
    if w.online && f.per_replica == 1.0 && (whole_month || hourly_all_month) {
        if let Some((s, note)) = service(i, w, c, ch, &f, offer, read, hours_in_month) {
            fi.services.push(s);
            notes.push(note);
        }
    }
}

/// Each job's fits: its plan on each host's card (its candidate on that offer), re-sized to its
/// hours there.
fn add_fits(
    fi: &mut FleetInput,
    plans: &[WorkloadPlan],
    value: &dyn Fn(&Candidate, &str) -> Option<f64>,
) {
    let mut host_offers: Vec<usize> = fi
        .hosts
        .iter()
        .filter_map(|h| chosen_offer(plans, h.workload))
        .collect();
    host_offers.sort_unstable();
    host_offers.dedup();
    for j in &mut fi.jobs {
        let wp = &plans[j.workload];
        for &o in &host_offers {
            let Some(c) = wp.candidates.iter().find(|c| c.offer == o && c.fits()) else {
                continue;
            };
            let get = |n: &str| value(c, n).unwrap_or(f64::NAN);
            let (per, gpus, required, hours) = (
                get("gpus_per_replica"),
                get("gpus_total"),
                get("required_vram_gib"),
                get("run_hours"),
            );
            if per >= 1.0 && gpus >= 1.0 && required.is_finite() && hours > 0.0 {
                j.fits.push(Fit {
                    card: card_key(o),
                    cards: gpus as usize,
                    vram_gib: required / per,
                    hours,
                });
            }
        }
    }
}

/// The fleet's saving in terms of the workloads' GPU costs ([`FleetPlan::terms`]): each moved
/// job's whole cost, and for each group of services its cards saved × its first service's
/// cost a card (the price [`share`](super::share) saved them at) over that service's cost.
fn saving_terms(plans: &[WorkloadPlan], fi: &FleetInput, fleet: &Fleet) -> Vec<(usize, f64)> {
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

/// The key of an offer's card in the packing.
fn card_key(offer: usize) -> String {
    format!("offer {offer}")
}

fn chosen_offer(plans: &[WorkloadPlan], i: usize) -> Option<usize> {
    let wp = &plans[i];
    wp.chosen.as_ref().map(|c| wp.candidates[c.candidate].offer)
}

/// A service that may share its cards: its peak load on one card (what its concurrency and
/// throughput need over what one card delivers for it, not capped by its own concurrency),
/// its month's hours and the memory an instance takes. An engine that preallocates a share of
/// each card (gpu_memory_utilization) is given the share its need rounds up to; one that takes a
/// share of what is free (kv_free_fraction) shares nothing, as two of them would each take it.
#[allow(clippy::too_many_arguments)]
fn service(
    i: usize,
    w: &crate::model::Workload,
    c: &Candidate,
    ch: &Chosen,
    f: &Figures,
    offer: &crate::model::GpuOffer,
    read: &Readers,
    hours_in_month: f64,
) -> Option<(Service, ServiceNote)> {
    let get = |n: &str| (read.value)(c, n);
    let replicas = get("replicas").unwrap_or(1.0).max(1.0);
    let concurrency = w.numbers.concurrency.unwrap_or(1.0);
    let mut capacity = get("mem_concurrency").unwrap_or(0.0);
    if w.numbers.min_tokens_per_s.is_some() {
        capacity = capacity.min(get("bw_concurrency").unwrap_or(capacity));
    }
    let by_concurrency = if capacity > 0.0 {
        concurrency / capacity
    } else {
        1.0
    };
    let by_tps = match (w.numbers.target_tps, get("replica_tps")) {
        (Some(t), Some(r)) if r > 0.0 => t / r,
        _ => 0.0,
    };
    let load = (by_concurrency.max(by_tps) / replicas).clamp(0.0, 1.0);
    let work = get("work_replica_hours").unwrap_or(0.0);
    let busy_hours = if work > 0.0 {
        work * replicas / f.instances.max(1.0)
    } else {
        load * hours_in_month
    };
    let gmu = (read.input)(ch, "gpu_memory_utilization").unwrap_or(0.0);
    let kv_free = (read.input)(ch, "kv_free_fraction").unwrap_or(0.0);
    if gmu <= 0.0 && kv_free > 0.0 {
        return None;
    }
    let (vram_gib, card_vram_gib, share, launch) = if gmu > 0.0 && offer.vram_gib > 0.0 {
        let need = get("total_vram_gib").unwrap_or(f.required);
        let share = (need / offer.vram_gib * 100.0 - 1e-9).ceil() / 100.0;
        let engine = w.engine.as_deref().unwrap_or("").to_ascii_lowercase();
        let flag = if engine.contains("sglang") {
            format!("--mem-fraction-static {share:.2}")
        } else if engine.contains("vllm") || engine.is_empty() {
            format!("--gpu-memory-utilization {share:.2}")
        } else {
            format!("gpu_memory_utilization {share:.2}")
        };
        (
            share * offer.vram_gib,
            gmu * offer.vram_gib,
            Some(share),
            Some(flag),
        )
    } else {
        (f.required, offer.vram_gib, None, None)
    };
    Some((
        Service {
            workload: i,
            group: format!(
                "{} · {}",
                offer.label(),
                ch.mode.label(crate::lang::Lang::En)
            ),
            instances: f.instances as usize,
            vram_gib,
            load,
            busy_hours,
            card_vram_gib,
            card_cost: ch.gpu_cost / f.gpus,
        },
        ServiceNote {
            workload: i,
            memory_share: share,
            launch,
        },
    ))
}

/// A note for each job that could have moved onto a host's idle cards (its card and memory
/// fit) but did not because one run is longer than its window and it does not checkpoint.
fn not_moved_warnings(input: &Input, fi: &FleetInput, fleet: &Fleet, warnings: &mut Vec<Warning>) {
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
fn host_cards(
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
fn moved_job(
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
fn schedule_json(input: &Input, fi: &FleetInput, s: &Schedule, h: &Host) -> ScheduleJson {
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
fn shared_cards(
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

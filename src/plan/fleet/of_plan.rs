//! The fleet of a plan: its workloads' chosen candidates as the packing's hosts, jobs and
//! services, and the packing's answer as the cards the outputs show (the Fleet tab, JSON
//! `fleet`), with the warnings of a tight share.

use super::{pack, FleetInput, Host, Job, Limits, Service};
use crate::model::{DayWindow, GpuOffer, Input, Warning};
use crate::plan::{Candidate, Mode, WorkloadPlan};
use serde::Serialize;

/// The fleet as the outputs show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetPlan {
    /// What sharing saves a month against each workload on cards of its own.
    pub saving: f64,
    /// The budget with it: the total with safety margin less the saving (the margin and the
    /// reserves on the saved rent are kept).
    pub budget: f64,
    /// The cards that carry more than one workload.
    pub cards: Vec<FleetCard>,
    /// How the solver ended.
    pub solver: SolverJson,
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

/// How the solver ended: proven optimal, or the gap between the answer and the best bound.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolverJson {
    pub optimal: bool,
    pub gap: f64,
    pub nodes: u64,
    /// Programmes where the greedy answer was kept because the solver gave none.
    pub fallbacks: usize,
}

/// A rented card (or group of cards) and what runs on it each hour.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetCard {
    /// GPU and provider.
    pub gpu: String,
    pub cards: usize,
    /// `idle_hours`: a service's cards lent to jobs off-peak; `shared`: one card holding
    /// instances of several services.
    pub sharing: &'static str,
    pub workloads: Vec<Carried>,
}

/// One workload on a card: the cards it holds in each hour of the day (0–23).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Carried {
    pub name: String,
    /// `service` (the card's own, or one sharing it) or `job` (moved onto idle hours).
    pub role: &'static str,
    pub hours: [f64; 24],
    /// Memory it takes on each card, GiB.
    pub vram_gib: f64,
    /// What it no longer pays a month (a moved job's own rental).
    pub saving: f64,
}

/// The figures of one chosen candidate the packing reads.
struct Figures {
    per_replica: f64,
    instances: f64,
    gpus: f64,
    required: f64,
    run_hours: f64,
}

/// The fleet of the chosen candidates, and its warnings; `None` when the Assumption `fleet`
/// is no, or nothing shares. `value` reads a candidate formula's value by name; `with_margin` is
/// the plan's total with safety margin, from which the fleet's budget is its saving less.
pub fn fleet_of(
    input: &Input,
    plans: &[WorkloadPlan],
    value: &dyn Fn(&Candidate, &str) -> Option<f64>,
    with_margin: f64,
    warnings: &mut Vec<Warning>,
) -> Option<FleetPlan> {
    if matches!(
        input.assumptions.get("fleet").map(|a| &a.value),
        Some(crate::model::Value::Bool(false))
    ) {
        return None;
    }
    let days = input.assumptions.number("hours_in_month", 730.0) / 24.0;
    let mut fi = FleetInput::default();
    for (i, (w, wp)) in input.workloads.iter().zip(plans).enumerate() {
        let Some(ch) = &wp.chosen else { continue };
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
            continue;
        }
        let card = format!("{} · {}", offer.gpu, offer.platform);
        let whole_month = ch.mode.is_committed();
        if let (true, true, Some(peak), Some(base)) = (
            w.online,
            whole_month,
            w.peak_window,
            w.numbers.base_concurrency,
        ) {
            // Off-peak it needs only the replicas of its off-peak concurrency; the rest of its
            // cards (its redundancy included) are idle.
            let per = get("concurrency_per_replica").max(1.0);
            let gpus = f.gpus as usize;
            let off = ((base / per).ceil() * f.per_replica).min(f.gpus) as usize;
            fi.hosts.push(Host {
                workload: i,
                card,
                vram_gib: offer.vram_gib,
                cards: gpus,
                busy: std::array::from_fn(|h| if peak.contains(h) { gpus } else { off }),
            });
            continue;
        }
        if !w.online && matches!(ch.mode, Mode::OnDemand | Mode::Spot) && f.run_hours > 0.0 {
            let runs = w.numbers.runs_per_month.unwrap_or(1.0).max(1.0);
            fi.jobs.push(Job {
                workload: i,
                card,
                cards: f.gpus as usize,
                vram_gib: f.required / f.per_replica,
                hours_per_day: f.run_hours / days,
                run_hours: f.run_hours / runs,
                window: w.window.unwrap_or(DayWindow::ALL_DAY),
                cost: ch.gpu_cost,
            });
            continue;
        }
        let hourly_all_month = ch.mode == Mode::OnDemand && f.run_hours >= days * 24.0 - 1e-9;
        if w.online && f.per_replica == 1.0 && (whole_month || hourly_all_month) {
            let replicas = get("replicas").max(1.0);
            let per_replica = get("concurrency_per_replica").max(1.0);
            let concurrency = w.numbers.concurrency.unwrap_or(1.0);
            let tps = match (w.numbers.target_tps, value(c, "replica_tps")) {
                (Some(t), Some(r)) if r > 0.0 => t / r,
                _ => 0.0,
            };
            let load = ((concurrency / per_replica).max(tps) / replicas).clamp(0.0, 1.0);
            fi.services.push(Service {
                workload: i,
                group: format!(
                    "{} · {} · {}",
                    offer.gpu,
                    offer.provider,
                    ch.mode.label(crate::lang::Lang::En)
                ),
                instances: f.instances as usize,
                vram_gib: f.required,
                load,
                card_vram_gib: offer.vram_gib,
                card_cost: ch.gpu_cost / f.gpus,
            });
        }
    }
    if fi.jobs.is_empty() && fi.services.len() < 2 {
        return None;
    }
    let fleet = pack(&fi, Limits::default());
    let name = |i: usize| input.workloads[i].name.clone();
    let mut cards = Vec::new();
    for h in &fi.hosts {
        let moved: Vec<_> = fleet
            .moved
            .iter()
            .filter(|m| m.host == h.workload)
            .collect();
        if moved.is_empty() {
            continue;
        }
        let offer = offer_of(input, plans, h.workload);
        let mut carried = vec![Carried {
            name: name(h.workload),
            role: "service",
            hours: h.busy.map(|b| b as f64),
            vram_gib: 0.0,
            saving: 0.0,
        }];
        for m in moved {
            let Some(j) = fi.jobs.iter().find(|j| j.workload == m.job) else {
                continue;
            };
            let window_hours = super::usable_hours(j, h).len();
            if j.run_hours > window_hours as f64 + 1e-9 {
                warnings.push(Warning::warn(
                    input.workloads[m.job].cell.to_string(),
                    format!(
                        "{}: a run of {:.1} h is longer than the {} idle hours a day of {}'s cards in its window: it must pause and resume (checkpoint) across days",
                        name(m.job),
                        j.run_hours,
                        window_hours,
                        name(h.workload)
                    ),
                ).with_zh(format!(
                    "{}：单次运行 {:.1} 小时，超过 {} 的 GPU 在其时间窗内每天 {} 小时的空闲时间：需要跨天暂停并续跑（断点续训）",
                    name(m.job),
                    j.run_hours,
                    name(h.workload),
                    window_hours
                )));
            }
            carried.push(Carried {
                name: name(m.job),
                role: "job",
                hours: m.cards,
                vram_gib: j.vram_gib,
                saving: m.saving,
            });
        }
        cards.push(FleetCard {
            gpu: offer.label(),
            cards: h.cards,
            sharing: "idle_hours",
            workloads: carried,
        });
    }
    for s in &fleet.shared {
        let first = fi
            .services
            .iter()
            .find(|x| s.services.contains(&x.workload));
        let gpu = first.map_or(String::new(), |f| {
            offer_of(input, plans, f.workload).label()
        });
        if s.vram_gib >= 0.95 * s.card_vram_gib {
            let names: Vec<String> = s.services.iter().map(|&i| name(i)).collect();
            warnings.push(Warning::warn(
                input.workloads[s.services[0]].cell.to_string(),
                format!(
                    "{} share one {gpu} with {:.1} of its {:.0} GiB: within 5% of the card, a peak of either may run out of memory",
                    names.join(" and "),
                    s.vram_gib,
                    s.card_vram_gib
                ),
            ).with_zh(format!(
                "{} 共用一张 {gpu}，占用其 {:.0} GiB 中的 {:.1} GiB：与整卡显存相差不到 5%，任一方的峰值都可能导致显存不足",
                names.join(" 和 "),
                s.card_vram_gib,
                s.vram_gib
            )));
        }
        cards.push(FleetCard {
            gpu,
            cards: 1,
            sharing: "shared",
            workloads: s
                .services
                .iter()
                .map(|&i| Carried {
                    name: name(i),
                    role: "service",
                    hours: [1.0; 24],
                    vram_gib: fi
                        .services
                        .iter()
                        .find(|x| x.workload == i)
                        .map_or(0.0, |x| x.vram_gib),
                    saving: 0.0,
                })
                .collect(),
        });
    }
    if fleet.saving <= 0.0 {
        return None;
    }
    Some(FleetPlan {
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

/// The offer of workload `i`'s chosen candidate (every workload the fleet carries has one).
fn offer_of<'a>(input: &'a Input, plans: &[WorkloadPlan], i: usize) -> &'a GpuOffer {
    let wp = &plans[i];
    let c = wp.chosen.as_ref().map_or(0, |c| c.candidate);
    &input.gpus[wp.candidates[c].offer]
}

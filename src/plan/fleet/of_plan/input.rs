//! The packing's input from the plan: each chosen candidate as a host, a job or a service,
//! and the cards each job fits.

use super::super::{Fit, FleetInput, Host, Job, Service};
use super::{card_key, chosen_offer, Figures, Readers, ServiceNote};
use crate::model::{DayWindow, Input};
use crate::plan::{Candidate, Chosen, Mode, WorkloadPlan};

/// Workload `w`'s (the `i`th's) chosen candidate in the packing's input: a service rented by the month with
/// idle cards off-peak as a host, an offline job billed by the hour as a job, a service of one
/// card a replica as a service that may share it (with its note); nothing otherwise.
pub(super) fn add_workload(
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
pub(super) fn add_fits(
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

/// A service that may share its cards: its peak load on one card (what its concurrency and
/// throughput need over what one card delivers for it, not capped by its own concurrency),
/// its month's hours and the memory an instance takes. An engine that preallocates a share of
/// each card (gpu_memory_utilization) is given the share its need rounds up to; one that takes a
/// share of what is free (kv_free_fraction) shares nothing, as two of them would each take it.
#[allow(clippy::too_many_arguments)]
pub(super) fn service(
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

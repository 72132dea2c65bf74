//! The fleet's packing on a generated portfolio (scripts/bench.sh): `--workloads N` (default
//! 200) over `--offers M` GPU offers (default 30), seeded; prints the time, the saving, how the
//! solver ended and its gap to the best proven bound, beside the greedy answer's saving.
//!
//!   cargo run --release --example fleet_bench -- --workloads 200 --offers 30

use gpuplan::model::DayWindow;
use gpuplan::plan::fleet::{check, pack, Fit, FleetInput, Host, Job, Limits, Service};
use gpuplan::plan::sensitivity::SplitMix;
use std::time::Instant;

fn arg(args: &[String], name: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A portfolio: a third services rented by the month that peak 09-21 (hosts), a third offline
/// jobs billed by the hour with nightly windows, a third small services that may share cards.
fn portfolio(workloads: usize, offers: usize, r: &mut SplitMix) -> FleetInput {
    let vram = [24.0, 48.0, 80.0, 141.0];
    let mut input = FleetInput::default();
    for w in 0..workloads {
        let o = r.below(offers as u64) as usize;
        let card = format!("GPU{o}");
        let v = vram[o % vram.len()];
        let price = 1000.0 + 300.0 * o as f64;
        match w % 3 {
            0 => {
                let n = 2 + r.below(6) as usize;
                let base = r.below(n as u64) as usize;
                let peak = DayWindow { start: 9, end: 21 };
                input.hosts.push(Host {
                    workload: w,
                    card,
                    vram_gib: v,
                    cards: n,
                    busy: std::array::from_fn(|h| if peak.contains(h) { n } else { base }),
                });
            }
            1 => {
                let start = (20 + r.below(6)) as u8 % 24;
                let runs = 1 + r.below(30) as usize;
                let run_h = 1.0 + 8.0 * r.unit();
                input.jobs.push(Job {
                    workload: w,
                    runs,
                    resumable: r.below(3) == 0,
                    window: DayWindow {
                        start,
                        end: (start + 8 + r.below(4) as u8) % 24,
                    },
                    cost: price * 0.2 * (0.5 + r.unit()),
                    fits: vec![Fit {
                        card,
                        cards: 1 + r.below(2) as usize,
                        vram_gib: v * (0.3 + 0.8 * r.unit()),
                        hours: runs as f64 * run_h,
                    }],
                });
            }
            _ => input.services.push(Service {
                workload: w,
                group: card,
                instances: 1 + r.below(2) as usize,
                vram_gib: v * (0.1 + 0.5 * r.unit()),
                load: 0.1 + 0.5 * r.unit(),
                busy_hours: 730.0 * (0.1 + 0.5 * r.unit()),
                card_vram_gib: v,
                card_cost: price,
            }),
        }
    }
    input
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let workloads = arg(&args, "--workloads", 200);
    let offers = arg(&args, "--offers", 30);
    let input = portfolio(workloads, offers, &mut SplitMix(2026));
    let greedy = pack(
        &input,
        Limits {
            nodes: 0,
            ..Limits::default()
        },
    );
    let started = Instant::now();
    let f = pack(&input, Limits::default());
    let s = started.elapsed().as_secs_f64();
    let checked = check(&input, &f).map_or_else(|e| format!("REFUSED: {e}"), |()| "checked".into());
    let again = pack(&input, Limits::default()) == f;
    println!(
        "fleet: {workloads} workloads ({} hosts, {} jobs, {} services) × {offers} offers packed in {s:.3} s: saving {:.2} (at node limit 0, from the greedy warm start: {:.2}), {} jobs moved, {} shared cards; solver {}, gap to the best bound {:.2}%, {} nodes, {} fallbacks; schedule {checked}; the same fleet on a second run: {again}",
        input.hosts.len(),
        input.jobs.len(),
        input.services.len(),
        f.saving,
        greedy.saving,
        f.moved.len(),
        f.shared.len(),
        if f.solved.optimal { "optimal" } else { "stopped at its limit" },
        f.solved.gap * 100.0,
        f.solved.nodes,
        f.solved.fallbacks
    );
}

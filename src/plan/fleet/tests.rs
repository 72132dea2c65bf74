use super::*;
use crate::plan::sensitivity::SplitMix;

/// Two monthly RTX 4090s serving chat: both busy at peak (09-21), one off-peak (the base
/// instance), so one card is idle from 21:00 to 09:00 (12 hours).
fn chat_host() -> Host {
    Host {
        workload: 0,
        card: "RTX 4090 · cuda".into(),
        vram_gib: 24.0,
        cards: 2,
        busy: std::array::from_fn(|h| if (9..21).contains(&h) { 2 } else { 1 }),
    }
}

/// A nightly LoRA on one 4090: 60 hours a month in 22-07, costing ¥308.33 a month on demand
/// (the figure of the startup sample's lora-experiments, whose 120 hours cost that).
fn nightly_lora(vram_gib: f64, hours_per_month: f64) -> Job {
    Job {
        workload: 1,
        card: "RTX 4090 · cuda".into(),
        cards: 1,
        vram_gib,
        // 730 h / 24 = 30.4167 days a month.
        hours_per_day: hours_per_month / (730.0 / 24.0),
        run_hours: 4.0,
        window: DayWindow::parse("22-07").expect("window"),
        cost: 308.33,
    }
}

fn jobs_only(hosts: Vec<Host>, jobs: Vec<Job>) -> Fleet {
    pack(
        &FleetInput {
            hosts,
            jobs,
            services: Vec::new(),
        },
        Limits::default(),
    )
}

#[test]
fn nightly_lora_that_fits_a_monthly_inference_card_runs_there_for_nothing() {
    // 20 GiB ≤ 24 GiB; 60 h / 30.4167 days = 1.97 h a night ≤ the 9 hours of 22-07, all idle.
    let f = jobs_only(vec![chat_host()], vec![nightly_lora(20.0, 60.0)]);
    assert_eq!(f.moved.len(), 1);
    let m = &f.moved[0];
    assert_eq!((m.job, m.host), (1, 0));
    assert!((f.saving - 308.33).abs() < 1e-9, "{}", f.saving);
    let hours: f64 = m.cards.iter().sum();
    assert!((hours - 60.0 / (730.0 / 24.0)).abs() < 1e-6, "{hours}");
    for (h, c) in m.cards.iter().enumerate() {
        if *c > 0.0 {
            assert!(!(7..22).contains(&h), "hour {h} outside 22-07");
        }
    }
    assert!(f.solved.optimal);
}

#[test]
fn lora_too_big_for_the_card_stays_on_its_own_rental() {
    // 30 GiB > 24 GiB.
    let f = jobs_only(vec![chat_host()], vec![nightly_lora(30.0, 60.0)]);
    assert!(f.moved.is_empty());
    assert_eq!(f.saving, 0.0);
}

#[test]
fn lora_longer_than_the_idle_nights_stays_on_its_own_rental() {
    // 300 h / 30.4167 days = 9.86 h a night > the 9 hours of 22-07.
    let f = jobs_only(vec![chat_host()], vec![nightly_lora(20.0, 300.0)]);
    assert!(f.moved.is_empty());
    // 270 h = 8.88 h a night fits.
    let f = jobs_only(vec![chat_host()], vec![nightly_lora(20.0, 270.0)]);
    assert_eq!(f.moved.len(), 1);
}

#[test]
fn lora_on_another_card_stays_on_its_own_rental() {
    let mut j = nightly_lora(20.0, 60.0);
    j.card = "A100-80G · cuda".into();
    assert!(jobs_only(vec![chat_host()], vec![j]).moved.is_empty());
}

#[test]
fn the_solver_moves_two_cheaper_jobs_where_the_greedy_start_moves_one_dear_one() {
    // One card idle 10 hours (00-10): A (¥100) needs 6 h, B (¥80) and C (¥70) 5 h each. Greedy,
    // dearest first, places A and then neither B nor C (4 h left): ¥100. B + C: ¥150.
    let host = Host {
        workload: 0,
        card: "L40S · cuda".into(),
        vram_gib: 48.0,
        cards: 1,
        busy: std::array::from_fn(|h| usize::from(h >= 10)),
    };
    let job = |workload, hours: f64, cost| Job {
        workload,
        card: "L40S · cuda".into(),
        cards: 1,
        vram_gib: 10.0,
        hours_per_day: hours,
        run_hours: hours,
        window: DayWindow::ALL_DAY,
        cost,
    };
    let f = jobs_only(
        vec![host],
        vec![job(1, 6.0, 100.0), job(2, 5.0, 80.0), job(3, 5.0, 70.0)],
    );
    assert!((f.saving - 150.0).abs() < 1e-9, "{}", f.saving);
    let mut moved: Vec<usize> = f.moved.iter().map(|m| m.job).collect();
    moved.sort_unstable();
    assert_eq!(moved, vec![2, 3]);
    assert!(f.solved.optimal);
}

fn service(workload: usize, vram_gib: f64, load: f64, instances: usize) -> Service {
    Service {
        workload,
        group: "RTX 4090 · example · monthly".into(),
        instances,
        vram_gib,
        load,
        card_vram_gib: 24.0,
        card_cost: 1500.0,
    }
}

fn services_only(services: Vec<Service>) -> Fleet {
    pack(
        &FleetInput {
            hosts: Vec::new(),
            jobs: Vec::new(),
            services,
        },
        Limits::default(),
    )
}

#[test]
fn two_small_services_share_one_card() {
    // 8 + 10 = 18 GiB ≤ 24; loads 0.3 + 0.4 = 0.7 ≤ 1: one card instead of two, ¥1,500 saved.
    let f = services_only(vec![service(0, 8.0, 0.3, 1), service(1, 10.0, 0.4, 1)]);
    assert_eq!(f.shared.len(), 1);
    assert_eq!(f.shared[0].services, vec![1, 0]);
    assert!((f.shared[0].vram_gib - 18.0).abs() < 1e-9);
    assert_eq!(
        f.groups,
        vec![("RTX 4090 · example · monthly".into(), 2, 1, 1500.0)]
    );
    assert!((f.saving - 1500.0).abs() < 1e-9);
}

#[test]
fn services_too_busy_together_keep_their_cards() {
    // Memory fits (18 GiB) but the loads 0.6 + 0.5 = 1.1 exceed one card.
    let f = services_only(vec![service(0, 8.0, 0.6, 1), service(1, 10.0, 0.5, 1)]);
    assert!(f.shared.is_empty());
    assert_eq!(f.saving, 0.0);
}

#[test]
fn instances_of_one_service_stay_on_different_cards() {
    // Two instances of 6 GiB would fit one card, but redundancy wants them apart: 2 cards,
    // and a third service of 6 GiB joins one of them: 3 cards → 2, ¥1,500 saved.
    let f = services_only(vec![service(0, 6.0, 0.2, 2), service(1, 6.0, 0.2, 1)]);
    assert!((f.saving - 1500.0).abs() < 1e-9, "{}", f.saving);
    for c in &f.shared {
        let zeros = c.services.iter().filter(|w| **w == 0).count();
        assert!(zeros <= 1);
    }
}

#[test]
fn the_solver_packs_tighter_than_first_fit_decreasing() {
    // Cards of 10 GiB; services of 4, 4, 3, 3, 3, 3 GiB. First fit decreasing: {4,4}, {3,3,3},
    // {3} = 3 cards; {4,3,3} twice = 2 cards. From 6 cards: 4 saved, 4 × ¥1,500 = ¥6,000.
    let sizes = [4.0, 4.0, 3.0, 3.0, 3.0, 3.0];
    let services = sizes
        .iter()
        .enumerate()
        .map(|(i, m)| Service {
            card_vram_gib: 10.0,
            ..service(i, *m, 0.0, 1)
        })
        .collect();
    let f = services_only(services);
    assert_eq!(f.groups[0].2, 2);
    assert!((f.saving - 6000.0).abs() < 1e-9, "{}", f.saving);
}

/// A random portfolio over three cards: hosts with random peaks, jobs with random windows and
/// hours, services with random memory and load.
fn random_portfolio(r: &mut SplitMix) -> FleetInput {
    let cards = ["RTX 4090 · cuda", "L40S · cuda", "A100-80G · cuda"];
    let vram = [24.0, 48.0, 80.0];
    let mut input = FleetInput::default();
    let mut w = 0;
    for _ in 0..r.below(5) {
        let c = r.below(3) as usize;
        let n = 1 + r.below(4) as usize;
        let base = r.below(n as u64 + 1) as usize;
        let peak = DayWindow {
            start: r.below(24) as u8,
            end: r.below(24) as u8,
        };
        input.hosts.push(Host {
            workload: w,
            card: cards[c].into(),
            vram_gib: vram[c],
            cards: n,
            busy: std::array::from_fn(|h| if peak.contains(h) { n } else { base }),
        });
        w += 1;
    }
    for _ in 0..r.below(8) {
        let c = r.below(3) as usize;
        input.jobs.push(Job {
            workload: w,
            card: cards[c].into(),
            cards: 1 + r.below(3) as usize,
            vram_gib: vram[c] * 1.2 * r.unit(),
            hours_per_day: 12.0 * r.unit(),
            run_hours: 10.0 * r.unit(),
            window: DayWindow {
                start: r.below(24) as u8,
                end: r.below(24) as u8,
            },
            cost: 50.0 + 1000.0 * r.unit(),
        });
        w += 1;
    }
    for _ in 0..r.below(8) {
        let c = r.below(3) as usize;
        input.services.push(Service {
            workload: w,
            group: cards[c].into(),
            instances: 1 + r.below(3) as usize,
            vram_gib: vram[c] * r.unit(),
            load: r.unit(),
            card_vram_gib: vram[c],
            card_cost: [1500.0, 3800.0, 9000.0][c],
        });
        w += 1;
    }
    input
}

/// What a fleet must satisfy whatever the packing, checked from the input alone (not through
/// pack's helpers): every moved job runs on a host of its card with the memory it needs, its
/// hours inside its window, within the host's idle cards each hour, and is moved once; every
/// service instance is on exactly one card, no card holds two instances of one service, and a
/// shared card's memory and load, summed from the input, fit it; and the saving is what the
/// moved jobs and the cards given up cost in the per-workload plan, never negative, so the
/// fleet never costs more than each workload alone.
#[test]
fn the_fleet_never_costs_more_than_each_workload_alone_on_random_portfolios() {
    let tol = 1e-4;
    let mut r = SplitMix(33);
    for case in 0..200 {
        let input = random_portfolio(&mut r);
        // A smaller node limit keeps the debug build quick; the answer must hold at any limit.
        let f = pack(
            &input,
            Limits {
                nodes: 200,
                ..Limits::default()
            },
        );
        // Jobs: each moved at most once, onto a host that can carry it.
        let mut held = vec![[0.0f64; 24]; input.hosts.len()];
        let mut job_saving = 0.0;
        for (k, m) in f.moved.iter().enumerate() {
            assert!(
                f.moved[..k].iter().all(|o| o.job != m.job),
                "case {case}: job {} moved twice",
                m.job
            );
            let j = input
                .jobs
                .iter()
                .find(|j| j.workload == m.job)
                .expect("job");
            let hi = input
                .hosts
                .iter()
                .position(|h| h.workload == m.host)
                .expect("host");
            let h = &input.hosts[hi];
            assert_eq!(j.card, h.card, "case {case}");
            assert!(j.vram_gib <= h.vram_gib + tol, "case {case}");
            let cards = j.cards as f64;
            let hours: f64 = m.cards.iter().sum::<f64>() / cards;
            assert!(hours + tol >= j.hours_per_day, "case {case}: {hours} h");
            for (t, (&on, sum)) in m.cards.iter().zip(held[hi].iter_mut()).enumerate() {
                assert!(on >= 0.0 && on <= cards + tol, "case {case}");
                if !j.window.contains(t) {
                    assert!(on <= tol, "case {case}: hour {t} outside the window");
                }
                *sum += on;
            }
            assert_eq!(m.saving, j.cost, "case {case}");
            job_saving += j.cost;
        }
        for (h, used) in input.hosts.iter().zip(&held) {
            for (t, (&busy, &u)) in h.busy.iter().zip(used).enumerate() {
                let idle = h.cards as f64 - busy.min(h.cards) as f64;
                assert!(u <= idle + tol, "case {case}: hour {t}");
            }
        }
        // Services: the shared cards fit, from the input's figures.
        let of = |w: usize| {
            input
                .services
                .iter()
                .find(|s| s.workload == w)
                .expect("service")
        };
        for c in &f.shared {
            let mut seen = c.services.clone();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(
                seen.len(),
                c.services.len(),
                "case {case}: {:?}",
                c.services
            );
            let vram: f64 = c.services.iter().map(|w| of(*w).vram_gib).sum();
            let load: f64 = c.services.iter().map(|w| of(*w).load).sum();
            assert!(c.services.iter().all(|w| of(*w).group == c.group));
            assert!(vram <= of(c.services[0]).card_vram_gib + tol, "case {case}");
            assert!(load <= 1.0 + tol, "case {case}");
        }
        // Each group: its instances before; after, the shared cards and one card for every
        // instance on none of them; at least as many as the memory, the load and the widest
        // service need.
        let mut card_saving = 0.0;
        let mut groups: Vec<&str> = input.services.iter().map(|s| s.group.as_str()).collect();
        groups.sort_unstable();
        groups.dedup();
        for g in groups {
            let members: Vec<&Service> = input.services.iter().filter(|s| s.group == g).collect();
            let before: usize = members.iter().map(|s| s.instances).sum();
            let shared: Vec<&SharedCard> = f.shared.iter().filter(|c| c.group == g).collect();
            for s in &members {
                let on = shared
                    .iter()
                    .filter(|c| c.services.contains(&s.workload))
                    .count();
                assert!(on <= s.instances, "case {case}");
            }
            let on_shared: usize = shared.iter().map(|c| c.services.len()).sum();
            let after = shared.len() + before - on_shared;
            let memory: f64 = members
                .iter()
                .map(|s| s.vram_gib * s.instances as f64)
                .sum();
            let load: f64 = members.iter().map(|s| s.load * s.instances as f64).sum();
            let widest = members.iter().map(|s| s.instances).max().unwrap_or(0);
            assert!(
                after as f64 >= memory / members[0].card_vram_gib - tol,
                "case {case}"
            );
            assert!(after as f64 >= load - tol && after >= widest, "case {case}");
            let listed = f.groups.iter().find(|x| x.0 == g);
            match listed {
                Some(&(_, b, a, cost)) => {
                    assert_eq!((b, a, cost), (before, after, members[0].card_cost));
                }
                None => assert_eq!(after, before, "case {case}"),
            }
            card_saving += (before - after) as f64 * members[0].card_cost;
        }
        assert!(f.saving >= 0.0, "case {case}: {}", f.saving);
        assert!(
            (f.saving - job_saving - card_saving).abs() < 1e-6,
            "case {case}: {} against {job_saving} + {card_saving}",
            f.saving
        );
    }
}

#[test]
fn day_windows_parse_across_midnight() {
    let w = DayWindow::parse("22-07").expect("22-07");
    assert_eq!(w.len(), 9);
    assert!(w.contains(23) && w.contains(0) && w.contains(6) && !w.contains(7));
    assert_eq!(DayWindow::parse("09:00-21:00").map(|w| w.len()), Some(12));
    assert_eq!(DayWindow::parse("0-24").map(|w| w.len()), Some(24));
    assert_eq!(DayWindow::parse("22点-7点"), Some(w));
    assert_eq!(DayWindow::parse("22"), None);
    assert_eq!(DayWindow::parse("25-07"), None);
    assert_eq!(w.to_string(), "22-07");
}

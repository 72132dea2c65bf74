//! Billing modes: on demand, spot, monthly, reserved, base plus burst, per-second billing and
//! the lines beside the GPUs.

use super::*;

#[test]
fn on_demand_bills_cold_start_rounding_and_minimum_rental() {
    // 10 runs of 61 minutes, 30-minute cold start, hourly granularity, 120-minute minimum, ¥10/h:
    // 61 + 30 = 91 min → rounded to 120 min → max(120, 120) = 120 min → 10 × 2 h × ¥10 = ¥200.
    let mut w = workload("job", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(610.0 / 60.0);
    w.numbers.runs_per_month = Some(10.0);
    w.spot_ok = false;
    let mut g = offer("X", 24.0, Some(10.0), None, None, None);
    g.min_rental_min = 120.0;
    let p = plan(input(vec![w], vec![g], &[("cold_start_min", 30.0)])).unwrap();
    let (c, ch) = p.chosen(0).unwrap();
    assert_eq!(ch.mode, Mode::OnDemand);
    assert!(close(c.cost(Mode::OnDemand).unwrap(), 200.0, 1e-9));
    // Of it, 200 − 10 × 61/60 h × ¥10 = ¥98.333…, ¥98.33 to the cent, pays for boot time and
    // rounding.
    assert!(close(ch.cold_start_cost, 98.33, 1e-9));
}

#[test]
fn spot_with_rework_beats_on_demand_with_a_cold_start() {
    // Both billed 6,000 + 30 min = 100.5 h → 101 h (#34 item 8: spot pays the cold start and
    // rounding too). spot: 101 h × ¥4 + 100 h × ¥4 × 0.25 rework = ¥404 + ¥100 = ¥504;
    // on-demand: 101 h × ¥10 = ¥1,010.
    let mut w = workload("train", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(100.0);
    let p = plan(input(
        vec![w],
        vec![offer("X", 24.0, Some(10.0), None, Some(4.0), None)],
        &[("cold_start_min", 30.0), ("spot_rework", 0.25)],
    ))
    .unwrap();
    let (c, ch) = p.chosen(0).unwrap();
    assert!(close(c.cost(Mode::Spot).unwrap(), 504.0, 1e-9));
    assert!(close(c.cost(Mode::OnDemand).unwrap(), 1010.0, 1e-9));
    assert_eq!(ch.mode, Mode::Spot);
    assert!(close(ch.rework_cost, 100.0, 1e-9));
    // The half hour rounded up, at the spot price: 1 h × ¥4.
    assert!(close(ch.cold_start_cost, 4.0, 1e-9));
    // 1,010 / 504 = 2.004
    assert!(
        ch.advice
            .text(Lang::En)
            .ends_with("on-demand would cost 2.0× more"),
        "{}",
        ch.advice.text(Lang::En)
    );
}

#[test]
fn online_redundancy_rounds_one_replica_up_to_two_and_reserved_wins() {
    // One replica × (1 + 0.2) = 1.2 → 2 instances; monthly 2 × ¥5,000 = ¥10,000, reserved 2 × ¥4,000 = ¥8,000.
    let mut w = workload("api", Kind::Inference, Some("Qwen2.5-7B"));
    w.numbers.concurrency = Some(2.0);
    let p = plan(input(
        vec![w],
        vec![offer(
            "A100-80G",
            80.0,
            None,
            Some(5000.0),
            None,
            Some(4000.0),
        )],
        &[],
    ))
    .unwrap();
    let (c, ch) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "replicas"), Some(1.0));
    assert_eq!(p.value(c, "instances"), Some(2.0));
    assert_eq!(ch.mode, Mode::Reserved);
    assert!(close(ch.gpu_cost, 8000.0, 1e-9));
    assert!(close(c.cost(Mode::Monthly).unwrap(), 10000.0, 1e-9));
}

#[test]
fn base_plus_burst_prices_monthly_base_and_daily_on_demand_peaks() {
    // Pilot: 19.5 GiB at 12 concurrent on Llama-2-7B (fixed 12.55 + 1 + 1 GiB overhead) →
    // per request (19.5 − 13.55 − 1) / 12 = 0.412 GiB. A 24 GiB card plans 24/1.2 − 1 = 19 GiB:
    // (19 − 13.55) / 0.412 = 13.2 → 13 per replica; 30 concurrent → 3 replicas → ×1.2 → 4 instances.
    // Base 12 concurrent → 1 replica → 2 instances monthly; 2 burst instances on demand 8 h a day.
    let mut w = workload("chat", Kind::Inference, Some("Llama-2-7B"));
    w.numbers.concurrency = Some(30.0);
    w.numbers.base_concurrency = Some(12.0);
    w.numbers.peak_hours_per_day = Some(8.0);
    w.numbers.pilot_vram_gib = Some(19.5);
    w.numbers.pilot_concurrency = Some(12.0);
    let card = offer("RTX 4090", 24.0, Some(6.0), Some(3000.0), None, None);
    let p = plan(input(vec![w], vec![card], &[("cold_start_min", 0.0)])).unwrap();
    let vals = values_on(&p, 0, "RTX 4090");
    assert_eq!(v(&vals, "concurrency_per_replica"), 13.0);
    assert_eq!(v(&vals, "instances"), 4.0);
    assert_eq!(v(&vals, "base_instances"), 2.0);
    assert_eq!(v(&vals, "burst_instances"), 2.0);
    // mixed = 2 × ¥3,000 + 2 × ¥6 × 8 h × 730/24 days = 6,000 + 2,920 = ¥8,920 (vs monthly 4 × 3,000 = 12,000)
    let (c, ch) = p.chosen(0).unwrap();
    assert!(close(c.cost(Mode::Mixed).unwrap(), 8920.0, 1e-6));
    assert_eq!(ch.mode, Mode::Mixed);
    // The one spare (4 instances for 3 replicas) is the base's own: 1 base replica, 2 base
    // instances. It costs a month at ¥3,000, 3,000 / 8,920 of the cost, not an even quarter
    // (¥2,230).
    assert_eq!(v(&vals, "base_replicas"), 1.0);
    let share = crate::plan::spares_share(ch.mode, |n| p.value(c, n), &p.input.gpus[c.offer]);
    assert!(close(share.unwrap(), 3000.0 / 8920.0, 1e-9), "{share:?}");
    assert_eq!(
        crate::plan::spares_share(Mode::Monthly, |n| p.value(c, n), &p.input.gpus[c.offer]),
        Some(0.25)
    );
}

#[test]
fn per_second_billing_bills_the_seconds_and_egress_and_ops_are_their_own_lines() {
    // One run of 10 h plus a 20-minute cold start, billed by the second (granularity 1/60 min):
    // 620 minutes, 10.333 h × ¥6 = ¥62.00 (hourly billing would bill 11 h: ¥66).
    // Egress 300 GB × ¥0.8 = ¥240; ops 4 h × ¥150 = ¥600.
    let mut w = workload("job", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(10.0);
    w.numbers.runs_per_month = Some(1.0);
    w.numbers.egress_gb = Some(300.0);
    w.spot_ok = false;
    let mut g = offer("X", 24.0, Some(6.0), None, None, None);
    g.billing_granularity_min = 1.0 / 60.0;
    let p = plan(input(
        vec![w],
        vec![g],
        &[("ops_hours_month", 4.0), ("ops_hourly_rate", 150.0)],
    ))
    .unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert!(close(c.cost(Mode::OnDemand).unwrap(), 62.0, 1e-9));
    assert!(close(p.total("egress_cost").unwrap(), 240.0, 1e-9));
    assert!(close(p.total("ops_cost").unwrap(), 600.0, 1e-9));
    // The typed totals (#17): the planned sums, and the inputs the portfolio formulas read as
    // bound. No storage; `total` = 62 + 0 + 240 + trial reserve + 600.
    assert!(close(p.totals.planned.gpu_cost, 62.0, 1e-9));
    assert!(close(p.totals.planned.egress_cost, 240.0, 1e-9));
    assert_eq!(p.totals.planned.storage_cost, 0.0);
    assert_eq!(p.totals.variable("total_egress_cost"), Some(240.0));
    assert!(close(
        p.totals.variable("total_gpu_cost").unwrap(),
        62.0,
        1e-9
    ));
    assert_eq!(p.totals.variable("ops_hours_month"), Some(4.0));
    let trial = p.total("trial_reserve_cost").unwrap();
    assert!(close(
        p.total("total").unwrap(),
        62.0 + 240.0 + trial + 600.0,
        1e-9
    ));
    // The JSON order: the formulas, then the six planned sums.
    let names: Vec<&str> = p.totals.entries().map(|(n, _)| n).collect();
    assert_eq!(
        names[names.len() - 6..],
        [
            "gpu_cost",
            "cold_start_cost",
            "rework_cost",
            "tco",
            "storage_cost",
            "egress_cost"
        ]
    );
}

/// #46 item 3: every descriptor row is wired — its cost, allow and hidden formulas are required
/// candidate formulas the default Formulas sheet defines, and its prices are GPUs columns, so a
/// mode added as a row without its formulas or columns fails here rather than pricing nothing.
#[test]
fn every_billing_mode_has_its_formulas_and_every_price_its_column() {
    let defaults: Vec<String> = crate::catalog::formulas()
        .into_iter()
        .map(|f| f.name)
        .collect();
    for m in Mode::ALL {
        let spec = m.spec();
        for f in [spec.cost, spec.allow] {
            assert_eq!(
                REQUIRED_CANDIDATE.iter().any(|(n, _)| *n == f),
                !spec.optional,
                "{f}: required unless the mode is optional"
            );
            assert!(defaults.iter().any(|n| n == f), "{f} has no default");
        }
        for (_, f) in spec.hidden {
            assert!(defaults.iter().any(|n| n == f), "{f} has no default");
        }
        assert!(!spec.prices.is_empty(), "{} has no price", spec.key);
    }
    for p in crate::model::Price::ALL {
        assert!(crate::model::GpuOffer::NUMERIC.contains(&p.key()));
        assert!(
            crate::catalog::column("GPUs", p.key()).is_some(),
            "{}",
            p.key()
        );
        assert!(crate::model::GpuOffer::TERMS.contains(&p.spec().input));
    }
}

/// #47 item 2, worked by hand: a 10 h run (one a month) on an offer reclaimed 6 times a day
/// (λ = 0.25 an hour, one interruption in every 4 h), restart r = the 20-minute cold start.
fn spot_job(checkpoint_min: Option<f64>, hours: f64, on_demand: f64) -> Plan {
    let mut w = workload("job", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(hours);
    w.numbers.checkpoint_min = checkpoint_min;
    let mut g = offer("X", 24.0, Some(on_demand), None, Some(1.0), None);
    g.spot_interruptions_per_day = Some(6.0);
    plan(input(vec![w], vec![g], &[("cold_start_min", 20.0)])).unwrap()
}

#[test]
fn spot_without_checkpoints_restarts_from_scratch() {
    // Without checkpoints a 10 h run is expected to take (1/λ + r)(e^(λT) − 1)
    // = (4 + 1/3)(e^2.5 − 1) = 4.3333 × 11.182494 = 48.457 h: the re-done share is
    // 48.457 / 10 − 1 = 3.8457. Billed: 10 h + 20 min → 11 h at hourly billing; spot at ¥1/h
    // costs 11 + 10 × 3.8457 = ¥49.46. On demand at ¥5/h, 11 h = ¥55: spot is cheaper, for on
    // demand costs more than 4.85× the spot price.
    let p = spot_job(None, 10.0, 5.0);
    let (c, ch) = p.chosen(0).unwrap();
    let share = (4.0 + 1.0 / 3.0) * (2.5f64.exp() - 1.0) / 10.0 - 1.0;
    assert!(close(share, 3.8457, 1e-4), "{share}");
    assert!(close(p.value(c, "spot_rework_share").unwrap(), share, 1e-9));
    assert!(close(
        p.value(c, "spot_success_share").unwrap(),
        (-2.5f64).exp(),
        1e-12
    ));
    assert!(close(c.cost(Mode::Spot).unwrap(), 49.46, 1e-9));
    assert_eq!(ch.mode, Mode::Spot);
    assert!(close(ch.rework_cost, 38.46, 1e-9));
    // On demand at ¥4/h, 11 h = ¥44 < ¥49.46: on demand wins.
    let p = spot_job(None, 10.0, 4.0);
    assert_eq!(p.chosen(0).unwrap().1.mode, Mode::OnDemand);
}

#[test]
fn spot_with_checkpoints_redoes_half_an_interval_and_the_restart() {
    // Every 30 minutes: λ × (c/2 + r) = 0.25 × (0.25 + 1/3) = 0.14583 (14.6%); spot costs
    // 11 + 10 × 0.14583 = ¥12.46.
    let p = spot_job(Some(30.0), 10.0, 5.0);
    let (c, ch) = p.chosen(0).unwrap();
    assert!(close(
        p.value(c, "spot_rework_share").unwrap(),
        0.25 * (0.25 + 1.0 / 3.0),
        1e-12
    ));
    assert!(close(c.cost(Mode::Spot).unwrap(), 12.46, 1e-9));
    assert_eq!(ch.mode, Mode::Spot);
    // A checkpointed run finishes (1: it never starts over).
    assert_eq!(p.value(c, "spot_success_share"), Some(1.0));
}

#[test]
fn spot_is_refused_where_a_run_seldom_finishes_and_the_reason_is_given() {
    // A 24 h run at λ = 0.25 an hour finishes before it is reclaimed e^−6 = 0.25% of the time,
    // under spot_min_success 1%: spot is not allowed, and on demand (24 h + 20 min → 25 h ×
    // ¥5 = ¥125) is chosen even at ¥5 against spot's ¥1.
    let p = spot_job(None, 24.0, 5.0);
    let (c, ch) = p.chosen(0).unwrap();
    assert_eq!(c.cost(Mode::Spot), None);
    assert_eq!(ch.mode, Mode::OnDemand);
    assert!(close(ch.gpu_cost, 125.0, 1e-9));
    let said = p
        .warnings
        .iter()
        .find(|w| w.message.contains("spot not used"))
        .unwrap_or_else(|| panic!("{:?}", p.warnings));
    assert!(
        said.message.contains("a 24 h run without checkpoints")
            && said.message.contains("about 6 times a day")
            && said.message.contains("0.2% of the time")
            && said.message.contains("checkpoint_min"),
        "{}",
        said.message
    );
    // With checkpoints the same run may use spot: 0.25 × (0.25 + 1/3) × 24 = 3.5 h re-done,
    // 25 + 3.5 = ¥28.50.
    let p = spot_job(Some(30.0), 24.0, 5.0);
    let (c, ch) = p.chosen(0).unwrap();
    assert_eq!(ch.mode, Mode::Spot);
    assert!(close(c.cost(Mode::Spot).unwrap(), 28.5, 1e-9));
}

#[test]
fn spot_without_a_rate_keeps_the_fixed_rework_share() {
    // No rate on the offer and the Assumption's 0: spot_rework 0.15 as before #47,
    // 11 + 10 × 0.15 = ¥12.50.
    let mut w = workload("job", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(10.0);
    let g = offer("X", 24.0, Some(5.0), None, Some(1.0), None);
    let p = plan(input(vec![w], vec![g], &[("cold_start_min", 20.0)])).unwrap();
    let (c, _) = p.chosen(0).unwrap();
    assert_eq!(p.value(c, "spot_rework_share"), Some(0.15));
    assert!(close(c.cost(Mode::Spot).unwrap(), 12.5, 1e-9));
}

/// #47 item 1, worked by hand: an RTX 4090 bought at ¥15,000 over 36 months with a 20%
/// residual, 450 W at ¥0.8/kWh and PUE 1.3, busy all 730 h, hosting ¥200 a month.
#[test]
fn an_owned_card_costs_its_depreciation_power_and_hosting() {
    let mut w = workload("all-month", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(730.0);
    w.spot_ok = false;
    let mut g = offer("RTX 4090", 24.0, Some(4.3), Some(2200.0), None, None);
    g.purchase_price = Some(15_000.0);
    g.depreciation_months = 36.0;
    g.residual_share = 0.2;
    g.power_w = Some(450.0);
    g.hosting_monthly = 200.0;
    let set = [
        ("electricity_price", 0.8),
        ("pue", 1.3),
        ("cold_start_min", 20.0),
    ];
    let p = plan(input(vec![w], vec![g], &set)).unwrap();
    let (c, ch) = p.chosen(0).unwrap();
    // Depreciation 15,000 × 0.8 / 36 = ¥333.33; power 0.45 kW × 730 h × 1.3 × ¥0.8 = ¥341.64
    // (busy all month: no idle hours); with hosting ¥874.97 a month, against ¥2,200 monthly.
    assert!(close(
        p.value(c, "owned_depreciation").unwrap(),
        333.33,
        1e-9
    ));
    assert!(close(p.value(c, "owned_power_cost").unwrap(), 341.64, 1e-9));
    assert!(close(c.cost(Mode::Owned).unwrap(), 874.97, 1e-9));
    assert_eq!(ch.mode, Mode::Owned);
    // Committed: a card bought is paid whatever the use.
    assert!(close(p.committed(0), 874.97, 1e-9));
    // Break-even against on demand: a card's month at no work is 333.33 + 200 + idle power
    // 0.45 × 730 × 0.1 × 1.3 × 0.8 = 34.16 → ¥567.50; an hour of work adds 0.45 × 0.9 × 1.3 ×
    // 0.8 = ¥0.4212; so u × 730 × 4.3 = 567.50 + u × 730 × 0.4212 at u = 567.50 / (730 ×
    // 3.8788) = 20.04%.
    let u = p.value(c, "owned_breakeven_on_demand").unwrap();
    assert!(close(u, 567.50 / (730.0 * (4.3 - 0.4212)), 1e-9), "{u}");
    assert!(close(u, 0.2004, 1e-4));
    // Against monthly: (2,200 − 567.50) / (730 × 0.4212) = 5.31 ≥ 1, owning is cheaper at any
    // use.
    let m = p.value(c, "owned_breakeven_monthly").unwrap();
    assert!(close(m, 1632.5 / (730.0 * 0.4212), 1e-9), "{m}");
    // The Summary's figures: ¥15,000 up front; renting the cheapest way costs ¥2,200 (on demand
    // is 731 h × 4.3 = ¥3,143.30); running the card costs 874.97 − 333.33 = ¥541.64, so the
    // purchase is repaid in 15,000 / (2,200 − 541.64) = 9.05 months.
    let o = p.ownership().unwrap();
    assert!(close(o.capital, 15_000.0, 1e-9));
    assert!(close(o.monthly, 874.97, 1e-9));
    assert!(close(o.rent, 2200.0, 1e-9));
    assert!(close(o.running, 541.64, 1e-9));
    let months = o.months_to_break_even.unwrap();
    assert!(
        close(months, 15_000.0 / (2200.0 - 541.64), 1e-9),
        "{months}"
    );
    assert!(close(months, 9.045, 1e-3));
}

#[test]
fn an_offer_without_a_purchase_price_is_never_owned() {
    // The same card without a purchase price: owned is not priced, monthly wins as before.
    let mut w = workload("all-month", Kind::Batch, None);
    w.numbers.vram_gib = Some(10.0);
    w.numbers.hours_per_month = Some(730.0);
    w.spot_ok = false;
    let g = offer("RTX 4090", 24.0, Some(4.3), Some(2200.0), None, None);
    let p = plan(input(vec![w], vec![g], &[])).unwrap();
    let (c, ch) = p.chosen(0).unwrap();
    assert_eq!(c.cost(Mode::Owned), None);
    assert_eq!(ch.mode, Mode::Monthly);
    assert!(p.ownership().is_none());
}

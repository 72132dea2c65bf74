//! Billing modes read from a real workbook (#47): spot priced by the offer's interruptions and
//! the job's checkpoints, given as a GPUs column or with `--set`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use calamine::DataType;
use common::*;

/// The team book's preprocess job: 16 h a month in 4 runs of T = 4 h, spot OK, on the RTX 4090
/// at ¥2/h spot, cold start 0. Reclaimed 6 times a day (λ = 0.25 an hour) and not
/// checkpointing, a run restarts from scratch: (1/λ + r)(e^(λT) − 1) = 4 × (e − 1) = 6.873 h for
/// 4 h of work, a re-done share of e − 2 = 0.71828. Spot costs 1 GPU × ¥2 × (16 + 16 × 0.71828)
/// = ¥54.99, still below on demand (16 h × ¥5 on the A10 = ¥80).
#[test]
fn spot_is_priced_by_the_offers_interruptions_from_the_gpus_sheet_or_set() {
    let d = tempdir();
    team()
        .set("GPUs", 0, 5, Some(s("spot_interruptions_per_day")))
        .set("GPUs", 1, 5, Some(n(6.0)))
        .write(&d.path().join("b.xlsx"));
    let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
    let w = &j["workloads"][2];
    assert_eq!(w["name"], "preprocess");
    assert_eq!(w["mode"], "spot");
    let share = std::f64::consts::E - 2.0;
    assert!(
        close(w["values"]["spot_rework_share"].as_f64().unwrap(), share),
        "{w}"
    );
    assert!(close(w["gpu_cost"].as_f64().unwrap(), 54.99), "{w}");
    assert!(close(w["rework_cost"].as_f64().unwrap(), 22.99), "{w}");
    // The Billing tab gives the share on the job's row.
    let tab = read_sheet(&d.path().join("b.plan.xlsx"), "Billing");
    let col = tab[0]
        .iter()
        .position(|h| *h == calamine::Data::String("Spot re-done share".into()))
        .unwrap();
    let row = tab
        .iter()
        .position(|r| r[0] == calamine::Data::String("preprocess".into()))
        .unwrap();
    assert!(close(tab[row][col].as_f64().unwrap(), share));
    // The same rate by --set on the sheet without the column.
    let d2 = tempdir();
    team().write(&d2.path().join("b.xlsx"));
    let again = calc_json(
        d2.path(),
        "b.xlsx",
        "c.xlsx",
        &["--set", "gpu:RTX 4090.spot_interruptions_per_day=6"],
    );
    assert!(close(
        again["workloads"][2]["gpu_cost"].as_f64().unwrap(),
        54.99
    ));
    // Without a rate: spot_rework, 0 in this book, 2 × 16 h = ¥32 as before.
    let before = calc_json(d2.path(), "b.xlsx", "e.xlsx", &[]);
    assert!(close(
        before["workloads"][2]["gpu_cost"].as_f64().unwrap(),
        32.0
    ));
    assert_eq!(before["workloads"][2]["values"]["spot_rework_share"], 0.0);
}

/// #47 item 1 through a workbook: the team book with the RTX 4090 for sale at ¥15,000 (the
/// defaults: 36 months, no residual, the catalog's 450 W, ¥0.8/kWh, PUE 1.5, idle at a tenth,
/// no hosting). qa-api runs 300 h a month on one card: depreciation 15,000 / 36 = ¥416.67;
/// power 0.45 kW × (300 h + 430 idle h × 0.1) × 1.5 × ¥0.8 = 0.45 × 343 × 1.2 = ¥185.22; a month
/// of ownership ¥601.89 against ¥1,800 on demand (300 h × ¥6) and ¥1,500 on the A10 — owned.
/// lora-finetune's 16 h would cost 416.67 + 0.45 × (16 + 71.4) × 1.2 = ¥463.87 owned against
/// ¥96 on demand: rented. Capital ¥15,000; the rent it replaces ¥1,500 (the next best, the A10
/// on demand); running 601.89 − 416.67 = ¥185.22; paid back in 15,000 / (1,500 − 185.22) =
/// 11.41 months. Against on demand, owning pays above
/// (416.67 + 0.45 × 730 × 0.1 × 1.2 = ¥456.09) / (730 × (6 − 0.45 × 0.9 × 1.2)) = 11.33%.
#[test]
fn an_owned_offer_is_planned_with_its_capital_and_payback() {
    let d = tempdir();
    team()
        .set("GPUs", 0, 5, Some(s("purchase_price")))
        .set("GPUs", 1, 5, Some(n(15_000.0)))
        .write(&d.path().join("b.xlsx"));
    let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
    let qa = &j["workloads"][1];
    assert_eq!(qa["name"], "qa-api");
    assert_eq!(qa["mode"], "owned");
    assert!(close(qa["gpu_cost"].as_f64().unwrap(), 601.89), "{qa}");
    assert!(close(qa["costs"]["owned"].as_f64().unwrap(), 601.89));
    assert!(close(
        qa["values"]["owned_breakeven_on_demand"].as_f64().unwrap(),
        456.09 / (730.0 * (6.0 - 0.45 * 0.9 * 1.2))
    ));
    let lora = &j["workloads"][0];
    assert_eq!(lora["mode"], "on_demand");
    assert!(close(lora["costs"]["owned"].as_f64().unwrap(), 463.87));
    let o = &j["ownership"];
    assert!(close(o["capital"].as_f64().unwrap(), 15_000.0), "{o}");
    assert!(close(o["monthly"].as_f64().unwrap(), 601.89));
    assert!(close(o["running"].as_f64().unwrap(), 185.22));
    assert!(close(o["rent"].as_f64().unwrap(), 1500.0));
    let months = o["months_to_break_even"].as_f64().unwrap();
    assert!(
        (months - 15_000.0 / (1500.0 - 185.22)).abs() < 1e-6,
        "{months}"
    );
    // A card bought is committed spend.
    assert!(close(j["totals"]["committed"].as_f64().unwrap(), 601.89));
    // Page 1: the capital, the month of ownership and the payback, to one decimal.
    let summary = read_sheet(&d.path().join("b.plan.xlsx"), "Summary");
    assert_eq!(
        value_right_of(&summary, "Owned cards: capital up front"),
        Some(15_000.0)
    );
    assert_eq!(
        value_right_of(&summary, "  A month of ownership"),
        Some(601.89)
    );
    assert_eq!(
        value_right_of(&summary, "  Paid back against renting in"),
        Some(11.4)
    );
    // The same book without the column: no owned mode, no ownership, today's plan.
    let d2 = tempdir();
    team().write(&d2.path().join("b.xlsx"));
    let before = calc_json(d2.path(), "b.xlsx", "c.xlsx", &[]);
    assert!(before["ownership"].is_null());
    assert!(before["workloads"][1]["costs"]["owned"].is_null());
    assert_ne!(before["workloads"][1]["mode"], "owned");
}

/// A Formulas sheet written before the owned mode (no cost_owned, allow_owned or the owned_
/// rows) still plans, the owned mode left out, to the cent of the built-in set.
#[test]
fn a_formulas_sheet_from_before_the_owned_mode_still_plans() {
    let d = tempdir();
    let owned = |n: &str| n.starts_with("owned_") || n.ends_with("_owned");
    let kept: Vec<Vec<Option<V>>> = default_formula_rows()
        .into_iter()
        .filter(|r| matches!(&r[0], Some(V::S(n)) if !owned(n)))
        .collect();
    assert!(kept.len() > 100, "{}", kept.len());
    team()
        .sheet("Formulas", &["name", "expression", "scope"], kept)
        .write(&d.path().join("old.xlsx"));
    let old = calc_json(d.path(), "old.xlsx", "old.plan.xlsx", &[]);
    team().write(&d.path().join("new.xlsx"));
    let new = calc_json(d.path(), "new.xlsx", "new.plan.xlsx", &[]);
    assert_eq!(
        old["totals"]["total_with_margin"],
        new["totals"]["total_with_margin"]
    );
    assert!(old["workloads"][1]["costs"]["owned"].is_null());
}

/// The team sample's two scenarios (samples/README works them): owning the RTX 4090 at ¥12,999
/// puts qa-api on it at 12,999 / 36 + 185.22 = ¥546.30 (depreciation ¥361.08, power as above),
/// so GPU 96 + 546.30 + 32 = ¥674.30, storage ¥100, trial reserve ¥67.43, total ¥841.73 and
/// ¥1,010.08 with the 20% margin; spot reclaimed 6 a day makes the batch job's spot ¥54.99, so
/// GPU ¥1,650.99 + ¥100 + ¥165.10 = ¥1,916.09, ¥2,299.31 with the margin. The main plan stays
/// the seed's ¥2,268.96.
#[test]
fn the_team_samples_scenarios_own_the_card_and_price_spot_by_its_interruptions() {
    let d = tempdir();
    let plan = calc_sample(d.path(), "team", &["--json", "t.json"]);
    let j: serde_json::Value =
        serde_json::from_slice(&std::fs::read(plan.with_file_name("t.json")).unwrap()).unwrap();
    assert!(close(
        j["totals"]["total_with_margin"].as_f64().unwrap(),
        2268.96
    ));
    let sc = j["scenarios"].as_array().unwrap();
    let own = &sc[0];
    assert_eq!(own["name"], "own the 4090");
    assert_eq!(own["workloads"][1]["mode"], "owned");
    assert!(close(
        own["workloads"][1]["gpu_cost"].as_f64().unwrap(),
        546.30
    ));
    assert!(close(
        own["totals"]["total_with_margin"].as_f64().unwrap(),
        1010.08
    ));
    assert!(close(
        own["ownership"]["capital"].as_f64().unwrap(),
        12_999.0
    ));
    let months = own["ownership"]["months_to_break_even"].as_f64().unwrap();
    assert!(
        (months - 12_999.0 / (1500.0 - 185.22)).abs() < 1e-6,
        "{months}"
    );
    let spot = &sc[1];
    assert!(close(
        spot["workloads"][2]["gpu_cost"].as_f64().unwrap(),
        54.99
    ));
    assert!(close(
        spot["totals"]["total_with_margin"].as_f64().unwrap(),
        2299.31
    ));
}

/// The startup sample's "own the 4090s" scenario: every RTX 4090 bought at ¥12,999 (36 months,
/// no residual, 450 W, ¥0.8/kWh, PUE 1.5, idle at a tenth). A card busy all month costs
/// 12,999 / 36 + 0.45 × 730 × 1.5 × 0.8 = 361.08 + 394.20 = ¥755.28, so chat-api's 4 cards
/// ¥3,021.13; comfyui's 2 cards at 200 h cost 2 × (361.08 + 0.45 × (200 + 530 × 0.1) × 1.2)
/// = ¥995.41. 14 cards in all (chat-api 4, comfyui 2, case-4k 4, case-8k 4): ¥181,986 up front.
#[test]
fn the_startup_samples_owned_scenario_buys_its_4090s() {
    let d = tempdir();
    let plan = calc_sample(d.path(), "startup", &["--json", "s.json"]);
    let j: serde_json::Value =
        serde_json::from_slice(&std::fs::read(plan.with_file_name("s.json")).unwrap()).unwrap();
    assert!(close(
        j["totals"]["total_with_margin"].as_f64().unwrap(),
        44_870.44
    ));
    let own = j["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "own the 4090s")
        .unwrap();
    let w = |name: &str| {
        own["workloads"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(w("chat-api")["mode"], "owned");
    assert!(close(w("chat-api")["gpu_cost"].as_f64().unwrap(), 3021.13));
    assert!(close(w("comfyui")["gpu_cost"].as_f64().unwrap(), 995.41));
    assert!(close(
        own["ownership"]["capital"].as_f64().unwrap(),
        14.0 * 12_999.0
    ));
}

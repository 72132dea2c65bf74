//! Scenarios (#19, part 1): the Scenarios sheet's what-ifs planned beside the base, each equal
//! to a rerun with the same --set, relative and wildcard changes, --scenario, and the errors.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use calamine::{Data, DataType};
use common::*;

/// The team book with two scenarios: a longer context for qa-api, and every GPU price +20%.
fn with_scenarios() -> Book {
    team().sheet(
        "Scenarios",
        &["scenario", "change"],
        vec![
            vec![Some(s("long-context")), Some(s("qa-api.context_len=16384"))],
            vec![Some(s("pricier")), Some(s("gpu:*.on_demand_hourly*=1.2"))],
            vec![Some(s("pricier")), Some(s("gpu:*.spot_hourly*=1.2"))],
        ],
    )
}

fn total(j: &serde_json::Value) -> f64 {
    j["totals"]["total_with_margin"].as_f64().unwrap()
}

#[test]
fn each_scenario_equals_a_rerun_with_its_changes() {
    let d = tempdir();
    with_scenarios().write(&d.path().join("b.xlsx"));
    let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
    let sc = j["scenarios"].as_array().unwrap();
    assert_eq!(sc.len(), 2);
    assert_eq!(sc[0]["name"], "long-context");
    assert_eq!(
        sc[1]["changes"],
        serde_json::json!(["gpu:*.on_demand_hourly*=1.2", "gpu:*.spot_hourly*=1.2"])
    );
    // The team book's offers: RTX 4090 ¥6 on demand and ¥2 spot, A10 ¥5 on demand.
    let long = calc_json(
        d.path(),
        "b.xlsx",
        "l.xlsx",
        &["--set", "qa-api.context_len=16384"],
    );
    let pricier = calc_json(
        d.path(),
        "b.xlsx",
        "p.xlsx",
        &[
            "--set",
            "gpu:RTX 4090.on_demand_hourly=7.2",
            "--set",
            "gpu:RTX 4090.spot_hourly=2.4",
            "--set",
            "gpu:A10.on_demand_hourly=6",
        ],
    );
    assert!(
        close(total(&sc[0]), total(&long)),
        "{} vs {}",
        sc[0]["totals"],
        long["totals"]
    );
    assert!(close(total(&sc[1]), total(&pricier)));
    // Every price × 1.2 with no cold start and no rework (the book's assumptions): the same
    // hours billed, so the GPU cost is exactly 1.2 × the base's.
    let gpu = |x: &serde_json::Value| x["totals"]["gpu_cost"].as_f64().unwrap();
    assert!(
        close(gpu(&sc[1]), 1.2 * gpu(&j)),
        "{} vs {}",
        gpu(&sc[1]),
        gpu(&j)
    );
    // Each scenario carries the main plan's keys, per workload too.
    for key in ["total", "total_with_margin", "gpu_cost", "storage_cost"] {
        assert!(sc[1]["totals"][key].is_number(), "{key}");
    }
    assert_eq!(sc[1]["workloads"].as_array().unwrap().len(), 3);
    assert_eq!(sc[1]["workloads"][1]["name"], "qa-api");
    assert!(j["scenario"].is_null());

    // The Scenarios tab: the base first, then each scenario with its difference.
    let tab = read_sheet(&d.path().join("b.plan.xlsx"), "Scenarios");
    assert_eq!(tab[1][0], Data::String("base".into()));
    assert_eq!(tab[3][0], Data::String("pricier".into()));
    assert_eq!(
        tab[3][1],
        Data::String("gpu:*.on_demand_hourly*=1.2; gpu:*.spot_hourly*=1.2".into())
    );
    let delta = tab[3][4].get_float().unwrap();
    assert!(close(delta, total(&sc[1]) - total(&j)), "{delta}");
}

#[test]
fn scenario_makes_a_scenario_the_main_plan_and_the_base_a_column() {
    let d = tempdir();
    with_scenarios().write(&d.path().join("b.xlsx"));
    let base = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
    let j = calc_json(d.path(), "b.xlsx", "c.xlsx", &["--scenario", "pricier"]);
    assert_eq!(j["scenario"], "pricier");
    assert!(close(total(&j), total(&base["scenarios"][1])));
    let names: Vec<&str> = j["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["base", "long-context"]);
    assert!(close(total(&j["scenarios"][0]), total(&base)));
    gpuplan(
        d.path(),
        &["calc", "b.xlsx", "--scenario", "pricer", "-o", "x.xlsx"],
    )
    .fails_with(2, &["--scenario pricer: no such scenario", "pricier"]);
}

#[test]
fn relative_and_wildcard_changes_work_in_set_too() {
    let d = tempdir();
    team().write(&d.path().join("b.xlsx"));
    // qa-api's concurrency 4 → 8; lora-finetune and preprocess have none (blank stays blank).
    let j = calc_json(d.path(), "b.xlsx", "c.xlsx", &["--set", "*.concurrency*=2"]);
    let again = calc_json(
        d.path(),
        "b.xlsx",
        "d.xlsx",
        &["--set", "qa-api.concurrency=8"],
    );
    assert!(close(total(&j), total(&again)));
    // A margin × 1.5: 0.2 → 0.3.
    let j = calc_json(
        d.path(),
        "b.xlsx",
        "e.xlsx",
        &["--set", "safety_margin*=1.5"],
    );
    let again = calc_json(
        d.path(),
        "b.xlsx",
        "f.xlsx",
        &["--set", "safety_margin=0.3"],
    );
    assert!(close(total(&j), total(&again)));
    gpuplan(
        d.path(),
        &["calc", "b.xlsx", "--set", "safety_margin*=much"],
    )
    .fails_with(2, &["a relative change KEY*=FACTOR needs a number"]);
}

#[test]
fn a_bad_change_is_reported_at_its_scenarios_cell() {
    let b = team().sheet(
        "Scenarios",
        &["scenario", "change"],
        vec![
            vec![Some(s("a")), Some(s("qa-api.context_len"))],
            vec![Some(s("b")), Some(s("nope.concurrency=2"))],
        ],
    );
    refused_book(b, &["Scenarios!B2: qa-api.context_len: expected KEY=VALUE"]);
    let b = team().sheet(
        "Scenarios",
        &["scenario", "change"],
        vec![vec![Some(s("b")), Some(s("nope.concurrency=2"))]],
    );
    let d = tempdir();
    b.write(&d.path().join("b.xlsx"));
    gpuplan(d.path(), &["calc", "b.xlsx"]).fails_with(
        2,
        &["Scenarios!B2 (nope.concurrency=2): there is no workload named \"nope\""],
    );
}

/// Seed 000's case study as a scenario of samples/startup.xlsx: chat-api at 8,192 tokens of
/// context needs a third two-card replica.
#[test]
fn the_startup_samples_8k_scenario_adds_a_replica() {
    let d = tempdir();
    std::fs::copy(repo("samples/startup.xlsx"), d.path().join("s.xlsx")).unwrap();
    let j = calc_json(d.path(), "s.xlsx", "s.plan.xlsx", &[]);
    let w = |x: &serde_json::Value| {
        x["workloads"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["name"] == "chat-api")
            .unwrap()
            .clone()
    };
    let sc = &j["scenarios"][0];
    assert_eq!(sc["name"], "chat-api at 8k context");
    // Base: 2 replicas of 2 × RTX 4090 at ¥1,500 a month = ¥6,000; at 8k: 3 replicas, ¥9,000.
    assert_eq!(w(&j)["gpus_total"], 4.0);
    assert!(close(w(&j)["tco"].as_f64().unwrap(), 6000.0));
    assert_eq!(w(sc)["gpus_total"], 6.0);
    assert!(close(w(sc)["tco"].as_f64().unwrap(), 9000.0));
    // The budget moves by (¥3,000 of cards + 10% trial reserve) × 1.2 margin = ¥3,960.
    assert!(
        close(total(sc) - total(&j), 3960.0),
        "{} {}",
        total(sc),
        total(&j)
    );
}

/// #34 item 5: the scenarios' Δ was taken from the main plan's live row, so after a price edit
/// the base moved and the scenarios (re-plans, fixed) did not: "price +20%" read −3.6%. The Δ
/// now reads the main plan's budget as calculated, in a row stamped "fixed at calculation",
/// and no cell of the Scenarios tab's Δ reads another tab. The startup sample: base
/// ¥37,392.03 × 1.2 margin = ¥44,870.44 (tests/cli.rs works it by hand).
#[test]
fn scenario_differences_are_against_the_base_as_calculated() {
    let d = tempdir();
    let plan = calc_sample(d.path(), "startup", &[]);
    let rows = read_sheet(&plan, "Scenarios");
    let fixed = rows
        .iter()
        .position(|r| r[0] == Data::String("Main plan as calculated".into()))
        .unwrap();
    assert!(rows[fixed][1]
        .to_string()
        .starts_with("Fixed at calculation:"));
    assert!((rows[fixed][3].as_f64().unwrap() - 44_870.44).abs() < 0.01);
    use calamine::Reader;
    let mut wb: calamine::Xlsx<_> = calamine::open_workbook(&plan).unwrap();
    let formulas = wb.worksheet_formula("Scenarios").unwrap();
    let base = format!("'Scenarios'!$D${}", fixed + 1);
    let mut seen = 0;
    for r in 2..fixed {
        for c in [4, 5] {
            let f = formulas
                .get_value((r as u32, c as u32))
                .cloned()
                .unwrap_or_default();
            assert!(f.contains(&base) && !f.contains("TCO"), "row {r}: {f}");
            seen += 1;
        }
    }
    // Two scenarios, Δ and Δ % each.
    assert_eq!(seen, 4);
}

#[test]
fn a_relative_change_of_a_blank_or_yes_no_column_is_refused() {
    // The team book: qa-api has a concurrency of 4, the training and batch rows none.
    let d = tempdir();
    team().write(&d.path().join("t.xlsx"));
    // A named workload's blank cell: nothing to scale.
    gpuplan(
        d.path(),
        &[
            "calc",
            "t.xlsx",
            "-q",
            "--set",
            "lora-finetune.concurrency*=100",
        ],
    )
    .fails_with(2, &["concurrency of row", "is blank", "no number to scale"]);
    // A yes/no column is not a number.
    gpuplan(d.path(), &["calc", "t.xlsx", "-q", "--set", "*.online*=2"])
        .fails_with(2, &["`online` is not a numeric column"]);
    // `*` over a column every row leaves blank scales nothing: refused.
    gpuplan(
        d.path(),
        &["calc", "t.xlsx", "-q", "--set", "*.max_gpus*=2"],
    )
    .fails_with(2, &["no workload has a number in max_gpus to scale"]);
}

#[test]
fn a_misspelt_scenarios_key_is_warned_of_with_a_suggestion() {
    let d = tempdir();
    let b = team().sheet(
        "Scenarios",
        &["scenario", "change"],
        vec![vec![Some(s("tight")), Some(s("safety_marjin=0.9"))]],
    );
    b.write(&d.path().join("t.xlsx"));
    let r = gpuplan(d.path(), &["calc", "t.xlsx"]);
    r.ok();
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(
        all.contains("Scenarios!B2") && all.contains("did you mean safety_margin?"),
        "{all}"
    );
}

#[test]
fn more_than_200_scenarios_are_refused_before_any_is_planned() {
    let d = tempdir();
    let rows = (1..=201)
        .map(|i| vec![Some(s(&format!("s{i}"))), Some(s("safety_margin=0.3"))])
        .collect();
    team()
        .sheet("Scenarios", &["scenario", "change"], rows)
        .write(&d.path().join("t.xlsx"));
    // The 201st scenario is on row 202.
    gpuplan(d.path(), &["calc", "t.xlsx", "-q"])
        .fails_with(2, &["Scenarios!A202", "more than 200 scenarios"]);
    assert!(!d.path().join("t.plan.xlsx").exists());
}

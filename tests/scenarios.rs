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

    // The Scenarios tab, the plans as columns: the base first, then each scenario with its
    // difference (row 4, Δ budget), then the base as calculated.
    let tab = read_sheet(&d.path().join("b.plan.xlsx"), "Scenarios");
    assert_eq!(tab[0][1], Data::String("base".into()));
    assert_eq!(tab[0][3], Data::String("pricier".into()));
    assert_eq!(tab[0][4], Data::String("Main plan as calculated".into()));
    assert_eq!(tab[1][0], Data::String("Changes".into()));
    assert_eq!(
        tab[1][3],
        Data::String("gpu:*.on_demand_hourly*=1.2; gpu:*.spot_hourly*=1.2".into())
    );
    assert_eq!(tab[4][0], Data::String("Δ budget".into()));
    let delta = tab[4][3].get_float().unwrap();
    assert!(close(delta, total(&sc[1]) - total(&j)), "{delta}");
    // Per workload, each plan's GPU × count · mode in one cell of its column, the TCO under it.
    let qa = tab
        .iter()
        .position(|r| r[0] == Data::String("qa-api".into()))
        .unwrap();
    let said = tab[qa][3].to_string();
    assert!(said.contains(" × ") && said.contains(" · "), "{said}");
    assert_eq!(tab[qa + 1][0], Data::String("  TCO".into()));
    assert!(close(
        tab[qa + 1][3].as_f64().unwrap(),
        sc[1]["workloads"][1]["tco"].as_f64().unwrap()
    ));
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
    // The plans are columns: base, three scenarios, then the base as calculated (column F).
    let fixed = rows[0]
        .iter()
        .position(|c| *c == Data::String("Main plan as calculated".into()))
        .unwrap();
    assert_eq!(fixed, 5);
    assert!(rows[1][fixed]
        .to_string()
        .starts_with("Fixed at calculation:"));
    // Row 4: the total with safety margin.
    assert_eq!(rows[3][0], Data::String("Total with safety margin".into()));
    assert!((rows[3][fixed].as_f64().unwrap() - 44_870.44).abs() < 0.01);
    use calamine::Reader;
    let mut wb: calamine::Xlsx<_> = calamine::open_workbook(&plan).unwrap();
    let formulas = wb.worksheet_formula("Scenarios").unwrap();
    let base = "'Scenarios'!$F$4";
    let mut seen = 0;
    // Rows 5 and 6 (Δ and Δ %) of the three scenarios' columns, C to E.
    for c in 2..fixed {
        for r in [4, 5] {
            let f = formulas
                .get_value((r as u32, c as u32))
                .cloned()
                .unwrap_or_default();
            assert!(f.contains(base) && !f.contains("TCO"), "column {c}: {f}");
            seen += 1;
        }
    }
    // Three scenarios, Δ and Δ % each.
    assert_eq!(seen, 6);
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

/// A service rented by the month with a quiet night and a LoRA job that fits its idle cards
/// (startup's chat-api and lora-experiments on its RTX 4090 offer alone), with two scenarios:
/// the fleet off, and a ceiling under the budget.
fn with_a_fleet(ceiling: f64) -> Book {
    let cols = [
        "name",
        "kind",
        "model",
        "concurrency",
        "context_len",
        "base_concurrency",
        "peak_window",
        "hours_per_month",
        "runs_per_month",
        "window",
        // The job's 12-hour runs fit its 9-hour window only in pieces: it checkpoints, as the
        // startup sample's does (otherwise it could not move and no fleet would form).
        "checkpoint_min",
    ];
    Book::new()
        .sheet(
            "Workloads",
            &cols,
            vec![
                vec![
                    Some(s("chat-api")),
                    Some(s("inference")),
                    Some(s("Qwen2.5-7B")),
                    Some(n(60.0)),
                    Some(n(4096.0)),
                    Some(n(20.0)),
                    Some(s("09-21")),
                    None,
                    None,
                    None,
                    None,
                ],
                vec![
                    Some(s("lora-experiments")),
                    Some(s("lora")),
                    Some(s("Llama-2-7B")),
                    None,
                    Some(n(2048.0)),
                    None,
                    None,
                    Some(n(120.0)),
                    Some(n(10.0)),
                    Some(s("22-07")),
                    Some(n(30.0)),
                ],
            ],
        )
        .sheet(
            "GPUs",
            &[
                "gpu",
                "provider",
                "on_demand_hourly",
                "monthly",
                "spot_hourly",
                "billing_granularity_min",
            ],
            vec![vec![
                Some(s("RTX 4090")),
                Some(s("example")),
                Some(n(2.5)),
                Some(n(1500.0)),
                Some(n(1.2)),
                Some(n(1.0)),
            ]],
        )
        .sheet(
            "Scenarios",
            &["scenario", "change"],
            vec![
                vec![Some(s("no-fleet")), Some(s("fleet=no"))],
                vec![
                    Some(s("ceiling")),
                    Some(s(&format!("budget_monthly={ceiling}"))),
                ],
            ],
        )
}

/// #44 item 5: a scenario `fleet=no` showed Δ 0 and a scenario with a budget ceiling listed no
/// cuts; the scenarios' JSON had neither `fleet` nor `cuts`. Each scenario now carries them, as a
/// rerun with the same --set gives them, and the Scenarios tab shows the fleet's saving, the
/// budget with the fleet and its Δ, the ceiling and the cuts.
#[test]
fn a_scenario_carries_the_fleet_and_the_cuts() {
    let d = tempdir();
    let path = book_with(&d, "b.xlsx", with_a_fleet(1000.0));
    let before = bytes(&path);
    let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
    // The job runs on the service's idle cards at night: its on-demand ¥2.5 × (120 h + 10 runs
    // × 20 min cold start) = 2.5 × 123.333 = ¥308.333…, ¥308.33 to the cent, is saved.
    let saving = 308.33;
    assert!(
        close(j["fleet"]["saving"].as_f64().unwrap(), saving),
        "{}",
        j["fleet"]
    );
    let main_with_fleet = j["fleet"]["budget"].as_f64().unwrap();
    assert!(close(main_with_fleet, total(&j) - saving));
    let sc = j["scenarios"].as_array().unwrap();
    let (no_fleet, ceiling) = (&sc[0], &sc[1]);
    // fleet=no: nothing shares, so no fleet and the same total with margin.
    assert!(no_fleet["fleet"].is_null(), "{no_fleet}");
    assert!(close(total(no_fleet), total(&j)));
    // The ceiling: the same cuts as a rerun with --set budget_monthly=1000.
    let rerun = calc_json(
        d.path(),
        "b.xlsx",
        "r.xlsx",
        &["--set", "budget_monthly=1000"],
    );
    assert!(!rerun["cuts"].is_null(), "{}", rerun["cuts"]);
    assert_eq!(ceiling["cuts"], rerun["cuts"]);
    assert_eq!(ceiling["fleet"], rerun["fleet"]);
    assert_eq!(ceiling["cuts"]["budget"], 1000.0);
    // The tab: each row's fleet saving, budget with the fleet, its Δ against the main plan's,
    // the ceiling and the cuts.
    // The plans are columns (base, no-fleet, ceiling), the figures rows.
    let tab = read_sheet(&d.path().join("b.plan.xlsx"), "Scenarios");
    let row = |label: &str| {
        tab.iter()
            .position(|r| r[0] == Data::String(label.to_string()))
            .unwrap_or_else(|| panic!("no {label} row"))
    };
    let (saving_r, with_r, change_r, ceiling_r, cuts_r) = (
        row("Fleet saving"),
        row("Budget with the fleet"),
        row("Δ with the fleet"),
        row("Budget ceiling"),
        row("Cuts"),
    );
    assert!(close(tab[saving_r][1].as_f64().unwrap(), saving));
    assert!(close(tab[with_r][1].as_f64().unwrap(), main_with_fleet));
    assert_eq!(tab[0][2], Data::String("no-fleet".into()));
    assert!(close(tab[saving_r][2].as_f64().unwrap(), 0.0));
    assert!(close(tab[with_r][2].as_f64().unwrap(), total(&j)));
    // fleet=no costs the saving back: +¥308.33 against the main plan with its fleet.
    assert!(
        close(tab[change_r][2].as_f64().unwrap(), saving),
        "{:?}",
        tab[change_r]
    );
    assert!(close(tab[ceiling_r][3].as_f64().unwrap(), 1000.0));
    let n = rerun["cuts"]["cuts"].as_array().unwrap().len();
    let met = rerun["cuts"]["met"].as_bool().unwrap();
    assert!(
        tab[cuts_r][3].to_string().starts_with(&format!("{n} cut"))
            && tab[cuts_r][3]
                .to_string()
                .contains(if met { "within" } else { "still over" }),
        "{:?}",
        tab[cuts_r][3]
    );
    assert_eq!(bytes(&path), before, "the input changed");
}

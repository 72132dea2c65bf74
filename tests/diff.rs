//! `gpuplan diff` (#19, part 4): two plans compared per workload and in total, naming the inputs
//! that changed; JSON plans and plan workbooks alike; exit 0 whether or not they differ.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;

#[test]
fn a_diff_names_the_changed_inputs_and_outcomes() {
    let d = tempdir();
    std::fs::copy(repo("samples/team.xlsx"), d.path().join("t.xlsx")).unwrap();
    let q = |args: &[&str]| {
        gpuplan(d.path(), args).ok();
    };
    q(&["calc", "t.xlsx", "-q", "-o", "a.xlsx", "--json", "a.json"]);
    q(&[
        "calc",
        "t.xlsx",
        "-q",
        "-o",
        "b.xlsx",
        "--json",
        "b.json",
        "--set",
        "safety_margin=0.3",
        "--set",
        "qa-api.concurrency=40",
    ]);
    let j = json_of(&gpuplan(
        d.path(),
        &["diff", "a.json", "b.json", "--json", "-"],
    ));
    // qa-api at 40 concurrent needs a second A10: 2 × 300 h × ¥5 = ¥3,000 (was ¥1,500).
    let qa = &j["workloads"][1];
    assert_eq!(qa["name"], "qa-api");
    assert_eq!(qa["before"]["gpus"], 1.0);
    assert_eq!(qa["after"]["gpus"], 2.0);
    assert!(close(qa["tco_change"].as_f64().unwrap(), 1500.0));
    // The budget: (¥1,890.80 + ¥1,500 × 1.1) × 1.3 = ¥4,603.04, from ¥2,268.96.
    assert!(close(
        j["total_with_margin_after"].as_f64().unwrap(),
        4603.04
    ));
    assert!(close(
        j["total_with_margin_change"].as_f64().unwrap(),
        4603.04 - 2268.96
    ));
    let changed: Vec<(String, String, String)> = j["inputs_changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["key"].as_str().unwrap().to_string(),
                c["before"].as_str().unwrap().to_string(),
                c["after"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        changed,
        [
            (
                "assumptions.safety_margin".into(),
                "0.2".into(),
                "0.3".into()
            ),
            (
                "workloads.qa-api.concurrency".into(),
                "4".into(),
                "40".into()
            ),
        ]
    );
    assert_eq!(j["inputs_complete"], true);
    // The workbooks say the same of the outcomes; of the inputs, the margin (they do not hold
    // the workloads' columns), and the terminal says so.
    let r = gpuplan(d.path(), &["diff", "a.xlsx", "b.xlsx"]);
    r.ok();
    assert!(
        r.stdout.contains("assumptions.safety_margin: 0.2 → 0.3"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("qa-api.concurrency"), "{}", r.stdout);
    assert!(
        r.stdout.contains("¥2,268.96 → ¥4,603.04 (+¥2,334.08)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("compare the plans' JSON"), "{}", r.stdout);
    // A workbook against a JSON: the same outcomes, so only inputs can differ.
    let j = json_of(&gpuplan(
        d.path(),
        &["diff", "a.xlsx", "a.json", "--json", "-"],
    ));
    for w in j["workloads"].as_array().unwrap() {
        assert_eq!(w["before"], w["after"], "{w}");
    }
}

#[test]
fn a_chinese_plan_workbook_reads_back_as_its_json() {
    // The Chinese tabs and headers are found by the same labels the writer used
    // (src/labels/layout.rs): outcomes, totals, the input's hash and the offers' terms.
    let d = tempdir();
    std::fs::copy(repo("samples/team.xlsx"), d.path().join("t.xlsx")).unwrap();
    gpuplan(
        d.path(),
        &[
            "calc", "t.xlsx", "-q", "--lang", "zh", "-o", "zh.xlsx", "--json", "a.json",
        ],
    )
    .ok();
    let j = json_of(&gpuplan(
        d.path(),
        &["diff", "zh.xlsx", "a.json", "--json", "-"],
    ));
    let workloads = j["workloads"].as_array().unwrap();
    assert!(!workloads.is_empty());
    for w in workloads {
        assert!(w["before"]["gpu"].is_string(), "{w}");
        assert_eq!(w["before"], w["after"], "{w}");
    }
    assert_eq!(j["total_with_margin_before"], j["total_with_margin_after"]);
    assert!(close(
        j["total_with_margin_before"].as_f64().unwrap(),
        2268.96
    ));
    let changed = j["inputs_changed"].as_array().unwrap();
    assert!(
        changed
            .iter()
            .all(|c| !c["key"].as_str().unwrap().starts_with("gpus.")),
        "{changed:?}"
    );
}

#[test]
fn identical_plans_exit_0_and_a_non_plan_exits_2() {
    let d = tempdir();
    team().write(&d.path().join("t.xlsx"));
    gpuplan(d.path(), &["calc", "t.xlsx", "-q", "--json", "a.json"]).ok();
    let r = gpuplan(d.path(), &["diff", "a.json", "a.json"]);
    r.ok();
    assert!(r.stdout.contains("inputs: the same"), "{}", r.stdout);
    gpuplan(d.path(), &["diff", "t.xlsx", "a.json"])
        .fails_with(2, &["not a gpuplan plan workbook"]);
    std::fs::write(d.path().join("x.json"), "{\"a\": 1}").unwrap();
    gpuplan(d.path(), &["diff", "x.json", "a.json"])
        .fails_with(2, &["x.json", "not a gpuplan plan's JSON"]);
}

/// `calc --compare OLD` adds a Diff tab to the new plan (#19, 4).
#[test]
fn calc_compare_adds_a_diff_tab() {
    let d = tempdir();
    std::fs::copy(repo("samples/team.xlsx"), d.path().join("t.xlsx")).unwrap();
    gpuplan(
        d.path(),
        &["calc", "t.xlsx", "-q", "-o", "a.xlsx", "--json", "a.json"],
    )
    .ok();
    gpuplan(
        d.path(),
        &[
            "calc",
            "t.xlsx",
            "-q",
            "-o",
            "b.xlsx",
            "--set",
            "qa-api.concurrency=40",
            "--compare",
            "a.json",
        ],
    )
    .ok();
    let tab = read_sheet(&d.path().join("b.xlsx"), "Diff");
    let qa = tab
        .iter()
        .find(|r| r[0] == calamine::Data::String("qa-api".into()))
        .unwrap();
    // GPUs 1 → 2, change +¥1,500.
    assert_eq!(qa[2], calamine::Data::Float(1.0));
    assert_eq!(qa[6], calamine::Data::Float(2.0));
    assert_eq!(qa[9], calamine::Data::Float(1500.0));
    assert!(tab
        .iter()
        .any(|r| r[0] == calamine::Data::String("workloads.qa-api.concurrency".into())));
}

#[test]
fn a_diff_of_jsons_from_a_newer_gpuplan_or_without_inputs_is_not_called_the_same() {
    let d = tempdir();
    let plan = |version: &str| {
        serde_json::json!({
            "gpuplan_version": version,
            "workloads": [{"name": "a", "gpu": "A10", "gpus_total": 1.0, "mode": "spot", "tco": 10.0}],
            "totals": {"total": 10.0, "total_with_margin": 12.0},
        })
        .to_string()
    };
    std::fs::write(d.path().join("new1.json"), plan("9.9.9")).unwrap();
    std::fs::write(d.path().join("new2.json"), plan("9.9.9")).unwrap();
    gpuplan(d.path(), &["diff", "new1.json", "new2.json"]).fails_with(
        2,
        &[
            "new1.json",
            "written by gpuplan 9.9.9, newer than this gpuplan",
        ],
    );
    // This version's JSON without "inputs": nothing to compare them on, said so.
    let ours = plan(env!("CARGO_PKG_VERSION"));
    std::fs::write(d.path().join("old1.json"), &ours).unwrap();
    std::fs::write(d.path().join("old2.json"), &ours).unwrap();
    let r = gpuplan(d.path(), &["diff", "old1.json", "old2.json"]);
    r.ok();
    assert!(r.stdout.contains("inputs: not compared"), "{}", r.stdout);
    assert!(!r.stdout.contains("inputs: the same"), "{}", r.stdout);
    // No version at all: not a plan's JSON.
    std::fs::write(d.path().join("x.json"), r#"{"workloads": []}"#).unwrap();
    gpuplan(d.path(), &["diff", "x.json", "old1.json"])
        .fails_with(2, &["x.json", "not a gpuplan plan's JSON"]);
}

#[test]
fn a_diff_with_too_many_workloads_is_refused_as_it_is_read() {
    let d = tempdir();
    // 100,001 workloads of a dozen bytes each: refused at the 100,001st, not held.
    let mut text = String::from(r#"{"gpuplan_version": "0.1.0", "workloads": ["#);
    for i in 0..100_001 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(r#"{"name":"w"}"#);
    }
    text.push_str("]}");
    std::fs::write(d.path().join("big.json"), text).unwrap();
    gpuplan(d.path(), &["diff", "big.json", "big.json"])
        .fails_with(2, &["big.json", "more than 100000 workloads"]);
}

#[test]
fn a_plan_workbook_against_its_own_json_has_no_changed_inputs() {
    let d = sample_team_dir();
    calc_ok(d.path(), &["-o", "a.xlsx", "--json", "a.json"]);
    for (old, new) in [("a.xlsx", "a.json"), ("a.json", "a.xlsx")] {
        let j = json_of(&gpuplan(d.path(), &["diff", old, new, "--json", "-"]));
        assert_eq!(j["inputs_changed"], serde_json::json!([]), "{old} {new}");
        assert!(j["inputs_compared"].as_u64().unwrap() > 0);
    }
}

#[test]
fn diff_names_yes_no_workload_columns_and_offer_availability() {
    let d = sample_team_dir();
    calc_ok(d.path(), &["-o", "a.xlsx", "--json", "a.json"]);
    let (online, available) = ("qa-api.online=no", "gpu:A10.available=no");
    let b = [
        "-o", "b.xlsx", "--json", "b.json", "--set", online, "--set", available,
    ];
    calc_ok(d.path(), &b);
    let r = gpuplan(d.path(), &["diff", "a.json", "b.json"]);
    r.ok();
    assert!(
        r.stdout.contains("workloads.qa-api.online: yes → no"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("gpus.A10 @ seed 001.available: yes → no"),
        "{}",
        r.stdout
    );
}

#[test]
fn calc_compare_with_a_chinese_plan_workbook_lists_only_the_changed_inputs() {
    let d = sample_team_dir();
    calc_ok(d.path(), &["--lang", "zh", "-o", "old.xlsx"]);
    let new = [
        "-o",
        "new.xlsx",
        "--set",
        "safety_margin=0.3",
        "--compare",
        "old.xlsx",
    ];
    calc_ok(d.path(), &new);
    // The old workbook records the assumptions (yes/no as 是/否) but no workload columns: the
    // margin is the one input both record that differs.
    let tab = read_sheet(&d.path().join("new.xlsx"), "Diff");
    let keys: Vec<String> = tab
        .iter()
        .filter_map(|r| match &r[0] {
            calamine::Data::String(s) if s.contains('.') && !s.contains(' ') => Some(s.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(keys, ["assumptions.safety_margin"], "{tab:?}");
}

/// #44 item 6: `diff` and `--compare` missed a lost fleet saving. startup's lora-experiments
/// runs in 22-07 on chat-api's idle night cards, saving 2.5 × (120 h + 10 runs × 20 min) =
/// ¥308.33: the budget with the fleet is ¥44,870.44 − ¥308.33 = ¥44,562.11. Moved to 09-21,
/// chat-api's peak, it finds no idle card: the total with margin stays ¥44,870.44, and the
/// budget with the fleet rises by the ¥308.33 lost. With a ceiling of ¥30,000 the new plan also
/// lists cuts. JSON plans, plan workbooks and calc --compare all say so.
#[test]
fn a_lost_fleet_saving_a_new_ceiling_and_its_cuts_are_in_the_diff() {
    let d = tempdir();
    let input = d.path().join("s.xlsx");
    std::fs::copy(repo("samples/startup.xlsx"), &input).unwrap();
    let before = bytes(&input);
    let q = |args: &[&str]| {
        gpuplan(d.path(), args).ok();
    };
    q(&["calc", "s.xlsx", "-q", "-o", "a.xlsx", "--json", "a.json"]);
    let moved = [
        "--set",
        "lora-experiments.window=09-21",
        "--set",
        "budget_monthly=30000",
    ];
    let mut args = vec!["calc", "s.xlsx", "-q", "-o", "b.xlsx", "--json", "b.json"];
    args.extend(moved);
    q(&args);
    // 2.5 × (120 h + 10 starts × 20 min) = ¥308.333…, ¥308.33 to the cent; the month with
    // margin ¥44,870.44 (every money line to the cent).
    let saving = 308.33;
    let with_margin = 44_870.44;
    for (old, new) in [("a.json", "b.json"), ("a.xlsx", "b.xlsx")] {
        let j = json_of(&gpuplan(d.path(), &["diff", old, new, "--json", "-"]));
        assert!(
            close(j["total_with_margin_change"].as_f64().unwrap(), 0.0),
            "{old}: {j}"
        );
        assert!(close(
            j["budget_with_fleet_before"].as_f64().unwrap(),
            with_margin - saving
        ));
        assert!(close(
            j["budget_with_fleet_after"].as_f64().unwrap(),
            with_margin
        ));
        assert!(
            close(j["budget_with_fleet_change"].as_f64().unwrap(), saving),
            "{old}: {j}"
        );
        assert!(j["budget_ceiling_before"].is_null(), "{old}: {j}");
        assert_eq!(j["budget_ceiling_after"], 30_000.0);
        assert!(j["cuts_before"].is_null(), "{old}: {j}");
        let b = json_of(&gpuplan(
            d.path(),
            &[
                "calc", "s.xlsx", "-q", "-o", "c.xlsx", "--force", "--json", "-", moved[0],
                moved[1], moved[2], moved[3],
            ],
        ));
        assert_eq!(
            j["cuts_after"]["count"].as_u64().unwrap() as usize,
            b["cuts"]["cuts"].as_array().unwrap().len(),
            "{old}: {j}"
        );
        assert_eq!(j["cuts_after"]["met"], b["cuts"]["met"]);
        let text = gpuplan(d.path(), &["diff", old, new]);
        text.ok();
        assert!(
            text.stdout
                .contains("budget with the fleet: ¥44,562.11 → ¥44,870.44 (+¥308.33)")
                && text.stdout.contains("budget ceiling: none → ¥30,000.00")
                && text.stdout.contains("cuts: none → "),
            "{old}:\n{}",
            text.stdout
        );
    }
    // calc --compare: the Diff tab and the Summary's line say the same.
    let mut args = vec![
        "calc",
        "s.xlsx",
        "-q",
        "-o",
        "c.xlsx",
        "--force",
        "--compare",
        "a.xlsx",
    ];
    args.extend(moved);
    q(&args);
    let tab = read_sheet(&d.path().join("c.xlsx"), "Diff");
    let row = tab
        .iter()
        .find(|r| r[0] == calamine::Data::String("Change with the fleet".into()))
        .unwrap_or_else(|| panic!("{tab:?}"));
    assert!(
        row.iter()
            .any(|v| calamine::DataType::as_f64(v).is_some_and(|v| close(v, saving))),
        "{row:?}"
    );
    assert!(tab
        .iter()
        .any(|r| r[0] == calamine::Data::String("Cuts now".into())));
    assert_eq!(bytes(&input), before, "the input changed");
}

/// #44 item 10: a workbook records the terms of the offers it chose only; where one plan chose
/// an offer the other did not, its terms were left out of the comparison without a word. The
/// report names them. (team: qa-api on the A10 at ¥5 an hour; pinned to the RTX 4090, no
/// workload is on the A10.)
#[test]
fn offer_terms_one_workbook_lacks_are_named_as_not_compared() {
    let d = tempdir();
    std::fs::copy(repo("samples/team.xlsx"), d.path().join("t.xlsx")).unwrap();
    gpuplan(d.path(), &["calc", "t.xlsx", "-q", "-o", "a.xlsx"]).ok();
    gpuplan(
        d.path(),
        &[
            "calc",
            "t.xlsx",
            "-q",
            "-o",
            "b.xlsx",
            "--set",
            "qa-api.gpu=RTX 4090",
        ],
    )
    .ok();
    let text = gpuplan(d.path(), &["diff", "a.xlsx", "b.xlsx"]);
    text.ok();
    assert!(
        text.stdout
            .contains("offer terms recorded by one plan only, not compared: A10 @ seed 001 (billing_granularity_min, min_rental_min, price_on_demand)"),
        "{}",
        text.stdout
    );
    let j = json_of(&gpuplan(
        d.path(),
        &["diff", "a.xlsx", "b.xlsx", "--json", "-"],
    ));
    assert!(
        j["inputs_not_compared"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k == "gpus.A10 @ seed 001.price_on_demand"),
        "{j}"
    );
}

/// #43 item 7: `gpuplan diff --format markdown` writes a table for a pull-request comment, and
/// the change in the budget with the fleet comes in parts that add up to it (a variance bridge),
/// in the terminal and the Markdown alike. Startup against itself with the RTX 4090 at ¥1,800 a
/// month (was ¥1,500), chat-api at 200 concurrent (was 60) and lora-experiments' window in
/// chat-api's peak (09-21), by hand:
///   chat-api   4 × RTX 4090 monthly ¥6,000 → 2 × A100-80G monthly at ¥6,500 = ¥13,000: +¥7,000
///   case-4k    its base of 2 monthly 4090s × ¥300 more                            +¥600
///   case-8k    4 monthly 4090s × ¥300 more                                        +¥1,200
///   workloads' TCO                                                              +¥8,800.00
///   trial reserve, 10% of the workloads' change                                  +¥880.00
///   safety margin, 20% of (8,800 + 880)                                        +¥1,936.00
///   fleet saving lost (lora-experiments cannot run in chat-api's peak)            +¥308.33
///   budget with the fleet ¥44,562.11 → ¥56,486.44                             +¥11,924.33
#[test]
fn a_markdown_diff_gives_the_changed_workloads_and_the_change_in_parts() {
    let d = tempdir();
    std::fs::copy(repo("samples/startup.xlsx"), d.path().join("s.xlsx")).unwrap();
    gpuplan(
        d.path(),
        &["calc", "s.xlsx", "-q", "-o", "a.xlsx", "--json", "a.json"],
    )
    .ok();
    gpuplan(
        d.path(),
        &[
            "calc",
            "s.xlsx",
            "-q",
            "-o",
            "b.xlsx",
            "--json",
            "b.json",
            "--set",
            "gpu:RTX 4090.monthly=1800",
            "--set",
            "chat-api.concurrency=200",
            "--set",
            "lora-experiments.window=09-21",
        ],
    )
    .ok();
    let md = gpuplan(
        d.path(),
        &["diff", "a.json", "b.json", "--format", "markdown"],
    );
    md.ok();
    for line in [
        "Budget with the fleet: **¥44,562.11 → ¥56,486.44** (+¥11,924.33)",
        "| Workload | Before | After | TCO before | TCO after | Change |",
        "|---|---|---|---:|---:|---:|",
        "| chat-api | RTX 4090 @ example × 4 monthly | A100-80G @ example × 2 monthly | ¥6,000.00 | ¥13,000.00 | +¥7,000.00 |",
        "| case-4k | RTX 4090 @ example × 4 mixed | RTX 4090 @ example × 4 mixed | ¥4,267.36 | ¥4,867.36 | +¥600.00 |",
        "| case-8k | RTX 4090 @ example × 4 monthly | RTX 4090 @ example × 4 monthly | ¥6,000.00 | ¥7,200.00 | +¥1,200.00 |",
        "| workloads' TCO | +¥8,800.00 |",
        "| trial reserve and ops | +¥880.00 |",
        "| safety margin | +¥1,936.00 |",
        "| fleet saving | +¥308.33 |",
        "| **budget with the fleet** | **+¥11,924.33** |",
        "- `workloads.chat-api.concurrency`: 60 → 200",
    ] {
        assert!(md.stdout.lines().any(|l| l == line), "{line}\n{}", md.stdout);
    }
    // Unchanged workloads are left out of the comment.
    assert!(!md.stdout.contains("| comfyui |"), "{}", md.stdout);
    // The terminal table gives the same parts.
    let table = gpuplan(d.path(), &["diff", "a.json", "b.json"]);
    table.ok();
    assert!(table.stdout.contains(
        "the change in parts:\n  workloads' TCO: +¥8,800.00\n  trial reserve and ops: +¥880.00\n  safety margin: +¥1,936.00\n  fleet saving: +¥308.33\n  budget with the fleet: +¥11,924.33\n"
    ), "{}", table.stdout);
    // calc --compare: the Diff tab carries the parts too.
    gpuplan(
        d.path(),
        &[
            "calc",
            "s.xlsx",
            "-q",
            "-o",
            "c.xlsx",
            "--compare",
            "a.json",
            "--set",
            "gpu:RTX 4090.monthly=1800",
            "--set",
            "chat-api.concurrency=200",
            "--set",
            "lora-experiments.window=09-21",
        ],
    )
    .ok();
    // Page 1 gives the parts on one line under the change.
    let summary = read_sheet(&d.path().join("c.xlsx"), "Summary");
    let parts = summary
        .iter()
        .find(|r| r[0] == calamine::Data::String("  In parts".into()))
        .map(|r| r[1].to_string())
        .unwrap_or_default();
    assert_eq!(
        parts,
        "workloads +¥8,800.00, reserve and ops +¥880.00, margin +¥1,936.00, fleet +¥308.33: +¥11,924.33 (the Diff tab)"
    );
    let tab = read_sheet(&d.path().join("c.xlsx"), "Diff");
    for (label, want) in [
        ("  Of it: the workloads' TCO", 8_800.0),
        ("  Of it: trial reserve and ops", 880.0),
        ("  Of it: safety margin", 1_936.0),
        ("  Of it: fleet saving", 308.33),
        ("  The parts together", 11_924.33),
    ] {
        let got = value_right_of(&tab, label).unwrap_or(f64::NAN);
        assert!((got - want).abs() < 0.001, "{label}: {got}");
    }
}

//! The fleet (#33): jobs on the idle hours of monthly service cards, services sharing a card,
//! the Fleet tab, the Summary's and the terminal's lines, JSON `fleet`, and the Workloads
//! columns `window` and `peak_window`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use calamine::DataType;
use common::*;
use std::path::Path;

/// Copies `samples/SAMPLE.xlsx` into `dir` as `NAME.xlsx` (to run more on it), plans it with
/// `EXTRA…` into `NAME.plan.xlsx`, and returns the JSON.
fn sample_json(dir: &Path, sample: &str, name: &str, extra: &[&str]) -> serde_json::Value {
    let input = format!("{name}.xlsx");
    std::fs::copy(repo(&format!("samples/{sample}.xlsx")), dir.join(&input)).unwrap();
    calc_json(dir, &input, &format!("{name}.plan.xlsx"), extra)
}

/// A bad window is refused with its cell, exit 2, nothing written.
#[test]
fn a_window_that_is_not_hours_is_refused_with_its_cell() {
    let b = team()
        .set("Workloads", 0, 11, Some(s("window")))
        .set("Workloads", 0, 12, Some(s("peak_window")))
        .set("Workloads", 1, 11, Some(s("nightly")))
        .set("Workloads", 2, 12, Some(s("9-25")));
    refused_book(
        b,
        &[
            "Workloads!L2: window must be hours of the day as from-to (22-07: 22:00 to 07:00), found \"nightly\"",
            "Workloads!M3: peak_window must be hours of the day as from-to",
        ],
    );
}

/// The startup sample: chat-api (4 monthly RTX 4090s, two instances of two cards, 60
/// concurrent a replica) peaks 09-21 and needs off-peak one replica for its 20 concurrent:
/// ceil(20 / 60) = 1 replica × 2 cards, so 2 cards are idle 21-09. lora-experiments (one RTX
/// 4090, 19.6 GiB ≤ 24) runs 120 h a month in 22-07: 120 / (730 / 24) = 3.945 h a night, within
/// the 9 hours. It runs there for ¥0 GPU cost: its on-demand ¥2.5 × (120 h + 10 starts × 20 min
/// cold start) = ¥308.33 is saved; the budget ¥44,870.44 becomes ¥44,562.11.
#[test]
fn startup_lora_runs_on_the_chat_cards_at_night() {
    let d = tempdir();
    let j = sample_json(d.path(), "startup", "s", &[]);
    let f = &j["fleet"];
    // 2.5 × 123.333… h = ¥308.333…: ¥308.33 to the cent.
    let saving = 308.33;
    assert!(close(f["saving"].as_f64().unwrap(), saving), "{f}");
    let with_margin = j["totals"]["total_with_margin"].as_f64().unwrap();
    assert!(close(with_margin, 44_870.44), "{with_margin}");
    assert!(close(f["budget"].as_f64().unwrap(), with_margin - saving));
    let card = &f["cards"][0];
    assert_eq!(card["gpu"], "RTX 4090 @ example");
    assert_eq!(card["cards"], 4);
    assert_eq!(card["sharing"], "idle_hours");
    let chat = &card["workloads"][0];
    assert_eq!(chat["name"], "chat-api");
    let busy: Vec<f64> = chat["hours"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let want: Vec<f64> = (0..24)
        .map(|h| if (9..21).contains(&h) { 4.0 } else { 2.0 })
        .collect();
    assert_eq!(busy, want);
    let lora = &card["workloads"][1];
    assert_eq!(
        (lora["name"].as_str(), lora["role"].as_str()),
        (Some("lora-experiments"), Some("job"))
    );
    let hours: Vec<f64> = lora["hours"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    // Its 120 hours over the schedule's 30 whole days (730 h / 24, rounded down): 4 h a day
    // on average.
    assert!(close(hours.iter().sum::<f64>(), 120.0 / 30.0));
    // The schedule: days start at 21:00 (when chat-api's idle cards rise); the day types'
    // lora hours × their days add up to its 120 hours, within 30 days.
    let sched = &card["schedule"];
    assert_eq!(sched["first_hour"], 21);
    assert_eq!(sched["days_in_month"], 30);
    let (mut days, mut lora_hours) = (0, 0);
    for t in sched["day_types"].as_array().unwrap() {
        let d = t["days"].as_u64().unwrap();
        days += d;
        let held = t["cards"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c.as_array().unwrap())
            .filter(|x| x.as_str() == Some("lora-experiments"))
            .count() as u64;
        lora_hours += d * held;
    }
    assert_eq!((days, lora_hours), (30, 120));
    for (h, v) in hours.iter().enumerate() {
        assert!(*v == 0.0 || !(7..22).contains(&h), "hour {h}: {v}");
    }
    assert_eq!(f["solver"]["optimal"], true);
    // A 12-hour run (120 h over 10 runs) is longer than the 9 hours of 22-07: it checkpoints
    // (checkpoint_min 30), so it is split across nights, and a note says so.
    let warned = j["warnings"].as_array().unwrap().iter().any(|w| {
        w["message"]
            .as_str()
            .unwrap()
            .contains("lora-experiments: a run of 12 h is split across days on chat-api's idle cards (at most 9 h in one day)")
    });
    assert!(warned, "{}", j["warnings"]);

    // The Fleet tab: the card, its two workloads, the 24 hours; the Summary's two lines.
    let plan = d.path().join("s.plan.xlsx");
    assert!(sheet_names(&plan).contains(&"Fleet".to_string()));
    let rows = read_sheet(&plan, "Fleet");
    assert_eq!(rows[0][6].get_string(), Some("00"));
    assert_eq!(rows[0][29].get_string(), Some("23"));
    assert_eq!(rows[1][0].get_string(), Some("RTX 4090 @ example"));
    assert_eq!(rows[1][2].get_string(), Some("chat-api"));
    assert_eq!(rows[1][6].get_float(), Some(2.0));
    assert_eq!(rows[1][6 + 12].get_float(), Some(4.0));
    assert_eq!(rows[2][2].get_string(), Some("lora-experiments"));
    assert!(close(rows[2][5].get_float().unwrap(), saving));
    let summary = read_sheet(&plan, "Summary");
    let line = value_right_of(&summary, "Fleet saving (Fleet tab, appendix)").unwrap();
    assert!(close(line, -saving), "{line}");
    let budget = value_right_of(&summary, "Budget with the fleet").unwrap();
    assert!(close(budget, with_margin - saving), "{budget}");
}

/// `fleet` no: each workload on its own cards, no Fleet tab, JSON `fleet` null, and the same
/// totals as with the fleet, which only adds its saving beside them.
#[test]
fn fleet_no_plans_each_workload_alone() {
    let d = tempdir();
    let j = sample_json(d.path(), "startup", "s", &["--set", "fleet=no"]);
    assert!(j["fleet"].is_null());
    let with = sample_json(d.path(), "startup", "w", &[]);
    let total = |j: &serde_json::Value| j["totals"]["total_with_margin"].as_f64().unwrap();
    assert_eq!(total(&j), total(&with));
    assert!(close(
        with["fleet"]["budget"].as_f64().unwrap(),
        total(&with) - with["fleet"]["saving"].as_f64().unwrap()
    ));
    assert!(!sheet_names(&d.path().join("s.plan.xlsx")).contains(&"Fleet".to_string()));
    // By default (fleet yes) the terminal says the saving and the budget with it.
    let r = gpuplan(d.path(), &["calc", "s.xlsx", "-o", "t.xlsx"]);
    r.ok();
    let out = format!("{}{}", r.stdout, r.stderr);
    assert!(
        out.contains("budget with the fleet") && out.contains("¥44,562.11"),
        "{out}"
    );
}

/// The team sample has nothing to share: its total stays ¥2,268.96 and it has no fleet.
#[test]
fn team_sample_has_no_fleet_and_keeps_its_total() {
    let d = tempdir();
    let j = sample_json(d.path(), "team", "t", &[]);
    assert!(j["fleet"].is_null());
    assert!(close(
        j["totals"]["total_with_margin"].as_f64().unwrap(),
        2268.96
    ));
}

/// The portfolio sample: video-clips (two on-demand RTX 4090 48GB, 62.5 h a month) runs in
/// 22-08 on moe-api's cards idle off-peak: moe-api (4 monthly cards, two instances of two, 48
/// concurrent a replica) needs ceil(16 / 48) = 1 replica × 2 cards outside 09-22, so 2 cards are
/// idle. Saved: 2 cards × ¥3.8 × (62.5 h + 20 min of cold start) = ¥477.53.
#[test]
fn portfolio_video_runs_on_the_moe_cards_at_night() {
    let d = tempdir();
    let j = sample_json(d.path(), "portfolio-2026", "p", &[]);
    let f = &j["fleet"];
    // 2 cards × ¥3.8 × (62.5 h + 20 min) = ¥477.533…: ¥477.53 to the cent.
    let saving = 477.53;
    assert!(close(f["saving"].as_f64().unwrap(), saving), "{f}");
    assert_eq!(f["cards"][0]["workloads"][0]["name"], "moe-api");
    assert_eq!(f["cards"][0]["workloads"][1]["name"], "video-clips");
}

/// A budget of ¥30,000 on the startup sample for 2027-01: the budget with the fleet, ¥44,870.44
/// − ¥308.33 = ¥44,562.11, is over by ¥14,562.11. Nothing milder than postponing closes it:
/// every workload's largest cut short of that together saves ¥11,239 (chat-api to the API
/// ¥4,570.00, case-8k's spare ¥3,960.00, case-4k's ¥1,980.00, comfyui's ¥684.87, lora on spot
/// ¥44.39; tests/cuts.rs works them). Postponing full-finetune-20b (8 A100-80G on demand at ¥10
/// × (200 h + 4 starts × 20 min) = ¥16,106.67 of GPUs, with the trial reserve 10% of it, plus
/// 500 GB × ¥0.5 of storage, all with the safety margin 20%: (16,106.67 × 1.1 + 250) × 1.2 =
/// ¥21,560.80) alone meets it, at ¥23,001.31. A warning says so: exit 0, and 3 with --strict.
#[test]
fn startup_over_a_budget_of_30000_postpones_the_full_finetune() {
    let d = tempdir();
    let j = sample_json(
        d.path(),
        "startup",
        "s",
        &[
            "--set",
            "budget_monthly=30000",
            "--set",
            "budget_month=2027-01",
        ],
    );
    let c = &j["cuts"];
    let planned = 44_870.436_666_666_67 - 2.5 * (120.0 + 10.0 * 20.0 / 60.0);
    assert!(close(c["planned"].as_f64().unwrap(), planned), "{c}");
    assert_eq!(c["budget"], 30000.0);
    assert_eq!(c["month"], "2027-01");
    assert_eq!(c["met"], true);
    let cuts = c["cuts"].as_array().unwrap();
    let chosen: Vec<_> = cuts.iter().filter(|c| c["chosen"] == true).collect();
    assert_eq!(chosen.len(), 1, "{c}");
    assert_eq!(chosen[0]["workload"], "full-finetune-20b");
    assert_eq!(chosen[0]["action"], "postpone");
    assert_eq!(chosen[0]["set"][0], "full-finetune-20b.start_month=2027-02");
    let gpus = 8.0 * 10.0 * (200.0 + 4.0 * 20.0 / 60.0);
    let saving = (gpus * 1.1 + 500.0 * 0.5) * 1.2;
    assert!(close(chosen[0]["saving"].as_f64().unwrap(), saving));
    assert!(close(
        chosen[0]["total_after"].as_f64().unwrap(),
        planned - saving
    ));
    // The Plan tab's section, and the exit codes.
    let rows = read_sheet(&d.path().join("s.plan.xlsx"), "Plan");
    let at = rows
        .iter()
        .position(|r| {
            r[0].get_string() == Some("full-finetune-20b")
                && r[2].get_string().is_some_and(|t| t.starts_with("postpone"))
        })
        .expect("the cut's row");
    assert!(close(rows[at][1].get_float().unwrap(), saving));
    assert_eq!(rows[at][5].get_string(), Some("yes"));
    assert_eq!(
        rows[at][7].get_string(),
        Some("--set full-finetune-20b.start_month=2027-02")
    );
    let r = gpuplan(
        d.path(),
        &[
            "calc",
            "s.xlsx",
            "-o",
            "b.xlsx",
            "--strict",
            "--set",
            "budget_monthly=30000",
            "--set",
            "budget_month=2027-01",
        ],
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    let out = format!("{}{}", r.stdout, r.stderr);
    assert!(
        out.contains("over the budget ¥30,000.00 for 2027-01 by ¥14,562.11"),
        "{out}"
    );
    // Within the budget: the month's budget, no cuts.
    let j = calc_json(
        d.path(),
        "s.xlsx",
        "c.plan.xlsx",
        &["--set", "budget_monthly=50000"],
    );
    assert_eq!(j["cuts"]["met"], true);
    assert!(close(j["cuts"]["planned"].as_f64().unwrap(), planned));
    assert_eq!(j["cuts"]["cuts"].as_array().map(Vec::len), Some(0));
}

/// A lower precision, re-planned: the portfolio's moe-api (Qwen3-30B-A3B in bf16, 48
/// concurrent) without redundancy takes one replica of 2 RTX 4090 48GB at ¥2,300 a month each;
/// in int4 (30.5 B parameters × 0.5 byte ≈ 15.5 GiB of weights, 36.7 GiB required with the KV
/// cache and headroom, within one card's 47.99) the replica fits one card: ¥2,300 of GPUs
/// saved, with its trial reserve (10%) and safety margin (20%) ¥2,300 × 1.1 × 1.2 = ¥3,036.00,
/// enough for the ¥1,412.71 over; in fp8 or int8 it still needs two cards, so int4 is the
/// mildest cut that meets the budget.
#[test]
fn a_lower_precision_on_fewer_cards_is_a_cut() {
    let d = tempdir();
    let j = sample_json(
        d.path(),
        "portfolio-2026",
        "p",
        &[
            "--set",
            "budget_monthly=13000",
            "--set",
            "fleet=no",
            "--set",
            "*.redundancy=0",
        ],
    );
    let first = &j["cuts"]["cuts"][0];
    assert_eq!(first["workload"], "moe-api", "{}", j["cuts"]);
    assert_eq!(first["chosen"], true);
    assert_eq!(first["action"], "int4");
    assert!(close(first["saving"].as_f64().unwrap(), 2300.0 * 1.1 * 1.2));
    assert!(first["change"]
        .as_str()
        .unwrap()
        .starts_with("serve in int4"));
    assert_eq!(first["set"][0], "moe-api.precision=int4");
}

/// A budget that is not an amount is refused with its cell.
#[test]
fn a_budget_that_is_not_an_amount_is_refused() {
    let d = tempdir();
    std::fs::copy(repo("samples/team.xlsx"), d.path().join("t.xlsx")).unwrap();
    gpuplan(
        d.path(),
        &["calc", "t.xlsx", "--set", "budget_monthly=lots"],
    )
    .fails_with(
        2,
        &["budget_monthly must be an amount a month (0 or more), or blank for no budget"],
    );
}

/// The downgrade plan speaks the output's language: the portfolio over a budget of ¥20,000 for
/// 2027-01, in Chinese. The budget with the fleet, ¥26,079.18 (samples/README), is over by
/// ¥6,079.18. Dropping the reasoning service's spare (4 monthly RTX 4090 48GB at ¥2,300 =
/// ¥9,200 of GPUs over 2 instances, so one instance is ¥4,600.00 of GPUs, with the trial reserve
/// 10% and the safety margin 20%: ¥4,600 × 1.1 × 1.2 = ¥6,072.00) leaves ¥20,007.18, ¥7.18 over;
/// the mildest cut that closes the rest is the QLoRA job on spot: its H100's on-demand
/// ¥184.73 against the ¥112.00 of spot (its cost_spot on the Candidates tab), (184.73 − 112.00)
/// × 1.1 × 1.2 = ¥96.01. One spot cut and one spare is less harm than any cut of harm 4 or
/// worse alone (cut_order: spot, fp8, int8, no_redundancy, …; fp8 on moe-api saves ¥3,036.00,
/// too little). The same cut in English names one instance in the singular, the budget warning
/// writes money, and the Summary's approval block names the fleet's budget and the ceiling met.
#[test]
fn the_cuts_are_in_chinese_with_lang_zh_and_one_instance_is_singular() {
    let d = tempdir();
    std::fs::copy(repo("samples/portfolio-2026.xlsx"), d.path().join("p.xlsx")).unwrap();
    let zh = gpuplan(
        d.path(),
        &[
            "calc",
            "p.xlsx",
            "-o",
            "zh.xlsx",
            "--lang",
            "zh",
            "--set",
            "budget_monthly=20000",
            "--set",
            "budget_month=2027-01",
        ],
    );
    zh.ok();
    assert!(
        zh.stdout
            .contains("  1. qlora-qwen3-8b: 改用竞价（Spot）实例: -¥96.01"),
        "{}",
        zh.stdout
    );
    assert!(
        zh.stdout.contains(
            "  2. reasoning: 只运行 1 个实例而非 2 个，不留备用: -¥6,072.00 → ¥19,911.17 (--set reasoning.redundancy=0; 风险: 没有备用实例"
        ),
        "{}",
        zh.stdout
    );
    assert!(
        zh.stdout
            .contains("2027-01 的预算 ¥20,000.00 超出 ¥6,079.18"),
        "{}",
        zh.stdout
    );
    let rows = read_sheet(&d.path().join("zh.xlsx"), "方案");
    assert!(
        rows.iter().any(|r| r[0].get_string() == Some("reasoning")
            && r[2].get_string() == Some("只运行 1 个实例而非 2 个，不留备用")
            && r[5].get_string() == Some("是")),
        "no Chinese cut row on 方案"
    );
    let en = gpuplan(
        d.path(),
        &[
            "calc",
            "p.xlsx",
            "-o",
            "en.xlsx",
            "--set",
            "budget_monthly=20000",
            "--set",
            "budget_month=2027-01",
        ],
    );
    en.ok();
    assert!(
        en.stdout
            .contains("reasoning: run 1 instance instead of 2, without a spare: -¥6,072.00"),
        "{}",
        en.stdout
    );
    // Page 1 says it too: ¥26,079.18 − ¥96.01 − ¥6,072.00 = ¥19,911.17.
    let summary = read_sheet(&d.path().join("en.xlsx"), "Summary");
    let said = |label: &str| {
        summary
            .iter()
            .find(|r| r[0].get_string() == Some(label))
            .and_then(|r| r[1].get_string().map(str::to_string))
            .unwrap_or_else(|| panic!("no {label} line on the Summary"))
    };
    assert_eq!(
        said("Over the budget ceiling"),
        "ceiling ¥20,000.00 for 2027-01, over by ¥6,079.18: the 2 cut(s) on the Plan tab bring it to \
         ¥19,911.17 — fixed at calculation"
    );
    assert_eq!(
        said("With the fleet"),
        "¥26,079.18 a month, ¥477.53 saved by sharing cards (the Fleet tab, in the appendix) — fixed at calculation"
    );
}

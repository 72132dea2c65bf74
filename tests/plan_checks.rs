//! No wrong number in silence (issue #13's hostile review): a training month larger than one
//! GPU's hours is split into replicas, a division by zero is an error rather than a skipped
//! value, a redundancy of 5 meant as 5% is warned of, and a window that cannot hold a job's
//! hours, or is set on an online service, is a warning at its cell with the figures.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;

/// The warnings of a plan's JSON that sit at `at`, as (severity, message).
fn warnings_at(j: &serde_json::Value, at: &str) -> Vec<(String, String)> {
    j["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["where"] == at)
        .map(|w| {
            (
                w["severity"].as_str().unwrap().to_string(),
                w["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_training_month_of_3052_gpu_hours_is_five_replicas_not_one_gpu_at_418_percent() {
    let d = tempdir();
    let p = d.path().join("t.xlsx");
    Book::new()
        .sheet(
            "Workloads",
            &["name", "kind", "params_b", "train_tokens_m", "gpu"],
            vec![vec![
                Some(s("pretrain")),
                Some(s("pretrain")),
                Some(n(1.0)),
                Some(n(200_000.0)),
                Some(s("A100-80G")),
            ]],
        )
        .write(&p);
    let json = calc_json(d.path(), "t.xlsx", "o.xlsx", &[]);
    let w = &json["workloads"][0];
    // 6 × 1e9 parameters × 2e11 tokens = 1.2e21 FLOP; at 312 TFLOPS × mfu 0.35 = 1.092e14 FLOP/s
    // that is 1.0989e7 s = 3,052.5 GPU-hours; ceil(3,052.5 / 730) = 5 one-GPU replicas, each
    // training 3,052.5 / 5 = 610.5 h: utilization 610.5 / 730 = 83.6%.
    let v = &w["values"];
    assert!(close(
        v["train_gpu_hours"].as_f64().unwrap(),
        1.2e21 / 1.092e14 / 3600.0
    ));
    assert_eq!(v["replicas_for_hours"].as_f64(), Some(5.0));
    assert_eq!(w["gpus_total"].as_f64(), Some(5.0));
    assert!(close(
        v["run_hours"].as_f64().unwrap(),
        3052.5 / 5.0 * (1.2e21 / 1.092e14 / 3600.0 / 3052.5)
    ));
    let u = w["utilization"].as_f64().unwrap();
    assert!((u - 610.5 / 730.0).abs() < 1e-3, "{u}");
    // A user's hours over the month's are said, not hidden.
    let p = d.path().join("h.xlsx");
    Book::new()
        .sheet(
            "Workloads",
            &["name", "kind", "vram_gib", "hours_per_month"],
            vec![vec![
                Some(s("job")),
                Some(s("batch")),
                Some(n(8.0)),
                Some(n(744.0)),
            ]],
        )
        .write(&p);
    let json = calc_json(
        d.path(),
        "h.xlsx",
        "o.xlsx",
        &["--set", "hours_in_month=720"],
    );
    assert!(json["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["message"]
            .as_str()
            .unwrap()
            .contains("job runs 103% of the month on each instance")));
}

// 13. An error inside max, min or fits is an error naming formula, workload and GPU.

#[test]
fn a_division_by_zero_inside_max_or_fits_is_an_error_not_a_skipped_value() {
    let d = tempdir();
    let p = with_formulas(
        &d,
        &[(
            "cost_monthly",
            "gpus_total * price_monthly + max(0, 1 / (concurrency - concurrency))",
        )],
    );
    refused(
        &p,
        &[
            &format!(
                "{} (cost_monthly): has no value",
                formula_cell(Some("cost_monthly"))
            ),
            "for workload",
        ],
    );
    let d = tempdir();
    let fits = gpuplan::catalog::formulas()
        .into_iter()
        .find(|f| f.name == "fits")
        .unwrap()
        .expression;
    let p = with_formulas(
        &d,
        &[(
            "fits",
            &format!("{fits} && 1 / (concurrency - concurrency) > 0"),
        )],
    );
    refused(
        &p,
        &[&format!(
            "{} (fits): has no value",
            formula_cell(Some("fits"))
        )],
    );
}

// 14. A decimal comma is refused, not read as a thousands separator.

#[test]
fn a_redundancy_of_5_meant_as_5_percent_is_a_warning() {
    let d = tempdir();
    let p = d.path().join("b.xlsx");
    team().set("Workloads", 2, 6, Some(n(5.0))).write(&p);
    let json = calc_json(d.path(), "b.xlsx", "o.xlsx", &["--set", "safety_margin=5"]);
    let messages: Vec<&str> = json["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["message"].as_str().unwrap())
        .collect();
    assert!(
        messages.contains(&"redundancy is 5, that is 500%; if you meant 5%, write 0.05 or 5%"),
        "{messages:?}"
    );
    assert!(
        messages.contains(&"safety_margin is 5, that is 500%; if you meant 5%, write 0.05 or 5%"),
        "{messages:?}"
    );
}

/// #44 item 3: a `window` of 09-18 on an online service was dropped in silence, the service
/// planned on its hours (730 h when blank; qa-api's 300 here). It is a warning at the window's
/// cell naming peak_window and hours_per_month; the exit code is 0, and 3 with --strict.
#[test]
fn a_window_on_an_online_service_is_a_warning_at_its_cell() {
    let d = tempdir();
    // Column L (index 11) is window; row 3 is qa-api, online inference.
    let book =
        team()
            .set("Workloads", 0, 11, Some(s("window")))
            .set("Workloads", 2, 11, Some(s("09-18")));
    let path = book_with(&d, "b.xlsx", book);
    let before = bytes(&path);
    let j = calc_json(d.path(), "b.xlsx", "out.json", &[]);
    let at = warnings_at(&j, "Workloads!L3");
    assert_eq!(at.len(), 1, "{at:?}");
    assert_eq!(at[0].0, "warning");
    assert!(
        at[0].1.starts_with("qa-api is an online service, so its window 09-18 is not used: a window says when a job may run, and a service is planned on its hours_per_month, 300 h")
            && at[0].1.contains("peak_window")
            && at[0].1.contains("only 9 h a day"),
        "{}",
        at[0].1
    );
    gpuplan(d.path(), &["calc", "b.xlsx", "-o", "s.xlsx", "--strict"]).fails_with(3, &[]);
    assert_eq!(bytes(&path), before, "the input changed");
}

/// #44 item 4: a job of 700 h a month in the window 22-07 was planned without a word, though
/// the window holds at most 9 h a day × 30.4167 days (730 / 24) = 273.75 h. A warning at the
/// row with those figures; a job whose hours fit (16 h) gets none.
#[test]
fn a_job_of_more_hours_than_its_window_holds_is_a_warning_with_the_figures() {
    let d = tempdir();
    // Column L (index 11) is window; row 2 is lora-finetune (16 h), row 4 preprocess (E4 hours).
    let book = team()
        .set("Workloads", 0, 11, Some(s("window")))
        .set("Workloads", 1, 11, Some(s("22-07")))
        .set("Workloads", 3, 11, Some(s("22-07")))
        .set("Workloads", 3, 4, Some(n(700.0)));
    let path = book_with(&d, "b.xlsx", book);
    let before = bytes(&path);
    let j = calc_json(d.path(), "b.xlsx", "out.json", &[]);
    // 22-07 is 22, 23, 0, …, 6: 9 hours; 9 × 730 / 24 = 273.75.
    let at = warnings_at(&j, "Workloads!A4");
    assert!(
        at.iter().any(|(sev, m)| sev == "warning"
            && m.starts_with("preprocess runs 700 h a month on each instance, but its window 22-07 allows at most 9 h × 30.4167 days = 273.75 h")),
        "{at:?}"
    );
    let lora = warnings_at(&j, "Workloads!A2");
    assert!(!lora.iter().any(|(_, m)| m.contains("window")), "{lora:?}");
    assert_eq!(bytes(&path), before, "the input changed");
}

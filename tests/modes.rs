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

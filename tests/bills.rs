//! Budget against actual (#21, item 3): a bill with more hours than planned and a higher price,
//! the difference split by cause and worked by hand; a workload the plan lacks, one not billed;
//! only the last month counts; bad lines named with their line.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use calamine::{Data, DataType};
use common::*;

const BILL: &str = "\
month,workload,provider,gpu,hours,amount
2026-10,qa-api,seed 001,A10,999,9999
2026-11,qa-api,seed 001,A10,200,1120
2026-11,qa-api,seed 001,A10,160,896
2026-11,lora-finetune,seed 001,RTX 4090,16,96
2026-11,demo,seed 001,RTX 4090,10,50
";

#[test]
fn the_last_months_bill_is_split_into_hours_and_price() {
    let d = tempdir();
    team().write(&d.path().join("b.xlsx"));
    std::fs::write(d.path().join("bill.csv"), BILL).unwrap();
    let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &["--bills", "bill.csv"]);
    let b = &j["bills"];
    assert_eq!(b["month"], "2026-11");
    let row = |name: &str| {
        b["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["workload"] == name)
            .unwrap()
            .clone()
    };
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    // qa-api: planned 300 GPU-hours on the A10 at ¥5 = ¥1,500; billed 200 + 160 = 360 h for
    // ¥1,120 + ¥896 = ¥2,016 (¥5.60 an hour). Difference ¥516: 60 more hours × ¥5 = ¥300, and
    // 360 h × ¥0.60 = ¥216 of price.
    let qa = row("qa-api");
    assert!(close(f(&qa["planned_hours"]), 300.0));
    assert!(close(f(&qa["planned_cost"]), 1500.0));
    assert!(close(f(&qa["billed_hours"]), 360.0));
    assert!(close(f(&qa["billed"]), 2016.0));
    assert!(close(f(&qa["difference"]), 516.0));
    assert!(close(f(&qa["hours_effect"]), 300.0));
    assert!(close(f(&qa["price_effect"]), 216.0));
    assert_eq!(qa["cause"], "more hours and a higher price");
    // lora-finetune: 2 runs × 8 h at ¥6 = ¥96, billed so.
    assert_eq!(row("lora-finetune")["cause"], "as planned");
    // preprocess (¥32 on spot) has no line this month; demo is not in the plan.
    let pre = row("preprocess");
    assert_eq!(pre["cause"], "not billed");
    assert!(close(f(&pre["difference"]), -32.0));
    let demo = row("demo");
    assert_eq!(demo["cause"], "unplanned workload");
    assert!(demo["planned_cost"].is_null());
    assert!(close(f(&demo["difference"]), 50.0));
    // Totals: planned ¥96 + ¥1,500 + ¥32 = ¥1,628; billed ¥96 + ¥2,016 + ¥50 = ¥2,162.
    assert!(close(f(&b["planned"]), 1628.0));
    assert!(close(f(&b["billed"]), 2162.0));
    // The Actuals tab holds the same, without --usage.
    let tab = read_sheet(&d.path().join("b.plan.xlsx"), "Actuals");
    let r = tab
        .iter()
        .find(|r| r[0] == Data::String("qa-api".into()))
        .unwrap();
    assert!(close(r[5].get_float().unwrap(), 516.0));
    assert_eq!(r[8], Data::String("more hours and a higher price".into()));
    assert!(tab
        .iter()
        .any(|r| r[0] == Data::String("The 2026-11 bill against the plan".into())));
}

#[test]
fn a_bad_bill_line_is_named_with_its_line() {
    let d = tempdir();
    team().write(&d.path().join("b.xlsx"));
    std::fs::write(
        d.path().join("bill.csv"),
        "month,workload,provider,gpu,hours,amount\n2026-11,qa-api,x,A10,lots,5\n",
    )
    .unwrap();
    gpuplan(d.path(), &["calc", "b.xlsx", "--bills", "bill.csv"]).fails_with(
        2,
        &["bill.csv:2: expected a month (YYYY-MM), a workload, and hours and an amount ≥ 0"],
    );
    std::fs::write(d.path().join("bill.csv"), "month,workload,amount\n").unwrap();
    gpuplan(d.path(), &["calc", "b.xlsx", "--bills", "bill.csv"])
        .fails_with(2, &["bill.csv:1: the header lacks provider, gpu, hours"]);
}

/// A bills export in the columns `calc --bills` reads.
const BILLS: &str =
    "month,workload,provider,gpu,hours,amount\n2026-01,qa-api,seed 001,A10,300,1500\n";

#[test]
fn a_bills_export_named_as_an_output_is_refused_and_kept() {
    let d = sample_team_dir();
    let bills = d.path().join("bills.csv");
    std::fs::write(&bills, BILLS).unwrap();
    for out in [&["-o", "bills.csv"][..], &["--json", "bills.csv"][..]] {
        let mut args = vec!["calc", "t.xlsx", "-q", "--bills", "bills.csv", "--force"];
        args.extend_from_slice(out);
        gpuplan(d.path(), &args).fails_with(2, &["bills.csv", "--bills"]);
        assert_eq!(std::fs::read_to_string(&bills).unwrap(), BILLS);
    }
}

#[test]
fn a_quoted_field_with_a_comma_is_one_field_in_bills_maps_and_logs() {
    let d = sample_team_dir();
    std::fs::write(
        d.path().join("bills.csv"),
        "month,workload,provider,gpu,hours,amount\n2026-01,qa-api,\"Acme Cloud, Inc.\",A10,310,1600\n",
    )
    .unwrap();
    let j = calc_json(d.path(), "t.xlsx", "p.xlsx", &["--bills", "bills.csv"]);
    // qa-api billed 310 h for ¥1,600 against 300 h × ¥5 = ¥1,500 planned: ¥100 more, of which
    // 10 h × ¥5 = ¥50 hours and 310 × (1,600 / 310 − 5) = ¥50 price.
    let qa = j["bills"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["workload"] == "qa-api")
        .unwrap();
    assert_eq!(qa["billed_hours"], 310.0);
    assert_eq!(qa["billed"], 1600.0);
    assert!(close(qa["hours_effect"].as_f64().unwrap(), 50.0));
    assert!(close(qa["price_effect"].as_f64().unwrap(), 50.0));
    // A plain log whose hostname holds a comma, and a map naming it.
    let mut log = String::from("timestamp,hostname,gpu,utilization,memory_used_mib\n");
    for m in 0..3 {
        log.push_str(&format!(
            "2026-11-02T00:0{m}:00Z,\"rack 1, node 2\",0,50,1024\n"
        ));
    }
    std::fs::write(d.path().join("l.csv"), log).unwrap();
    std::fs::write(
        d.path().join("m.csv"),
        "gpu_id,workload\n\"rack 1, node 2:0\",svc\n",
    )
    .unwrap();
    let (j, _) = usage_json(d.path(), &["l.csv", "--map", "m.csv"]);
    assert_eq!(actual(&j, "svc")["samples"], 3);
}

//! `gpuplan usage` end to end: the week of tests/fixtures/usage (scripts/make_usage_fixtures.py)
//! in each log format gives the hand-worked figures; the mapping from a workbook's Usage sheet or
//! a --map file; bad logs give an error or a warning naming the file and line.
//!
//! The fixtures' week (see the script): 7 days of samples every 60 s on two GPUs of host node1.
//! GPU 0 is busy 10 hours a day (the 600 samples from 09:00 to 18:59) at 80 % with 40 GiB used,
//! idle otherwise at 0 % with 2 GiB; GPU 1 is idle all week at 0 % with 1 GiB. By hand:
//! - each sample stands for the 60 s to the next (the last for the median, 60 s), so GPU 0 is
//!   active 600 × 60 s = 10 h a day, 70 h in the week;
//! - the logs cover 10,080 samples × 60 s = 168 h = 7 days;
//! - active hours per month: 70 × 730 / 168 = 304.1667; utilization 304.1667 / 730 = 0.416667
//!   (= 70 / 168); busy utilization 0.80;
//! - memory peak 40,960 MiB = 40 GiB; 95th percentile: 4,200 samples at 40 GiB and 5,880 at
//!   2 GiB, the sample of rank ⌈0.95 × 10,080⌉ = 9,576 > 5,880 is at 40 GiB.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;
use serde_json::Value;
use std::path::PathBuf;

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number in {v:#}"))
}

#[track_caller]
fn assert_close(v: &Value, key: &str, want: f64) {
    let got = num(v, key);
    assert!(close(got, want), "{key}: {got}, expected {want}\n{v:#}");
}

/// The hand-worked week (module comment), GPU 0 as lora-finetune and GPU 1 as qa-api.
#[track_caller]
fn assert_week(j: &Value) {
    let busy = actual(j, "lora-finetune");
    assert_eq!(busy["gpus"], 1);
    assert_eq!(busy["samples"], 10_080);
    assert_close(busy, "active_hours", 70.0);
    assert_close(busy, "active_hours_month", 70.0 * 730.0 / 168.0);
    assert_close(busy, "utilization", 70.0 / 168.0);
    assert_close(busy, "busy_utilization", 0.80);
    assert_close(busy, "memory_peak_gib", 40.0);
    assert_close(busy, "memory_p95_gib", 40.0);
    assert_close(busy, "days_covered", 7.0);
    let idle = actual(j, "qa-api");
    assert_eq!(idle["samples"], 10_080);
    assert_close(idle, "active_hours_month", 0.0);
    assert_close(idle, "utilization", 0.0);
    assert!(idle["busy_utilization"].is_null(), "{idle:#}");
    assert_close(idle, "memory_peak_gib", 1.0);
    assert_close(idle, "memory_p95_gib", 1.0);
    assert_close(idle, "days_covered", 7.0);
    assert_eq!(j["actuals"].as_array().unwrap().len(), 2);
}

#[test]
fn a_week_of_nvidia_smi_csv_gives_the_hand_worked_figures() {
    let d = tempdir();
    let (j, r) = usage_json(
        d.path(),
        &[
            &usage_fixture("node1.smi.csv"),
            "--map",
            &usage_fixture("map.csv"),
        ],
    );
    assert_week(&j);
    // memory.total is 81,920 MiB = 80 GiB; the GPUs as the log names them.
    assert_close(actual(&j, "lora-finetune"), "memory_total_gib", 80.0);
    assert_eq!(
        actual(&j, "lora-finetune")["gpu_ids"][0],
        "node1:0 (GPU-5f1c3a2e-8d4b-4c6f-9a1e-2b7d3c4e5f60)"
    );
    assert!(j["warnings"].as_array().unwrap().is_empty(), "{j:#}");
    assert!(!r.stderr.contains("warning"), "{}", r.stderr);
}

#[test]
fn nounits_csv_with_columns_in_another_order_gives_the_same_figures() {
    let d = tempdir();
    let (j, _) = usage_json(
        d.path(),
        &[
            &usage_fixture("node1.nounits.csv"),
            "--map",
            &usage_fixture("map.csv"),
        ],
    );
    assert_week(&j);
    // nounits with no memory.total column: unknown.
    assert!(actual(&j, "lora-finetune")["memory_total_gib"].is_null());
}

#[test]
fn a_dmon_log_with_dates_times_and_fb_gives_the_same_figures() {
    let d = tempdir();
    let (j, _) = usage_json(
        d.path(),
        &[
            &usage_fixture("node1.dmon.log"),
            "--map",
            &usage_fixture("map.csv"),
        ],
    );
    assert_week(&j);
}

#[test]
fn a_plain_csv_gives_the_same_figures() {
    let d = tempdir();
    let (j, _) = usage_json(
        d.path(),
        &[
            &usage_fixture("node1.plain.csv"),
            "--map",
            &usage_fixture("map.csv"),
        ],
    );
    assert_week(&j);
}

#[test]
fn without_a_mapping_each_gpu_is_reported_on_its_own() {
    let d = tempdir();
    let (j, _) = usage_json(d.path(), &[&usage_fixture("node1.dmon.log")]);
    let a = actual(&j, "node1:0");
    assert_close(a, "active_hours", 70.0);
    assert_close(actual(&j, "node1:1"), "memory_peak_gib", 1.0);
}

#[test]
fn a_workload_on_both_gpus_sums_gpu_hours_and_shares_the_month_between_them() {
    // Both GPUs run one workload: 70 + 0 GPU-hours in the week, 304.1667 a month; utilization
    // 304.1667 / (730 × 2) = 0.208333 (= 70 / 336). Memory: 20,160 samples, 10,080 at 1 GiB,
    // 5,880 at 2 GiB, 4,200 at 40 GiB; rank ⌈0.95 × 20,160⌉ = 19,152 > 15,960: 40 GiB.
    let d = tempdir();
    std::fs::write(
        d.path().join("both.csv"),
        "gpu_id,workload\nnode1:0,train\nnode1:1,train\n",
    )
    .unwrap();
    let (j, _) = usage_json(
        d.path(),
        &[&usage_fixture("node1.smi.csv"), "--map", "both.csv"],
    );
    let a = actual(&j, "train");
    assert_eq!(a["gpus"], 2);
    assert_eq!(a["samples"], 20_160);
    assert_close(a, "active_hours_month", 70.0 * 730.0 / 168.0);
    assert_close(a, "utilization", 70.0 / 336.0);
    assert_close(a, "busy_utilization", 0.80);
    assert_close(a, "memory_peak_gib", 40.0);
    assert_close(a, "memory_p95_gib", 40.0);
    assert_close(a, "days_covered", 7.0);
}

#[test]
fn a_sample_exactly_at_the_threshold_is_idle() {
    // 80 % is not above 0.8: no active hour; at 0.79 the week's 70 hours are back.
    let d = tempdir();
    let smi = usage_fixture("node1.smi.csv");
    let map = usage_fixture("map.csv");
    let (j, _) = usage_json(
        d.path(),
        &[&smi, "--map", &map, "--set", "usage_active_threshold=0.8"],
    );
    let a = actual(&j, "lora-finetune");
    assert_close(a, "active_hours", 0.0);
    assert!(a["busy_utilization"].is_null());
    assert_eq!(j["assumptions"]["usage_active_threshold"], 0.8);
    let (j, _) = usage_json(
        d.path(),
        &[&smi, "--map", &map, "--set", "usage_active_threshold=79%"],
    );
    assert_close(actual(&j, "lora-finetune"), "active_hours", 70.0);
    // A relative change scales the default: 0.1 × 8 = 0.8, at which 80 % is idle again.
    let (j, _) = usage_json(
        d.path(),
        &[&smi, "--map", &map, "--set", "usage_active_threshold*=8"],
    );
    assert_close(actual(&j, "lora-finetune"), "active_hours", 0.0);
    let r = gpuplan(
        d.path(),
        &["usage", &smi, "--set", "usage_active_threshold=10"],
    );
    r.fails_with(
        2,
        &["usage_active_threshold must be a number from 0 to 1, found \"10\""],
    );
    let r = gpuplan(
        d.path(),
        &["usage", &smi, "--set", "qa-api.hours_per_month=5"],
    );
    r.fails_with(2, &["usage takes assumptions only"]);
}

fn usage_book(rows: Vec<Vec<Option<V>>>) -> Book {
    team()
        .sheet("Usage", &["GPU (gpu_id)", "Workload (workload)"], rows)
        .set("Assumptions", 3, 0, Some(s("hours_in_month")))
        .set("Assumptions", 3, 1, Some(n(720.0)))
}

#[test]
fn the_usage_sheet_of_a_workbook_maps_gpus_and_its_assumptions_apply() {
    // GPU 0 by its uuid, GPU 1 as host:index; hours_in_month 720 in the workbook: 70 × 720 /
    // 168 = 300 active hours a month, utilization 300 / 720 = 0.416667.
    let d = tempdir();
    let book = usage_book(vec![
        vec![
            Some(s("GPU-5f1c3a2e-8d4b-4c6f-9a1e-2b7d3c4e5f60")),
            Some(s("lora-finetune")),
        ],
        vec![Some(s("node1:1")), Some(s("qa-api"))],
    ]);
    let wb = book_with(&d, "b.xlsx", book);
    let before = bytes(&wb);
    let (j, _) = usage_json(
        d.path(),
        &[&usage_fixture("node1.smi.csv"), "--workbook", "b.xlsx"],
    );
    let a = actual(&j, "lora-finetune");
    assert_close(a, "active_hours_month", 300.0);
    assert_close(a, "utilization", 300.0 / 720.0);
    assert_close(actual(&j, "qa-api"), "memory_peak_gib", 1.0);
    assert_eq!(j["assumptions"]["hours_in_month"], 720.0);
    assert_eq!(bytes(&wb), before, "the workbook changed");
    // The same workbook still plans: the Usage sheet is an input sheet like the others.
    gpuplan(d.path(), &["check", "b.xlsx"]).ok();
}

#[test]
fn a_usage_row_naming_an_unknown_workload_is_an_error_naming_its_cell() {
    let d = tempdir();
    let book = usage_book(vec![
        vec![Some(n(0.0)), Some(s("lora-finetune"))],
        vec![Some(n(1.0)), Some(s("qa-apii"))],
    ]);
    book_with(&d, "b.xlsx", book);
    let r = gpuplan(
        d.path(),
        &[
            "usage",
            &usage_fixture("node1.smi.csv"),
            "--workbook",
            "b.xlsx",
        ],
    );
    r.fails_with(
        2,
        &[
            "b.xlsx: Usage!B3: qa-apii is not a workload of the Workloads sheet; did you mean qa-api?",
        ],
    );
    // check and calc read the Usage sheet too.
    gpuplan(d.path(), &["check", "b.xlsx"]).fails_with(2, &["Usage!B3"]);
}

#[test]
fn a_map_naming_an_unknown_workload_with_a_workbook_names_its_line() {
    let d = tempdir();
    book_with(&d, "b.xlsx", team());
    std::fs::write(
        d.path().join("m.csv"),
        "gpu_id,workload\n0,lora-finetune\n1,chat\n",
    )
    .unwrap();
    let r = gpuplan(
        d.path(),
        &[
            "usage",
            &usage_fixture("node1.smi.csv"),
            "--workbook",
            "b.xlsx",
            "--map",
            "m.csv",
        ],
    );
    r.fails_with(
        2,
        &["error: m.csv:3: chat is not a workload of the workbook's Workloads sheet"],
    );
    std::fs::write(d.path().join("m.csv"), "gpu,job\n0,lora-finetune\n").unwrap();
    let r = gpuplan(
        d.path(),
        &["usage", &usage_fixture("node1.smi.csv"), "--map", "m.csv"],
    );
    r.fails_with(
        2,
        &["m.csv:1: expected a header naming the columns gpu_id and workload"],
    );
}

#[test]
fn a_gpu_no_mapping_names_is_left_out_with_a_warning_naming_file_and_line() {
    let d = tempdir();
    std::fs::write(
        d.path().join("m.csv"),
        "gpu_id,workload\nnode1:0,train\nnode2:0,other\n",
    )
    .unwrap();
    std::fs::copy(
        usage_fixture("node1.plain.csv"),
        d.path().join("node1.plain.csv"),
    )
    .unwrap();
    let (j, r) = usage_json(d.path(), &["node1.plain.csv", "--map", "m.csv"]);
    assert_eq!(j["actuals"].as_array().unwrap().len(), 1);
    assert_close(actual(&j, "train"), "active_hours", 70.0);
    // GPU 1 first appears on line 3 of the log.
    assert!(
        r.stderr.contains(
            "warning: node1.plain.csv:3: the GPU node1:1 maps to no workload (no row of the Usage sheet or --map names it by its uuid, host:index or index); its 10080 sample(s) are ignored"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("warning: m.csv:3: no log holds the GPU node2:0 (mapped to other)"),
        "{}",
        r.stderr
    );
}

#[test]
fn json_dash_holds_only_the_json_with_the_documented_keys() {
    let d = tempdir();
    let (j, r) = usage_json(
        d.path(),
        &[
            &usage_fixture("node1.smi.csv"),
            "--map",
            &usage_fixture("map.csv"),
        ],
    );
    let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "gpuplan_version",
            "assumptions",
            "logs",
            "actuals",
            "warnings"
        ]
    );
    let entry: Vec<&str> = j["actuals"][0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        entry,
        [
            "workload",
            "gpus",
            "active_hours_month",
            "utilization",
            "busy_utilization",
            "memory_peak_gib",
            "memory_p95_gib",
            "days_covered",
            "first_sample",
            "last_sample",
            "samples",
            "active_hours",
            "memory_total_gib",
            "gpu_ids"
        ]
    );
    // The table went to stderr.
    assert!(r.stderr.contains("active h/month"), "{}", r.stderr);
    assert!(r.stdout.trim_start().starts_with('{'));
}

#[test]
fn the_table_shows_the_figures_and_a_json_file_is_written_only_with_force_over_one() {
    let d = tempdir();
    let smi = usage_fixture("node1.smi.csv");
    let map = usage_fixture("map.csv");
    let r = gpuplan(
        d.path(),
        &["usage", &smi, "--map", &map, "--json", "a.json"],
    );
    r.ok();
    let row = r
        .stdout
        .lines()
        .find(|l| l.starts_with("lora-finetune"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    let cells: Vec<&str> = row.split_whitespace().collect();
    // GPUs, days, active h/month, utilization, busy util, peak, p95.
    assert_eq!(
        cells[1..],
        ["1", "7.0", "304.2", "41.7%", "80.0%", "40.0", "40.0"]
    );
    let j: Value = serde_json::from_slice(&bytes(&d.path().join("a.json"))).unwrap();
    assert_week(&j);
    let r = gpuplan(
        d.path(),
        &["usage", &smi, "--map", &map, "--json", "a.json"],
    );
    r.fails_with(2, &["a.json: already exists; use --force to replace it"]);
    gpuplan(
        d.path(),
        &["usage", &smi, "--map", &map, "--json", "a.json", "--force"],
    )
    .ok();
    let left: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, ["a.json"], "nothing else is left behind");
}

#[test]
fn a_plain_log_with_hostnames_gpu_names_zones_and_a_repeated_header() {
    // train: a100-east on nodeA at 02:00, 02:01 and 02:02 UTC (the first written as 10:00+08:00,
    // the last without a zone); infer: GPU 0 of nodeB at Unix seconds 1793613600 (10:00 UTC),
    // +60 and +120. Each: 3 active samples × 60 s = 0.05 h over 180 s covered.
    let d = tempdir();
    log(
        &d,
        "cluster.csv",
        "gpu,hostname,timestamp,utilization,memory_used_mib
a100-east,nodeA,2026-11-02T10:00:00+08:00,90,1024
0,nodeB,1793613600,20,2048
a100-east,nodeA,2026-11-02T02:01:00Z,90,1024
0,nodeB,1793613660,20,2048
gpu,hostname,timestamp,utilization,memory_used_mib
a100-east,nodeA,2026-11-02 02:02:00,90,1024
0,nodeB,1793613720,20,2048
",
    );
    log(
        &d,
        "m.csv",
        "gpu_id,workload\na100-east,train\nnodeB:0,infer\n",
    );
    let (j, r) = usage_json(d.path(), &["cluster.csv", "--map", "m.csv"]);
    for (w, busy) in [("train", 0.9), ("infer", 0.2)] {
        let a = actual(&j, w);
        assert_eq!(a["samples"], 3, "{w}");
        assert_close(a, "active_hours", 0.05);
        assert_close(a, "days_covered", 180.0 / 86_400.0);
        assert_close(a, "busy_utilization", busy);
    }
    assert_eq!(actual(&j, "infer")["gpu_ids"][0], "nodeB:0");
    assert!(!r.stderr.contains("clock goes back"), "{}", r.stderr);
    // The first and last sample times: a zone brings them to UTC (10:00+08:00 is 02:00), a time
    // without one is taken as written, Unix seconds are UTC.
    let train = actual(&j, "train");
    assert_eq!(train["first_sample"], "2026-11-02T02:00:00");
    assert_eq!(train["last_sample"], "2026-11-02T02:02:00");
    let infer = actual(&j, "infer");
    assert_eq!(infer["first_sample"], "2026-11-02T10:00:00");
    assert_eq!(infer["last_sample"], "2026-11-02T10:02:00");
}

/// #34 item 13: the first and last sample times over all logs. The team sample's week
/// (samples/team-week.smi.csv): its first line after the header is
/// `2026/11/02 00:00:00.000, 0, GPU-0a10-…` and its last
/// `2026/11/08 23:55:00.000, 2, GPU-4090-2222-…` (head -2 and tail -1; the timestamps sorted give the same first and last), every GPU
/// sampled every five minutes through the week.
#[test]
fn the_first_and_last_sample_times_of_the_team_week() {
    let d = tempdir();
    let (smi, map) = (
        repo("samples/team-week.smi.csv").display().to_string(),
        repo("samples/team-week.map.csv").display().to_string(),
    );
    let (j, _) = usage_json(d.path(), &[&smi, "--map", &map]);
    for w in ["qa-api", "lora-finetune", "preprocess"] {
        let a = actual(&j, w);
        assert_eq!(a["first_sample"], "2026-11-02T00:00:00", "{w}");
        assert_eq!(a["last_sample"], "2026-11-08T23:55:00", "{w}");
        // 23:55 + one five-minute interval is 7 days after 00:00.
        assert_close(a, "days_covered", 7.0);
    }
}

// ---- bad logs ------------------------------------------------------------------------------

const SMI_HEADER: &str =
    "timestamp, index, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n";

fn smi_row(minute: u32, util: u32, mib: u32) -> String {
    format!(
        "2026/11/02 {:02}:{:02}:00.000, 0, GPU-aa, A100, {util} %, {mib} MiB, 81920 MiB\n",
        minute / 60,
        minute % 60
    )
}

/// Writes `text` as `name` in `d`; its path.
fn log(d: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let p = d.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_row_with_fewer_fields_is_an_error_naming_file_and_line() {
    let d = tempdir();
    let text = format!(
        "{SMI_HEADER}{}2026/11/02 00:01:00.000, 0, GPU-aa\n{}",
        smi_row(0, 50, 100),
        smi_row(2, 50, 100)
    );
    log(&d, "bad.csv", &text);
    let r = gpuplan(d.path(), &["usage", "bad.csv"]);
    r.fails_with(
        2,
        &["error: bad.csv:3: expected 7 fields (timestamp, index, uuid, name, utilization.gpu, memory.used, memory.total), found 3: \"2026/11/02 00:01:00.000, 0, GPU-aa\""],
    );
}

#[test]
fn a_last_line_cut_short_is_skipped_with_a_warning() {
    // Three whole samples at 50 % one minute apart, then a line cut mid-write: 3 × 60 s active.
    let d = tempdir();
    let text = format!(
        "{SMI_HEADER}{}{}{}2026/11/02 00:03:00.000, 0, GPU-a",
        smi_row(0, 50, 100),
        smi_row(1, 50, 100),
        smi_row(2, 50, 100)
    );
    log(&d, "cut.csv", &text);
    let (j, r) = usage_json(d.path(), &["cut.csv"]);
    assert_close(actual(&j, "cut:0 (GPU-aa)"), "active_hours", 3.0 / 60.0);
    assert!(
        r.stderr
            .contains("warning: cut.csv:5: the last line is cut short"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_clock_going_back_is_a_warning_and_the_sample_is_skipped() {
    // Samples at minutes 0, 1, 2, then 1 again (skipped), then 3, all active: 4 samples, 4 min.
    let d = tempdir();
    let text = format!(
        "{SMI_HEADER}{}{}{}{}{}",
        smi_row(0, 50, 100),
        smi_row(1, 50, 100),
        smi_row(2, 50, 100),
        smi_row(1, 50, 100),
        smi_row(3, 50, 100)
    );
    log(&d, "back.csv", &text);
    let (j, r) = usage_json(d.path(), &["back.csv"]);
    let a = actual(&j, "back:0 (GPU-aa)");
    assert_eq!(a["samples"], 4);
    assert_close(a, "active_hours", 4.0 / 60.0);
    assert!(
        r.stderr.contains(
            "warning: back.csv:5: back:0 (GPU-aa)'s clock goes back from 2026-11-02 00:02:00 to 2026-11-02 00:01:00; the sample is skipped"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn units_mixed_within_a_file_are_a_warning_naming_the_first_line() {
    let d = tempdir();
    let text = format!(
        "{SMI_HEADER}{}2026/11/02 00:01:00.000, 0, GPU-aa, A100, 50, 100, 81920\n{}",
        smi_row(0, 50, 100),
        smi_row(2, 50, 100)
    );
    log(&d, "mixed.csv", &text);
    let (j, r) = usage_json(d.path(), &["mixed.csv"]);
    // The unitless line is read in the header's units: 3 samples, 3 minutes active.
    assert_close(actual(&j, "mixed:0 (GPU-aa)"), "active_hours", 3.0 / 60.0);
    assert!(
        r.stderr.contains("warning: mixed.csv:3: values with and without units are mixed in one log (1 line(s) disagree"),
        "{}",
        r.stderr
    );
    // A unit gpuplan does not know is an error, not a guess.
    log(
        &d,
        "unit.csv",
        &format!(
            "{SMI_HEADER}2026/11/02 00:01:00.000, 0, GPU-aa, A100, 50 %, 100 parsecs, 81920 MiB\n"
        ),
    );
    gpuplan(d.path(), &["usage", "unit.csv"]).fails_with(
        2,
        &["error: unit.csv:2: expected the memory used in MiB (40536 or 40536 MiB), found \"100 parsecs\""],
    );
}

#[test]
fn a_gap_in_the_log_counts_as_idle() {
    // Active samples every minute for minutes 0–59 and 120–179, a 61-minute gap between. The
    // median interval is 60 s, so the sample before the gap counts at most 120 s:
    // 59 × 60 + 120 + 59 × 60 + 60 (the last) = 7,260 s = 2.016667 h active; the logs cover
    // 179 + 1 = 180 min = 3 h (0.125 days), so 2.016667 × 730 / 3 = 490.7222 h a month.
    let d = tempdir();
    let mut text = SMI_HEADER.to_string();
    for m in (0..60).chain(120..180) {
        text.push_str(&smi_row(m, 90, 100));
    }
    log(&d, "gap.csv", &text);
    let (j, r) = usage_json(d.path(), &["gap.csv"]);
    let a = actual(&j, "gap:0 (GPU-aa)");
    assert_close(a, "active_hours", 7260.0 / 3600.0);
    assert_close(a, "days_covered", 0.125);
    assert_close(a, "active_hours_month", 7260.0 / 3600.0 * 730.0 / 3.0);
    assert_close(a, "busy_utilization", 0.9);
    // The gap: 180 min covered, 121 min logged (118 + 2 + 1): 59 min, ending at line 62.
    assert!(
        r.stderr.contains("warning: gap.csv:62: the log of GPU gap:0 (GPU-aa) has gaps of 1.0 h in all over 0.1 days (the longest, 1.0 h, ends here)"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("the logs cover 3.0 hours only"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_dmon_log_without_times_counts_the_interval_and_warns_of_unknown_memory() {
    // dmon's default columns (no fb, no -o DT): 10 samples 60 s apart (--interval 60), the
    // first six at 50 %: 6 × 60 s = 0.1 h active; the log covers 600 s.
    let d = tempdir();
    let mut text = "# gpu   pwr gtemp mtemp    sm   mem   enc   dec  mclk  pclk\n# Idx     W     C     C     %     %     %     %   MHz   MHz\n".to_string();
    for i in 0..10 {
        let sm = if i < 6 { 50 } else { 0 };
        text.push_str(&format!(
            "    0    60    40     -   {sm:>3}    10     0     0  1215  1410\n"
        ));
    }
    log(&d, "box.dmon", &text);
    let (j, r) = usage_json(d.path(), &["box.dmon", "--interval", "60"]);
    let a = actual(&j, "box:0");
    assert_close(a, "active_hours", 0.1);
    assert_close(a, "days_covered", 600.0 / 86_400.0);
    assert!(a["memory_peak_gib"].is_null());
    // Without dates the samples have no times to state.
    assert!(
        a["first_sample"].is_null() && a["last_sample"].is_null(),
        "{a:#}"
    );
    assert!(r.stderr.contains("note: box.dmon:1: an nvidia-smi dmon log without dates or times: its samples are taken as 60 s apart"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("warning: box.dmon:1: this dmon log has no fb column"),
        "{}",
        r.stderr
    );
}

#[test]
fn files_that_are_not_logs_are_refused_with_what_they_are() {
    let d = tempdir();
    log(&d, "noheader.csv", &smi_row(0, 50, 100));
    gpuplan(d.path(), &["usage", "noheader.csv"]).fails_with(
        2,
        &[
            "noheader.csv:1: expected a usage log's header line",
            "needs its header line",
        ],
    );
    std::fs::write(d.path().join("log.csv.gz"), [0x1f, 0x8b, 8, 0, 0, 0]).unwrap();
    gpuplan(d.path(), &["usage", "log.csv.gz"]).fails_with(
        2,
        &["log.csv.gz:1: this file is gzip-compressed; decompress it first"],
    );
    let long = format!("{SMI_HEADER}{}\n", "x".repeat(70 * 1024));
    log(&d, "long.csv", &long);
    gpuplan(d.path(), &["usage", "long.csv"])
        .fails_with(2, &["long.csv:2: a line longer than 64 KiB"]);
    std::fs::create_dir(d.path().join("dir")).unwrap();
    gpuplan(d.path(), &["usage", "dir"]).fails_with(2, &["dir: is a folder, not a usage log"]);
    log(&d, "a.csv", &format!("{SMI_HEADER}{}", smi_row(0, 50, 100)));
    gpuplan(d.path(), &["usage", "a.csv", "./a.csv"]).fails_with(2, &["is given twice"]);
    log(&d, "util.csv", "timestamp, index, memory.used [MiB]\n");
    gpuplan(d.path(), &["usage", "util.csv"]).fails_with(
        2,
        &["util.csv:1: this nvidia-smi --query-gpu CSV log has no utilization.gpu column"],
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_at_once() {
    let d = tempdir();
    let st = std::process::Command::new("mkfifo")
        .arg(d.path().join("pipe"))
        .status();
    if !st.is_ok_and(|s| s.success()) {
        return; // no mkfifo here
    }
    gpuplan(d.path(), &["usage", "pipe"]).fails_with(2, &["pipe: is not a regular file"]);
}

#[test]
fn many_bad_lines_are_listed_up_to_a_hundred_with_the_count() {
    let d = tempdir();
    let mut text = SMI_HEADER.to_string();
    for _ in 0..150 {
        text.push_str("2026/11/02 00:00:00.000, 0, GPU-aa, A100, lots, 1 MiB, 2 MiB\n");
    }
    log(&d, "many.csv", &text);
    let r = gpuplan(d.path(), &["usage", "many.csv"]);
    r.fails_with(
        2,
        &[
            "many.csv:2: expected the utilization",
            "many.csv:101:",
            "50 more problem(s) like these",
        ],
    );
    assert!(!r.stderr.contains("many.csv:102:"), "{}", r.stderr);
}

#[test]
fn init_writes_a_usage_sheet_with_notes_in_both_languages() {
    let d = tempdir();
    gpuplan(d.path(), &["init", "t.xlsx"]).ok();
    gpuplan(d.path(), &["init", "zh.xlsx", "--lang", "zh"]).ok();
    let rows = read_sheet(&d.path().join("t.xlsx"), "Usage");
    assert_eq!(rows[0][0].to_string(), "GPU (gpu_id)");
    assert_eq!(rows[0][1].to_string(), "Workload (workload)");
    let rows = read_sheet(&d.path().join("zh.xlsx"), "用量");
    assert_eq!(rows[0][0].to_string(), "GPU编号 (gpu_id)");
    // The template's Assumptions carry the threshold with its note.
    let a = read_sheet(&d.path().join("t.xlsx"), "Assumptions");
    assert!(
        a.iter()
            .any(|r| r[0] == "usage_active_threshold" && r[1] == 0.1),
        "{a:?}"
    );
}

const SMI: &str =
    "timestamp, index, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n";

#[test]
fn two_hosts_logs_of_one_file_name_stay_two_gpus_by_uuid() {
    let d = tempdir();
    for (host, uuid) in [("a", "GPU-aaaa"), ("b", "GPU-bbbb")] {
        std::fs::create_dir(d.path().join(host)).unwrap();
        let mut text = SMI.to_string();
        for minute in 0..3 {
            text.push_str(&format!(
                "2026/11/02 00:{minute:02}:00.000, 0, {uuid}, A100, 50 %, 1024 MiB, 81920 MiB\n"
            ));
        }
        std::fs::write(d.path().join(host).join("gpu.csv"), text).unwrap();
    }
    std::fs::write(
        d.path().join("m.csv"),
        "gpu_id,workload\nGPU-aaaa,train\nGPU-bbbb,infer\n",
    )
    .unwrap();
    let (j, r) = usage_json(d.path(), &["a/gpu.csv", "b/gpu.csv", "--map", "m.csv"]);
    // Each: 3 samples a minute apart, 3 minutes covered (the last counts one median interval).
    for w in ["train", "infer"] {
        assert_eq!(actual(&j, w)["samples"], 3, "{w}");
    }
    assert!(!r.stderr.contains("no log holds"), "{}", r.stderr);
}

#[test]
fn samples_stamped_alike_do_not_make_a_zero_interval_and_zero_hours() {
    let d = tempdir();
    // Two samples a second under whole-second stamps, 60 seconds, always at 100 %: the intervals
    // are 0 and 1 s by turns; the median of those that pass time is 1 s, so the log stands for
    // 59 s + the last sample's 1 s = 60 s active: 60 / 3,600 = 0.016667 GPU-hours.
    let mut text = String::from("timestamp,gpu,utilization,memory_used_mib\n");
    for s in 0..60 {
        for _ in 0..2 {
            text.push_str(&format!("2026-11-02T00:00:{s:02}Z,0,100,1024\n"));
        }
    }
    std::fs::write(d.path().join("l.csv"), text).unwrap();
    let (j, _) = usage_json(d.path(), &["l.csv"]);
    let a = &j["actuals"][0];
    assert!(
        close(a["active_hours"].as_f64().unwrap(), 60.0 / 3600.0),
        "{a}"
    );
    // An interval below a millisecond counts as none: refused.
    gpuplan(d.path(), &["usage", "l.csv", "--interval", "0.0001"])
        .fails_with(2, &["--interval", "at least 0.001"]);
}

#[test]
fn a_gpu_seen_for_an_hour_of_a_week_is_warned_of_before_it_is_extrapolated() {
    let d = tempdir();
    let mut text = String::from("timestamp,gpu,utilization,memory_used_mib\n");
    // GPU 0 hourly for 7 days; GPU 1 a minute apart for one hour (61 samples: 60 min + 1).
    for h in 0..=7 * 24 {
        let (day, hour) = (2 + h / 24, h % 24);
        text.push_str(&format!("2026-11-{day:02}T{hour:02}:00:00Z,0,50,1024\n"));
    }
    for m in 0..=60 {
        let (hour, minute) = (m / 60, m % 60);
        text.push_str(&format!("2026-11-03T{hour:02}:{minute:02}:30Z,1,50,1024\n"));
    }
    std::fs::write(d.path().join("l.csv"), text).unwrap();
    std::fs::write(d.path().join("m.csv"), "gpu_id,workload\n0,svc\n1,svc\n").unwrap();
    let (_, r) = usage_json(d.path(), &["l.csv", "--map", "m.csv"]);
    // GPU 1: 60 minutes + one median minute = 61 min = 1.0 h, of the 7.0 days the logs cover.
    assert!(
        r.stderr
            .contains("the GPU l:1 is in the logs for 1.0 hours of their 7.0 days"),
        "{}",
        r.stderr
    );
}

#[cfg(unix)]
#[test]
fn a_small_log_of_4096_gpus_at_1_tib_does_not_exhaust_memory() {
    let d = tempdir();
    // 4,096 GPUs, two samples each, each at 1 TiB (1,048,576 MiB): some 300 KB of text. A dense
    // list of 16 MiB memory bins to 1 TiB was 1 MB a GPU, 4 GB in all.
    let mut text = String::from("timestamp,gpu,utilization,memory_used_mib\n");
    for s in 0..2 {
        for g in 0..4096 {
            text.push_str(&format!("2026-11-02T00:00:{s:02}Z,{g},50,1048576\n"));
        }
    }
    std::fs::write(d.path().join("l.csv"), text).unwrap();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152 && \"$0\" usage l.csv --json - > out.json")
        .arg(env!("CARGO_BIN_EXE_gpuplan"))
        .current_dir(d.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.path().join("out.json")).unwrap()).unwrap();
    assert_eq!(j["actuals"].as_array().unwrap().len(), 4096);
}

#[test]
fn memory_used_above_memory_total_is_warned_of() {
    let d = tempdir();
    let mut text = SMI.to_string();
    for minute in 0..3 {
        // 90,000 MiB used on an 81,920 MiB card.
        text.push_str(&format!(
            "2026/11/02 00:{minute:02}:00.000, 0, GPU-aa, A100, 50 %, 90000 MiB, 81920 MiB\n"
        ));
    }
    std::fs::write(d.path().join("l.csv"), text).unwrap();
    let (_, r) = usage_json(d.path(), &["l.csv"]);
    assert!(
        r.stderr
            .contains("3 sample(s) use more memory than the GPU's memory.total"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_utf16_log_is_named_utf16_with_how_to_convert_it() {
    let d = tempdir();
    let text =
        format!("{SMI}2026/11/02 00:00:00.000, 0, GPU-aa, A100, 50 %, 1024 MiB, 81920 MiB\n");
    let mut bytes = vec![0xff, 0xfe];
    for u in text.encode_utf16() {
        bytes.extend(u.to_le_bytes());
    }
    std::fs::write(d.path().join("ps.csv"), bytes).unwrap();
    gpuplan(d.path(), &["usage", "ps.csv"])
        .fails_with(2, &["ps.csv:1", "UTF-16", "iconv -f UTF-16 -t UTF-8"]);
}

/// #34 item 10: `gpuplan usage` had no `--lang`: its table, notes and warnings were English in
/// a Chinese plan's workflow. With `--lang zh` they are Chinese; the figures are the week's
/// (GPU 0 busy 70 h of 168: 70 × 730 / 168 = 304.2 h a month, 41.7%, at 80%, 40 GiB).
#[test]
fn usage_speaks_chinese_with_lang_zh() {
    let d = tempdir();
    std::fs::write(d.path().join("m.csv"), "gpu_id,workload\nnode1:0,train\n").unwrap();
    std::fs::copy(
        usage_fixture("node1.plain.csv"),
        d.path().join("node1.plain.csv"),
    )
    .unwrap();
    let r = gpuplan(
        d.path(),
        &["usage", "node1.plain.csv", "--map", "m.csv", "--lang", "zh"],
    );
    r.ok();
    let header: Vec<&str> = r
        .stdout
        .lines()
        .next()
        .unwrap()
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        header,
        [
            "负载",
            "GPU 数",
            "天数",
            "活跃小时/月",
            "利用率",
            "忙时利用率",
            "显存峰值 GiB",
            "P95 GiB"
        ],
        "{}",
        r.stdout
    );
    let row: Vec<&str> = r
        .stdout
        .lines()
        .find(|l| l.starts_with("train"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(
        row[1..],
        ["1", "7.0", "304.2", "41.7%", "80.0%", "40.0", "40.0"]
    );
    assert!(
        r.stdout.contains("活跃：利用率高于 10%（usage_active_threshold）。小时为负载各 GPU 的 GPU 小时之和，由日志覆盖的天数外推到 730 小时的一个月；利用率 = 活跃小时/月 ÷ (730 × GPU 数)。忙时利用率：活跃期间的平均利用率。"),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains(
            "警告: node1.plain.csv:3: GPU node1:1 没有对应的负载（用量表或 --map 中没有按 uuid、host:index 或序号指向它的行），其 10080 个样本已忽略"
        ),
        "{}",
        r.stderr
    );
    // Without --lang: the locale's language, as calc's terminal; the JSON stays English.
    let r = gpuplan_env(
        d.path(),
        &["usage", "node1.plain.csv", "--map", "m.csv"],
        &[("LANG", "zh_CN.UTF-8")],
    );
    assert!(r.stdout.starts_with("负载"), "{}", r.stdout);
    let r = gpuplan(d.path(), &["usage", "node1.plain.csv", "--map", "m.csv"]);
    assert!(r.stdout.starts_with("workload"), "{}", r.stdout);
    assert!(r
        .stderr
        .contains("warning: node1.plain.csv:3: the GPU node1:1 maps to no workload"));
    let (j, _) = usage_json(
        d.path(),
        &["node1.plain.csv", "--map", "m.csv", "--lang", "zh"],
    );
    assert!(j["warnings"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("the GPU node1:1 maps to no workload"));
}

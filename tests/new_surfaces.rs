//! The newer commands under hostile review (#35): usage logs, model folders, scenarios, ranges,
//! APIs, diff, man and completions lose nothing, never hang or exhaust memory, and give no
//! silent wrong number. Each test is named after what broke.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;
use std::path::Path;

/// `gpuplan calc t.xlsx -q ARGS` in `dir`, which must succeed.
fn calc_ok(dir: &Path, args: &[&str]) {
    let mut all = vec!["calc", "t.xlsx", "-q"];
    all.extend_from_slice(args);
    gpuplan(dir, &all).ok();
}

fn team_dir() -> tempfile::TempDir {
    let d = tempdir();
    std::fs::copy(repo("samples/team.xlsx"), d.path().join("t.xlsx")).unwrap();
    d
}

/// A bills export in the columns `calc --bills` reads.
const BILLS: &str =
    "month,workload,provider,gpu,hours,amount\n2026-01,qa-api,seed 001,A10,300,1500\n";

#[test]
fn a_bills_export_named_as_an_output_is_refused_and_kept() {
    let d = team_dir();
    let bills = d.path().join("bills.csv");
    std::fs::write(&bills, BILLS).unwrap();
    for out in [&["-o", "bills.csv"][..], &["--json", "bills.csv"][..]] {
        let mut args = vec!["calc", "t.xlsx", "-q", "--bills", "bills.csv", "--force"];
        args.extend_from_slice(out);
        gpuplan(d.path(), &args).fails_with(2, &["bills.csv", "--bills"]);
        assert_eq!(std::fs::read_to_string(&bills).unwrap(), BILLS);
    }
}

/// Runs the binary through sh with stdout closed (`>&-`), in `dir`.
fn with_stdout_closed(dir: &Path, args: &str) -> Run {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("\"$0\" {args} >&-"))
        .arg(env!("CARGO_BIN_EXE_gpuplan"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("LANG")
        .env_remove("LC_ALL")
        .output()
        .unwrap();
    run_of(out)
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdout_is_exit_2_not_lost_output() {
    let d = team_dir();
    calc_ok(d.path(), &["-o", "a.xlsx", "--json", "a.json"]);
    for args in [
        "calc t.xlsx -q -o p.xlsx --json -",
        "catalog gpus",
        "man",
        "completions bash",
        "usage missing.csv",
        "init new.xlsx",
        "diff a.json a.json --json d.json",
    ] {
        with_stdout_closed(d.path(), args).fails_with(2, &["stdout", "closed"]);
    }
    // Refused before anything was written.
    for f in ["p.xlsx", "new.xlsx", "d.json"] {
        assert!(!d.path().join(f).exists(), "{f}");
    }
    // Output sent to /dev/null on purpose is not an error.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("\"$0\" catalog gpus >/dev/null")
        .arg(env!("CARGO_BIN_EXE_gpuplan"))
        .status()
        .unwrap();
    assert_eq!(out.code(), Some(0));
}

/// A model folder with a config.json that gpuplan maps.
fn model_folder(d: &Path) -> std::path::PathBuf {
    let m = d.join("m");
    std::fs::create_dir(&m).unwrap();
    std::fs::copy(
        repo("tests/fixtures/configs/Qwen3-8B.json"),
        m.join("config.json"),
    )
    .unwrap();
    m
}

/// Runs `gpuplan ARGS` in `dir`, killed after 30 seconds (a hang is then a failure, not a stuck
/// test run).
fn gpuplan_or_hang(dir: &Path, args: &[&str]) -> Run {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gpuplan"))
        .args(args)
        .current_dir(dir)
        .env_remove("LANG")
        .env_remove("LC_ALL")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..300 {
        if child.try_wait().unwrap().is_some() {
            return run_of(child.wait_with_output().unwrap());
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    child.kill().unwrap();
    panic!("gpuplan {args:?} hung");
}

#[cfg(unix)]
#[test]
fn a_fifo_named_safetensors_is_refused_not_waited_on() {
    let d = tempdir();
    let m = model_folder(d.path());
    let fifo = m.join("model.safetensors");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    gpuplan_or_hang(d.path(), &["model", "m"])
        .fails_with(2, &["model.safetensors", "not a regular file"]);
}

/// A safetensors file of one tensor with the header as given (data of `data` bytes after it).
fn one_tensor(path: &Path, tensor: serde_json::Value, data: usize) {
    let text = serde_json::to_vec(&serde_json::json!({ "w": tensor })).unwrap();
    let mut bytes = (text.len() as u64).to_le_bytes().to_vec();
    bytes.extend(&text);
    bytes.extend(vec![0u8; data]);
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_safetensors_shape_that_does_not_fill_its_data_offsets_is_refused() {
    let d = tempdir();
    let m = model_folder(d.path());
    let st = m.join("model.safetensors");
    // 2^32 × 2^32 + 8 elements wraps to 8 in 64 bits: BF16 would then need 16 bytes, and
    // checked, the product overflows; a shape of [4, 8] BF16 needs 4 × 8 × 2 = 64 bytes, not 16.
    one_tensor(
        &st,
        serde_json::json!({"dtype": "BF16", "shape": [4, 8], "data_offsets": [0, 16]}),
        16,
    );
    gpuplan(d.path(), &["model", "m"]).fails_with(2, &["tensor w", "holds 64 bytes", "give 16"]);
    // A negative dimension is not dropped (it made [-1, 8] count as 8 elements).
    one_tensor(
        &st,
        serde_json::json!({"dtype": "BF16", "shape": [-1, 8], "data_offsets": [0, 16]}),
        16,
    );
    gpuplan(d.path(), &["model", "m"]).fails_with(2, &["tensor w has no shape"]);
    // Offsets past the data the file holds.
    one_tensor(
        &st,
        serde_json::json!({"dtype": "BF16", "shape": [8], "data_offsets": [0, 16]}),
        4,
    );
    gpuplan(d.path(), &["model", "m"]).fails_with(2, &["lie outside the file's 4 bytes"]);
}

#[test]
fn a_safetensors_header_over_16_mb_is_refused_before_it_is_read() {
    let d = tempdir();
    let m = model_folder(d.path());
    // It claims 17 MB and holds them: a 17 MB header would be a JSON tree of some 700 MB.
    let size = 17_000_000u64;
    let mut b = size.to_le_bytes().to_vec();
    b.extend(vec![b' '; size as usize]);
    std::fs::write(m.join("model.safetensors"), &b).unwrap();
    gpuplan(d.path(), &["model", "m"]).fails_with(
        2,
        &["its header claims 17000000 bytes; gpuplan reads safetensors headers of at most 16 MB"],
    );
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
    let d = team_dir();
    calc_ok(d.path(), &["-o", "a.xlsx", "--json", "a.json"]);
    for (old, new) in [("a.xlsx", "a.json"), ("a.json", "a.xlsx")] {
        let j = json_of(&gpuplan(d.path(), &["diff", old, new, "--json", "-"]));
        assert_eq!(j["inputs_changed"], serde_json::json!([]), "{old} {new}");
        assert!(j["inputs_compared"].as_u64().unwrap() > 0);
    }
}

#[test]
fn diff_names_yes_no_workload_columns_and_offer_availability() {
    let d = team_dir();
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
    let d = team_dir();
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

#[test]
fn samples_0_gives_no_percentiles_and_too_many_samples_are_refused() {
    let d = tempdir();
    std::fs::copy(repo("samples/startup.xlsx"), d.path().join("s.xlsx")).unwrap();
    let j = calc_json(d.path(), "s.xlsx", "p.xlsx", &["--samples", "0"]);
    let s = &j["sensitivity"];
    assert!(s["tornado"].as_array().is_some_and(|t| !t.is_empty()));
    assert_eq!(s["p10"], serde_json::Value::Null);
    assert_eq!(s["p50"], serde_json::Value::Null);
    assert_eq!(s["p90"], serde_json::Value::Null);
    // A billion samples would hold 8 GB of draws a Ranges row before the first is planned.
    gpuplan(
        d.path(),
        &[
            "calc",
            "s.xlsx",
            "-q",
            "-o",
            "q.xlsx",
            "--samples",
            "1000000000",
        ],
    )
    .fails_with(2, &["--samples 1000000000", "at most 10000000"]);
    assert!(!d.path().join("q.xlsx").exists());
}

/// `gpuplan usage ARGS --json -` in `dir`, which must succeed: its JSON and the run.
fn usage_json(dir: &Path, args: &[&str]) -> (serde_json::Value, Run) {
    let mut all = vec!["usage"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", "-"]);
    let r = gpuplan(dir, &all);
    r.ok();
    (json_of(&r), r)
}

/// The actual of `workload` in a usage JSON.
fn actual<'a>(j: &'a serde_json::Value, workload: &str) -> &'a serde_json::Value {
    j["actuals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["workload"] == workload)
        .unwrap_or_else(|| panic!("no {workload} in {j}"))
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
fn a_misspelt_ranges_key_suggests_the_known_one() {
    let d = tempdir();
    let b = team().sheet(
        "Ranges",
        &["key", "low", "high"],
        vec![vec![Some(s("safety_marjin")), Some(n(0.1)), Some(n(0.3))]],
    );
    b.write(&d.path().join("t.xlsx"));
    gpuplan(d.path(), &["calc", "t.xlsx", "-q"])
        .fails_with(2, &["safety_marjin", "did you mean safety_margin?"]);
}

#[test]
fn the_same_key_on_two_ranges_rows_is_refused_naming_both() {
    let d = tempdir();
    let b = team().sheet(
        "Ranges",
        &["key", "low", "high"],
        vec![
            vec![Some(s("safety_margin")), Some(n(0.1)), Some(n(0.3))],
            vec![Some(s("safety_margin")), Some(n(0.2)), Some(n(0.4))],
        ],
    );
    b.write(&d.path().join("t.xlsx"));
    gpuplan(d.path(), &["calc", "t.xlsx", "-q"])
        .fails_with(2, &["Ranges!A3", "safety_margin", "Ranges!A2"]);
}

#[test]
fn a_nan_in_ranges_low_gets_a_short_message() {
    let d = tempdir();
    let b = team().sheet(
        "Ranges",
        &["key", "low", "high"],
        vec![vec![Some(s("safety_margin")), Some(s("NaN")), Some(n(0.3))]],
    );
    b.write(&d.path().join("t.xlsx"));
    let r = gpuplan(d.path(), &["calc", "t.xlsx", "-q"]);
    r.fails_with(2, &["Ranges!B2"]);
    let line = r.stderr.lines().find(|l| l.contains("Ranges!B2")).unwrap();
    assert!(line.len() < 200, "{line}");
}

#[test]
fn a_model_folder_gpuplan_cannot_map_is_refused_naming_the_cell_and_keys() {
    let d = tempdir();
    // MPT names its sizes d_model, n_layers and n_heads: only d_model is a key gpuplan maps.
    std::fs::create_dir(d.path().join("mpt")).unwrap();
    std::fs::write(
        d.path().join("mpt/config.json"),
        r#"{"model_type": "mpt", "d_model": 4096, "n_layers": 32, "n_heads": 32, "vocab_size": 50432}"#,
    )
    .unwrap();
    std::fs::write(d.path().join("empty.json"), "{}").unwrap();
    for (path, missing) in [
        ("./mpt", "layers, heads"),
        ("empty.json", "layers, hidden, heads"),
    ] {
        // qa-api's model cell is Workloads!C3.
        team()
            .set("Workloads", 2, 2, Some(s(path)))
            .write(&d.path().join("t.xlsx"));
        gpuplan(d.path(), &["calc", "t.xlsx", "-q", "--force"])
            .fails_with(2, &["Workloads!C3", "cannot be sized", missing]);
    }
}

#[test]
fn model_sizes_that_are_not_sizes_are_named_missing_not_printed_as_inf() {
    let d = tempdir();
    std::fs::write(
        d.path().join("config.json"),
        r#"{"model_type": "llama", "hidden_size": 1e308, "num_hidden_layers": -4, "num_attention_heads": 0,
            "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}"#,
    )
    .unwrap();
    let r = gpuplan(d.path(), &["model", "config.json", "--format", "json"]);
    r.ok();
    assert!(!r.stdout.contains("inf"), "{}", r.stdout);
    let v = json_of(&r);
    for f in ["layers", "hidden", "heads"] {
        assert!(
            v["missing"].as_array().unwrap().contains(&f.into()),
            "{f} in {}",
            v["missing"]
        );
    }
}

#[test]
fn an_api_break_even_of_0_is_not_given_when_the_volume_or_the_price_is_0() {
    let d = tempdir();
    let free = vec![vec![
        Some(s("test")),
        Some(s("free")),
        Some(n(0.0)),
        Some(n(0.0)),
    ]];
    let apis = &["provider", "model", "input_per_m", "output_per_m"][..];
    for (book, says) in [
        (
            api_book("qwen-plus", None),
            "needs the workload's requests_per_day",
        ),
        (
            api_book("qwen-plus", Some(0.0)),
            "needs the workload's requests_per_day",
        ),
        (
            api_book("free", Some(2000.0)).sheet("APIs", apis, free.clone()),
            "costs nothing at 2,000 requests a day",
        ),
    ] {
        book.write(&d.path().join("b.xlsx"));
        let j = calc_json(d.path(), "b.xlsx", "b.plan.xlsx", &[]);
        let qa = &j["workloads"][1];
        assert!(qa["api_breakeven_requests_per_day"].is_null(), "{qa}");
        let advice = qa["api_advice"].as_str().unwrap();
        assert!(advice.contains(says), "{advice}");
        assert!(!advice.contains("below 0 requests"), "{advice}");
    }
}

#[test]
fn a_workload_ending_before_plan_start_is_warned_of() {
    let d = tempdir();
    team()
        .set("Workloads", 0, 11, Some(s("end_month")))
        .set("Workloads", 2, 11, Some(s("2025-06")))
        .write(&d.path().join("t.xlsx"));
    let j = calc_json(
        d.path(),
        "t.xlsx",
        "p.xlsx",
        &["--set", "plan_start=2026-01"],
    );
    let w: Vec<String> = j["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| format!("{}: {}", w["location"], w["message"]))
        .collect();
    assert!(
        w.iter().any(|m| m.contains(
            "qa-api: it ends in 2025-06, outside the Year tab's twelve months (2026-01 to 2026-12)"
        )),
        "{w:#?}"
    );
}

#[test]
fn a_notes_formula_with_no_saved_value_does_not_refuse_the_plan() {
    let d = tempdir();
    let p = d.path().join("t.xlsx");
    team()
        .set("Workloads", 0, 11, Some(s("notes")))
        .set("Workloads", 2, 11, Some(s("x")))
        .write(&p);
    // qa-api's note becomes a formula with no saved value (as openpyxl or a script writes one).
    patch_cell(&p, "L3", r#"<c r="L3"><f>A3&amp;" note"</f></c>"#);
    let j = calc_json(d.path(), "t.xlsx", "p.xlsx", &[]);
    // The plan is made: the team budget of ¥2,268.96 (tests/cli.rs works it by hand).
    assert!(close(
        j["totals"]["total_with_margin"].as_f64().unwrap(),
        2268.96
    ));
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

#[test]
fn a_quoted_field_with_a_comma_is_one_field_in_bills_maps_and_logs() {
    let d = team_dir();
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

#[test]
fn the_summary_is_on_stdout_and_wrote_names_the_json_too() {
    let d = team_dir();
    let r = gpuplan(
        d.path(),
        &["calc", "t.xlsx", "-o", "p.xlsx", "--json", "p.json"],
    );
    r.ok();
    assert!(r.stdout.ends_with("wrote p.xlsx, p.json\n"), "{}", r.stdout);
    assert!(!r.stderr.contains("wrote"), "{}", r.stderr);
    // With --json - the JSON alone is on stdout, the summary on stderr.
    let r = gpuplan(d.path(), &["calc", "t.xlsx", "-o", "q.xlsx", "--json", "-"]);
    r.ok();
    json_of(&r);
    assert!(r.stderr.contains("wrote q.xlsx"), "{}", r.stderr);
}

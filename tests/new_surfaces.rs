//! The newer commands under hostile review (#35): usage logs, model folders, scenarios, ranges,
//! APIs, diff, man and completions lose nothing, never hang or exhaust memory, and give no
//! silent wrong number. Each test is named after what broke.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;
use std::path::Path;

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
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdout_is_exit_2_not_lost_output() {
    let d = team_dir();
    for args in [
        "calc t.xlsx -q -o p.xlsx --json -",
        "catalog gpus",
        "man",
        "completions bash",
        "usage missing.csv",
    ] {
        with_stdout_closed(d.path(), args).fails_with(2, &["stdout", "closed"]);
    }
    // Refused before anything was written.
    assert!(!d.path().join("p.xlsx").exists());
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
            let out = child.wait_with_output().unwrap();
            return Run {
                code: out.status.code().unwrap_or(-1),
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            };
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
    gpuplan(
        d.path(),
        &["calc", "t.xlsx", "-q", "-o", "a.xlsx", "--json", "a.json"],
    )
    .ok();
    for (old, new) in [("a.xlsx", "a.json"), ("a.json", "a.xlsx")] {
        let j = json_of(&gpuplan(d.path(), &["diff", old, new, "--json", "-"]));
        assert_eq!(j["inputs_changed"], serde_json::json!([]), "{old} {new}");
        assert!(j["inputs_compared"].as_u64().unwrap() > 0);
    }
}

#[test]
fn diff_names_yes_no_workload_columns_and_offer_availability() {
    let d = team_dir();
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
            "--json",
            "b.json",
            "--set",
            "qa-api.online=no",
            "--set",
            "gpu:A10.available=no",
        ],
    );
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
    gpuplan(
        d.path(),
        &["calc", "t.xlsx", "-q", "--lang", "zh", "-o", "old.xlsx"],
    )
    .ok();
    gpuplan(
        d.path(),
        &[
            "calc",
            "t.xlsx",
            "-q",
            "-o",
            "new.xlsx",
            "--set",
            "safety_margin=0.3",
            "--compare",
            "old.xlsx",
        ],
    )
    .ok();
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

//! Snapshots of the contract users script against (#17): the plan JSON of both samples and the
//! terminal summary. They guard against unintended change — any difference fails with a diff
//! to review (`cargo insta review`, or INSTA_UPDATE=always after checking it) — while the
//! figures in them are checked by hand in the other test files (tests/cli.rs pins the team
//! budget of ¥2,268.96, tests/scenarios.rs, tests/apis.rs and tests/sensitivity.rs startup's).
//! The generation time is fixed with SOURCE_DATE_EPOCH; the input is named relative to the run.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;

const AT: [(&str, &str); 1] = [("SOURCE_DATE_EPOCH", "1764547200")];

fn run(sample: &str, args: &[&str]) -> Run {
    let d = tempdir();
    let input = format!("{sample}.xlsx");
    std::fs::copy(repo(&format!("samples/{input}")), d.path().join(&input)).unwrap();
    let mut all = vec!["calc", input.as_str(), "-o", "p.xlsx"];
    all.extend_from_slice(args);
    let r = gpuplan_env(d.path(), &all, &AT);
    r.ok();
    r
}

#[test]
fn team_json() {
    insta::assert_snapshot!(run("team", &["-q", "--json", "-"]).stdout);
}

#[test]
fn startup_json() {
    insta::assert_snapshot!(run("startup", &["-q", "--json", "-"]).stdout);
}

#[test]
fn team_terminal_summary() {
    insta::assert_snapshot!(run("team", &[]).stdout);
}

#[test]
fn startup_terminal_summary() {
    insta::assert_snapshot!(run("startup", &[]).stdout);
}

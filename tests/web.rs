//! The page that plans in the browser (#48), in a real browser: scripts/build-web.sh builds it
//! from this checkout, and scripts/check-web.py drives headless Chromium through selenium against
//! it and this build's `gpuplan`: the team sample's workbook and JSON byte for byte the CLI's
//! (English, Chinese, a `--set`), the CLI's summary and total, the CLI's error text for a bad
//! workbook and for one over 50 MB, 1,000 workloads, the download under the CLI's name, and no
//! request after the page has loaded.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;
use std::process::Command;

#[test]
#[ignore = "needs the web toolchain, Chromium and selenium (scripts/test-deps.sh); .ci/run runs it"]
fn the_page_plans_in_a_real_browser_as_the_cli_does() {
    let build = Command::new(repo("scripts/build-web.sh"))
        .current_dir(repo("."))
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "scripts/build-web.sh failed:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let check = Command::new("python3")
        .arg(repo("scripts/check-web.py"))
        .arg("--web")
        .arg(repo("target/web"))
        .arg("--gpuplan")
        .arg(env!("CARGO_BIN_EXE_gpuplan"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&check.stdout);
    let err = String::from_utf8_lossy(&check.stderr);
    assert!(check.status.success(), "{out}\n{err}");
    assert!(out.contains("check-web: ok"), "{out}");
    assert!(out.contains("no request after the page loaded"), "{out}");
}

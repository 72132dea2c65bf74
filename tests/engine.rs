//! The engine from bytes (#48 item 1, #46 item 2): `gpuplan::calc::run::from_bytes` takes the
//! workbook's bytes and gives the plan workbook's bytes, the JSON and the summary that
//! `gpuplan calc` writes for the same input and options: the command only reads and writes the
//! files. One test in this file: it sets SOURCE_DATE_EPOCH for its own process.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;
use gpuplan::calc::run::{from_bytes, Request};
use gpuplan::lang::Lang;

#[test]
fn the_engine_from_bytes_writes_what_the_cli_writes() {
    // SOURCE_DATE_EPOCH fixes the stamp's time and the input's date, for the CLI's process and
    // this one alike. startup.xlsx has Scenarios and Ranges sheets: the scenarios and the
    // sampled sensitivity (the CLI's defaults, 1,000 samples, seed 1) are in both.
    const EPOCH: &str = "1764547200";
    std::env::set_var("SOURCE_DATE_EPOCH", EPOCH);
    for (sample, lang) in [("startup", Lang::En), ("team", Lang::Zh)] {
        let d = tempdir();
        let input = d.path().join(format!("{sample}.xlsx"));
        std::fs::copy(repo(&format!("samples/{sample}.xlsx")), &input).unwrap();
        let lang_flag = if lang == Lang::Zh { "zh" } else { "en" };
        gpuplan_env(
            d.path(),
            &[
                "calc",
                &format!("{sample}.xlsx"),
                "-o",
                "cli.xlsx",
                "--json",
                "cli.json",
                "--lang",
                lang_flag,
                "-q",
            ],
            &[("SOURCE_DATE_EPOCH", EPOCH)],
        )
        .ok();
        let saved = gpuplan::support::time::input_date(&input);
        let out = from_bytes(
            &format!("{sample}.xlsx"),
            bytes(&input),
            &Request {
                now: EPOCH.parse().unwrap(),
                ..Request::default()
            },
            (1000, 1),
            lang,
            &saved,
        )
        .unwrap();
        assert!(
            out.workbook == bytes(&d.path().join("cli.xlsx")),
            "{sample}: the workbooks differ"
        );
        let json = std::fs::read_to_string(d.path().join("cli.json")).unwrap();
        assert_eq!(out.json, json, "{sample}");
        // The summary's budget is the CLI's total with margin.
        let j: serde_json::Value = serde_json::from_str(&json).unwrap();
        let total = j["totals"]["total_with_margin"].as_f64().unwrap();
        assert!(close(
            out.calc.plan.sum(gpuplan::plan::NeedSum::TOTAL_WITH_MARGIN),
            total
        ));
    }
}

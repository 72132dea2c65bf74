//! templates/columns.tsv is the one home of a Workloads column: every column it lists is read
//! and checked by the reader, which takes each column's bounds and words from it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;

/// A value no Workloads column accepts (it is no number, word, month, window, model, GPU,
/// engine or API), written into one column of the qa-api row by `--set`: every column the table
/// lists but the free-text name and notes must refuse it, naming the flag. A column the table
/// lists and the reader never reads would let it through.
#[test]
fn every_workloads_column_of_the_table_is_read() {
    let d = tempdir();
    book_with(&d, "b.xlsx", team());
    let columns = gpuplan::catalog::columns("Workloads");
    assert!(columns.len() > 40, "{} columns", columns.len());
    for c in columns
        .iter()
        .filter(|c| !matches!(c.key, "name" | "notes"))
    {
        let set = format!("qa-api.{}=@@", c.key);
        let r = gpuplan(d.path(), &["check", "b.xlsx", "--set", &set]);
        assert_eq!(r.code, 2, "{set} was accepted:\n{}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(&set), "{set}:\n{}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    }
}

/// The bounds come from the table: a value just past one end of an interval is refused with the
/// message the reader gave before the table held them (hours_per_month's [0, 744], a whole
/// concurrency from 1, kv_precision's four words).
#[test]
fn bounds_and_words_from_the_table_give_the_same_messages() {
    let d = tempdir();
    book_with(&d, "b.xlsx", team());
    let cases = [
        (
            "qa-api.hours_per_month=744.5",
            "hours_per_month must be a number from 0 to 744, found \"744.5\"",
        ),
        (
            "qa-api.concurrency=0",
            "concurrency must be a whole number from 1 to 1000000, found \"0\"",
        ),
        (
            "qa-api.concurrency=2.5",
            "concurrency must be a whole number from 1 to 1000000, found \"2.5\"",
        ),
        (
            "qa-api.params_b=0",
            "params_b must be a number > 0 and ≤ 100000, found \"0\"",
        ),
        (
            "qa-api.kv_precision=int4",
            "kv_precision must be one of fp16, bf16, fp8, int8, found \"int4\"",
        ),
    ];
    for (set, message) in cases {
        gpuplan(d.path(), &["check", "b.xlsx", "--set", set]).fails_with(2, &[message]);
    }
    // Within the bounds: the ends themselves.
    for set in ["qa-api.hours_per_month=744", "qa-api.concurrency=1"] {
        gpuplan(d.path(), &["check", "b.xlsx", "--set", set]).ok();
    }
}

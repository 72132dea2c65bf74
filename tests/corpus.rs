//! A corpus of unusual inputs beyond the review's cases and tests/bad_input.rs, by family: what
//! spreadsheet programs write, the file system, the Formulas sheet, `--set`, names that end up in
//! the output, extreme numbers. Each says what a careful user should get; the cases that revealed
//! a defect say so in their comment.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;
use std::path::{Path, PathBuf};

const H: [&str; 4] = ["name", "kind", "model", "concurrency"];

/// One inference workload (svc, Qwen2.5-7B, 10 requests) with extra columns.
fn one(extra_headers: &[&str], extra: Vec<Option<V>>) -> Book {
    let mut header: Vec<&str> = H.to_vec();
    header.extend_from_slice(extra_headers);
    let mut row = vec![
        Some(s("svc")),
        Some(s("inference")),
        Some(s("Qwen2.5-7B")),
        Some(n(10.0)),
    ];
    row.extend(extra);
    Book::new().sheet("Workloads", &header, vec![row])
}

fn write_in(d: &Path, name: &str, book: Book) -> PathBuf {
    let p = d.join(name);
    book.write(&p);
    p
}

/// `calc` on a workbook that must plan; its JSON.
fn plans(book: Book, extra: &[&str]) -> serde_json::Value {
    let d = tempdir();
    write_in(d.path(), "b.xlsx", book);
    calc_json(d.path(), "b.xlsx", "o.xlsx", extra)
}

/// `calc` in a folder holding `b.xlsx` with `args`, which must fail with exit 2 saying `needles`.
fn refuses_with(book: Book, args: &[&str], needles: &[&str]) {
    let d = tempdir();
    let p = write_in(d.path(), "b.xlsx", book);
    let before = bytes(&p);
    let mut all = vec!["calc", "b.xlsx", "-q"];
    all.extend_from_slice(args);
    gpuplan(d.path(), &all).fails_with(2, needles);
    assert_eq!(bytes(&p), before);
}

/// Rewrites the Workloads sheet's XML of a written book.
fn with_xml(book: Book, from: &str, to: &str) -> (tempfile::TempDir, PathBuf) {
    let d = tempdir();
    let p = write_in(d.path(), "b.xlsx", book);
    patch(&p, "xl/worksheets/sheet1.xml", from, to);
    (d, p)
}

fn warnings(json: &serde_json::Value) -> Vec<String> {
    json["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            format!(
                "{}: {}",
                w["where"].as_str().unwrap(),
                w["message"].as_str().unwrap()
            )
        })
        .collect()
}

// What spreadsheet programs write.

#[test]
fn a_title_row_above_the_headers_says_where_the_headers_are() {
    // Defect: the message did not say that row 2 held the headers.
    let book = Book::new().sheet(
        "Workloads",
        &["GPU budget 2027"],
        vec![
            H.iter().map(|h| Some(s(h))).collect(),
            vec![
                Some(s("svc")),
                Some(s("inference")),
                Some(s("Qwen2.5-7B")),
                Some(n(10.0)),
            ],
        ],
    );
    refuses_with(
        book,
        &[],
        &[
            "Workloads!1: row 1 must hold the column headers",
            "row 2 looks like the headers: delete the rows above it",
        ],
    );
}

#[test]
fn a_sheet_name_with_a_trailing_space_is_found() {
    let mut book = one(&[], vec![]);
    book.sheets[0].0 = "Workloads ".into();
    assert_eq!(plans(book, &[])["workloads"][0]["planned"], true);
}

#[test]
fn a_name_of_only_a_zero_width_space_is_a_missing_name() {
    // Defect: a workload named U+200B was planned, shown as an empty name.
    let book = one(&[], vec![]).set("Workloads", 1, 0, Some(s("\u{200B}")));
    refuses_with(book, &[], &["Workloads!A2: the workload needs a name"]);
}

#[test]
fn a_note_of_40000_characters_is_kept_within_a_cell() {
    // Excel caps a cell at 32,767 characters, but other programs write longer text.
    let d = tempdir();
    let p = write_in(
        d.path(),
        "b.xlsx",
        one(&["notes"], vec![Some(s("PLACEHOLDER"))]),
    );
    patch(
        &p,
        "xl/sharedStrings.xml",
        "PLACEHOLDER",
        &"x".repeat(40_000),
    );
    let json = calc_json(d.path(), "b.xlsx", "o.xlsx", &[]);
    assert_eq!(json["workloads"][0]["planned"], true);
    let plan = read_sheet(&d.path().join("o.xlsx"), "Plan");
    let notes = plan[1]
        .iter()
        .map(ToString::to_string)
        .max_by_key(String::len)
        .unwrap();
    assert!(notes.chars().count() <= 32_767, "{}", notes.len());
}

#[test]
fn rich_text_and_cached_formula_strings_are_their_text() {
    let (d, _) = with_xml(
        one(&[], vec![]),
        "<c r=\"A2\" t=\"s\"><v>4</v></c>",
        "<c r=\"A2\" t=\"inlineStr\"><is><r><t>s</t></r><r><rPr><b/></rPr><t>vc</t></r></is></c>",
    );
    let json = calc_json(d.path(), "b.xlsx", "o.xlsx", &[]);
    assert_eq!(json["workloads"][0]["name"], "svc");
    let (d, _) = with_xml(
        one(&[], vec![]),
        "<c r=\"A2\" t=\"s\"><v>4</v></c>",
        "<c r=\"A2\" t=\"str\"><f>\"s\"&amp;\"vc\"</f><v>svc</v></c>",
    );
    let json = calc_json(d.path(), "b.xlsx", "o.xlsx", &[]);
    assert_eq!(json["workloads"][0]["name"], "svc");
}

#[test]
fn an_empty_value_element_is_a_blank_cell() {
    let d = tempdir();
    let p = write_in(d.path(), "b.xlsx", one(&[], vec![]));
    patch_cell(&p, "D2", "<c r=\"D2\"><v></v></c>");
    let json = calc_json(d.path(), "b.xlsx", "o.xlsx", &[]);
    // Blank concurrency is the default, 1 request.
    assert_eq!(
        json["workloads"][0]["values"]["replicas_for_concurrency"],
        1.0
    );
}

#[test]
fn sheet_xml_with_a_namespace_prefix_reads_and_its_far_cell_is_refused() {
    // Defect: `<x:c r="D4294967298">` (the Open XML SDK's prefix) passed the grid check and
    // calamine overflowed: an internal error.
    let prefixed = |far: bool| {
        let d = tempdir();
        let p = write_in(d.path(), "b.xlsx", one(&[], vec![]));
        let mut z = zip::ZipArchive::new(std::fs::File::open(&p).unwrap()).unwrap();
        let mut xml = String::new();
        std::io::Read::read_to_string(
            &mut z.by_name("xl/worksheets/sheet1.xml").unwrap(),
            &mut xml,
        )
        .unwrap();
        let mut new = xml
            .replace("<worksheet xmlns=", "<x:worksheet xmlns:x=")
            .replace("</worksheet>", "</x:worksheet>");
        for t in [
            "sheetData",
            "row",
            "c",
            "v",
            "dimension",
            "sheetViews",
            "sheetView",
            "selection",
            "sheetFormatPr",
            "pageMargins",
            "cols",
            "col",
        ] {
            new = new
                .replace(&format!("<{t}>"), &format!("<x:{t}>"))
                .replace(&format!("<{t} "), &format!("<x:{t} "))
                .replace(&format!("</{t}>"), &format!("</x:{t}>"));
        }
        if far {
            new = new.replace("</x:sheetData>", "<x:row r=\"4294967298\"><x:c r=\"D4294967298\"><x:v>9</x:v></x:c></x:row></x:sheetData>");
        }
        patch(&p, "xl/worksheets/sheet1.xml", &xml, &new);
        (d, p)
    };
    let (d, _) = prefixed(false);
    assert_eq!(
        calc_json(d.path(), "b.xlsx", "o.xlsx", &[])["workloads"][0]["planned"],
        true
    );
    let (_d, p) = prefixed(true);
    refused(
        &p,
        &["the cell reference \"A4294967298\" is outside Excel's grid"],
    );
}

#[test]
fn single_quoted_and_spaced_attributes_are_checked_too() {
    // Defect: `r='D4294967298'` and `r = "…"` (both valid XML) passed the grid check.
    for row in [
        "<row r='4294967298'><c r='D4294967298'><v>9</v></c></row>",
        "<row r = \"4294967298\"><c r = \"D4294967298\"><v>9</v></c></row>",
    ] {
        let (_d, p) = with_xml(
            one(&[], vec![]),
            "</sheetData>",
            &format!("{row}</sheetData>"),
        );
        refused(&p, &["outside Excel's grid"]);
    }
}

#[test]
fn a_number_typed_in_scientific_notation_is_that_number() {
    let a = plans(
        one(&[], vec![]).set("Workloads", 1, 3, Some(s("1E+1"))),
        &[],
    );
    let b = plans(one(&[], vec![]), &[]);
    assert_eq!(a["workloads"], b["workloads"]);
}

#[test]
fn a_true_in_a_number_cell_is_refused() {
    refuses_with(
        one(&[], vec![]).set("Workloads", 1, 3, Some(V::B(true))),
        &[],
        &["Workloads!D2: concurrency must be a whole number from 1 to 1000000, found TRUE"],
    );
}

#[test]
fn cells_without_references_are_read_in_order() {
    let d = tempdir();
    let p = write_in(d.path(), "b.xlsx", one(&[], vec![]));
    let mut z = zip::ZipArchive::new(std::fs::File::open(&p).unwrap()).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(
        &mut z.by_name("xl/worksheets/sheet1.xml").unwrap(),
        &mut xml,
    )
    .unwrap();
    let mut stripped = xml.clone();
    for c in ["A", "B", "C", "D"] {
        for r in ["1", "2"] {
            stripped = stripped.replace(&format!("<c r=\"{c}{r}\""), "<c");
        }
    }
    patch(&p, "xl/worksheets/sheet1.xml", &xml, &stripped);
    let a = calc_json(d.path(), "b.xlsx", "o.xlsx", &[]);
    assert_eq!(a["workloads"][0]["name"], "svc");
}

#[test]
fn kind_and_model_in_another_case_with_spaces_are_the_same() {
    let a = plans(
        one(&[], vec![])
            .set("Workloads", 1, 1, Some(s("INFERENCE")))
            .set("Workloads", 1, 2, Some(s(" qwen2.5-7b "))),
        &[],
    );
    let b = plans(one(&[], vec![]), &[]);
    assert_eq!(
        a["workloads"][0]["gpus_total"],
        b["workloads"][0]["gpus_total"]
    );
    assert_eq!(a["workloads"][0]["values"], b["workloads"][0]["values"]);
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

// The file system.

#[test]
fn an_output_whose_folder_is_a_file_says_so() {
    // Defect: "the folder b.xlsx does not exist", where it does, as a file.
    refuses_with(
        one(&[], vec![]),
        &["-o", "b.xlsx/out.xlsx"],
        &["b.xlsx/out.xlsx: b.xlsx is a file, not a folder"],
    );
}

#[test]
fn an_output_path_ending_in_a_slash_names_a_folder() {
    // Defect: the run wrote a temporary file, then failed to rename it: "Not a directory".
    refuses_with(
        one(&[], vec![]),
        &["-o", "newdir/"],
        &["newdir/: names a folder; give a file name"],
    );
}

#[test]
fn a_default_output_that_is_a_folder_or_a_link_to_the_input_is_refused() {
    let d = tempdir();
    write_in(d.path(), "b.xlsx", one(&[], vec![]));
    std::fs::create_dir(d.path().join("b.plan.xlsx")).unwrap();
    gpuplan(d.path(), &["calc", "b.xlsx"]).fails_with(2, &["b.plan.xlsx: is a folder"]);
    let d = tempdir();
    write_in(d.path(), "b.xlsx", one(&[], vec![]));
    std::os::unix::fs::symlink("b.xlsx", d.path().join("b.plan.xlsx")).unwrap();
    gpuplan(d.path(), &["calc", "b.xlsx"]).fails_with(2, &["b.plan.xlsx is the input (b.xlsx)"]);
}

#[test]
fn init_never_replaces_a_device_or_a_folder() {
    let d = tempdir();
    gpuplan(d.path(), &["init", "/dev/null", "--force"])
        .fails_with(2, &["/dev/null: is not a regular file"]);
    std::fs::create_dir(d.path().join("sub")).unwrap();
    gpuplan(d.path(), &["init", "sub", "--force"]).fails_with(2, &["sub: is a folder"]);
}

#[test]
fn a_dangling_link_and_a_json_in_a_missing_folder_are_clear() {
    let d = tempdir();
    write_in(d.path(), "b.xlsx", one(&[], vec![]));
    std::os::unix::fs::symlink("nope.xlsx", d.path().join("dang.xlsx")).unwrap();
    gpuplan(d.path(), &["calc", "dang.xlsx"]).fails_with(2, &["dang.xlsx: cannot read the file"]);
    gpuplan(d.path(), &["calc", "b.xlsx", "--json", "no/such/p.json"])
        .fails_with(2, &["the folder no/such does not exist"]);
    assert!(
        !d.path().join("b.plan.xlsx").exists(),
        "the workbook was kept without its JSON"
    );
}

// The Formulas sheet.

fn formulas_book(rows: &[(&str, &str, &str)]) -> Book {
    let mut all = default_formula_rows();
    for (name, expr, scope) in rows {
        match all
            .iter_mut()
            .find(|r| matches!(&r[0], Some(V::S(n)) if n == name))
        {
            Some(r) => {
                r[1] = Some(s(expr));
                r[2] = Some(s(scope));
            }
            None => all.push(vec![Some(s(name)), Some(s(expr)), Some(s(scope))]),
        }
    }
    one(&[], vec![]).sheet("Formulas", &["name", "expression", "scope"], all)
}

fn added_row() -> usize {
    gpuplan::catalog::formulas().len() + 2
}

#[test]
fn an_expression_the_spreadsheet_took_for_its_own_formula_says_to_drop_the_equals_sign() {
    // Defect: the hint said to save the file in Excel, which would give #NAME?.
    let (d, p) = {
        let d = tempdir();
        let p = write_in(
            d.path(),
            "b.xlsx",
            formulas_book(&[("my_x", "PLACEHOLDER", "candidate")]),
        );
        (d, p)
    };
    let sst = {
        let mut z = zip::ZipArchive::new(std::fs::File::open(&p).unwrap()).unwrap();
        let mut t = String::new();
        std::io::Read::read_to_string(&mut z.by_name("xl/worksheets/sheet2.xml").unwrap(), &mut t)
            .unwrap();
        t
    };
    let row = added_row();
    let at = sst.find(&format!("<c r=\"B{row}\"")).unwrap();
    let end = at + sst[at..].find("</c>").unwrap() + 4;
    patch(
        &p,
        "xl/worksheets/sheet2.xml",
        &sst[at..end],
        &format!("<c r=\"B{row}\" t=\"e\"><f>concurrency*2</f><v>#NAME?</v></c>"),
    );
    let _ = d;
    refused(&p, &[&format!("Formulas!B{row}: the expression of my_x was taken by the spreadsheet for one of its own formulas (it begins with =); type it without the =")]);
}

#[test]
fn an_expression_kept_as_text_with_a_leading_equals_sign_is_accepted() {
    let json = plans(
        formulas_book(&[("my_x", "=concurrency * 2", "candidate")]),
        &[],
    );
    assert_eq!(json["workloads"][0]["values"]["my_x"], 20.0);
}

#[test]
fn a_formula_named_like_a_function_is_refused() {
    // Defect: a formula named max was accepted, and read as a variable where max() is a function.
    for name in ["max", "if", "true"] {
        refuses_with(
            formulas_book(&[(name, "1", "candidate")]),
            &[],
            &[&format!(
                "Formulas!B{} ({name}): `{name}` is the name of a function or a value",
                added_row()
            )],
        );
    }
}

#[test]
fn formula_mistakes_name_their_cell() {
    let row = added_row();
    for (expr, says) in [
        (
            "selfie + 1",
            "formulas depend on each other in a loop: selfie → selfie".to_string(),
        ),
        ("\"abc\"", "text values are not allowed in formulas".into()),
        ("concurrency % 0", "has no value (a division by zero".into()),
        ("10^400", "has no value".into()),
        (
            "online + 1",
            "`+` needs a number but `online` is a yes/no value".into(),
        ),
        ("if(online, 1)", "if() takes 3 argument(s), found 2".into()),
    ] {
        refuses_with(
            formulas_book(&[("selfie", expr, "candidate")]),
            &[],
            &[&format!("Formulas!B{row} (selfie): {says}")],
        );
    }
    refuses_with(
        formulas_book(&[("成本", "1", "candidate")]),
        &[],
        &["`成本` is not a valid formula name"],
    );
    refuses_with(
        formulas_book(&[("p1", "gpus_total", "portfolio")]),
        &[],
        &["portfolio formulas read candidate formulas as total_<name>"],
    );
}

#[test]
fn fits_in_the_portfolio_scope_names_its_cell() {
    // Defect: the message named the sheet, not the row.
    let row = gpuplan::catalog::formulas()
        .iter()
        .position(|f| f.name == "fits")
        .unwrap()
        + 2;
    refuses_with(
        formulas_book(&[("fits", "true", "portfolio")]),
        &[],
        &[&format!(
            "Formulas!B{row} (fits): the formula `fits` must have scope candidate"
        )],
    );
}

#[test]
fn a_formulas_sheet_of_only_the_users_own_rows_is_one_clear_message() {
    // Defect: 34 lines, one per missing formula.
    let d = tempdir();
    write_in(
        d.path(),
        "b.xlsx",
        one(&[], vec![]).sheet(
            "Formulas",
            &["name", "expression"],
            vec![vec![Some(s("mine")), Some(s("1"))]],
        ),
    );
    let r = gpuplan(d.path(), &["calc", "b.xlsx"]);
    r.fails_with(
        2,
        &[
            "34 formulas the planner needs are missing (fits, gpus_per_replica",
            "or delete the sheet to use the built-in set",
        ],
    );
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

// --set.

#[test]
fn set_of_a_workload_name_says_why_not() {
    // Defect: "`name` is not a workload column; did you mean name?".
    refuses_with(
        one(&[], vec![]),
        &["--set", "svc.name=x"],
        &["--set svc.name=x: a workload's name cannot be set"],
    );
}

#[test]
fn a_misspelt_assumption_in_set_is_a_warning_with_the_right_key() {
    // Defect: --set safety_margn=0.3 made a new assumption nobody reads, silently.
    let json = plans(one(&[], vec![]), &["--set", "safety_margn=0.3"]);
    assert!(warnings(&json).contains(&"--set safety_margn: the assumption safety_margn is read by no formula, so it changes nothing; did you mean safety_margin?".to_string()), "{:?}", warnings(&json));
}

#[test]
fn set_finds_a_workload_whose_name_has_dots() {
    let book = one(&[], vec![]).set("Workloads", 1, 0, Some(s("svc.v2")));
    let a = plans(book.clone(), &["--set", "svc.v2.concurrency=50"]);
    let b = plans(book.set("Workloads", 1, 3, Some(n(50.0))), &[]);
    assert_eq!(a["workloads"], b["workloads"]);
}

#[test]
fn set_mistakes_name_the_flag() {
    refuses_with(
        one(&[], vec![]),
        &["--set", "svc.kind=hologram"],
        &["--set svc.kind=hologram: kind must be one of"],
    );
    refuses_with(
        one(&[], vec![]),
        &["--set", "=5"],
        &["--set =5: the key is empty"],
    );
    refuses_with(
        one(&[], vec![]),
        &["--set", "svc.gpu=Voodoo"],
        &["--set svc.gpu=Voodoo: the pinned GPU \"Voodoo\" is not in the GPUs sheet"],
    );
}

// Names that end up in the output.

#[test]
fn names_with_quotes_and_escapes_reach_the_output_as_text() {
    let book = one(&[], vec![])
        .set("Workloads", 1, 0, Some(s("it's \"svc\" _x0007_ ='A'!B1")))
        .sheet(
            "GPUs",
            &["gpu", "provider", "on_demand_hourly"],
            vec![vec![
                Some(s("A100-80G")),
                Some(s("O'Neil & \"Co\"")),
                Some(n(10.0)),
            ]],
        );
    let d = tempdir();
    write_in(d.path(), "b.xlsx", book);
    let json = calc_json(d.path(), "b.xlsx", "o.xlsx", &[]);
    assert_eq!(json["workloads"][0]["provider"], "O'Neil & \"Co\"");
    let plan = read_sheet(&d.path().join("o.xlsx"), "Plan");
    assert_eq!(plan[1][0].to_string(), "it's \"svc\" _x0007_ ='A'!B1");
}

// Extreme numbers.

#[test]
fn extreme_but_legal_numbers_plan_or_say_why_not() {
    for (label, book, planned) in [
        (
            "100,000 B parameters",
            Book::new().sheet(
                "Workloads",
                &["name", "kind", "params_b"],
                vec![vec![
                    Some(s("big")),
                    Some(s("inference")),
                    Some(n(100_000.0)),
                ]],
            ),
            false,
        ),
        (
            "a million requests",
            one(&[], vec![]).set("Workloads", 1, 3, Some(n(1e6))),
            true,
        ),
        (
            "1e12 tokens/s",
            one(&["target_tps"], vec![Some(n(1e12))]),
            true,
        ),
        (
            "1e12 GB stored and sent",
            one(
                &["storage_gb", "egress_gb"],
                vec![Some(n(1e12)), Some(n(1e12))],
            ),
            true,
        ),
        // 10 million tokens of Qwen2.5-7B are 534 GiB of KV cache: eight H200 hold one request.
        (
            "a 10-million-token context",
            one(&["context_len"], vec![Some(n(1e7))]),
            true,
        ),
        (
            "16,384-pixel images",
            Book::new().sheet(
                "Workloads",
                &["name", "kind", "model", "resolution"],
                vec![vec![
                    Some(s("img")),
                    Some(s("image_gen")),
                    Some(s("SDXL")),
                    Some(n(16_384.0)),
                ]],
            ),
            true,
        ),
        (
            "100,000 runs of one hour",
            Book::new().sheet(
                "Workloads",
                &[
                    "name",
                    "kind",
                    "vram_gib",
                    "hours_per_month",
                    "runs_per_month",
                ],
                vec![vec![
                    Some(s("job")),
                    Some(s("batch")),
                    Some(n(8.0)),
                    Some(n(1.0)),
                    Some(n(100_000.0)),
                ]],
            ),
            true,
        ),
        (
            "zero hours",
            Book::new().sheet(
                "Workloads",
                &["name", "kind", "vram_gib", "hours_per_month"],
                vec![vec![
                    Some(s("job")),
                    Some(s("batch")),
                    Some(n(8.0)),
                    Some(n(0.0)),
                ]],
            ),
            true,
        ),
        (
            "1e-300 GiB",
            Book::new().sheet(
                "Workloads",
                &["name", "kind", "vram_gib", "hours_per_month"],
                vec![vec![
                    Some(s("job")),
                    Some(s("batch")),
                    Some(n(1e-300)),
                    Some(n(10.0)),
                ]],
            ),
            true,
        ),
    ] {
        let json = plans(book, &[]);
        let w = &json["workloads"][0];
        assert_eq!(w["planned"], planned, "{label}");
        if planned {
            let total = json["totals"]["total_with_margin"].as_f64().unwrap();
            assert!(total.is_finite() && total >= 0.0, "{label}: {total}");
        } else {
            assert!(
                warnings(&json).iter().any(|m| m.contains("is unplanned")),
                "{label}"
            );
        }
    }
}

#[test]
fn free_gpus_tiny_granularity_and_1024_gpus_per_node_plan() {
    for (gpus, label) in [
        (
            vec![vec![
                Some(s("A10")),
                Some(s("x")),
                Some(n(0.0)),
                Some(n(60.0)),
                Some(n(8.0)),
            ]],
            "price 0",
        ),
        (
            vec![vec![
                Some(s("A10")),
                Some(s("x")),
                Some(n(5.0)),
                Some(n(0.0001)),
                Some(n(8.0)),
            ]],
            "granularity 0.0001 min",
        ),
        (
            vec![vec![
                Some(s("A10")),
                Some(s("x")),
                Some(n(5.0)),
                Some(n(60.0)),
                Some(n(1024.0)),
            ]],
            "1024 GPUs a node",
        ),
    ] {
        let book = Book::new()
            .sheet(
                "Workloads",
                &["name", "kind", "model", "max_gpus"],
                vec![vec![
                    Some(s("big")),
                    Some(s("inference")),
                    Some(s("Llama-2-70B")),
                    Some(n(1024.0)),
                ]],
            )
            .sheet(
                "GPUs",
                &[
                    "gpu",
                    "provider",
                    "on_demand_hourly",
                    "billing_granularity_min",
                    "gpus_per_node",
                ],
                gpus,
            );
        let d = tempdir();
        write_in(d.path(), "b.xlsx", book);
        let r = gpuplan(d.path(), &["calc", "b.xlsx", "-q", "--json", "-"]);
        r.ok();
        let json = json_of(&r);
        // A 70B model at bf16 (128.5 GiB) does not fit one 24 GB card; eight of a node do.
        assert_eq!(json["workloads"][0]["planned"], true, "{label}");
        let total = json["totals"]["total_with_margin"].as_f64().unwrap();
        assert!(total.is_finite() && total >= 0.0, "{label}: {total}");
    }
}

#[test]
fn infinity_typed_as_text_is_refused() {
    refuses_with(
        one(&[], vec![]).set("Workloads", 1, 3, Some(s("inf"))),
        &[],
        &["concurrency must be a whole number from 1 to 1000000, found \"inf\""],
    );
}

//! The test harness: build input workbooks in a few lines, run the built binary on them, read
//! outputs back with calamine.
#![allow(dead_code)]

use calamine::{Data, DataType, Reader, Xlsx};
use rust_xlsxwriter::Workbook;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What one run of the binary did.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    #[track_caller]
    pub fn ok(&self) -> &Self {
        assert_eq!(
            self.code, 0,
            "stdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }
    #[track_caller]
    pub fn fails_with(&self, code: i32, needles: &[&str]) -> &Self {
        assert_eq!(
            self.code, code,
            "stdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        for n in needles {
            assert!(
                self.stderr.contains(n),
                "stderr lacks {n:?}:\n{}",
                self.stderr
            );
        }
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        self
    }
}

/// Runs `gpuplan ARGS` in `dir`.
pub fn gpuplan(dir: &Path, args: &[&str]) -> Run {
    gpuplan_env(dir, args, &[])
}

/// Runs `gpuplan ARGS` in `dir` with the environment variables `env` set.
pub fn gpuplan_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_gpuplan"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("SOURCE_DATE_EPOCH")
        // Messages in English whatever the machine's locale, unless a test sets one.
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .envs(env.iter().copied())
        .output()
        .expect("run gpuplan");
    run_of(out)
}

/// What a finished process did, as a [`Run`].
pub fn run_of(out: std::process::Output) -> Run {
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A cell value for a test workbook.
#[derive(Clone, Debug)]
pub enum V {
    S(String),
    N(f64),
    B(bool),
    /// A date: a spreadsheet serial written with a date format, as Excel stores one.
    D(f64),
    /// A number in a percentage format (`0%`), as Excel stores `50%` typed into a cell: 0.5.
    P(f64),
}

pub fn s(x: &str) -> V {
    V::S(x.to_string())
}
pub fn n(x: f64) -> V {
    V::N(x)
}

/// A workbook described as sheets of rows.
#[derive(Default, Clone)]
pub struct Book {
    pub sheets: Vec<(String, Vec<Vec<Option<V>>>)>,
}

impl Book {
    pub fn new() -> Book {
        Book::default()
    }
    /// Adds a sheet whose first row is the header.
    pub fn sheet(mut self, name: &str, header: &[&str], rows: Vec<Vec<Option<V>>>) -> Book {
        let mut all = vec![header.iter().map(|h| Some(s(h))).collect()];
        all.extend(rows);
        self.sheets.push((name.to_string(), all));
        self
    }
    pub fn write(&self, path: &Path) {
        let mut wb = Workbook::new();
        for (name, rows) in &self.sheets {
            let ws = wb.add_worksheet();
            ws.set_name(name).unwrap();
            for (r, row) in rows.iter().enumerate() {
                for (c, v) in row.iter().enumerate() {
                    match v {
                        Some(V::S(t)) => {
                            ws.write_string(r as u32, c as u16, t).unwrap();
                        }
                        Some(V::N(x)) => {
                            ws.write_number(r as u32, c as u16, *x).unwrap();
                        }
                        Some(V::B(b)) => {
                            ws.write_boolean(r as u32, c as u16, *b).unwrap();
                        }
                        Some(V::D(serial)) => {
                            let date = rust_xlsxwriter::Format::new().set_num_format("yyyy-mm-dd");
                            ws.write_number_with_format(r as u32, c as u16, *serial, &date)
                                .unwrap();
                        }
                        Some(V::P(x)) => {
                            let pct = rust_xlsxwriter::Format::new().set_num_format("0%");
                            ws.write_number_with_format(r as u32, c as u16, *x, &pct)
                                .unwrap();
                        }
                        None => {}
                    }
                }
            }
        }
        wb.save(path).unwrap();
    }
    /// Replaces one cell (row 0 is the header) of a sheet.
    pub fn set(mut self, sheet: &str, row: usize, col: usize, v: Option<V>) -> Book {
        let rows = &mut self
            .sheets
            .iter_mut()
            .find(|(n, _)| n == sheet)
            .expect("sheet")
            .1;
        while rows.len() <= row {
            rows.push(Vec::new());
        }
        while rows[row].len() <= col {
            rows[row].push(None);
        }
        rows[row][col] = v;
        self
    }
}

/// A small sound workbook: two workloads, two offers, the seed 001 prices.
pub fn team() -> Book {
    Book::new()
        .sheet(
            "Workloads",
            &[
                "name",
                "kind",
                "model",
                "concurrency",
                "hours_per_month",
                "runs_per_month",
                "redundancy",
                "gpu",
                "vram_gib",
                "spot_ok",
                "storage_gb",
            ],
            vec![
                vec![
                    Some(s("lora-finetune")),
                    Some(s("lora")),
                    Some(s("Llama-2-7B")),
                    None,
                    Some(n(16.0)),
                    Some(n(2.0)),
                    None,
                    Some(s("RTX 4090")),
                    None,
                    None,
                    Some(n(200.0)),
                ],
                vec![
                    Some(s("qa-api")),
                    Some(s("inference")),
                    Some(s("Qwen2.5-7B")),
                    Some(n(4.0)),
                    Some(n(300.0)),
                    Some(n(30.0)),
                    Some(n(0.0)),
                    None,
                    None,
                    None,
                    None,
                ],
                vec![
                    Some(s("preprocess")),
                    Some(s("batch")),
                    None,
                    None,
                    Some(n(16.0)),
                    Some(n(4.0)),
                    None,
                    None,
                    Some(n(8.0)),
                    Some(s("yes")),
                    None,
                ],
            ],
        )
        .sheet(
            "GPUs",
            &[
                "gpu",
                "provider",
                "on_demand_hourly",
                "spot_hourly",
                "billing_granularity_min",
            ],
            vec![
                vec![
                    Some(s("RTX 4090")),
                    Some(s("seed")),
                    Some(n(6.0)),
                    Some(n(2.0)),
                    Some(n(60.0)),
                ],
                vec![
                    Some(s("A10")),
                    Some(s("seed")),
                    Some(n(5.0)),
                    None,
                    Some(n(60.0)),
                ],
            ],
        )
        .sheet(
            "Assumptions",
            &["key", "value"],
            vec![
                vec![Some(s("cold_start_min")), Some(n(0.0))],
                vec![Some(s("spot_rework")), Some(n(0.0))],
            ],
        )
}

pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Copies `samples/SAMPLE.xlsx` into `dir`, runs `gpuplan calc SAMPLE.xlsx -q EXTRA…` there,
/// which must succeed, and returns the path of the plan it wrote.
pub fn calc_sample(dir: &Path, sample: &str, extra: &[&str]) -> PathBuf {
    let input = format!("{sample}.xlsx");
    std::fs::copy(repo(&format!("samples/{input}")), dir.join(&input)).expect("copy the sample");
    let mut args = vec!["calc", input.as_str(), "-q"];
    args.extend_from_slice(extra);
    gpuplan(dir, &args).ok();
    dir.join(format!("{sample}.plan.xlsx"))
}

/// A sheet of an output workbook as rows of cells.
pub fn read_sheet(path: &Path, sheet: &str) -> Vec<Vec<Data>> {
    let mut wb: Xlsx<_> = calamine::open_workbook(path).expect("open output");
    let range = wb.worksheet_range(sheet).expect("sheet");
    range.rows().map(|r| r.to_vec()).collect()
}

pub fn sheet_names(path: &Path) -> Vec<String> {
    let wb: Xlsx<_> = calamine::open_workbook(path).expect("open output");
    wb.sheet_names()
}

/// The number in the column right of the first cell whose text is `label`.
pub fn value_right_of(rows: &[Vec<Data>], label: &str) -> Option<f64> {
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if let Data::String(t) = c {
                if t == label {
                    return r[i + 1..].iter().find_map(|d| d.get_float());
                }
            }
        }
    }
    None
}

/// `gpuplan calc INPUT -o OUT --force --json - -q EXTRA…` in `dir`, which must succeed; its JSON.
pub fn calc_json(dir: &Path, input: &str, out: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["calc", input, "-o", out, "--force", "--json", "-", "-q"];
    args.extend_from_slice(extra);
    let r = gpuplan(dir, &args);
    r.ok();
    json_of(&r)
}

pub fn json_of(run: &Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", run.stdout))
}

/// Bytes of a file, to prove it unchanged.
pub fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("read")
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

/// Runs `calc` on the workbook at `path` in its folder and checks the refusal.
#[track_caller]
pub fn refused(path: &Path, needles: &[&str]) -> Run {
    let dir = path.parent().unwrap();
    let before = bytes(path);
    let name = path.file_name().unwrap().to_str().unwrap();
    let r = gpuplan(dir, &["calc", name, "--json", "out.json"]);
    r.fails_with(2, needles);
    assert!(
        r.stderr.contains(name),
        "the message names the file: {}",
        r.stderr
    );
    assert_eq!(bytes(path), before, "the input changed");
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n != name)
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    r
}

/// Writes `book` as `b.xlsx` in a fresh folder and checks that `calc` refuses it.
#[track_caller]
pub fn refused_book(book: Book, needles: &[&str]) -> Run {
    let d = tempdir();
    refused(&book_with(&d, "b.xlsx", book), needles)
}

pub fn book_with(d: &tempfile::TempDir, name: &str, book: Book) -> PathBuf {
    let p = d.path().join(name);
    book.write(&p);
    p
}

/// Rewrites one part of an xlsx package, replacing `from` with `to` in its text.
pub fn patch(path: &Path, part: &str, from: &str, to: &str) {
    let src = bytes(path);
    let mut zin = zip::ZipArchive::new(std::io::Cursor::new(src)).unwrap();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut found = false;
    for i in 0..zin.len() {
        let mut e = zin.by_index(i).unwrap();
        let name = e.name().unwrap().to_string();
        let mut data = Vec::new();
        e.read_to_end(&mut data).unwrap();
        if name == part {
            let text = String::from_utf8(data).unwrap();
            assert!(text.contains(from), "{part} lacks {from}");
            data = text.replacen(from, to, 1).into_bytes();
            found = true;
        }
        out.start_file(name, opts).unwrap();
        out.write_all(&data).unwrap();
    }
    assert!(found, "no part {part}");
    std::fs::write(path, out.finish().unwrap().into_inner()).unwrap();
}

/// The cell of a formula row of `with_formulas`' sheet: a default by name, or (None) the first
/// row added after the defaults.
pub fn formula_cell(name: Option<&str>) -> String {
    let defaults = gpuplan::catalog::formulas();
    let row = match name {
        Some(n) => {
            defaults
                .iter()
                .position(|f| f.name == n)
                .expect("a default formula")
                + 2
        }
        None => defaults.len() + 2,
    };
    format!("Formulas!B{row}")
}

/// The team workbook with a Formulas sheet holding the default set plus `rows`.
pub fn with_formulas(d: &tempfile::TempDir, rows: &[(&str, &str)]) -> PathBuf {
    with_formulas_in(d.path(), rows)
}

/// The built-in formulas as rows of a Formulas sheet (name, expression, scope).
pub fn default_formula_rows() -> Vec<Vec<Option<V>>> {
    gpuplan::catalog::formulas()
        .iter()
        .map(|f| {
            vec![
                Some(s(&f.name)),
                Some(s(&f.expression)),
                Some(s(f.scope.key())),
            ]
        })
        .collect()
}

pub fn with_formulas_in(dir: &Path, rows: &[(&str, &str)]) -> PathBuf {
    let mut all = default_formula_rows();
    for (name, expr) in rows {
        match all
            .iter_mut()
            .find(|r| matches!(&r[0], Some(V::S(n)) if n == name))
        {
            Some(r) => r[1] = Some(s(expr)),
            None => all.push(vec![Some(s(name)), Some(s(expr)), Some(s("candidate"))]),
        }
    }
    let p = dir.join("f.xlsx");
    team()
        .sheet("Formulas", &["name", "expression", "scope"], all)
        .write(&p);
    p
}

/// The text of the part `name` in the zip (xlsx) at `path`.
pub fn part(path: &Path, name: &str) -> String {
    let mut z = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut s = String::new();
    z.by_name(name).unwrap().read_to_string(&mut s).unwrap();
    s
}

/// The names of the parts in the zip (xlsx) at `path`.
pub fn part_names(path: &Path) -> Vec<String> {
    let z = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    z.file_names().map(|n| n.unwrap().to_string()).collect()
}

/// Replaces the XML of one cell of the first sheet.
pub fn patch_cell(path: &Path, cell: &str, xml: &str) {
    let text = part(path, "xl/worksheets/sheet1.xml");
    let at = text.find(&format!("<c r=\"{cell}\"")).unwrap();
    let end = at + text[at..].find("</c>").unwrap() + 4;
    let old = text[at..end].to_string();
    patch(path, "xl/worksheets/sheet1.xml", &old, xml);
}

/// A LibreOffice profile that recalculates every formula of an xlsx file on load.
pub fn recalculating_profile(dir: &Path) -> String {
    let user = dir.join("lo-recalc/user");
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(
        user.join("registrymodifications.xcu"),
        r#"<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"#,
    )
    .unwrap();
    format!(
        "-env:UserInstallation=file://{}",
        dir.join("lo-recalc").display()
    )
}

/// `file` recalculated by Gnumeric and saved as xlsx into `out_dir`.
pub fn gnumeric_recalc(file: &Path, out_dir: &Path) -> PathBuf {
    std::fs::create_dir_all(out_dir).unwrap();
    let out = out_dir.join(file.file_name().unwrap());
    let st = Command::new("ssconvert")
        .args(["--recalc", "--export-type=Gnumeric_Excel:xlsx2"])
        .arg(file)
        .arg(&out)
        .output()
        .expect("run Gnumeric (ssconvert)");
    assert!(
        st.status.success() && out.exists(),
        "Gnumeric did not convert {}: {}",
        file.display(),
        String::from_utf8_lossy(&st.stderr)
    );
    out
}

/// `file` recalculated by LibreOffice and saved as xlsx into `out_dir`.
pub fn libreoffice_recalc(profile: &str, file: &Path, out_dir: &Path) -> PathBuf {
    libreoffice_recalc_all(profile, &[file.to_path_buf()], out_dir).remove(0)
}

/// `files` (distinct names) recalculated by LibreOffice in one run and saved as xlsx into
/// `out_dir`, in the same order.
pub fn libreoffice_recalc_all(profile: &str, files: &[PathBuf], out_dir: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(out_dir).unwrap();
    let st = Command::new("soffice")
        .arg(profile)
        .args([
            "--headless",
            "--convert-to",
            "xlsx:Calc MS Excel 2007 XML",
            "--outdir",
        ])
        .arg(out_dir)
        .args(files)
        .output()
        .expect("run LibreOffice (soffice)");
    files
        .iter()
        .map(|file| {
            let out = out_dir.join(file.file_name().unwrap());
            assert!(
                out.exists(),
                "LibreOffice did not convert {}: {}",
                file.display(),
                String::from_utf8_lossy(&st.stderr)
            );
            out
        })
        .collect()
}

/// The team book with qa-api compared with the API `api` at `per_day` requests a day (None:
/// blank) of 1,000 input and 500 output tokens.
pub fn api_book(api: &str, per_day: Option<f64>) -> Book {
    team()
        .set("Workloads", 0, 11, Some(s("requests_per_day")))
        .set("Workloads", 0, 12, Some(s("input_tokens")))
        .set("Workloads", 0, 13, Some(s("output_tokens")))
        .set("Workloads", 0, 14, Some(s("api")))
        .set("Workloads", 2, 11, per_day.map(n))
        .set("Workloads", 2, 12, Some(n(1000.0)))
        .set("Workloads", 2, 13, Some(n(500.0)))
        .set("Workloads", 2, 14, Some(s(api)))
}

/// `gpuplan calc t.xlsx -q ARGS` in `dir`, which must succeed.
pub fn calc_ok(dir: &Path, args: &[&str]) {
    let mut all = vec!["calc", "t.xlsx", "-q"];
    all.extend_from_slice(args);
    gpuplan(dir, &all).ok();
}

/// A temporary folder holding samples/team.xlsx as t.xlsx.
pub fn sample_team_dir() -> tempfile::TempDir {
    let d = tempdir();
    std::fs::copy(repo("samples/team.xlsx"), d.path().join("t.xlsx")).unwrap();
    d
}

/// `gpuplan usage ARGS --json -` in `dir`, which must succeed; its JSON.
pub fn usage_json(dir: &Path, args: &[&str]) -> (serde_json::Value, Run) {
    let mut all = vec!["usage"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", "-"]);
    let r = gpuplan(dir, &all);
    r.ok();
    (json_of(&r), r)
}

/// The entry of `workload` in a usage JSON.
pub fn actual<'a>(j: &'a serde_json::Value, workload: &str) -> &'a serde_json::Value {
    j["actuals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["workload"] == workload)
        .unwrap_or_else(|| panic!("no {workload} in {j:#}"))
}

/// The path of `name` in tests/fixtures/usage, the week of usage logs.
pub fn usage_fixture(name: &str) -> String {
    repo(&format!("tests/fixtures/usage/{name}"))
        .display()
        .to_string()
}

/// The names in a folder, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// A folder holding the team workbook as `b.xlsx`.
pub fn team_dir() -> (tempfile::TempDir, PathBuf) {
    let d = tempdir();
    let p = d.path().join("b.xlsx");
    team().write(&p);
    (d, p)
}

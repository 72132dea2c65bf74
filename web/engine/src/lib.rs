//! gpuplan's engine for the page in the browser (#48): the budget workbook's bytes and the
//! page's options in; the plan workbook, its JSON, the terminal summary and what the page shows
//! out, made by the very function `gpuplan calc` uses ([`gpuplan::calc::run::from_bytes`]). No
//! file system, no thread and no clock: the page hands over the time and the file's date.
//!
//! [`run`] and the other functions here are plain Rust (tested natively); the `#[wasm_bindgen]`
//! wrappers at the end only convert to and from JavaScript's types.

use gpuplan::calc::run::{from_bytes, Request};
use gpuplan::error::Error;
use gpuplan::lang::Lang;
use gpuplan::model::change::Change;
use serde::Deserialize;
use std::path::Path;
use wasm_bindgen::prelude::*;

/// The samples the page offers, as the repository holds them (samples/make_samples.py).
const SAMPLES: [(&str, &[u8]); 3] = [
    ("team.xlsx", include_bytes!("../../../samples/team.xlsx")),
    (
        "startup.xlsx",
        include_bytes!("../../../samples/startup.xlsx"),
    ),
    (
        "portfolio-2026.xlsx",
        include_bytes!("../../../samples/portfolio-2026.xlsx"),
    ),
];

/// The page's options, as its JavaScript sends them (JSON).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// `en` or `zh`.
    pub lang: String,
    /// `--set key=value` texts, in order.
    #[serde(default)]
    pub sets: Vec<String>,
    /// The run's time, Unix seconds (the browser's clock, or the page's `source_date_epoch`).
    pub now: i64,
    /// The input's date as the Summary shows it, YYYY-MM-DD (the file's last change).
    pub saved: String,
    /// Draws of a Ranges sheet (`--samples`) and their seed (`--seed`): the CLI's 1,000 and 1.
    #[serde(default = "default_samples")]
    pub samples: usize,
    #[serde(default = "default_seed")]
    pub seed: u64,
}

fn default_samples() -> usize {
    1000
}

fn default_seed() -> u64 {
    1
}

/// What one run gives the page.
pub struct Planned {
    /// The plan workbook's bytes, as `gpuplan calc` writes them.
    pub workbook: Vec<u8>,
    /// Its name, as the CLI would give it: `budget.plan.xlsx` for `budget.xlsx`.
    pub workbook_name: String,
    /// The JSON of `--json`, and the name the page offers it under (`budget.plan.json`).
    pub json: String,
    pub json_name: String,
    /// The terminal summary, as `gpuplan calc` prints it.
    pub summary: String,
    /// What the page shows ([`gpuplan::report::Screen`]), as JSON.
    pub screen: String,
}

fn lang_of(text: &str) -> Result<Lang, String> {
    match text {
        "en" => Ok(Lang::En),
        "zh" => Ok(Lang::Zh),
        other => Err(format!("error: the language is en or zh, not {other:?}")),
    }
}

/// An error as the CLI prints it: `error: ` (or `错误：`) and the rendered problem, naming the
/// file, the sheet, the cell and what was expected.
fn said(e: &Error, lang: Lang) -> String {
    format!("{}{}", Error::prefix(lang), e.render(lang))
}

/// `budget.plan.xlsx` and `budget.plan.json` for `budget.xlsx`, as `gpuplan calc` names its
/// output beside the input.
pub fn output_names(name: &str) -> (String, String) {
    let stem = gpuplan::write::plan_stem(Path::new(name));
    (format!("{stem}.xlsx"), format!("{stem}.json"))
}

/// Plans the workbook `bytes` named `name` with the page's `options` (JSON): the error text is
/// the CLI's.
pub fn run(name: &str, bytes: Vec<u8>, options: &str) -> Result<Planned, String> {
    let o: Options =
        serde_json::from_str(options).map_err(|e| format!("error: the page's options: {e}"))?;
    let lang = lang_of(&o.lang)?;
    let sets = o
        .sets
        .iter()
        .map(|s| Change::parse(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| said(&e, lang))?;
    let request = Request {
        sets,
        now: o.now,
        ..Request::default()
    };
    let out = from_bytes(name, bytes, &request, (o.samples, o.seed), lang, &o.saved)
        .map_err(|e| said(&e, lang))?;
    let screen = serde_json::to_string(&gpuplan::report::screen(&out.calc, lang))
        .map_err(|e| format!("error: internal error: {e}"))?;
    let (workbook_name, json_name) = output_names(name);
    Ok(Planned {
        workbook: out.workbook,
        workbook_name,
        json: out.json,
        json_name,
        summary: out.summary,
        screen,
    })
}

/// The refusal of a file of `size` bytes before it is read, in the CLI's words; None when the
/// size is within the CLI's bound.
pub fn refuse_size(name: &str, size: f64, lang: Lang) -> Option<String> {
    let max = gpuplan::read::MAX_FILE_BYTES;
    (size > max as f64).then(|| {
        said(
            &gpuplan::support::files::too_big(
                Path::new(name),
                size as u64,
                max,
                gpuplan::read::WORKBOOK,
            ),
            lang,
        )
    })
}

/// The template `gpuplan init` writes (`--lang`; the team example), dated `now`.
pub fn template_of(lang: Lang, now: i64) -> Result<Vec<u8>, String> {
    gpuplan::write::template_bytes(lang, gpuplan::write::Example::Team, now)
        .map_err(|e| said(&e, lang))
}

/// The bytes of the sample `name`.
pub fn sample_of(name: &str) -> Option<Vec<u8>> {
    SAMPLES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, b)| b.to_vec())
}

// ---- JavaScript's side ----

/// One run's results, read by the page through its getters.
#[wasm_bindgen]
pub struct Plan(Planned);

#[wasm_bindgen]
impl Plan {
    #[wasm_bindgen(getter)]
    pub fn workbook(&self) -> Vec<u8> {
        self.0.workbook.clone()
    }
    #[wasm_bindgen(getter, js_name = workbookName)]
    pub fn workbook_name(&self) -> String {
        self.0.workbook_name.clone()
    }
    #[wasm_bindgen(getter)]
    pub fn json(&self) -> String {
        self.0.json.clone()
    }
    #[wasm_bindgen(getter, js_name = jsonName)]
    pub fn json_name(&self) -> String {
        self.0.json_name.clone()
    }
    #[wasm_bindgen(getter)]
    pub fn summary(&self) -> String {
        self.0.summary.clone()
    }
    #[wasm_bindgen(getter)]
    pub fn screen(&self) -> String {
        self.0.screen.clone()
    }
}

#[wasm_bindgen]
extern "C" {
    /// `console.error`: the worker keeps the last one, so that a panic's message reaches the
    /// page (a panic aborts: WebAssembly traps right after the hook).
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(text: &str);
}

/// A panic is a bug: its message goes to `console.error` before the trap, as the CLI prints
/// `error: internal error: …`.
fn report_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            console_error(&format!("gpuplan panic: {info}"))
        }));
    });
}

/// Plans a workbook: `options` is the JSON of [`Options`]. Throws the CLI's error text.
#[wasm_bindgen]
pub fn calc(name: &str, bytes: Vec<u8>, options: &str) -> Result<Plan, JsError> {
    report_panics();
    run(name, bytes, options)
        .map(Plan)
        .map_err(|e| JsError::new(&e))
}

/// The CLI's refusal of a file of `size` bytes, or undefined when it may be read.
#[wasm_bindgen(js_name = refuseSize)]
pub fn refuse_size_js(name: &str, size: f64, lang: &str) -> Option<String> {
    refuse_size(name, size, lang_of(lang).unwrap_or_default())
}

/// The template `gpuplan init --lang LANG` writes, dated `now` (Unix seconds).
#[wasm_bindgen]
pub fn template(lang: &str, now: f64) -> Result<Vec<u8>, JsError> {
    let lang = lang_of(lang).map_err(|e| JsError::new(&e))?;
    template_of(lang, now as i64).map_err(|e| JsError::new(&e))
}

/// The names of the samples the page offers.
#[wasm_bindgen]
pub fn samples() -> Vec<String> {
    SAMPLES.iter().map(|(n, _)| n.to_string()).collect()
}

/// The bytes of the sample `name`, or undefined.
#[wasm_bindgen]
pub fn sample(name: &str) -> Option<Vec<u8>> {
    sample_of(name)
}

/// gpuplan's version, for the page's footer.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn outputs_are_named_as_the_cli_names_them() {
        assert_eq!(
            output_names("budget.xlsx"),
            ("budget.plan.xlsx".into(), "budget.plan.json".into())
        );
        assert_eq!(
            output_names("团队预算.xlsx"),
            ("团队预算.plan.xlsx".into(), "团队预算.plan.json".into())
        );
    }

    #[test]
    fn a_file_over_50_mb_is_refused_before_it_is_read_in_the_clis_words() {
        // MAX_FILE_BYTES is 50,000,000: 50,000,001 bytes round up to 51 MB.
        assert_eq!(refuse_size("big.xlsx", 50_000_000.0, Lang::En), None);
        assert_eq!(
            refuse_size("big.xlsx", 50_000_001.0, Lang::En).unwrap(),
            "error: big.xlsx: the file is 51 MB; gpuplan reads an .xlsx workbook of at most 50 MB"
        );
    }

    #[test]
    fn the_team_sample_plans_to_the_clis_total_and_a_bad_set_reads_as_the_clis() {
        let options = r#"{"lang":"en","now":1764547200,"saved":"2025-12-01"}"#;
        let p = run("team.xlsx", sample_of("team.xlsx").unwrap(), options).unwrap();
        assert_eq!(p.workbook_name, "team.plan.xlsx");
        // The team sample's total with the safety margin (tests/snapshots: ¥2,268.96 =
        // (¥1,628 GPU + ¥100 storage + ¥162.80 trial reserve) × 1.2).
        assert!(p.summary.contains("¥2,268.96"), "{}", p.summary);
        let screen: serde_json::Value = serde_json::from_str(&p.screen).unwrap();
        assert_eq!(screen["totals"].as_array().unwrap().len(), 5);
        let bad = r#"{"lang":"en","now":0,"saved":"2025-12-01","sets":["safety_margin"]}"#;
        let e = run("team.xlsx", sample_of("team.xlsx").unwrap(), bad)
            .err()
            .unwrap();
        assert!(e.starts_with("error: "), "{e}");
        assert!(e.contains("safety_margin"), "{e}");
    }
}

//! Plain domain types: what a validated workbook says. No I/O here; `read/` builds these from
//! cells (keeping cell addresses for messages) and every later stage only reads them.

mod assumptions;
pub mod billing;
pub mod change;
mod engines;
mod gpu;
mod warning;
mod workload;
pub use assumptions::*;
pub use billing::{Hidden, Mode, Per, Price};
pub use engines::*;
pub use gpu::*;
pub use warning::*;
pub use workload::*;

use crate::model::change::{Change, Target};
use serde::Serialize;
use std::fmt;

/// A cell address, kept so that later stages can say where a value came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct CellRef {
    /// The sheet's name as the workbook spells it (`Workloads`, `负载`).
    pub sheet: String,
    /// 0-based row.
    pub row: u32,
    /// 0-based column.
    pub col: u32,
}

impl CellRef {
    /// The cell at 0-based `row` and `col` of `sheet`.
    pub fn new(sheet: impl Into<String>, row: u32, col: u32) -> Self {
        CellRef {
            sheet: sheet.into(),
            row,
            col,
        }
    }
}

/// A calendar month: months since year 0 (`year × 12 + month − 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month(pub i32);

impl Month {
    /// The month `month` (1–12) of `year` (1900–9999); None outside those ranges.
    pub fn new(year: i32, month: u32) -> Option<Month> {
        ((1..=12).contains(&month) && (1900..=9999).contains(&year))
            .then(|| Month(year * 12 + month as i32 - 1))
    }

    /// `2027-03`, `2027-3`, `2027/03`, `2027-03-15` (the day ignored) or `2027年3月`.
    pub fn parse(text: &str) -> Option<Month> {
        let t = text.trim().trim_end_matches('月');
        let mut parts = t.split(['-', '/', '.', '年']);
        let year = parts.next()?.trim().parse().ok()?;
        let month = parts.next()?.trim().parse().ok()?;
        if let Some(day) = parts.next() {
            let d: u32 = day.trim().trim_end_matches('日').parse().ok()?;
            if !(1..=31).contains(&d) {
                return None;
            }
        }
        if parts.next().is_some() {
            return None;
        }
        Month::new(year, month)
    }

    /// The month of a Unix timestamp (UTC).
    pub fn of_timestamp(secs: i64) -> Month {
        let date = crate::support::time::civil_date(secs);
        Month::parse(&date).unwrap_or(Month(2026 * 12))
    }

    /// The calendar year, `2027` for 2027-03.
    pub fn year(self) -> i32 {
        self.0.div_euclid(12)
    }

    /// The month of the year, 1–12.
    pub fn month(self) -> u32 {
        self.0.rem_euclid(12) as u32 + 1
    }

    /// The month `months` later (earlier when negative), across years: 2027-12 plus 1 is
    /// 2028-01.
    pub fn plus(self, months: i32) -> Month {
        Month(self.0 + months)
    }
}

impl std::fmt::Display for Month {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}", self.year(), self.month())
    }
}

/// Hours of the day as a window of whole hours, `22-07` from 22:00 to 07:00 (across midnight);
/// `0-24` (or any window whose ends meet, `9-9`) is the whole day. The Workloads sheet's `window`
/// (when a job may run) and `peak_window` (when a service's peak hours fall).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DayWindow {
    /// First hour in the window, 0–23.
    pub start: u8,
    /// The hour the window ends at (not in it), 0–23; equal to `start` for the whole day.
    pub end: u8,
}

impl DayWindow {
    /// The whole day.
    pub const ALL_DAY: DayWindow = DayWindow { start: 0, end: 0 };

    /// `22-07`, `22:00-07:00`, `22–07`, `22~7`, `22点-7点`; hours 0–24.
    pub fn parse(text: &str) -> Option<DayWindow> {
        let t = text.trim();
        let (a, b) = t
            .split_once(['-', '–', '—', '~', '～', '至'])
            .filter(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty())?;
        let hour = |s: &str| -> Option<u8> {
            let s = s.trim().trim_end_matches('点').trim_end_matches("时");
            let s = s
                .strip_suffix(":00")
                .or_else(|| s.strip_suffix("：00"))
                .unwrap_or(s);
            let h: u8 = s.trim().parse().ok()?;
            (h <= 24).then_some(h % 24)
        };
        Some(DayWindow {
            start: hour(a)?,
            end: hour(b)?,
        })
    }

    /// Whether hour `h` (0–23) of the day is in the window.
    pub fn contains(self, h: usize) -> bool {
        let (s, e, h) = (self.start as usize, self.end as usize, h % 24);
        if s == e {
            true
        } else if s < e {
            (s..e).contains(&h)
        } else {
            h >= s || h < e
        }
    }

    /// Hours in the window (24 for the whole day).
    pub fn len(self) -> usize {
        (0..24).filter(|&h| self.contains(h)).count()
    }

    /// Whether it is empty: never (a window whose ends meet is the whole day).
    pub fn is_empty(self) -> bool {
        false
    }
}

impl std::fmt::Display for DayWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.start == self.end {
            write!(f, "00-24")
        } else {
            write!(f, "{:02}-{:02}", self.start, self.end)
        }
    }
}

/// `A`, `B`, … `XFD` for a 0-based column.
pub fn column_letters(col: u32) -> String {
    let mut n = col as u64 + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = ((n - 1) % 26) as u8;
        out.push(b'A' + rem);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

impl fmt::Display for CellRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}!{}{}",
            self.sheet,
            column_letters(self.col),
            self.row + 1
        )
    }
}

/// `v` rounded to the cent, half away from zero as Excel's ROUND; 0.0, never -0.0. The value
/// is first nudged away from zero by one part in 10¹³ (a few hundred units in the last place),
/// so that a half cent that binary floating point holds as 0.00499999… (1.005 × 100 =
/// 100.49999…) rounds up as Excel and LibreOffice round it, while a value truly below the half
/// cent is not moved across it.
pub fn cents(v: f64) -> f64 {
    if !v.is_finite() {
        return v;
    }
    let x = v * 100.0;
    (x * (1.0 + 1e-13)).round() / 100.0 + 0.0
}

/// Serializes money to the cent (`#[serde(serialize_with = "crate::model::cents_json")]`): a
/// difference or sum of cents is written as its 2 decimals, not as 308.33000000000175.
pub fn cents_json<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(cents(*v))
}

/// [`cents_json`] for an amount that may be absent.
pub fn cents_json_opt<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(x) => s.serialize_some(&cents(*x)),
        None => s.serialize_none(),
    }
}

/// Where a value came from, for the Assumptions tab and for warnings.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// Read from the input workbook, at this cell (`Assumptions!B5`).
    Sheet(String),
    /// The built-in default (templates/assumptions.tsv): the sheet or its row was absent, or the
    /// row held an earlier gpuplan's default (templates/assumptions.earlier.tsv).
    Default,
    /// Set or replaced by a change in the `--set` syntax (the command line or a scenario).
    Set,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Sheet(cell) => write!(f, "{cell}"),
            Source::Default => write!(f, "default"),
            Source::Set => write!(f, "--set"),
        }
    }
}

/// An assumption's value: a number, a yes/no, or a label (`currency`).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A number (`hours_in_month`, `safety_margin`), a formula variable.
    Number(f64),
    /// A yes/no (`grad_checkpointing`), a formula variable.
    Bool(bool),
    /// Text, never a formula variable: `currency`, `plan_start`, `cut_order`, approval fields.
    Text(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(n) => write!(f, "{}", format_number(*n)),
            Value::Bool(b) => write!(f, "{}", if *b { "yes" } else { "no" }),
            Value::Text(t) => write!(f, "{t}"),
        }
    }
}

/// A number rounded to tenths, as a person writes it (GiB, months, hours in a message).
pub fn format_tenths(n: f64) -> String {
    format_number((n * 10.0).round() / 10.0)
}

/// A number as a person writes it: no trailing `.0`, at most 6 significant decimals.
pub fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        let s = format!("{n:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A kind of budget cut (seed 001 §6.3, 降级方案), named as the Assumption `cut_order` lists
/// them from least to most harm. One table: the words, the default order and the parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CutAction {
    /// `spot`: let an offline workload not yet allowed spot run on it (`spot_ok=yes`).
    Spot,
    /// `fp8`: serve an inference workload with fp8 weights.
    Fp8,
    /// `int8`: serve an inference workload with int8 weights.
    Int8,
    /// `no_redundancy`: drop an online workload's spare instances (`redundancy=0`).
    NoRedundancy,
    /// `int4`: serve an inference workload with int4 weights.
    Int4,
    /// `api`: call the workload's `api` instead of renting GPUs (its bill is outside the plan).
    Api,
    /// `postpone`: move an offline workload's `start_month` one month past the budget month.
    Postpone,
}

impl CutAction {
    /// Every action, in the default order of harm (the default `cut_order`).
    pub const ALL: [CutAction; 7] = [
        CutAction::Spot,
        CutAction::Fp8,
        CutAction::Int8,
        CutAction::NoRedundancy,
        CutAction::Int4,
        CutAction::Api,
        CutAction::Postpone,
    ];

    /// The word `cut_order` and messages name the action by: `spot`, `no_redundancy`, ….
    pub fn key(self) -> &'static str {
        match self {
            CutAction::Spot => "spot",
            CutAction::Fp8 => "fp8",
            CutAction::Int8 => "int8",
            CutAction::NoRedundancy => "no_redundancy",
            CutAction::Int4 => "int4",
            CutAction::Api => "api",
            CutAction::Postpone => "postpone",
        }
    }

    /// The lower precision the action serves in, for fp8, int8 and int4.
    pub fn precision(self) -> Option<Precision> {
        match self {
            CutAction::Fp8 => Some(Precision::Fp8),
            CutAction::Int8 => Some(Precision::Int8),
            CutAction::Int4 => Some(Precision::Int4),
            _ => None,
        }
    }

    /// The actions a `cut_order` text lists, least harm first: words separated by commas,
    /// spaces or `<`; each once. An action left out is never proposed. The error names the word
    /// that is not an action, or the one listed twice.
    pub fn parse_order(text: &str) -> Result<Vec<CutAction>, String> {
        let mut order = Vec::new();
        let words = text
            .split(|c: char| c == ',' || c == '<' || c == '，' || c == '、' || c.is_whitespace())
            .filter(|w| !w.is_empty());
        for word in words {
            let w = word.to_ascii_lowercase().replace('-', "_");
            let Some(a) = CutAction::ALL.into_iter().find(|a| a.key() == w) else {
                let all: Vec<&str> = CutAction::ALL.iter().map(|a| a.key()).collect();
                return Err(format!("`{word}` is not a cut: use {}", all.join(", ")));
            };
            if order.contains(&a) {
                return Err(format!("{} is listed twice", a.key()));
            }
            order.push(a);
        }
        if order.is_empty() {
            return Err("no cut is listed".to_string());
        }
        Ok(order)
    }

    /// The order as the Assumption writes it.
    pub fn order_text(order: &[CutAction]) -> String {
        order.iter().map(|a| a.key()).collect::<Vec<_>>().join(", ")
    }
}

/// A currency's symbol and decimals where it has one the outputs write as a prefix (`¥1,628.00`);
/// any other ISO code is written as a suffix with two decimals. The terminal and the workbook
/// both read this table.
pub fn currency_symbol(code: &str) -> Option<(&'static str, usize)> {
    match code {
        "CNY" | "RMB" => Some(("¥", 2)),
        "USD" => Some(("$", 2)),
        "EUR" => Some(("€", 2)),
        "GBP" => Some(("£", 2)),
        "JPY" => Some(("¥", 0)),
        _ => None,
    }
}

/// `¥1,628.00`, `$12.50`, `¥1,628` (JPY), `1,000.00 CHF`.
pub fn money(currency: &str, v: f64) -> String {
    let symbol = currency_symbol(currency);
    let decimals = symbol.map_or(2, |(_, d)| d);
    let scale = 10u128.pow(decimals as u32);
    let units = (v.abs() * scale as f64).round() as u128;
    let whole = (units / scale).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let n = if decimals > 0 {
        format!("{grouped}.{:0decimals$}", units % scale)
    } else {
        grouped
    };
    let sign = if v < 0.0 && units > 0 { "-" } else { "" };
    match symbol {
        Some((s, _)) => format!("{sign}{s}{n}"),
        None => format!("{sign}{n} {currency}"),
    }
}

/// Names the planner adds to each chosen candidate, so portfolio formulas can sum them
/// (`total_gpu_cost`, …): no formula may take them.
pub const PLANNED: [&str; 4] = ["gpu_cost", "cold_start_cost", "rework_cost", "tco"];

/// Names of the plan's own total lines (the terminal summary, the JSON `totals`) besides
/// [`PLANNED`]: a portfolio formula may not take them, or it would replace a line.
pub const TOTAL_LINES: [&str; 3] = ["storage_cost", "egress_cost", "trial_reserve"];

/// When a formula is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Once for every (workload, GPU offer).
    Candidate,
    /// Once, after the plan is chosen.
    Portfolio,
}

impl Scope {
    /// The Formulas sheet's `scope` value: `candidate` or `portfolio`.
    pub fn key(self) -> &'static str {
        match self {
            Scope::Candidate => "candidate",
            Scope::Portfolio => "portfolio",
        }
    }
}

/// Whether a formula is gpuplan's, a user's replacement of one, or a user's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A formula of the default set (templates/formulas.tsv), its expression as shipped
    /// (whitespace aside).
    Default,
    /// A default's name on a Formulas row with another expression (a warning says so).
    Replaced,
    /// A formula of the user's own, under a new name (an added column in the output).
    User,
}

/// One row of the Formulas sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct FormulaDef {
    /// The formula's name (`name` column), an identifier other formulas refer to it by.
    pub name: String,
    /// The evalexpr expression (`expression` column), without a spreadsheet's leading `=`.
    pub expression: String,
    /// When it is evaluated (`scope` column; blank is `candidate`).
    pub scope: Scope,
    /// The unit of its value (`unit` column: `GiB`, `h`, `B`; the default's where blank).
    pub unit: String,
    /// What it computes and why (`description` column; the default's where blank).
    pub description: String,
    /// Whether it is a default, a user's replacement of one, or the user's own.
    pub origin: Origin,
    /// The expression's cell, when the row came from the user's sheet.
    pub cell: Option<CellRef>,
}

impl FormulaDef {
    /// `Formulas!B7 (fits)` or `formula fits` for messages.
    pub fn location(&self) -> String {
        match &self.cell {
            Some(cell) => format!("{cell} ({})", self.name),
            None => format!("formula {}", self.name),
        }
    }
}

/// A validated input workbook: everything the engine needs. The default is an empty input (no
/// rows, tables or formulas), the base of `Input { …, ..Input::default() }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Input {
    /// The path of the input workbook as given (empty for an input not from a file).
    pub file: std::path::PathBuf,
    /// The Workloads sheet's rows, in sheet order, after `--set` changes.
    pub workloads: Vec<Workload>,
    /// The GPU offers: the GPUs sheet's rows, or the built-in templates/gpus.tsv without one.
    pub gpus: Vec<GpuOffer>,
    /// The catalog after the Models sheet's rows are merged in.
    pub models: Vec<ModelSpec>,
    /// Numeric columns the user added to the Models sheet (formula variables).
    pub model_columns: Vec<String>,
    /// The Assumptions sheet after defaults and `--set`.
    pub assumptions: Assumptions,
    /// Engine profiles: per-engine assumption values for the workloads that name the engine.
    pub engines: Engines,
    /// The formulas to evaluate: the Formulas sheet's rows, or the default set without one.
    pub formulas: Vec<FormulaDef>,
    /// Read-time notices: sheets taken from defaults, models guessed, figures filled from the catalog.
    pub notices: Vec<Warning>,
    /// SHA-256 of the file's bytes as read, lowercase hex (empty for an input not from a file).
    pub sha256: String,
    /// The Scenarios sheet: each scenario's changes in the --set syntax, in sheet order.
    pub scenarios: Vec<ScenarioDef>,
    /// The APIs sheet, or the built-in examples without one.
    pub apis: Vec<ApiPrice>,
    /// The Ranges sheet: what varies for the Sensitivity tab.
    pub ranges: Vec<RangeDef>,
    /// The Usage sheet: which GPU of the usage logs runs which workload (`gpuplan usage`).
    pub usage: Vec<GpuMapping>,
}

impl Input {
    /// Sets `key` of `target` to the number `v` in an input already read, as `--set key=v` would
    /// have: a numeric assumption, a numeric GPU column of the matching offers, or a numeric
    /// Workloads column of the matching workloads (`*` for all); or why it cannot.
    pub fn set_number(&mut self, target: &Target, key: &str, v: f64) -> Result<(), String> {
        match target {
            Target::Assumption => {
                let items = &mut self.assumptions.items;
                let Some(i) = items.iter().position(|a| a.key == key) else {
                    let hint =
                        crate::support::suggest::hint(key, items.iter().map(|a| a.key.as_str()));
                    return Err(format!("{key} is not an assumption{hint}"));
                };
                let a = &mut items[i];
                match a.value {
                    Value::Number(_) => a.value = Value::Number(v),
                    _ => return Err(format!("{key} is not a number")),
                }
            }
            Target::Gpu(name) => {
                let mut any = false;
                let n = normalize(name);
                for g in self
                    .gpus
                    .iter_mut()
                    .filter(|g| name == "*" || g.is_named(&n))
                {
                    any = true;
                    if !g.set_number(key, v) {
                        return Err(format!("{key} is not a numeric GPU column"));
                    }
                }
                if !any {
                    return Err(format!("there is no GPU offer \"{name}\""));
                }
            }
            Target::Workload(name) => {
                let mut any = false;
                for w in self
                    .workloads
                    .iter_mut()
                    .filter(|w| name == "*" || &w.name == name)
                {
                    any = true;
                    match w.numbers.get_mut(key) {
                        Some(slot) => *slot = Some(v),
                        None => {
                            let hint = crate::support::suggest::hint(
                                key,
                                crate::model::WorkloadNumbers::NAMES.iter().copied(),
                            );
                            return Err(format!("{key} is not a numeric workload column{hint}"));
                        }
                    }
                }
                if !any {
                    return Err(format!("there is no workload named \"{name}\""));
                }
            }
        }
        Ok(())
    }

    /// The workloads' names, in the sheet's order.
    pub fn workload_names(&self) -> Vec<String> {
        self.workloads.iter().map(|w| w.name.clone()).collect()
    }
}

/// A per-token API price, for comparing renting GPUs with calling an API (the APIs sheet).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiPrice {
    /// Who sells the API (`provider` column).
    pub provider: String,
    /// The name a workload's `api` column gives.
    pub model: String,
    /// Prices per million tokens, in the plan's currency.
    pub input_per_m: f64,
    /// Price per million output tokens, in the plan's currency.
    pub output_per_m: f64,
    /// Per million input tokens a cache serves; None: not offered (cached tokens cost as input).
    pub cached_input_per_m: Option<f64>,
    /// Where the price was read (examples are marked so).
    pub source: String,
}

/// One row of the Ranges sheet: what varies (the --set syntax without the value) and how.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeDef {
    /// The key as written: `chat-api.concurrency`, `gpu:H100.monthly`, `safety_margin`.
    pub key: String,
    /// What the key names, parsed once.
    pub target: Target,
    /// The column or assumption key that varies (`concurrency`, `monthly`, `safety_margin`).
    pub column: String,
    /// Whether the column holds whole numbers (a concurrency, a context length): samples are
    /// rounded.
    pub whole: bool,
    /// The lowest value sampled (`low` column), in the column's unit; low ≤ likely ≤ high.
    pub low: f64,
    /// The highest value sampled (`high` column), in the column's unit.
    pub high: f64,
    /// The mode of a triangular distribution; None: uniform.
    pub likely: Option<f64>,
    /// The row's key cell, `Ranges!A2`.
    pub cell: String,
}

/// One scenario of the Scenarios sheet: its name and its changes, each with its cell.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioDef {
    /// The scenario's name (`scenario` column), as the Scenarios tab heads its column.
    pub name: String,
    /// Its changes, each with its cell `Scenarios!B3` as origin.
    pub changes: Vec<Change>,
}

/// One row of the Usage sheet (or of a `--map` file): a GPU as the usage logs name it, and the
/// workload it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuMapping {
    /// A uuid (`GPU-5f1c…`), an index (`0`), `host:index` (`node1:0`), or a plain log's own name.
    pub gpu_id: String,
    /// The name of the workload (of the Workloads sheet) the GPU runs.
    pub workload: String,
    /// Where the row is, for messages: `Usage!A3` or `map.csv:3`.
    pub location: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A warning added without its Chinese (as other branches add them) still shows, in English.
    #[test]
    fn a_warning_without_chinese_falls_back_to_english() {
        use crate::lang::Lang;
        let plain = Warning::warn("Workloads!A2", "a share is tight");
        assert_eq!(plain.text(Lang::Zh), "a share is tight");
        let both = plain.clone().with_zh("比例偏紧");
        assert_eq!(both.text(Lang::Zh), "比例偏紧");
        assert_eq!(both.text(Lang::En), "a share is tight");
        assert_eq!(
            serde_json::to_value(&both).unwrap()["message"],
            "a share is tight"
        );
    }

    #[test]
    fn column_letters_cover_one_two_and_three_letters() {
        assert_eq!(column_letters(0), "A");
        assert_eq!(column_letters(25), "Z");
        assert_eq!(column_letters(26), "AA");
        assert_eq!(column_letters(16383), "XFD");
    }

    #[test]
    fn kind_aliases_in_both_languages() {
        assert_eq!(Kind::parse("LoRA微调"), Some(Kind::Lora));
        assert_eq!(Kind::parse(" Full_Finetune "), Some(Kind::FullFinetune));
        assert_eq!(Kind::parse("生图"), Some(Kind::ImageGen));
        assert_eq!(Kind::parse("推理"), Some(Kind::Inference));
        assert_eq!(Kind::parse("video"), Some(Kind::VideoGen));
        assert_eq!(Kind::parse("生视频"), Some(Kind::VideoGen));
        assert_eq!(Kind::parse("hologram"), None);
    }

    #[test]
    fn precision_bytes_and_aliases() {
        assert_eq!(Precision::parse("NF4"), Some(Precision::Int4));
        assert_eq!(Precision::parse("BF16").map(Precision::bytes), Some(2.0));
        assert_eq!(Precision::Int4.bytes(), 0.5);
        assert_eq!(Precision::parse("fp64"), None);
    }

    #[test]
    fn money_is_grouped_with_the_currency_symbol() {
        assert_eq!(money("CNY", 1628.0), "¥1,628.00");
        assert_eq!(money("USD", 1234567.891), "$1,234,567.89");
        assert_eq!(money("CHF", 12.5), "12.50 CHF");
        assert_eq!(money("CNY", -5.0), "-¥5.00");
        // The workbook's table: pounds with a symbol, yen without decimals.
        assert_eq!(money("GBP", 12.5), "£12.50");
        assert_eq!(money("JPY", 1234.6), "¥1,235");
    }
}

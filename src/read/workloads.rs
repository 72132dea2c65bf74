//! The Workloads sheet: every row validated into a workload, its model resolved, and
//! `--set workload.column=value`.

use super::table::{self, found, Record, Rule, Table};
use super::xlsx::{Raw, RawSheet};
use super::Reader;
use crate::catalog::{self, Fallback};
use crate::error::Problem;
use crate::model::change::{Change, Op, Target};
use crate::model::{
    normalize, ApiPrice, CellRef, DayWindow, EngineValue, Engines, GpuOffer, Kind, ModelSpec,
    Month, Precision, Warning, Workload, WorkloadNumbers,
};
use crate::support::suggest;
use std::collections::{BTreeMap, HashMap};

/// What a Workloads row may name, each checked against: the models, the GPU offers, the engine
/// profiles and the API prices read from the other sheets (or the built-in ones).
struct Known<'a> {
    models: &'a [ModelSpec],
    gpus: &'a [GpuOffer],
    engines: &'a Engines,
    apis: &'a [ApiPrice],
}

/// The cells of a Workloads row beside its name, kind, precisions and numbers, each checked on
/// its own (and against what it names).
struct RowCells {
    online: Option<bool>,
    spot_ok: Option<bool>,
    notes: String,
    api: Option<String>,
    start_month: Option<Month>,
    end_month: Option<Month>,
    window: Option<DayWindow>,
    peak_window: Option<DayWindow>,
    pinned: Option<String>,
    engine: Option<String>,
}

impl Reader {
    pub(super) fn workloads(
        &mut self,
        raw: RawSheet,
        models: &[ModelSpec],
        gpus: &[GpuOffer],
        engines: &Engines,
        apis: &[ApiPrice],
        changes: &[Change],
    ) -> Vec<Workload> {
        let Some(mut t) = self.table(raw, "Workloads") else {
            return Vec::new();
        };
        for key in ["name", "kind"] {
            if !t.has(key) {
                self.problems.push(Problem::new(
                    format!("{}!1", t.sheet),
                    format!("the Workloads sheet needs a `{key}` column"),
                ));
            }
        }
        if !t.has("name") {
            return Vec::new();
        }
        self.apply_workload_changes(&mut t, changes);
        let known = Known {
            models,
            gpus,
            engines,
            apis,
        };
        let mut out: Vec<Workload> = Vec::new();
        let mut seen: HashMap<String, CellRef> = HashMap::new();
        for rec in t.records() {
            if let Some(w) = self.workload(&rec, &known, &mut seen) {
                out.push(w);
            }
        }
        if out.is_empty() && self.problems.is_empty() {
            self.problems.push(Problem::new(
                format!("{}!2", t.sheet),
                "the Workloads sheet lists no workload; add at least one row",
            ));
        }
        out
    }

    /// Writes each `--set workload.column=value` into the table's cells, as if the user had
    /// typed it there, and marks the cells so that a problem with one names the flag.
    pub(super) fn apply_workload_changes(&mut self, t: &mut Table, changes: &[Change]) {
        // The caller returns before this without a name column (and reports it).
        let Some(&name_col) = t.columns.get("name") else {
            return;
        };
        for o in changes {
            let Target::Workload(wname) = &o.target else {
                continue;
            };
            let at = o.shown();
            let Some(key) = self.change_column_key(o, &at) else {
                continue;
            };
            let col = changed_column(t, key);
            let mut found = false;
            let mut written = false;
            for (r, cells) in t.rows.iter_mut().filter(|(_, cells)| {
                wname == "*"
                    || cells.get(&name_col).map(table::raw_text).as_deref() == Some(wname.as_str())
            }) {
                found = true;
                if self.change_cell(o, &at, *r, cells, col) {
                    t.overridden.insert((*r, col), at.clone());
                    written = true;
                }
            }
            if found && !written && o.is_scale() && wname == "*" {
                self.problems.push(Problem::new(
                    at.clone(),
                    format!(
                        "no workload has a number in {} to scale (every row is blank: their defaults apply); give the value instead (*.{}=…)",
                        o.key, o.key
                    ),
                ));
            }
            if !found {
                self.problems.push(Problem::new(
                    at,
                    format!("there is no workload named \"{wname}\""),
                ));
            }
        }
    }

    /// The Workloads column a `--set` changes, or a problem (at `at`) where it names the name
    /// column or no workload column at all.
    fn change_column_key(&mut self, o: &Change, at: &str) -> Option<&'static str> {
        let columns = catalog::columns("Workloads");
        if o.key == "name" {
            self.problems.push(Problem::new(
                at,
                "a workload's name cannot be set: it is how --set finds the workload; rename it in the sheet",
            ));
            return None;
        }
        match catalog::find_column(&columns, &o.key).map(|(_, c)| c) {
            // A relative change scales a number: a yes/no, a name or a month has none.
            Some(c) if o.is_scale() && !c.ty.is_numeric() => {
                self.problems.push(Problem::new(
                    at,
                    format!(
                        "`{}` is not a numeric column: a relative change (*=) scales numbers only; give its value ({}.{}=…)",
                        o.key,
                        match &o.target {
                            Target::Workload(w) => w.as_str(),
                            _ => "*",
                        },
                        o.key
                    ),
                ));
                None
            }
            Some(c) => Some(c.key),
            None => {
                let hint = suggest::hint(&o.key, columns.iter().map(|c| c.key));
                self.problems.push(Problem::new(
                    at,
                    format!("`{}` is not a workload column{hint}", o.key),
                ));
                None
            }
        }
    }

    /// Writes one `--set` into one row's cell: its text, or for a relative change the cell's
    /// number scaled. False where nothing was written: a blank cell keeps its default, and a cell
    /// that is not a number is a problem.
    fn change_cell(
        &mut self,
        o: &Change,
        at: &str,
        row: u32,
        cells: &mut BTreeMap<u32, Raw>,
        col: u32,
    ) -> bool {
        let factor = match &o.op {
            Op::Set(v) => {
                cells.insert(col, Raw::Text(v.clone()));
                return true;
            }
            Op::Scale(f) => *f,
        };
        // A relative change scales a given number. A blank cell's default is worked out later
        // (by the kind, the model, the formulas): there is no number here to scale, and doing
        // nothing would be a silent no-op, so it is refused naming the row.
        // With `*`, a blank row keeps its default (a batch job has no concurrency), so long as
        // some row is scaled (checked by the caller).
        let Some(raw) = cells.get(&col) else {
            if let Target::Workload(w) = &o.target {
                if w != "*" {
                    self.problems.push(Problem::new(
                        at,
                        format!(
                            "{} of row {} is blank (its default applies): a relative change has no number to scale; give the value instead ({w}.{}=…)",
                            o.key,
                            row + 1,
                            o.key
                        ),
                    ));
                }
            }
            return false;
        };
        match table::raw_number(raw) {
            // A percentage stays one: its column decides whether it may be read.
            Some(v) if table::is_percent(raw) => {
                cells.insert(col, Raw::Percent(v * factor));
                true
            }
            Some(v) => {
                cells.insert(col, Raw::Number(v * factor));
                true
            }
            None => {
                self.problems.push(Problem::new(
                    at,
                    format!(
                        "{} of row {} is {}, not a number a relative change can scale",
                        o.key,
                        row + 1,
                        table::found(raw)
                    ),
                ));
                false
            }
        }
    }

    /// One Workloads row validated into a workload, or `None` with its problems recorded. Every
    /// cell is checked before the row is given up, so that the user sees all its problems.
    fn workload(
        &mut self,
        rec: &Record,
        known: &Known,
        seen: &mut HashMap<String, CellRef>,
    ) -> Option<Workload> {
        let before = self.problems.len();
        let name = self.workload_name(rec, seen)?;
        let p = &mut self.problems;
        let kind = kind_cell(rec, &name, p);
        let precision = enum_cell(rec, "precision", p);
        let kv_precision = enum_cell(rec, "kv_precision", p);
        let expert_precision = enum_cell(rec, "expert_precision", p);
        let n = self.workload_numbers(rec);
        let cells = row_cells(rec, known, &mut self.problems);
        let kind = kind?;
        if let Some(e) = &cells.engine {
            self.engine_notice(rec, &name, kind, e, known.engines);
        }
        let p = &mut self.problems;
        // Cross-field rules, on the values with their defaults.
        check_sizes(rec, kind, &n, p);
        let online = cells
            .online
            .unwrap_or(crate::catalog::online_by_default(kind));
        check_work(rec, &name, kind, &n, online, p);
        if let (true, Some(w)) = (online, cells.window) {
            self.notices
                .push(window_of_a_service(rec, &name, w, n.hours_per_month));
        }
        let model = self.resolve_model(rec, &name, kind, &n, known.models);
        if self.problems.len() > before {
            return None;
        }
        // Blank precisions take templates/columns.tsv's defaults (its tests check that each
        // parses, so the fallbacks after them are never reached).
        let precision = precision
            .or_else(|| default_precision("precision", kind, None))
            .unwrap_or(Precision::Bf16);
        let expert_precision = expert_precision
            .or_else(|| default_precision("expert_precision", kind, Some(precision)))
            .unwrap_or(precision);
        Some(Workload {
            name,
            kind,
            model,
            precision,
            kv_precision: kv_precision
                .or_else(|| default_precision("kv_precision", kind, None))
                .unwrap_or(Precision::Fp16),
            expert_precision,
            numbers: n,
            online,
            spot_ok: cells
                .spot_ok
                .unwrap_or_else(|| default_word("spot_ok", kind, online) == Some("yes")),
            gpu: cells.pinned,
            engine: cells.engine,
            api: cells.api,
            start_month: cells.start_month,
            end_month: cells.end_month,
            window: cells.window,
            peak_window: cells.peak_window,
            notes: cells.notes,
            cell: rec.cell("name"),
        })
    }

    /// The row's workload name, required and unique (case aside) among the rows read so far.
    fn workload_name(
        &mut self,
        rec: &Record,
        seen: &mut HashMap<String, CellRef>,
    ) -> Option<String> {
        let p = &mut self.problems;
        let name = rec.required_text(
            "name",
            "the workload needs a name (this row has values but no name)",
            p,
        )?;
        if let Some(prev) = seen.insert(name.to_lowercase(), rec.cell("name")) {
            p.push(Problem::new(rec.at("name"), format!("the workload name \"{name}\" is used twice (first at {prev}); names must be unique")));
        }
        Some(name)
    }

    /// The row's numeric columns, each checked against its rule, with a warning where the
    /// redundancy looks like a percentage typed as a whole number.
    fn workload_numbers(&mut self, rec: &Record) -> WorkloadNumbers {
        let mut n = WorkloadNumbers::default();
        for key in WorkloadNumbers::NAMES {
            let v = rec.number(key, number_rule(key), &mut self.problems);
            if let Some(slot) = n.get_mut(key) {
                *slot = v;
            }
        }
        if let Some(r) = n.redundancy.filter(|r| *r > 1.0) {
            self.notices
                .push(share_warning(&rec.at("redundancy"), "redundancy", r));
        }
        n
    }

    /// A note where the workload's engine has no figures for its kind of workload, so the
    /// Assumptions sheet's apply; an engine only declared (a row with no key, as MLC-LLM and
    /// ExLlamaV2 are) says so with its row's source, which gives the defaults' error there.
    fn engine_notice(&mut self, rec: &Record, name: &str, kind: Kind, e: &str, engines: &Engines) {
        if engines.for_workload(e, kind).next().is_none() {
            self.notices.push(
                Warning::info(
                    rec.at("engine"),
                    format!(
                    "{e} has no figures for {} workloads: the Assumptions sheet's apply to {name}",
                    kind.key()
                ),
                )
                .with_zh(format!(
                    "{e} 没有 {} 类负载的参数：{name} 使用参数表中的数值",
                    kind.key()
                )),
            );
        } else if let Some(why) = declared_only(engines, e, kind) {
            self.notices.push(Warning::info(
                rec.at("engine"),
                format!("{e} has no profile of its own: the Assumptions sheet's defaults apply to {name} ({why})"),
            ).with_zh(format!("{e} 没有自己的参数配置：{name} 使用参数表的默认值（{why}）")));
        }
    }

    /// The workload's model: the Models sheet or the catalog; a guessed architecture (with a
    /// warning) where only a name or a size is known.
    pub(super) fn resolve_model(
        &mut self,
        rec: &Record,
        name: &str,
        kind: Kind,
        n: &WorkloadNumbers,
        models: &[ModelSpec],
    ) -> Option<ModelSpec> {
        let sized_by_memory =
            matches!(kind, Kind::Batch | Kind::ImageGen | Kind::VideoGen) && n.vram_gib.is_some();
        let given = rec.text("model", &mut self.problems);
        if let Some(m) = &given {
            if let Some(spec) = models.iter().find(|s| normalize(&s.name) == normalize(m)) {
                return Some(spec.clone());
            }
            // A model folder or config.json, relative to the workbook (gpuplan model PATH).
            let looks_like_path = m.contains(['/', '\\']) || m.ends_with(".json");
            if looks_like_path {
                return self.model_from_path(rec, name, m);
            }
        }
        if n.params_b.is_none() && !sized_by_memory {
            self.push_missing_model(rec, name, kind, given.as_deref(), models);
            return None;
        }
        let params = n.params_b?;
        let needs_arch = matches!(
            kind,
            Kind::Inference | Kind::Lora | Kind::Qlora | Kind::FullFinetune | Kind::Pretrain
        ) || (kind == Kind::Batch && n.vram_gib.is_none());
        if !needs_arch {
            return None;
        }
        self.guessed_model(rec, name, given, params, models)
    }

    /// The model of a model folder or config.json (relative to the workbook), with a note of
    /// what was read, or a problem where it cannot be read.
    fn model_from_path(&mut self, rec: &Record, name: &str, m: &str) -> Option<ModelSpec> {
        let at = self.base.join(m);
        match super::config::import(&at) {
            // Without these the model would be planned with no weights or no KV cache.
            Ok(i)
                if i.spec.params_b <= 0.0
                    || i.missing
                        .iter()
                        .any(|f| matches!(*f, "layers" | "hidden" | "heads" | "params_b")) =>
            {
                self.problems.push(Problem::new(
                    rec.at("model"),
                    format!(
                        "{name}: the model {m} ({}) cannot be sized: its files do not give {}; gpuplan reads config.json keys such as num_hidden_layers, hidden_size and num_attention_heads (add the model to the Models sheet instead, naming it here)",
                        i.architecture,
                        if i.missing.is_empty() {
                            "its parameters".to_string()
                        } else {
                            i.missing.join(", ")
                        }
                    ),
                ));
                None
            }
            Ok(i) => {
                let (model, arch) = (&i.spec.name, &i.architecture);
                let [missing, missing_zh] = if i.missing.is_empty() {
                    [String::new(), String::new()]
                } else {
                    [
                        format!("; not in its files: {}", i.missing.join(", ")),
                        format!("；文件中缺少：{}", i.missing.join("、")),
                    ]
                };
                self.notices.push(
                    Warning::info(
                        rec.at("model"),
                        format!("{name}: the model {model} was read from {m} ({arch}){missing}"),
                    )
                    .with_zh(format!(
                        "{name}：模型 {model} 读取自 {m}（{arch}）{missing_zh}"
                    )),
                );
                Some(i.spec)
            }
            Err(e) => {
                self.problems.push(Problem::new(
                    rec.at("model"),
                    format!("the model path {m} cannot be read: {e}"),
                ));
                None
            }
        }
    }

    /// The problem of a workload that cannot be sized: an unknown model (`given`) without
    /// params_b, or neither a model nor params_b.
    fn push_missing_model(
        &mut self,
        rec: &Record,
        name: &str,
        kind: Kind,
        given: Option<&str>,
        models: &[ModelSpec],
    ) {
        let message = match given {
            Some(m) => {
                let hint = suggest::hint(m, models.iter().map(|s| s.name.as_str()));
                format!("unknown model \"{m}\"{hint}; add it to the Models sheet, or give params_b")
            }
            None => format!(
                "{name} needs a model or params_b{}",
                if matches!(kind, Kind::Batch | Kind::ImageGen | Kind::VideoGen) {
                    " (or vram_gib)"
                } else {
                    ""
                }
            ),
        };
        self.problems.push(Problem::new(rec.at("model"), message));
    }

    /// A model of `params` billion parameters that no sheet describes: the architecture of the
    /// catalog language model closest in size, with a warning that it is guessed.
    fn guessed_model(
        &mut self,
        rec: &Record,
        name: &str,
        given: Option<String>,
        params: f64,
        models: &[ModelSpec],
    ) -> Option<ModelSpec> {
        // Language models only (a video DiT has layers and heads but no vocabulary).
        let nearest = models
            .iter()
            .filter(|m| m.has_architecture() && m.vocab > 0.0)
            .min_by(|a, b| {
                (a.params_b.ln() - params.ln())
                    .abs()
                    .total_cmp(&(b.params_b.ln() - params.ln()).abs())
            })?
            .clone();
        let label = given
            .clone()
            .unwrap_or_else(|| format!("a {params}B model"));
        let label_zh = given
            .as_ref()
            .map_or_else(|| format!("{params}B 模型"), |g| format!("模型 {g} "));
        self.notices.push(Warning::warn(
            rec.at(if given.is_some() { "model" } else { "params_b" }),
            format!(
                "{name}: {label} is not in the Models sheet or the catalog; its layers and heads are guessed from {} ({}B). Add the model's real figures to the Models sheet for an accurate KV cache",
                nearest.name, nearest.params_b
            ),
        ).with_zh(format!(
            "{name}：{label_zh}不在模型表或内置目录中，其层数和注意力头数按 {}（{}B）推测。请在模型表中填入该模型的真实参数，以准确估算 KV 缓存",
            nearest.name, nearest.params_b
        )));
        Some(ModelSpec {
            name: given.unwrap_or_else(|| format!("~{}", nearest.name)),
            params_b: params,
            source: format!("{}{}", ModelSpec::GUESSED_FROM, nearest.name),
            ..nearest
        })
    }
}

/// The column a `--set` writes to: the sheet's own, or for a column the sheet lacks one past
/// everything the sheet holds, so that no cell of the user's own columns is touched.
fn changed_column(t: &mut Table, key: &'static str) -> u32 {
    match t.columns.get(key) {
        Some(&c) => c,
        None => {
            let next = t.width;
            t.width += 1;
            t.columns.insert(key, next);
            next
        }
    }
}

/// The row's kind: required, and one of the known kinds.
fn kind_cell(rec: &Record, name: &str, p: &mut Vec<Problem>) -> Option<Kind> {
    match rec.raw("kind") {
        None => {
            p.push(Problem::new(
                rec.at("kind"),
                format!("kind of {name} is required: one of {}", kind_list()),
            ));
            None
        }
        Some(raw) => {
            let k = Kind::parse(&table::raw_text(raw));
            if k.is_none() {
                p.push(Problem::new(
                    rec.at("kind"),
                    format!("kind must be one of {}, found {}", kind_list(), found(raw)),
                ));
            }
            k
        }
    }
}

/// The row's yes/no, text and month cells, and what it names (API, pinned GPU, engine) checked
/// against what is known.
fn row_cells(rec: &Record, known: &Known, p: &mut Vec<Problem>) -> RowCells {
    let online = rec.boolean("online", p);
    let spot_ok = rec.boolean("spot_ok", p);
    let notes = rec.text("notes", p).unwrap_or_default();
    let api = api_cell(rec, known.apis, p);
    let start_month = rec.month("start_month", p);
    let end_month = rec.month("end_month", p);
    if let (Some(s), Some(e)) = (start_month, end_month) {
        if e < s {
            p.push(Problem::new(
                rec.at("end_month"),
                format!("end_month {e} is before start_month {s}"),
            ));
        }
    }
    let window = rec.day_window("window", p);
    let peak_window = rec.day_window("peak_window", p);
    let pinned = pinned_gpu(rec, known.gpus, p);
    let engine = engine_cell(rec, known.engines, p);
    RowCells {
        window,
        peak_window,
        online,
        spot_ok,
        notes,
        api,
        start_month,
        end_month,
        pinned,
        engine,
    }
}

/// The API the workload is compared with, trimmed; a problem where the APIs sheet (or the
/// built-in examples) has no such model.
fn api_cell(rec: &Record, apis: &[ApiPrice], p: &mut Vec<Problem>) -> Option<String> {
    let api = rec.text("api", p).map(|a| a.trim().to_string());
    if let Some(a) = &api {
        if !apis.iter().any(|x| normalize(&x.model) == normalize(a)) {
            let hint = suggest::hint(a, apis.iter().map(|x| x.model.as_str()));
            p.push(Problem::new(
                rec.at("api"),
                format!("the API \"{a}\" is not a model of the APIs sheet (or the built-in examples){hint}"),
            ));
        }
    }
    api
}

/// The GPU the workload is pinned to; a problem where the GPUs sheet has no such GPU.
fn pinned_gpu(rec: &Record, gpus: &[GpuOffer], p: &mut Vec<Problem>) -> Option<String> {
    let pinned = rec.text("gpu", p);
    if let Some(g) = &pinned {
        if !gpus.iter().any(|o| normalize(&o.gpu) == normalize(g)) {
            let hint = suggest::hint(g, gpus.iter().map(|o| o.gpu.as_str()));
            p.push(Problem::new(
                rec.at("gpu"),
                format!("the pinned GPU \"{g}\" is not in the GPUs sheet{hint}"),
            ));
        }
    }
    pinned
}

/// The source of an engine's declaration row where that row (no key) is all it has for `kind`
/// and the row says why: the built-in gpt-fast, whose source says the defaults were fitted on it.
fn declared_only<'a>(engines: &'a Engines, e: &'a str, kind: Kind) -> Option<&'a str> {
    let figures: Vec<&EngineValue> = engines.for_workload(e, kind).collect();
    if figures.iter().any(|v| !v.key.is_empty()) {
        return None;
    }
    figures
        .iter()
        .find_map(|v| (!v.source.trim().is_empty()).then_some(v.source.as_str()))
}

/// The workload's engine, spelt as its profile is; a problem where no profile has that name.
fn engine_cell(rec: &Record, engines: &Engines, p: &mut Vec<Problem>) -> Option<String> {
    match rec.text("engine", p) {
        Some(e) if !e.trim().is_empty() => match engines.find(&e) {
            Some(found) => Some(found.to_string()),
            None => {
                let hint = suggest::hint(&e, engines.names());
                p.push(Problem::new(
                    rec.at("engine"),
                    format!(
                        "the engine \"{e}\" has no profile (built in: {}; add rows to the Engines sheet for another){hint}",
                        engines.names().join(", ")
                    ),
                ));
                None
            }
        },
        _ => None,
    }
}

/// Cross-field rules of the sizes: tokens held within the context, off-peak concurrency within
/// the peak, and a pilot test given whole.
fn check_sizes(rec: &Record, kind: Kind, n: &WorkloadNumbers, p: &mut Vec<Problem>) {
    // A cell already refused holds no value to compare: its default stands in for it only where
    // it is blank, or "concurrency (1)" would be an error about a figure nobody typed (#44 item 8).
    let refused = |key: &str| rec.raw(key).is_some() && n.get(key).flatten().is_none();
    let context = n
        .context_len
        .or_else(|| default_number("context_len", kind))
        .unwrap_or(0.0);
    if let (Some(avg), false) = (n.avg_tokens, refused("context_len")) {
        if avg > context {
            p.push(Problem::new(
                rec.at("avg_tokens"),
                format!("avg_tokens ({avg}) cannot exceed context_len ({context})"),
            ));
        }
    }
    let concurrency = n
        .concurrency
        .or_else(|| default_number("concurrency", kind));
    if let (Some(base), c, false) = (
        n.base_concurrency,
        concurrency.unwrap_or(0.0),
        refused("concurrency"),
    ) {
        if base > c {
            p.push(Problem::new(
                rec.at("base_concurrency"),
                format!("base_concurrency ({base}) cannot exceed concurrency ({c})"),
            ));
        }
    }
    if n.pilot_vram_gib.is_some() != n.pilot_concurrency.is_some()
        && n.pilot_vram_gib.is_some()
        && rec.raw("pilot_concurrency").is_none()
    {
        p.push(Problem::new(
            rec.at("pilot_concurrency"),
            "a pilot test needs both pilot_vram_gib and pilot_concurrency",
        ));
    }
}

/// Cross-field rules of the work: a generation workload sized by items needs both item
/// columns, and an offline workload needs its hours, given or derived from its work.
fn check_work(
    rec: &Record,
    name: &str,
    kind: Kind,
    n: &WorkloadNumbers,
    online: bool,
    p: &mut Vec<Problem>,
) {
    let by_items = kind.is_generation() && n.items_per_month.is_some();
    if by_items != (kind.is_generation() && n.seconds_per_item.is_some()) {
        let missing = if n.items_per_month.is_some() {
            "seconds_per_item"
        } else {
            "items_per_month"
        };
        p.push(Problem::new(
            rec.at(missing),
            format!("{name} is sized by work done: it needs both items_per_month and seconds_per_item (one item's GPU time, measured in a pilot)"),
        ));
    }
    // An offline workload's hours: given, or derived from its work (training tokens, items).
    let by_tokens = kind.is_training() && n.train_tokens_m.is_some();
    let by_requests =
        kind == Kind::Inference && n.requests_per_day.is_some() && n.output_tokens.is_some();
    let hours_known = n.hours_per_month.is_some() || rec.raw("hours_per_month").is_some();
    if !online && !hours_known && !by_tokens && !by_items && !by_requests {
        p.push(Problem::new(
            rec.at("hours_per_month"),
            format!("hours_per_month of the offline workload {name} is required (hours each instance runs per month){}",
                if kind.is_training() {
                    ", or give train_tokens_m"
                } else if kind.is_generation() {
                    ", or give items_per_month and seconds_per_item"
                } else if kind == Kind::Inference {
                    ", or give requests_per_day and output_tokens"
                } else {
                    ""
                }),
        ));
    }
}

/// The note that an online service's `window` is not used (#44 item 3): a window says when a
/// job may run, and a service is planned on its hours_per_month (all month when blank), its busy
/// hours of the day being its `peak_window`. A warning, not a refusal: the plan is the one the
/// service's hours give, and a team that meant the hours it is up learns which column says so.
fn window_of_a_service(rec: &Record, name: &str, w: DayWindow, hours: Option<f64>) -> Warning {
    let per_day = w.len();
    let (planned, planned_zh) = match hours {
        Some(h) => (
            format!("its hours_per_month, {} h", crate::model::format_number(h)),
            format!(
                "其 hours_per_month（{} 小时）",
                crate::model::format_number(h)
            ),
        ),
        None => (
            "all month (hours_per_month blank)".to_string(),
            "全月运行（hours_per_month 为空）".to_string(),
        ),
    };
    Warning::warn(
        rec.at("window"),
        format!(
            "{name} is an online service, so its window {w} is not used: a window says when a job may run, and a service is planned on {planned}; give the hours its load peaks as peak_window, or, if it is up only {per_day} h a day, give hours_per_month those hours a month"
        ),
    )
    .with_zh(format!(
        "{name} 是在线服务，其运行时段 {w} 不起作用：运行时段是任务允许运行的时间，服务按{planned_zh}规划；负载高峰时段请填 peak_window；如果它每天只运行 {per_day} 小时，请在 hours_per_month 中填写相应的每月小时数"
    ))
}

/// A share above 1 (100%) where a percentage was likely meant: `redundancy 5` plans six times
/// the replicas, where 5% was probably meant.
pub(super) fn share_warning(at: &str, key: &str, v: f64) -> Warning {
    use crate::model::format_number;
    let (v, pct, share) = (
        format_number(v),
        format_number(v * 100.0),
        format_number(v / 100.0),
    );
    Warning::warn(
        at,
        format!("{key} is {v}, that is {pct}%; if you meant {v}%, write {share} or {v}%"),
    )
    .with_zh(format!(
        "{key} 为 {v}，即 {pct}%；如本意是 {v}%，请写 {share} 或 {v}%"
    ))
}

/// The kinds the Workloads sheet allows, as templates/columns.tsv lists them.
fn kind_list() -> String {
    catalog::words("Workloads", "kind").join(", ")
}

/// A precision cell: one of the words templates/columns.tsv allows the column.
fn enum_cell(rec: &Record, key: &str, p: &mut Vec<Problem>) -> Option<Precision> {
    let raw = rec.raw(key)?;
    let allowed = catalog::words("Workloads", key);
    let v = Precision::parse(&table::raw_text(raw)).filter(|v| allowed.contains(&v.key()));
    if v.is_none() {
        p.push(Problem::new(
            rec.at(key),
            format!(
                "{key} must be one of {}, found {}",
                allowed.join(", "),
                found(raw)
            ),
        ));
    }
    v
}

/// A blank precision's default for a row of `kind` (templates/columns.tsv): a precision, or
/// `=precision` (the experts'), the row's weight precision `weights`.
fn default_precision(key: &str, kind: Kind, weights: Option<Precision>) -> Option<Precision> {
    match catalog::workload_default(key, kind, false)? {
        Fallback::Value(v) => Precision::parse(v),
        Fallback::Ref("precision") => weights,
        Fallback::Ref(_) => None,
    }
}

/// A blank word column's default for a row of `kind` (templates/columns.tsv): `yes`, `no`, …
fn default_word(key: &str, kind: Kind, online: bool) -> Option<&'static str> {
    match catalog::workload_default(key, kind, online)? {
        Fallback::Value(v) => Some(v),
        Fallback::Ref(_) => None,
    }
}

/// A blank number column's default for a row of `kind` where it is a figure (templates/columns.tsv).
fn default_number(key: &str, kind: Kind) -> Option<f64> {
    match catalog::workload_default(key, kind, false)? {
        Fallback::Value(v) => v.parse().ok(),
        Fallback::Ref(_) => None,
    }
}

/// What each numeric Workloads column must hold: its bounds in templates/columns.tsv.
pub(crate) fn number_rule(key: &str) -> Rule {
    Rule::of("Workloads", key).unwrap_or(Rule::at_least(0.0).max(1e12))
}

//! Reading, and the only user of calamine: an `.xlsx` workbook becomes a validated
//! [`Input`](crate::model::Input). Every problem is collected with its sheet and cell and all are
//! reported together; sheets other than Workloads fall back to the built-in defaults.

mod table;
mod xlsx;

pub use table::{parse_bool, parse_number_text};
pub use xlsx::{MAX_COLS, MAX_FILE_BYTES, MAX_ROWS};

use crate::catalog;
use crate::error::{Error, Problem, Result};
use crate::model::{
    normalize, Assumption, Assumptions, CellRef, FormulaDef, GpuOffer, Input, Kind, ModelSpec,
    Origin, Precision, Scope, Source, Value, Warning, Workload, WorkloadNumbers,
};
use crate::suggest;
use std::collections::HashMap;
use std::path::Path;
use table::{found, raw_number, Record, Rule, Table};
use xlsx::{Raw, RawSheet};

/// What a `--set` override changes.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// An assumption: `key=value`.
    Assumption,
    /// A column of the workload of that name: `workload.column=value`.
    Workload(String),
    /// A column of every offer of that GPU: `gpu:NAME.column=value`.
    Gpu(String),
}

/// A `--set` override, for what-if runs without editing the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    pub target: Target,
    pub key: String,
    pub value: String,
}

impl Override {
    /// Parses `key=value`, `workload.column=value` or `gpu:NAME.column=value`.
    pub fn parse(text: &str) -> Result<Override> {
        let (lhs, value) = text.split_once('=').ok_or_else(|| {
            Error::Usage(format!(
                "--set {text}: expected KEY=VALUE, e.g. --set safety_margin=0.3"
            ))
        })?;
        let lhs = lhs.trim();
        if lhs.is_empty() {
            return Err(Error::Usage(format!("--set {text}: the key is empty")));
        }
        let (target, key) = match lhs.rsplit_once('.') {
            Some((w, k)) => match w.trim().strip_prefix("gpu:") {
                Some(g) => (Target::Gpu(g.trim().to_string()), k.trim().to_string()),
                None => (Target::Workload(w.trim().to_string()), k.trim().to_string()),
            },
            None => (Target::Assumption, lhs.to_string()),
        };
        Ok(Override {
            target,
            key,
            value: value.trim().to_string(),
        })
    }

    fn shown(&self) -> String {
        match &self.target {
            Target::Assumption => format!("--set {}={}", self.key, self.value),
            Target::Workload(w) => format!("--set {w}.{}={}", self.key, self.value),
            Target::Gpu(g) => format!("--set gpu:{g}.{}={}", self.key, self.value),
        }
    }
}

/// Reads and validates a workbook.
pub fn read(path: &Path, overrides: &[Override]) -> Result<Input> {
    read_workbook(path, xlsx::open(path)?, overrides)
}

/// As [`read`], on the bytes of a file; `path` names it in messages.
pub fn read_bytes(path: &Path, bytes: Vec<u8>, overrides: &[Override]) -> Result<Input> {
    read_workbook(path, xlsx::open_bytes(path, bytes)?, overrides)
}

fn read_workbook(path: &Path, mut wb: xlsx::Workbook, overrides: &[Override]) -> Result<Input> {
    let names = wb.sheet_names().to_vec();
    let find = |english: &str| -> Option<String> {
        let (en, zh) = catalog::SHEETS
            .iter()
            .find(|(e, _)| *e == english)
            .copied()?;
        names
            .iter()
            .find(|n| n.trim().to_lowercase() == en.to_lowercase() || n.trim() == zh)
            .cloned()
    };
    let mut cells = 0usize;
    let mut sheets: HashMap<&'static str, RawSheet> = HashMap::new();
    for (en, _) in catalog::SHEETS {
        if let Some(actual) = find(en) {
            sheets.insert(en, wb.read_sheet(path, &actual, &mut cells)?);
        }
    }
    let Some(workloads_sheet) = sheets.remove("Workloads") else {
        return Err(Error::input(
            path,
            "",
            format!(
                "there is no Workloads sheet (or 负载); the sheets are: {}. `gpuplan init` writes a template",
                if names.is_empty() { "none".to_string() } else { names.join(", ") }
            ),
        ));
    };
    let mut r = Reader {
        problems: Vec::new(),
        notices: Vec::new(),
    };
    let models = r.models(sheets.remove("Models"));
    let mut gpus = r.gpus(sheets.remove("GPUs"));
    r.apply_gpu_overrides(&mut gpus, overrides);
    let assumptions = r.assumptions(sheets.remove("Assumptions"), overrides);
    let formulas = r.formulas(sheets.remove("Formulas"));
    let workloads = r.workloads(workloads_sheet, &models, &gpus, overrides);
    if !r.problems.is_empty() {
        return Err(Error::Input {
            file: path.to_path_buf(),
            problems: r.problems,
        });
    }
    Ok(Input {
        file: path.to_path_buf(),
        workloads,
        gpus,
        models,
        assumptions,
        formulas,
        notices: r.notices,
    })
}

struct Reader {
    problems: Vec<Problem>,
    notices: Vec<Warning>,
}

impl Reader {
    fn table(&mut self, raw: RawSheet, sheet: &str) -> Option<Table> {
        Table::new(raw, &catalog::columns(sheet), &mut self.problems)
    }

    fn defaulted(&mut self, sheet: &str, what: &str) {
        self.notices.push(Warning::info(
            sheet,
            format!("no {sheet} sheet: the built-in {what} were used (`gpuplan init` writes them into a template to edit)"),
        ));
    }

    fn models(&mut self, raw: Option<RawSheet>) -> Vec<ModelSpec> {
        let mut models = catalog::models();
        let Some(raw) = raw else { return models };
        let Some(t) = self.table(raw, "Models") else {
            return models;
        };
        let mut seen: HashMap<String, CellRef> = HashMap::new();
        for rec in t.records() {
            let p = &mut self.problems;
            let Some(name) = rec.text("name") else {
                p.push(Problem::new(
                    rec.cell("name").to_string(),
                    "the model needs a name",
                ));
                continue;
            };
            if let Some(prev) = seen.insert(normalize(&name), rec.cell("name")) {
                p.push(Problem::new(
                    rec.cell("name").to_string(),
                    format!("the model {name} is listed twice (first at {prev})"),
                ));
                continue;
            }
            let params_b = rec.number("params_b", Rule::positive().max(100_000.0), p);
            if params_b.is_none() && rec.raw("params_b").is_none() {
                p.push(Problem::new(
                    rec.cell("params_b").to_string(),
                    format!("params_b of model {name} is required (parameters in billions)"),
                ));
            }
            let dims = Rule::whole(0.0, 10_000_000.0);
            let layers = rec.number("layers", dims, p).unwrap_or(0.0);
            let hidden = rec.number("hidden", dims, p).unwrap_or(0.0);
            let heads = rec.number("heads", dims, p).unwrap_or(0.0);
            let kv_heads = rec.number("kv_heads", dims, p).unwrap_or(heads);
            let head_dim = rec.number("head_dim", dims, p).unwrap_or(if heads > 0.0 {
                hidden / heads
            } else {
                0.0
            });
            let ffn = rec.number("ffn", dims, p).unwrap_or(0.0);
            let vocab = rec.number("vocab", dims, p).unwrap_or(0.0);
            if heads > 0.0 && kv_heads > heads {
                p.push(Problem::new(
                    rec.cell("kv_heads").to_string(),
                    format!("kv_heads ({kv_heads}) cannot exceed heads ({heads})"),
                ));
            }
            let spec = ModelSpec {
                name: name.clone(),
                params_b: params_b.unwrap_or(0.0),
                layers,
                hidden,
                heads,
                kv_heads,
                head_dim,
                ffn,
                vocab,
            };
            match models
                .iter_mut()
                .find(|m| normalize(&m.name) == normalize(&name))
            {
                Some(m) => *m = spec,
                None => models.push(spec),
            }
        }
        models
    }

    fn gpus(&mut self, raw: Option<RawSheet>) -> Vec<GpuOffer> {
        let Some(raw) = raw else {
            self.defaulted("GPUs", "GPU offers with example prices");
            return catalog::gpus();
        };
        let Some(t) = self.table(raw, "GPUs") else {
            return Vec::new();
        };
        if !t.has("gpu") {
            self.problems.push(Problem::new(
                format!("{}!1", t.sheet),
                "the GPUs sheet needs a `gpu` column",
            ));
            return Vec::new();
        }
        let mut offers: Vec<GpuOffer> = Vec::new();
        for rec in t.records() {
            let p = &mut self.problems;
            let Some(gpu) = rec.text("gpu") else {
                p.push(Problem::new(
                    rec.cell("gpu").to_string(),
                    "the offer needs a gpu name",
                ));
                continue;
            };
            let provider = rec.text("provider").unwrap_or_default();
            let known = catalog::find_gpu(&gpu);
            let mut filled: Vec<&str> = Vec::new();
            let mut spec = |key: &'static str,
                            rule: Rule,
                            from: Option<f64>,
                            p: &mut Vec<Problem>|
             -> f64 {
                match rec.number(key, rule, p) {
                    Some(v) => v,
                    None if rec.raw(key).is_some() => 0.0,
                    None => match from {
                        Some(v) => {
                            filled.push(key);
                            v
                        }
                        None => {
                            p.push(Problem::new(
                                rec.cell(key).to_string(),
                                format!("{key} of {gpu} is required: it is not a GPU of the built-in catalog (gpuplan catalog gpus)"),
                            ));
                            0.0
                        }
                    },
                }
            };
            let vram_gib = spec(
                "vram_gib",
                gpu_rule("vram_gib"),
                known.as_ref().map(|k| k.vram_gib),
                p,
            );
            let bandwidth_gbs = spec(
                "bandwidth_gbs",
                gpu_rule("bandwidth_gbs"),
                known.as_ref().map(|k| k.bandwidth_gbs),
                p,
            );
            let fp16_tflops = spec(
                "fp16_tflops",
                gpu_rule("fp16_tflops"),
                known.as_ref().map(|k| k.fp16_tflops),
                p,
            );
            let compute_capability = spec(
                "compute_capability",
                gpu_rule("compute_capability"),
                known.as_ref().map(|k| k.compute_capability),
                p,
            );
            let gpus_per_node = spec(
                "gpus_per_node",
                gpu_rule("gpus_per_node"),
                Some(known.as_ref().map_or(8.0, |k| k.gpus_per_node)),
                p,
            );
            let nvlink = rec
                .boolean("nvlink", p)
                .unwrap_or(known.as_ref().is_some_and(|k| k.nvlink));
            let price = |key: &str, p: &mut Vec<Problem>| rec.number(key, gpu_rule(key), p);
            let on_demand_hourly = price("on_demand_hourly", p);
            let monthly = price("monthly", p);
            let spot_hourly = price("spot_hourly", p);
            let reserved_monthly = price("reserved_monthly", p);
            let billing_granularity_min = rec
                .number(
                    "billing_granularity_min",
                    gpu_rule("billing_granularity_min"),
                    p,
                )
                .unwrap_or(60.0);
            let min_rental_min = rec
                .number("min_rental_min", gpu_rule("min_rental_min"), p)
                .unwrap_or(0.0);
            let available = rec.boolean("available", p).unwrap_or(true);
            let label = if provider.is_empty() {
                gpu.clone()
            } else {
                format!("{gpu} @ {provider}")
            };
            if let Some(prev) = offers.iter().find(|o| {
                normalize(&o.gpu) == normalize(&gpu)
                    && normalize(&o.provider) == normalize(&provider)
            }) {
                let at = prev
                    .cell
                    .as_ref()
                    .map(|c| c.to_string())
                    .unwrap_or_default();
                p.push(Problem::new(rec.cell("gpu").to_string(), format!("the offer {label} is listed twice (first at {at}); give each a different provider")));
                continue;
            }
            if available
                && [on_demand_hourly, monthly, spot_hourly, reserved_monthly]
                    .iter()
                    .all(Option::is_none)
            {
                self.notices.push(Warning::warn(
                    rec.cell("gpu").to_string(),
                    format!("{label} has no price for any billing mode, so it is never chosen; fill in at least one price"),
                ));
            }
            if !filled.is_empty() && known.is_some() {
                self.notices.push(Warning::info(
                    rec.cell("gpu").to_string(),
                    format!(
                        "{label}: {} taken from the built-in catalog",
                        filled.join(", ")
                    ),
                ));
            }
            offers.push(GpuOffer {
                gpu,
                provider,
                vram_gib,
                bandwidth_gbs,
                fp16_tflops,
                compute_capability,
                nvlink,
                gpus_per_node,
                on_demand_hourly,
                monthly,
                spot_hourly,
                reserved_monthly,
                billing_granularity_min,
                min_rental_min,
                available,
                cell: Some(rec.cell("gpu")),
            });
        }
        if offers.is_empty() && self.problems.is_empty() {
            self.problems.push(Problem::new(format!("{}!2", t.sheet), "the GPUs sheet lists no offer; add at least one row (or delete the sheet to use the built-in offers)"));
        }
        offers
    }

    fn assumptions(&mut self, raw: Option<RawSheet>, overrides: &[Override]) -> Assumptions {
        let defaults = catalog::assumptions(false);
        let mut items: Vec<Assumption> = Vec::new();
        match raw {
            None => self.defaulted("Assumptions", "assumptions"),
            Some(raw) => {
                if let Some(t) = self.table(raw, "Assumptions") {
                    for rec in t.records() {
                        let Some(key) = rec.text("key") else {
                            self.problems.push(Problem::new(
                                rec.cell("key").to_string(),
                                "the assumption needs a key",
                            ));
                            continue;
                        };
                        let key = key.trim().to_string();
                        if items.iter().any(|a| a.key == key) {
                            self.problems.push(Problem::new(
                                rec.cell("key").to_string(),
                                format!("the assumption {key} is listed twice"),
                            ));
                            continue;
                        }
                        let cell = rec.cell("value");
                        let value = match rec.raw("value") {
                            None => {
                                self.problems.push(Problem::new(
                                    cell.to_string(),
                                    format!("{key} has no value"),
                                ));
                                continue;
                            }
                            Some(raw) => match assumption_value(
                                &key,
                                raw,
                                defaults.get(&key).map(|d| &d.value),
                            ) {
                                Ok(v) => v,
                                Err(msg) => {
                                    self.problems.push(Problem::new(cell.to_string(), msg));
                                    continue;
                                }
                            },
                        };
                        let default = defaults.get(&key);
                        items.push(Assumption {
                            key: key.clone(),
                            value,
                            unit: rec
                                .text("unit")
                                .or(default.map(|d| d.unit.clone()))
                                .unwrap_or_default(),
                            note: rec
                                .text("note")
                                .or(default.map(|d| d.note.clone()))
                                .unwrap_or_default(),
                            source: Source::Sheet(cell.to_string()),
                        });
                    }
                    let missing: Vec<&str> = defaults
                        .items
                        .iter()
                        .map(|d| d.key.as_str())
                        .filter(|k| !items.iter().any(|a| a.key == *k))
                        .collect();
                    if !missing.is_empty() {
                        self.notices.push(Warning::info(
                            t.sheet.clone(),
                            format!(
                                "taken from the defaults (not in the sheet): {}",
                                missing.join(", ")
                            ),
                        ));
                    }
                }
            }
        }
        for d in defaults.items {
            if !items.iter().any(|a| a.key == d.key) {
                items.push(d);
            }
        }
        for o in overrides.iter().filter(|o| o.target == Target::Assumption) {
            let default = catalog::assumptions(false)
                .get(&o.key)
                .map(|d| d.value.clone());
            match assumption_value(&o.key, &Raw::Text(o.value.clone()), default.as_ref()) {
                Ok(value) => match items.iter_mut().find(|a| a.key == o.key) {
                    Some(a) => {
                        a.value = value;
                        a.source = Source::Set;
                    }
                    None => items.push(Assumption {
                        key: o.key.clone(),
                        value,
                        unit: String::new(),
                        note: String::new(),
                        source: Source::Set,
                    }),
                },
                Err(msg) => self.problems.push(Problem::new(o.shown(), msg)),
            }
        }
        Assumptions { items }
    }

    fn formulas(&mut self, raw: Option<RawSheet>) -> Vec<FormulaDef> {
        let defaults = catalog::formulas();
        let Some(raw) = raw else {
            self.defaulted("Formulas", "default formulas");
            return defaults;
        };
        let Some(t) = self.table(raw, "Formulas") else {
            return defaults;
        };
        let mut out: Vec<FormulaDef> = Vec::new();
        for rec in t.records() {
            let Some(name) = rec.text("name") else {
                self.problems.push(Problem::new(
                    rec.cell("name").to_string(),
                    "the formula needs a name",
                ));
                continue;
            };
            let Some(expression) = rec.text("expression") else {
                self.problems.push(Problem::new(
                    rec.cell("expression").to_string(),
                    format!("the formula {name} has no expression"),
                ));
                continue;
            };
            let scope = match rec.text("scope").map(|s| s.to_lowercase()) {
                None => Scope::Candidate,
                Some(s) if s == "candidate" || s == "候选" => Scope::Candidate,
                Some(s) if s == "portfolio" || s == "汇总" => Scope::Portfolio,
                Some(s) => {
                    self.problems.push(Problem::new(
                        rec.cell("scope").to_string(),
                        format!("scope must be candidate or portfolio, found \"{s}\""),
                    ));
                    continue;
                }
            };
            let default = defaults.iter().find(|d| d.name == name);
            let origin = match default {
                Some(d)
                    if d.expression
                        .split_whitespace()
                        .eq(expression.split_whitespace()) =>
                {
                    Origin::Default
                }
                Some(_) => Origin::Replaced,
                None => Origin::User,
            };
            out.push(FormulaDef {
                unit: rec
                    .text("unit")
                    .or(default.map(|d| d.unit.clone()))
                    .unwrap_or_default(),
                description: rec
                    .text("description")
                    .or(default.map(|d| d.description.clone()))
                    .unwrap_or_default(),
                name,
                expression,
                scope,
                origin,
                cell: Some(rec.cell("expression")),
            });
        }
        out
    }

    fn workloads(
        &mut self,
        raw: RawSheet,
        models: &[ModelSpec],
        gpus: &[GpuOffer],
        overrides: &[Override],
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
        self.apply_workload_overrides(&mut t, overrides);
        let mut out: Vec<Workload> = Vec::new();
        let mut seen: HashMap<String, CellRef> = HashMap::new();
        for rec in t.records() {
            if let Some(w) = self.workload(&rec, models, gpus, &mut seen) {
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

    /// `--set gpu:NAME.column=value`: the column of every offer of that GPU, validated as the
    /// sheet's cells are.
    fn apply_gpu_overrides(&mut self, gpus: &mut [GpuOffer], overrides: &[Override]) {
        for o in overrides {
            let Target::Gpu(name) = &o.target else {
                continue;
            };
            let at = o.shown();
            let matching: Vec<usize> = (0..gpus.len())
                .filter(|&i| {
                    normalize(&gpus[i].gpu) == normalize(name)
                        || normalize(&gpus[i].label()) == normalize(name)
                })
                .collect();
            if matching.is_empty() {
                let hint = suggest::hint(name, gpus.iter().map(|g| g.gpu.as_str()));
                self.problems.push(Problem::new(
                    at,
                    format!("there is no GPU offer \"{name}\"{hint}"),
                ));
                continue;
            }
            let raw = Raw::Text(o.value.clone());
            let key = o.key.as_str();
            let result: std::result::Result<(), String> = match key {
                "nvlink" | "available" => match parse_bool(&raw) {
                    Some(b) => {
                        for &i in &matching {
                            if key == "nvlink" {
                                gpus[i].nvlink = b;
                            } else {
                                gpus[i].available = b;
                            }
                        }
                        Ok(())
                    }
                    None => Err(format!("{key} must be yes or no, found {}", found(&raw))),
                },
                "vram_gib"
                | "bandwidth_gbs"
                | "fp16_tflops"
                | "compute_capability"
                | "gpus_per_node"
                | "on_demand_hourly"
                | "monthly"
                | "spot_hourly"
                | "reserved_monthly"
                | "billing_granularity_min"
                | "min_rental_min" => {
                    let rule = gpu_rule(key);
                    // An empty price takes the mode off the offer.
                    let is_price = matches!(
                        key,
                        "on_demand_hourly" | "monthly" | "spot_hourly" | "reserved_monthly"
                    );
                    let blank = is_price && o.value.is_empty();
                    match raw_number(&raw) {
                        _ if blank => {
                            for &i in &matching {
                                set_gpu_price(&mut gpus[i], key, None);
                            }
                            Ok(())
                        }
                        Some(v) if rule.accepts(v) => {
                            for &i in &matching {
                                set_gpu_number(&mut gpus[i], key, v);
                            }
                            Ok(())
                        }
                        _ => Err(format!(
                            "{key} must be {}, found {}",
                            rule.describe(),
                            found(&raw)
                        )),
                    }
                }
                other => {
                    let cols = catalog::columns("GPUs");
                    Err(format!(
                        "`{other}` is not a GPU column one can set{}",
                        suggest::hint(other, cols.iter().map(|c| c.key))
                    ))
                }
            };
            if let Err(msg) = result {
                self.problems.push(Problem::new(at, msg));
            }
        }
    }

    fn apply_workload_overrides(&mut self, t: &mut Table, overrides: &[Override]) {
        let name_col = t.columns.get("name").copied().unwrap_or(0);
        for o in overrides {
            let Target::Workload(wname) = &o.target else {
                continue;
            };
            let at = o.shown();
            let columns = catalog::columns("Workloads");
            if !columns.iter().any(|c| c.key == o.key) || o.key == "name" {
                let hint = suggest::hint(&o.key, columns.iter().map(|c| c.key));
                self.problems.push(Problem::new(
                    at,
                    format!("`{}` is not a workload column{hint}", o.key),
                ));
                continue;
            }
            let col = match t.columns.get(o.key.as_str()) {
                Some(&c) => c,
                None => {
                    let next = t.columns.values().max().map_or(0, |m| m + 1);
                    let key = columns
                        .iter()
                        .find(|c| c.key == o.key)
                        .map(|c| c.key)
                        .unwrap_or("notes");
                    t.columns.insert(key, next);
                    next
                }
            };
            let row = t.rows.iter_mut().find(|(_, cells)| {
                cells.get(&name_col).map(table::raw_text).as_deref() == Some(wname.as_str())
            });
            match row {
                Some((_, cells)) => {
                    cells.insert(col, Raw::Text(o.value.clone()));
                }
                None => self.problems.push(Problem::new(
                    at,
                    format!("there is no workload named \"{wname}\""),
                )),
            }
        }
    }

    fn workload(
        &mut self,
        rec: &Record,
        models: &[ModelSpec],
        gpus: &[GpuOffer],
        seen: &mut HashMap<String, CellRef>,
    ) -> Option<Workload> {
        let before = self.problems.len();
        let p = &mut self.problems;
        let name = match rec.text("name") {
            Some(n) => n,
            None => {
                p.push(Problem::new(
                    rec.cell("name").to_string(),
                    "the workload needs a name (this row has values but no name)",
                ));
                return None;
            }
        };
        if let Some(prev) = seen.insert(name.to_lowercase(), rec.cell("name")) {
            p.push(Problem::new(rec.cell("name").to_string(), format!("the workload name \"{name}\" is used twice (first at {prev}); names must be unique")));
        }
        let kind = match rec.raw("kind") {
            None => {
                p.push(Problem::new(
                    rec.cell("kind").to_string(),
                    format!("kind of {name} is required: one of {}", kind_list()),
                ));
                None
            }
            Some(raw) => {
                let k = Kind::parse(&table::raw_text(raw));
                if k.is_none() {
                    p.push(Problem::new(
                        rec.cell("kind").to_string(),
                        format!("kind must be one of {}, found {}", kind_list(), found(raw)),
                    ));
                }
                k
            }
        };
        let precision = enum_cell(rec, "precision", &Precision::ALL, p);
        let kv_precision = enum_cell(rec, "kv_precision", &Precision::KV, p);

        let mut n = WorkloadNumbers::default();
        let rules: [(&str, Rule); 21] = [
            ("params_b", Rule::positive().max(100_000.0)),
            ("context_len", Rule::whole(1.0, 10_000_000.0)),
            ("avg_tokens", Rule::whole(1.0, 10_000_000.0)),
            ("concurrency", Rule::whole(1.0, 1_000_000.0)),
            ("base_concurrency", Rule::whole(0.0, 1_000_000.0)),
            ("peak_hours_per_day", Rule::range(0.0, 24.0)),
            ("batch_size", Rule::whole(1.0, 100_000.0)),
            ("tokens_per_s_per_request", Rule::positive().max(1e7)),
            ("min_tokens_per_s", Rule::positive().max(1e7)),
            ("target_tps", Rule::positive().max(1e12)),
            ("train_tokens_m", Rule::positive().max(1e12)),
            ("hours_per_month", Rule::range(0.0, 744.0)),
            ("runs_per_month", Rule::whole(1.0, 100_000.0)),
            ("redundancy", Rule::range(0.0, 10.0)),
            ("max_gpus", Rule::whole(1.0, 1024.0)),
            ("resolution", Rule::whole(64.0, 16_384.0)),
            ("vram_gib", Rule::positive().max(1e6)),
            ("pilot_vram_gib", Rule::positive().max(1e6)),
            ("pilot_concurrency", Rule::whole(1.0, 1_000_000.0)),
            ("storage_gb", Rule::at_least(0.0).max(1e12)),
            ("egress_gb", Rule::at_least(0.0).max(1e12)),
        ];
        for (key, rule) in rules {
            let v = rec.number(key, rule, p);
            if let Some(slot) = n.get_mut(key) {
                *slot = v;
            }
        }
        let online = rec.boolean("online", p);
        let spot_ok = rec.boolean("spot_ok", p);
        let notes = rec.text("notes").unwrap_or_default();
        let pinned = rec.text("gpu");
        if let Some(g) = &pinned {
            if !gpus.iter().any(|o| normalize(&o.gpu) == normalize(g)) {
                let hint = suggest::hint(g, gpus.iter().map(|o| o.gpu.as_str()));
                p.push(Problem::new(
                    rec.cell("gpu").to_string(),
                    format!("the pinned GPU \"{g}\" is not in the GPUs sheet{hint}"),
                ));
            }
        }
        let kind = kind?;
        // Cross-field rules, on the values with their defaults.
        let context = n
            .context_len
            .unwrap_or(if kind.is_training() { 2048.0 } else { 4096.0 });
        if let Some(avg) = n.avg_tokens {
            if avg > context {
                p.push(Problem::new(
                    rec.cell("avg_tokens").to_string(),
                    format!("avg_tokens ({avg}) cannot exceed context_len ({context})"),
                ));
            }
        }
        if let (Some(base), c) = (n.base_concurrency, n.concurrency.unwrap_or(1.0)) {
            if base > c {
                p.push(Problem::new(
                    rec.cell("base_concurrency").to_string(),
                    format!("base_concurrency ({base}) cannot exceed concurrency ({c})"),
                ));
            }
        }
        if n.pilot_vram_gib.is_some() != n.pilot_concurrency.is_some()
            && n.pilot_vram_gib.is_some()
            && rec.raw("pilot_concurrency").is_none()
        {
            p.push(Problem::new(
                rec.cell("pilot_concurrency").to_string(),
                "a pilot test needs both pilot_vram_gib and pilot_concurrency",
            ));
        }
        let online = online.unwrap_or(kind.online_by_default());
        if !online
            && n.hours_per_month.is_none()
            && !(kind.is_training() && n.train_tokens_m.is_some())
            && rec.raw("hours_per_month").is_none()
        {
            p.push(Problem::new(
                rec.cell("hours_per_month").to_string(),
                format!("hours_per_month of the offline workload {name} is required (hours each instance runs per month){}",
                    if kind.is_training() { ", or give train_tokens_m" } else { "" }),
            ));
        }
        let model = self.resolve_model(rec, &name, kind, &n, models);
        if self.problems.len() > before {
            return None;
        }
        let precision = precision.unwrap_or(if kind == Kind::Qlora {
            Precision::Int4
        } else {
            Precision::Bf16
        });
        Some(Workload {
            name,
            kind,
            model,
            precision,
            kv_precision: kv_precision.unwrap_or(Precision::Fp16),
            numbers: n,
            online,
            spot_ok: spot_ok.unwrap_or(kind == Kind::Batch),
            gpu: pinned,
            notes,
            cell: rec.cell("name"),
        })
    }

    /// The workload's model: the Models sheet or the catalog; a guessed architecture (with a
    /// warning) where only a name or a size is known.
    fn resolve_model(
        &mut self,
        rec: &Record,
        name: &str,
        kind: Kind,
        n: &WorkloadNumbers,
        models: &[ModelSpec],
    ) -> Option<ModelSpec> {
        let needs_arch = matches!(
            kind,
            Kind::Inference | Kind::Lora | Kind::Qlora | Kind::FullFinetune | Kind::Pretrain
        ) || (kind == Kind::Batch && n.vram_gib.is_none());
        let sized_by_memory = matches!(kind, Kind::Batch | Kind::ImageGen) && n.vram_gib.is_some();
        let given = rec.text("model");
        if let Some(m) = &given {
            if let Some(spec) = models.iter().find(|s| normalize(&s.name) == normalize(m)) {
                return Some(spec.clone());
            }
            let hint = suggest::hint(m, models.iter().map(|s| s.name.as_str()));
            if n.params_b.is_none() && !sized_by_memory {
                self.problems.push(Problem::new(
                    rec.cell("model").to_string(),
                    format!(
                        "unknown model \"{m}\"{hint}; add it to the Models sheet, or give params_b"
                    ),
                ));
                return None;
            }
        } else if n.params_b.is_none() && !sized_by_memory {
            self.problems.push(Problem::new(
                rec.cell("model").to_string(),
                format!(
                    "{name} needs a model or params_b{}",
                    if matches!(kind, Kind::Batch | Kind::ImageGen) {
                        " (or vram_gib)"
                    } else {
                        ""
                    }
                ),
            ));
            return None;
        }
        let params = n.params_b?;
        if !needs_arch {
            return None;
        }
        // Borrow the architecture of the catalog language model closest in size.
        let nearest = models
            .iter()
            .filter(|m| m.has_architecture())
            .min_by(|a, b| {
                (a.params_b.ln() - params.ln())
                    .abs()
                    .total_cmp(&(b.params_b.ln() - params.ln()).abs())
            })?
            .clone();
        let label = given
            .clone()
            .unwrap_or_else(|| format!("a {params}B model"));
        self.notices.push(Warning::warn(
            rec.cell(if given.is_some() { "model" } else { "params_b" }).to_string(),
            format!(
                "{name}: {label} is not in the Models sheet or the catalog; its layers and heads are guessed from {} ({}B). Add the model's real figures to the Models sheet for an accurate KV cache",
                nearest.name, nearest.params_b
            ),
        ));
        Some(ModelSpec {
            name: given.unwrap_or_else(|| format!("~{}", nearest.name)),
            params_b: params,
            ..nearest
        })
    }
}

fn kind_list() -> String {
    Kind::ALL
        .iter()
        .map(|k| k.key())
        .collect::<Vec<_>>()
        .join(", ")
}

fn enum_cell(
    rec: &Record,
    key: &str,
    allowed: &[Precision],
    p: &mut Vec<Problem>,
) -> Option<Precision> {
    let raw = rec.raw(key)?;
    let v = Precision::parse(&table::raw_text(raw)).filter(|v| allowed.contains(v));
    if v.is_none() {
        let list: Vec<&str> = allowed.iter().map(|a| a.key()).collect();
        p.push(Problem::new(
            rec.cell(key).to_string(),
            format!(
                "{key} must be one of {}, found {}",
                list.join(", "),
                found(raw)
            ),
        ));
    }
    v
}

/// Sets a price of an offer; `None` is not offered.
fn set_gpu_price(g: &mut GpuOffer, key: &str, v: Option<f64>) {
    match key {
        "on_demand_hourly" => g.on_demand_hourly = v,
        "monthly" => g.monthly = v,
        "spot_hourly" => g.spot_hourly = v,
        "reserved_monthly" => g.reserved_monthly = v,
        _ => {}
    }
}

/// Sets a numeric column of an offer.
fn set_gpu_number(g: &mut GpuOffer, key: &str, v: f64) {
    match key {
        "vram_gib" => g.vram_gib = v,
        "bandwidth_gbs" => g.bandwidth_gbs = v,
        "fp16_tflops" => g.fp16_tflops = v,
        "compute_capability" => g.compute_capability = v,
        "gpus_per_node" => g.gpus_per_node = v,
        "billing_granularity_min" => g.billing_granularity_min = v,
        "min_rental_min" => g.min_rental_min = v,
        price => set_gpu_price(g, price, Some(v)),
    }
}

/// What each numeric column of the GPUs sheet must hold.
fn gpu_rule(key: &str) -> Rule {
    match key {
        "vram_gib" => Rule::positive().max(10_000.0),
        "bandwidth_gbs" | "fp16_tflops" => Rule::positive().max(1e6),
        "compute_capability" => Rule::range(1.0, 20.0),
        "gpus_per_node" => Rule::whole(1.0, 1024.0),
        "billing_granularity_min" => Rule::positive().max(44_640.0),
        "min_rental_min" => Rule::at_least(0.0).max(44_640.0),
        _ => Rule::at_least(0.0).max(1e9),
    }
}

/// The allowed range of each numeric default assumption.
fn assumption_rule(key: &str) -> Rule {
    match key {
        "hours_in_month" => Rule::range(1.0, 744.0),
        "vram_headroom" | "monthly_min_utilization" => Rule::range(0.0, 1.0),
        "lora_trainable_fraction" | "bandwidth_efficiency" | "mfu" => Rule::positive().max(1.0),
        "redundancy_online" | "redundancy_offline" | "spot_rework" | "trial_reserve"
        | "safety_margin" => Rule::range(0.0, 10.0),
        "cold_start_min" => Rule::range(0.0, 1440.0),
        "runtime_overhead_gib" | "inference_activation_gib" => Rule::range(0.0, 10_000.0),
        _ => Rule::at_least(0.0).max(1e12),
    }
}

/// An assumption's value, typed like its default (or as a number or yes/no for a user's own key).
fn assumption_value(key: &str, raw: &Raw, default: Option<&Value>) -> Result<Value, String> {
    match default {
        Some(Value::Text(_)) => {
            let t = table::raw_text(raw);
            let t = match t.as_str() {
                "¥" | "￥" | "元" | "RMB" | "rmb" => "CNY".to_string(),
                "$" => "USD".to_string(),
                "€" => "EUR".to_string(),
                other => other.trim().to_uppercase(),
            };
            if t.len() == 3 && t.chars().all(|c| c.is_ascii_alphabetic()) {
                Ok(Value::Text(t))
            } else {
                Err(format!(
                    "{key} must be a currency code such as CNY, USD or EUR, found {}",
                    found(raw)
                ))
            }
        }
        Some(Value::Bool(_)) => parse_bool(raw)
            .map(Value::Bool)
            .ok_or_else(|| format!("{key} must be yes or no, found {}", found(raw))),
        Some(Value::Number(_)) => {
            let rule = assumption_rule(key);
            match raw_number(raw) {
                Some(v) if rule.accepts(v) => Ok(Value::Number(v)),
                _ => Err(format!(
                    "{key} must be {}, found {}",
                    rule.describe(),
                    found(raw)
                )),
            }
        }
        None => {
            let valid = {
                let mut c = key.chars();
                matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic())
                    && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
            };
            if !valid {
                return Err(format!("`{key}` is not a usable assumption key: use letters, digits and _ (it becomes a formula variable)"));
            }
            if let Some(v) = raw_number(raw) {
                return Ok(Value::Number(v));
            }
            parse_bool(raw).map(Value::Bool).ok_or_else(|| {
                format!(
                    "{key} must be a number or yes/no (it becomes a formula variable), found {}",
                    found(raw)
                )
            })
        }
    }
}

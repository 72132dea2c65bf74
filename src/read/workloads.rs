//! The Workloads sheet: every row validated into a workload, its model resolved, and
//! `--set workload.column=value`.

use super::table::{self, found, Record, Rule, Table};
use super::xlsx::{Raw, RawSheet};
use super::{Override, Reader, Target};
use crate::catalog;
use crate::error::Problem;
use crate::model::{
    normalize, CellRef, Engines, GpuOffer, Kind, ModelSpec, Precision, Warning, Workload,
    WorkloadNumbers,
};
use crate::suggest;
use std::collections::HashMap;

impl Reader {
    pub(super) fn workloads(
        &mut self,
        raw: RawSheet,
        models: &[ModelSpec],
        gpus: &[GpuOffer],
        engines: &Engines,
        apis: &[crate::model::ApiPrice],
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
            if let Some(w) = self.workload(&rec, models, gpus, engines, apis, &mut seen) {
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

    pub(super) fn apply_workload_overrides(&mut self, t: &mut Table, overrides: &[Override]) {
        // The caller returns before this without a name column (and reports it).
        let Some(&name_col) = t.columns.get("name") else {
            return;
        };
        for o in overrides {
            let Target::Workload(wname) = &o.target else {
                continue;
            };
            let at = o.shown();
            let columns = catalog::columns("Workloads");
            if o.key == "name" {
                self.problems.push(Problem::new(
                    at,
                    "a workload's name cannot be set: it is how --set finds the workload; rename it in the sheet",
                ));
                continue;
            }
            if !columns.iter().any(|c| c.key == o.key) {
                let hint = suggest::hint(&o.key, columns.iter().map(|c| c.key));
                self.problems.push(Problem::new(
                    at,
                    format!("`{}` is not a workload column{hint}", o.key),
                ));
                continue;
            }
            // A column the sheet lacks goes one past everything the sheet holds, so that no
            // cell of the user's own columns is touched.
            let col = match t.columns.get(o.key.as_str()) {
                Some(&c) => c,
                None => {
                    let key = columns
                        .iter()
                        .find(|c| c.key == o.key)
                        .map_or("notes", |c| c.key);
                    let next = t.width;
                    t.width += 1;
                    t.columns.insert(key, next);
                    next
                }
            };
            let mut found = false;
            for (r, cells) in t.rows.iter_mut().filter(|(_, cells)| {
                wname == "*"
                    || cells.get(&name_col).map(table::raw_text).as_deref() == Some(wname.as_str())
            }) {
                found = true;
                if o.scale {
                    // A relative change scales a given number; a blank keeps its default.
                    match cells.get(&col) {
                        None => continue,
                        Some(raw) => match table::raw_number(raw) {
                            Some(v) => {
                                cells.insert(col, Raw::Number(v * o.factor()));
                            }
                            None => {
                                self.problems.push(Problem::new(
                                    at.clone(),
                                    format!(
                                        "{} of row {} is {}, not a number a relative change can scale",
                                        o.key,
                                        *r + 1,
                                        table::found(raw)
                                    ),
                                ));
                                continue;
                            }
                        },
                    }
                } else {
                    cells.insert(col, Raw::Text(o.value.clone()));
                }
                t.overridden.insert((*r, col), at.clone());
            }
            if !found {
                self.problems.push(Problem::new(
                    at,
                    format!("there is no workload named \"{wname}\""),
                ));
            }
        }
    }

    pub(super) fn workload(
        &mut self,
        rec: &Record,
        models: &[ModelSpec],
        gpus: &[GpuOffer],
        engines: &Engines,
        apis: &[crate::model::ApiPrice],
        seen: &mut HashMap<String, CellRef>,
    ) -> Option<Workload> {
        let before = self.problems.len();
        let p = &mut self.problems;
        let name = rec.required_text(
            "name",
            "the workload needs a name (this row has values but no name)",
            p,
        )?;
        if let Some(prev) = seen.insert(name.to_lowercase(), rec.cell("name")) {
            p.push(Problem::new(rec.at("name"), format!("the workload name \"{name}\" is used twice (first at {prev}); names must be unique")));
        }
        let kind = match rec.raw("kind") {
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
        };
        let precision = enum_cell(rec, "precision", &Precision::ALL, p);
        let kv_precision = enum_cell(rec, "kv_precision", &Precision::KV, p);
        let expert_precision = enum_cell(rec, "expert_precision", &Precision::ALL, p);

        let mut n = WorkloadNumbers::default();
        for key in WorkloadNumbers::NAMES {
            let v = rec.number(key, number_rule(key), p);
            if let Some(slot) = n.get_mut(key) {
                *slot = v;
            }
        }
        if let Some(r) = n.redundancy.filter(|r| *r > 1.0) {
            self.notices
                .push(share_warning(&rec.at("redundancy"), "redundancy", r));
        }
        let p = &mut self.problems;
        let online = rec.boolean("online", p);
        let spot_ok = rec.boolean("spot_ok", p);
        let notes = rec.text("notes", p).unwrap_or_default();
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
        let engine = match rec.text("engine", p) {
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
        };
        let kind = kind?;
        if let Some(e) = &engine {
            if engines.for_workload(e, kind).next().is_none() {
                self.notices.push(Warning::info(
                    rec.at("engine"),
                    format!(
                        "{e} has no figures for {} workloads: the Assumptions sheet's apply to {name}",
                        kind.key()
                    ),
                ));
            }
        }
        let p = &mut self.problems;
        // Cross-field rules, on the values with their defaults.
        let context = n
            .context_len
            .unwrap_or(if kind.is_training() { 2048.0 } else { 4096.0 });
        if let Some(avg) = n.avg_tokens {
            if avg > context {
                p.push(Problem::new(
                    rec.at("avg_tokens"),
                    format!("avg_tokens ({avg}) cannot exceed context_len ({context})"),
                ));
            }
        }
        if let (Some(base), c) = (n.base_concurrency, n.concurrency.unwrap_or(1.0)) {
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
        let online = online.unwrap_or(kind.online_by_default());
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
        let model = self.resolve_model(rec, &name, kind, &n, models);
        if self.problems.len() > before {
            return None;
        }
        let precision = precision.unwrap_or(if kind == Kind::Qlora {
            Precision::Int4
        } else {
            Precision::Bf16
        });
        let expert_precision = expert_precision.unwrap_or(precision);
        Some(Workload {
            name,
            kind,
            model,
            precision,
            kv_precision: kv_precision.unwrap_or(Precision::Fp16),
            expert_precision,
            numbers: n,
            online,
            spot_ok: spot_ok.unwrap_or(kind == Kind::Batch),
            gpu: pinned,
            engine,
            api,
            start_month,
            end_month,
            notes,
            cell: rec.cell("name"),
        })
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
        let needs_arch = matches!(
            kind,
            Kind::Inference | Kind::Lora | Kind::Qlora | Kind::FullFinetune | Kind::Pretrain
        ) || (kind == Kind::Batch && n.vram_gib.is_none());
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
                let at = self.base.join(m);
                return match super::config::import(&at) {
                    Ok(i) => {
                        self.notices.push(Warning::info(
                            rec.at("model"),
                            format!(
                                "{name}: the model {} was read from {m} ({}){}",
                                i.spec.name,
                                i.architecture,
                                if i.missing.is_empty() {
                                    String::new()
                                } else {
                                    format!("; not in its files: {}", i.missing.join(", "))
                                }
                            ),
                        ));
                        Some(i.spec)
                    }
                    Err(e) => {
                        self.problems.push(Problem::new(
                            rec.at("model"),
                            format!("the model path {m} cannot be read: {e}"),
                        ));
                        None
                    }
                };
            }
            let hint = suggest::hint(m, models.iter().map(|s| s.name.as_str()));
            if n.params_b.is_none() && !sized_by_memory {
                self.problems.push(Problem::new(
                    rec.at("model"),
                    format!(
                        "unknown model \"{m}\"{hint}; add it to the Models sheet, or give params_b"
                    ),
                ));
                return None;
            }
        } else if n.params_b.is_none() && !sized_by_memory {
            self.problems.push(Problem::new(
                rec.at("model"),
                format!(
                    "{name} needs a model or params_b{}",
                    if matches!(kind, Kind::Batch | Kind::ImageGen | Kind::VideoGen) {
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

/// A share above 1 (100%) where a percentage was likely meant: `redundancy 5` plans six times
/// the replicas, where 5% was probably meant.
pub(super) fn share_warning(at: &str, key: &str, v: f64) -> Warning {
    Warning::warn(
        at,
        format!(
            "{key} is {}, that is {}%; if you meant {}%, write {} or {}%",
            crate::model::format_number(v),
            crate::model::format_number(v * 100.0),
            crate::model::format_number(v),
            crate::model::format_number(v / 100.0),
            crate::model::format_number(v)
        ),
    )
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
            rec.at(key),
            format!(
                "{key} must be one of {}, found {}",
                list.join(", "),
                found(raw)
            ),
        ));
    }
    v
}

/// What each numeric Workloads column must hold.
pub(crate) fn number_rule(key: &str) -> Rule {
    match key {
        "params_b" => Rule::positive().max(100_000.0),
        "context_len" => Rule::whole(1.0, 10_000_000.0),
        "avg_tokens" => Rule::whole(1.0, 10_000_000.0),
        "concurrency" => Rule::whole(1.0, 1_000_000.0),
        "base_concurrency" => Rule::whole(0.0, 1_000_000.0),
        "peak_hours_per_day" => Rule::range(0.0, 24.0),
        "batch_size" => Rule::whole(1.0, 100_000.0),
        "tokens_per_s_per_request" => Rule::positive().max(1e7),
        "min_tokens_per_s" => Rule::positive().max(1e7),
        "max_ttft_s" => Rule::positive().max(1e6),
        "target_tps" => Rule::positive().max(1e12),
        "train_tokens_m" => Rule::positive().max(1e12),
        "hours_per_month" => Rule::range(0.0, 744.0),
        "runs_per_month" => Rule::whole(1.0, 100_000.0),
        "redundancy" => Rule::range(0.0, 10.0),
        "max_gpus" => Rule::whole(1.0, 1024.0),
        "resolution" => Rule::whole(64.0, 16_384.0),
        "vram_gib" => Rule::positive().max(1e6),
        "pilot_vram_gib" => Rule::positive().max(1e6),
        "pilot_concurrency" => Rule::whole(1.0, 1_000_000.0),
        "storage_gb" => Rule::at_least(0.0).max(1e12),
        "egress_gb" => Rule::at_least(0.0).max(1e12),
        "image_tokens" => Rule::whole(0.0, 10_000_000.0),
        "items_per_month" => Rule::positive().max(1e12),
        "seconds_per_item" => Rule::positive().max(1e7),
        "frames" => Rule::whole(1.0, 100_000.0),
        "requests_per_day" => Rule::at_least(0.0).max(1e12),
        "input_tokens" => Rule::whole(0.0, 10_000_000.0),
        "output_tokens" => Rule::whole(0.0, 10_000_000.0),
        "cached_share" => Rule::range(0.0, 1.0),
        _ => Rule::at_least(0.0).max(1e12),
    }
}

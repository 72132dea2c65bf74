//! The GPUs sheet: one offer per row, specifications filled from the catalog for known GPUs,
//! and `--set gpu:NAME.column=value`.

use super::table::{found, parse_bool, raw_number, Rule};
use super::xlsx::{Raw, RawSheet};
use super::{Override, Reader, Target};
use crate::catalog;
use crate::error::Problem;
use crate::model::{normalize, GpuOffer, Warning};
use crate::suggest;

impl Reader {
    pub(super) fn gpus(&mut self, raw: Option<RawSheet>) -> Vec<GpuOffer> {
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
            let Some(gpu) = rec.required_text("gpu", "the offer needs a gpu name", p) else {
                continue;
            };
            let provider = rec.text("provider", p).unwrap_or_default();
            let known = catalog::find_gpu(&gpu);
            let mut filled: Vec<&str> = Vec::new();
            // A specification: the cell, else the catalog's figure for a known GPU.
            let mut spec = |key: &'static str, from: Option<f64>, p: &mut Vec<Problem>| -> f64 {
                match rec.number(key, gpu_rule(key), p) {
                    Some(v) => v,
                    None if rec.raw(key).is_some() => 0.0,
                    None => match from {
                        Some(v) => {
                            filled.push(key);
                            v
                        }
                        None => {
                            p.push(Problem::new(
                                rec.at(key),
                                format!("{key} of {gpu} is required: it is not a GPU of the built-in catalog (gpuplan catalog gpus)"),
                            ));
                            0.0
                        }
                    },
                }
            };
            let platform = match rec.text("platform", p) {
                Some(t) => {
                    let t = t.trim().to_lowercase();
                    if !PLATFORMS.contains(&t.as_str()) {
                        self.notices.push(Warning::warn(
                            rec.at("platform"),
                            format!("{gpu}: the platform \"{t}\" has no compatibility rules here (known: {}), so every number format is assumed to run on it", PLATFORMS.join(", ")),
                        ));
                    }
                    t
                }
                None => known
                    .as_ref()
                    .map_or_else(|| "cuda".to_string(), |k| k.platform.clone()),
            };
            let p = &mut self.problems;
            let vram_gib = spec("vram_gib", known.as_ref().map(|k| k.vram_gib), p);
            let bandwidth_gbs = spec("bandwidth_gbs", known.as_ref().map(|k| k.bandwidth_gbs), p);
            let fp16_tflops = spec("fp16_tflops", known.as_ref().map(|k| k.fp16_tflops), p);
            // A compute capability is CUDA's; other platforms have none to give.
            let compute_capability = if platform == "cuda" {
                spec(
                    "compute_capability",
                    known.as_ref().map(|k| k.compute_capability),
                    p,
                )
            } else {
                spec("compute_capability", Some(0.0), p)
            };
            let fp8_tflops = spec(
                "fp8_tflops",
                Some(known.as_ref().map_or(0.0, |k| k.fp8_tflops)),
                p,
            );
            let interconnect_gbs = spec(
                "interconnect_gbs",
                Some(known.as_ref().map_or(0.0, |k| k.interconnect_gbs)),
                p,
            );
            let node_interconnect_gbs = rec
                .number(
                    "node_interconnect_gbs",
                    gpu_rule("node_interconnect_gbs"),
                    p,
                )
                .or(known.as_ref().and_then(|k| k.node_interconnect_gbs));
            let gpus_per_node = spec(
                "gpus_per_node",
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
            let reserved_term_months =
                rec.number("reserved_term_months", gpu_rule("reserved_term_months"), p);
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
                p.push(Problem::new(rec.at("gpu"), format!("the offer {label} is listed twice (first at {at}); give each a different provider")));
                continue;
            }
            if available
                && [on_demand_hourly, monthly, spot_hourly, reserved_monthly]
                    .iter()
                    .all(Option::is_none)
            {
                self.notices.push(Warning::warn(
                    rec.at("gpu"),
                    format!("{label} has no price for any billing mode, so it is never chosen; fill in at least one price"),
                ));
            }
            if !filled.is_empty() && known.is_some() {
                self.notices.push(Warning::info(
                    rec.at("gpu"),
                    format!(
                        "{label}: {} taken from the built-in catalog",
                        filled.join(", ")
                    ),
                ));
            }
            offers.push(GpuOffer {
                gpu,
                provider,
                platform,
                vram_gib,
                bandwidth_gbs,
                fp16_tflops,
                fp8_tflops,
                compute_capability,
                nvlink,
                interconnect_gbs,
                gpus_per_node,
                node_interconnect_gbs,
                on_demand_hourly,
                monthly,
                spot_hourly,
                reserved_monthly,
                reserved_term_months,
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

    /// `--set gpu:NAME.column=value`: the column of every offer of that GPU, validated as the
    /// sheet's cells are.
    pub(super) fn apply_gpu_overrides(&mut self, gpus: &mut [GpuOffer], overrides: &[Override]) {
        for o in overrides {
            let Target::Gpu(name) = &o.target else {
                continue;
            };
            let at = o.shown();
            let matching: Vec<usize> = (0..gpus.len())
                .filter(|&i| {
                    name == "*"
                        || normalize(&gpus[i].gpu) == normalize(name)
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
                "platform" => {
                    let t = o.value.trim().to_lowercase();
                    for &i in &matching {
                        gpus[i].platform = t.clone();
                    }
                    Ok(())
                }
                numeric if NUMERIC.contains(&numeric) => {
                    let rule = gpu_rule(key);
                    // An empty price takes the mode off the offer.
                    let is_price = matches!(
                        key,
                        "on_demand_hourly" | "monthly" | "spot_hourly" | "reserved_monthly"
                    );
                    let blank = is_price && o.value.is_empty();
                    match raw_number(&raw) {
                        // A relative change scales each offer's own value; an unoffered price
                        // stays unoffered.
                        Some(f) if o.scale => {
                            let mut bad = None;
                            for &i in &matching {
                                let Some(v) = gpu_number(&gpus[i], key) else {
                                    continue;
                                };
                                let v = v * f;
                                if rule.accepts(v) {
                                    set_gpu_number(&mut gpus[i], key, v);
                                } else {
                                    bad = Some(format!(
                                        "{key} × {} of {} would be {}, outside {}",
                                        o.value,
                                        gpus[i].label(),
                                        crate::model::format_number(v),
                                        rule.describe()
                                    ));
                                }
                            }
                            bad.map_or(Ok(()), Err)
                        }
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

/// A numeric column of an offer; `None` for a price not offered or a link not stated.
fn gpu_number(g: &GpuOffer, key: &str) -> Option<f64> {
    Some(match key {
        "vram_gib" => g.vram_gib,
        "bandwidth_gbs" => g.bandwidth_gbs,
        "fp16_tflops" => g.fp16_tflops,
        "compute_capability" => g.compute_capability,
        "fp8_tflops" => g.fp8_tflops,
        "interconnect_gbs" => g.interconnect_gbs,
        "node_interconnect_gbs" => return g.node_interconnect_gbs,
        "gpus_per_node" => g.gpus_per_node,
        "billing_granularity_min" => g.billing_granularity_min,
        "min_rental_min" => g.min_rental_min,
        "reserved_term_months" => return g.reserved_term_months,
        "on_demand_hourly" => return g.on_demand_hourly,
        "monthly" => return g.monthly,
        "spot_hourly" => return g.spot_hourly,
        "reserved_monthly" => return g.reserved_monthly,
        _ => return None,
    })
}

/// The numeric columns of the GPUs sheet.
const NUMERIC: [&str; 15] = [
    "vram_gib",
    "bandwidth_gbs",
    "fp16_tflops",
    "fp8_tflops",
    "interconnect_gbs",
    "node_interconnect_gbs",
    "compute_capability",
    "gpus_per_node",
    "on_demand_hourly",
    "monthly",
    "spot_hourly",
    "reserved_monthly",
    "billing_granularity_min",
    "reserved_term_months",
    "min_rental_min",
];

/// Sets a numeric column of an offer that has one (a price, a term, a specification);
/// false for any other key.
pub(crate) fn set_numeric(g: &mut GpuOffer, key: &str, v: f64) -> bool {
    if !NUMERIC.contains(&key) {
        return false;
    }
    set_gpu_number(g, key, v);
    true
}

/// Sets a numeric column of an offer.
fn set_gpu_number(g: &mut GpuOffer, key: &str, v: f64) {
    match key {
        "vram_gib" => g.vram_gib = v,
        "bandwidth_gbs" => g.bandwidth_gbs = v,
        "fp16_tflops" => g.fp16_tflops = v,
        "compute_capability" => g.compute_capability = v,
        "fp8_tflops" => g.fp8_tflops = v,
        "interconnect_gbs" => g.interconnect_gbs = v,
        "node_interconnect_gbs" => g.node_interconnect_gbs = Some(v),
        "gpus_per_node" => g.gpus_per_node = v,
        "billing_granularity_min" => g.billing_granularity_min = v,
        "min_rental_min" => g.min_rental_min = v,
        "reserved_term_months" => g.reserved_term_months = Some(v),
        price => set_gpu_price(g, price, Some(v)),
    }
}

/// The platforms templates/compat.tsv has rules for.
pub const PLATFORMS: [&str; 3] = ["cuda", "rocm", "ascend"];

/// What each numeric column of the GPUs sheet must hold.
pub(crate) fn gpu_rule(key: &str) -> Rule {
    match key {
        "vram_gib" => Rule::positive().max(10_000.0),
        "bandwidth_gbs" | "fp16_tflops" => Rule::positive().max(1e6),
        "compute_capability" => Rule::range(0.0, 20.0),
        "fp8_tflops" | "interconnect_gbs" | "node_interconnect_gbs" => Rule::at_least(0.0).max(1e6),
        "gpus_per_node" => Rule::whole(1.0, 1024.0),
        "billing_granularity_min" => Rule::positive().max(44_640.0),
        "min_rental_min" => Rule::at_least(0.0).max(44_640.0),
        "reserved_term_months" => Rule::whole(1.0, 120.0),
        _ => Rule::at_least(0.0).max(1e9),
    }
}

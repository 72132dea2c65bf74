//! The GPUs sheet: one offer per row, specifications filled from the catalog for known GPUs,
//! and `--set gpu:NAME.column=value`.

use super::table::{found, parse_bool, Record, Rule};
use super::xlsx::{Raw, RawSheet};
use super::Reader;
use crate::catalog;
use crate::error::Problem;
use crate::labels::Label;
use crate::model::change::{Change, Op, Target};
use crate::model::Price;
use crate::model::{format_number, normalize, Assumptions, GpuOffer, Value, Warning};
use crate::support::suggest;

impl Reader {
    /// The GPUs sheet's offers, validated; the built-in offers when the workbook has no GPUs
    /// sheet.
    pub(super) fn gpus(&mut self, raw: Option<RawSheet>) -> Vec<GpuOffer> {
        let Some(raw) = raw else {
            self.defaulted(
                "GPUs",
                Label::new("GPU offers with example prices", "GPU 报价（示例价格）"),
            );
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
        let mut from_catalog = Vec::new();
        for rec in t.records() {
            if let Some((offer, filled)) = self.gpu_offer(&rec, &offers) {
                if filled {
                    from_catalog.push(offer.label());
                }
                offers.push(offer);
            }
        }
        // One note for every offer the catalog completed, not a line each (#34 item 12).
        if !from_catalog.is_empty() {
            self.notices.push(Warning::info(
                t.sheet.clone(),
                format!(
                    "specifications left blank taken from the built-in catalog (gpuplan catalog gpus) for {}: {}",
                    if from_catalog.len() == 1 { "1 offer".to_string() } else { format!("{} offers", from_catalog.len()) },
                    from_catalog.join(", ")
                ),
            ).with_zh(format!(
                "{} 个报价留空的规格已按内置目录（gpuplan catalog gpus）补全：{}",
                from_catalog.len(),
                from_catalog.join("、")
            )));
        }
        if offers.is_empty() && self.problems.is_empty() {
            self.problems.push(Problem::new(format!("{}!2", t.sheet), "the GPUs sheet lists no offer; add at least one row (or delete the sheet to use the built-in offers)"));
        }
        offers
    }

    /// One row of the GPUs sheet as an offer, its problems and notices recorded, and whether
    /// the catalog filled in a specification it left blank; `None` for a row without a gpu
    /// name or an offer that `offers` already lists.
    fn gpu_offer(&mut self, rec: &Record, offers: &[GpuOffer]) -> Option<(GpuOffer, bool)> {
        let p = &mut self.problems;
        let gpu = rec.required_text("gpu", "the offer needs a gpu name", p)?;
        let provider = rec.text("provider", p).unwrap_or_default();
        let known = catalog::find_gpu(&gpu);
        let platform = self.platform(rec, &gpu, known.as_ref());
        let mut offer = GpuOffer {
            gpu,
            provider,
            platform,
            cell: Some(rec.cell("gpu")),
            ..GpuOffer::default()
        };
        // The specifications and terms are read into it next; the order of the reads is the
        // order of the problems listed.
        let p = &mut self.problems;
        let filled = read_specifications(rec, &mut offer, known.as_ref(), p);
        read_terms(rec, &mut offer, p);
        // The quote's currency, converted once the Assumptions are read (convert_gpus).
        if let Some(code) = rec.text("currency", p) {
            offer.quoted_in = Some((code.trim().to_uppercase(), 0.0, rec.at("currency")));
        }
        let label = offer.label();
        if let Some(prev) = offers.iter().find(|o| {
            normalize(&o.gpu) == normalize(&offer.gpu)
                && normalize(&o.provider) == normalize(&offer.provider)
        }) {
            let at = prev
                .cell
                .as_ref()
                .map(|c| c.to_string())
                .unwrap_or_default();
            p.push(Problem::new(rec.at("gpu"), format!("the offer {label} is listed twice (first at {at}); give each a different provider")));
            return None;
        }
        if offer.available && Price::ALL.iter().all(|p| offer.price(*p).is_none()) {
            self.notices.push(Warning::warn(
                rec.at("gpu"),
                format!("{label} has no price for any billing mode, so it is never chosen; fill in at least one price"),
            ).with_zh(format!("{label} 没有任何计费方式的价格，因此不会被选中；请至少填写一种价格")));
        }
        if offer.available && offer.purchase_price.is_some() && offer.power_w.is_none() {
            self.notices.push(Warning::warn(
                rec.at("purchase_price"),
                format!("{label} has a purchase price but no board power (power_w), so owning it is priced without electricity; give its watts"),
            ).with_zh(format!("{label} 给出了购置价但没有功耗（power_w），自建方案的费用未含电费；请填写其瓦数")));
        }
        let from_catalog = !filled.is_empty() && known.is_some();
        Some((offer, from_catalog))
    }

    /// Converts each offer quoted in another currency than the plan's into it, at the
    /// Assumption `fx_<CODE>`; a missing or non-positive rate is a problem at the currency's
    /// cell. A note per converted offer gives both amounts of each price.
    pub(super) fn convert_gpus(&mut self, gpus: &mut [GpuOffer], assumptions: &Assumptions) {
        let plan = assumptions.currency();
        for o in gpus.iter_mut() {
            let Some((code, _, at)) = o.quoted_in.clone() else {
                continue;
            };
            if code.is_empty() || code == plan {
                o.quoted_in = None;
                continue;
            }
            let key = format!("fx_{code}");
            let Some(rate) = self.fx_rate(assumptions, &code, &at, &o.label()) else {
                continue;
            };
            let mut both = Vec::new();
            for p in crate::model::Price::ALL {
                let name = p.key();
                if let Some(v) = o.price_mut(p) {
                    let converted = crate::formula::cents(*v * rate);
                    both.push(format!(
                        "{name} {} = {}",
                        crate::model::money(&code, *v),
                        crate::model::money(&plan, converted)
                    ));
                    *v = converted;
                }
            }
            self.notices.push(
                Warning::info(
                    at.clone(),
                    format!(
                        "{}: quoted in {code}, converted at {key} {}: {}",
                        o.label(),
                        format_number(rate),
                        both.join(", ")
                    ),
                )
                .with_zh(format!(
                    "{}：以 {code} 报价，按 {key} {} 折算：{}",
                    o.label(),
                    format_number(rate),
                    both.join("；")
                )),
            );
            o.quoted_in = Some((code, rate, at));
        }
    }

    /// The rate of the Assumption `fx_<code>` (the plan's currency per unit of `code`), or a
    /// problem at `at` naming `what` is quoted in it and the key it needs.
    pub(super) fn fx_rate(
        &mut self,
        assumptions: &Assumptions,
        code: &str,
        at: &str,
        what: &str,
    ) -> Option<f64> {
        let key = format!("fx_{code}");
        match assumptions.get(&key).map(|a| &a.value) {
            Some(Value::Number(r)) if *r > 0.0 && r.is_finite() => Some(*r),
            _ => {
                let plan = assumptions.currency();
                self.problems.push(Problem::new(
                    at,
                    format!(
                        "{what}: quoted in {code}, so the Assumptions need {key}, the {plan} a {code} is worth (a number above 0, e.g. 7.2 for USD in CNY)"
                    ),
                ));
                None
            }
        }
    }

    /// The platform of a GPU row: its cell (with a warning when templates/compat.tsv has no
    /// rules for it), else the catalog's for a known GPU, else `cuda`.
    fn platform(&mut self, rec: &Record, gpu: &str, known: Option<&GpuOffer>) -> String {
        match rec.text("platform", &mut self.problems) {
            Some(t) => {
                let t = t.trim().to_lowercase();
                if !PLATFORMS.contains(&t.as_str()) {
                    self.notices.push(Warning::warn(
                        rec.at("platform"),
                        format!("{gpu}: the platform \"{t}\" has no compatibility rules here (known: {}), so every number format is assumed to run on it", PLATFORMS.join(", ")),
                    ).with_zh(format!("{gpu}：平台“{t}”在此没有兼容性规则（已知：{}），因此假定所有数值格式都能在其上运行", PLATFORMS.join("、"))));
                }
                t
            }
            None => known.map_or_else(|| "cuda".to_string(), |k| k.platform.clone()),
        }
    }

    /// `--set gpu:NAME.column=value`: the column of every offer of that GPU, validated as the
    /// sheet's cells are.
    pub(super) fn apply_gpu_changes(&mut self, gpus: &mut [GpuOffer], changes: &[Change]) {
        for o in changes {
            let Target::Gpu(name) = &o.target else {
                continue;
            };
            let matching = matching_offers(gpus, name);
            let result = if matching.is_empty() {
                let hint = suggest::hint(name, gpus.iter().map(|g| g.gpu.as_str()));
                Err(format!("there is no GPU offer \"{name}\"{hint}"))
            } else {
                apply_gpu_change(gpus, &matching, o)
            };
            if let Err(msg) = result {
                self.problems.push(Problem::new(o.shown(), msg));
            }
        }
    }
}

/// The specifications of a GPU row, into `offer`: each from its cell, else the catalog's figure
/// for a known GPU (a problem for an unknown one). Returns the keys taken from the catalog.
fn read_specifications(
    rec: &Record,
    offer: &mut GpuOffer,
    known: Option<&GpuOffer>,
    p: &mut Vec<Problem>,
) -> Vec<&'static str> {
    let gpu = offer.gpu.clone();
    let mut filled: Vec<&'static str> = Vec::new();
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
    offer.vram_gib = spec("vram_gib", known.map(|k| k.vram_gib), p);
    offer.bandwidth_gbs = spec("bandwidth_gbs", known.map(|k| k.bandwidth_gbs), p);
    offer.fp16_tflops = spec("fp16_tflops", known.map(|k| k.fp16_tflops), p);
    // A compute capability is CUDA's; other platforms have none to give.
    offer.compute_capability = if offer.platform == "cuda" {
        spec("compute_capability", known.map(|k| k.compute_capability), p)
    } else {
        spec("compute_capability", Some(0.0), p)
    };
    offer.fp8_tflops = spec("fp8_tflops", Some(known.map_or(0.0, |k| k.fp8_tflops)), p);
    // Only the cards whose 16-bit-accumulate rate differs have one in the catalog; blank is
    // fp16_tflops, not a figure taken from it.
    let acc16 = "fp16_acc16_tflops";
    offer.fp16_acc16_tflops = match known.map(|k| k.fp16_acc16_tflops).filter(|v| *v > 0.0) {
        Some(v) => spec(acc16, Some(v), p),
        None => rec.number(acc16, gpu_rule(acc16), p).unwrap_or(0.0),
    };
    offer.interconnect_gbs = spec(
        "interconnect_gbs",
        Some(known.map_or(0.0, |k| k.interconnect_gbs)),
        p,
    );
    offer.node_interconnect_gbs = rec
        .number(
            "node_interconnect_gbs",
            gpu_rule("node_interconnect_gbs"),
            p,
        )
        .or(known.and_then(|k| k.node_interconnect_gbs));
    offer.gpus_per_node = spec(
        "gpus_per_node",
        Some(known.map_or(8.0, |k| k.gpus_per_node)),
        p,
    );
    offer.nvlink = rec
        .boolean("nvlink", p)
        .unwrap_or(known.is_some_and(|k| k.nvlink));
    offer.power_w = rec
        .number("power_w", gpu_rule("power_w"), p)
        .or(known.and_then(|k| k.power_w));
    filled
}

/// The prices and billing terms of a GPU row, into `offer`: a blank price is a mode not offered.
fn read_terms(rec: &Record, offer: &mut GpuOffer, p: &mut Vec<Problem>) {
    let number = |key: &str, p: &mut Vec<Problem>| rec.number(key, gpu_rule(key), p);
    for price in Price::ALL {
        *offer.price_mut(price) = number(price.key(), p);
    }
    offer.reserved_term_months = number("reserved_term_months", p);
    offer.spot_interruptions_per_day = number("spot_interruptions_per_day", p);
    // A blank cell is the column's default in templates/columns.tsv.
    let default = |key: &str| catalog::plain_default("GPUs", key).unwrap_or_default();
    let figure = |key: &str, p: &mut Vec<Problem>| {
        number(key, p).unwrap_or_else(|| default(key).parse().unwrap_or(0.0))
    };
    offer.billing_granularity_min = figure("billing_granularity_min", p);
    offer.depreciation_months = figure("depreciation_months", p);
    offer.residual_share = figure("residual_share", p);
    offer.hosting_monthly = figure("hosting_monthly", p);
    offer.min_rental_min = figure("min_rental_min", p);
    offer.available = rec
        .boolean("available", p)
        .unwrap_or_else(|| default("available") == "yes");
}

/// The offers `gpu:NAME` names: each whose GPU or label is NAME (loosely), or every one for `*`.
fn matching_offers(gpus: &[GpuOffer], name: &str) -> Vec<usize> {
    let n = normalize(name);
    (0..gpus.len())
        .filter(|&i| name == "*" || gpus[i].is_named(&n))
        .collect()
}

/// One `--set gpu:…` on the `matching` offers; the message when its column or value is refused.
fn apply_gpu_change(
    gpus: &mut [GpuOffer],
    matching: &[usize],
    o: &Change,
) -> std::result::Result<(), String> {
    let raw = match &o.op {
        Op::Set(v) => Raw::Text(v.clone()),
        Op::Scale(f) => Raw::Number(*f),
    };
    let key = o.key.as_str();
    match key {
        "nvlink" | "available" => match parse_bool(&raw) {
            Some(b) => {
                for &i in matching {
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
            let t = match &o.op {
                Op::Set(v) => v.trim().to_lowercase(),
                Op::Scale(_) => {
                    return Err(
                        "platform is a name, which a relative change cannot scale".to_string()
                    )
                }
            };
            for &i in matching {
                gpus[i].platform = t.clone();
            }
            Ok(())
        }
        numeric if GpuOffer::NUMERIC.contains(&numeric) => set_gpu_numbers(gpus, matching, o, &raw),
        other => {
            let cols = catalog::columns("GPUs");
            Err(format!(
                "`{other}` is not a GPU column one can set{}",
                suggest::hint(other, cols.iter().map(|c| c.key))
            ))
        }
    }
}

/// A numeric `--set gpu:…` on the `matching` offers: a value, a factor (`*=`) on each offer's
/// own value, or for a price a blank that takes the mode off the offer.
fn set_gpu_numbers(
    gpus: &mut [GpuOffer],
    matching: &[usize],
    o: &Change,
    raw: &Raw,
) -> std::result::Result<(), String> {
    let key = o.key.as_str();
    let rule = gpu_rule(key);
    // An empty price takes the mode off the offer.
    let is_price = Price::parse(key).is_some();
    let blank = is_price && o.op == Op::Set(String::new());
    if let Op::Scale(f) = o.op {
        return scale_gpu_numbers(gpus, matching, o, f);
    }
    match rule.read(raw) {
        _ if blank => {
            for &i in matching {
                gpus[i].set_price(key, None);
            }
            Ok(())
        }
        Some(v) if rule.accepts(v) => {
            for &i in matching {
                gpus[i].set_column(key, v);
            }
            Ok(())
        }
        _ => Err(rule.refusal(key, raw).en),
    }
}

/// `gpu:…KEY*=f`: each matching offer's own value times `f`, where it stays within the column's
/// rule; an unoffered price stays unoffered. The message names an offer it would take outside.
fn scale_gpu_numbers(
    gpus: &mut [GpuOffer],
    matching: &[usize],
    o: &Change,
    f: f64,
) -> std::result::Result<(), String> {
    let key = o.key.as_str();
    let rule = gpu_rule(key);
    let mut bad = None;
    for &i in matching {
        let Some(v) = gpu_number(&gpus[i], key) else {
            continue;
        };
        let v = v * f;
        if rule.accepts(v) {
            gpus[i].set_column(key, v);
        } else {
            bad = Some(format!(
                "{key} × {} of {} would be {}, outside {}",
                crate::model::format_number(f),
                gpus[i].label(),
                crate::model::format_number(v),
                rule.describe()
            ));
        }
    }
    bad.map_or(Ok(()), Err)
}

/// A numeric column of an offer; `None` for a price not offered or a link not stated.
fn gpu_number(g: &GpuOffer, key: &str) -> Option<f64> {
    Some(match key {
        "vram_gib" => g.vram_gib,
        "bandwidth_gbs" => g.bandwidth_gbs,
        "fp16_tflops" => g.fp16_tflops,
        "compute_capability" => g.compute_capability,
        "fp8_tflops" => g.fp8_tflops,
        "fp16_acc16_tflops" => return (g.fp16_acc16_tflops > 0.0).then_some(g.fp16_acc16_tflops),
        "interconnect_gbs" => g.interconnect_gbs,
        "node_interconnect_gbs" => return g.node_interconnect_gbs,
        "gpus_per_node" => g.gpus_per_node,
        "billing_granularity_min" => g.billing_granularity_min,
        "min_rental_min" => g.min_rental_min,
        "reserved_term_months" => return g.reserved_term_months,
        "spot_interruptions_per_day" => return g.spot_interruptions_per_day,
        key => return Price::parse(key).and_then(|p| g.price(p)),
    })
}

/// The platforms templates/compat.tsv has rules for.
pub const PLATFORMS: [&str; 3] = ["cuda", "rocm", "ascend"];

/// What each numeric column of the GPUs sheet must hold: its bounds in templates/columns.tsv.
pub(crate) fn gpu_rule(key: &str) -> Rule {
    Rule::of("GPUs", key).unwrap_or(Rule::at_least(0.0).max(1e9))
}

//! The APIs sheet: per-token prices of hosted models, to compare a workload's self-hosted cost
//! with calling an API. Without the sheet, the built-in examples (templates/apis.tsv) apply.

use super::table::Rule;
use super::xlsx::RawSheet;
use super::Reader;
use crate::catalog;
use crate::error::Problem;
use crate::model::{normalize, ApiPrice, Assumptions};

impl Reader {
    /// The APIs sheet's rows; a row quoted in another currency (its `currency` column) is
    /// converted into the plan's at the Assumption `fx_<CODE>`, as the GPUs sheet's offers are.
    pub(super) fn apis(
        &mut self,
        raw: Option<RawSheet>,
        assumptions: &Assumptions,
    ) -> Vec<ApiPrice> {
        let Some(raw) = raw else {
            return catalog::apis();
        };
        let Some(t) = self.table(raw, "APIs") else {
            return catalog::apis();
        };
        let mut out: Vec<ApiPrice> = Vec::new();
        for rec in t.records() {
            let p = &mut self.problems;
            let Some(model) = rec.required_text("model", "the row needs the API's model name", p)
            else {
                continue;
            };
            let model = model.trim().to_string();
            if out.iter().any(|a| normalize(&a.model) == normalize(&model)) {
                p.push(Problem::new(
                    rec.at("model"),
                    format!("the API model \"{model}\" is listed twice"),
                ));
                continue;
            }
            let price = |key: &str| Rule::of("APIs", key).unwrap_or(Rule::at_least(0.0).max(1e9));
            let needed = |key: &str, p: &mut Vec<Problem>| {
                let v = rec.number(key, price(key), p);
                if v.is_none() && rec.raw(key).is_none() {
                    p.push(Problem::new(
                        rec.at(key),
                        format!("{key} is required: the price per million tokens"),
                    ));
                }
                v
            };
            let input_per_m = needed("input_per_m", p);
            let output_per_m = needed("output_per_m", p);
            let cached_input_per_m =
                rec.number("cached_input_per_m", price("cached_input_per_m"), p);
            let (Some(mut input_per_m), Some(mut output_per_m)) = (input_per_m, output_per_m)
            else {
                continue;
            };
            let mut cached_input_per_m = cached_input_per_m;
            let code = rec
                .text("currency", p)
                .map(|c| c.trim().to_uppercase())
                .filter(|c| !c.is_empty() && *c != assumptions.currency());
            if let Some(code) = code {
                let Some(rate) = self.fx_rate(assumptions, &code, &rec.at("currency"), &model)
                else {
                    continue;
                };
                let c = crate::formula::cents;
                // Per million tokens, to the hundredth of a cent: a price of ¥0.0004 a million
                // must not round to nothing.
                let fx = |v: f64| c(v * rate * 100.0) / 100.0;
                input_per_m = fx(input_per_m);
                output_per_m = fx(output_per_m);
                cached_input_per_m = cached_input_per_m.map(fx);
            }
            let p = &mut self.problems;
            out.push(ApiPrice {
                provider: rec.text("provider", p).unwrap_or_default(),
                model,
                input_per_m,
                output_per_m,
                cached_input_per_m,
                source: rec.text("source", p).unwrap_or_default(),
            });
        }
        out
    }
}

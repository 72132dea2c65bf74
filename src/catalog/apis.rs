//! templates/apis.tsv: the built-in example API prices.

use super::{field, num, opt_num, records};

pub(super) const APIS_TSV: &str = include_str!("../../templates/apis.tsv");

/// The built-in example API prices (templates/apis.tsv), used when the workbook has no APIs
/// sheet.
pub fn apis() -> Vec<crate::model::ApiPrice> {
    records(APIS_TSV)
        .iter()
        .map(|r| crate::model::ApiPrice {
            provider: field(r, "provider").to_string(),
            model: field(r, "model").to_string(),
            input_per_m: num(r, "input_per_m"),
            output_per_m: num(r, "output_per_m"),
            cached_input_per_m: opt_num(r, "cached_input_per_m"),
            source: field(r, "source").to_string(),
        })
        .collect()
}

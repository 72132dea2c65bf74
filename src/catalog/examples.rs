//! templates/examples.tsv: the example workloads of the templates.

use super::{field, records};

pub(super) const EXAMPLES_TSV: &str = include_str!("../../templates/examples.tsv");

/// The example workloads of a template (`team`, `api`): per row, the non-blank (column, value) pairs.
pub fn examples(name: &str) -> Vec<Vec<(&'static str, &'static str)>> {
    records(EXAMPLES_TSV)
        .into_iter()
        .filter(|r| field(r, "example") == name)
        .map(|r| {
            r.into_iter()
                .filter(|(k, v)| *k != "example" && !v.trim().is_empty())
                .collect()
        })
        .collect()
}

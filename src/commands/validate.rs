//! `gpuplan validate`: the formulas checked against published measurements.

use super::out;
use crate::cli::ValidateArgs;
use crate::error::{Error, Result};
use crate::support::files;
use crate::validate;

/// Largest validation table `gpuplan validate FILE` reads.
pub const MAX_TABLE_BYTES: u64 = 10 * 1024 * 1024;

pub fn validate(a: &ValidateArgs) -> Result<()> {
    let (text, name) = match &a.table {
        Some(p) => {
            let text = files::read_text_bounded(
                p,
                MAX_TABLE_BYTES,
                "a validation table",
                "the table is not UTF-8 text; save it as CSV (UTF-8)",
            )?;
            (text, p.display().to_string())
        }
        None => (
            validate::BUILTIN.to_string(),
            "samples/validation.csv".into(),
        ),
    };
    let rows = validate::rows(&text).map_err(|e| Error::Usage(format!("{name}: {e}")))?;
    let outcomes = validate::run(&rows)?;
    out(&validate::report(&outcomes))
}

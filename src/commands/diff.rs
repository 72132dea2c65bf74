//! `gpuplan diff`: two plans compared, from their workbooks or JSON files.

use super::out;
use crate::cli::{self};
use crate::error::{Error, Result};
use crate::support::files;
use crate::support::output::{self, Pending};
use std::path::{Path, PathBuf};

/// Largest plan JSON `gpuplan diff` and `calc --compare` read. It is streamed and only the
/// compared fields are kept, their counts bounded (crate::diff::MAX_JSON_WORKLOADS and
/// MAX_JSON_INPUTS), so memory follows those bounds, not the file's size.
pub const MAX_PLAN_JSON_BYTES: u64 = 256 * 1000 * 1000;

/// A plan's view from its JSON or its workbook, with its currency and whether it records every
/// input (JSON does).
pub(super) fn plan_view(path: &Path) -> Result<(crate::diff::PlanView, String, bool)> {
    let is_json = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if !is_json {
        let (view, currency) = crate::diff::plan_view(path)?;
        return Ok((view, currency, false));
    }
    // Streamed: only the fields compared are kept, each list bounded (crate::diff::from_json).
    let meta = files::regular_input(path, "a plan's JSON")?;
    if meta.len() > MAX_PLAN_JSON_BYTES {
        return Err(Error::Unreadable {
            file: path.to_path_buf(),
            reason: format!(
                "the file is {} MB; gpuplan reads a plan's JSON of at most {} MB",
                meta.len().div_ceil(1_000_000),
                MAX_PLAN_JSON_BYTES / 1_000_000
            ),
        });
    }
    let file = std::fs::File::open(path).map_err(|e| Error::Unreadable {
        file: path.to_path_buf(),
        reason: format!("cannot read the file: {}", crate::error::describe(&e)),
    })?;
    crate::diff::from_json(std::io::Read::take(file, MAX_PLAN_JSON_BYTES)).map_err(|reason| {
        Error::Unreadable {
            file: path.to_path_buf(),
            reason,
        }
    })
}

pub fn diff(a: &cli::DiffArgs) -> Result<()> {
    // The table or the JSON goes to stdout: refused before a --json file is written.
    output::check_stdout()?;
    let json_path = a.json.as_deref().filter(|j| *j != "-").map(PathBuf::from);
    if let Some(j) = &json_path {
        output::distinct(&[
            ("the old plan", &a.old),
            ("the new plan", &a.new),
            ("--json", j),
        ])?;
        output::check_target(j, a.force)?;
    }
    let (old, currency, old_full) = plan_view(&a.old)?;
    let (new, _, new_full) = plan_view(&a.new)?;
    let d = crate::diff::compare(&old, &new, old_full, new_full);
    let write = |w: &mut dyn std::io::Write| -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut *w, &d).map_err(std::io::Error::from)?;
        w.write_all(b"\n")
    };
    if let Some(j) = &json_path {
        Pending::write_with(j, write)?.commit()?;
    }
    if a.json.as_deref() == Some("-") {
        output::to_stdout(write)
    } else if a.format == cli::DiffFormat::Markdown {
        out(&crate::report::diff_markdown(&d, &currency))
    } else {
        out(&crate::report::diff_table(&d, &currency))
    }
}

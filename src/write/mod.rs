//! Writing, and the only user of rust_xlsxwriter: the template of `init` and the plan workbook
//! of `calc` (one file per tab), saved through [`output::Pending`](crate::support::output::Pending) so that a failed or interrupted
//! run leaves nothing behind.

mod charts;
mod style;
mod tabs;
mod template;

pub use template::Example;

use crate::calc::Calc;
use crate::error::{Error, Result};
use crate::lang::Lang;
use crate::model::Warning;
use crate::support::files;
#[cfg(feature = "cli")]
use crate::support::output::Pending;
use crate::support::provenance::Provenance;
use rust_xlsxwriter::{ExcelDateTime, XlsxError};
use std::path::Path;

fn internal(e: XlsxError) -> Error {
    Error::Internal(format!("writing the workbook failed: {e}"))
}

/// A failed write of the workbook at `path`: the environment's fault (a full disk, a file-size
/// limit, an unwritable temporary folder) is an I/O error naming the file; anything else is a bug.
fn failed(path: &Path, e: XlsxError) -> Error {
    match e {
        XlsxError::IoError(io) | XlsxError::ZipError(zip::result::ZipError::Io(io)) => {
            files::io_error(path, "cannot write", io)
        }
        XlsxError::TempFileError(dir, io) => {
            files::io_error(dir, "cannot write a temporary file", io)
        }
        other => internal(other),
    }
}

/// The document's created and modified date: the Unix time `secs` (a time before 1900 or past
/// 9999, which Excel cannot hold, is written as 1970-01-01).
fn document_time(secs: i64) -> ExcelDateTime {
    ExcelDateTime::from_timestamp(secs)
        .or_else(|_| ExcelDateTime::from_timestamp(0))
        .unwrap_or_default()
}

/// What a plan of the input `input` is called, less its extension: `budget.plan` for
/// `budget.xlsx` (`budget.plan` too for a name without a stem). `gpuplan calc` writes
/// `budget.plan.xlsx` beside the input; the page in the browser offers it and `budget.plan.json`.
pub fn plan_stem(input: &Path) -> String {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "budget".into());
    format!("{stem}.plan")
}

/// The template workbook's bytes, dated `secs` (Unix seconds).
pub fn template_bytes(lang: Lang, example: Example, secs: i64) -> Result<Vec<u8>> {
    template::template(lang, example, &document_time(secs)).map_err(internal)
}

/// The calculation's workbook as bytes, and the warnings raised while writing it: the same
/// bytes [`plan`] writes to a file (`name` names it in messages), for a caller without a file
/// system of its own.
pub fn plan_bytes(
    name: &Path,
    calc: &Calc,
    lang: Lang,
    date: &str,
    stamp: &Provenance,
) -> Result<(Vec<u8>, Vec<Warning>)> {
    let (raw, written, caches) = writer_io(name, || {
        let (mut wb, warnings, caches) =
            tabs::workbook(calc, lang, &document_time(stamp.generated), date, stamp)
                .map_err(|e| failed(name, e))?;
        let raw = wb.save_to_buffer().map_err(|e| failed(name, e))?;
        Ok((raw, warnings, caches))
    })?;
    if caches.is_empty() {
        return Ok((raw, written));
    }
    let mut out = std::io::Cursor::new(Vec::new());
    charts::fill(std::io::Cursor::new(raw), &mut out, &caches)
        .map_err(|e| internal(XlsxError::ZipError(e)))?;
    Ok((out.into_inner(), written))
}

/// The calculation's workbook, written to a pending file (committed by the caller with the
/// JSON, so a failure leaves neither), and the warnings raised while writing it; `date` is shown
/// on the Summary as the input's, `stamp` says what made it. The bytes are [`plan_bytes`]'s:
/// the file and the engine from bytes cannot differ.
#[cfg(feature = "cli")]
pub fn plan(
    path: &Path,
    calc: &Calc,
    lang: Lang,
    date: &str,
    stamp: &Provenance,
) -> Result<(Pending, Vec<Warning>)> {
    let (bytes, written) = plan_bytes(path, calc, lang, date, stamp)?;
    Ok((Pending::write_with(path, |w| w.write_all(&bytes))?, written))
}

thread_local! {
    static WRITER_RUNNING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a panic now would come from rust_xlsxwriter's writing of a sheet (the panic hook
/// then stays quiet: `writer_io` reports it as what it is).
pub fn writer_running() -> bool {
    WRITER_RUNNING.with(std::cell::Cell::get)
}

/// Runs `f`, turning rust_xlsxwriter's panic on a failed write of its constant-memory temporary
/// files (0.102 `.expect`s `"Couldn't write to xml file: Os { code: 27, … }"`: a full disk or a
/// file-size limit) into the I/O error it is, naming the output. Any other panic is a bug and
/// goes on.
fn writer_io<T>(path: &Path, f: impl FnOnce() -> Result<T>) -> Result<T> {
    WRITER_RUNNING.with(|r| r.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    WRITER_RUNNING.with(|r| r.set(false));
    match result {
        Ok(r) => r,
        Err(payload) => {
            let text = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("");
            let code = text
                .split("code: ")
                .nth(1)
                .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|d| d.parse::<i32>().ok());
            match code {
                Some(code) if text.starts_with("Couldn't write") => Err(files::io_error(
                    path,
                    "cannot write",
                    std::io::Error::from_raw_os_error(code),
                )),
                _ => std::panic::resume_unwind(payload),
            }
        }
    }
}

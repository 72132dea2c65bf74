//! Writing, and the only user of rust_xlsxwriter: the template of `init` and the plan workbook
//! of `calc` (one file per tab), saved through [`files::Pending`] so that a failed or interrupted
//! run leaves nothing behind.

mod style;
mod tabs;
mod template;

pub use template::Example;

use crate::error::{Error, Result};
use crate::files::{self, Pending};
use crate::model::Warning;
use crate::plan::Plan;
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

/// The document date: `SOURCE_DATE_EPOCH` when set, else a fixed date, so the same input gives
/// the same bytes.
fn creation_time() -> ExcelDateTime {
    let fixed = || {
        ExcelDateTime::from_ymd(2026, 1, 1)
            .unwrap_or_else(|_| ExcelDateTime::from_serial_datetime(46023.0).unwrap_or_default())
    };
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .and_then(|t| ExcelDateTime::from_timestamp(t).ok())
        .unwrap_or_else(fixed)
}

/// The template workbook's bytes.
pub fn template_bytes(zh: bool, example: Example) -> Result<Vec<u8>> {
    template::template(zh, example, &creation_time()).map_err(internal)
}

/// The plan workbook, streamed to a pending file, and the warnings raised while writing it;
/// `date` is shown on the Summary as the input's.
pub fn plan(path: &Path, plan: &Plan, zh: bool, date: &str) -> Result<(Pending, Vec<Warning>)> {
    let mut p = Pending::new(path)?;
    let file = p.file();
    let written = writer_io(path, || {
        let (mut wb, warnings) =
            tabs::workbook(plan, zh, &creation_time(), date).map_err(|e| failed(path, e))?;
        wb.save_to_writer(&mut *file).map_err(|e| failed(path, e))?;
        Ok(warnings)
    })?;
    Ok((p.sync()?, written))
}

thread_local! {
    static WRITER_RUNNING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a panic now would come from rust_xlsxwriter's writing of a sheet (the panic hook
/// then stays quiet: [`writer_io`] reports it as what it is).
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

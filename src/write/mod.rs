//! Writing, and the only user of rust_xlsxwriter: the template of `init` and the plan workbook
//! of `calc` (one file per tab), saved atomically (temporary file in the target folder, synced,
//! renamed) so that a failed run leaves nothing behind.

mod style;
mod tabs;
mod template;

pub use template::Example;

use crate::error::{Error, Result};
use crate::plan::Plan;
use rust_xlsxwriter::{ExcelDateTime, XlsxError};
use std::io::Write;
use std::path::{Path, PathBuf};

fn internal(e: XlsxError) -> Error {
    Error::Internal(format!("writing the workbook failed: {e}"))
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

/// An output written to a synced temporary file beside its target, not yet in place: dropped,
/// it leaves nothing behind; [`Pending::commit`] renames it into place.
pub struct Pending {
    tmp: tempfile::NamedTempFile,
    path: PathBuf,
}

fn out_err(path: &Path, reason: String) -> Error {
    Error::Output {
        path: path.to_path_buf(),
        reason,
    }
}

impl Pending {
    /// A temporary file in `path`'s folder, with the permissions `path` has (or 0644).
    fn new(path: &Path) -> Result<Pending> {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            return Err(out_err(
                path,
                format!("the folder {} does not exist", dir.display()),
            ));
        }
        let tmp = tempfile::Builder::new()
            .prefix(".gpuplan-")
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(|e| out_err(path, format!("cannot write in {}: {e}", dir.display())))?;
        // tempfile creates files readable by the owner only; an output is an ordinary document.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path)
                .map(|m| m.permissions().mode() & 0o777)
                .unwrap_or(0o644);
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(mode))
                .map_err(|e| out_err(path, format!("cannot write: {e}")))?;
        }
        Ok(Pending {
            tmp,
            path: path.to_path_buf(),
        })
    }

    fn sync(self) -> Result<Pending> {
        self.tmp
            .as_file()
            .sync_all()
            .map_err(|e| out_err(&self.path, format!("cannot write: {e}")))?;
        Ok(self)
    }

    /// Bytes to a pending file.
    pub fn bytes(path: &Path, bytes: &[u8]) -> Result<Pending> {
        let mut p = Pending::new(path)?;
        p.tmp
            .write_all(bytes)
            .map_err(|e| out_err(path, format!("cannot write: {e}")))?;
        p.sync()
    }

    /// The plan workbook, streamed to a pending file; `date` is shown on the Summary as the input's.
    pub fn plan(path: &Path, plan: &Plan, zh: bool, date: &str) -> Result<Pending> {
        let mut p = Pending::new(path)?;
        let mut wb = tabs::workbook(plan, zh, &creation_time(), date).map_err(internal)?;
        wb.save_to_writer(p.tmp.as_file_mut()).map_err(internal)?;
        p.sync()
    }

    /// Renames the file into place.
    pub fn commit(self) -> Result<()> {
        let path = self.path;
        self.tmp
            .persist(&path)
            .map_err(|e| out_err(&path, format!("cannot replace the file: {}", e.error)))?;
        Ok(())
    }
}

/// Writes `bytes` to `path` through a synced temporary file in the same folder, renamed into place.
pub fn save(path: &Path, bytes: &[u8]) -> Result<()> {
    Pending::bytes(path, bytes)?.commit()
}

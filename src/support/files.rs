//! Inputs on disk, treated the way the README promises: read only when they are regular files
//! (a FIFO or a device would block or never end), within a size cap. Outputs are
//! [`super::output`]'s.

use crate::error::{Error, Result};
use std::io::Read;
use std::path::{Path, PathBuf};

/// An I/O failure at `path` (a file, or `stdout`).
pub fn io_error(path: impl Into<PathBuf>, action: &'static str, source: std::io::Error) -> Error {
    Error::Io {
        path: path.into(),
        action,
        source,
    }
}

/// The metadata of an input that must be a regular file (links followed): a folder, a FIFO, a
/// socket or a device is refused before it is opened, since opening a FIFO blocks.
pub fn regular_input(path: &Path, what: &str) -> Result<std::fs::Metadata> {
    let unreadable = |reason: String| Error::Unreadable {
        file: path.to_path_buf(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(|e| {
        unreadable(format!(
            "cannot read the file: {}",
            crate::error::describe(&e)
        ))
    })?;
    if meta.is_dir() {
        return Err(unreadable(format!("is a folder, not {what}")));
    }
    if !meta.is_file() {
        return Err(unreadable(format!(
            "is not a regular file (a FIFO, socket or device); gpuplan reads {what} only from a regular file, so that it never waits for data that may not come"
        )));
    }
    Ok(meta)
}

/// A text file of at most `max` bytes: UTF-8 (else `not_utf8` is the reason given), without a
/// byte-order mark.
pub fn read_text_bounded(path: &Path, max: u64, what: &str, not_utf8: &str) -> Result<String> {
    let bytes = read_bounded(path, max, what)?;
    let mut text = String::from_utf8(bytes).map_err(|_| Error::Unreadable {
        file: path.to_path_buf(),
        reason: not_utf8.to_string(),
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// The refusal of an input of `len` bytes, over the `max` gpuplan reads of `what`: the same
/// words whether the file is on disk or handed over as bytes (the page in the browser).
pub fn too_big(path: &Path, len: u64, max: u64, what: &str) -> Error {
    Error::Unreadable {
        file: path.to_path_buf(),
        reason: format!(
            "the file is {} MB; gpuplan reads {what} of at most {} MB",
            len.div_ceil(1_000_000),
            max / 1_000_000
        ),
    }
}

/// The bytes of a regular file of at most `max` bytes.
pub fn read_bounded(path: &Path, max: u64, what: &str) -> Result<Vec<u8>> {
    let meta = regular_input(path, what)?;
    let too_big = |len: u64| too_big(path, len, max, what);
    if meta.len() > max {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(max + 1).read_to_end(&mut bytes))
        .map_err(|e| Error::Unreadable {
            file: path.to_path_buf(),
            reason: format!("cannot read the file: {}", crate::error::describe(&e)),
        })?;
    // The file may have grown between the look and the read.
    if bytes.len() as u64 > max {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_text_loses_its_byte_order_mark_and_refuses_other_encodings() {
        let d = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let p = d.path().join("t.csv");
        std::fs::write(&p, b"\xef\xbb\xbfid,model\n").unwrap_or_else(|e| panic!("{e}"));
        let text = read_text_bounded(&p, 100, "a table", "not UTF-8").unwrap();
        assert_eq!(text, "id,model\n");
        // GBK bytes are not UTF-8: the caller's reason, naming the file.
        std::fs::write(&p, b"\xd5\xe2,x\n").unwrap_or_else(|e| panic!("{e}"));
        let e = read_text_bounded(&p, 100, "a table", "not UTF-8").unwrap_err();
        assert_eq!(e.to_string(), format!("{}: not UTF-8", p.display()));
        // Over the bound: refused before it is read.
        let e = read_text_bounded(&p, 3, "a table", "not UTF-8").unwrap_err();
        assert!(e.to_string().contains("reads a table of at most"), "{e}");
    }
}

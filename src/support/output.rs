//! Outputs on disk, treated the way the README promises: never the input or each other (compared
//! by device and inode, so links cannot fool it), never anything but a regular file, never an
//! existing file without `--force`; written to a synced temporary file beside the target and
//! renamed into place, and the temporary files still pending are removed on SIGINT, SIGTERM and
//! SIGHUP before the process exits 130, 143 or 129. The command line's (feature `cli`): a build
//! for the browser has no file system to write to.

use super::files::io_error;
use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Device and inode of an existing file (links followed).
#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(_path: &Path) -> Option<(u64, u64)> {
    None
}

/// The absolute path a file has or would have: its folder resolved (links included), then its name.
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = path.canonicalize() {
        return Some(p);
    }
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(dir.canonicalize().ok()?.join(name))
}

/// Whether two paths name the same file: the same device and inode where both exist (hard and
/// symbolic links), else the same resolved path.
pub fn same_file(a: &Path, b: &Path) -> bool {
    if let (Some(x), Some(y)) = (identity(a), identity(b)) {
        return x == y;
    }
    a == b || matches!((resolved(a), resolved(b)), (Some(x), Some(y)) if x == y)
}

/// Refuses files named twice among the input and the outputs (`role` names each in messages).
pub fn distinct(files: &[(&str, &Path)]) -> Result<()> {
    for (i, (role_a, a)) in files.iter().enumerate() {
        for (role_b, b) in &files[i + 1..] {
            if same_file(a, b) {
                return Err(Error::Usage(format!(
                    "{role_b} {} is {role_a} ({}); choose another path",
                    b.display(),
                    a.display()
                )));
            }
        }
    }
    Ok(())
}

/// Whether an output may be written at `path`: never over anything but a regular file (a
/// device, a FIFO or a folder is refused even with `--force`), and over an existing file only
/// when `replace` (`--force`, or the default output path) allows it.
pub fn check_target(path: &Path, replace: bool) -> Result<()> {
    let refuse = |reason: &str| Error::Output {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    let text = path.as_os_str().to_string_lossy();
    if text.ends_with(std::path::MAIN_SEPARATOR) || text.ends_with('/') {
        return Err(refuse("names a folder; give a file name"));
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(refuse("is a folder; give a file name")),
        Ok(m) if !m.is_file() => Err(refuse(
            "is not a regular file (a device, FIFO or socket); gpuplan writes only files, and never replaces anything else, even with --force",
        )),
        Ok(_) if !replace => Err(refuse("already exists; use --force to replace it")),
        _ => Ok(()),
    }
}

/// The temporary files not yet renamed into place, removed if a signal ends the process.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending_list() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes every pending temporary file.
pub fn remove_pending() {
    for p in pending_list().drain(..) {
        let _ = std::fs::remove_file(p);
    }
}

/// On SIGINT, SIGTERM or SIGHUP: remove the pending temporary files and exit with 128 + the
/// signal (130, 143, 129). SIGXFSZ is caught too, so that passing `ulimit -f` is an error a write
/// returns (EFBIG), reported like a full disk, instead of killing the process.
#[cfg(unix)]
pub fn handle_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};
    let _ = signal_hook::flag::register(
        SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            remove_pending();
            let name = match sig {
                SIGINT => "interrupted",
                SIGTERM => "terminated",
                _ => "hung up",
            };
            eprintln!("\ngpuplan: {name}; nothing was written");
            std::process::exit(128 + sig);
        }
    });
}

#[cfg(not(unix))]
pub fn handle_signals() {}

/// An output written to a synced temporary file beside its target, not yet in place: dropped,
/// it leaves nothing behind; [`Pending::commit`] renames it into place.
pub struct Pending {
    tmp: Option<tempfile::NamedTempFile>,
    path: PathBuf,
}

impl Pending {
    /// A temporary file in `path`'s folder, with the permissions `path` has (or 0644).
    pub fn new(path: &Path) -> Result<Pending> {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            return Err(Error::Output {
                path: path.to_path_buf(),
                reason: if dir.exists() {
                    format!("{} is a file, not a folder", dir.display())
                } else {
                    format!("the folder {} does not exist", dir.display())
                },
            });
        }
        // Registered before it exists, so a signal between the two cannot leave it behind.
        let mut list = pending_list();
        let tmp = tempfile::Builder::new()
            .prefix(".gpuplan-")
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(|e| io_error(path, "cannot create a file in its folder", e))?;
        list.push(tmp.path().to_path_buf());
        drop(list);
        // tempfile creates files readable by the owner only; an output is an ordinary document.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path)
                .map(|m| m.permissions().mode() & 0o777)
                .unwrap_or(0o644);
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(mode))
                .map_err(|e| io_error(path, "cannot write", e))?;
        }
        Ok(Pending {
            tmp: Some(tmp),
            path: path.to_path_buf(),
        })
    }

    /// The target path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary file, to write into.
    pub fn file(&mut self) -> &mut std::fs::File {
        // Always Some until commit or drop consume it.
        self.tmp
            .as_mut()
            .map(tempfile::NamedTempFile::as_file_mut)
            .unwrap_or_else(|| unreachable!("a pending file is used after commit"))
    }

    /// Writes through a buffer with `f`, then syncs: a failure names the target, not the
    /// temporary file.
    pub fn write_with(
        path: &Path,
        f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<Pending> {
        let mut p = Pending::new(path)?;
        {
            let mut w = std::io::BufWriter::new(p.file());
            f(&mut w)
                .and_then(|()| w.flush())
                .map_err(|e| io_error(path, "cannot write", e))?;
        }
        p.sync()
    }

    /// Bytes to a pending file.
    pub fn bytes(path: &Path, bytes: &[u8]) -> Result<Pending> {
        Pending::write_with(path, |w| w.write_all(bytes))
    }

    /// Flushes the temporary file to disk.
    pub fn sync(mut self) -> Result<Pending> {
        let path = self.path.clone();
        self.file()
            .sync_all()
            .map_err(|e| io_error(path, "cannot write", e))?;
        Ok(self)
    }

    /// Renames the file into place.
    pub fn commit(mut self) -> Result<()> {
        let Some(tmp) = self.tmp.take() else {
            return Ok(());
        };
        let tmp_path = tmp.path().to_path_buf();
        let result = tmp.persist(&self.path);
        forget(&tmp_path);
        result
            .map(|_| ())
            .map_err(|e| io_error(&self.path, "cannot replace the file", e.error))
    }
}

fn forget(tmp: &Path) {
    pending_list().retain(|p| p != tmp);
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let path = tmp.path().to_path_buf();
            drop(tmp);
            forget(&path);
        }
    }
}

/// Writes `bytes` to `path` through a synced temporary file in the same folder, renamed into place.
pub fn save(path: &Path, bytes: &[u8]) -> Result<()> {
    Pending::bytes(path, bytes)?.commit()
}

/// Whether the process was started with stdout closed (`gpuplan … >&-`). Rust's runtime opens
/// /dev/null read-write on a closed standard descriptor before `main`, so writes would vanish
/// without an error: that descriptor is recognised by its target and its read-write mode (a
/// shell's `>/dev/null` opens it write-only). Linux only (it reads /proc); elsewhere false.
pub fn stdout_closed() -> bool {
    if !cfg!(target_os = "linux") {
        return false;
    }
    let is_null = std::fs::read_link("/proc/self/fd/1").is_ok_and(|t| t == Path::new("/dev/null"));
    let read_write = || {
        std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("flags:"))
                .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
                .is_some_and(|flags| flags & 0o3 == 0o2)
        })
    };
    is_null && read_write()
}

/// Refuses to go on when stdout was closed and output is meant for it (exit 2, before anything
/// is written), rather than lose the output.
pub fn check_stdout() -> Result<()> {
    if stdout_closed() {
        return Err(io_error(
            "stdout",
            "cannot write",
            std::io::Error::other("standard output is closed; redirect it to a file or a pipe"),
        ));
    }
    Ok(())
}

/// Writes to stdout; a reader that went away (`gpuplan catalog | head`) is not an error, a full
/// disk or a closed descriptor is (exit 2).
pub fn to_stdout(f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    check_stdout()?;
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    match f(&mut w).and_then(|()| w.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(io_error("stdout", "cannot write", e)),
        Ok(()) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hard_link_and_a_symlink_are_the_same_file_and_a_new_path_is_compared_by_folder() {
        let d = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let a = d.path().join("a.xlsx");
        std::fs::write(&a, b"x").unwrap_or_else(|e| panic!("{e}"));
        let hard = d.path().join("hard.xlsx");
        std::fs::hard_link(&a, &hard).unwrap_or_else(|e| panic!("{e}"));
        assert!(same_file(&a, &hard));
        #[cfg(unix)]
        {
            let soft = d.path().join("soft.xlsx");
            std::os::unix::fs::symlink(&a, &soft).unwrap_or_else(|e| panic!("{e}"));
            assert!(same_file(&soft, &a));
        }
        let new = d.path().join("new.json");
        let dotted = d.path().join(".").join("new.json");
        assert!(same_file(&new, &dotted));
        assert!(!same_file(&new, &a));
    }

    #[test]
    fn a_dropped_pending_file_leaves_nothing_and_is_forgotten() {
        let d = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let target = d.path().join("out.xlsx");
        let p = Pending::bytes(&target, b"data").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pending_list().len(), 1);
        drop(p);
        assert!(pending_list().is_empty());
        assert_eq!(
            std::fs::read_dir(d.path()).map(Iterator::count).ok(),
            Some(0)
        );
    }
}

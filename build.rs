//! Puts the git commit into `gpuplan --version` (`gpuplan 0.1.0 (abc1234)`) when the crate is
//! built from a git checkout of its own, or from a package `cargo package` made from one; the plain
//! version otherwise. Never fails the build: no git, no repository, a crate vendored inside another
//! project's repository or an unreadable file all give the plain version.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let commit = git_commit(&dir).or_else(|| packaged_commit(&dir));
    let full = match commit {
        Some(c) => format!("{version} ({c})"),
        None => version,
    };
    println!("cargo:rustc-env=GPUPLAN_VERSION={full}");
}

/// Runs git in the crate's folder; `None` if git is missing or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        // A GIT_DIR set by whoever runs cargo would describe another repository.
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// The short commit of the checkout the crate is the top of. Watches HEAD and the branch it points
/// to, so a new commit or a checkout rebuilds with the new hash, and nothing else reruns this.
fn git_commit(dir: &Path) -> Option<String> {
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    // Only the crate's own repository: a crate unpacked inside another project's checkout (a
    // vendor folder) must not report that project's commit.
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same(Path::new(&top), dir) {
        return None;
    }
    let commit = git(dir, &["rev-parse", "--short", "HEAD"])?;
    // `--git-path` resolves a worktree's own HEAD and the shared refs; it may be relative to `dir`.
    let watch = |name: &str| {
        if let Some(p) = git(dir, &["rev-parse", "--git-path", name]) {
            let p = dir.join(p);
            if p.exists() {
                println!("cargo:rerun-if-changed={}", p.display());
                return true;
            }
        }
        false
    };
    watch("HEAD");
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        // A packed branch has no file of its own: watch packed-refs instead (a missing file
        // would rerun this script on every build).
        if !watch(&branch) {
            watch("packed-refs");
        }
    }
    Some(commit)
}

/// The commit `cargo package` recorded in `.cargo_vcs_info.json` (a crate installed from a
/// registry or an unpacked `.crate` has no `.git`).
fn packaged_commit(dir: &Path) -> Option<String> {
    let path = dir.join(".cargo_vcs_info.json");
    let text = std::fs::read_to_string(&path).ok()?;
    println!("cargo:rerun-if-changed={}", path.display());
    let rest = &text[text.find("\"sha1\"")? + 6..];
    let start = rest.find('"')? + 1;
    let sha: String = rest[start..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    (sha.len() >= 7).then(|| sha[..7].to_string())
}

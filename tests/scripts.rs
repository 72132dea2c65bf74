//! The Python scripts shipped beside the crate (scripts/, samples/, research/) at least parse:
//! a broken script is found here, not by the next person who runs it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn python_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name();
        // Virtual environments made by the scripts' install lines are not ours.
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        if p.is_dir() {
            python_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "py") {
            out.push(p);
        }
    }
}

#[test]
#[ignore = "needs python3"]
fn every_python_script_compiles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["scripts", "samples", "research"] {
        python_files(&root.join(d), &mut files);
    }
    // peers.py, measure_memory.py, make_samples.py and make_usage_week.py at least.
    assert!(files.len() >= 4, "{files:?}");
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        // compile() only: nothing is run or imported, and no __pycache__ is written.
        let out = Command::new("python3")
            .args([
                "-c",
                "import sys; compile(sys.stdin.read(), sys.argv[1], 'exec')",
            ])
            .arg(f)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(src.as_bytes())?;
                c.wait_with_output()
            })
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}: {}",
            f.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

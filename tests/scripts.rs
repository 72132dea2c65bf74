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

/// #46: scripts/layering.py passes on the crate's own src/, and fails, naming the file and line,
/// on a tree that breaks each rule: read importing plan, plan importing read, usage importing
/// read, and two files importing each other (here through `super::`).
#[test]
#[ignore = "needs python3"]
fn the_layering_check_holds_here_and_catches_each_broken_rule() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("scripts/layering.py");
    let run = |src: &Path| {
        Command::new("python3")
            .arg(&script)
            .arg(src)
            .output()
            .expect("python3 runs")
    };
    let here = run(&root.join("src"));
    assert!(
        here.status.success(),
        "{}",
        String::from_utf8_lossy(&here.stdout)
    );
    let d = std::env::temp_dir().join(format!("gpuplan-layering-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    for (file, text) in [
        ("lib.rs", "pub mod plan;\npub mod read;\npub mod usage;\n"),
        ("read/mod.rs", "use crate::plan::Plan;\n"),
        (
            "plan/mod.rs",
            "mod a;\nmod b;\npub struct Plan;\nuse crate::read::Book;\n",
        ),
        ("plan/a.rs", "use super::b::B;\npub struct A;\n"),
        ("plan/b.rs", "use super::a::A;\npub struct B;\n"),
        ("usage/mod.rs", "fn f() { crate::read::parse(); }\n"),
        // A unit test may import what the code may not.
        (
            "plan/c.rs",
            "#[cfg(test)]\nmod tests {\n    use crate::read::Book;\n}\n",
        ),
    ] {
        let p = d.join(file);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let bad = run(&d);
    let out = String::from_utf8_lossy(&bad.stdout).to_string();
    std::fs::remove_dir_all(&d).unwrap();
    assert_eq!(bad.status.code(), Some(1), "{out}");
    for needle in [
        "read/mod.rs:1: read imports plan::Plan",
        "plan/mod.rs:4: plan imports read::Book",
        "usage/mod.rs:1: usage imports read::parse",
        "plan/a.rs:1 and ",
        "plan/b.rs:1: import each other",
        // read and plan, each importing the other, are a circle as well.
        "plan/mod.rs:4 and ",
    ] {
        assert!(out.contains(needle), "{needle} not in:\n{out}");
    }
    assert!(!out.contains("plan/c.rs"), "{out}");
    assert_eq!(out.lines().count(), 5, "{out}");
}

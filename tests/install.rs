//! What an installed gpuplan brings besides planning: `--version` with the commit, the shell
//! completions and the manual pages, each generated from the clap definition and checked by the
//! program that will read it (bash, zsh, fish, groff).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use clap::CommandFactory;
use common::*;
use std::path::Path;
use std::process::{Command, Stdio};

/// Every command and its long flags, read from the definition itself: a new command or flag is
/// checked without anyone editing this test.
fn commands() -> Vec<(String, Vec<String>)> {
    gpuplan::cli::Cli::command()
        .get_subcommands()
        .map(|c| {
            let flags = c
                .get_arguments()
                .filter_map(|a| a.get_long())
                .map(|l| format!("--{l}"))
                .collect();
            (c.get_name().to_string(), flags)
        })
        .collect()
}

fn completions(shell: &str) -> String {
    let d = tempdir();
    let r = gpuplan(d.path(), &["completions", shell]);
    r.ok();
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    r.stdout
}

/// Runs `program ARGS` and returns its stdout, failing the test on a non-zero exit or any stderr.
fn run_clean(program: &str, args: &[&str], dir: &Path) -> String {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} (is it installed?): {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.is_empty(),
        "{program} {args:?}: {}\n{stderr}",
        out.status
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().map(str::trim).collect()
}

#[test]
fn the_command_list_read_by_these_tests_is_the_real_one() {
    let names: Vec<String> = commands().into_iter().map(|(n, _)| n).collect();
    for n in ["init", "calc", "check", "completions", "man"] {
        assert!(names.iter().any(|x| x == n), "{n} missing from {names:?}");
    }
}

#[test]
fn completions_name_every_command_and_flag_in_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = completions(shell);
        for (name, flags) in commands() {
            assert!(script.contains(&name), "{shell}: no {name}");
            for f in flags {
                // fish names long flags without their dashes (`-l force`).
                let bare = f.trim_start_matches('-');
                let found = script.contains(&f) || (shell == "fish" && script.contains(bare));
                assert!(found, "{shell}: {name} lacks {f}");
            }
        }
    }
    assert!(completions("powershell").contains("Register-ArgumentCompleter"));
}

#[test]
fn an_unknown_shell_is_refused_with_the_list() {
    let d = tempdir();
    let r = gpuplan(d.path(), &["completions", "tcsh"]);
    r.fails_with(2, &["tcsh", "bash", "zsh", "fish", "powershell"]);
    assert!(r.stdout.is_empty());
}

#[test]
fn completions_help_says_how_to_install_for_each_shell() {
    let d = tempdir();
    let r = gpuplan(d.path(), &["completions", "--help"]);
    r.ok();
    for line in [
        "gpuplan completions bash > ~/.local/share/bash-completion/completions/gpuplan",
        "gpuplan completions zsh > ~/.zfunc/_gpuplan",
        "gpuplan completions fish > ~/.config/fish/completions/gpuplan.fish",
        "gpuplan completions powershell >> $PROFILE",
    ] {
        assert!(r.stdout.contains(line), "{line:?} not in\n{}", r.stdout);
    }
}

#[test]
fn bash_completion_parses_and_completes_the_commands() {
    let d = tempdir();
    std::fs::write(d.path().join("c.bash"), completions("bash")).unwrap();
    run_clean("bash", &["-n", "c.bash"], d.path());
    // What bash does on `gpuplan <TAB>`, and on `gpuplan calc --<TAB>`.
    let complete = |words: &str, cword: usize| {
        let script = format!(
            "source ./c.bash\nCOMP_WORDS=({words})\nCOMP_CWORD={cword}\n\
             _gpuplan gpuplan \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
             printf '%s\\n' \"${{COMPREPLY[@]}}\""
        );
        run_clean("bash", &["--norc", "-c", &script], d.path())
    };
    let top = complete("gpuplan ''", 1);
    for (name, _) in commands() {
        assert!(lines(&top).contains(&name.as_str()), "{name} not in\n{top}");
    }
    let calc = complete("gpuplan calc --", 2);
    for f in ["--output", "--json", "--set", "--force", "--strict"] {
        assert!(lines(&calc).contains(&f), "{f} not in\n{calc}");
    }
}

#[test]
#[ignore = "needs zsh; .ci/run installs it"]
fn zsh_completion_parses() {
    let d = tempdir();
    let script = completions("zsh");
    assert!(script.starts_with("#compdef gpuplan"), "{script}");
    std::fs::write(d.path().join("_gpuplan"), script).unwrap();
    run_clean("zsh", &["-n", "_gpuplan"], d.path());
}

#[test]
#[ignore = "needs fish; .ci/run installs it"]
fn fish_completion_parses_and_completes_the_commands() {
    let d = tempdir();
    std::fs::write(d.path().join("gpuplan.fish"), completions("fish")).unwrap();
    run_clean("fish", &["--no-execute", "gpuplan.fish"], d.path());
    // What fish offers on `gpuplan <TAB>`: one `name<TAB>description` line per candidate.
    let offered = run_clean(
        "fish",
        &[
            "--no-config",
            "-c",
            "source gpuplan.fish; complete --do-complete 'gpuplan '",
        ],
        d.path(),
    );
    let names: Vec<&str> = offered
        .lines()
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    for (name, _) in commands() {
        assert!(names.contains(&name.as_str()), "{name} not in\n{offered}");
    }
}

#[test]
fn the_man_page_has_a_title_and_names_every_command() {
    let d = tempdir();
    let r = gpuplan(d.path(), &["man"]);
    r.ok();
    let page = &r.stdout;
    assert!(page.contains(".TH GPUPLAN 1 "), "no .TH line:\n{page}");
    assert!(page.contains(".SH SYNOPSIS") && page.contains(".SH EXAMPLES"));
    // roff writes a hyphen as `\-`: each command is listed as gpuplan-NAME(1).
    for (name, _) in commands() {
        let entry = format!("gpuplan\\-{}(1)", name.replace('-', "\\-"));
        assert!(page.contains(&entry), "{entry} not in the page");
    }
    // Nothing written beside it.
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

#[test]
fn man_dir_writes_a_page_per_command_and_replaces_only_with_force() {
    let d = tempdir();
    let r = gpuplan(d.path(), &["man", "--dir", "man1"]);
    r.ok();
    let dir = d.path().join("man1");
    let mut expected = vec!["gpuplan.1".to_string()];
    expected.extend(
        commands()
            .into_iter()
            .map(|(n, _)| format!("gpuplan-{n}.1")),
    );
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    let mut sorted = expected.clone();
    sorted.sort();
    assert_eq!(found, sorted);
    for (name, _) in commands() {
        let page = std::fs::read_to_string(dir.join(format!("gpuplan-{name}.1"))).unwrap();
        let title = format!(
            ".TH GPUPLAN-{} 1  \"gpuplan {}\"",
            name.to_uppercase(),
            gpuplan::cli::VERSION
        );
        assert!(page.contains(&title), "{name}: no {title:?}\n{page}");
        assert!(
            r.stdout.contains(&format!("gpuplan-{name}.1")),
            "{}",
            r.stdout
        );
    }
    let before = bytes(&dir.join("gpuplan.1"));
    std::fs::write(dir.join("gpuplan-calc.1"), "mine").unwrap();
    gpuplan(d.path(), &["man", "--dir", "man1"])
        .fails_with(2, &["gpuplan.1", "already exists", "--force"]);
    assert_eq!(std::fs::read(dir.join("gpuplan-calc.1")).unwrap(), b"mine");
    gpuplan(d.path(), &["man", "--dir", "man1", "--force"]).ok();
    assert_eq!(bytes(&dir.join("gpuplan.1")), before);
    assert_ne!(std::fs::read(dir.join("gpuplan-calc.1")).unwrap(), b"mine");
    gpuplan(d.path(), &["man", "--force"]).fails_with(2, &["--dir"]);
}

#[test]
#[ignore = "needs groff; .ci/run installs it"]
fn every_man_page_renders_without_a_warning() {
    let d = tempdir();
    gpuplan(d.path(), &["man", "--dir", "man1"]).ok();
    let mut pages = 0;
    for e in std::fs::read_dir(d.path().join("man1")).unwrap() {
        let path = e.unwrap().path();
        let file = path.to_str().unwrap();
        // -ww: every warning; -z: check only. Any message on stderr fails.
        run_clean("groff", &["-man", "-Tutf8", "-ww", "-z", file], d.path());
        pages += 1;
    }
    assert_eq!(pages, commands().len() + 1);
    // The rendered text keeps the examples' lines as written.
    let text = run_clean(
        "groff",
        &["-man", "-Tutf8", "-P", "-cbou", "man1/gpuplan.1"],
        d.path(),
    );
    assert!(
        text.lines()
            .any(|l| l.trim().starts_with("gpuplan calc budget.xlsx")
                && l.contains("budget.plan.xlsx")),
        "{text}"
    );
}

/// The short commit of the source folder, when it is a git checkout of its own and git runs.
fn source_commit() -> Option<String> {
    let dir = env!("CARGO_MANIFEST_DIR");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let top = git(&["rev-parse", "--show-toplevel"])?;
    if Path::new(&top).canonicalize().ok()? != Path::new(dir).canonicalize().ok()? {
        return None;
    }
    git(&["rev-parse", "--short", "HEAD"])
}

#[test]
fn version_names_the_version_and_the_commit_it_was_built_from() {
    let d = tempdir();
    let r = gpuplan(d.path(), &["--version"]);
    r.ok();
    let plain = format!("gpuplan {}", env!("CARGO_PKG_VERSION"));
    let line = r.stdout.trim_end();
    match source_commit() {
        Some(c) => assert_eq!(line, format!("{plain} ({c})")),
        // A packaged crate names the commit it was packaged from; anything else the plain version.
        None if Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(".cargo_vcs_info.json")
            .exists() =>
        {
            assert!(line.starts_with(&format!("{plain} (")), "{line}")
        }
        None => assert_eq!(line, plain),
    }
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
    // The manual page's footer carries the same version.
    let man = gpuplan(d.path(), &["man"]);
    let version = line.trim_start_matches("gpuplan ");
    assert!(man.stdout.contains(&format!("\"gpuplan {version}\"")));
}

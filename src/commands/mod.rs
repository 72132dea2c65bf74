//! The commands of the command line, one module each: they tie the pipeline's stages together
//! and decide what reaches the terminal and the disk (through [`output`]). [`run`]
//! dispatches a parsed command line to its command.

mod calc;
mod catalog;
mod check;
mod diff;
mod init;
mod man;
mod progress;
mod usage;
mod validate;

pub use diff::MAX_PLAN_JSON_BYTES;
pub use man::man_pages;
pub use validate::MAX_TABLE_BYTES;

use crate::cli::{Cli, Command};
use crate::error::{Error, Result};
use crate::model::change::Change;
use crate::support::{files, output};
use std::path::{Path, PathBuf};

/// Runs one command; the error, if any, carries its exit code.
pub fn run(cli: Cli) -> Result<()> {
    match &cli.command {
        Command::Init(a) => init::init(a),
        Command::Check(a) => check::check(a),
        Command::Explain(a) => check::explain(a),
        Command::Catalog(a) => catalog::catalog(a),
        Command::Diff(a) => diff::diff(a),
        Command::Calc(a) => calc::calc(a),
        Command::Validate(a) => validate::validate(a),
        Command::Model(a) => catalog::model(a),
        Command::Completions(a) => man::completions(a),
        Command::Man(a) => man::man(a),
        Command::Usage(a) => usage::usage(a),
    }
}

/// Text to stdout; a reader that went away is not an error.
pub(super) fn out(text: &str) -> Result<()> {
    output::to_stdout(|w| w.write_all(text.as_bytes()))
}

pub(super) fn changes(sets: &[String]) -> Result<Vec<Change>> {
    sets.iter().map(|s| Change::parse(s)).collect()
}

/// `INPUT.plan.xlsx` beside the input.
pub fn default_output(input: &Path) -> PathBuf {
    input.with_file_name(format!("{}.xlsx", crate::write::plan_stem(input)))
}

/// Usage logs are files, each given once.
pub(super) fn check_logs(logs: &[PathBuf]) -> Result<()> {
    for log in logs {
        files::regular_input(log, "a usage log")?;
    }
    for (i, x) in logs.iter().enumerate() {
        if let Some(y) = logs[i + 1..].iter().find(|y| output::same_file(x, y)) {
            return Err(Error::Usage(format!(
                "the log {} is given twice (as {} and {}): its samples would count twice",
                x.display(),
                x.display(),
                y.display()
            )));
        }
    }
    Ok(())
}

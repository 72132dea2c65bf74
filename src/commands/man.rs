//! `gpuplan completions` and `gpuplan man`: the shell completions and the manual pages.

use super::out;
use crate::cli::{self, CompletionsArgs, ManArgs};
use crate::error::{Error, Result};
use crate::support::{files, output};
use clap::CommandFactory;
use std::path::PathBuf;

pub fn completions(a: &CompletionsArgs) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut cli::Cli::command(), "gpuplan", &mut script);
    output::to_stdout(|w| w.write_all(&script))
}

/// The manual pages, generated from the command-line definition: gpuplan(1) first, then
/// gpuplan-COMMAND(1) for each command, as (file name, roff).
pub fn man_pages() -> Result<Vec<(String, Vec<u8>)>> {
    // `help` is clap's own: it has no page, so gpuplan(1) does not point to one.
    let mut cmd = cli::Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = vec![man_page(cmd.clone())?];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages.push(man_page(sub.clone())?);
    }
    Ok(pages)
}

fn man_page(cmd: clap::Command) -> Result<(String, Vec<u8>)> {
    let title = cmd
        .get_display_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_uppercase();
    let man = clap_mangen::Man::new(cmd)
        .title(title)
        // A command's page would otherwise name the command, not gpuplan, as its source.
        .source(format!("gpuplan {}", cli::VERSION))
        .manual("gpuplan manual");
    let mut roff = Vec::new();
    man.render(&mut roff)
        .map_err(|e| Error::Internal(format!("rendering the manual page: {e}")))?;
    let roff = String::from_utf8(roff)
        .map_err(|e| Error::Internal(format!("the manual page is not UTF-8: {e}")))?;
    Ok((man.get_filename(), examples_verbatim(&roff).into_bytes()))
}

/// clap_mangen puts the after-help text in a section named EXTRA and lets the formatter fill it,
/// which runs the aligned example lines together: call it EXAMPLES and keep its lines as written.
fn examples_verbatim(roff: &str) -> String {
    let Some(start) = roff.find("\n.SH EXTRA\n") else {
        return roff.to_string();
    };
    let body = start + "\n.SH EXTRA\n".len();
    let end = roff[body..]
        .find("\n.SH ")
        .map_or(roff.len(), |i| body + i + 1);
    let text = roff[body..end].trim_end_matches('\n');
    format!(
        "{}\n.SH EXAMPLES\n.nf\n{text}\n.fi\n{}",
        &roff[..start],
        &roff[end..]
    )
}

pub fn man(a: &ManArgs) -> Result<()> {
    // The page, or the list of pages written, goes to stdout.
    output::check_stdout()?;
    let pages = man_pages()?;
    let Some(dir) = &a.dir else {
        let (_, main) = pages
            .first()
            .ok_or_else(|| Error::Internal("no manual page".into()))?;
        return output::to_stdout(|w| w.write_all(main));
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| files::io_error(dir, "cannot create the folder", e))?;
    let paths: Vec<PathBuf> = pages.iter().map(|(name, _)| dir.join(name)).collect();
    // Every page is checked before any is written: a refusal leaves the folder as it was.
    for p in &paths {
        output::check_target(p, a.force)?;
    }
    let mut text = String::new();
    for (p, (_, roff)) in paths.iter().zip(&pages) {
        output::save(p, roff)?;
        text.push_str(&format!("wrote {}\n", p.display()));
    }
    out(&text)
}

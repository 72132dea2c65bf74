//! The gpuplan binary: parse the command line, run, print the error once, pick the exit code.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match gpuplan::cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    // Ctrl-C and termination remove the pending temporary outputs before exiting.
    gpuplan::support::output::handle_signals();
    // A panic is a bug: report it as an internal error (exit 1). Temporary output files are
    // removed as the stack unwinds, so no partial output is left.
    std::panic::set_hook(Box::new(|info| {
        if gpuplan::write::writer_running() && info.to_string().contains("Couldn't write") {
            return; // a failed write of the workbook's temporary files: reported as an I/O error
        }
        eprintln!("error: internal error: {info}\nThis is a bug in gpuplan; please report it with the input file.");
    }));
    let lang = cli.terminal_lang();
    match std::panic::catch_unwind(|| gpuplan::run(cli)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("{}{}", gpuplan::error::Error::prefix(lang), e.render(lang));
            ExitCode::from(e.exit_code() as u8)
        }
        Err(_) => ExitCode::from(1),
    }
}

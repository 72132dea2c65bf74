//! The one error type of gpuplan. Every variant carries what its message needs, and
//! `exit_code()` maps it to the exit codes of the CLI contract (0 ok, 1 bug, 2 bad input, 3 strict).

use crate::labels::{Label, Message, Said};
use crate::lang::Lang;
use std::path::PathBuf;

/// One problem found in the input, with where it is (`Workloads!D7`, `formula fits`, …): the
/// shape every message has ([`Message`]), with no severity, as every problem stops the run.
pub type Problem = Message;

impl Problem {
    /// A problem at `location` (empty for one that concerns the whole input), with its English
    /// message and no translation.
    pub fn new(location: impl Into<String>, message: impl Into<String>) -> Self {
        Message {
            severity: (),
            location: location.into(),
            message: message.into(),
            zh: None,
        }
    }
}

/// Everything that can stop a gpuplan command.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input workbook has problems; all of them are listed (exit 2).
    #[error("{}", render_problems(file, problems))]
    Input {
        /// The input file the problems are in (usually the workbook).
        file: PathBuf,
        /// Every problem found in it, in the order found; the message shows the first
        /// [`SHOWN_PROBLEMS`] and counts the rest.
        problems: Vec<Problem>,
    },
    /// The file is not a workbook gpuplan can read at all (exit 2).
    #[error("{}: {reason}", file.display())]
    Unreadable {
        /// The file that could not be read.
        file: PathBuf,
        /// Why not, in words (cannot read the file, not a regular file, not a sound xlsx
        /// package, …).
        reason: String,
    },
    /// The command line asks for something impossible (exit 2).
    #[error("{0}")]
    Usage(String),
    /// Usage logs or a `--map` file hold lines gpuplan cannot read; each problem's location is
    /// `FILE:LINE` (exit 2). The first [`SHOWN_PROBLEMS`] are kept and `more` counts the rest.
    #[error("{}", render_lines(problems, *more))]
    Lines {
        /// The problems kept, at most [`SHOWN_PROBLEMS`], each located `FILE:LINE`.
        problems: Vec<Problem>,
        /// How many further problems were found but not kept.
        more: usize,
    },
    /// The output cannot be written where asked (exit 2).
    #[error("{}: {reason}", path.display())]
    Output {
        /// The output path asked for.
        path: PathBuf,
        /// Why it cannot be written there (a folder, a device, an existing file without
        /// `--force`, …).
        reason: String,
    },
    /// Reading or writing a file failed for a reason of the environment: a full disk, a file-size
    /// limit, a closed stdout, a permission (exit 2: not a bug, and what failed is named).
    #[error("{}: {action}: {}", path.display(), describe(source))]
    Io {
        /// The file or folder being read or written (`stdout` for standard output).
        path: PathBuf,
        /// What failed, in words (`cannot write`, `cannot create a file in its folder`, …),
        /// shown after the path.
        action: &'static str,
        /// The underlying I/O error, described in words by [`describe`].
        #[source]
        source: std::io::Error,
    },
    /// `--strict` and the plan has warnings or unplanned workloads (exit 3).
    #[error("--strict: the plan has {warnings} warning(s) or unplanned workload(s)")]
    Strict {
        /// How many warnings and unplanned workloads the plan has.
        warnings: usize,
    },
    /// A bug in gpuplan (exit 1).
    #[error(
        "internal error: {0}\nThis is a bug in gpuplan; please report it with the input file."
    )]
    Internal(String),
}

/// Problems printed at most: past this a sheet is usually wrong as a whole (a shifted column, a
/// wrong unit), and the first screenful says how.
pub const SHOWN_PROBLEMS: usize = 100;

impl Error {
    /// [`Error::Lines`] from every problem found: the first [`SHOWN_PROBLEMS`] kept, the rest
    /// counted.
    pub fn lines(mut problems: Vec<Problem>) -> Error {
        let more = problems.len().saturating_sub(SHOWN_PROBLEMS);
        problems.truncate(SHOWN_PROBLEMS);
        Error::Lines { problems, more }
    }
}

fn render_problems(file: &std::path::Path, problems: &[Problem]) -> String {
    render_problems_in(file, problems, Lang::En)
}

/// The problems of a file, one line each (after the first, each with its `error:` prefix), the
/// first [`SHOWN_PROBLEMS`] and the count; in Chinese where `zh`.
fn render_problems_in(file: &std::path::Path, problems: &[Problem], lang: Lang) -> String {
    let f = file.display();
    let mut lines: Vec<String> = problems
        .iter()
        .take(SHOWN_PROBLEMS)
        .map(|p| format!("{f}: {}", p.render(lang)))
        .collect();
    let n = problems.len();
    if n > SHOWN_PROBLEMS {
        lines.push(Said::new(
            format!("{n} problems in {f}; the first {SHOWN_PROBLEMS} are shown (fix them and run `gpuplan check` again)"),
            format!("{f} 共有 {n} 个问题，仅显示前 {SHOWN_PROBLEMS} 个（修正后请再次运行 `gpuplan check`）"),
        ).pick(lang));
    } else if n > 1 {
        lines.push(
            Said::new(
                format!("{n} problems in {f}"),
                format!("{f} 共有 {n} 个问题"),
            )
            .pick(lang),
        );
    }
    lines.join(Label::new("\nerror: ", "\n错误：").get(lang))
}

/// Problems of text files, `FILE:LINE: message` each, then how many more there were.
fn render_lines(problems: &[Problem], more: usize) -> String {
    let mut lines: Vec<String> = problems.iter().map(Problem::to_string).collect();
    if more > 0 {
        lines.push(format!(
            "{more} more problem(s) like these; fix the first ones and run again"
        ));
    }
    lines.join("\nerror: ")
}

impl Error {
    /// The error line(s) as the terminal shows them after the `error: ` (or `错误：`) prefix, in
    /// Chinese where `zh` and a translation exists.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            Error::Input { file, problems } => render_problems_in(file, problems, lang),
            Error::Strict { warnings } => Said::new(
                self.to_string(),
                format!("--strict：方案有 {warnings} 条警告或未规划的负载"),
            )
            .pick(lang),
            Error::Internal(m) => Said::new(
                self.to_string(),
                format!("内部错误：{m}\n这是 gpuplan 的缺陷，请附上输入文件报告。"),
            )
            .pick(lang),
            _ => self.to_string(),
        }
    }

    /// The prefix of an error line.
    pub fn prefix(lang: Lang) -> &'static str {
        Label::new("error: ", "错误：").get(lang)
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input { .. }
            | Error::Unreadable { .. }
            | Error::Lines { .. }
            | Error::Usage(_)
            | Error::Output { .. }
            | Error::Io { .. } => 2,
            Error::Strict { .. } => 3,
            Error::Internal(_) => 1,
        }
    }

    /// Shorthand for an input error with a single problem.
    pub fn input(
        file: impl Into<PathBuf>,
        location: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error::Input {
            file: file.into(),
            problems: vec![Problem::new(location, message)],
        }
    }
}

/// The result of a gpuplan operation, failing with [`Error`] unless another error is named.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What a failed write or read of the environment means to the user, in words.
pub fn describe(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::StorageFull => "the disk is full (no space left on the device)".to_string(),
        K::FileTooLarge => {
            "the file grew past the largest size allowed here (file system or `ulimit -f`)"
                .to_string()
        }
        K::PermissionDenied => "permission denied".to_string(),
        K::ReadOnlyFilesystem => "the file system is read-only".to_string(),
        _ => e.to_string(),
    }
}

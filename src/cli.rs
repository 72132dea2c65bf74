//! Command-line types (clap derive) only; no logic.

pub use crate::report::{CatalogKind, Format};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  gpuplan init budget.xlsx              write a template to fill in Excel, WPS or LibreOffice
  gpuplan check budget.xlsx             list every problem in a filled workbook
  gpuplan calc budget.xlsx              plan it and write budget.plan.xlsx for finance
  gpuplan calc budget.xlsx --set safety_margin=0.3 --set chat-api.concurrency=60
  gpuplan calc budget.xlsx --set \"gpu:RTX 4090.monthly=1800\"   try a quoted price
  gpuplan calc budget.xlsx --set \"gpu:RTX 4090.purchase_price=12999\"   weigh buying the cards
  gpuplan calc budget.xlsx --set \"gpu:*.spot_interruptions_per_day=6\"   spot reclaimed 6 times a day
  gpuplan explain budget.xlsx chat-api  show every formula of one workload, with values
  gpuplan usage node1.csv --workbook budget.xlsx   what each workload really used, from GPU logs
  gpuplan catalog gpus                  list the built-in GPUs and example prices
  gpuplan completions bash > ~/.local/share/bash-completion/completions/gpuplan
  gpuplan man | man -l -                read this manual page";

const COMPLETIONS_HELP: &str = "\
Install the script where your shell looks for completions, then start a new shell:
  bash        gpuplan completions bash > ~/.local/share/bash-completion/completions/gpuplan
              (needs the bash-completion package; or add `source <(gpuplan completions bash)` to ~/.bashrc)
  zsh         mkdir -p ~/.zfunc && gpuplan completions zsh > ~/.zfunc/_gpuplan
              and in ~/.zshrc, before `compinit`: fpath=(~/.zfunc $fpath)
  fish        gpuplan completions fish > ~/.config/fish/completions/gpuplan.fish
  powershell  gpuplan completions powershell >> $PROFILE
  elvish      gpuplan completions elvish >> ~/.config/elvish/rc.elv";

const USAGE_HELP: &str = "\
Logs (each file's format is recognised from its header line):
  nvidia-smi --query-gpu=timestamp,index,uuid,name,utilization.gpu,memory.used,memory.total --format=csv -l 60 > node1.csv
              with or without nounits; any of these columns in any order, but timestamp, index or
              uuid, and utilization.gpu are needed (memory.used for the memory figures)
  nvidia-smi dmon -s um -o DT -d 60 > node1.dmon.log
              sm is the utilization, fb the memory used; without -o DT the samples are taken as
              --interval seconds apart from the start of the file
  a plain CSV: timestamp,gpu,utilization,memory_used_mib (hostname optional); utilization in %,
              timestamps as 2026-11-02T10:00:00Z, 2026-11-02 10:00:00 or Unix seconds

GPUs to workloads: the workbook's Usage sheet or --map FILE.csv, columns gpu_id and workload.
A gpu_id is a uuid (GPU-5f1c...), host:index (node1:0; the host is the log file's name up to its first
dot, or a plain log's hostname column) or an index alone (that index in every log); the most
specific row wins. A GPU no row names is left out, with a warning. Without a mapping each GPU is
reported on its own.

Figures:
  active      a sample whose utilization is above usage_active_threshold (default 0.1 = 10 %); each
              sample stands for the time to its GPU's next one, at most twice the GPU's median
              interval (a gap in the log counts as idle); the last sample for one median interval
  days        first sample to last plus one interval
  active h/month
              active GPU-hours summed over the workload's GPUs, x hours_in_month (730) / the hours
              each GPU's log covers
  utilization active h/month / (hours_in_month x GPUs): the share of the month each GPU was busy,
              as the plan's utilization (run_hours / hours_in_month per instance)
  busy util   the average utilization of the active samples, weighted by time
  memory      the peak and the 95th percentile of the memory used on one GPU, GiB (MiB / 1024);
              the percentile is exact to 16 MiB

Examples:
  gpuplan usage node1.csv node2.csv --workbook budget.xlsx
  gpuplan usage logs/*.csv --map gpus.csv --json actuals.json
  gpuplan usage node1.dmon.log --interval 60 --json -      the actuals as JSON on stdout
  gpuplan usage node1.csv --set usage_active_threshold=0.3
  gpuplan usage logs/*.csv --map gpus.csv --lang zh        the table and its notes in Chinese";

const MAN_HELP: &str = "\
Examples:
  gpuplan man | man -l -                  read it now
  gpuplan man > ~/.local/share/man/man1/gpuplan.1
                                          install gpuplan(1), then `man gpuplan`
  gpuplan man --dir ~/.local/share/man/man1
                                          install gpuplan(1) and a page per command: `man gpuplan-calc`";

/// `0.1.0 (abc1234)`: the version and, when built from a git checkout, the commit (build.rs).
pub const VERSION: &str = env!("GPUPLAN_VERSION");

/// Size, price and budget rented cloud GPUs from an Excel template.
///
/// Fill in the workloads, the GPU offers you were quoted and your assumptions; gpuplan works out
/// the GPU memory each workload needs, how many instances of which GPU, the cheapest billing mode
/// and the full monthly cost of ownership, and writes a formatted workbook for finance. Every
/// formula is in the workbook's Formulas sheet, where you can read and edit it.
#[derive(Debug, Parser)]
#[command(name = "gpuplan", version = VERSION, after_help = EXAMPLES)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands of `gpuplan`, one variant per command; each carries its parsed
/// arguments.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write the template workbook to fill in.
    #[command(
        after_help = "Examples:\n  gpuplan init                      writes budget.xlsx with example workloads\n  gpuplan init plan.xlsx --lang zh  Chinese sheet names and labels\n  gpuplan init empty.xlsx --blank   no example workloads"
    )]
    Init(InitArgs),
    /// Plan a filled workbook and write the plan workbook (and JSON).
    #[command(
        after_help = "Examples:\n  gpuplan calc budget.xlsx                       writes budget.plan.xlsx\n  gpuplan calc budget.xlsx -o q3.xlsx --force    another output name, replacing it\n  gpuplan calc budget.xlsx --json -              the plan as JSON on stdout\n  gpuplan calc budget.xlsx --set cold_start_min=30 --set chat-api.concurrency=60\n  gpuplan calc budget.xlsx --set budget_monthly=30000   over ¥30,000 a month: the least-harm cuts\n  gpuplan calc budget.xlsx --set fleet=no        each workload on cards of its own, no sharing\n  gpuplan calc budget.xlsx --set lora.window=22-07   a job that may run only at night"
    )]
    Calc(CalcArgs),
    /// Read, validate and evaluate a workbook without writing anything.
    #[command(after_help = "Example:\n  gpuplan check budget.xlsx")]
    Check(CheckArgs),
    /// Print every formula of one workload on one GPU: expression and value, in evaluation order.
    #[command(
        after_help = "Examples:\n  gpuplan explain budget.xlsx chat-api              on the chosen GPU\n  gpuplan explain budget.xlsx chat-api --gpu H100    on another GPU"
    )]
    Explain(ExplainArgs),
    /// Read GPU usage logs (nvidia-smi, dmon, CSV): each workload's active hours, utilization and memory.
    #[command(after_help = USAGE_HELP)]
    Usage(UsageArgs),
    /// Compare the default formulas with published measurements of GPU memory.
    #[command(
        after_help = "Examples:\n  gpuplan validate                       the built-in table (samples/validation.csv)\n  gpuplan validate my-measurements.csv   your own rows, same columns"
    )]
    Validate(ValidateArgs),
    /// Read a model's config.json (and safetensors headers) into a Models row, without network.
    #[command(
        after_help = "Examples:\n  gpuplan model ./Qwen3-30B-A3B                 a downloaded Hugging Face or ModelScope folder\n  gpuplan model config.json --format csv        a row to paste into the Models sheet\n  gpuplan model ./gpt-oss-120b --format json    every figure with its source"
    )]
    Model(ModelArgs),
    /// Print the built-in GPU, model or engine-profile catalog.
    #[command(
        after_help = "Examples:\n  gpuplan catalog gpus\n  gpuplan catalog models --format csv > models.csv\n  gpuplan catalog engines --format csv   every engine figure with its version and source"
    )]
    Catalog(CatalogArgs),
    /// Compare two plans: per workload the GPU, count, mode and TCO before and after, the
    /// totals, and the inputs that differ.
    #[command(
        after_help = "Examples:\n  gpuplan diff november.plan.json december.plan.json   JSON plans record every input\n  gpuplan diff old.plan.xlsx new.plan.xlsx             workbooks: assumptions, prices and the input's SHA-256\n  gpuplan diff a.json b.json --json -                  the difference as JSON on stdout\n  gpuplan diff main.plan.json pr.plan.json --format markdown > comment.md   a table for a pull-request comment\nExit code 0 whether or not the plans differ; 2 on a file that is not a plan."
    )]
    Diff(DiffArgs),
    /// Print the shell completion script for bash, zsh, fish, powershell or elvish.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
    /// Print the manual page (roff) to stdout, or write one per command into a folder.
    #[command(after_help = MAN_HELP)]
    Man(ManArgs),
}

pub use crate::lang::Lang;

impl Cli {
    /// The language of messages at the terminal: `--lang` where the command has it and it is
    /// given, else the locale's.
    pub fn terminal_lang(&self) -> Lang {
        let given = match &self.command {
            Command::Init(a) => a.lang,
            Command::Calc(a) => a.lang,
            Command::Usage(a) => a.lang,
            _ => None,
        };
        given.unwrap_or_else(Lang::from_env)
    }
}

/// Arguments of `gpuplan init`: where to write the template and which examples it holds.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Where to write the template.
    #[arg(default_value = "budget.xlsx")]
    pub path: PathBuf,
    /// Language of sheet names, headers and notes, and of the messages [default: en; messages
    /// follow a Chinese LC_ALL or LANG when --lang is not given].
    #[arg(long, value_enum)]
    pub lang: Option<Lang>,
    /// Example workloads to include: team (seed 001's ten-person team) or api (seed 000's table).
    #[arg(long, value_name = "NAME", conflicts_with = "blank")]
    pub example: Option<String>,
    /// No example workloads, only the headers, GPUs, models, assumptions and formulas.
    #[arg(long)]
    pub blank: bool,
    /// Replace the file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `gpuplan calc`: the workbook to plan, the outputs to write and the
/// overrides, scenario, sampling and usage logs that shape the plan.
#[derive(Debug, Args)]
pub struct CalcArgs {
    /// The filled workbook (.xlsx).
    pub input: PathBuf,
    /// Where to write the plan workbook [default: INPUT with .plan.xlsx].
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Also write the plan as JSON to PATH, or to stdout with `-`.
    #[arg(long, value_name = "PATH|-")]
    pub json: Option<String>,
    /// Override an assumption (KEY=VALUE), a workload column (WORKLOAD.COLUMN=VALUE) or a
    /// column of a GPU's offers (gpu:GPU.COLUMN=VALUE; an empty price takes the mode away).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Plan this scenario of the Scenarios sheet as the main plan (the base and the other
    /// scenarios still appear side by side in the Scenarios tab).
    #[arg(long, value_name = "NAME")]
    pub scenario: Option<String>,
    /// Random samples of the Ranges sheet's keys for the Sensitivity tab's P10/P50/P90 (each
    /// sample re-planned); 0 for the tornado only.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub samples: usize,
    /// An earlier plan (its workbook or JSON) to compare with: the workbook gains a Diff tab.
    #[arg(long, value_name = "OLD")]
    pub compare: Option<PathBuf>,
    /// Seed of the samples: the same seed gives the same percentiles.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// GPU usage logs (as `gpuplan usage` reads them) to compare the plan with: the workbook
    /// gains an Actuals tab with the measured hours, utilization and memory per workload and the
    /// advice from them, each with the monthly saving found by re-planning with the measured figures.
    #[arg(long, value_name = "LOG", num_args = 1..)]
    pub usage: Vec<PathBuf>,
    /// A bills export (CSV: month, workload, provider, gpu, hours, amount): the Actuals tab sets
    /// the last month's bill beside the plan, the difference split into hours and price.
    #[arg(long, value_name = "CSV")]
    pub bills: Option<PathBuf>,
    /// With --usage: a CSV with the columns gpu_id and workload, instead of the workbook's Usage sheet.
    #[arg(long, value_name = "CSV", requires = "usage")]
    pub map: Option<PathBuf>,
    /// With --usage: seconds between the samples of an nvidia-smi dmon log without dates and times.
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0, value_parser = parse_interval)]
    pub interval: f64,
    /// Language of the plan workbook and of the terminal summary [default: en; the terminal
    /// follows a Chinese LC_ALL or LANG when --lang is not given].
    #[arg(long, value_enum)]
    pub lang: Option<Lang>,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
    /// Print nothing but errors.
    #[arg(short, long)]
    pub quiet: bool,
    /// Exit with code 3 if the plan has warnings or unplanned workloads.
    #[arg(long)]
    pub strict: bool,
    /// Candidates kept per workload in the Candidates tab, best first: a number, or `all` (up to
    /// Excel's row limit) [default: 20, fewer past 5,000 workloads so the tab stays within 100,000 rows].
    #[arg(long, value_name = "N|all", value_parser = parse_candidates)]
    pub candidates: Option<Candidates>,
    /// Print the time each phase took (read, compile, evaluate, plan, write) to stderr.
    #[arg(long)]
    pub timings: bool,
}

/// How many candidates per workload the Candidates tab keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Candidates {
    /// Keep every candidate, up to Excel's row limit (`--candidates all`).
    All,
    /// Keep the best N candidates of each workload; N is at least 1.
    Best(usize),
}

fn parse_candidates(s: &str) -> Result<Candidates, String> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(Candidates::All);
    }
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(Candidates::Best(n)),
        _ => Err(format!("expected a number ≥ 1 or `all`, found {s:?}")),
    }
}

/// Arguments of `gpuplan check`: the workbook to validate and any `--set` overrides.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The workbook to check (.xlsx).
    pub input: PathBuf,
    /// Override an assumption or a workload column, as for calc.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
}

/// Arguments of `gpuplan explain`: the workbook, the workload whose formulas to print
/// and, optionally, the GPU to evaluate them on.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The workbook (.xlsx).
    pub input: PathBuf,
    /// The workload's name.
    pub workload: String,
    /// A GPU of the GPUs sheet [default: the one the plan chose].
    #[arg(long)]
    pub gpu: Option<String>,
    /// Override an assumption or a workload column, as for calc.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
}

/// Arguments of `gpuplan usage`: the GPU logs to read, how to map GPUs to workloads
/// and where to write the actuals.
#[derive(Debug, Args)]
pub struct UsageArgs {
    /// Usage logs: nvidia-smi --query-gpu --format=csv output, nvidia-smi dmon output or a plain
    /// CSV (see below); several GPUs and hosts may share a file, and a GPU's logs go oldest first.
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<PathBuf>,
    /// The budget workbook: its Usage sheet maps GPUs to workloads, its Assumptions give
    /// usage_active_threshold and hours_in_month, and its workloads are the names a mapping may use.
    #[arg(long, value_name = "XLSX")]
    pub workbook: Option<PathBuf>,
    /// A CSV with the columns gpu_id and workload, used instead of the workbook's Usage sheet.
    #[arg(long, value_name = "CSV")]
    pub map: Option<PathBuf>,
    /// Also write the actuals as JSON to PATH, or to stdout with `-` (the table then goes to stderr).
    #[arg(long, value_name = "PATH|-")]
    pub json: Option<String>,
    /// Seconds between the samples of an nvidia-smi dmon log without dates and times (dmon's -d).
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0, value_parser = parse_interval)]
    pub interval: f64,
    /// Override an assumption (KEY=VALUE): usage_active_threshold or hours_in_month.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
    /// Language of the table, its notes and the messages [default: the locale's: Chinese where
    /// LC_ALL, LC_MESSAGES or LANG names a Chinese locale, else English]. The JSON stays English.
    #[arg(long, value_enum)]
    pub lang: Option<Lang>,
    /// Replace an existing --json file.
    #[arg(long)]
    pub force: bool,
}

fn parse_interval(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        // Times are counted in whole milliseconds: a shorter interval would count as none.
        Ok(v) if (0.001..=86_400.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected seconds between samples, at least 0.001 and at most 86400, found {s:?}"
        )),
    }
}

/// Arguments of `gpuplan validate`: an optional table of measured GPU memory.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// A validation table (CSV with the columns of samples/validation.csv) [default: the built-in one].
    pub table: Option<PathBuf>,
}

/// Arguments of `gpuplan diff`: the two plans to compare and the output format.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier plan: a plan workbook (.xlsx) or its JSON (calc --json).
    pub old: PathBuf,
    /// The later plan.
    pub new: PathBuf,
    /// Write the difference as JSON to PATH, or to stdout with `-`.
    #[arg(long, value_name = "PATH|-")]
    pub json: Option<String>,
    /// Replace an existing --json file.
    #[arg(long)]
    pub force: bool,
    /// What stdout gets: the terminal table, or Markdown for a pull-request comment.
    #[arg(long, value_enum, default_value_t = DiffFormat::Table)]
    pub format: DiffFormat,
}

/// Output format of `diff` on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// An aligned table for the terminal
    Table,
    /// Markdown, for a pull-request comment
    Markdown,
}

/// Arguments of `gpuplan model`: the model folder or config.json to read into a
/// Models row, the row's name and the output format.
#[derive(Debug, Args)]
pub struct ModelArgs {
    /// A model folder (config.json, *.safetensors) or a config.json.
    pub path: PathBuf,
    /// The model's name in the row [default: the folder's name].
    #[arg(long)]
    pub name: Option<String>,
    /// How to print the row.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Arguments of `gpuplan catalog`: which built-in catalog to print, and how.
#[derive(Debug, Args)]
pub struct CatalogArgs {
    /// gpus, models or engines (the built-in engine profiles).
    #[arg(value_enum, default_value_t = CatalogKind::Gpus)]
    pub what: CatalogKind,
    /// How to print the catalog.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Arguments of `gpuplan completions`: the shell to print a completion script for.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `gpuplan man`: an optional folder to write one page per command into.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write gpuplan.1 and gpuplan-COMMAND.1 for every command into DIR instead of printing gpuplan.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// With --dir: replace pages already there.
    #[arg(long, requires = "dir")]
    pub force: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}

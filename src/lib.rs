//! gpuplan: size, price and budget rented cloud GPUs from an Excel template.
//!
//! The pipeline is **read → model → evaluate → plan → write**: [`read`] turns a workbook into a
//! validated [`model::Input`]; [`formula`] compiles the Formulas sheet; [`plan`] evaluates every
//! workload on every GPU offer and picks the cheapest plan that fits; [`write`] and [`report`]
//! turn the plan into the workbook finance receives, JSON and a terminal summary. [`run`] is the
//! command line's entry point.

pub mod catalog;
pub mod cli;
pub mod error;
pub mod formula;
pub mod model;
pub mod plan;
pub mod read;
pub mod report;
pub mod suggest;
pub mod validate;
pub mod write;

use cli::{CalcArgs, Cli, Command};
use error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes to stdout; a reader that went away (`gpuplan catalog | head`) is not an error.
fn out(text: &str) -> Result<()> {
    match std::io::stdout().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::Internal(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

fn overrides(sets: &[String]) -> Result<Vec<read::Override>> {
    sets.iter().map(|s| read::Override::parse(s)).collect()
}

/// Runs one command; the error, if any, carries its exit code.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Init(a) => {
            let example = if a.blank {
                write::Example::None
            } else {
                match &a.example {
                    None => write::Example::Team,
                    Some(n) => write::Example::parse(n).ok_or_else(|| {
                        Error::Usage(format!(
                            "--example {n}: unknown example; choose team or api"
                        ))
                    })?,
                }
            };
            if a.path.exists() && !a.force {
                return Err(Error::Output {
                    path: a.path.clone(),
                    reason: "already exists; use --force to replace it".to_string(),
                });
            }
            let bytes = write::template_bytes(a.lang.zh(), example)?;
            write::save(&a.path, &bytes)?;
            out(&format!(
                "wrote {}: fill in the {} sheet, then run `gpuplan calc {}`\n",
                a.path.display(),
                catalog::sheet_name("Workloads", a.lang.zh()),
                a.path.display()
            ))
        }
        Command::Check(a) => {
            let input = read::read(&a.input, &overrides(&a.sets)?)?;
            let plan = plan::plan(input)?;
            let i = &plan.input;
            let warnings = plan
                .warnings
                .iter()
                .filter(|w| w.severity == model::Severity::Warning)
                .count();
            let mut text = format!(
                "ok: {} workloads, {} GPU offers, {} models, {} assumptions, {} formulas; {} planned, {} warning(s)\n",
                i.workloads.len(),
                i.gpus.len(),
                i.models.len(),
                i.assumptions.items.len(),
                i.formulas.len(),
                plan.planned_count(),
                warnings
            );
            for w in plan
                .warnings
                .iter()
                .filter(|w| w.severity == model::Severity::Warning)
            {
                text.push_str(&format!("warning: {}: {}\n", w.location, w.message));
            }
            out(&text)
        }
        Command::Explain(a) => {
            let input = read::read(&a.input, &overrides(&a.sets)?)?;
            let t = plan::trace(input, &a.workload, a.gpu.as_deref())?;
            out(&report::trace(&t))
        }
        Command::Catalog(a) => out(&report::catalog(a.what == cli::CatalogKind::Gpus, a.format)),
        Command::Calc(a) => calc(&a),
        Command::Validate(a) => {
            let (text, name) = match &a.table {
                Some(p) => (
                    std::fs::read_to_string(p).map_err(|e| Error::Unreadable {
                        file: p.clone(),
                        reason: format!("cannot read the table: {e}"),
                    })?,
                    p.display().to_string(),
                ),
                None => (
                    validate::BUILTIN.to_string(),
                    "samples/validation.csv".into(),
                ),
            };
            let rows = validate::rows(&text).map_err(|e| Error::Usage(format!("{name}: {e}")))?;
            let outcomes = validate::run(&rows)?;
            out(&validate::report(&outcomes))
        }
    }
}

/// `INPUT.plan.xlsx` beside the input.
pub fn default_output(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "budget".into());
    input.with_file_name(format!("{stem}.plan.xlsx"))
}

/// The date the input was saved (`SOURCE_DATE_EPOCH` when set), as YYYY-MM-DD: deterministic
/// for the same file, unlike today's date.
fn input_date(input: &Path) -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .or_else(|| {
            let m = std::fs::metadata(input).ok()?.modified().ok()?;
            Some(m.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs() as i64)
        })
        .unwrap_or(0);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Phase timings for `--timings`, with the peak memory after each phase.
struct Clock {
    show: bool,
    last: std::time::Instant,
    laps: Vec<(&'static str, f64)>,
}

impl Clock {
    fn new(show: bool) -> Clock {
        Clock {
            show,
            last: std::time::Instant::now(),
            laps: Vec::new(),
        }
    }

    fn lap(&mut self, name: &'static str) {
        self.laps.push((name, self.last.elapsed().as_secs_f64()));
        self.memory(name);
        self.last = std::time::Instant::now();
    }

    /// Laps timed elsewhere, covering the time since the last lap.
    fn laps(&mut self, laps: &[(&'static str, f64)]) {
        self.laps.extend_from_slice(laps);
        if let Some((name, _)) = laps.last() {
            self.memory(name);
        }
        self.last = std::time::Instant::now();
    }

    fn memory(&self, name: &str) {
        if let (true, Some(kb)) = (self.show, peak_memory_kb()) {
            eprintln!("timings: after {name}: peak memory {} MB", kb / 1024);
        }
    }

    fn report(&self) {
        if self.show {
            let total: f64 = self.laps.iter().map(|(_, t)| t).sum();
            let parts: Vec<String> = self
                .laps
                .iter()
                .map(|(n, t)| format!("{n} {t:.3}s"))
                .collect();
            eprintln!("timings: {} (total {total:.3}s)", parts.join(", "));
        }
    }
}

/// The process's peak resident memory so far (Linux), for `--timings`.
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

fn calc(a: &CalcArgs) -> Result<()> {
    let default = default_output(&a.input);
    let output = a.output.clone().unwrap_or_else(|| default.clone());
    if same_file(&output, &a.input) || output == a.input {
        return Err(Error::Usage(format!(
            "the output {} is the input; choose another -o",
            output.display()
        )));
    }
    if output.exists() && !a.force && output != default {
        return Err(Error::Output {
            path: output,
            reason: "already exists; use --force to replace it".to_string(),
        });
    }
    let mut clock = Clock::new(a.timings);
    let progress = report::Progress::new(!a.quiet);
    progress.phase(format!("reading {}", a.input.display()));
    let input = read::read(&a.input, &overrides(&a.sets)?)?;
    clock.lap("read");
    let offers = input.gpus.iter().filter(|g| g.available).count();
    progress.phase(format!(
        "evaluating {} workloads × {offers} GPU offers",
        input.workloads.len()
    ));
    let engine = plan::Engine::compile(&input)?;
    clock.lap("compile");
    let opts = plan::Options {
        keep: match a.candidates {
            Some(cli::Candidates::All) => None,
            Some(cli::Candidates::Best(n)) => Some(n),
            None => Some(plan::Options::default_keep(input.workloads.len())),
        },
        ..plan::Options::default()
    };
    let plan = plan::plan_with(input, &engine, &opts)?;
    // The planner times its own two phases, evaluate and plan.
    clock.laps(&plan.timings);
    progress.phase(format!("writing {}", output.display()));
    // Both outputs go to temporary files first and are renamed into place only when both are
    // complete, so a failure leaves neither behind.
    let workbook = write::Pending::plan(&output, &plan, a.lang.zh(), &input_date(&a.input))?;
    clock.lap("write");
    let json = match &a.json {
        None => None,
        Some(j) => {
            let text = serde_json::to_string_pretty(&report::json(&plan))
                .map_err(|e| Error::Internal(e.to_string()))?
                + "\n";
            if j == "-" {
                Some((None, text))
            } else {
                let jp = PathBuf::from(j);
                if same_file(&jp, &a.input) || jp == a.input || jp == output {
                    return Err(Error::Usage(format!(
                        "--json {j} is the input or the output workbook; choose another path"
                    )));
                }
                let pending = write::Pending::bytes(&jp, text.as_bytes())?;
                Some((Some(pending), text))
            }
        }
    };
    workbook.commit()?;
    match json {
        Some((Some(pending), _)) => pending.commit()?,
        Some((None, text)) => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| Error::Internal(e.to_string()))?,
        None => {}
    }
    clock.lap("save");
    progress.finish();
    clock.report();
    if !a.quiet {
        let color = report::use_color(&std::io::stderr());
        let mut err = std::io::stderr();
        let _ = write!(err, "{}", report::summary(&plan, color));
        let _ = writeln!(err, "wrote {}", output.display());
    }
    let issues = plan
        .warnings
        .iter()
        .filter(|w| w.severity == model::Severity::Warning)
        .count();
    if a.strict && issues > 0 {
        return Err(Error::Strict { warnings: issues });
    }
    Ok(())
}

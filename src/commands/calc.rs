//! `gpuplan calc`: read the workbook, plan it with its scenarios, ranges, usage, bills and
//! comparison, and write the plan's workbook and JSON.

use super::diff::plan_view;
use super::progress::Progress;
use super::{changes, check_logs, default_output};
use crate::calc::run::{sampling_options, Read, Request, Session};
use crate::calc::Calc;
use crate::cli::{self, CalcArgs};
use crate::error::{Error, Result};
use crate::labels::Label;
use crate::lang::Lang;
use crate::plan::sensitivity::Sensitivity;
use crate::support::files;
use crate::support::output::{self, Pending};
use crate::support::provenance::Provenance;
use crate::support::time::{input_date, Clock};
use crate::{model, read, report, write};
use std::path::{Path, PathBuf};

pub fn calc(a: &CalcArgs) -> Result<()> {
    let sets = changes(&a.sets)?;
    let out = Outputs::checked(a)?;
    let mut clock = Clock::new(a.timings);
    let progress = Progress::new(!a.quiet);
    progress.phase(format!("reading {}", a.input.display()));
    // The stamp's time is the run's: the input's hash is added once it is read.
    let mut stamp = Provenance::new(&a.input.display().to_string(), "", &a.sets);
    let request = Request {
        sets,
        scenario: a.scenario.clone(),
        candidates: a.candidates.map(|c| match c {
            cli::Candidates::All => None,
            cli::Candidates::Best(n) => Some(n),
        }),
        // The Year tab's default start: the month after the stamp's time.
        now: stamp.generated,
    };
    let bytes = files::read_bounded(&a.input, read::MAX_FILE_BYTES, "an .xlsx workbook")?;
    let read = Read::new(&a.input, bytes, &request)?;
    clock.lap("read");
    let input = read.input();
    stamp.input_sha256 = input.sha256.clone();
    let offers = input.gpus.iter().filter(|g| g.available).count();
    progress.phase(format!(
        "evaluating {} workloads × {offers} GPU offers",
        input.workloads.len()
    ));
    let compiled = read.compile()?;
    clock.lap("compile");
    let mut session = compiled.plan()?;
    beside(a, &mut session, &progress, &mut clock)?;
    // The other plans of the Scenarios tab: the base when a scenario is the main plan, and every
    // scenario but that one, each keeping only its chosen candidates.
    if session.scenario_count() > 0 {
        progress.phase(format!("planning {} scenarios", session.scenario_count()));
        session.plan_scenarios()?;
        clock.lap("scenarios");
    }
    let mut calc = session.calc;
    stamp.options = run_options(a, &calc);
    // The planner times its own phases: evaluate, plan and fleet.
    clock.laps(&calc.plan.timings);
    progress.phase(format!("writing {}", out.workbook.display()));
    out.save(a, &mut calc, &stamp, &mut clock)?;
    progress.finish();
    clock.report();
    if !a.quiet {
        print_summary(a, &calc, &out)?;
    }
    let issues = calc
        .warnings()
        .filter(|w| w.severity == model::Severity::Warning)
        .count();
    if a.strict && issues > 0 {
        return Err(Error::Strict { warnings: issues });
    }
    Ok(())
}

/// The options besides `--set` that shaped `plan`, for its provenance stamp: the usage logs,
/// the days they cover and their first and last sample times, the map, the bills, the compared
/// plan, and the samples and seed of the ranges' sampling where the input has ranges.
fn run_options(a: &CalcArgs, calc: &Calc) -> Vec<(String, String)> {
    let name = |p: &Path| p.display().to_string();
    let mut out = Vec::new();
    if !a.usage.is_empty() {
        let logs: Vec<String> = a.usage.iter().map(|p| name(p)).collect();
        out.push(("--usage".to_string(), logs.join(", ")));
        let days = calc
            .actuals
            .iter()
            .map(|r| r.actual.days_covered)
            .fold(0.0, f64::max);
        if days > 0.0 {
            out.push((
                "logs cover".to_string(),
                format!(
                    "{} days",
                    model::format_number((days * 10.0).round() / 10.0)
                ),
            ));
        }
        // The logs' first and last sample times: ISO 8601 strings, which sort as their times.
        let first = calc
            .actuals
            .iter()
            .filter_map(|r| r.actual.first_sample.as_ref())
            .min();
        let last = calc
            .actuals
            .iter()
            .filter_map(|r| r.actual.last_sample.as_ref())
            .max();
        if let (Some(first), Some(last)) = (first, last) {
            out.push(("logs from".to_string(), first.clone()));
            out.push(("logs to".to_string(), last.clone()));
        }
    }
    for (option, path) in [
        ("--map", &a.map),
        ("--bills", &a.bills),
        ("--compare", &a.compare),
    ] {
        if let Some(p) = path {
            out.push((option.to_string(), name(p)));
        }
    }
    if calc.sensitivity.is_some() {
        out.extend(sampling_options(a.samples, a.seed));
    }
    out
}

/// Where `calc` writes: the workbook and the JSON file, checked before anything is read.
struct Outputs {
    workbook: PathBuf,
    json: Option<PathBuf>,
}

impl Outputs {
    /// The outputs, once no two named files are the same, every usage log is given once and no
    /// file would be replaced without `--force` (the default workbook name may be).
    fn checked(a: &CalcArgs) -> Result<Outputs> {
        let default = default_output(&a.input);
        let output = a.output.clone().unwrap_or_else(|| default.clone());
        files::regular_input(&a.input, "an .xlsx workbook")?;
        // The JSON or the summary goes to stdout: refused before anything is written when it
        // is closed.
        if a.json.as_deref() == Some("-") || !a.quiet {
            output::check_stdout()?;
        }
        let json_path = a.json.as_deref().filter(|j| *j != "-").map(PathBuf::from);
        let mut named: Vec<(&str, &Path)> =
            vec![("the input", &a.input), ("the -o workbook", &output)];
        if let Some(j) = &json_path {
            named.push(("--json", j));
        }
        // Each log once (its samples would count twice), then none of them an output.
        check_logs(&a.usage)?;
        for log in &a.usage {
            named.push(("a --usage log", log));
        }
        if let Some(m) = &a.map {
            named.push(("--map", m));
        }
        if let Some(b) = &a.bills {
            files::regular_input(b, "a bills export")?;
            named.push(("--bills", b));
        }
        output::distinct(&named)?;
        output::check_target(&output, a.force || output == default)?;
        if let Some(j) = &json_path {
            output::check_target(j, a.force)?;
        }
        Ok(Outputs {
            workbook: output,
            json: json_path,
        })
    }

    /// Writes the workbook and the JSON to temporary files and renames them into place only
    /// when both are complete, so a failure leaves neither behind; `--json -` prints it.
    fn save(
        &self,
        a: &CalcArgs,
        calc: &mut Calc,
        stamp: &Provenance,
        clock: &mut Clock,
    ) -> Result<()> {
        let (workbook, more) = write::plan(
            &self.workbook,
            calc,
            a.lang.unwrap_or_default(),
            &input_date(&a.input),
            stamp,
        )?;
        calc.notes.extend(more);
        clock.lap("write");
        let json = match &self.json {
            Some(j) => Some(Pending::write_with(j, |w| {
                report::write_json(calc, stamp, w)
            })?),
            None => None,
        };
        workbook.commit()?;
        if let Some(p) = json {
            p.commit()?;
        }
        if a.json.as_deref() == Some("-") {
            output::to_stdout(|w| report::write_json(calc, stamp, w))?;
        }
        clock.lap("save");
        Ok(())
    }
}

/// The terminal summary and the files written (the workbook, and the JSON file if any), in the
/// terminal's language (`--lang` first): on stdout, as `check` and `usage` print theirs, or on
/// stderr when `--json -` takes stdout.
fn print_summary(a: &CalcArgs, calc: &Calc, out: &Outputs) -> Result<()> {
    let json_on_stdout = a.json.as_deref() == Some("-");
    let color = if json_on_stdout {
        report::use_color(&std::io::stderr())
    } else {
        report::use_color(&std::io::stdout())
    };
    let lang = a.lang.unwrap_or_else(Lang::from_env);
    let mut text = report::summary(calc, color, lang);
    let (wrote, and) = (
        Label::new("wrote", "已写入").get(lang),
        Label::new(", ", "、").get(lang),
    );
    text.push_str(&format!("{wrote} {}", out.workbook.display()));
    if let Some(j) = &out.json {
        text.push_str(&format!("{and}{}", j.display()));
    }
    text.push('\n');
    if json_on_stdout {
        eprint!("{text}");
        Ok(())
    } else {
        output::to_stdout(|w| w.write_all(text.as_bytes()))
    }
}

/// The Ranges sheet's sensitivity, with how many samples are planned so far on the progress
/// line: a run near the cap of draws re-plans millions of them (minutes for a large
/// portfolio), which a spinner alone would not tell from a hang.
fn sample(a: &CalcArgs, session: &Session, progress: &Progress) -> Result<Sensitivity> {
    let rows = session.calc.plan.input.ranges.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|s| {
        let run = s.spawn(|| {
            // The receiver waits below until this is sent or the thread ends.
            let _ = tx.send(session.sensitivity(a.samples, a.seed, &done));
        });
        let started = std::time::Instant::now();
        loop {
            let n = done.load(std::sync::atomic::Ordering::Relaxed);
            // What is left at the pace so far (after the tornado and the first samples).
            let left = (n > 0).then(|| {
                let per = started.elapsed().as_secs_f64() / n as f64;
                format!(
                    ", about {:.0} s left",
                    per * a.samples.saturating_sub(n) as f64
                )
            });
            progress.phase(format!(
                "sampling {rows} ranges: {n} of {} samples planned{}",
                a.samples,
                left.unwrap_or_default()
            ));
            match rx.recv_timeout(std::time::Duration::from_millis(200)) {
                Ok(result) => return result,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                // The thread ended without sending: it panicked; pass the panic on.
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return match run.join() {
                        Err(e) => std::panic::resume_unwind(e),
                        Ok(()) => Err(Error::Internal(
                            "the sampling thread ended without a result".into(),
                        )),
                    };
                }
            }
        }
    })
}

/// What `calc` sets beside the main plan: the Ranges sheet's sensitivity, the measured usage,
/// the bills and the comparison with an earlier plan.
fn beside(
    a: &CalcArgs,
    session: &mut Session,
    progress: &Progress,
    clock: &mut Clock,
) -> Result<()> {
    if !session.calc.plan.input.ranges.is_empty() {
        session.calc.sensitivity = Some(sample(a, session, progress)?);
        clock.lap("sensitivity");
    }
    if !a.usage.is_empty() {
        progress.phase(format!("reading {} usage log(s)", a.usage.len()));
        session.usage(&a.usage, a.map.as_deref(), a.interval, &a.input)?;
        clock.lap("usage");
    }
    if let Some(b) = &a.bills {
        session.bills(b)?;
    }
    if let Some(old) = &a.compare {
        let (before, _, full) = plan_view(old)?;
        session.compare(old.display().to_string(), &before, full);
    }
    Ok(())
}

//! `gpuplan calc`: read the workbook, plan it with its scenarios, ranges, usage, bills and
//! comparison, and write the plan's workbook and JSON.

use super::diff::plan_view;
use super::{changes, check_logs, default_output};
use crate::calc::{Calc, Scenario};
use crate::cli::{self, CalcArgs};
use crate::error::{Error, Result};
use crate::lang::Lang;
use crate::model::change::{Change, Target};
use crate::support::files::{self, Pending};
use crate::support::provenance::Provenance;
use crate::support::time::{input_date, Clock};
use crate::{catalog, model, plan, read, report, usage, write};
use std::path::{Path, PathBuf};

pub fn calc(a: &CalcArgs) -> Result<()> {
    let sets = changes(&a.sets)?;
    let out = Outputs::checked(a)?;
    let mut clock = Clock::new(a.timings);
    let progress = report::Progress::new(!a.quiet);
    progress.phase(format!("reading {}", a.input.display()));
    let read = Inputs::read(a, &sets)?;
    clock.lap("read");
    let mut stamp = Provenance::new(&a.input.display().to_string(), &read.input.sha256, &a.sets);
    let offers = read.input.gpus.iter().filter(|g| g.available).count();
    progress.phase(format!(
        "evaluating {} workloads × {offers} GPU offers",
        read.input.workloads.len()
    ));
    let Inputs {
        book,
        defs,
        main_sets,
        input,
        base,
    } = read;
    let programs = plan::Programs::compile(&input)?;
    clock.lap("compile");
    let asked = a.candidates.map(|c| match c {
        cli::Candidates::All => None,
        cli::Candidates::Best(n) => Some(n),
    });
    let opts = plan::Options {
        keep: Some(write::candidates_kept(input.workloads.len(), asked)),
        // The Year tab's default start: the month after the stamp's time.
        now: stamp.generated,
        ..plan::Options::default()
    };
    let mut calc = Calc::of(plan::plan_with(input, &programs, &opts)?);
    let notes: Vec<model::Warning> = write::candidates_note(&calc.plan)
        .into_iter()
        .chain(unread_scenario_keys(&defs, &calc.plan.input, &programs))
        .collect();
    calc.notes.extend(notes);
    let beside = Beside {
        a,
        programs: &programs,
        book: &book,
        main_sets: &main_sets,
        now: stamp.generated,
    };
    beside.add(&mut calc, &progress, &mut clock)?;
    // The other plans of the Scenarios tab: the base when a scenario is the main plan, and every
    // scenario but that one, each keeping only its chosen candidates.
    if !defs.is_empty() {
        progress.phase(format!("planning {} scenarios", defs.len()));
        calc.scenarios = scenarios(a, &sets, &defs, base, &book, stamp.generated)?;
        calc.scenario = a.scenario.clone();
        clock.lap("scenarios");
    }
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
        out.push(("--samples".to_string(), a.samples.to_string()));
        out.push(("--seed".to_string(), a.seed.to_string()));
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
            files::check_stdout()?;
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
        files::distinct(&named)?;
        files::check_target(&output, a.force || output == default)?;
        if let Some(j) = &json_path {
            files::check_target(j, a.force)?;
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
            files::to_stdout(|w| report::write_json(calc, stamp, w))?;
        }
        clock.lap("save");
        Ok(())
    }
}

/// What `calc` read: the workbook parsed once (the base, every scenario and the re-plans of
/// `--usage` are typed from it), its scenarios, the changes the main plan was read with, the
/// main input, and the base input when `--scenario` made a scenario the main plan.
struct Inputs {
    book: read::Book,
    defs: Vec<model::ScenarioDef>,
    main_sets: Vec<Change>,
    input: model::Input,
    base: Option<model::Input>,
}

impl Inputs {
    fn read(a: &CalcArgs, sets: &[Change]) -> Result<Inputs> {
        let bytes = files::read_bounded(&a.input, read::MAX_FILE_BYTES, "an .xlsx workbook")?;
        let book = read::Book::open(&a.input, bytes)?;
        let base = book.input(sets)?;
        let defs = base.scenarios.clone();
        let main_def = match &a.scenario {
            None => None,
            Some(name) => Some(defs.iter().find(|d| &d.name == name).ok_or_else(|| {
                let hint = crate::support::suggest::hint(name, defs.iter().map(|d| d.name.as_str()));
                Error::Usage(if defs.is_empty() {
                    format!("--scenario {name}: the workbook has no Scenarios sheet (or 情景) with scenarios")
                } else {
                    format!("--scenario {name}: no such scenario in the Scenarios sheet{hint}")
                })
            })?),
        };
        // What the main plan was read with: the re-plan from usage adds to it.
        let main_sets = match main_def {
            None => sets.to_vec(),
            Some(d) => scenario_sets(sets, d),
        };
        let (input, base) = match main_def {
            None => (base, None),
            Some(_) => (book.input(&main_sets)?, Some(base)),
        };
        Ok(Inputs {
            book,
            defs,
            main_sets,
            input,
            base,
        })
    }
}

/// A warning for each Scenarios change of an assumption that neither the defaults, nor the
/// Assumptions sheet, nor any formula knows (`safety_marjin=0.9`): it would change nothing, as
/// `--set` already warns; a scenario's own plan's warnings are not shown, so it is said here,
/// at the change's cell.
fn unread_scenario_keys(
    defs: &[model::ScenarioDef],
    input: &model::Input,
    programs: &plan::Programs,
) -> Vec<model::Warning> {
    let defaults = catalog::assumptions(Lang::En);
    let mut out = Vec::new();
    for o in defs.iter().flat_map(|d| &d.changes) {
        let (text, at) = (o.text(), o.origin.clone().unwrap_or_default());
        let known = defaults.get(&o.key).is_some()
            || input.assumptions.get(&o.key).is_some()
            || programs.candidate.reads(&o.key)
            || programs.portfolio.reads(&o.key);
        if o.target == Target::Assumption && !known {
            let keys = || input.assumptions.items.iter().map(|a| a.key.as_str());
            let hint = crate::support::suggest::hint(&o.key, keys());
            let hint_zh = match crate::support::suggest::closest(&o.key, keys()) {
                c if c.is_empty() => String::new(),
                c => format!("；是否应为 {}？", c.join("、")),
            };
            out.push(model::Warning::warn(
                at,
                format!(
                    "{text}: the assumption {} is neither in the Assumptions sheet nor read by any formula, so the change does nothing{hint}",
                    o.key
                ),
            ).with_zh(format!(
                "{text}：参数 {} 既不在参数表中，也没有被任何公式引用，因此该修改不起作用{hint_zh}",
                o.key
            )));
        }
    }
    out
}

/// The changes a scenario is read with: the command line's, then its own (each remembering
/// its cell).
fn scenario_sets(sets: &[Change], def: &model::ScenarioDef) -> Vec<Change> {
    sets.iter().chain(&def.changes).cloned().collect()
}

/// What `calc` sets beside the main plan: the Ranges sheet's sensitivity, the measured usage,
/// the bills and the comparison with an earlier plan.
struct Beside<'a> {
    a: &'a CalcArgs,
    programs: &'a plan::Programs,
    book: &'a read::Book,
    main_sets: &'a [Change],
    now: i64,
}

impl Beside<'_> {
    /// The Ranges sheet's sensitivity, with how many samples are planned so far on the
    /// progress line: a run near the cap of draws re-plans millions of them (minutes for a large
    /// portfolio), which a spinner alone would not tell from a hang.
    fn sample(
        &self,
        plan: &plan::Plan,
        progress: &report::Progress,
    ) -> Result<plan::sensitivity::Sensitivity> {
        let a = self.a;
        let rows = plan.input.ranges.len();
        let done = std::sync::atomic::AtomicUsize::new(0);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::scope(|s| {
            let run = s.spawn(|| {
                // The receiver waits below until this is sent or the thread ends.
                let _ = tx.send(plan::sensitivity::sensitivity_counted(
                    &plan.input,
                    self.programs,
                    a.samples,
                    a.seed,
                    self.now,
                    &done,
                ));
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

    fn add(&self, calc: &mut Calc, progress: &report::Progress, clock: &mut Clock) -> Result<()> {
        let a = self.a;
        let plan = &calc.plan;
        if !plan.input.ranges.is_empty() {
            calc.sensitivity = Some(self.sample(plan, progress)?);
            clock.lap("sensitivity");
        }
        if !a.usage.is_empty() {
            progress.phase(format!("reading {} usage log(s)", a.usage.len()));
            let (rows, warnings) = actuals(a, plan, self.book, self.main_sets, self.now)?;
            calc.actuals = rows;
            calc.notes.extend(warnings);
            clock.lap("usage");
        }
        if let Some(b) = &a.bills {
            calc.bills = bills(plan, b)?;
        }
        if let Some(old) = &a.compare {
            let (before, _, full) = plan_view(old)?;
            let d = crate::diff::compare(&before, &crate::diff::view_of(plan), full, true);
            calc.compared = Some((old.display().to_string(), d));
        }
        Ok(())
    }
}

/// The bills export beside the plan: per workload its planned GPU-hours and GPU cost.
fn bills(plan: &plan::Plan, path: &Path) -> Result<Option<crate::usage::bills::BillComparison>> {
    let lines = crate::usage::bills::read_bills(path)?;
    let names = plan.input.workload_names();
    let planned = |name: &str| {
        let w = plan.input.workloads.iter().position(|w| w.name == name)?;
        let (c, ch) = plan.chosen(w)?;
        let hours = plan.need(c, plan::Need::RUN_HOURS) * plan.need(c, plan::Need::GPUS_TOTAL);
        Some((hours, ch.gpu_cost))
    };
    Ok(crate::usage::bills::compare(&lines, &names, &planned))
}

/// The other plans of the Scenarios tab: the base when `--scenario` made a scenario the main
/// plan, and every scenario but that one, each keeping only its chosen candidates.
fn scenarios(
    a: &CalcArgs,
    sets: &[Change],
    defs: &[model::ScenarioDef],
    base: Option<model::Input>,
    book: &read::Book,
    now: i64,
) -> Result<Vec<Scenario>> {
    let side = plan::Options {
        keep: Some(1),
        now,
        ..plan::Options::default()
    };
    let mut scenarios = Vec::new();
    if let Some(base) = base {
        let programs = plan::Programs::compile(&base)?;
        scenarios.push(Scenario {
            name: "base".to_string(),
            changes: Vec::new(),
            plan: plan::plan_with(base, &programs, &side)?,
        });
    }
    for d in defs.iter().filter(|d| Some(&d.name) != a.scenario.as_ref()) {
        let inp = book.input(&scenario_sets(sets, d))?;
        let programs = plan::Programs::compile(&inp)?;
        scenarios.push(Scenario {
            name: d.name.clone(),
            changes: d.changes.iter().map(Change::text).collect(),
            plan: plan::plan_with(inp, &programs, &side)?,
        });
    }
    Ok(scenarios)
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
    let (wrote, and) = if lang == Lang::Zh {
        ("已写入", "、")
    } else {
        ("wrote", ", ")
    };
    text.push_str(&format!("{wrote} {}", out.workbook.display()));
    if let Some(j) = &out.json {
        text.push_str(&format!("{and}{}", j.display()));
    }
    text.push('\n');
    if json_on_stdout {
        eprint!("{text}");
        Ok(())
    } else {
        files::to_stdout(|w| w.write_all(text.as_bytes()))
    }
}

/// `calc --usage`: the logs read with the workbook's Usage sheet (or --map), and the plan
/// compared with a re-plan at the measured figures (the workbook typed again with the measured
/// hours and memory as changes), with the logs' warnings.
fn actuals(
    a: &CalcArgs,
    plan: &plan::Plan,
    book: &read::Book,
    main_sets: &[Change],
    now: i64,
) -> Result<(Vec<usage::compare::Row>, Vec<model::Warning>)> {
    let names = plan.input.workload_names();
    let mapping = match &a.map {
        Some(m) => usage::read_map(m, Some(&names))?,
        None => plan.input.usage.clone(),
    };
    if mapping.is_empty() {
        return Err(Error::Usage(format!(
            "--usage: {} maps no GPU to a workload; fill its Usage sheet (columns gpu_id and workload) or give --map",
            a.input.display()
        )));
    }
    let assumptions = &plan.input.assumptions;
    let settings = usage::Settings {
        threshold: assumptions.number("usage_active_threshold", 0.1),
        hours_in_month: assumptions.number("hours_in_month", 730.0),
        interval_s: a.interval,
    };
    let report = usage::analyze(&a.usage, Some(&mapping), settings)?;
    let mut all = main_sets.to_vec();
    all.extend(usage::compare::replan_changes(plan, &report.actuals));
    let side = plan::Options {
        keep: Some(1),
        now,
        ..plan::Options::default()
    };
    let replan_with = |sets: &[Change]| {
        book.input(sets).and_then(|input| {
            let programs = plan::Programs::compile(&input)?;
            plan::plan_with(input, &programs, &side)
        })
    };
    // The baseline: the planned cards, pinned, at the measured hours.
    let mut pinned = main_sets.to_vec();
    pinned.extend(usage::compare::as_is_changes(plan, &report.actuals));
    let mut warnings = report.warnings;
    let mut keep = |r: Result<plan::Plan>, [what, what_zh]: [&str; 2]| match r {
        Ok(p) => Some(p),
        Err(e) => {
            warnings.push(
                model::Warning::warn(
                    "--usage",
                    format!("re-planning {what} failed, so no saving is given: {e}"),
                )
                .with_zh(format!(
                    "{what_zh}重新规划失败，因此不给出可节省的金额：{e}"
                )),
            );
            None
        }
    };
    let replan = keep(
        replan_with(&all),
        ["with the measured figures", "按实测数据"],
    );
    let as_is = keep(
        replan_with(&pinned),
        [
            "the planned cards at the measured hours",
            "按实测时长对已规划的 GPU ",
        ],
    );
    Ok((
        usage::compare::compare(plan, replan.as_ref(), as_is.as_ref(), &report.actuals),
        warnings,
    ))
}

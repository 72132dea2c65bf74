//! The commands of the command line, one function each: they tie the pipeline's stages together
//! and decide what reaches the terminal and the disk (through [`files`](crate::files)).

use crate::cli::{
    self, CalcArgs, CatalogArgs, CheckArgs, CompletionsArgs, ExplainArgs, InitArgs, ManArgs,
    ModelArgs, UsageArgs, ValidateArgs,
};
use crate::error::{Error, Result};
use crate::files::{self, Pending};
use crate::lang::Lang;
use crate::provenance::Provenance;
use crate::time::{input_date, Clock};
use crate::{catalog, model, plan, read, report, usage, validate, write};
use clap::CommandFactory;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Largest validation table `gpuplan validate FILE` reads.
pub const MAX_TABLE_BYTES: u64 = 10 * 1024 * 1024;

/// Largest plan JSON `gpuplan diff` and `calc --compare` read. It is streamed and only the
/// compared fields are kept, their counts bounded (crate::diff::MAX_JSON_WORKLOADS and
/// MAX_JSON_INPUTS), so memory follows those bounds, not the file's size.
pub const MAX_PLAN_JSON_BYTES: u64 = 256 * 1000 * 1000;

/// Text to stdout; a reader that went away is not an error.
fn out(text: &str) -> Result<()> {
    files::to_stdout(|w| w.write_all(text.as_bytes()))
}

fn overrides(sets: &[String]) -> Result<Vec<read::Override>> {
    sets.iter().map(|s| read::Override::parse(s)).collect()
}

/// `INPUT.plan.xlsx` beside the input.
pub fn default_output(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "budget".into());
    input.with_file_name(format!("{stem}.plan.xlsx"))
}

pub fn init(a: &InitArgs) -> Result<()> {
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
    files::check_target(&a.path, a.force)?;
    // What was written is said on stdout: refused before the file is written when it is closed.
    files::check_stdout()?;
    let bytes = write::template_bytes(a.lang.unwrap_or_default(), example)?;
    files::save(&a.path, &bytes)?;
    // The workbook is English unless --lang says otherwise; the message follows the terminal.
    let lang = a.lang.unwrap_or_else(Lang::from_env);
    let sheet = catalog::sheet_name("Workloads", a.lang.unwrap_or_default());
    let path = a.path.display();
    out(&if lang == Lang::Zh {
        format!("已写入 {path}：请填写{sheet}表，然后运行 `gpuplan calc {path}`\n")
    } else {
        format!("wrote {path}: fill in the {sheet} sheet, then run `gpuplan calc {path}`\n")
    })
}

pub fn check(a: &CheckArgs) -> Result<()> {
    let input = read::read(&a.input, &overrides(&a.sets)?)?;
    // Check keeps the candidates calc would: its memory stays within calc's.
    let engine = plan::Engine::compile(&input)?;
    let opts = plan::Options {
        keep: Some(write::candidates_kept(input.workloads.len(), None)),
        ..plan::Options::default()
    };
    let plan = plan::plan_with(input, &engine, &opts)?;
    let i = &plan.input;
    let warnings: Vec<&model::Warning> = plan
        .warnings
        .iter()
        .filter(|w| w.severity == model::Severity::Warning)
        .collect();
    let (nw, ng, nm, na, nf, np, nwarn) = (
        i.workloads.len(),
        i.gpus.len(),
        i.models.len(),
        i.assumptions.items.len(),
        i.formulas.len(),
        plan.planned_count(),
        warnings.len(),
    );
    // In a Chinese locale the summary line is Chinese (check has no --lang: the workbook is
    // the user's).
    let lang = Lang::from_env();
    let mut text = if lang == Lang::Zh {
        format!("通过：{nw} 个负载、{ng} 个 GPU 报价、{nm} 个模型、{na} 个参数、{nf} 个公式；已规划 {np} 个，{nwarn} 条警告\n")
    } else {
        format!("ok: {nw} workloads, {ng} GPU offers, {nm} models, {na} assumptions, {nf} formulas; {np} planned, {nwarn} warning(s)\n")
    };
    let prefix = if lang == Lang::Zh {
        "警告"
    } else {
        "warning"
    };
    for w in warnings {
        text.push_str(&format!("{prefix}: {}: {}\n", w.location, w.text(lang)));
    }
    out(&text)
}

pub fn explain(a: &ExplainArgs) -> Result<()> {
    let input = read::read(&a.input, &overrides(&a.sets)?)?;
    let t = plan::trace(input, &a.workload, a.gpu.as_deref())?;
    out(&report::trace(&t))
}

pub fn catalog(a: &CatalogArgs) -> Result<()> {
    out(&report::catalog(a.what, a.format))
}

pub fn model(a: &ModelArgs) -> Result<()> {
    let mut m = read::config::import(&a.path)?;
    if let Some(n) = &a.name {
        m.spec.name = n.clone();
    }
    out(&report::imported(&m, a.format))
}

pub fn validate(a: &ValidateArgs) -> Result<()> {
    let (text, name) = match &a.table {
        Some(p) => {
            let text = files::read_text_bounded(
                p,
                MAX_TABLE_BYTES,
                "a validation table",
                "the table is not UTF-8 text; save it as CSV (UTF-8)",
            )?;
            (text, p.display().to_string())
        }
        None => (
            validate::BUILTIN.to_string(),
            "samples/validation.csv".into(),
        ),
    };
    let rows = validate::rows(&text).map_err(|e| Error::Usage(format!("{name}: {e}")))?;
    let outcomes = validate::run(&rows)?;
    out(&validate::report(&outcomes))
}

pub fn calc(a: &CalcArgs) -> Result<()> {
    let sets = overrides(&a.sets)?;
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
        bytes,
        defs,
        main_sets,
        input,
        base,
    } = read;
    let engine = plan::Engine::compile(&input)?;
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
    let mut plan = plan::plan_with(input, &engine, &opts)?;
    plan.warnings.extend(write::candidates_note(&plan));
    plan.warnings
        .extend(unread_scenario_keys(&defs, &plan.input, &engine));
    let beside = Beside {
        a,
        engine: &engine,
        bytes: &bytes,
        main_sets: &main_sets,
        now: stamp.generated,
    };
    beside.add(&mut plan, &progress, &mut clock)?;
    // The other plans of the Scenarios tab: the base when a scenario is the main plan, and every
    // scenario but that one, each keeping only its chosen candidates.
    if !defs.is_empty() {
        progress.phase(format!("planning {} scenarios", defs.len()));
        plan.scenarios = scenarios(a, &sets, &defs, base, &bytes, stamp.generated)?;
        plan.scenario = a.scenario.clone();
        clock.lap("scenarios");
    }
    stamp.options = run_options(a, &plan);
    // The planner times its own two phases, evaluate and plan.
    clock.laps(&plan.timings);
    progress.phase(format!("writing {}", out.workbook.display()));
    out.save(a, &mut plan, &stamp, &mut clock)?;
    progress.finish();
    clock.report();
    if !a.quiet {
        print_summary(a, &plan, &out)?;
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

/// The options besides `--set` that shaped `plan`, for its provenance stamp: the usage logs,
/// the days they cover and their first and last sample times, the map, the bills, the compared
/// plan, and the samples and seed of the ranges' sampling where the input has ranges.
fn run_options(a: &CalcArgs, plan: &plan::Plan) -> Vec<(String, String)> {
    let name = |p: &Path| p.display().to_string();
    let mut out = Vec::new();
    if !a.usage.is_empty() {
        let logs: Vec<String> = a.usage.iter().map(|p| name(p)).collect();
        out.push(("--usage".to_string(), logs.join(", ")));
        let days = plan
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
        let first = plan
            .actuals
            .iter()
            .filter_map(|r| r.actual.first_sample.as_ref())
            .min();
        let last = plan
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
    if plan.sensitivity.is_some() {
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
        plan: &mut plan::Plan,
        stamp: &Provenance,
        clock: &mut Clock,
    ) -> Result<()> {
        let (workbook, more) = write::plan(
            &self.workbook,
            plan,
            a.lang.unwrap_or_default(),
            &input_date(&a.input),
            stamp,
        )?;
        plan.warnings.extend(more);
        clock.lap("write");
        let json = match &self.json {
            Some(j) => Some(Pending::write_with(j, |w| {
                report::write_json(plan, stamp, w)
            })?),
            None => None,
        };
        workbook.commit()?;
        if let Some(p) = json {
            p.commit()?;
        }
        if a.json.as_deref() == Some("-") {
            files::to_stdout(|w| report::write_json(plan, stamp, w))?;
        }
        clock.lap("save");
        Ok(())
    }
}

/// What `calc` read: the workbook's bytes (the base and every scenario are planned from the
/// same bytes), its scenarios, the overrides the main plan was read with, the main input, and
/// the base input when `--scenario` made a scenario the main plan.
struct Inputs {
    bytes: Vec<u8>,
    defs: Vec<model::ScenarioDef>,
    main_sets: Vec<read::Override>,
    input: model::Input,
    base: Option<model::Input>,
}

impl Inputs {
    fn read(a: &CalcArgs, sets: &[read::Override]) -> Result<Inputs> {
        let bytes = files::read_bounded(&a.input, read::MAX_FILE_BYTES, "an .xlsx workbook")?;
        let base = read::read_bytes(&a.input, bytes.clone(), sets)?;
        let defs = base.scenarios.clone();
        let main_def = match &a.scenario {
            None => None,
            Some(name) => Some(defs.iter().find(|d| &d.name == name).ok_or_else(|| {
                let hint = crate::suggest::hint(name, defs.iter().map(|d| d.name.as_str()));
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
            Some(d) => scenario_sets(sets, d)?,
        };
        let (input, base) = match main_def {
            None => (base, None),
            Some(_) => (
                read::read_bytes(&a.input, bytes.clone(), &main_sets)?,
                Some(base),
            ),
        };
        Ok(Inputs {
            bytes,
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
    engine: &plan::Engine,
) -> Vec<model::Warning> {
    let defaults = catalog::assumptions(Lang::En);
    let mut out = Vec::new();
    for (text, at) in defs.iter().flat_map(|d| &d.changes) {
        let Ok(o) = read::Override::parse(text) else {
            continue;
        };
        let known = defaults.get(&o.key).is_some()
            || input.assumptions.get(&o.key).is_some()
            || engine.candidate.reads(&o.key)
            || engine.portfolio.reads(&o.key);
        if o.target == read::Target::Assumption && !known {
            let keys = || input.assumptions.items.iter().map(|a| a.key.as_str());
            let hint = crate::suggest::hint(&o.key, keys());
            let hint_zh = match crate::suggest::closest(&o.key, keys()) {
                c if c.is_empty() => String::new(),
                c => format!("；是否应为 {}？", c.join("、")),
            };
            out.push(model::Warning::warn(
                at.clone(),
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

/// The overrides a scenario is read with: the command line's, then its changes (each
/// remembering its cell).
fn scenario_sets(sets: &[read::Override], def: &model::ScenarioDef) -> Result<Vec<read::Override>> {
    let mut all = sets.to_vec();
    for (text, at) in &def.changes {
        let mut o = read::Override::parse(text)?;
        o.origin = Some(at.clone());
        all.push(o);
    }
    Ok(all)
}

/// What `calc` sets beside the main plan: the Ranges sheet's sensitivity, the measured usage,
/// the bills and the comparison with an earlier plan.
struct Beside<'a> {
    a: &'a CalcArgs,
    engine: &'a plan::Engine,
    bytes: &'a [u8],
    main_sets: &'a [read::Override],
    now: i64,
}

impl Beside<'_> {
    fn add(
        &self,
        plan: &mut plan::Plan,
        progress: &report::Progress,
        clock: &mut Clock,
    ) -> Result<()> {
        let a = self.a;
        if !plan.input.ranges.is_empty() {
            progress.phase(format!(
                "sampling {} ranges × {} samples",
                plan.input.ranges.len(),
                a.samples
            ));
            plan.sensitivity = Some(plan::sensitivity::sensitivity(
                &plan.input,
                self.engine,
                a.samples,
                a.seed,
                self.now,
            )?);
            clock.lap("sensitivity");
        }
        if !a.usage.is_empty() {
            progress.phase(format!("reading {} usage log(s)", a.usage.len()));
            let (rows, warnings) = actuals(a, plan, self.bytes, self.main_sets, self.now)?;
            plan.actuals = rows;
            plan.warnings.extend(warnings);
            clock.lap("usage");
        }
        if let Some(b) = &a.bills {
            plan.bills = bills(plan, b)?;
        }
        if let Some(old) = &a.compare {
            let (before, _, full) = plan_view(old)?;
            let d = crate::diff::compare(&before, &crate::diff::view_of(plan), full, true);
            plan.compared = Some((old.display().to_string(), d));
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
    sets: &[read::Override],
    defs: &[model::ScenarioDef],
    base: Option<model::Input>,
    bytes: &[u8],
    now: i64,
) -> Result<Vec<plan::Scenario>> {
    let side = plan::Options {
        keep: Some(1),
        now,
        ..plan::Options::default()
    };
    let mut scenarios = Vec::new();
    if let Some(base) = base {
        let engine = plan::Engine::compile(&base)?;
        scenarios.push(plan::Scenario {
            name: "base".to_string(),
            changes: Vec::new(),
            plan: plan::plan_with(base, &engine, &side)?,
        });
    }
    for d in defs.iter().filter(|d| Some(&d.name) != a.scenario.as_ref()) {
        let inp = read::read_bytes(&a.input, bytes.to_vec(), &scenario_sets(sets, d)?)?;
        let engine = plan::Engine::compile(&inp)?;
        scenarios.push(plan::Scenario {
            name: d.name.clone(),
            changes: d.changes.iter().map(|(t, _)| t.clone()).collect(),
            plan: plan::plan_with(inp, &engine, &side)?,
        });
    }
    Ok(scenarios)
}

/// The terminal summary and the files written (the workbook, and the JSON file if any), in the
/// terminal's language (`--lang` first): on stdout, as `check` and `usage` print theirs, or on
/// stderr when `--json -` takes stdout.
fn print_summary(a: &CalcArgs, plan: &plan::Plan, out: &Outputs) -> Result<()> {
    let json_on_stdout = a.json.as_deref() == Some("-");
    let color = if json_on_stdout {
        report::use_color(&std::io::stderr())
    } else {
        report::use_color(&std::io::stdout())
    };
    let lang = a.lang.unwrap_or_else(Lang::from_env);
    let mut text = report::summary(plan, color, lang);
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

/// Usage logs are files, each given once.
fn check_logs(logs: &[PathBuf]) -> Result<()> {
    for log in logs {
        files::regular_input(log, "a usage log")?;
    }
    for (i, x) in logs.iter().enumerate() {
        if let Some(y) = logs[i + 1..].iter().find(|y| files::same_file(x, y)) {
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

/// `calc --usage`: the logs read with the workbook's Usage sheet (or --map), and the plan
/// compared with a re-plan at the measured figures (the same bytes read again with the measured
/// hours and memory as overrides), with the logs' warnings.
fn actuals(
    a: &CalcArgs,
    plan: &plan::Plan,
    bytes: &[u8],
    main_sets: &[read::Override],
    now: i64,
) -> Result<(Vec<plan::actuals::Row>, Vec<model::Warning>)> {
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
    for text in plan::actuals::overrides(plan, &report.actuals) {
        all.push(read::Override::parse(&text)?);
    }
    let side = plan::Options {
        keep: Some(1),
        now,
        ..plan::Options::default()
    };
    let replan_with = |sets: &[read::Override]| {
        read::read_bytes(&a.input, bytes.to_vec(), sets).and_then(|input| {
            let engine = plan::Engine::compile(&input)?;
            plan::plan_with(input, &engine, &side)
        })
    };
    // The baseline: the planned cards, pinned, at the measured hours.
    let mut pinned = main_sets.to_vec();
    for text in plan::actuals::as_is_overrides(plan, &report.actuals) {
        pinned.push(read::Override::parse(&text)?);
    }
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
        plan::actuals::compare(plan, replan.as_ref(), as_is.as_ref(), &report.actuals),
        warnings,
    ))
}

pub fn usage(a: &UsageArgs) -> Result<()> {
    // The table or the JSON goes to stdout: refused before any work when it is closed.
    files::check_stdout()?;
    check_logs(&a.logs)?;
    let json_path = a.json.as_deref().filter(|j| *j != "-").map(PathBuf::from);
    if let Some(j) = &json_path {
        check_usage_json(a, j)?;
    }
    let sets = usage_overrides(&a.sets)?;
    let mut notes = Vec::new();
    let source = UsageSource::read(a, &sets)?;
    let mapping = usage_mapping(a, source.sheet_rows, source.names.as_deref(), &mut notes)?;
    let settings = usage::Settings {
        threshold: source.assumptions.number("usage_active_threshold", 0.1),
        hours_in_month: source.assumptions.number("hours_in_month", 730.0),
        interval_s: a.interval,
    };
    let mut result = usage::analyze(&a.logs, mapping.as_deref(), settings)?;
    notes.append(&mut result.warnings);
    result.warnings = notes;
    if let Some(j) = &json_path {
        Pending::write_with(j, |w| {
            report::write_usage_json(&result, &settings, &a.logs, w)
        })?
        .commit()?;
    }
    print_usage(a, &result, &settings)
}

/// Refuses a `--json` file of `usage` that is one of its inputs, or that exists without
/// `--force`.
fn check_usage_json(a: &UsageArgs, json: &Path) -> Result<()> {
    let mut named: Vec<(&str, &Path)> = a.logs.iter().map(|l| ("a log", l.as_path())).collect();
    if let Some(w) = &a.workbook {
        named.push(("--workbook", w));
    }
    if let Some(m) = &a.map {
        named.push(("--map", m));
    }
    named.push(("--json", json));
    files::distinct(&named)?;
    files::check_target(json, a.force)
}

/// The `--set`s of `usage`, which takes assumptions only.
fn usage_overrides(sets: &[String]) -> Result<Vec<read::Override>> {
    let sets = overrides(sets)?;
    if let Some(o) = sets.iter().find(|o| o.target != read::Target::Assumption) {
        return Err(Error::Usage(format!(
            "{}: usage takes assumptions only (KEY=VALUE, e.g. --set usage_active_threshold=0.3)",
            o.shown()
        )));
    }
    Ok(sets)
}

/// What `usage` takes from the budget workbook, or from the built-in defaults without one.
struct UsageSource {
    /// The assumptions, `--set`s applied.
    assumptions: model::Assumptions,
    /// The workbook's Usage sheet; None without a workbook.
    sheet_rows: Option<Vec<model::GpuMapping>>,
    /// The workbook's workload names, those a mapping may use; None without a workbook.
    names: Option<Vec<String>>,
}

impl UsageSource {
    /// Reads `--workbook` with the `--set`s, or applies them to the built-in assumptions
    /// (`key*=f` scaling the default).
    fn read(a: &UsageArgs, sets: &[read::Override]) -> Result<UsageSource> {
        match &a.workbook {
            Some(path) => {
                let input = read::read(path, sets)?;
                let names = input.workload_names();
                Ok(UsageSource {
                    assumptions: input.assumptions,
                    sheet_rows: Some(input.usage),
                    names: Some(names),
                })
            }
            None => {
                let mut assumptions = catalog::assumptions(Lang::En);
                for o in sets {
                    // `key*=f` scales the default.
                    let value = match o.value.parse::<f64>() {
                        Ok(f) if o.scale => (assumptions.number(&o.key, 0.0) * f).to_string(),
                        _ => o.value.clone(),
                    };
                    read::set_assumption(&mut assumptions, &o.key, &value)
                        .map_err(|e| Error::Usage(format!("{}: {e}", o.shown())))?;
                }
                Ok(UsageSource {
                    assumptions,
                    sheet_rows: None,
                    names: None,
                })
            }
        }
    }
}

/// Which GPU belongs to which workload: `--map` when given, else the workbook's Usage sheet
/// (none when it is empty, with a note in `notes`), else none.
fn usage_mapping(
    a: &UsageArgs,
    sheet_rows: Option<Vec<model::GpuMapping>>,
    names: Option<&[String]>,
    notes: &mut Vec<model::Warning>,
) -> Result<Option<Vec<model::GpuMapping>>> {
    Ok(match (&a.map, sheet_rows) {
        (Some(m), _) => Some(usage::read_map(m, names)?),
        (None, Some(rows)) if rows.is_empty() => {
            let wb = a.workbook.as_deref().map(Path::display);
            notes.push(model::Warning::warn(
                wb.map(|w| w.to_string()).unwrap_or_default(),
                "the workbook's Usage sheet maps no GPU to a workload: each GPU is reported on its own (fill the Usage sheet, or give --map)",
            ).with_zh("工作簿的用量表没有把任何 GPU 对应到负载：每张 GPU 单独列出（请填写用量表，或使用 --map）"));
            None
        }
        (None, rows) => rows,
    })
}

/// Prints the actuals' table to stdout (to stderr when `--json -` takes stdout, the JSON
/// then going there), then each warning and note to stderr.
fn print_usage(a: &UsageArgs, result: &usage::Report, settings: &usage::Settings) -> Result<()> {
    let table = report::usage_table(result, settings);
    if a.json.as_deref() == Some("-") {
        files::to_stdout(|w| report::write_usage_json(result, settings, &a.logs, w))?;
        eprint!("{table}");
    } else {
        out(&table)?;
    }
    let mut err = std::io::stderr();
    for w in &result.warnings {
        let kind = match w.severity {
            model::Severity::Warning => "warning",
            model::Severity::Info => "note",
        };
        let _ = writeln!(err, "{kind}: {}: {}", w.location, w.message);
    }
    Ok(())
}

pub fn completions(a: &CompletionsArgs) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut cli::Cli::command(), "gpuplan", &mut script);
    files::to_stdout(|w| w.write_all(&script))
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
    files::check_stdout()?;
    let pages = man_pages()?;
    let Some(dir) = &a.dir else {
        let (_, main) = pages
            .first()
            .ok_or_else(|| Error::Internal("no manual page".into()))?;
        return files::to_stdout(|w| w.write_all(main));
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| files::io_error(dir, "cannot create the folder", e))?;
    let paths: Vec<PathBuf> = pages.iter().map(|(name, _)| dir.join(name)).collect();
    // Every page is checked before any is written: a refusal leaves the folder as it was.
    for p in &paths {
        files::check_target(p, a.force)?;
    }
    let mut text = String::new();
    for (p, (_, roff)) in paths.iter().zip(&pages) {
        files::save(p, roff)?;
        text.push_str(&format!("wrote {}\n", p.display()));
    }
    out(&text)
}

/// A plan's view from its JSON or its workbook, with its currency and whether it records every
/// input (JSON does).
fn plan_view(path: &Path) -> Result<(crate::diff::PlanView, String, bool)> {
    let is_json = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if !is_json {
        let (view, currency) = read::plan_view(path)?;
        return Ok((view, currency, false));
    }
    // Streamed: only the fields compared are kept, each list bounded (crate::diff::from_json).
    let meta = files::regular_input(path, "a plan's JSON")?;
    if meta.len() > MAX_PLAN_JSON_BYTES {
        return Err(Error::Unreadable {
            file: path.to_path_buf(),
            reason: format!(
                "the file is {} MB; gpuplan reads a plan's JSON of at most {} MB",
                meta.len().div_ceil(1_000_000),
                MAX_PLAN_JSON_BYTES / 1_000_000
            ),
        });
    }
    let file = std::fs::File::open(path).map_err(|e| Error::Unreadable {
        file: path.to_path_buf(),
        reason: format!("cannot read the file: {}", files::describe(&e)),
    })?;
    crate::diff::from_json(std::io::Read::take(file, MAX_PLAN_JSON_BYTES)).map_err(|reason| {
        Error::Unreadable {
            file: path.to_path_buf(),
            reason,
        }
    })
}

pub fn diff(a: &cli::DiffArgs) -> Result<()> {
    // The table or the JSON goes to stdout: refused before a --json file is written.
    files::check_stdout()?;
    let json_path = a.json.as_deref().filter(|j| *j != "-").map(PathBuf::from);
    if let Some(j) = &json_path {
        files::distinct(&[
            ("the old plan", &a.old),
            ("the new plan", &a.new),
            ("--json", j),
        ])?;
        files::check_target(j, a.force)?;
    }
    let (old, currency, old_full) = plan_view(&a.old)?;
    let (new, _, new_full) = plan_view(&a.new)?;
    let d = crate::diff::compare(&old, &new, old_full, new_full);
    let write = |w: &mut dyn std::io::Write| -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut *w, &d).map_err(std::io::Error::from)?;
        w.write_all(b"\n")
    };
    if let Some(j) = &json_path {
        Pending::write_with(j, write)?.commit()?;
    }
    if a.json.as_deref() == Some("-") {
        files::to_stdout(write)
    } else {
        out(&crate::diff::render(&d, &currency))
    }
}

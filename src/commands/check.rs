//! `gpuplan check` and `gpuplan explain`: read and plan a workbook, and say what was found or how
//! one workload's figures come about, without writing anything.

use super::{changes, out};
use crate::cli::{CheckArgs, ExplainArgs};
use crate::error::Result;
use crate::labels::{Label, Said};
use crate::lang::Lang;
use crate::{model, plan, read, report};

pub fn check(a: &CheckArgs) -> Result<()> {
    let input = read::read(&a.input, &changes(&a.sets)?)?;
    // Check keeps the candidates calc would: its memory stays within calc's.
    let programs = plan::Programs::compile(&input)?;
    let opts = plan::Options {
        keep: Some(crate::calc::candidates::candidates_kept(
            input.workloads.len(),
            None,
        )),
        ..plan::Options::default()
    };
    let plan = plan::plan_with(input, &programs, &opts)?;
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
    let mut text = Said::new(
        format!("ok: {nw} workloads, {ng} GPU offers, {nm} models, {na} assumptions, {nf} formulas; {np} planned, {nwarn} warning(s)\n"),
        format!("通过：{nw} 个负载、{ng} 个 GPU 报价、{nm} 个模型、{na} 个参数、{nf} 个公式；已规划 {np} 个，{nwarn} 条警告\n"),
    )
    .pick(lang);
    let prefix = Label::new("warning", "警告").get(lang);
    for w in warnings {
        text.push_str(&format!("{prefix}: {}: {}\n", w.location, w.text(lang)));
    }
    out(&text)
}

pub fn explain(a: &ExplainArgs) -> Result<()> {
    let input = read::read(&a.input, &changes(&a.sets)?)?;
    let t = plan::trace(input, &a.workload, a.gpu.as_deref())?;
    out(&report::trace(&t))
}

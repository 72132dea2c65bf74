//! Each cut of one workload: the workload changed as the cut says, re-planned, with the
//! `--set` that makes the change and the cut's words and risk in both languages.

use super::replans::alone;
use super::{Alt, Context};
use crate::model::{CutAction, Kind, Month, Workload};
use crate::plan::choose::choose;
use crate::plan::evaluate::evaluate_workload;
use crate::plan::year::costs_in;
use crate::plan::{Candidate, WorkloadPlan};

/// A cut's words, in English and Chinese: what to change, and the risk it takes.
type Words = ([String; 2], [&'static str; 2]);

/// A workload re-evaluated and re-chosen as `changed`, its chosen candidate alone.
fn replan(cx: &Context, changed: &Workload) -> Option<WorkloadPlan> {
    let monthly_min = cx.input.assumptions.number("monthly_min_utilization", 0.4);
    let e = evaluate_workload(cx.programs, cx.input, changed, cx.keys, 1).ok()?;
    let ch = choose(&e.candidates, &e.best, cx.keys, monthly_min)?;
    alone(&WorkloadPlan {
        candidates: e.candidates,
        chosen: Some(ch),
        unplanned: None,
    })
}

/// The cut `action` of workload `w` (the `i`th), when it applies: the changed workload
/// re-planned, the `--set` that makes it, and its words.
pub(super) fn alternative(
    cx: &Context,
    now: &WorkloadPlan,
    i: usize,
    w: &Workload,
    action: CutAction,
    month: Month,
) -> Option<Alt> {
    let input = cx.input;
    let c = &now.candidates[0];
    let mut changed = w.clone();
    let mut set = Vec::new();
    let (mut extra, mut plan) = (0.0, None);
    let (change, risk): ([String; 2], [&str; 2]) = match action {
        CutAction::Spot => spot(cx, w, &mut changed, &mut set, &mut plan)?,
        CutAction::Fp8 | CutAction::Int8 | CutAction::Int4 => {
            lower_precision(cx, w, action, &mut changed, &mut set, &mut plan)?
        }
        CutAction::NoRedundancy => no_redundancy(cx, c, w, &mut changed, &mut set, &mut plan)?,
        CutAction::Api => api(cx, c, w, &mut extra)?,
        CutAction::Postpone => postpone(cx, w, month, &mut changed, &mut set)?,
    };
    let plan = match plan {
        Some(p) => p,
        None => now.clone(),
    };
    let runs = action != CutAction::Api && costs_in(input, &changed, &plan, cx.start, month).0;
    if action == CutAction::Postpone && runs {
        // A reserved term still binds it in the month: postponing saves nothing.
        return None;
    }
    Some(Alt {
        workload: i,
        action,
        harm: 0,
        plan,
        runs,
        extra,
        set,
        change,
        risk,
        after: f64::NAN,
        fleet: 0.0,
    })
}

/// Spot for an offline job that does not take it yet, where the re-plan then runs on spot.
fn spot(
    cx: &Context,
    w: &Workload,
    changed: &mut Workload,
    set: &mut Vec<String>,
    plan: &mut Option<WorkloadPlan>,
) -> Option<Words> {
    let name = &w.name;
    // A service on spot is an outage when it is reclaimed: offline work only.
    if w.spot_ok || w.online {
        return None;
    }
    changed.spot_ok = true;
    set.push(format!("{name}.spot_ok=yes"));
    let p = replan(cx, changed)?;
    let mode = p.chosen.as_ref()?.mode;
    if mode != crate::plan::Mode::Spot {
        return None;
    }
    *plan = Some(p);
    Some((
        [
            "run on spot instances".into(),
            "改用竞价（Spot）实例".into(),
        ],
        [
            "spot instances are reclaimed: the job must checkpoint and may finish later",
            "竞价实例会被回收：任务须保存断点，完成时间可能推迟",
        ],
    ))
}

/// A lower precision (`action`'s) for an inference workload served in a higher one, its
/// experts' precision with it, re-planned on whichever offer it then takes.
fn lower_precision(
    cx: &Context,
    w: &Workload,
    action: CutAction,
    changed: &mut Workload,
    set: &mut Vec<String>,
    plan: &mut Option<WorkloadPlan>,
) -> Option<Words> {
    let input = cx.input;
    let name = &w.name;
    let p = action.precision()?;
    if w.kind != Kind::Inference || p.bytes() >= w.precision.bytes() {
        return None;
    }
    changed.precision = p;
    set.push(format!("{name}.precision={}", p.key()));
    if changed.expert_precision.bytes() > p.bytes() {
        changed.expert_precision = p;
        // A blank expert_precision follows the precision; one written apart from it
        // must be set too. (One written equal to the precision cannot be told from a
        // blank here: its `--set` would need the expert_precision as well.)
        if w.expert_precision != w.precision {
            set.push(format!("{name}.expert_precision={}", p.key()));
        }
    }
    let low = replan(cx, changed)?;
    let (offer, mode) = {
        let ch = low.chosen.as_ref()?;
        (&input.gpus[low.candidates[0].offer], ch.mode)
    };
    let gpus = (cx.value)(&low.candidates[0], "gpus_total").unwrap_or(f64::NAN);
    let (p, gpu, mode) = (p.key(), offer.label(), mode.key());
    *plan = Some(low);
    Some((
        [
            format!("serve in {p} on {gpu} × {gpus} ({mode})"),
            format!("改用 {p} 精度，部署在 {gpu} × {gpus}（{mode}）"),
        ],
        [
            "answers of a quantized model may be worse: check its evaluations first",
            "量化后模型的回答可能变差：先核对其评测结果",
        ],
    ))
}

/// No spare instance for a service that has one (`c`, its candidate, says how many).
fn no_redundancy(
    cx: &Context,
    c: &Candidate,
    w: &Workload,
    changed: &mut Workload,
    set: &mut Vec<String>,
    plan: &mut Option<WorkloadPlan>,
) -> Option<Words> {
    let get = |n: &str| (cx.value)(c, n);
    let name = &w.name;
    let (inst, repl) = (get("instances")?, get("replicas")?);
    if !w.online || inst <= repl {
        return None;
    }
    changed.numbers.redundancy = Some(0.0);
    set.push(format!("{name}.redundancy=0"));
    let p = replan(cx, changed)?;
    let now_inst = (cx.value)(&p.candidates[0], "instances").unwrap_or(f64::NAN);
    *plan = Some(p);
    let plural = if now_inst == 1.0 {
        "instance"
    } else {
        "instances"
    };
    Some((
        [
            format!("run {now_inst} {plural} instead of {inst}, without a spare"),
            format!("只运行 {now_inst} 个实例而非 {inst} 个，不留备用"),
        ],
        [
            "no spare instance: a failure or a peak above plan is an outage (only for a non-critical service)",
            "没有备用实例：一次故障或超出计划的峰值即会中断服务（仅适用于非关键服务）",
        ],
    ))
}

/// The workload's API instead, at its candidate `c`'s monthly cost (`extra`, outside the plan).
fn api(cx: &Context, c: &Candidate, w: &Workload, extra: &mut f64) -> Option<Words> {
    let get = |n: &str| (cx.value)(c, n);
    let api = w.api.as_deref()?;
    *extra = get("api_monthly_cost").filter(|v| v.is_finite() && *v >= 0.0)?;
    Some((
        [
            format!("use the API {api} instead (no --set: the API's bill is outside the plan)"),
            format!("改用 API {api}（没有对应的 --set：API 费用在方案之外）"),
        ],
        [
            "the data leaves for the API provider, and its price and limits are theirs",
            "数据会发给 API 提供方，价格与限额也由对方决定",
        ],
    ))
}

/// An offline workload started the month after `month`, its end moved with it.
fn postpone(
    cx: &Context,
    w: &Workload,
    month: Month,
    changed: &mut Workload,
    set: &mut Vec<String>,
) -> Option<Words> {
    let name = &w.name;
    if w.online {
        return None;
    }
    let later = month.plus(1);
    let first = w.start_month.unwrap_or(cx.start);
    changed.start_month = Some(later);
    set.push(format!("{name}.start_month={later}"));
    if let Some(e) = w.end_month.filter(|e| *e < later) {
        // It keeps its months: the end moves with the start.
        let end = e.plus(later.0 - first.0);
        changed.end_month = Some(end);
        set.push(format!("{name}.end_month={end}"));
    }
    Some((
        [format!("postpone it to {later}"), format!("推迟到 {later}")],
        ["the work is delivered later", "交付时间推后"],
    ))
}

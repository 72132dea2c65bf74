//! The rules across a Workloads row's cells, on the values with their defaults: sizes within
//! the context and the peak, a pilot given whole, the work an offline workload's hours come
//! from; and the warning that an online service's window is not used.

use super::cells::default_number;
use crate::error::Problem;
use crate::model::{DayWindow, Kind, Warning, WorkloadNumbers};
use crate::read::table::Record;

/// Cross-field rules of the sizes: tokens held within the context, off-peak concurrency within
/// the peak, and a pilot test given whole.
pub(super) fn check_sizes(rec: &Record, kind: Kind, n: &WorkloadNumbers, p: &mut Vec<Problem>) {
    // A cell already refused holds no value to compare: its default stands in for it only where
    // it is blank, or "concurrency (1)" would be an error about a figure nobody typed (#44 item 8).
    let refused = |key: &str| rec.raw(key).is_some() && n.get(key).flatten().is_none();
    let context = n
        .context_len
        .or_else(|| default_number("context_len", kind))
        .unwrap_or(0.0);
    if let (Some(avg), false) = (n.avg_tokens, refused("context_len")) {
        if avg > context {
            p.push(Problem::new(
                rec.at("avg_tokens"),
                format!("avg_tokens ({avg}) cannot exceed context_len ({context})"),
            ));
        }
    }
    let concurrency = n
        .concurrency
        .or_else(|| default_number("concurrency", kind));
    if let (Some(base), c, false) = (
        n.base_concurrency,
        concurrency.unwrap_or(0.0),
        refused("concurrency"),
    ) {
        if base > c {
            p.push(Problem::new(
                rec.at("base_concurrency"),
                format!("base_concurrency ({base}) cannot exceed concurrency ({c})"),
            ));
        }
    }
    if n.pilot_vram_gib.is_some() != n.pilot_concurrency.is_some()
        && n.pilot_vram_gib.is_some()
        && rec.raw("pilot_concurrency").is_none()
    {
        p.push(Problem::new(
            rec.at("pilot_concurrency"),
            "a pilot test needs both pilot_vram_gib and pilot_concurrency",
        ));
    }
}

/// Cross-field rules of the work: a generation workload sized by items needs both item
/// columns, and an offline workload needs its hours, given or derived from its work.
pub(super) fn check_work(
    rec: &Record,
    name: &str,
    kind: Kind,
    n: &WorkloadNumbers,
    online: bool,
    p: &mut Vec<Problem>,
) {
    let by_items = kind.is_generation() && n.items_per_month.is_some();
    if by_items != (kind.is_generation() && n.seconds_per_item.is_some()) {
        let missing = if n.items_per_month.is_some() {
            "seconds_per_item"
        } else {
            "items_per_month"
        };
        p.push(Problem::new(
            rec.at(missing),
            format!("{name} is sized by work done: it needs both items_per_month and seconds_per_item (one item's GPU time, measured in a pilot)"),
        ));
    }
    // An offline workload's hours: given, or derived from its work (training tokens, items).
    let by_tokens = kind.is_training() && n.train_tokens_m.is_some();
    let by_requests =
        kind == Kind::Inference && n.requests_per_day.is_some() && n.output_tokens.is_some();
    let hours_known = n.hours_per_month.is_some() || rec.raw("hours_per_month").is_some();
    if !online && !hours_known && !by_tokens && !by_items && !by_requests {
        p.push(Problem::new(
            rec.at("hours_per_month"),
            format!("hours_per_month of the offline workload {name} is required (hours each instance runs per month){}",
                if kind.is_training() {
                    ", or give train_tokens_m"
                } else if kind.is_generation() {
                    ", or give items_per_month and seconds_per_item"
                } else if kind == Kind::Inference {
                    ", or give requests_per_day and output_tokens"
                } else {
                    ""
                }),
        ));
    }
}

/// The note that an online service's `window` is not used (#44 item 3): a window says when a
/// job may run, and a service is planned on its hours_per_month (all month when blank), its busy
/// hours of the day being its `peak_window`. A warning, not a refusal: the plan is the one the
/// service's hours give, and a team that meant the hours it is up learns which column says so.
pub(super) fn window_of_a_service(
    rec: &Record,
    name: &str,
    w: DayWindow,
    hours: Option<f64>,
) -> Warning {
    let per_day = w.len();
    let (planned, planned_zh) = match hours {
        Some(h) => (
            format!("its hours_per_month, {} h", crate::model::format_number(h)),
            format!(
                "其 hours_per_month（{} 小时）",
                crate::model::format_number(h)
            ),
        ),
        None => (
            "all month (hours_per_month blank)".to_string(),
            "全月运行（hours_per_month 为空）".to_string(),
        ),
    };
    Warning::warn(
        rec.at("window"),
        format!(
            "{name} is an online service, so its window {w} is not used: a window says when a job may run, and a service is planned on {planned}; give the hours its load peaks as peak_window, or, if it is up only {per_day} h a day, give hours_per_month those hours a month"
        ),
    )
    .with_zh(format!(
        "{name} 是在线服务，其运行时段 {w} 不起作用：运行时段是任务允许运行的时间，服务按{planned_zh}规划；负载高峰时段请填 peak_window；如果它每天只运行 {per_day} 小时，请在 hours_per_month 中填写相应的每月小时数"
    ))
}

//! The twelve-month view (#18): from `plan_start`, which workloads cost in each month (between
//! their `start_month` and `end_month`, and while a reserved offer's term still binds), and each
//! month's portfolio formulas over the workloads that cost in it.

use super::portfolio::{portfolio_of, Totals};
use super::programs::Programs;
use super::{FormulaColumn, Mode, WorkloadPlan};
use crate::error::Result;
use crate::model::{Input, Month, Value, Warning};

/// Months in the view.
pub const MONTHS: usize = 12;

/// The Year tab's twelve months from `plan_start`: which workloads cost in each month and
/// the portfolio formulas over them, month by month.
#[derive(Debug, Clone)]
pub struct Year {
    /// The first month.
    pub start: Month,
    /// Per workload: whether it costs in each month (it runs, or its reserved term binds).
    pub costs: Vec<[bool; MONTHS]>,
    /// Per workload: the months its reserved term commits to (within `costs`).
    pub committed: Vec<[bool; MONTHS]>,
    /// Per month: the portfolio over the workloads that cost in it.
    pub months: Vec<Totals>,
}

impl Year {
    /// The `k`th month.
    pub fn month(&self, k: usize) -> Month {
        self.start.plus(k as i32)
    }

    /// A portfolio formula's value in month `k`.
    pub fn value(&self, k: usize, name: &str) -> Option<f64> {
        self.months[k].get(name)
    }
}

/// The first month: the `plan_start` assumption, else the month after `now` (Unix seconds).
pub fn start(input: &Input, now: i64) -> Month {
    input
        .assumptions
        .items
        .iter()
        .find(|a| a.key == "plan_start")
        .and_then(|a| match &a.value {
            Value::Text(t) => Month::parse(t),
            _ => None,
        })
        .unwrap_or_else(|| Month::of_timestamp(now).plus(1))
}

pub(super) fn year(
    programs: &Programs,
    input: &Input,
    plans: &[WorkloadPlan],
    columns: &[FormulaColumn],
    now: i64,
) -> Result<Year> {
    let start = start(input, now);
    let mut costs = Vec::with_capacity(plans.len());
    let mut committed = Vec::with_capacity(plans.len());
    for (w, wp) in input.workloads.iter().zip(plans) {
        let mut runs = [false; MONTHS];
        let mut binds = [false; MONTHS];
        for k in 0..MONTHS {
            (runs[k], binds[k]) = costs_in(input, w, wp, start, start.plus(k as i32));
        }
        costs.push(runs);
        committed.push(binds);
    }
    let months = (0..MONTHS)
        .map(|k| portfolio_of(programs, input, plans, columns, &|i| costs[i][k]))
        .collect::<Result<Vec<_>>>()?;
    Ok(Year {
        start,
        costs,
        committed,
        months,
    })
}

/// Whether workload `w` (planned as `wp`) costs in month `m`, the Year tab starting at `start`,
/// and whether its reserved term binds it then: it costs from its `start_month` (else `start`)
/// to its `end_month`, and for the whole term of a reserved offer. The Year tab and the budget
/// month of the cuts (budget_month) both read it.
pub(super) fn costs_in(
    input: &Input,
    w: &crate::model::Workload,
    wp: &WorkloadPlan,
    start: Month,
    m: Month,
) -> (bool, bool) {
    let first = w.start_month.unwrap_or(start);
    let term = wp
        .chosen
        .as_ref()
        .filter(|ch| ch.mode == Mode::Reserved)
        .and_then(|ch| input.gpus[wp.candidates[ch.candidate].offer].reserved_term_months)
        .unwrap_or(0.0) as i32;
    let binds = m >= first && m < first.plus(term);
    let runs = binds || (m >= first && w.end_month.is_none_or(|e| m <= e));
    (runs, binds)
}

/// The month the budget is for: the `budget_month` assumption, else the Year tab's first month.
pub fn budget_month(input: &Input, start: Month) -> Month {
    input
        .assumptions
        .get("budget_month")
        .and_then(|a| match &a.value {
            Value::Text(t) => Month::parse(t),
            _ => None,
        })
        .unwrap_or(start)
}

/// A warning for each planned workload that costs in none of the twelve months (it ends before
/// `plan_start`, or starts after the last month): the monthly budget counts it, the Year tab
/// shows it nowhere, and one of the two is not what was meant.
pub(super) fn outside_warnings(
    input: &Input,
    plans: &[WorkloadPlan],
    year: &Year,
    warnings: &mut Vec<Warning>,
) {
    let last = year.month(MONTHS - 1);
    for ((w, wp), costs) in input.workloads.iter().zip(plans).zip(&year.costs) {
        if wp.chosen.is_none() || costs.iter().any(|c| *c) {
            continue;
        }
        let [runs, runs_zh] = match (w.start_month, w.end_month) {
            (Some(a), Some(b)) => [
                format!("runs from {a} to {b}"),
                format!("从 {a} 运行到 {b}"),
            ],
            (Some(a), None) => [format!("starts in {a}"), format!("从 {a} 开始")],
            (None, Some(b)) => [format!("ends in {b}"), format!("到 {b} 结束")],
            (None, None) => ["runs".to_string(), "运行期".to_string()],
        };
        warnings.push(Warning::warn(
            w.cell.to_string(),
            format!(
                "{}: it {runs}, outside the Year tab's twelve months ({} to {last}): the Year tab charges it in no month, while the monthly budget still counts it; check start_month, end_month and plan_start",
                w.name, year.start
            ),
        ).with_zh(format!(
            "{}：{runs_zh}，在全年页的十二个月（{} 至 {last}）之外：全年页不在任何月份计入它，而月度预算仍计入；请检查 start_month、end_month 和 plan_start",
            w.name, year.start
        )));
    }
}

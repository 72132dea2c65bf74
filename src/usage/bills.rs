//! Bills as finance exports them (`calc --bills FILE.csv`): `month, workload, provider, gpu,
//! hours, amount`, one row per line of a provider's invoice. The plan is set beside the last
//! month's bill: per workload the planned GPU-hours and GPU cost against the billed ones, the
//! difference split into what more (or fewer) hours cost at the planned rate and what the
//! rest of the price did, and billed workloads the plan does not have.

use super::map::fields;
use crate::error::{Error, Problem, Result};
use crate::model::Month;
use serde::Serialize;
use std::path::Path;

/// Bills over this are not a month's export.
const MAX_BILL_BYTES: u64 = 50_000_000;

/// One line of a bill.
#[derive(Debug, Clone, PartialEq)]
pub struct BillLine {
    /// The billing month (the `month` column, `YYYY-MM`).
    pub month: Month,
    /// The workload billed (the `workload` column; never empty), matched to the plan's
    /// workloads by name.
    pub workload: String,
    /// The provider that billed it (the `provider` column; may be empty, not compared).
    pub provider: String,
    /// The GPU billed (the `gpu` column; may be empty, not compared).
    pub gpu: String,
    /// GPU-hours billed.
    pub hours: f64,
    /// The amount billed, in the plan's currency (the `amount` column; ≥ 0).
    pub amount: f64,
}

/// The bills' columns, as the header names them (in lower case) and as [`BillColumns`] indexes them.
const COLUMNS: [&str; 6] = ["month", "workload", "provider", "gpu", "hours", "amount"];

/// Reads a bills CSV (UTF-8, a header naming the six columns in any order; `#` lines skipped).
pub fn read_bills(path: &Path) -> Result<Vec<BillLine>> {
    let text = bills_text(path)?;
    let file = path.display().to_string();
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((h, header)) = lines.next() else {
        return Err(one_problem(
            &file,
            1,
            format!(
                "the bills are empty; expected a header {}",
                COLUMNS.join(",")
            ),
        ));
    };
    let columns =
        BillColumns::from_header(header).map_err(|what| one_problem(&file, h + 1, what))?;
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (n, line) in lines {
        match columns.bill_line(line) {
            Some(bill) => out.push(bill),
            None => problems.push(Problem::new(
                format!("{file}:{}", n + 1),
                format!(
                    "expected a month (YYYY-MM), a workload, and hours and an amount ≥ 0, found \"{}\"",
                    line.chars().take(120).collect::<String>()
                ),
            )),
        }
    }
    if !problems.is_empty() {
        return Err(Error::lines(problems));
    }
    Ok(out)
}

/// The bills file as text: at most [`MAX_BILL_BYTES`], UTF-8, without a byte-order mark.
fn bills_text(path: &Path) -> Result<String> {
    crate::support::files::read_text_bounded(
        path,
        MAX_BILL_BYTES,
        "a bills export (CSV)",
        "the bills are not UTF-8 text; save them as CSV (UTF-8)",
    )
}

/// The error for a bills file that cannot be read past its header: one problem at `file:line`.
fn one_problem(file: &str, line: usize, what: String) -> Error {
    Error::lines(vec![Problem::new(format!("{file}:{line}"), what)])
}

/// Where the header puts each of [`COLUMNS`], and how the fields are separated.
struct BillColumns {
    /// The field of each of [`COLUMNS`], in its order.
    at: [usize; 6],
    /// Tab-separated (a header with tabs and no comma).
    tab: bool,
}

impl BillColumns {
    /// The columns a header line names; the message says which are missing.
    fn from_header(header: &str) -> std::result::Result<BillColumns, String> {
        let tab = header.contains('\t') && !header.contains(',');
        let head: Vec<String> = fields(header, tab)
            .into_iter()
            .map(|f| f.to_lowercase())
            .collect();
        let cols = COLUMNS.map(|k| head.iter().position(|x| x == k));
        let missing: Vec<&str> = COLUMNS
            .iter()
            .zip(&cols)
            .filter(|(_, c)| c.is_none())
            .map(|(k, _)| *k)
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "the header lacks {}; expected {}",
                missing.join(", "),
                COLUMNS.join(",")
            ));
        }
        Ok(BillColumns {
            at: cols.map(|c| c.unwrap_or(0)),
            tab,
        })
    }

    /// One line of the bill; None when its month, workload, hours or amount is missing or wrong.
    fn bill_line(&self, line: &str) -> Option<BillLine> {
        let f = fields(line, self.tab);
        let get = |i: usize| f.get(self.at[i]).map(String::as_str).unwrap_or("");
        let month = Month::parse(get(0));
        let number = |i: usize| {
            crate::support::fields::parse_number_text(get(i)).filter(|v| v.is_finite() && *v >= 0.0)
        };
        let (hours, amount) = (number(4), number(5));
        match (month, hours, amount) {
            (Some(month), Some(hours), Some(amount)) if !get(1).is_empty() => Some(BillLine {
                month,
                workload: get(1).to_string(),
                provider: get(2).to_string(),
                gpu: get(3).to_string(),
                hours,
                amount,
            }),
            _ => None,
        }
    }
}

/// One workload's bill beside its plan.
#[derive(Debug, Clone, Serialize)]
pub struct BillRow {
    /// The workload: a planned one, or one only the bill names.
    pub workload: String,
    /// Planned GPU-hours a month (run hours × GPUs) and GPU cost; null for a billed workload
    /// the plan does not have.
    pub planned_hours: Option<f64>,
    /// The planned GPU cost a month, in the plan's currency; null for a workload the plan
    /// does not have.
    pub planned_cost: Option<f64>,
    /// GPU-hours billed for the workload in the month, summed over its bill lines (0 where
    /// not billed).
    pub billed_hours: f64,
    /// The amount billed for the workload in the month, summed over its bill lines.
    pub billed: f64,
    /// Billed less planned.
    pub difference: f64,
    /// What the hours beyond (or short of) the plan cost at the planned rate.
    pub hours_effect: f64,
    /// The rest: the billed rate against the planned one, over the billed hours.
    pub price_effect: f64,
    /// `more hours`, `fewer hours`, `a higher price`, `a lower price` (the larger effect first),
    /// `as planned`, `unplanned workload` or `not billed`.
    pub cause: String,
}

/// The last month's bill against the plan.
#[derive(Debug, Clone, Serialize)]
pub struct BillComparison {
    /// The month compared, `YYYY-MM`: the latest month in the bill.
    pub month: String,
    /// One row per workload: the planned ones in plan order, then those only the bill names;
    /// a planned workload with nothing billed is kept (`not billed`).
    pub rows: Vec<BillRow>,
    /// The planned GPU cost summed over the rows.
    pub planned: f64,
    /// The amount billed summed over the rows: the month's bill.
    pub billed: f64,
}

/// Amounts under half a cent are none.
const NOTHING: f64 = 0.005;

/// Sets the last month of `lines` beside the plan's GPU cost per workload: `planned(name)` gives
/// a planned workload's GPU-hours and GPU cost, `names` every planned workload in order.
pub fn compare(
    lines: &[BillLine],
    names: &[String],
    planned: &dyn Fn(&str) -> Option<(f64, f64)>,
) -> Option<BillComparison> {
    let month = lines.iter().map(|l| l.month).max()?;
    let this: Vec<&BillLine> = lines.iter().filter(|l| l.month == month).collect();
    let mut rows = Vec::new();
    for name in workload_order(names, &this) {
        let billed_lines: Vec<&&BillLine> = this.iter().filter(|l| l.workload == name).collect();
        let (billed_hours, billed) = billed_lines
            .iter()
            .fold((0.0, 0.0), |(h, a), l| (h + l.hours, a + l.amount));
        let plan = planned(&name);
        if plan.is_none() && billed_lines.is_empty() {
            continue;
        }
        rows.push(match plan {
            None => unplanned_row(name, billed_hours, billed),
            Some(plan) => planned_row(name, plan, billed_hours, billed, !billed_lines.is_empty()),
        });
    }
    Some(BillComparison {
        month: month.to_string(),
        planned: rows.iter().filter_map(|r| r.planned_cost).sum(),
        billed: rows.iter().map(|r| r.billed).sum(),
        rows,
    })
}

/// The workloads to compare, in order: every planned one, then those only the month's bill names.
fn workload_order(names: &[String], this: &[&BillLine]) -> Vec<String> {
    let mut order: Vec<String> = names.to_vec();
    for l in this {
        if !order.contains(&l.workload) {
            order.push(l.workload.clone());
        }
    }
    order
}

/// The row of a billed workload the plan does not have: all of its bill is the difference.
fn unplanned_row(workload: String, billed_hours: f64, billed: f64) -> BillRow {
    BillRow {
        workload,
        planned_hours: None,
        planned_cost: None,
        billed_hours,
        billed,
        difference: billed,
        hours_effect: 0.0,
        price_effect: 0.0,
        cause: "unplanned workload".into(),
    }
}

/// The row of a planned workload (`(planned hours, planned cost)`): the difference split into
/// what the hours beyond the plan cost at the planned rate and what the price did.
fn planned_row(
    workload: String,
    (ph, pc): (f64, f64),
    billed_hours: f64,
    billed: f64,
    is_billed: bool,
) -> BillRow {
    let rate = if ph > 0.0 { pc / ph } else { 0.0 };
    let hours_effect = (billed_hours - ph) * rate;
    let difference = billed - pc;
    let price_effect = difference - hours_effect;
    let cause = if is_billed {
        cause(hours_effect, price_effect)
    } else {
        "not billed".to_string()
    };
    BillRow {
        workload,
        planned_hours: Some(ph),
        planned_cost: Some(pc),
        billed_hours,
        billed,
        difference,
        hours_effect,
        price_effect,
        cause,
    }
}

/// What made a billed workload differ from its plan, the larger effect first: `more hours`,
/// `fewer hours`, `a higher price`, `a lower price` (joined with `and`), or `as planned`.
fn cause(hours_effect: f64, price_effect: f64) -> String {
    let mut causes: Vec<(f64, &str)> = Vec::new();
    if hours_effect.abs() > NOTHING {
        causes.push((
            hours_effect.abs(),
            if hours_effect > 0.0 {
                "more hours"
            } else {
                "fewer hours"
            },
        ));
    }
    if price_effect.abs() > NOTHING {
        causes.push((
            price_effect.abs(),
            if price_effect > 0.0 {
                "a higher price"
            } else {
                "a lower price"
            },
        ));
    }
    causes.sort_by(|a, b| b.0.total_cmp(&a.0));
    if causes.is_empty() {
        "as planned".to_string()
    } else {
        causes
            .iter()
            .map(|(_, c)| *c)
            .collect::<Vec<_>>()
            .join(" and ")
    }
}

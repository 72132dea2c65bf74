//! A plan workbook read back (for `gpuplan diff`): each workload's GPU, count, mode and TCO from
//! the Plan tab, the totals from the TCO tab, and what it records of its inputs — the
//! assumptions, the priced offers' terms and the input's SHA-256. Tabs and headers in English or
//! Chinese.

use super::{Outcome, PlanView};
use crate::error::{Error, Result};
use crate::labels::layout::{self, Label, Tab};
use crate::read::{raw_text, Raw, RawSheet};
use std::collections::HashMap;
use std::path::Path;

/// Cells by (row, column).
fn grid(sheet: &RawSheet) -> HashMap<(u32, u32), &Raw> {
    sheet.cells.iter().map(|(r, c, v)| ((*r, *c), v)).collect()
}

fn number(raw: Option<&&Raw>) -> Option<f64> {
    match raw {
        // A share the plan shows as a percentage is its number.
        Some(Raw::Number(n) | Raw::Percent(n)) => Some(*n),
        _ => None,
    }
}

/// The largest plan workbook read back, the input's cap (gpuplan writes a 1,000-workload plan
/// in a few MB); the cells read are bounded by the reader's own cell limit.
const MAX_PLAN_BYTES: u64 = 50_000_000;

fn text(raw: Option<&&Raw>) -> Option<String> {
    raw.map(|r| raw_text(r)).filter(|t| !t.is_empty())
}

/// The plan view and the currency of a plan workbook.
pub fn plan_view(path: &Path) -> Result<(PlanView, String)> {
    let bytes = crate::support::files::read_bounded(path, MAX_PLAN_BYTES, "a plan workbook")?;
    let mut wb = crate::read::open_bytes(path, bytes)?;
    let names = wb.sheet_names().to_vec();
    let not_a_plan = || {
        Error::input(
            path,
            "",
            format!(
                "not a gpuplan plan workbook: it lacks the {} and {} tabs ({}, {}); give the workbook `gpuplan calc` wrote, or its --json",
                Tab::Plan.label().en,
                Tab::Tco.label().en,
                Tab::Plan.label().zh,
                Tab::Tco.label().zh
            ),
        )
    };
    let find = |tab: Label| names.iter().find(|n| tab.is(n)).cloned();
    let mut cells = 0usize;
    let mut sheet = |tab: Label| -> Result<Option<RawSheet>> {
        match find(tab) {
            Some(n) => Ok(Some(wb.read_sheet(path, &n, &mut cells)?)),
            None => Ok(None),
        }
    };
    let plan = sheet(Tab::Plan.label())?.ok_or_else(not_a_plan)?;
    let tco = sheet(Tab::Tco.label())?.ok_or_else(not_a_plan)?;
    let assumptions = sheet(Tab::Assumptions.label())?;
    let summary = sheet(Tab::Summary.label())?;
    let mut view = PlanView::default();
    read_plan_tab(&plan, &mut view).ok_or_else(not_a_plan)?;
    read_totals(&tco, &mut view);
    if let Some(a) = &assumptions {
        read_assumptions(a, &mut view);
    }
    let currency = match &summary {
        Some(s) => read_summary(s, &mut view),
        None => "CNY".to_string(),
    };
    // A workbook whose Summary has no fleet line shares nothing (or predates the fleet).
    view.budget_with_fleet = view.budget_with_fleet.or(view.total_with_margin);
    Ok((view, currency))
}

/// The Plan tab, columns found by their header in either language: each workload's outcome,
/// and the terms of each priced offer as inputs. `None` when the tab has no Workload column.
fn read_plan_tab(plan: &RawSheet, view: &mut PlanView) -> Option<()> {
    let g = grid(plan);
    let header: HashMap<String, u32> = plan
        .cells
        .iter()
        .filter(|(r, _, _)| *r == 0)
        .map(|(_, c, v)| (raw_text(v), *c))
        .collect();
    let col = |l: Label| header.get(l.en).or_else(|| header.get(l.zh)).copied();
    let name_col = col(layout::WORKLOAD)?;
    let (gpu, gpus, mode, tco_col) = (
        col(layout::GPU),
        col(layout::GPUS),
        col(layout::BILLING_MODE),
        col(layout::MONTHLY_TCO),
    );
    let terms = layout::OFFER_TERMS.map(|(key, label)| (key, col(label)));
    let last = plan.cells.iter().map(|(r, _, _)| *r).max().unwrap_or(0);
    for r in 1..=last {
        // The table ends at its first blank row: below it come the cuts and the printed block,
        // whose rows name workloads too.
        let Some(name) = text(g.get(&(r, name_col))) else {
            view.cuts = read_cuts(&g, r, last);
            break;
        };
        let at = |c: Option<u32>| c.and_then(|c| g.get(&(r, c)));
        let offer = text(at(gpu)).filter(|t| !layout::UNPLANNED.is(t));
        if let Some(label) = &offer {
            for (k, c) in terms {
                if let Some(v) = number(at(c)) {
                    view.inputs
                        .entry(format!("gpus.{label}.{k}"))
                        .or_insert_with(|| crate::model::format_number(v));
                }
            }
        }
        view.workloads.push((
            name,
            Outcome {
                gpus: offer.as_ref().and(number(at(gpus))),
                // The mode's key whichever language the tab is in.
                mode: offer
                    .as_ref()
                    .and(text(at(mode)))
                    .map(|m| crate::model::Mode::parse(&m).map_or(m, |x| x.key().to_string())),
                tco: offer.as_ref().and(number(at(tco_col))),
                gpu: offer,
            },
        ));
    }
    Some(())
}

/// The Plan tab's section of cuts below its table (from row `from`): its header is the
/// Workload and Saving labels in columns A and B, each cut a row of a name and a saving, and
/// the line under them says when they leave the plan over the ceiling. `None` without one.
fn read_cuts(g: &HashMap<(u32, u32), &Raw>, from: u32, last: u32) -> Option<super::CutsView> {
    let label = |r: u32, c: u32| text(g.get(&(r, c))).unwrap_or_default();
    let head = (from..=last)
        .find(|&r| layout::WORKLOAD.is(&label(r, 0)) && layout::CUT_SAVING.is(&label(r, 1)))?;
    let mut count = 0;
    let mut r = head + 1;
    while r <= last && text(g.get(&(r, 0))).is_some() && number(g.get(&(r, 1))).is_some() {
        count += 1;
        r += 1;
    }
    Some(super::CutsView {
        count,
        met: !layout::CUTS_UNMET.is(&label(r, 0)),
    })
}

/// Totals: the TCO tab's amounts (column C) by their labels.
fn read_totals(tco: &RawSheet, view: &mut PlanView) {
    let t = grid(tco);
    for (r, c, v) in &tco.cells {
        if *c != 0 {
            continue;
        }
        let label = raw_text(v);
        let amount = number(t.get(&(*r, 2)));
        if layout::TOTAL.is(&label) {
            view.total = amount;
        } else if layout::TOTAL_WITH_MARGIN.is(&label) {
            view.total_with_margin = amount;
        }
    }
}

/// The Assumptions tab's values (column B) by their keys (column A), as inputs.
fn read_assumptions(a: &RawSheet, view: &mut PlanView) {
    let ga = grid(a);
    for (r, c, v) in &a.cells {
        if *c != 0 || *r == 0 {
            continue;
        }
        if let Some(val) = ga.get(&(*r, 1)) {
            let val = match val {
                Raw::Number(n) | Raw::Percent(n) => crate::model::format_number(*n),
                other => raw_text(other),
            };
            view.inputs
                .insert(format!("assumptions.{}", raw_text(v)), val);
        }
    }
}

/// The Summary tab: the input's SHA-256 as an input, and the currency (CNY when not given).
fn read_summary(s: &RawSheet, view: &mut PlanView) -> String {
    let mut currency = "CNY".to_string();
    let gs = grid(s);
    for (r, c, v) in &s.cells {
        if *c != 0 {
            continue;
        }
        let label = raw_text(v);
        let value = || text(gs.get(&(*r, 1)));
        if layout::INPUT_SHA256.is(&label) {
            if let Some(h) = value() {
                view.inputs.insert("input.sha256".into(), h);
            }
        } else if layout::CURRENCY.is(&label) {
            if let Some(cur) = value() {
                currency = cur;
            }
        } else if layout::BUDGET_WITH_FLEET.is(&label) {
            view.budget_with_fleet = number(gs.get(&(*r, 1)));
        }
    }
    currency
}

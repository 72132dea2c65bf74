//! The terminal table of `gpuplan diff`: per workload the outcome before and after and its TCO,
//! the totals, the budget with the fleet, the ceiling and its cuts, and the inputs that differ
//! (and the offers whose terms only one plan records).

use crate::diff::{CutsView, Diff, Outcome};
use crate::model::{format_number, money};

/// The terminal table of a diff.
pub fn diff(d: &Diff, currency: &str) -> String {
    let mut out = workloads_table(d, currency);
    out.push_str(&budget_lines(d, currency));
    if let Some(b) = d.bridge() {
        out.push_str("the change in parts:\n");
        for (label, v) in bridge_lines(&b) {
            out.push_str(&format!("  {label}: {}\n", signed(currency, v)));
        }
    }
    out.push_str(&input_lines(d));
    out
}

/// The workloads' table: a row a workload of either plan, its outcome before and after, their
/// TCOs and the change.
fn workloads_table(d: &Diff, currency: &str) -> String {
    let money = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| money(currency, v));
    let mut rows = vec![vec![
        "workload".to_string(),
        "before".to_string(),
        "after".to_string(),
        "TCO before".to_string(),
        "TCO after".to_string(),
        "change".to_string(),
    ]];
    for w in &d.workloads {
        rows.push(vec![
            w.name.clone(),
            side(&w.before),
            side(&w.after),
            money(w.before.as_ref().and_then(|o| o.tco)),
            money(w.after.as_ref().and_then(|o| o.tco)),
            w.tco_change
                .map_or_else(|| "-".into(), |c| signed(currency, c)),
        ]);
    }
    super::table(&rows, &[false, false, false, true, true, true])
}

/// The budget's lines under the table: the total with safety margin, the budget with the fleet
/// (where a fleet shares), the ceiling and the cuts (where either plan has them).
fn budget_lines(d: &Diff, currency: &str) -> String {
    let money = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| money(currency, v));
    let mut out = format!(
        "\ntotal with safety margin: {} → {} ({})\n",
        money(d.total_with_margin_before),
        money(d.total_with_margin_after),
        d.total_with_margin_change
            .map_or_else(|| "-".into(), |c| signed(currency, c))
    );
    // Said where a fleet shares on either side: elsewhere it is the total with margin again.
    let shares = |fleet: Option<f64>, total: Option<f64>| match (fleet, total) {
        (Some(f), Some(t)) => (f - t).abs() >= 0.005,
        (a, b) => a.is_some() != b.is_some(),
    };
    if shares(d.budget_with_fleet_before, d.total_with_margin_before)
        || shares(d.budget_with_fleet_after, d.total_with_margin_after)
    {
        out.push_str(&format!(
            "budget with the fleet: {} → {} ({})\n",
            money(d.budget_with_fleet_before),
            money(d.budget_with_fleet_after),
            d.budget_with_fleet_change
                .map_or_else(|| "-".into(), |c| signed(currency, c))
        ));
    }
    if d.budget_ceiling_before.is_some() || d.budget_ceiling_after.is_some() {
        let ceiling = |v: Option<f64>| v.map_or_else(|| "none".to_string(), |v| money(Some(v)));
        out.push_str(&format!(
            "budget ceiling: {} → {}\n",
            ceiling(d.budget_ceiling_before),
            ceiling(d.budget_ceiling_after)
        ));
    }
    if d.cuts_before.is_some() || d.cuts_after.is_some() {
        out.push_str(&format!(
            "cuts: {} → {}\n",
            cuts_said(d.cuts_before),
            cuts_said(d.cuts_after)
        ));
    }
    out
}

/// The inputs' lines: not compared, the same, or each that differs with its value before and
/// after; the offers whose terms one plan only records; a note when a plan is a workbook.
fn input_lines(d: &Diff) -> String {
    let mut out = String::new();
    if d.inputs_compared == 0 {
        out.push_str("inputs: not compared (a plan records none of the other's inputs)\n");
    } else if d.inputs_changed.is_empty() {
        out.push_str("inputs: the same\n");
    } else {
        out.push_str(&format!(
            "inputs that differ ({}):\n",
            d.inputs_changed.len()
        ));
        for c in &d.inputs_changed {
            out.push_str(&format!(
                "  {}: {} → {}\n",
                c.key,
                c.before.as_deref().unwrap_or("(none)"),
                c.after.as_deref().unwrap_or("(none)")
            ));
        }
    }
    let offers = d.one_sided_offers();
    if !offers.is_empty() {
        out.push_str(&format!(
            "offer terms recorded by one plan only, not compared: {}\n",
            offers.join("; ")
        ));
    }
    if !d.inputs_complete {
        out.push_str("(a plan workbook records its assumptions, its offers' prices and terms and its input's SHA-256; compare the plans' JSON (calc --json) to see every workload column)\n");
    }
    out
}

/// The variance bridge's lines, the last their total: what a reader adds up.
fn bridge_lines(b: &crate::diff::Bridge) -> [(&'static str, f64); 5] {
    [
        ("workloads' TCO", b.workloads),
        ("trial reserve and ops", b.reserve_and_ops),
        ("safety margin", b.margin),
        ("fleet saving", b.fleet),
        ("budget with the fleet", b.total),
    ]
}

/// A diff as GitHub-flavoured Markdown, for a pull-request comment (`gpuplan diff --format
/// markdown`): the workloads that changed in a table, the change in parts (the variance
/// bridge) and the inputs that differ.
pub fn diff_markdown(d: &Diff, currency: &str) -> String {
    let money = |v: Option<f64>| v.map_or_else(|| "–".to_string(), |v| money(currency, v));
    let cell = |t: &str| t.replace('|', "\\|").replace('\n', " ");
    let mut out = String::from("### GPU plan: what changed\n\n");
    out.push_str(&format!(
        "Budget with the fleet: **{} → {}** ({})\n\n",
        money(d.budget_with_fleet_before.or(d.total_with_margin_before)),
        money(d.budget_with_fleet_after.or(d.total_with_margin_after)),
        d.budget_with_fleet_change
            .or(d.total_with_margin_change)
            .map_or_else(|| "–".into(), |c| signed(currency, c))
    ));
    let changed: Vec<_> = d
        .workloads
        .iter()
        .filter(|w| {
            w.tco_change.is_none_or(|c| c.abs() >= 0.005) || side(&w.before) != side(&w.after)
        })
        .collect();
    if changed.is_empty() {
        out.push_str("No workload changed.\n\n");
    } else {
        out.push_str("| Workload | Before | After | TCO before | TCO after | Change |\n");
        out.push_str("|---|---|---|---:|---:|---:|\n");
        for w in changed {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                cell(&w.name),
                cell(&side(&w.before)),
                cell(&side(&w.after)),
                money(w.before.as_ref().and_then(|o| o.tco)),
                money(w.after.as_ref().and_then(|o| o.tco)),
                w.tco_change
                    .map_or_else(|| "–".into(), |c| signed(currency, c))
            ));
        }
        out.push('\n');
    }
    if let Some(b) = d.bridge() {
        out.push_str("| The change in parts | Amount |\n|---|---:|\n");
        let lines = bridge_lines(&b);
        for (i, (label, v)) in lines.iter().enumerate() {
            let v = signed(currency, *v);
            if i + 1 == lines.len() {
                out.push_str(&format!("| **{label}** | **{v}** |\n"));
            } else {
                out.push_str(&format!("| {label} | {v} |\n"));
            }
        }
        out.push('\n');
    }
    if !d.inputs_changed.is_empty() {
        out.push_str(&format!(
            "Inputs that differ ({}):\n\n",
            d.inputs_changed.len()
        ));
        for c in &d.inputs_changed {
            out.push_str(&format!(
                "- `{}`: {} → {}\n",
                c.key.replace('`', "'"),
                cell(c.before.as_deref().unwrap_or("(none)")),
                cell(c.after.as_deref().unwrap_or("(none)"))
            ));
        }
    }
    out
}

/// One side of a workload's change: its GPU, count and mode, "unplanned" or "(absent)".
fn side(o: &Option<Outcome>) -> String {
    match o {
        Some(Outcome {
            gpu: Some(g),
            gpus,
            mode,
            ..
        }) => format!(
            "{g} × {} {}",
            gpus.map_or_else(|| "?".into(), format_number),
            mode.as_deref().unwrap_or("")
        ),
        Some(_) => "unplanned".to_string(),
        None => "(absent)".to_string(),
    }
}

/// The cuts a plan lists, in words: none, or how many and whether they meet its ceiling.
fn cuts_said(c: Option<CutsView>) -> String {
    CutsView::said(c).en
}

fn signed(currency: &str, v: f64) -> String {
    let m = money(currency, v.abs());
    if v > 0.0 {
        format!("+{m}")
    } else if v < 0.0 {
        format!("−{m}")
    } else {
        m
    }
}

//! The terminal table of `gpuplan diff`: per workload the outcome before and after and its TCO,
//! the totals, and the inputs that differ.

use crate::diff::{Diff, Outcome};
use crate::model::{format_number, money};

/// The terminal table of a diff.
pub fn diff(d: &Diff, currency: &str) -> String {
    let money = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| money(currency, v));
    let side = |o: &Option<Outcome>| match o {
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
    };
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
    let mut out = super::table(&rows, &[false, false, false, true, true, true]);
    out.push_str(&format!(
        "\ntotal with safety margin: {} → {} ({})\n",
        money(d.total_with_margin_before),
        money(d.total_with_margin_after),
        d.total_with_margin_change
            .map_or_else(|| "-".into(), |c| signed(currency, c))
    ));
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
    if !d.inputs_complete {
        out.push_str("(a plan workbook records its assumptions, its offers' prices and terms and its input's SHA-256; compare the plans' JSON (calc --json) to see every workload column)\n");
    }
    out
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

//! What changed between two plans (`gpuplan diff OLD NEW`, #19 part 4): per workload the GPU,
//! count, mode and TCO before and after, the totals, and the inputs that differ. A plan is read
//! from its JSON (`calc --json`, which records every input it used) or from its workbook (the
//! Plan, TCO, Assumptions and Summary tabs: the assumptions, the offers' prices and terms and
//! the input file's SHA-256 are what a workbook says of its inputs).

use crate::model::{format_number, Input, Value};
use serde::Serialize;
use std::collections::BTreeMap;

/// One workload's outcome in a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub gpu: Option<String>,
    pub gpus: Option<f64>,
    pub mode: Option<String>,
    pub tco: Option<f64>,
}

/// What a plan says of itself: outcomes by workload (in plan order), totals, inputs.
#[derive(Debug, Clone, Default)]
pub struct PlanView {
    pub workloads: Vec<(String, Outcome)>,
    pub total: Option<f64>,
    pub total_with_margin: Option<f64>,
    /// Flat input keys (`assumptions.safety_margin`, `gpus.A10 @ seed.price_on_demand`,
    /// `workloads.chat-api.context_len`, `input.sha256`) → value as text.
    pub inputs: BTreeMap<String, String>,
}

/// The inputs a plan used, as flat keys: every assumption, every offer's prices and terms, every
/// workload's given columns, and the input file's digest.
pub fn inputs(input: &Input) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    each_input(input, &mut |k, v| {
        m.insert(k, v);
    });
    m
}

/// Calls `f` with each input key and value, in a stable order (the JSON streams them so, without
/// holding a map of a large portfolio's inputs).
pub fn each_input(input: &Input, f: &mut dyn FnMut(String, String)) {
    for a in &input.assumptions.items {
        let v = match &a.value {
            Value::Number(n) => format_number(*n),
            Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
            Value::Text(t) => t.clone(),
        };
        f(format!("assumptions.{}", a.key), v);
    }
    for g in &input.gpus {
        for (k, v) in crate::model::GpuOffer::TERMS.iter().zip(g.terms()) {
            if let Some(v) = v {
                f(format!("gpus.{}.{k}", g.label()), format_number(v));
            }
        }
    }
    for w in &input.workloads {
        let mut put = |k: &str, v: String| f(format!("workloads.{}.{k}", w.name), v);
        put("kind", w.kind.key().to_string());
        if let Some(model) = &w.model {
            put("model", model.name.clone());
        }
        put("precision", w.precision.key().to_string());
        for k in crate::model::WorkloadNumbers::NAMES {
            if let Some(Some(v)) = w.numbers.get(k) {
                put(k, format_number(v));
            }
        }
        for (k, v) in [("engine", &w.engine), ("gpu", &w.gpu), ("api", &w.api)] {
            if let Some(v) = v {
                put(k, v.clone());
            }
        }
        for (k, v) in [("window", w.window), ("peak_window", w.peak_window)] {
            if let Some(v) = v {
                put(k, v.to_string());
            }
        }
    }
    if !input.sha256.is_empty() {
        f("input.sha256".into(), input.sha256.clone());
    }
}

/// The view of a plan just made (for `calc --compare`).
pub fn view_of(plan: &crate::plan::Plan) -> PlanView {
    let workloads = (0..plan.workloads.len())
        .map(|i| {
            let name = plan.input.workloads[i].name.clone();
            let outcome = match plan.chosen(i) {
                Some((c, ch)) => Outcome {
                    gpu: Some(plan.input.gpus[c.offer].label()),
                    gpus: plan.value(c, "gpus_total"),
                    mode: Some(ch.mode.key().to_string()),
                    tco: Some(ch.tco),
                },
                None => Outcome {
                    gpu: None,
                    gpus: None,
                    mode: None,
                    tco: None,
                },
            };
            (name, outcome)
        })
        .collect();
    PlanView {
        workloads,
        total: plan.total("total"),
        total_with_margin: plan.total("total_with_margin"),
        inputs: inputs(&plan.input),
    }
}

/// A plan view from a plan's JSON.
pub fn from_json(v: &serde_json::Value) -> Result<PlanView, String> {
    let ws = v["workloads"]
        .as_array()
        .ok_or("no \"workloads\" list: not a gpuplan plan's JSON (gpuplan calc --json)")?;
    let mut view = PlanView::default();
    for w in ws {
        let name = w["name"].as_str().ok_or("a workload without a name")?;
        // The offer as the workbook names it (`RTX 4090 @ provider`), so that a JSON plan and a
        // workbook compare alike.
        let gpu = w["gpu"].as_str().map(|g| match w["provider"].as_str() {
            Some(p) if !p.is_empty() => format!("{g} @ {p}"),
            _ => g.to_string(),
        });
        view.workloads.push((
            name.to_string(),
            Outcome {
                gpu,
                gpus: w["gpus_total"].as_f64(),
                mode: w["mode"].as_str().map(str::to_string),
                tco: w["tco"].as_f64(),
            },
        ));
    }
    view.total = v["totals"]["total"].as_f64();
    view.total_with_margin = v["totals"]["total_with_margin"].as_f64();
    if let Some(inputs) = v["inputs"].as_object() {
        for (k, x) in inputs {
            view.inputs.insert(
                k.clone(),
                x.as_str().map_or_else(|| x.to_string(), str::to_string),
            );
        }
    }
    Ok(view)
}

/// One workload's change.
#[derive(Debug, Clone, Serialize)]
pub struct WorkloadChange {
    pub name: String,
    pub before: Option<Outcome>,
    pub after: Option<Outcome>,
    /// After's TCO less before's (null when either has none).
    pub tco_change: Option<f64>,
}

/// One input that differs (null: absent on that side).
#[derive(Debug, Clone, Serialize)]
pub struct InputChange {
    pub key: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    pub workloads: Vec<WorkloadChange>,
    pub total_before: Option<f64>,
    pub total_after: Option<f64>,
    pub total_with_margin_before: Option<f64>,
    pub total_with_margin_after: Option<f64>,
    pub total_with_margin_change: Option<f64>,
    pub inputs_changed: Vec<InputChange>,
    /// Whether each side recorded its inputs in full (a JSON plan) or only in part (a workbook).
    pub inputs_complete: bool,
}

/// The difference between two plans: workloads in the old plan's order, then the new ones.
pub fn compare(old: &PlanView, new: &PlanView, complete: bool) -> Diff {
    let mut names: Vec<&str> = old.workloads.iter().map(|(n, _)| n.as_str()).collect();
    for (n, _) in &new.workloads {
        if !names.contains(&n.as_str()) {
            names.push(n);
        }
    }
    let find = |v: &PlanView, n: &str| {
        v.workloads
            .iter()
            .find(|(x, _)| x == n)
            .map(|(_, o)| o.clone())
    };
    let workloads = names
        .into_iter()
        .map(|n| {
            let (before, after) = (find(old, n), find(new, n));
            let tco_change = match (
                before.as_ref().and_then(|o| o.tco),
                after.as_ref().and_then(|o| o.tco),
            ) {
                (Some(a), Some(b)) => Some(b - a),
                _ => None,
            };
            WorkloadChange {
                name: n.to_string(),
                before,
                after,
                tco_change,
            }
        })
        .collect();
    let mut keys: Vec<&String> = old.inputs.keys().chain(new.inputs.keys()).collect();
    keys.sort();
    keys.dedup();
    let inputs_changed = keys
        .into_iter()
        .filter(|k| old.inputs.get(*k) != new.inputs.get(*k))
        .map(|k| InputChange {
            key: k.clone(),
            before: old.inputs.get(k).cloned(),
            after: new.inputs.get(k).cloned(),
        })
        .collect();
    Diff {
        workloads,
        total_before: old.total,
        total_after: new.total,
        total_with_margin_before: old.total_with_margin,
        total_with_margin_after: new.total_with_margin,
        total_with_margin_change: old
            .total_with_margin
            .zip(new.total_with_margin)
            .map(|(a, b)| b - a),
        inputs_changed,
        inputs_complete: complete,
    }
}

/// The terminal table of a diff.
pub fn render(d: &Diff, currency: &str) -> String {
    let money =
        |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| crate::report::money(currency, v));
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
    let mut out = crate::report::table(&rows, &[false, false, false, true, true, true]);
    out.push_str(&format!(
        "\ntotal with safety margin: {} → {} ({})\n",
        money(d.total_with_margin_before),
        money(d.total_with_margin_after),
        d.total_with_margin_change
            .map_or_else(|| "-".into(), |c| signed(currency, c))
    ));
    if d.inputs_changed.is_empty() {
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
    let m = crate::report::money(currency, v.abs());
    if v > 0.0 {
        format!("+{m}")
    } else if v < 0.0 {
        format!("−{m}")
    } else {
        m
    }
}

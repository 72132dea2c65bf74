//! The Scenarios and Ranges sheets: named sets of changes in the `--set` syntax, and what may
//! vary between which values (the Sensitivity tab). Each change is parsed here
//! (so a typo is reported at its cell with the others); the changes are applied when a scenario
//! is planned, by reading the workbook again with them (commands::calc).

use super::table::Rule;
use super::xlsx::RawSheet;
use super::{Override, Reader, Target};
use crate::error::Problem;
use crate::model::{normalize, Input, RangeDef, ScenarioDef, Value};

/// Most scenarios a workbook may name. Each is a whole plan (read, planned and kept) and five
/// columns of the Scenarios tab: 3,300 took 138 s and 3.2 GB before Excel's 16,384 columns
/// refused the tab; 200 stay near 200 MB.
pub const MAX_SCENARIOS: usize = 200;

impl Reader {
    /// The scenarios in sheet order, rows of the same name merged; none without the sheet.
    pub(super) fn scenarios(&mut self, raw: Option<RawSheet>) -> Vec<ScenarioDef> {
        let mut out: Vec<ScenarioDef> = Vec::new();
        let Some(raw) = raw else {
            return out;
        };
        let Some(t) = self.table(raw, "Scenarios") else {
            return out;
        };
        for rec in t.records() {
            let p = &mut self.problems;
            let Some(name) = rec.required_text("scenario", "the row needs a scenario name", p)
            else {
                continue;
            };
            let name = name.trim().to_string();
            let Some(change) = rec.required_text(
                "change",
                "the row needs a change, e.g. chat-api.context_len=8192",
                p,
            ) else {
                continue;
            };
            let at = rec.at("change");
            if let Err(e) = Override::parse(&change) {
                let why = e.to_string();
                let why = why.strip_prefix("--set ").unwrap_or(&why);
                p.push(Problem::new(at.clone(), why.to_string()));
                continue;
            }
            let change = change.trim().to_string();
            let full = out.len() == MAX_SCENARIOS;
            match out.iter_mut().find(|s| s.name == name) {
                Some(s) => s.changes.push((change, at)),
                None if full => {
                    p.push(Problem::new(
                        rec.at("scenario"),
                        format!("{name}: more than {MAX_SCENARIOS} scenarios; gpuplan plans at most {MAX_SCENARIOS} side by side (split the workbook, or plan the others with --set)"),
                    ));
                    break;
                }
                None => out.push(ScenarioDef {
                    name,
                    changes: vec![(change, at)],
                }),
            }
        }
        out
    }
}

impl Reader {
    /// The Ranges sheet's rows: a key in the --set syntax (no value), low ≤ likely ≤ high.
    pub(super) fn ranges(&mut self, raw: Option<RawSheet>) -> Vec<RangeDef> {
        let mut out = Vec::new();
        let Some(raw) = raw else {
            return out;
        };
        let Some(t) = self.table(raw, "Ranges") else {
            return out;
        };
        let any = Rule::at_least(f64::MIN).max(f64::MAX / 4.0);
        // Each key once: two rows of one key would both be drawn, the second silently winning.
        let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
        for rec in t.records() {
            let p = &mut self.problems;
            let Some(key) = rec.required_text("key", "the row needs a key, e.g. safety_margin", p)
            else {
                continue;
            };
            let key = key.trim().to_string();
            if key.contains('=') {
                p.push(Problem::new(
                    rec.at("key"),
                    format!("the key \"{key}\" holds a value: write the key alone (safety_margin) and the values in low and high"),
                ));
                continue;
            }
            let same = normalize(&key);
            if let Some(first) = seen.get(&same) {
                p.push(Problem::new(
                    rec.at("key"),
                    format!(
                        "the key {key} is given twice (first at {first}): give each key one row"
                    ),
                ));
                continue;
            }
            seen.insert(same, rec.at("key"));
            let low = rec.number("low", any, p);
            let high = rec.number("high", any, p);
            let likely = rec.number("likely", any, p);
            let (Some(low), Some(high)) = (low, high) else {
                if rec.raw("low").is_none() || rec.raw("high").is_none() {
                    p.push(Problem::new(
                        rec.at("low"),
                        format!("{key} needs both low and high"),
                    ));
                }
                continue;
            };
            if low > high || likely.is_some_and(|m| m < low || m > high) {
                p.push(Problem::new(
                    rec.at("low"),
                    format!(
                        "{key}: low ≤ likely ≤ high is needed, found low {low}, high {high}{}",
                        likely.map_or(String::new(), |m| format!(", likely {m}"))
                    ),
                ));
                continue;
            }
            out.push(RangeDef {
                key,
                low,
                high,
                likely,
                cell: rec.at("key"),
            });
        }
        out
    }
}

/// Sets `key` (the --set syntax without the value) to the number `v` in an input already read,
/// as `--set key=v` would have: a numeric assumption, a numeric GPU column of the matching
/// offers, or a numeric Workloads column of the matching workloads (`*` for all). Returns
/// whether the value must be a whole number, or why the key cannot vary.
pub fn set_number(input: &mut Input, key: &str, v: f64) -> Result<(), String> {
    let o = Override::parse(&format!("{key}={v}")).map_err(|e| e.to_string())?;
    match &o.target {
        Target::Assumption => {
            let items = &mut input.assumptions.items;
            let Some(i) = items.iter().position(|a| a.key == o.key) else {
                let hint = crate::suggest::hint(&o.key, items.iter().map(|a| a.key.as_str()));
                return Err(format!("{} is not an assumption{hint}", o.key));
            };
            let a = &mut items[i];
            match a.value {
                Value::Number(_) => a.value = Value::Number(v),
                _ => return Err(format!("{} is not a number", o.key)),
            }
        }
        Target::Gpu(name) => {
            let mut any = false;
            let n = normalize(name);
            for g in input
                .gpus
                .iter_mut()
                .filter(|g| name == "*" || g.is_named(&n))
            {
                any = true;
                if !super::gpus::set_numeric(g, &o.key, v) {
                    return Err(format!("{} is not a numeric GPU column", o.key));
                }
            }
            if !any {
                return Err(format!("there is no GPU offer \"{name}\""));
            }
        }
        Target::Workload(name) => {
            let mut any = false;
            for w in input
                .workloads
                .iter_mut()
                .filter(|w| name == "*" || &w.name == name)
            {
                any = true;
                match w.numbers.get_mut(&o.key) {
                    Some(slot) => *slot = Some(v),
                    None => {
                        let hint = crate::suggest::hint(
                            &o.key,
                            crate::model::WorkloadNumbers::NAMES.iter().copied(),
                        );
                        return Err(format!("{} is not a numeric workload column{hint}", o.key));
                    }
                }
            }
            if !any {
                return Err(format!("there is no workload named \"{name}\""));
            }
        }
    }
    Ok(())
}

/// Whether `v` is a value `key` may take (the rule its sheet's cells follow), and whether the
/// values of `key` are whole numbers (a concurrency, a context length).
pub fn value_rule(key: &str, v: f64) -> (Result<(), String>, bool) {
    let Ok(o) = Override::parse(&format!("{key}=0")) else {
        return (
            Err(format!("{key} is not a key of the --set syntax")),
            false,
        );
    };
    let rule = match o.target {
        Target::Assumption => super::assumptions::assumption_rule(&o.key),
        Target::Gpu(_) => super::gpus::gpu_rule(&o.key),
        Target::Workload(_) => super::workloads::number_rule(&o.key),
    };
    let ok = if rule.accepts(v) {
        Ok(())
    } else {
        Err(format!(
            "{} must be {}, found {}",
            o.key,
            rule.describe(),
            crate::model::format_number(v)
        ))
    };
    (ok, rule.integer)
}

//! The Scenarios and Ranges sheets: named sets of changes in the `--set` syntax, and what may
//! vary between which values (the Sensitivity tab). Each change and each key is parsed here, once
//! (so a typo is reported at its cell with the others); a scenario's changes are applied when it
//! is planned, as the parsed sheets are typed again with them ([`super::Book::input`]).

use super::table::{Record, Rule};
use super::xlsx::RawSheet;
use super::Reader;
use crate::error::Problem;
use crate::model::change::{parse_key, Change, Target};
use crate::model::{normalize, RangeDef, ScenarioDef};

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
            let change = match Change::parse(&change) {
                Ok(c) => c.at(at),
                Err(e) => {
                    let why = e.to_string();
                    let why = why.strip_prefix("--set ").unwrap_or(&why);
                    p.push(Problem::new(at, why.to_string()));
                    continue;
                }
            };
            let full = out.len() == MAX_SCENARIOS;
            match out.iter_mut().find(|s| s.name == name) {
                Some(s) => s.changes.push(change),
                None if full => {
                    p.push(Problem::new(
                        rec.at("scenario"),
                        format!("{name}: more than {MAX_SCENARIOS} scenarios; gpuplan plans at most {MAX_SCENARIOS} side by side (split the workbook, or plan the others with --set)"),
                    ));
                    break;
                }
                None => out.push(ScenarioDef {
                    name,
                    changes: vec![change],
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
            let Some((key, target, column)) = range_key(&rec, &mut seen, p) else {
                continue;
            };
            if let Some(range) = range_of(&rec, key, target, column, any, p) {
                out.push(range);
            }
        }
        out
    }
}

/// A Ranges row's key, read and checked: written alone (no value), once in the sheet (`seen`
/// holds each key's first cell), and one that can vary; with what it sets.
fn range_key(
    rec: &Record,
    seen: &mut std::collections::HashMap<String, String>,
    p: &mut Vec<Problem>,
) -> Option<(String, Target, String)> {
    let key = rec.required_text("key", "the row needs a key, e.g. safety_margin", p)?;
    let key = key.trim().to_string();
    if key.contains('=') {
        p.push(Problem::new(
            rec.at("key"),
            format!("the key \"{key}\" holds a value: write the key alone (safety_margin) and the values in low and high"),
        ));
        return None;
    }
    let same = normalize(&key);
    if let Some(first) = seen.get(&same) {
        p.push(Problem::new(
            rec.at("key"),
            format!("the key {key} is given twice (first at {first}): give each key one row"),
        ));
        return None;
    }
    seen.insert(same, rec.at("key"));
    let (target, column) = parse_key(&key);
    if let Some(why) = cannot_vary(&target, &column) {
        p.push(Problem::new(rec.at("key"), why));
        return None;
    }
    Some((key, target, column))
}

/// A Ranges row's values for `key`, read and checked: low ≤ likely ≤ high, each one its column
/// accepts (`any` the rule of a value before its column's); `None` when they cannot be drawn.
fn range_of(
    rec: &Record,
    key: String,
    target: Target,
    column: String,
    any: Rule,
    p: &mut Vec<Problem>,
) -> Option<RangeDef> {
    // Each key's values must be ones its column accepts; whole-number columns are
    // sampled in whole numbers. A percentage is read only for a share.
    let rule = column_rule(&target, &column);
    let any = any.in_unit(rule.unit);
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
        return None;
    };
    if low > high || likely.is_some_and(|m| m < low || m > high) {
        p.push(Problem::new(
            rec.at("low"),
            format!(
                "{key}: low ≤ likely ≤ high is needed, found low {low}, high {high}{}",
                likely.map_or(String::new(), |m| format!(", likely {m}"))
            ),
        ));
        return None;
    }
    for v in [low, high].into_iter().filter(|v| !rule.accepts(*v)) {
        p.push(Problem::new(
            rec.at("key"),
            format!(
                "{column} must be {}, found {}",
                rule.describe(),
                crate::model::format_number(v)
            ),
        ));
    }
    Some(RangeDef {
        key,
        target,
        column,
        whole: rule.integer,
        low,
        high,
        likely,
        cell: rec.at("key"),
    })
}

/// Why a built-in assumption cannot be a Ranges key, where it cannot: it holds no number to
/// draw (yes/no, a month, a currency), or, for `budget_monthly`, it is the ceiling the plan is
/// held to and no cost of it, so the budget the Sensitivity tab samples would not move (#44 item
/// 9: it was refused at sampling as "not a number", which it is).
fn cannot_vary(target: &Target, column: &str) -> Option<String> {
    if *target != Target::Assumption || crate::catalog::assumption_number(column).is_some() {
        return None;
    }
    // Not an assumption: a Workloads or GPUs column named without its row is said so.
    let Some(unit) = crate::catalog::assumption_unit(column) else {
        return super::assumptions::row_column(column, "");
    };
    match (column, unit) {
        ("budget_monthly", _) => Some(
            "budget_monthly cannot vary in Ranges: it is the ceiling the plan is held to, not one of its costs, so the budget the Sensitivity tab samples (the total with safety margin) is the same at any value of it; to compare ceilings, give each a Scenarios row (budget_monthly=15000), whose cuts the Scenarios tab lists".to_string(),
        ),
        (_, "yes/no") => Some(format!(
            "{column} is yes or no, not a number: only a number can vary in Ranges (compare yes and no with a Scenarios row, {column}=no)"
        )),
        (_, "month") => Some(format!(
            "{column} is a month, not a number: only a number can vary in Ranges"
        )),
        _ => Some(format!(
            "{column} is text, not a number: only a number can vary in Ranges"
        )),
    }
}

/// The rule the cells of `column` of `target` follow: its bounds, and whether it holds whole
/// numbers (a concurrency, a context length).
fn column_rule(target: &Target, column: &str) -> Rule {
    match target {
        Target::Assumption => super::assumptions::assumption_rule(column),
        Target::Gpu(_) => super::gpus::gpu_rule(column),
        Target::Workload(_) => super::workloads::number_rule(column),
    }
}

//! The Assumptions sheet: each key typed like its default, the rest taken from the defaults,
//! and `--set key=value`.

use super::table::{
    found, is_percent, parse_bool, raw_number, raw_text, Record, Rule, Table, Unit,
};
use super::xlsx::{Raw, RawSheet};
use super::Reader;
use crate::catalog;
use crate::error::Problem;
use crate::labels::Label;
use crate::lang::Lang;
use crate::model::change::{Change, Op, Target};
use crate::model::{Assumption, Assumptions, Source, Value, Warning};

impl Reader {
    /// The Assumptions sheet's rows, the defaults for the keys it lacks, then each
    /// `--set key=value`; a warning for each share above 100%.
    pub(super) fn assumptions(&mut self, raw: Option<RawSheet>, changes: &[Change]) -> Assumptions {
        let defaults = catalog::assumptions(Lang::En);
        let mut items: Vec<Assumption> = Vec::new();
        match raw {
            None => self.defaulted("Assumptions", Label::new("assumptions", "参数")),
            Some(raw) => {
                if let Some(t) = self.table_with(raw, "Assumptions", &["key", "value"]) {
                    items = self.sheet_assumptions(&t, &defaults);
                }
            }
        }
        for d in &defaults.items {
            if !items.iter().any(|a| a.key == d.key) {
                items.push(d.clone());
            }
        }
        for o in changes.iter().filter(|o| o.target == Target::Assumption) {
            self.apply_assumption_change(&mut items, &defaults, o);
        }
        for a in &items {
            if let (true, Value::Number(v)) = (SHARES.contains(&a.key.as_str()), &a.value) {
                if *v > 1.0 {
                    self.notices.push(super::workloads::share_warning(
                        &a.source.to_string(),
                        &a.key,
                        *v,
                    ));
                }
            }
        }
        Assumptions { items }
    }

    /// The sheet's assumptions in row order, with a note naming the defaults it lacks.
    fn sheet_assumptions(&mut self, t: &Table, defaults: &Assumptions) -> Vec<Assumption> {
        let mut items: Vec<Assumption> = Vec::new();
        let mut updated: Vec<(Assumption, Value)> = Vec::new();
        for rec in t.records() {
            if let Some(mut a) = self.sheet_assumption(&rec, &items, defaults) {
                // A template of an earlier gpuplan wrote that version's default: not a choice.
                // (templates/assumptions.earlier.tsv holds none of today's values.)
                if let Some(d) = defaults.get(&a.key) {
                    if catalog::earlier_assumption(&a.key, &a.value) {
                        updated.push((a.clone(), d.value.clone()));
                        a.value = d.value.clone();
                        a.source = Source::Default;
                    }
                }
                items.push(a);
            }
        }
        if !updated.is_empty() {
            self.notices.push(earlier_defaults(&t.sheet, &updated));
        }
        let missing: Vec<&str> = defaults
            .items
            .iter()
            .map(|d| d.key.as_str())
            .filter(|k| !items.iter().any(|a| a.key == *k))
            // The approval fields have no default to take: absent, they are left out.
            .filter(|k| {
                !crate::labels::layout::APPROVAL_FIELDS
                    .iter()
                    .any(|(f, _)| f == k)
            })
            .collect();
        if !missing.is_empty() {
            self.notices.push(
                Warning::info(
                    t.sheet.clone(),
                    format!(
                        "taken from the defaults (not in the sheet): {}",
                        missing.join(", ")
                    ),
                )
                .with_zh(format!(
                    "以下参数不在表中，采用默认值：{}",
                    missing.join("、")
                )),
            );
        }
        items
    }

    /// One row of the sheet: its key (once only), its value typed like the default, and its
    /// unit and note (the default's where blank); `None` with a problem recorded.
    fn sheet_assumption(
        &mut self,
        rec: &Record,
        items: &[Assumption],
        defaults: &Assumptions,
    ) -> Option<Assumption> {
        let key = rec.required_text("key", "the assumption needs a key", &mut self.problems)?;
        let key = key.trim().to_string();
        if items.iter().any(|a| a.key == key) {
            self.problems.push(Problem::new(
                rec.at("key"),
                format!("the assumption {key} is listed twice"),
            ));
            return None;
        }
        let cell = rec.cell("value");
        let value = match rec.raw("value") {
            // Blank is a value of its own where the default is blank: the month after the plan
            // is made (plan_start), the Year tab's first month (budget_month), no budget
            // (budget_monthly), an approval field left out (requester, cost_centre, …).
            None if defaults
                .get(&key)
                .is_some_and(|d| matches!(&d.value, Value::Text(t) if t.is_empty())) =>
            {
                Value::Text(String::new())
            }
            None => {
                self.problems.push(Problem::new(
                    cell.to_string(),
                    format!("{key} has no value"),
                ));
                return None;
            }
            Some(raw) => match assumption_value(&key, raw, defaults.get(&key).map(|d| &d.value)) {
                Ok(v) => v,
                Err(msg) => {
                    self.problems.push(Problem::new(cell.to_string(), msg));
                    return None;
                }
            },
        };
        let default = defaults.get(&key);
        Some(Assumption {
            key: key.clone(),
            value,
            unit: rec
                .text("unit", &mut self.problems)
                .or(default.map(|d| d.unit.clone()))
                .unwrap_or_default(),
            note: rec
                .text("note", &mut self.problems)
                .or(default.map(|d| d.note.clone()))
                .unwrap_or_default(),
            source: Source::Sheet(cell.to_string()),
        })
    }

    /// One `--set key=value` (or `key*=factor`): the assumption's new value, typed like its
    /// default, or a new assumption of the user's own; a problem where the value does not fit.
    fn apply_assumption_change(
        &mut self,
        items: &mut Vec<Assumption>,
        defaults: &Assumptions,
        o: &Change,
    ) {
        let default = defaults.get(&o.key).map(|d| d.value.clone());
        // A column of the Workloads or GPUs sheet named without its row (lora_rank=64).
        if default.is_none() {
            if let Some(why) = row_column(&o.key, &o.op_text()) {
                self.problems.push(Problem::new(o.shown(), why));
                return;
            }
        }
        let raw = match &o.op {
            Op::Scale(f) => match items.iter().find(|a| a.key == o.key).map(|a| &a.value) {
                Some(Value::Number(v)) => Raw::Number(v * f),
                _ => {
                    self.problems.push(Problem::new(
                        o.shown(),
                        format!("{} is not a number that a relative change can scale", o.key),
                    ));
                    return;
                }
            },
            Op::Set(v) => Raw::Text(v.clone()),
        };
        match assumption_value(&o.key, &raw, default.as_ref()) {
            Ok(value) => match items.iter_mut().find(|a| a.key == o.key) {
                Some(a) => {
                    a.value = value;
                    a.source = Source::Set;
                }
                None => items.push(Assumption {
                    key: o.key.clone(),
                    value,
                    unit: String::new(),
                    note: String::new(),
                    source: Source::Set,
                }),
            },
            Err(msg) => self.problems.push(Problem::new(o.shown(), msg)),
        }
    }
}

/// Why `key`, a column of the Workloads or GPUs sheet, is not an assumption, and how to write
/// it for every row or one (`rest` follows the key: `=64`, `*=1.2`, or nothing in Ranges).
pub(super) fn row_column(key: &str, rest: &str) -> Option<String> {
    let (sheet, prefix, one) = [("Workloads", "", "workload"), ("GPUs", "gpu:", "GPU")]
        .into_iter()
        .find(|(sheet, _, _)| catalog::column(sheet, key).is_some())?;
    Some(format!(
        "{key} is a column of the {sheet} sheet, not an assumption: write {prefix}*.{key}{rest} \
         for every {one}, or {prefix}NAME.{key}{rest} for one"
    ))
}

/// Assumptions that are shares, where a value above 1 is more likely a percentage typed as a
/// whole number (5 for 5%) than meant.
const SHARES: [&str; 5] = [
    "redundancy_online",
    "redundancy_offline",
    "spot_rework",
    "trial_reserve",
    "safety_margin",
];

/// Sets one assumption from text outside a workbook (a validation row's settings), typed and
/// range-checked as the Assumptions sheet would be; only keys that already exist are accepted.
pub fn set_assumption(assumptions: &mut Assumptions, key: &str, text: &str) -> Result<(), String> {
    let a = assumptions
        .items
        .iter_mut()
        .find(|a| a.key == key)
        .ok_or_else(|| format!("{key} is not an assumption"))?;
    a.value = assumption_value(key, &Raw::Text(text.to_string()), Some(&a.value))?;
    a.source = Source::Set;
    Ok(())
}

/// The allowed range of each numeric default assumption, in its unit (templates/assumptions.tsv):
/// a percentage is read only where the unit is a share.
pub(crate) fn assumption_rule(key: &str) -> Rule {
    let unit = catalog::assumption_unit(key).map_or(Unit::Any, Unit::of_assumption);
    assumption_range(key).in_unit(unit)
}

/// The allowed range of each numeric default assumption.
fn assumption_range(key: &str) -> Rule {
    match key {
        "hours_in_month" => Rule::range(1.0, 744.0),
        "vram_headroom"
        | "monthly_min_utilization"
        | "gpu_memory_utilization"
        | "kv_free_fraction"
        | "usage_active_threshold"
        | "vat_rate" => Rule::range(0.0, 1.0),
        "bandwidth_efficiency" | "mfu" | "prefill_mfu" => Rule::positive().max(1.0),
        // 0: counted from the model's shapes (lora_params_b).
        "lora_trainable_fraction" => Rule::range(0.0, 1.0),
        "redundancy_online" | "redundancy_offline" | "spot_rework" | "trial_reserve"
        | "safety_margin" => Rule::range(0.0, 10.0),
        "cold_start_min" => Rule::range(0.0, 1440.0),
        "runtime_overhead_gib" | "inference_activation_gib" => Rule::range(0.0, 10_000.0),
        "prefill_layer_us" | "prefill_call_us" | "eager_layer_us" | "eager_expert_us" => {
            Rule::range(0.0, 1_000_000.0)
        }
        "prefill_chunk_tokens" | "large_gpu_prefill_chunk_tokens" => Rule::range(0.0, 10_000_000.0),
        "optimizer_bytes_per_param" => Rule::range(0.0, 64.0),
        "zero_stage" => Rule::whole(0.0, 3.0),
        "zero_bucket_elems" | "zero3_bucket_elems" | "zero_subgroup_elems" => {
            Rule::whole(0.0, 1e11)
        }
        "zero_step_bytes" => Rule::range(0.0, 64.0),
        "kv_cache_copies" => Rule::range(1.0, 8.0),
        _ => Rule::at_least(0.0).max(1e12),
    }
}

/// The longest approval field (requester, cost centre, budget period, approver): one printed
/// line.
const MAX_APPROVAL_CHARS: usize = 120;

/// The notice for Assumptions rows that held an earlier gpuplan's default, planned with today's:
/// each key with the sheet's figure, its cell and today's figure.
fn earlier_defaults(sheet: &str, updated: &[(Assumption, Value)]) -> Warning {
    let list = |sep: &str, say: fn(&Assumption, &Value) -> String| {
        let each: Vec<String> = updated.iter().map(|(a, now)| say(a, now)).collect();
        each.join(sep)
    };
    let n = updated.len();
    Warning::info(
        sheet,
        format!(
            "{n} value(s) are an earlier gpuplan's default, not a choice ({}): planned with this version's; the sheet is not changed (`gpuplan init` writes today's assumptions; to keep an earlier figure, give it with --set or in an engine profile of the Engines sheet)",
            list("; ", |a, now| format!("{} {} at {}, today {now}", a.key, a.value, a.source))
        ),
    )
    .with_zh(format!(
        "{n} 个参数值是旧版 gpuplan 的默认值而非选择（{}）：已按本版默认值计算；表格未修改（`gpuplan init` 写出本版参数；如需保留旧值，请用 --set 或在引擎表的引擎配置中设置）",
        list("；", |a, now| format!("{} {}（{}），本版 {now}", a.key, a.value, a.source))
    ))
}

/// An assumption's value, typed like its default (or as a number or yes/no for a user's own key).
pub(super) fn assumption_value(
    key: &str,
    raw: &Raw,
    default: Option<&Value>,
) -> Result<Value, String> {
    match default {
        Some(Value::Text(_)) if key == "plan_start" || key == "budget_month" => {
            month_value(key, raw)
        }
        Some(Value::Text(_)) if key == "budget_monthly" => budget_value(key, raw),
        // The approval fields: free text, a date as a date (a budget period typed 2027-01-01).
        Some(Value::Text(_))
            if crate::labels::layout::APPROVAL_FIELDS
                .iter()
                .any(|(k, _)| *k == key) =>
        {
            approval_value(key, raw)
        }
        Some(Value::Text(_)) if key == "cut_order" => cut_order_value(key, raw),
        Some(Value::Text(_)) => currency_value(key, raw),
        Some(Value::Bool(_)) => parse_bool(raw)
            .map(Value::Bool)
            .ok_or_else(|| format!("{key} must be yes or no, found {}", found(raw))),
        Some(Value::Number(_)) => {
            let rule = assumption_rule(key);
            match rule.read(raw) {
                Some(v) if rule.accepts(v) => Ok(Value::Number(v)),
                _ => Err(rule.refusal(key, raw).en),
            }
        }
        None => own_value(key, raw),
    }
}

/// plan_start or budget_month: a month (YYYY-MM, or a date).
fn month_value(key: &str, raw: &Raw) -> Result<Value, String> {
    let month = match raw {
        Raw::Date(d) => crate::model::Month::parse(&crate::support::time::serial_date(*d)),
        other => crate::model::Month::parse(&raw_text(other)),
    };
    month.map(|m| Value::Text(m.to_string())).ok_or_else(|| {
        format!(
            "{key} must be a month as YYYY-MM (or a date), or blank for {}, found {}",
            if key == "plan_start" {
                "the month after the plan is made"
            } else {
                "the Year tab's first month (plan_start)"
            },
            found(raw)
        )
    })
}

/// budget_monthly: an amount a month, 0 or more (no percentage: the unit is money).
fn budget_value(key: &str, raw: &Raw) -> Result<Value, String> {
    match assumption_rule(key).read(raw) {
        Some(v) if v >= 0.0 && v.is_finite() => Ok(Value::Number(v)),
        // `20%` is no budget of 0.20 (#44 item 2): the unit is money.
        _ if is_percent(raw) => Err(format!(
            "{key} is in money (the plan's currency), not a percentage: write an amount a month (0 or more), or blank for no budget, found {}",
            found(raw)
        )),
        _ => Err(format!(
            "{key} must be an amount a month (0 or more), or blank for no budget, found {}",
            found(raw)
        )),
    }
}

/// An approval field: a line of text of at most [`MAX_APPROVAL_CHARS`] characters.
fn approval_value(key: &str, raw: &Raw) -> Result<Value, String> {
    let t = match raw {
        Raw::Date(d) => crate::support::time::serial_date(*d),
        other => raw_text(other),
    };
    if t.chars().count() > MAX_APPROVAL_CHARS || t.chars().any(char::is_control) {
        Err(format!(
            "{key} is a line of text of at most {MAX_APPROVAL_CHARS} characters, printed at the top of the Summary (a name, a team, a code), found {} characters{}",
            t.chars().count(),
            if t.chars().any(char::is_control) { " with a line break or control character" } else { "" }
        ))
    } else {
        Ok(Value::Text(t))
    }
}

/// cut_order: the cuts from least to most harm, as the canonical text.
fn cut_order_value(key: &str, raw: &Raw) -> Result<Value, String> {
    crate::model::CutAction::parse_order(&raw_text(raw))
        .map(|order| Value::Text(crate::model::CutAction::order_text(&order)))
        .map_err(|e| {
            format!(
                "{key} lists the cuts from least to most harm ({}): {e}, found {}",
                crate::model::CutAction::order_text(&crate::model::CutAction::ALL),
                found(raw)
            )
        })
}

/// The currency: a three-letter code, the usual symbols and names read as theirs.
fn currency_value(key: &str, raw: &Raw) -> Result<Value, String> {
    let t = raw_text(raw);
    let t = match t.as_str() {
        "¥" | "￥" | "元" | "RMB" | "rmb" => "CNY".to_string(),
        "$" => "USD".to_string(),
        "€" => "EUR".to_string(),
        other => other.trim().to_uppercase(),
    };
    if t.len() == 3 && t.chars().all(|c| c.is_ascii_alphabetic()) {
        Ok(Value::Text(t))
    } else {
        Err(format!(
            "{key} must be a currency code such as CNY, USD or EUR, found {}",
            found(raw)
        ))
    }
}

/// A user's own key: a formula variable, a number or yes/no.
fn own_value(key: &str, raw: &Raw) -> Result<Value, String> {
    if !crate::formula::is_identifier(key) {
        return Err(format!("`{key}` is not a usable assumption key: use letters, digits and _ (it becomes a formula variable)"));
    }
    if let Some(v) = raw_number(raw) {
        return Ok(Value::Number(v));
    }
    parse_bool(raw).map(Value::Bool).ok_or_else(|| {
        format!(
            "{key} must be a number or yes/no (it becomes a formula variable), found {}",
            found(raw)
        )
    })
}

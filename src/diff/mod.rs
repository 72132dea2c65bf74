//! What changed between two plans (`gpuplan diff OLD NEW`, #19 part 4): per workload the GPU,
//! count, mode and TCO before and after, the totals, and the inputs that differ. A plan is read
//! from its JSON (`calc --json`, which records every input it used) or from its workbook (the
//! Plan, TCO, Assumptions and Summary tabs: the assumptions, the offers' prices and terms and
//! the input file's SHA-256 are what a workbook says of its inputs).

mod plan_book;
pub use plan_book::plan_view;

use crate::labels::{Label, Said};
use crate::model::{format_number, Input, Value};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One workload's outcome in a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The chosen GPU offer's label, `GPU @ provider` (or the GPU alone without a
    /// provider); `None` where the workload went unplanned.
    pub gpu: Option<String>,
    /// The plan's `gpus_total` for the workload: instances × GPUs per replica.
    pub gpus: Option<f64>,
    /// The chosen billing mode's key (`on_demand`, `monthly`, `spot`, `reserved`, ...),
    /// whichever language the plan was written in.
    pub mode: Option<String>,
    /// The workload's monthly total cost of ownership on the chosen offer and mode, in the
    /// plan's currency (serialised to the cent).
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub tco: Option<f64>,
}

/// The cuts a plan lists over its budget ceiling: how many, and whether they bring it within.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CutsView {
    /// How many cuts the plan lists.
    pub count: usize,
    /// Whether the listed cuts bring the plan within its budget ceiling.
    pub met: bool,
}

impl CutsView {
    /// The cuts a plan lists, in words (`none` when it lists none): how many, and whether they
    /// meet its ceiling.
    pub fn said(c: Option<CutsView>) -> Said {
        let Some(c) = c else {
            return Label::new("none", "无").into();
        };
        let (met_en, met_zh) = if c.met {
            ("within the ceiling after them", "执行后在上限以内")
        } else {
            ("still over the ceiling after them", "执行后仍超出上限")
        };
        let cuts = if c.count == 1 { "cut" } else { "cuts" };
        Said::new(
            format!("{} {cuts}, {met_en}", c.count),
            format!("{} 条，{met_zh}", c.count),
        )
    }
}

/// What a plan says of itself: outcomes by workload (in plan order), totals, inputs.
#[derive(Debug, Clone, Default)]
pub struct PlanView {
    /// Each workload's name and outcome, in the plan's order.
    pub workloads: Vec<(String, Outcome)>,
    /// The portfolio's monthly total (workloads' TCO plus trial reserve and ops) before
    /// the safety margin, in the plan's currency; `None` where the plan does not record it.
    pub total: Option<f64>,
    /// The monthly total with the safety margin added, in the plan's currency.
    pub total_with_margin: Option<f64>,
    /// The budget with the fleet: the total with safety margin less the fleet's saving (the
    /// total with margin itself where nothing shares, as in a plan made before the fleet).
    pub budget_with_fleet: Option<f64>,
    /// The cuts the plan lists over its ceiling; `None` where it lists none (no ceiling, or
    /// within it).
    pub cuts: Option<CutsView>,
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
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    for a in &input.assumptions.items {
        let v = match &a.value {
            Value::Number(n) => format_number(*n),
            Value::Bool(b) => yes_no(*b),
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
        // Not among the priced terms, yet each changes the plan: the reserved commitment's
        // months and whether the offer may be chosen at all.
        if let Some(m) = g.reserved_term_months {
            f(
                format!("gpus.{}.reserved_term_months", g.label()),
                format_number(m),
            );
        }
        f(format!("gpus.{}.available", g.label()), yes_no(g.available));
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
        // The yes/no columns (`--set chat-api.online=no` changes the plan as a number does).
        put("online", yes_no(w.online));
        put("spot_ok", yes_no(w.spot_ok));
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
    let total_with_margin = plan.total("total_with_margin");
    PlanView {
        workloads,
        total: plan.total("total"),
        total_with_margin,
        // Through plan.fleet's budget and plan.cuts' met and cuts only.
        budget_with_fleet: plan.fleet.as_ref().map(|f| f.budget).or(total_with_margin),
        cuts: plan.cuts.as_ref().map(|c| CutsView {
            count: c.cuts.len(),
            met: c.met,
        }),
        inputs: inputs(&plan.input),
    }
}

/// What `gpuplan diff` reads of a plan's JSON: only these fields are kept (the rest is skipped
/// as it is parsed), so a large or hostile file costs its own size, not a JSON tree's many times
/// that.
#[derive(serde::Deserialize)]
struct JsonPlan {
    gpuplan_version: Option<String>,
    #[serde(default, deserialize_with = "bounded_list")]
    workloads: Option<Vec<JsonWorkload>>,
    #[serde(default)]
    totals: JsonTotals,
    currency: Option<String>,
    #[serde(default, deserialize_with = "bounded_inputs")]
    inputs: Option<BTreeMap<String, String>>,
    #[serde(default)]
    fleet: Option<JsonFleet>,
    #[serde(default)]
    cuts: Option<JsonCuts>,
}

/// Of a plan's `fleet`, the budget with it.
#[derive(serde::Deserialize)]
struct JsonFleet {
    budget: Option<f64>,
}

/// Of a plan's `cuts`, whether they meet the ceiling and how many there are (each is skipped
/// as it is read).
#[derive(serde::Deserialize)]
struct JsonCuts {
    #[serde(default)]
    met: bool,
    #[serde(default, deserialize_with = "bounded_count")]
    cuts: usize,
}

/// The length of a list whose items are not kept, refused past [`MAX_JSON_WORKLOADS`] (a plan
/// lists at most one cut a workload).
fn bounded_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = usize;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a list")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<usize, A::Error> {
            let mut n = 0;
            while a.next_element::<serde::de::IgnoredAny>()?.is_some() {
                n += 1;
                if n > MAX_JSON_WORKLOADS {
                    return Err(serde::de::Error::custom(format!(
                        "more than {MAX_JSON_WORKLOADS} cuts"
                    )));
                }
            }
            Ok(n)
        }
    }
    d.deserialize_seq(V)
}

/// Most workloads a plan's JSON may list: a workbook's rows.
pub const MAX_JSON_WORKLOADS: usize = crate::read::MAX_ROWS as usize;
/// Most input keys a plan's JSON may record: some 20 a workload, for the 40,000 or so workloads
/// whose JSON fits the 256 MB a JSON may have (two at this bound compare in about 400 MB).
pub const MAX_JSON_INPUTS: usize = 1_000_000;

/// The workloads list, refused past [`MAX_JSON_WORKLOADS`] as it is read.
fn bounded_list<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Vec<JsonWorkload>>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Option<Vec<JsonWorkload>>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a list of workloads")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut a: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(w) = a.next_element()? {
                if out.len() == MAX_JSON_WORKLOADS {
                    return Err(serde::de::Error::custom(format!(
                        "more than {MAX_JSON_WORKLOADS} workloads"
                    )));
                }
                out.push(w);
            }
            Ok(Some(out))
        }
    }
    d.deserialize_seq(V)
}

/// The inputs, each value as text, refused past [`MAX_JSON_INPUTS`] as they are read.
fn bounded_inputs<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<BTreeMap<String, String>>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Option<BTreeMap<String, String>>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "an object of inputs")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut a: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((k, v)) = a.next_entry::<String, Scalar>()? {
                if out.len() == MAX_JSON_INPUTS {
                    return Err(serde::de::Error::custom(format!(
                        "more than {MAX_JSON_INPUTS} inputs"
                    )));
                }
                out.insert(k, v.0);
            }
            Ok(Some(out))
        }
    }
    d.deserialize_map(V)
}

/// An input's value: a string, a number or a yes/no, as text (gpuplan writes no other).
struct Scalar(String);

impl<'de> serde::Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "a text, a number or true/false")
            }
            fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar(format_number(v)))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar(v.to_string()))
            }
            fn visit_unit<E>(self) -> Result<Scalar, E> {
                Ok(Scalar(String::new()))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(serde::Deserialize)]
struct JsonWorkload {
    name: Option<String>,
    gpu: Option<String>,
    provider: Option<String>,
    gpus_total: Option<f64>,
    mode: Option<String>,
    tco: Option<f64>,
}

#[derive(serde::Deserialize, Default)]
struct JsonTotals {
    total: Option<f64>,
    total_with_margin: Option<f64>,
}

/// `major.minor.patch` as numbers, for comparing versions.
fn version_of(v: &str) -> Option<(u64, u64, u64)> {
    let mut parts = v.split(['.', '-', '+']).map(|p| p.parse::<u64>().ok());
    Some((parts.next()??, parts.next()??, parts.next()??))
}

/// A plan view from a plan's JSON, with its currency and whether it records its inputs (a JSON
/// without `inputs` does not). A JSON from a newer gpuplan is refused: its keys may mean other
/// things.
pub fn from_json(reader: impl std::io::Read) -> Result<(PlanView, String, bool), String> {
    let p: JsonPlan = serde_json::from_reader(std::io::BufReader::new(reader))
        .map_err(|e| format!("not a gpuplan plan's JSON (gpuplan calc --json): {e}"))?;
    let (Some(version), Some(ws)) = (&p.gpuplan_version, p.workloads) else {
        return Err("no \"gpuplan_version\" or no \"workloads\" list: not a gpuplan plan's JSON (gpuplan calc --json)".into());
    };
    let ours = env!("CARGO_PKG_VERSION");
    match (version_of(version), version_of(ours)) {
        (Some(theirs), Some(mine)) if theirs <= mine => {}
        (Some(_), _) => {
            return Err(format!(
                "written by gpuplan {version}, newer than this gpuplan {ours}: its keys may mean other things; compare it with gpuplan {version} or later"
            ))
        }
        (None, _) => {
            return Err(format!(
                "\"gpuplan_version\" is {version:?}, not a version (MAJOR.MINOR.PATCH): not a gpuplan plan's JSON"
            ))
        }
    }
    let mut view = PlanView::default();
    for w in ws {
        let name = w.name.ok_or("a workload without a name")?;
        // The offer as the workbook names it (`RTX 4090 @ provider`), so that a JSON plan and a
        // workbook compare alike.
        let gpu = w.gpu.map(|g| match w.provider.as_deref() {
            Some(p) if !p.is_empty() => format!("{g} @ {p}"),
            _ => g,
        });
        view.workloads.push((
            name,
            Outcome {
                gpu,
                gpus: w.gpus_total,
                mode: w.mode,
                tco: w.tco,
            },
        ));
    }
    view.total = p.totals.total;
    view.total_with_margin = p.totals.total_with_margin;
    // A plan without `fleet` (null, or from before the fleet) shares nothing.
    view.budget_with_fleet = p
        .fleet
        .and_then(|f| f.budget)
        .or(p.totals.total_with_margin);
    view.cuts = p.cuts.map(|c| CutsView {
        count: c.cuts,
        met: c.met,
    });
    let complete = p.inputs.is_some();
    view.inputs = p.inputs.unwrap_or_default();
    let currency = p.currency.unwrap_or_else(|| "CNY".to_string());
    Ok((view, currency, complete))
}

/// An input's value as compared: yes/no whatever the language or spelling the plan wrote it in
/// (a Chinese workbook says 是/否), and an empty value as none.
fn normal(v: Option<&String>) -> Option<String> {
    let t = v?.trim();
    Some(match t.to_lowercase().as_str() {
        "" => return None,
        "yes" | "true" | "是" => "yes".to_string(),
        "no" | "false" | "否" => "no".to_string(),
        _ => t.to_string(),
    })
}

/// A plan's budget ceiling, from the Assumption budget_monthly it records (blank: none).
fn ceiling(v: &PlanView) -> Option<f64> {
    normal(v.inputs.get("assumptions.budget_monthly"))?
        .parse::<f64>()
        .ok()
        .filter(|b| b.is_finite())
}

/// One workload's change.
#[derive(Debug, Clone, Serialize)]
pub struct WorkloadChange {
    /// The workload's name, as in the plan that lists it.
    pub name: String,
    /// Its outcome in the old plan; `None` where the old plan does not list it.
    pub before: Option<Outcome>,
    /// Its outcome in the new plan; `None` where the new plan does not list it.
    pub after: Option<Outcome>,
    /// After's TCO less before's (null when either has none).
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub tco_change: Option<f64>,
}

/// The change in the budget with the fleet in parts that add up to it (a variance bridge): the
/// workloads' TCO changes, then the portfolio lines above the total (trial reserve, ops), the
/// safety margin and the fleet's saving. `None` where either plan lacks a figure it needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bridge {
    /// The change in the sum of the workloads' monthly TCO (a side's unplanned workloads
    /// count as 0).
    pub workloads: f64,
    /// The change in the total not explained by the workloads: the trial reserve and ops
    /// lines.
    pub reserve_and_ops: f64,
    /// The change the safety margin adds: the total-with-margin change less the total's.
    pub margin: f64,
    /// The change from the fleet's saving: the budget-with-fleet change less the
    /// total-with-margin change.
    pub fleet: f64,
    /// The sum of the four parts, to the cent: the change in the budget with the fleet.
    pub total: f64,
}

impl Diff {
    /// The variance bridge, each part to the cent and the total their sum.
    pub fn bridge(&self) -> Option<Bridge> {
        let change = |a: Option<f64>, b: Option<f64>| Some(b? - a?);
        let c = crate::formula::cents;
        let tco_before: f64 = self
            .workloads
            .iter()
            .filter_map(|w| w.before.as_ref().and_then(|o| o.tco))
            .sum();
        let tco_after: f64 = self
            .workloads
            .iter()
            .filter_map(|w| w.after.as_ref().and_then(|o| o.tco))
            .sum();
        let workloads = c(tco_after - tco_before);
        let total = c(change(self.total_before, self.total_after)?);
        let with_margin = c(change(
            self.total_with_margin_before,
            self.total_with_margin_after,
        )?);
        let with_fleet = c(change(
            self.budget_with_fleet_before
                .or(self.total_with_margin_before),
            self.budget_with_fleet_after
                .or(self.total_with_margin_after),
        )?);
        let reserve_and_ops = c(total - workloads);
        let margin = c(with_margin - total);
        let fleet = c(with_fleet - with_margin);
        Some(Bridge {
            workloads,
            reserve_and_ops,
            margin,
            fleet,
            total: c(workloads + reserve_and_ops + margin + fleet),
        })
    }
}

/// One input that differs (null: absent on that side).
#[derive(Debug, Clone, Serialize)]
pub struct InputChange {
    /// The flat input key, e.g. `assumptions.safety_margin` or `workloads.chat-api.context_len`.
    pub key: String,
    /// The value in the old plan, as text.
    pub before: Option<String>,
    /// The value in the new plan, as text.
    pub after: Option<String>,
}

/// What changed between two plans, as `gpuplan diff` prints it and writes it with `--json`.
/// Money is monthly, in the plans' currency, serialised to the cent; `None` (JSON null) where a
/// plan lacks the figure.
#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    /// Every workload of either plan: the old plan's order, then those only the new one lists.
    pub workloads: Vec<WorkloadChange>,
    /// The old plan's total before the safety margin.
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub total_before: Option<f64>,
    /// The new plan's total before the safety margin.
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub total_after: Option<f64>,
    /// The old plan's total with the safety margin.
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub total_with_margin_before: Option<f64>,
    /// The new plan's total with the safety margin.
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub total_with_margin_after: Option<f64>,
    /// New total with margin less old; `None` unless both plans have one.
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub total_with_margin_change: Option<f64>,
    /// The budgets with the fleet (the total with margin less the fleet's saving) and the
    /// change: a fleet saving lost shows here, not in the total with margin.
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub budget_with_fleet_before: Option<f64>,
    /// The new plan's budget with the fleet.
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub budget_with_fleet_after: Option<f64>,
    /// New budget with the fleet less old; `None` unless both plans have one.
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub budget_with_fleet_change: Option<f64>,
    /// The Assumption budget_monthly of each (null: none).
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub budget_ceiling_before: Option<f64>,
    /// The new plan's Assumption budget_monthly (null: none).
    #[serde(serialize_with = "crate::model::cents_json_opt")]
    pub budget_ceiling_after: Option<f64>,
    /// The cuts each lists over its ceiling (null: none).
    pub cuts_before: Option<CutsView>,
    /// The cuts the new plan lists over its ceiling (null: none).
    pub cuts_after: Option<CutsView>,
    /// The compared input keys whose values differ, sorted by key.
    pub inputs_changed: Vec<InputChange>,
    /// Input keys only one side records where the other records its inputs in part (a
    /// workbook records the terms of the offers it chose, not of every offer): not compared.
    pub inputs_not_compared: Vec<String>,
    /// Whether each side recorded its inputs in full (a JSON plan) or only in part (a workbook).
    pub inputs_complete: bool,
    /// How many input keys were compared: with a side that records its inputs in part, only the
    /// keys it records (0: nothing could be compared, which is not "the same").
    pub inputs_compared: usize,
}

impl Diff {
    /// The offers whose terms only one plan records (a workbook records those of the offers it
    /// chose), each with those terms: `A10 @ seed 001 (price_on_demand, min_rental_min)`.
    pub fn one_sided_offers(&self) -> Vec<String> {
        let mut offers: Vec<(String, Vec<String>)> = Vec::new();
        for k in &self.inputs_not_compared {
            let Some((offer, term)) = k.strip_prefix("gpus.").and_then(|k| k.rsplit_once('.'))
            else {
                continue;
            };
            match offers.iter_mut().find(|(o, _)| o == offer) {
                Some((_, terms)) => terms.push(term.to_string()),
                None => offers.push((offer.to_string(), vec![term.to_string()])),
            }
        }
        offers
            .into_iter()
            .map(|(o, terms)| format!("{o} ({})", terms.join(", ")))
            .collect()
    }
}

/// A plan's outcomes by workload name (the first, should a name repeat).
fn outcomes_by_name(v: &PlanView) -> HashMap<&str, &Outcome> {
    let mut m = HashMap::new();
    for (n, o) in &v.workloads {
        m.entry(n.as_str()).or_insert(o);
    }
    m
}

/// The difference between two plans: workloads in the old plan's order, then the new ones.
/// `old_full` and `new_full` say whether each side records every input (a JSON plan); a side
/// that records only some (a workbook: its assumptions, its chosen offers' terms) is compared
/// only on the keys it records, so what it never wrote down is not shown as a change.
pub fn compare(old: &PlanView, new: &PlanView, old_full: bool, new_full: bool) -> Diff {
    // Looked up by name (a plan may list 100,000 workloads: no search of one list per name).
    let (olds, news) = (outcomes_by_name(old), outcomes_by_name(new));
    let mut seen = std::collections::HashSet::new();
    let names: Vec<&str> = old
        .workloads
        .iter()
        .chain(&new.workloads)
        .map(|(n, _)| n.as_str())
        .filter(|n| seen.insert(*n))
        .collect();
    let find = |m: &HashMap<&str, &Outcome>, n: &str| m.get(n).map(|o| (*o).clone());
    let workloads = names
        .into_iter()
        .map(|n| {
            let (before, after) = (find(&olds, n), find(&news, n));
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
    let recorded = |v: &PlanView, full: bool, k: &String| full || normal(v.inputs.get(k)).is_some();
    let (compared, one_side): (Vec<&String>, Vec<&String>) = keys
        .into_iter()
        .partition(|k| recorded(old, old_full, k) && recorded(new, new_full, k));
    let keys = compared;
    let inputs_not_compared = one_side.into_iter().cloned().collect();
    let inputs_compared = keys.len();
    let inputs_changed = keys
        .into_iter()
        .map(|k| (k, normal(old.inputs.get(k)), normal(new.inputs.get(k))))
        .filter(|(_, before, after)| before != after)
        .map(|(k, before, after)| InputChange {
            key: k.clone(),
            before,
            after,
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
        budget_with_fleet_before: old.budget_with_fleet,
        budget_with_fleet_after: new.budget_with_fleet,
        budget_with_fleet_change: old
            .budget_with_fleet
            .zip(new.budget_with_fleet)
            .map(|(a, b)| b - a),
        budget_ceiling_before: ceiling(old),
        budget_ceiling_after: ceiling(new),
        cuts_before: old.cuts,
        cuts_after: new.cuts,
        inputs_changed,
        inputs_not_compared,
        inputs_complete: old_full && new_full,
        inputs_compared,
    }
}

//! The plan as JSON (SPEC §8.4): the contract is these structs, so a key cannot go missing; an
//! unplanned workload has every plan field, null. Workloads are serialized one at a time as the
//! writer asks for them, so a plan of 100,000 workloads is never held as a JSON tree in memory.

use crate::calc::Calc;
use crate::formula::cents;
use crate::lang::Lang;
use crate::model::Warning;
use crate::plan::{Candidate, Chosen, Mode, Plan};
use crate::support::provenance::Provenance;
use crate::usage::compare::Row;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// The whole plan.
#[derive(Serialize)]
pub struct PlanJson<'a> {
    gpuplan_version: &'static str,
    /// What made the plan: time, version, input name and SHA-256, `--set` values.
    provenance: ProvenanceJson<'a>,
    currency: String,
    input: String,
    workloads: Workloads<'a>,
    totals: Totals<'a>,
    /// The twelve months from plan_start (the Year tab).
    year: YearJson,
    /// The scenario this plan is (--scenario), null for the base.
    scenario: Option<&'a str>,
    /// The other plans of the Scenarios tab, each with the main plan's keys.
    scenarios: Vec<ScenarioJson<'a>>,
    /// Every input the plan used, as flat keys (what `gpuplan diff` compares).
    inputs: InputsJson<'a>,
    /// The Ranges sheet's tornado and sampled budget; null without a Ranges sheet.
    sensitivity: Option<SensitivityJson<'a>>,
    /// `calc --usage`: what each workload with measured usage really used, as `gpuplan usage
    /// --json` writes it; empty without --usage.
    actuals: Vec<&'a crate::usage::Actual>,
    /// The last month's bill beside the plan (`calc --bills`); null without one.
    bills: Option<&'a crate::usage::bills::BillComparison>,
    /// The fleet: cards shared across hours and workloads, and the saving; null when nothing
    /// shares (or the Assumption fleet is no).
    fleet: Option<&'a crate::plan::fleet::FleetPlan>,
    /// The budget month against budget_monthly, with the least-harm cuts when it is over;
    /// null without a budget.
    cuts: Option<&'a crate::plan::cuts::Cuts>,
    /// What could make the month cost other than planned, with the money at stake, the largest
    /// first (page 1 shows the top three).
    risks: Vec<crate::plan::risks::Risk>,
    /// The owned cards (#47): capital up front, a month of ownership, its running part, the
    /// rent it replaces and the months to break even; null when nothing is owned.
    ownership: Option<crate::plan::ownership::Ownership>,
    warnings: Vec<&'a Warning>,
}

/// The provenance stamp (see [`Provenance`]); `set` maps each `--set` key to its final value.
#[derive(Serialize)]
struct ProvenanceJson<'a> {
    generated: String,
    gpuplan_version: &'static str,
    input: &'a str,
    input_sha256: &'a str,
    set: SetJson<'a>,
    /// The other options that shaped the plan (`--usage`, `--map`, `--bills`, `--compare`,
    /// `--samples`, `--seed`), each with its value.
    options: SetJson<'a>,
}

struct SetJson<'a>(&'a [(String, String)]);

impl Serialize for SetJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'a> PlanJson<'a> {
    /// The JSON of `calc`, stamped with `stamp`; it borrows both, and serializing it writes
    /// each workload only as the writer asks for it.
    pub fn new(calc: &'a Calc, stamp: &'a Provenance) -> Self {
        let plan = &calc.plan;
        PlanJson {
            gpuplan_version: env!("CARGO_PKG_VERSION"),
            provenance: ProvenanceJson {
                generated: stamp.generated_iso(),
                gpuplan_version: stamp.version,
                input: &stamp.input,
                input_sha256: &stamp.input_sha256,
                set: SetJson(&stamp.sets),
                options: SetJson(&stamp.options),
            },
            currency: plan.input.assumptions.currency(),
            input: plan.input.file.display().to_string(),
            workloads: Workloads(plan, &calc.actuals),
            totals: Totals(plan),
            year: YearJson::new(plan),
            scenario: calc.scenario.as_deref(),
            inputs: InputsJson(&plan.input),
            sensitivity: calc.sensitivity.as_ref().map(|s| SensitivityJson {
                samples: s.samples,
                seed: s.seed,
                base: s.base,
                p10: s.p10,
                p50: s.p50,
                p90: s.p90,
                tornado: s
                    .tornado
                    .iter()
                    .map(|t| TornadoJson {
                        key: &t.key,
                        low: t.low,
                        high: t.high,
                        total_with_margin_low: t.at_low,
                        total_with_margin_high: t.at_high,
                    })
                    .collect(),
            }),
            scenarios: calc
                .scenarios
                .iter()
                .map(|s| ScenarioJson {
                    name: &s.name,
                    changes: &s.changes,
                    totals: Totals(&s.plan),
                    workloads: Workloads(&s.plan, &[]),
                    fleet: s.plan.fleet.as_ref(),
                    cuts: s.plan.cuts.as_ref(),
                    ownership: s.plan.ownership(),
                })
                .collect(),
            actuals: calc.actuals.iter().map(|r| &r.actual).collect(),
            bills: calc.bills.as_ref(),
            fleet: plan.fleet.as_ref(),
            cuts: plan.cuts.as_ref(),
            risks: crate::plan::risks::risks(plan),
            ownership: plan.ownership(),
            warnings: calc.warnings().collect(),
        }
    }
}

/// Writes the calculation's JSON, pretty-printed and ended by a newline.
pub fn write(calc: &Calc, stamp: &Provenance, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, &PlanJson::new(calc, stamp))
        .map_err(std::io::Error::from)?;
    w.write_all(b"\n")
}

/// A plan's workloads, with the measured usage beside them (`calc --usage`; none for a scenario).
struct Workloads<'a>(&'a Plan, &'a [Row]);

impl Serialize for Workloads<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Workloads(plan, actuals) = *self;
        s.collect_seq(
            (0..plan.input.workloads.len())
                .map(|i| WorkloadJson::new(plan, i, actuals.iter().find(|r| r.workload == i))),
        )
    }
}

/// A cache layout the planner chose (#45 item 5).
#[derive(Serialize)]
struct LayoutJson {
    /// `decode_context_parallel` or `dp_attention`.
    name: &'static str,
    /// The engine's launch flags for it (`-tp 8 -dcp 8`).
    flags: String,
}

/// One workload's plan; every field but the name and kind is null when it is unplanned.
#[derive(Serialize)]
struct WorkloadJson<'a> {
    name: &'a str,
    kind: &'static str,
    /// The engine profile that applies (null: the Assumptions sheet's figures).
    engine: Option<&'a str>,
    /// The cache layout the planner chose over the Assumptions' and its launch flags (absent:
    /// the Assumptions' own).
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<LayoutJson>,
    planned: bool,
    gpu: Option<&'a str>,
    provider: Option<&'a str>,
    mode: Option<&'static str>,
    gpus_per_replica: Option<f64>,
    replicas: Option<f64>,
    instances: Option<f64>,
    gpus_total: Option<f64>,
    gpu_cost: Option<f64>,
    cold_start_cost: Option<f64>,
    rework_cost: Option<f64>,
    storage_cost: Option<f64>,
    egress_cost: Option<f64>,
    tco: Option<f64>,
    utilization: Option<f64>,
    costs: Costs,
    values: Values<'a>,
    advice: Option<String>,
    /// The APIs row compared with (null: none), what it would cost a month, the requests a day
    /// at which it costs the self-hosted TCO, and the advice line.
    api: Option<&'a str>,
    api_monthly_cost: Option<f64>,
    api_breakeven_requests_per_day: Option<f64>,
    api_advice: Option<String>,
    /// `calc --usage`: the advice from the measured figures (also when it is to keep the plan),
    /// and the monthly saving of the re-plan at them (0 when keeping); null without measured usage.
    advice_from_usage: Option<String>,
    usage_saving: Option<f64>,
    /// Its cost per unit of the work it gives the volume of (per 1,000 requests, million
    /// tokens, image, clip, item or training run); empty without a volume.
    unit_costs: Vec<crate::plan::UnitCost>,
}

/// Each mode's monthly GPU cost under its key, in `Mode::ALL`'s order; null where not offered
/// or not allowed.
#[derive(Default)]
struct Costs([Option<f64>; Mode::ALL.len()]);

impl Costs {
    fn of(c: &Candidate) -> Costs {
        Costs(Mode::ALL.map(|m| c.cost(m)))
    }
}

impl Serialize for Costs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (m, v) in Mode::ALL.iter().zip(&self.0) {
            map.serialize_entry(m.key(), v)?;
        }
        map.end()
    }
}

/// Every candidate formula's value; yes/no formulas as booleans. Empty when unplanned.
struct Values<'a>(&'a Plan, Option<&'a Candidate>);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Some(c) = self.1 else {
            return s.serialize_map(Some(0))?.end();
        };
        let mut m = s.serialize_map(Some(self.0.columns.len()))?;
        for (col, v) in self.0.columns.iter().zip(&c.values) {
            if col.is_bool {
                m.serialize_entry(&col.name, &(*v != 0.0))?;
            } else {
                m.serialize_entry(&col.name, &finite(*v))?;
            }
        }
        m.end()
    }
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

impl<'a> WorkloadJson<'a> {
    fn new(plan: &'a Plan, i: usize, measured: Option<&Row>) -> Self {
        let w = &plan.input.workloads[i];
        let chosen: Option<(&Candidate, &Chosen)> = plan.chosen(i);
        let get = |n: &str| chosen.and_then(|(c, _)| plan.value(c, n)).and_then(finite);
        let of = |f: fn(&Chosen) -> f64| chosen.map(|(_, ch)| f(ch)).and_then(finite);
        let offer = chosen.map(|(c, _)| &plan.input.gpus[c.offer]);
        // The API's monthly cost and the break-even volume, for a planned workload with an API.
        let api = w.api.as_ref().and(chosen).and_then(|(c, ch)| {
            let cost = plan.value(c, "api_monthly_cost")?;
            let per_day = w.numbers.requests_per_day.unwrap_or(0.0);
            Some((cost, crate::plan::api_breakeven(per_day, ch.tco, cost)))
        });
        let cur = plan.input.assumptions.currency();
        WorkloadJson {
            advice_from_usage: measured.map(|r| r.advice(&|v| crate::model::money(&cur, v)).en),
            usage_saving: measured.map(|r| r.saving),
            unit_costs: plan.unit_costs(i),
            name: &w.name,
            kind: w.kind.key(),
            engine: w.engine.as_deref(),
            layout: plan.layout(i).map(|(l, flags)| LayoutJson {
                name: l.key(),
                flags,
            }),
            planned: chosen.is_some(),
            gpu: offer.map(|g| g.gpu.as_str()),
            provider: offer.map(|g| g.provider.as_str()),
            mode: chosen.map(|(_, ch)| ch.mode.key()),
            gpus_per_replica: get("gpus_per_replica"),
            replicas: get("replicas"),
            instances: get("instances"),
            gpus_total: get("gpus_total"),
            gpu_cost: of(|ch| ch.gpu_cost),
            cold_start_cost: of(|ch| ch.cold_start_cost),
            rework_cost: of(|ch| ch.rework_cost),
            storage_cost: of(|ch| ch.storage_cost),
            egress_cost: of(|ch| ch.egress_cost),
            tco: of(|ch| ch.tco),
            utilization: of(|ch| ch.advice.utilization),
            costs: chosen.map(|(c, _)| Costs::of(c)).unwrap_or_default(),
            values: Values(plan, chosen.map(|(c, _)| c)),
            advice: chosen.map(|(_, ch)| ch.advice.text(Lang::En)),
            api: w.api.as_deref(),
            api_monthly_cost: w.api.as_ref().and_then(|_| get("api_monthly_cost")),
            // Null where it would be a made-up 0: no volume, or an API that costs nothing.
            api_breakeven_requests_per_day: w
                .api
                .as_ref()
                .and(api)
                .filter(|(cost, _)| {
                    *cost > 0.0 && w.numbers.requests_per_day.is_some_and(|r| r > 0.0)
                })
                .map(|(_, b)| b),
            api_advice: w.api.as_deref().zip(api).zip(chosen).map(
                |((name, (cost, b)), (_, ch))| {
                    crate::labels::words::api_text(
                        name,
                        w.numbers.requests_per_day.unwrap_or(0.0),
                        cost,
                        ch.tco,
                        b,
                        &|v| crate::model::money(&cur, v),
                    )
                    .en
                },
            ),
        }
    }
}

/// The portfolio formulas and planned sums, then `trial_reserve` (SPEC §8.4's name for
/// `trial_reserve_cost`).
struct Totals<'a>(&'a Plan);

impl Serialize for Totals<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let plan = self.0;
        let mut m = s.serialize_map(None)?;
        for (name, v) in plan.totals.entries() {
            m.serialize_entry(name, &finite(v))?;
        }
        if let Some(v) = plan.total("trial_reserve_cost") {
            m.serialize_entry("trial_reserve", &finite(v))?;
        }
        // The month's GPU spend in two: committed (monthly, reserved, base plus burst's base)
        // and pay-as-you-go, as the Summary's approval block and the Year tab split it.
        let (committed, pay_as_you_go) = plan.gpus_split();
        m.serialize_entry("committed", &finite(cents(committed)))?;
        m.serialize_entry("pay_as_you_go", &finite(cents(pay_as_you_go)))?;
        // The tax on the month (vat_rate): what it is and what is paid with it.
        let (tax, paid, _) = plan.tax();
        m.serialize_entry("tax", &finite(tax))?;
        m.serialize_entry("total_paid", &finite(paid))?;
        m.end()
    }
}

/// The Year tab's months: each month's total and budget, and the reserved spend committed.
#[derive(Serialize)]
struct YearJson {
    start: String,
    months: Vec<MonthJson>,
    #[serde(serialize_with = "crate::model::cents_json")]
    annual_total: f64,
    #[serde(serialize_with = "crate::model::cents_json")]
    annual_total_with_margin: f64,
}

#[derive(Serialize)]
struct MonthJson {
    month: String,
    #[serde(serialize_with = "crate::model::cents_json")]
    total: f64,
    #[serde(serialize_with = "crate::model::cents_json")]
    total_with_margin: f64,
    /// The month's GPU spend paid whatever the use (monthly and reserved cards, the base of
    /// base plus burst), and the rest of it, which follows the hours.
    #[serde(serialize_with = "crate::model::cents_json")]
    committed: f64,
    #[serde(serialize_with = "crate::model::cents_json")]
    pay_as_you_go: f64,
}

impl YearJson {
    fn new(plan: &Plan) -> YearJson {
        let y = &plan.year;
        let months: Vec<MonthJson> = (0..crate::plan::year::MONTHS)
            .map(|k| {
                let (committed, pay_as_you_go) = plan.month_gpus(k);
                MonthJson {
                    month: y.month(k).to_string(),
                    total: y.value(k, "total").unwrap_or(0.0),
                    total_with_margin: y.value(k, "total_with_margin").unwrap_or(0.0),
                    // + 0.0: an empty sum is -0.0, which JSON would print as such.
                    committed: committed + 0.0,
                    pay_as_you_go: pay_as_you_go + 0.0,
                }
            })
            .collect();
        YearJson {
            start: y.start.to_string(),
            annual_total: months.iter().map(|m| m.total).sum(),
            annual_total_with_margin: months.iter().map(|m| m.total_with_margin).sum(),
            months,
        }
    }
}

/// One scenario: its name, its changes as written, and its plan's totals, workloads, fleet and
/// cuts, as the main plan's keys.
#[derive(Serialize)]
struct ScenarioJson<'a> {
    name: &'a str,
    changes: &'a [String],
    totals: Totals<'a>,
    workloads: Workloads<'a>,
    /// As the main plan's `fleet`: null when nothing shares.
    fleet: Option<&'a crate::plan::fleet::FleetPlan>,
    /// As the main plan's `cuts`: null without a ceiling or within it.
    cuts: Option<&'a crate::plan::cuts::Cuts>,
    /// As the main plan's `ownership`: null when nothing is owned.
    ownership: Option<crate::plan::ownership::Ownership>,
}

/// The budget's sensitivity: percentiles of `total_with_margin` over the samples, and one
/// tornado entry per Ranges row (widest swing first).
#[derive(Serialize)]
struct SensitivityJson<'a> {
    samples: usize,
    seed: u64,
    base: f64,
    /// Null with `--samples 0`.
    p10: Option<f64>,
    p50: Option<f64>,
    p90: Option<f64>,
    tornado: Vec<TornadoJson<'a>>,
}

#[derive(Serialize)]
struct TornadoJson<'a> {
    key: &'a str,
    low: f64,
    high: f64,
    total_with_margin_low: f64,
    total_with_margin_high: f64,
}

/// The inputs, streamed as a map.
struct InputsJson<'a>(&'a crate::model::Input);

impl Serialize for InputsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        let mut failed = None;
        crate::diff::each_input(self.0, &mut |k, v| {
            if failed.is_none() {
                if let Err(e) = m.serialize_entry(&k, &v) {
                    failed = Some(e);
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        m.end()
    }
}

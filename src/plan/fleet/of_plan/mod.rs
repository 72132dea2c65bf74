//! The fleet of a plan: its workloads' chosen candidates as the packing's hosts, jobs and
//! services, and the packing's answer as the cards and schedules the outputs show (the Fleet
//! tab, JSON `fleet`), with the warnings of a tight share. `input` builds the packing's hosts,
//! jobs and services from the chosen candidates; `output` turns its answer into cards,
//! schedules and warnings.

mod input;
mod output;

use input::{add_fits, add_workload};
use output::{host_cards, not_moved_warnings, saving_terms, shared_cards};

use super::{pack, FleetInput, Limits};
use crate::model::{Input, Warning};
use crate::plan::{Candidate, Chosen, WorkloadPlan};
use serde::Serialize;

/// How the fleet reads a plan's figures: a candidate formula's value by name, and an input of
/// the chosen candidate's formulas by name (an assumption as its engine profile sets it).
pub struct Readers<'a> {
    /// A candidate formula's value for a candidate, by the formula's name; `None` when no
    /// formula has that name or the candidate has no values.
    pub value: &'a dyn Fn(&Candidate, &str) -> Option<f64>,
    /// An input of the chosen candidate's formulas (a workload, model, GPU or assumption
    /// value), by name; `None` when the formulas read no such input.
    pub input: &'a dyn Fn(&Chosen, &str) -> Option<f64>,
}

/// The fleet as the outputs show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetPlan {
    /// What sharing saves a month against each workload on cards of its own.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub saving: f64,
    /// The budget with it: the total with safety margin less the saving (the margin and the
    /// reserves on the saved rent are kept).
    #[serde(serialize_with = "crate::model::cents_json")]
    pub budget: f64,
    /// The cards that carry more than one workload.
    pub cards: Vec<FleetCard>,
    /// How the solver ended.
    pub solver: SolverJson,
    /// The saving as Σ factor × a workload's GPU cost (the Plan tab's GPU cost column): a job
    /// moved onto idle cards saves its whole GPU cost (factor 1), a group of services the
    /// cards it no longer rents at its first service's price a card. The Summary writes it as
    /// a formula, so that an edited price moves the saving and the budget with the fleet.
    #[serde(skip)]
    pub terms: Vec<(usize, f64)>,
}

impl FleetPlan {
    /// The names of the workloads on its cards: the services and the jobs moved onto them.
    pub fn sharing(&self) -> impl Iterator<Item = &str> {
        self.cards
            .iter()
            .flat_map(|c| &c.workloads)
            .map(|w| w.name.as_str())
    }
}

/// How the solver ended: whether the answer meets the best bound, and the gap to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SolverJson {
    /// Whether the answer meets the best bound found: no better fleet exists.
    pub optimal: bool,
    /// Relative gap between the answer's cost and the best bound over all programmes (0–1; 0
    /// when optimal).
    pub gap: f64,
    /// Branch-and-bound nodes explored, all programmes together.
    pub nodes: u64,
    /// Programmes where the greedy answer was kept because the solver gave none.
    pub fallbacks: usize,
}

/// A rented card (or group of cards) and what runs on it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FleetCard {
    /// GPU and provider.
    pub gpu: String,
    /// Cards rented: all of the host service's cards for `idle_hours`, 1 for `shared`.
    pub cards: usize,
    /// `idle_hours`: a service's cards lent to jobs; `shared`: one card holding instances of
    /// several services.
    pub sharing: &'static str,
    /// The workloads on the card(s): for `idle_hours` the host service first, then the jobs
    /// moved there.
    pub workloads: Vec<Carried>,
    /// For `idle_hours`: the month's day types, card by card and hour by hour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<ScheduleJson>,
}

/// A host's month: on how many days each day type runs, and in it who holds each card in each
/// hour of the day (0–23; null: idle).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScheduleJson {
    /// The clock hour a day of the schedule starts at: no run crosses it.
    pub first_hour: usize,
    /// Whole days of the month the schedule covers (`hours_in_month / 24`, rounded down).
    pub days_in_month: usize,
    /// The day types, each with the days it runs on and its cards' holders hour by hour.
    pub day_types: Vec<DayTypeJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DayTypeJson {
    pub days: usize,
    /// Per card, the 24 hours' holders.
    pub cards: Vec<[Option<String>; 24]>,
}

/// One workload on a card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Carried {
    /// The workload's name, as the Workloads sheet gives it.
    pub name: String,
    /// `service` (the card's own, or one sharing it) or `job` (moved onto idle hours).
    pub role: &'static str,
    /// Cards it holds in each hour of the day (0–23), on average over the month's days.
    pub hours: [f64; 24],
    /// Memory it takes on each card, GiB.
    pub vram_gib: f64,
    /// What it no longer pays a month (a moved job's own rental).
    #[serde(serialize_with = "crate::model::cents_json")]
    pub saving: f64,
    /// On a shared card, for an engine that preallocates: its share of the card's memory
    /// (0–1, rounded up to the hundredth).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_share: Option<f64>,
    /// With `memory_share`: the engine's flag to launch it with that share
    /// (`--gpu-memory-utilization 0.42` for vLLM, `--mem-fraction-static` for SGLang).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch: Option<String>,
}

/// The figures of one chosen candidate the packing reads.
struct Figures {
    per_replica: f64,
    instances: f64,
    gpus: f64,
    required: f64,
    run_hours: f64,
}

/// What the outputs need of each service beside the packing's input.
struct ServiceNote {
    workload: usize,
    memory_share: Option<f64>,
    launch: Option<String>,
}

/// The fleet of the chosen candidates, and its warnings; `None` when the Assumption `fleet`
/// is no, or nothing shares. `with_margin` is the plan's total with safety margin, from which
/// the fleet's budget is its saving less.
pub fn fleet_of(
    input: &Input,
    plans: &[WorkloadPlan],
    read: &Readers,
    with_margin: f64,
    warnings: &mut Vec<Warning>,
) -> Option<FleetPlan> {
    if matches!(
        input.assumptions.get("fleet").map(|a| &a.value),
        Some(crate::model::Value::Bool(false))
    ) {
        return None;
    }
    let hours_in_month = input.assumptions.number("hours_in_month", 730.0);
    let mut fi = FleetInput {
        days: (hours_in_month / 24.0 + 1e-9).floor().max(0.0) as usize,
        hours_in_month,
        ..FleetInput::default()
    };
    let mut notes: Vec<ServiceNote> = Vec::new();
    let value = read.value;
    for (i, (w, wp)) in input.workloads.iter().zip(plans).enumerate() {
        add_workload(&mut fi, &mut notes, input, read, i, w, wp);
    }
    // Each job's fits: its plan on each host's card (its candidate on that offer), re-sized
    // to its hours there.
    add_fits(&mut fi, plans, value);
    if (fi.jobs.is_empty() || fi.hosts.is_empty()) && fi.services.len() < 2 {
        return None;
    }
    let fleet = pack(&fi, Limits::default());
    not_moved_warnings(input, &fi, &fleet, warnings);
    let cards = host_cards(input, plans, &fi, &fleet, warnings)
        .into_iter()
        .chain(shared_cards(input, plans, &fi, &fleet, &notes, warnings))
        .collect();
    if fleet.saving <= 0.0 {
        return None;
    }
    let terms = saving_terms(plans, &fi, &fleet);
    Some(FleetPlan {
        terms,
        saving: fleet.saving,
        budget: with_margin - fleet.saving,
        cards,
        solver: SolverJson {
            optimal: fleet.solved.optimal,
            gap: fleet.solved.gap,
            nodes: fleet.solved.nodes,
            fallbacks: fleet.solved.fallbacks,
        },
    })
}

/// The key of an offer's card in the packing.
fn card_key(offer: usize) -> String {
    format!("offer {offer}")
}

fn chosen_offer(plans: &[WorkloadPlan], i: usize) -> Option<usize> {
    let wp = &plans[i];
    wp.chosen.as_ref().map(|c| wp.candidates[c.candidate].offer)
}

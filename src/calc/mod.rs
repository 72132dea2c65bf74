//! One calculation: the plan and what `gpuplan calc` works out beside it (the other scenarios,
//! the ranges' sensitivity, the comparison with an earlier plan, the measured usage and the
//! bills). The calc command builds it; [`write`](crate::write) and [`report`](crate::report)
//! take it. [`Plan`] holds only the plan, so the planner knows nothing of diffs, usage logs or
//! bills.

pub mod candidates;
pub mod run;

use crate::diff::Diff;
use crate::model::Warning;
use crate::plan::{sensitivity::Sensitivity, Plan};
use crate::usage::bills::BillComparison;
use crate::usage::compare::Row;

/// A scenario of the Scenarios sheet, planned: the base input with its changes.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The scenario's name as the Scenarios sheet gives it, or `base` for the base input when
    /// a scenario is the main plan.
    pub name: String,
    /// Its changes as written.
    pub changes: Vec<String>,
    /// The plan of the base input with the scenario's changes applied, keeping only its chosen
    /// candidate.
    pub plan: Plan,
}

/// The plan and everything computed beside it.
#[derive(Debug, Clone)]
pub struct Calc {
    /// The main plan: the base input, or the scenario `--scenario` names, with `--set` applied.
    pub plan: Plan,
    /// The Scenarios sheet's other plans (the base when a scenario is the main plan, and every
    /// scenario but that one); empty without a Scenarios sheet.
    pub scenarios: Vec<Scenario>,
    /// The scenario the main plan is (`--scenario`); None for the base.
    pub scenario: Option<String>,
    /// The Ranges sheet's tornado and sampled budget.
    pub sensitivity: Option<Sensitivity>,
    /// The difference from an earlier plan (`--compare`), with that plan's file name.
    pub compared: Option<(String, Diff)>,
    /// The plan beside the measured usage (`--usage`); empty otherwise.
    pub actuals: Vec<Row>,
    /// The last month's bill beside the plan (`--bills`).
    pub bills: Option<BillComparison>,
    /// What the run noticed beside the planner's warnings: the candidates kept, a scenario's
    /// change nothing reads, the usage logs' warnings, what writing the workbook raised.
    pub notes: Vec<Warning>,
}

impl Calc {
    /// A calculation of `plan` alone, nothing beside it.
    pub fn of(plan: Plan) -> Calc {
        Calc {
            plan,
            scenarios: Vec::new(),
            scenario: None,
            sensitivity: None,
            compared: None,
            actuals: Vec::new(),
            bills: None,
            notes: Vec::new(),
        }
    }

    /// The planner's warnings, then the run's notes.
    pub fn warnings(&self) -> impl Iterator<Item = &Warning> {
        self.plan.warnings.iter().chain(&self.notes)
    }
}

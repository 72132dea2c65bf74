//! gpuplan: size, price and budget rented cloud GPUs from an Excel template.
//!
//! The pipeline is **read → model → evaluate → plan → write**: [`read`] parses a workbook once
//! into a [`read::Book`] and types it, with any [`model::change::Change`]s (`--set`, a scenario's,
//! measured figures), into a validated [`model::Input`]; [`formula`] compiles the Formulas sheet;
//! [`plan`] evaluates every workload on every GPU offer and picks the cheapest plan that fits; the
//! calc command gathers the plan and what is worked out beside it (scenarios, sensitivity,
//! comparison, usage, bills) into one [`calc::Calc`], which [`write`](mod@write) and [`report`] turn into
//! the workbook finance receives, JSON and a terminal summary. [`usage`] reads GPU usage logs into
//! what each workload really used and compares them with the plan. [`run`] is the command line's
//! entry point.
#![warn(missing_docs)]

pub mod calc;
pub mod catalog;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod commands;
pub mod diff;
pub mod error;
pub mod formula;
pub mod labels;
pub mod lang;
pub mod model;
pub mod plan;
pub mod read;
pub mod report;
pub mod support;
pub mod usage;
pub mod validate;
pub mod write;

#[cfg(feature = "cli")]
pub use commands::{default_output, run};

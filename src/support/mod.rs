//! What every layer leans on and that knows nothing of GPUs or plans: inputs and outputs on
//! disk ([`files`], and [`output`] with the command line), text fields and numbers as people type them ([`fields`]), "did you mean"
//! ([`suggest`]), dates and clocks ([`time`]) and what a run was made from ([`provenance`]).

pub mod fields;
pub mod files;
#[cfg(feature = "cli")]
pub mod output;
pub mod provenance;
pub mod suggest;
pub mod time;

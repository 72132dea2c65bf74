//! What every layer leans on and that knows nothing of GPUs or plans: files on disk
//! ([`files`]), text fields and numbers as people type them ([`fields`]), "did you mean"
//! ([`suggest`]), dates and clocks ([`time`]) and what a run was made from ([`provenance`]).

pub mod fields;
pub mod files;
pub mod provenance;
pub mod suggest;
pub mod time;

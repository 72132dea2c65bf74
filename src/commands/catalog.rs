//! `gpuplan catalog` and `gpuplan model`: what gpuplan knows, and a model read from its config.

use super::out;
use crate::cli::{CatalogArgs, ModelArgs};
use crate::error::Result;
use crate::{read, report};

pub fn catalog(a: &CatalogArgs) -> Result<()> {
    out(&report::catalog(a.what, a.format))
}

pub fn model(a: &ModelArgs) -> Result<()> {
    let mut m = read::config::import(&a.path)?;
    if let Some(n) = &a.name {
        m.spec.name = n.clone();
    }
    out(&report::imported(&m, a.format))
}

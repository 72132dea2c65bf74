//! The owned cards of a plan (the owned mode, 自建): what they cost up front, what a month of
//! them costs, and how many months of the rent they save pay the purchase back.

use super::{Mode, Plan};
use serde::Serialize;

/// The owned cards of a plan, summed over the workloads planned on owned cards.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Ownership {
    /// The purchase, spent up front (`owned_capital`).
    #[serde(serialize_with = "crate::model::cents_json")]
    pub capital: f64,
    /// A month of ownership: depreciation, power and hosting (`cost_owned`).
    #[serde(serialize_with = "crate::model::cents_json")]
    pub monthly: f64,
    /// Of that month, the cash the cards cost to run: power and hosting, the month less its
    /// depreciation.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub running: f64,
    /// What the same work would cost a month rented: each workload's next best option in
    /// another mode on any offer (the Billing tab's next best), its GPU cost.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub rent: f64,
    /// Months until the rent saved, less the running costs, repays the purchase; `None` when
    /// renting costs no more than running the cards (never).
    pub months_to_break_even: Option<f64>,
}

impl Plan {
    /// The plan's owned cards; `None` when no workload is planned on owned cards.
    pub fn ownership(&self) -> Option<Ownership> {
        let mut o = Ownership {
            capital: 0.0,
            monthly: 0.0,
            running: 0.0,
            rent: 0.0,
            months_to_break_even: None,
        };
        let mut any = false;
        for w in 0..self.workloads.len() {
            let Some((c, ch)) = self.chosen(w) else {
                continue;
            };
            if ch.mode != Mode::Owned {
                continue;
            }
            any = true;
            let value = |n: &str| self.value(c, n).filter(|v| v.is_finite()).unwrap_or(0.0);
            o.capital += value("owned_capital");
            o.monthly += ch.gpu_cost;
            o.running += ch.gpu_cost - value("owned_depreciation");
            // The next best is another mode than owned, so rented; its TCO less the storage and
            // egress, which no offer changes. Nothing else priced: renting is not an option.
            o.rent += ch.advice.next.map_or(f64::INFINITY, |(_, ratio)| {
                ratio * ch.tco - ch.storage_cost - ch.egress_cost
            });
        }
        if !any {
            return None;
        }
        let saved = o.rent - o.running;
        o.months_to_break_even = (o.rent.is_finite() && saved > 0.0).then(|| o.capital / saved);
        if !o.rent.is_finite() {
            o.rent = 0.0;
        }
        Some(o)
    }
}

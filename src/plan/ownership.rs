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
        let owned: Vec<_> = (0..self.workloads.len())
            .filter_map(|w| self.chosen(w))
            .filter(|(_, ch)| ch.mode == Mode::Owned)
            .collect();
        if owned.is_empty() {
            return None;
        }
        let value = |c, n: &str| self.value(c, n).filter(|v| v.is_finite()).unwrap_or(0.0);
        let capital = owned.iter().map(|(c, _)| value(c, "owned_capital")).sum();
        let monthly = owned.iter().map(|(_, ch)| ch.gpu_cost).sum();
        let running = owned
            .iter()
            .map(|(c, ch)| ch.gpu_cost - value(c, "owned_depreciation"))
            .sum();
        // The next best is another mode than owned, so rented: its TCO less the storage and
        // egress, which no offer changes. A workload with nothing else priced: renting is not
        // an option, so there is no rent to repay the purchase from.
        let rent: Option<f64> = owned
            .iter()
            .map(|(_, ch)| {
                ch.advice
                    .next
                    .map(|(_, ratio)| ratio * ch.tco - ch.storage_cost - ch.egress_cost)
            })
            .sum();
        Some(Ownership {
            capital,
            monthly,
            running,
            rent: rent.unwrap_or(0.0),
            months_to_break_even: rent
                .filter(|r| *r > running)
                .map(|r| capital / (r - running)),
        })
    }
}

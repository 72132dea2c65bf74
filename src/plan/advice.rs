//! The advice line of a planned workload, in the seeds' terms: utilization, the rule of thumb for
//! billing, and what the chosen mode saves against the next best option.

use super::Mode;

/// The seeds' utilization bands (seed 001 §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    /// Under 20%: on-demand.
    Low,
    /// 20–50%: on-demand, with spot for batch work.
    Moderate,
    /// 50–70%: a monthly or reserved base plus on-demand burst.
    High,
    /// Over 70%: monthly.
    Full,
}

impl Band {
    /// The band of a monthly `utilization` (a fraction, 0–1): under 0.2 [`Band::Low`], under
    /// 0.5 [`Band::Moderate`], up to and including 0.7 [`Band::High`], above that [`Band::Full`].
    pub fn of(utilization: f64) -> Band {
        if utilization < 0.2 {
            Band::Low
        } else if utilization < 0.5 {
            Band::Moderate
        } else if utilization <= 0.7 {
            Band::High
        } else {
            Band::Full
        }
    }
}

/// Why a workload got its mode, ready to be written in either language.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    /// The chosen candidate's `utilization` formula: hours run ÷ `hours_in_month`, a fraction
    /// (1 for an online service running all month).
    pub utilization: f64,
    /// The utilization's band, [`Band::of`] it.
    pub band: Band,
    /// Below `monthly_min_utilization`: never monthly.
    pub below_monthly_minimum: bool,
    /// The billing mode chosen: the least TCO among the modes offered and allowed.
    pub mode: Mode,
    /// The next best option with another mode: its mode and cost ratio to the chosen one.
    pub next: Option<(Mode, f64)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_follow_the_seed_rule_of_thumb() {
        assert_eq!(Band::of(0.1), Band::Low);
        assert_eq!(Band::of(0.41), Band::Moderate);
        assert_eq!(Band::of(0.6), Band::High);
        assert_eq!(Band::of(1.0), Band::Full);
    }
}

//! `calc --usage`: the plan beside what really ran. Each workload with measured usage gets its
//! planned and measured hours, utilization and memory, and the seeds' advice from the measured
//! figures, with the monthly saving worked by re-planning with them (the caller types the
//! workbook again with the changes of [`replan_changes`] and plans again; this module only compares
//! the two plans).
//!
//! The rules (seed 001 §3.2 and its "先按需跑一周" loop):
//! - **monthly**: measured utilization in the high or full band ([`Band`]) and at least
//!   `monthly_min_utilization`, and the plan is not monthly or reserved already;
//! - **smaller card**: the memory peak of a replica (the peak on one GPU × GPUs per replica)
//!   below half the replica's cards (`replica_vram_gib`); the re-plan then sizes by the peak;
//! - **spot**: interruptible work (`spot_ok`) that runs in bursts (the low or moderate band) and
//!   is not on spot already.
//!
//! The re-plan sets every measured workload's `hours_per_month` to its measured hours per GPU,
//! and `vram_gib` to its replica's peak where the memory rule applies. A second re-plan
//! ([`as_is_changes`]) pins the planned card at the measured hours and prices the planned mode:
//! what carrying on costs. Workloads are planned one by one, so each re-plan gives each workload
//! its own figure. The saving is carrying on less the re-plan, 0 when that is not positive (keep
//! the plan); the advice also says what the month costs at the measured use beside the plan, a
//! budget to correct rather than a saving (an on-demand plan already pays only what it runs).

use super::Actual;
use crate::model::change::{Change, Target};
use crate::plan::{Band, Mode, Plan};

/// Which of the rules the measured figures meet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rules {
    /// Monthly billing: measured utilization in the high or full band, at least
    /// `monthly_min_utilization`, and the plan not monthly or reserved already.
    pub monthly: bool,
    /// A smaller card: the replica's memory peak is below half of `replica_vram_gib`.
    pub smaller_card: bool,
    /// Spot: `spot_ok` work running in bursts (low or moderate band), not on spot already.
    pub spot: bool,
}

/// What the planned workload is, for the comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// The GPU of the chosen offer (the GPUs sheet's `gpu` name, without the provider).
    pub gpu: String,
    /// The chosen billing mode.
    pub mode: Mode,
    /// The `gpus_total` formula: GPUs in all, instances × GPUs per replica.
    pub gpus_total: f64,
    /// The `gpus_per_replica` formula: GPUs one replica spans.
    pub gpus_per_replica: f64,
    /// The `run_hours` formula: hours each instance runs a month.
    pub run_hours: f64,
    /// The `utilization` formula: `run_hours` ÷ `hours_in_month`, a fraction 0–1.
    pub utilization: f64,
    /// required_vram_gib: what the replica was sized for.
    pub required_vram_gib: f64,
    /// replica_vram_gib: the memory of the replica's cards.
    pub replica_vram_gib: f64,
    /// The workload's monthly total cost of ownership on that card and mode, in the
    /// workbook's currency.
    pub tco: f64,
}

impl Side {
    /// Workload `w` of `plan` as planned; None when unplanned.
    pub fn of(plan: &Plan, w: usize) -> Option<Side> {
        let (c, ch) = plan.chosen(w)?;
        let v = |n: &str| plan.value(c, n).unwrap_or(0.0);
        Some(Side {
            gpu: plan.input.gpus[c.offer].gpu.clone(),
            mode: ch.mode,
            gpus_total: v("gpus_total"),
            gpus_per_replica: v("gpus_per_replica"),
            run_hours: v("run_hours"),
            utilization: ch.advice.utilization,
            required_vram_gib: v("required_vram_gib"),
            replica_vram_gib: v("replica_vram_gib"),
            tco: ch.tco,
        })
    }
}

/// One workload with measured usage: the plan, the measurement and the advice.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Index into `input.workloads`.
    pub workload: usize,
    /// What the logs measured for the workload.
    pub actual: Actual,
    /// Active hours a month of each of its GPUs (utilization × hours_in_month): the figure
    /// comparable with the plan's run_hours per instance.
    pub measured_hours: f64,
    /// The plan; None when the workload is unplanned.
    pub planned: Option<Side>,
    /// Which advice rules the measured figures meet.
    pub rules: Rules,
    /// The re-plan with the measured figures; None when it plans nothing for the workload.
    pub replanned: Option<Side>,
    /// The planned card, count and mode at the measured figures: what carrying on costs (None
    /// when it could not be re-planned).
    pub as_is: Option<f64>,
    /// What the advice saves a month: carrying on (`as_is`) less the re-plan, when positive,
    /// else 0 (keep).
    pub saving: f64,
}

/// Savings under half a cent are none: a re-plan at the same figures may differ by rounding.
pub(crate) const NOTHING: f64 = 0.005;

/// The rules the measured figures meet for a workload planned as `planned`.
pub fn rules(actual: &Actual, planned: &Side, spot_ok: bool, monthly_min: f64) -> Rules {
    let u = actual.utilization;
    let band = Band::of(u);
    let committed = planned.mode.is_committed();
    Rules {
        monthly: matches!(band, Band::High | Band::Full) && u >= monthly_min && !committed,
        smaller_card: replica_peak(actual, planned)
            .is_some_and(|p| p < planned.replica_vram_gib / 2.0),
        spot: spot_ok && matches!(band, Band::Low | Band::Moderate) && planned.mode != Mode::Spot,
    }
}

/// The memory peak of one replica: the peak on one GPU × GPUs per replica.
pub(crate) fn replica_peak(actual: &Actual, planned: &Side) -> Option<f64> {
    actual
        .memory_peak_gib
        .map(|p| p * planned.gpus_per_replica.max(1.0))
}

/// Each measured workload the plan planned: its measurement, its index, its planned side, and
/// the change setting its measured `hours_per_month` (at most 744, the column's limit).
fn measured_and_planned<'a>(
    plan: &'a Plan,
    actuals: &'a [Actual],
) -> impl Iterator<Item = (&'a Actual, usize, Side, Change)> + 'a {
    let h = plan.input.assumptions.number("hours_in_month", 730.0);
    actuals.iter().filter_map(move |a| {
        let w = plan
            .input
            .workloads
            .iter()
            .position(|w| w.name == a.workload)?;
        let planned = Side::of(plan, w)?;
        let hours = (a.utilization * h).clamp(0.0, 744.0);
        let set = Change::set(workload(plan, w), "hours_per_month", hours);
        Some((a, w, planned, set))
    })
}

/// The changes of the re-plan: per measured, planned workload its `hours_per_month`, and its
/// `vram_gib` where the memory rule applies (at least 0.1 GiB: the column must be positive).
pub fn replan_changes(plan: &Plan, actuals: &[Actual]) -> Vec<Change> {
    let monthly_min = plan
        .input
        .assumptions
        .number("monthly_min_utilization", 0.4);
    let mut sets = Vec::new();
    for (a, w, planned, hours) in measured_and_planned(plan, actuals) {
        sets.push(hours);
        let r = rules(a, &planned, plan.input.workloads[w].spot_ok, monthly_min);
        if r.smaller_card {
            if let Some(p) = replica_peak(a, &planned) {
                sets.push(Change::set(workload(plan, w), "vram_gib", p.max(0.1)));
            }
        }
    }
    sets
}

/// The changes that re-plan each measured workload at its measured hours on the card it was
/// planned on (pinned), to price carrying on as planned: the baseline of the saving.
pub fn as_is_changes(plan: &Plan, actuals: &[Actual]) -> Vec<Change> {
    let mut sets = Vec::new();
    for (_, w, planned, hours) in measured_and_planned(plan, actuals) {
        sets.push(hours);
        sets.push(Change::set(workload(plan, w), "gpu", &planned.gpu));
    }
    sets
}

/// The target of a change to workload `w`.
fn workload(plan: &Plan, w: usize) -> Target {
    Target::Workload(plan.input.workloads[w].name.clone())
}

/// What workload `w` costs a month in `as_is` (the re-plan with [`as_is_changes`]) on the
/// planned mode: its cost there plus storage and egress; None where that mode is not priced.
fn carrying_on(as_is: &Plan, w: usize, mode: Mode) -> Option<f64> {
    let (c, _) = as_is.chosen(w)?;
    let v = |n: &str| as_is.value(c, n).unwrap_or(0.0);
    Some(c.cost(mode)? + v("storage_cost") + v("egress_cost"))
}

/// The rows of the Actuals tab, from the plan, its re-plan with [`replan_changes`] and its re-plan
/// with [`as_is_changes`] (None where nothing could be re-planned).
pub fn compare(
    plan: &Plan,
    replan: Option<&Plan>,
    as_is: Option<&Plan>,
    actuals: &[Actual],
) -> Vec<Row> {
    let monthly_min = plan
        .input
        .assumptions
        .number("monthly_min_utilization", 0.4);
    let h = plan.input.assumptions.number("hours_in_month", 730.0);
    let mut rows = Vec::new();
    for a in actuals {
        let Some(w) = plan
            .input
            .workloads
            .iter()
            .position(|w| w.name == a.workload)
        else {
            continue;
        };
        let planned = Side::of(plan, w);
        let replanned = replan.and_then(|p| Side::of(p, w));
        let rules = planned.as_ref().map_or(Rules::default(), |s| {
            rules(a, s, plan.input.workloads[w].spot_ok, monthly_min)
        });
        let carrying = planned
            .as_ref()
            .and_then(|p| as_is.and_then(|x| carrying_on(x, w, p.mode)));
        let saving = match (carrying, &replanned) {
            (Some(c), Some(r)) if c - r.tco > NOTHING => c - r.tco,
            _ => 0.0,
        };
        rows.push(Row {
            workload: w,
            actual: a.clone(),
            measured_hours: a.utilization * h,
            planned,
            rules,
            replanned,
            as_is: carrying,
            saving,
        });
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actual(utilization: f64, peak: Option<f64>) -> Actual {
        Actual {
            workload: "w".into(),
            gpus: 1,
            active_hours_month: utilization * 730.0,
            utilization,
            busy_utilization: Some(0.8),
            memory_peak_gib: peak,
            memory_p95_gib: peak,
            days_covered: 7.0,
            first_sample: None,
            last_sample: None,
            samples: 10,
            active_hours: 1.0,
            memory_total_gib: None,
            gpu_ids: vec!["node1:0".into()],
        }
    }

    fn side(mode: Mode, gpr: f64, card: f64) -> Side {
        Side {
            gpu: "L40S".into(),
            mode,
            gpus_total: gpr,
            gpus_per_replica: gpr,
            run_hours: 730.0,
            utilization: 1.0,
            required_vram_gib: 30.0,
            replica_vram_gib: card,
            tco: 100.0,
        }
    }

    #[test]
    fn each_rule_fires_on_its_measured_figure_and_not_beside_it() {
        let od = side(Mode::OnDemand, 1.0, 48.0);
        // 0.5 is the high band's floor; monthly_min_utilization 0.4 is below it.
        assert!(rules(&actual(0.5, None), &od, false, 0.4).monthly);
        assert!(!rules(&actual(0.49, None), &od, false, 0.4).monthly);
        // Above the band but under a higher monthly_min_utilization: no.
        assert!(!rules(&actual(0.6, None), &od, false, 0.65).monthly);
        // Already monthly: nothing to switch to.
        let m = side(Mode::Monthly, 1.0, 48.0);
        assert!(!rules(&actual(0.9, None), &m, false, 0.4).monthly);
        // Half of 48 GiB is 24: 23.9 is below, 24 is not; with 2 GPUs a replica the peak on one
        // GPU counts twice (23 × 2 = 46 of 96: below 48).
        assert!(rules(&actual(0.1, Some(23.9)), &od, false, 0.4).smaller_card);
        assert!(!rules(&actual(0.1, Some(24.0)), &od, false, 0.4).smaller_card);
        assert!(
            rules(
                &actual(0.1, Some(23.0)),
                &side(Mode::OnDemand, 2.0, 96.0),
                false,
                0.4
            )
            .smaller_card
        );
        assert!(
            !rules(
                &actual(0.1, Some(24.0)),
                &side(Mode::OnDemand, 2.0, 96.0),
                false,
                0.4
            )
            .smaller_card
        );
        assert!(!rules(&actual(0.1, None), &od, false, 0.4).smaller_card);
        // Spot: interruptible and under 50 %.
        assert!(rules(&actual(0.3, None), &od, true, 0.4).spot);
        assert!(!rules(&actual(0.3, None), &od, false, 0.4).spot);
        assert!(!rules(&actual(0.6, None), &od, true, 0.4).spot);
        assert!(!rules(&actual(0.3, None), &side(Mode::Spot, 1.0, 48.0), true, 0.4).spot);
    }

    /// A row whose plan (¥100 a month) would cost `replanned.tco + saving` carried on at the
    /// measured use.
    fn row(rules: Rules, replanned: Side, saving: f64, u: f64, peak: Option<f64>) -> Row {
        Row {
            workload: 0,
            actual: actual(u, peak),
            measured_hours: u * 730.0,
            planned: Some(side(Mode::OnDemand, 1.0, 48.0)),
            rules,
            as_is: Some(replanned.tco + saving),
            replanned: Some(replanned),
            saving,
        }
    }

    #[test]
    fn the_advice_names_the_change_the_rules_and_the_saving() {
        let money = |v: f64| format!("¥{v:.2}");
        let monthly = Side {
            mode: Mode::Monthly,
            tco: 60.0,
            ..side(Mode::Monthly, 1.0, 48.0)
        };
        let r = row(
            Rules {
                monthly: true,
                ..Rules::default()
            },
            monthly,
            40.0,
            0.8,
            None,
        );
        assert_eq!(
            r.advice(&money).en,
            "switch to monthly: measured 584 h a month against 730 planned (utilization 80%), in the monthly band; saves ¥40.00 a month against carrying on as planned; at the measured use the month costs ¥60.00 (planned ¥100.00)"
        );
        assert!(r.advice(&money).zh.starts_with("改包月："));
        let small = Side {
            gpu: "A10".into(),
            replica_vram_gib: 24.0,
            tco: 30.0,
            ..side(Mode::OnDemand, 1.0, 24.0)
        };
        let r = row(
            Rules {
                smaller_card: true,
                ..Rules::default()
            },
            small,
            70.0,
            0.1,
            Some(8.0),
        );
        assert_eq!(
            r.advice(&money).en,
            "switch to a smaller card, 1 × A10: measured 73 h a month against 730 planned (utilization 10%), memory peak 8 GiB is below half of the card's 48 GiB; saves ¥70.00 a month against carrying on as planned; at the measured use the month costs ¥30.00 (planned ¥100.00)"
        );
        let spot = Side {
            mode: Mode::Spot,
            tco: 20.0,
            ..side(Mode::Spot, 1.0, 48.0)
        };
        let r = row(
            Rules {
                spot: true,
                ..Rules::default()
            },
            spot,
            80.0,
            0.3,
            None,
        );
        assert!(
            r.advice(&money).en.starts_with("switch to spot: "),
            "{}",
            r.advice(&money).en
        );
        assert!(r
            .advice(&money)
            .en
            .contains("interruptible work that runs in bursts"));
        // An under-estimated plan: monthly costs more than planned, yet ¥30 less than carrying
        // on with on-demand at the measured hours (¥160): the saving is against that.
        let monthly = Side {
            mode: Mode::Monthly,
            tco: 130.0,
            ..side(Mode::Monthly, 1.0, 48.0)
        };
        let r = row(
            Rules {
                monthly: true,
                ..Rules::default()
            },
            monthly,
            30.0,
            0.75,
            None,
        );
        assert_eq!(
            r.advice(&money).en,
            "switch to monthly: measured 547.5 h a month against 730 planned (utilization 75%), in the monthly band; saves ¥30.00 a month against carrying on as planned; at the measured use the month costs ¥130.00 (planned ¥100.00)"
        );
        // Not cheaper: keep, with what the month costs at the measured use.
        let dearer = Side {
            tco: 150.0,
            ..side(Mode::OnDemand, 1.0, 48.0)
        };
        let r = row(Rules::default(), dearer, 0.0, 0.3, None);
        assert_eq!(
            r.advice(&money).en,
            "keep: 1 × L40S on-demand; measured 219 h a month against 730 planned (utilization 30%); at the measured use the month costs ¥150.00 (planned ¥100.00)"
        );
        assert!(r.advice(&money).zh.starts_with("保持："));
    }
}

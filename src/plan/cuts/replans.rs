//! The month's plan as the cuts re-plan it: each workload's chosen candidate alone, the
//! portfolio's sums and the fleet, re-packed on the GPUs a combination of cuts touches.

use super::{Alt, Context};
use crate::model::{Input, Month};
use crate::plan::portfolio::{totals_of, Sums};
use crate::plan::year::costs_in;
use crate::plan::{Chosen, NeedSum, WorkloadPlan};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// Workloads of the month on one GPU at most for a cut to re-pack its fleet: past it (a pack
/// of many may take the fleet's whole time limit) the GPU's fleet saving is kept as it was.
const MAX_PACK: usize = 32;
/// Packs of the fleet the cuts make at most (each may take the fleet's time limit).
const MAX_PACKS: usize = 256;

/// A pack of the fleet: a GPU and its workloads, each as planned (0) or with a cut (the cut's
/// action + 1).
type PackKey = (String, Vec<(usize, u8)>);

/// The month's plan as the cuts re-plan it: each workload's chosen candidate alone (nothing
/// chosen where it does not cost in the month), their portfolio sums (a cut takes its
/// workload's out and puts the changed one in), and the fleet. A job moves, and a service
/// shares a card, only on its own GPU, so a cut re-packs only the GPUs it leaves and takes, and
/// the month's fleet saving changes by theirs (a pack of the same workloads is kept, not
/// repeated). With the fleet's packing exact (proven optimal), that is the saving a re-plan
/// with the cut's `--set` finds.
pub(super) struct Replans<'a> {
    cx: &'a Context<'a>,
    pub(super) plans: Vec<WorkloadPlan>,
    sums: Sums,
    /// The GPU of each workload's chosen offer in the month (None: it does not cost in it).
    gpu: Vec<Option<String>>,
    /// The month's fleet saving (packed as a whole; a cut changes it by what re-packing the
    /// GPUs it touches changes theirs).
    pub(super) fleet: f64,
    packs: RefCell<HashMap<PackKey, f64>>,
    /// Whether some cut's fleet was taken as it was, not re-packed ([`Replans::repacks`]).
    pub(super) estimated: Cell<bool>,
    /// The GPUs whose fleet in the month shares cards, packed to a proven optimum.
    proven: RefCell<Vec<String>>,
}

impl<'a> Replans<'a> {
    pub(super) fn new(cx: &'a Context<'a>, month: Month) -> Replans<'a> {
        let input = cx.input;
        let plans: Vec<WorkloadPlan> = cx
            .plans
            .iter()
            .zip(&input.workloads)
            .map(|(wp, w)| alone(wp).filter(|p| costs_in(input, w, p, cx.start, month).0))
            .map(|p| p.unwrap_or_else(nothing))
            .collect();
        let mut sums = Sums::new(cx.columns.len());
        for (wp, (w, full)) in plans.iter().zip(input.workloads.iter().zip(cx.plans)) {
            // An unplanned workload counts as one where it would cost (the Year tab's rule).
            if wp.chosen.is_some()
                || (full.chosen.is_none() && costs_in(input, w, full, cx.start, month).0)
            {
                sums.add(wp, 1.0);
            }
        }
        let gpu = plans.iter().map(|wp| gpu_of(input, wp)).collect();
        let mut r = Replans {
            cx,
            plans,
            sums,
            gpu,
            fleet: 0.0,
            packs: RefCell::new(HashMap::new()),
            estimated: Cell::new(false),
            proven: RefCell::new(Vec::new()),
        };
        // The month's fleet, packed as a whole (as the plan packs its own).
        let mut scratch = Vec::new();
        r.fleet = crate::plan::fleet_for(input, &r.plans, &cx.readers(), 0.0, &mut scratch)
            .map_or(0.0, |f| f.saving);
        r
    }

    /// The fleet's saving on GPU `gpu` with the cuts `combo` made.
    fn pack(&self, gpu: &str, combo: &[&Alt]) -> f64 {
        let mut members: Vec<(usize, u8)> = (0..self.plans.len())
            .filter(|&i| self.gpu[i].as_deref() == Some(gpu))
            .filter(|&i| combo.iter().all(|a| a.workload != i))
            .map(|i| (i, 0))
            .collect();
        members.extend(
            combo
                .iter()
                .filter(|a| a.runs && gpu_of(self.cx.input, &a.plan).as_deref() == Some(gpu))
                .map(|a| (a.workload, a.action as u8 + 1)),
        );
        members.sort_unstable();
        let key = (gpu.to_string(), members);
        if let Some(v) = self.packs.borrow().get(&key) {
            return *v;
        }
        let mut plans: Vec<WorkloadPlan> = (0..self.plans.len()).map(|_| nothing()).collect();
        for &(i, tag) in &key.1 {
            plans[i] = match tag {
                0 => self.plans[i].clone(),
                _ => combo
                    .iter()
                    .find(|a| a.workload == i)
                    .map_or_else(nothing, |a| a.plan.clone()),
            };
        }
        // A trial's fleet warnings are not the plan's.
        let mut scratch = Vec::new();
        let fleet =
            crate::plan::fleet_for(self.cx.input, &plans, &self.cx.readers(), 0.0, &mut scratch);
        let saving = fleet.as_ref().map_or(0.0, |f| f.saving);
        if fleet.is_some_and(|f| f.solver.optimal) && combo.is_empty() {
            self.proven.borrow_mut().push(gpu.to_string());
        }
        self.packs.borrow_mut().insert(key, saving);
        saving
    }

    /// Whether a cut re-packs the fleet on GPU `gpu` (of at most [`MAX_PACK`] workloads): where
    /// the month's fleet shares its cards and its packing was proven optimal, within
    /// [`MAX_PACKS`] packs. A packing that found nothing to share, or ran into the
    /// solver's limits, may have taken the fleet's whole time limit, and each re-pack would too.
    fn repacks(&self, gpu: &str) -> bool {
        self.proven.borrow().iter().any(|g| g == gpu) && self.packs.borrow().len() < MAX_PACKS
    }

    /// The month's budget with the cuts `combo` made, and the fleet's saving in it: the
    /// portfolio's total with safety margin, less the fleet's saving, plus what the cuts add
    /// outside the plan (an API's bill); `None` when the portfolio has no value.
    pub(super) fn after(&self, combo: &[&Alt]) -> Option<(f64, f64)> {
        let mut sums = self.sums.clone();
        let mut extra = 0.0;
        let mut gpus: Vec<String> = Vec::new();
        for a in combo {
            sums.add(&self.plans[a.workload], -1.0);
            if a.runs {
                sums.add(&a.plan, 1.0);
            }
            extra += a.extra;
            gpus.extend(self.gpu[a.workload].clone());
            gpus.extend(gpu_of(self.cx.input, &a.plan).filter(|_| a.runs));
        }
        gpus.sort();
        gpus.dedup();
        let totals = totals_of(self.cx.programs, self.cx.input, self.cx.columns, &sums).ok()?;
        let with_margin = totals.sum(NeedSum::TOTAL_WITH_MARGIN);
        let mut fleet = self.fleet;
        for g in &gpus {
            let size = self.gpu.iter().filter(|x| x.as_deref() == Some(g)).count();
            if size > MAX_PACK {
                // The GPU's fleet is taken as it was.
                self.estimated.set(true);
                continue;
            }
            let before = self.pack(g, &[]);
            if !self.repacks(g) {
                // Taken as it was too: nothing where it shared nothing.
                if before > 0.0 || self.packs.borrow().len() >= MAX_PACKS {
                    self.estimated.set(true);
                }
                continue;
            }
            fleet += self.pack(g, combo) - before;
        }
        Some((with_margin - fleet + extra, fleet))
    }
}

/// The GPU of a plan's chosen offer.
fn gpu_of(input: &Input, wp: &WorkloadPlan) -> Option<String> {
    let ch = wp.chosen.as_ref()?;
    Some(input.gpus[wp.candidates[ch.candidate].offer].gpu.clone())
}

/// A workload plan of nothing (a workload that does not cost in the month).
fn nothing() -> WorkloadPlan {
    WorkloadPlan {
        candidates: Vec::new(),
        chosen: None,
        unplanned: None,
    }
}

/// A workload plan of its chosen candidate alone (what the totals and the fleet read).
pub(super) fn alone(wp: &WorkloadPlan) -> Option<WorkloadPlan> {
    let ch = wp.chosen.as_ref()?;
    Some(WorkloadPlan {
        candidates: vec![wp.candidates[ch.candidate].clone()],
        chosen: Some(Chosen {
            candidate: 0,
            inputs: Vec::new(),
            ..ch.clone()
        }),
        unplanned: None,
    })
}

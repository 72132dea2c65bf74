//! The fleet (seed 001 §5.4, 错峰 and 混部): after each workload is planned on cards of its own,
//! offline jobs move into the hours that cards rented by the month for services leave idle, and
//! small services share a card. Pure: typed inputs, mixed-integer programmes solved by microlp
//! (a greedy answer as warm start) within node limits only, and a schedule as the answer.
//!
//! A saving is claimed only for a schedule that exists: the hosts' idle cards are the same every
//! day, each job run holds its cards together for consecutive whole hours of one day inside its
//! window (a job that checkpoints may split its runs into whole hours across days), days are
//! grouped into day types, and [`check`], written apart from the solver, confirms every card,
//! hour and day type before the answer is kept. The per-workload plan is always a feasible
//! answer, so the fleet never costs more than it.

mod check;
mod jobs;
mod of_plan;
mod share;
mod solve;

pub use check::check;
pub use of_plan::{fleet_of, Carried, FleetCard, FleetPlan, Readers, ScheduleJson, SolverJson};

use crate::model::DayWindow;

/// A service rented by the month whose cards are partly idle off-peak.
#[derive(Debug, Clone, PartialEq)]
pub struct Host {
    /// Index of the workload.
    pub workload: usize,
    /// The rented card (GPU at its provider): a job moves only onto a card it has a fit for.
    pub card: String,
    /// Memory of one card, GiB.
    pub vram_gib: f64,
    /// Cards rented.
    pub cards: usize,
    /// Cards the service itself uses in each hour of the day (at peak all of them, off-peak
    /// those of its base instances, none outside the peak of a service busy only then).
    pub busy: [usize; 24],
}

impl Host {
    /// Cards idle in hour `h` of the day (0–23).
    pub fn idle(&self, h: usize) -> usize {
        self.cards.saturating_sub(self.busy[h % 24])
    }

    /// The hour of the day its schedule's days start at: where its idle cards rise after its
    /// busiest stretch (21:00 for a service that peaks 09-21), so that a night's idle hours
    /// fall in one day; 0 when it is idle alike all day.
    pub fn first_hour(&self) -> usize {
        let rises: Vec<usize> = (0..24)
            .filter(|&h| self.idle(h) > self.idle((h + 23) % 24))
            .collect();
        // Of the rises, the one followed by the longest stretch of idle cards.
        let stretch = |h: usize| (0..24).take_while(|k| self.idle(h + k) > 0).count();
        rises
            .iter()
            .copied()
            .max_by_key(|&h| (stretch(h), std::cmp::Reverse(h)))
            .unwrap_or(0)
    }
}

/// How a job would run on one kind of card: the figures of its plan on that card.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The card (as [`Host::card`] names it).
    pub card: String,
    /// Cards it holds together (all its instances).
    pub cards: usize,
    /// Memory it needs on each card, GiB.
    pub vram_gib: f64,
    /// Hours a month its runs take on this card, all together.
    pub hours: f64,
}

/// An offline job billed by the hour, which could run on a host's idle cards instead.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Index of the workload (into the input's workloads) this job is.
    pub workload: usize,
    /// Separate runs a month (`runs_per_month`).
    pub runs: usize,
    /// Whether it checkpoints, so that a run may be split into whole hours across days.
    pub resumable: bool,
    /// When it may run.
    pub window: DayWindow,
    /// Its GPU cost on its own rental a month: what moving it saves.
    pub cost: f64,
    /// The cards it could run on, each with its figures there (its own card first).
    pub fits: Vec<Fit>,
}

impl Job {
    /// Whole hours one run holds its cards on `fit`: its hours over its runs, rounded up.
    pub fn run_len(&self, fit: &Fit) -> usize {
        let runs = self.runs.max(1) as f64;
        ((fit.hours / runs - 1e-9).ceil()).max(1.0) as usize
    }

    /// What a month of it needs on `fit`: `(pieces, hours each)`: its runs of
    /// [`Job::run_len`] hours, or, for a job that checkpoints, as many one-hour pieces.
    pub fn demand(&self, fit: &Fit) -> (usize, usize) {
        let len = self.run_len(fit);
        if self.resumable {
            (self.runs.max(1) * len, 1)
        } else {
            (self.runs.max(1), len)
        }
    }
}

/// An online service whose instances could share a card with other services' instances.
#[derive(Debug, Clone, PartialEq)]
pub struct Service {
    /// Index of the workload (into the input's workloads) this service is.
    pub workload: usize,
    /// What it may share with: the same offer and billing mode (one price a card).
    pub group: String,
    /// Its instances, each on one card of its own in the per-workload plan.
    pub instances: usize,
    /// Memory one instance takes on a shared card, GiB (for an engine that preallocates, its
    /// share of the card rounded up to the hundredth it is launched with).
    pub vram_gib: f64,
    /// Share of one card's throughput one instance uses at peak (0–1): the service's peak need
    /// over what one card delivers for it, spread over its replicas.
    pub load: f64,
    /// Hours of a card one instance's work takes a month.
    pub busy_hours: f64,
    /// Memory the instances on one card may take together, GiB.
    pub card_vram_gib: f64,
    /// What one card costs a month.
    pub card_cost: f64,
}

/// What the packing may spend, in work, never in time: the same input gives the same fleet on
/// any machine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Branch-and-bound nodes of each programme.
    pub nodes: u64,
    /// Branch-and-bound nodes of all the fleet's programmes together: past it each remaining
    /// part keeps its greedy answer (its gap to the bound reported), so that a portfolio of
    /// thousands of services packs in seconds, not in a node limit per chunk.
    pub total_nodes: u64,
    /// Placements tried when checking one day of runs on a host's cards.
    pub placements: u64,
    /// Day types (sets of runs that fit one day) listed for one host at most.
    pub patterns: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            nodes: 2000,
            total_nodes: 20_000,
            placements: 4_000,
            patterns: 60,
        }
    }
}

/// The workloads that may share cards, and the month they share.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetInput {
    /// Services rented by the month whose idle cards may take jobs.
    pub hosts: Vec<Host>,
    /// Offline jobs billed by the hour that may move onto the hosts' idle cards.
    pub jobs: Vec<Job>,
    /// Online services whose instances may share cards within their group.
    pub services: Vec<Service>,
    /// Whole days of the month a schedule may use: `hours_in_month / 24`, rounded down.
    pub days: usize,
    /// Hours of the month: what the services sharing a card may work there together.
    pub hours_in_month: f64,
}

impl Default for FleetInput {
    fn default() -> Self {
        FleetInput {
            hosts: Vec::new(),
            jobs: Vec::new(),
            services: Vec::new(),
            days: 30,
            hours_in_month: 730.0,
        }
    }
}

/// Who holds a card in one hour of a day type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// Nobody: the card is rented but neither its service nor a moved job uses it.
    Idle,
    /// The host's own service.
    Service,
    /// A job (index into [`FleetInput::jobs`]).
    Job(usize),
}

/// One run of a job in a day type: its cards, held together from `first_slot` for `len` hours
/// (slots count from the host's [`Host::first_hour`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Index into [`FleetInput::jobs`].
    pub job: usize,
    /// The slot it starts in: hours after the host's [`Host::first_hour`], 0–23.
    pub first_slot: usize,
    /// Whole hours it holds its cards; `first_slot + len` is at most 24 (a run stays in its
    /// day).
    pub len: usize,
    /// The host's cards it holds (0-based).
    pub cards: Vec<usize>,
}

/// Days of the month that share one arrangement of runs.
#[derive(Debug, Clone, PartialEq)]
pub struct DayType {
    /// Days of the month it is used.
    pub days: usize,
    /// The job runs each of those days, on the host's idle cards.
    pub runs: Vec<Run>,
    /// Each card's holder in each hour of the day, 0–23 (clock hours).
    pub cards: Vec<[Holder; 24]>,
}

/// A host's month: its day types.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// Index into [`FleetInput::hosts`].
    pub host: usize,
    /// The clock hour its days start at (runs do not cross it).
    pub first_hour: usize,
    /// The arrangements of runs its days follow; their `days` add up to at most the month's
    /// [`FleetInput::days`].
    pub day_types: Vec<DayType>,
}

/// A job moved onto a host's idle cards.
#[derive(Debug, Clone, PartialEq)]
pub struct Moved {
    /// Index into [`FleetInput::jobs`].
    pub job: usize,
    /// Index into [`FleetInput::hosts`].
    pub host: usize,
    /// Its fit there (index into the job's `fits`).
    pub fit: usize,
    /// Its GPU cost, no longer paid.
    pub saving: f64,
}

/// One card carrying instances of several services.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedCard {
    /// The sharing group (as [`Service::group`] names it): one offer and billing mode.
    pub group: String,
    /// The workloads with an instance on it.
    pub services: Vec<usize>,
    /// Memory their instances take together, GiB.
    pub vram_gib: f64,
    /// Memory the instances on the card may take together, GiB ([`Service::card_vram_gib`]);
    /// at least `vram_gib`.
    pub card_vram_gib: f64,
    /// Share of the card's throughput they use together at peak.
    pub load: f64,
    /// Hours of the month their work takes together.
    pub busy_hours: f64,
}

/// How the solver ended.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Solved {
    /// The answer meets the best bound found: no better fleet exists.
    pub optimal: bool,
    /// Relative gap between the answer's cost and the best bound, over all programmes; 0
    /// when optimality is proven.
    pub gap: f64,
    /// Branch-and-bound nodes the solver explored, over all programmes; counted against
    /// [`Limits::total_nodes`].
    pub nodes: u64,
    /// Programmes where the solver gave no answer, or one the check refused, and the greedy
    /// answer was kept.
    pub fallbacks: usize,
}

/// The fleet: what moved, when it runs, what shares, and the saving against each workload on
/// its own.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Fleet {
    /// The jobs moved onto hosts' idle cards.
    pub moved: Vec<Moved>,
    /// The month of each host that carries a moved job.
    pub schedules: Vec<Schedule>,
    /// The cards carrying instances of several services.
    pub shared: Vec<SharedCard>,
    /// Cards saved by sharing, by group: (group, cards before, cards after, card cost).
    pub groups: Vec<(String, usize, usize, f64)>,
    /// Monthly saving against the per-workload plan (never negative).
    pub saving: f64,
    /// How the solver ended: proven optimal or not, its gap, nodes and fallbacks.
    pub solved: Solved,
}

pub(crate) const EPS: f64 = 1e-6;

/// Packs the fleet: moves jobs onto idle host cards and services onto shared cards. Every
/// answer passes [`check`]; one that would not is never returned (the part concerned keeps
/// each workload on its own cards).
pub fn pack(input: &FleetInput, limits: Limits) -> Fleet {
    let mut solved = Solved {
        optimal: true,
        ..Solved::default()
    };
    let mut cost = 0.0;
    let mut bound = 0.0;
    let jobs = jobs::move_jobs(input, limits, &mut solved);
    cost += jobs.cost;
    bound += jobs.bound;
    let shares = share::share(input, limits, &mut solved);
    cost += shares.cost;
    bound += shares.bound;
    let mut fleet = Fleet {
        saving: jobs.moved.iter().map(|m| m.saving).sum::<f64>() + shares.saving,
        moved: jobs.moved,
        schedules: jobs.schedules,
        shared: shares.shared,
        groups: shares.groups,
        solved,
    };
    fleet.solved.gap = if cost > EPS {
        ((cost - bound) / cost).max(0.0)
    } else {
        0.0
    };
    if fleet.solved.gap <= 1e-9 {
        fleet.solved.gap = 0.0;
        fleet.solved.optimal = true;
    } else {
        fleet.solved.optimal = false;
    }
    if let Err(why) = check(input, &fleet) {
        // Never claim a schedule that does not exist: a refused answer saves nothing.
        debug_assert!(false, "fleet check: {why}");
        return Fleet {
            solved: Solved {
                fallbacks: fleet.solved.fallbacks + 1,
                ..Solved::default()
            },
            ..Fleet::default()
        };
    }
    fleet
}

#[cfg(test)]
mod tests;

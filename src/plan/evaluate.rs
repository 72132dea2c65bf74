//! Evaluating one workload on every offer: feasibility, each mode's price, the best option of
//! each mode, and the best candidates kept for the Candidates tab.

use super::compat::{self, Verdict};
use super::layout::Layout;
use super::programs::{Keys, OwnNeeds, Programs};
use super::Mode;
use super::{Candidate, Exclusion, Said};
use crate::error::Problem;
use crate::model::{format_number, format_tenths, GpuOffer, Input, Workload};

/// The best option of one billing mode over all feasible candidates of a workload.
#[derive(Debug, Clone, Copy)]
pub(super) struct Best {
    pub(super) tco: f64,
    pub(super) gpus: f64,
    pub(super) offer: usize,
    /// GPUs per replica of the candidate.
    pub(super) size: f64,
    /// The candidate's cache layout.
    pub(super) layout: Layout,
}

impl Best {
    pub(super) fn better_than(&self, other: &Best) -> bool {
        self.tco
            .total_cmp(&other.tco)
            .then(self.gpus.total_cmp(&other.gpus))
            .then(self.offer.cmp(&other.offer))
            .then(self.size.total_cmp(&other.size))
            .then(self.layout.cmp(&other.layout))
            .is_lt()
    }
}

/// An evaluated candidate before the best are kept.
struct Row {
    offer: usize,
    layout: Layout,
    /// Offset of its values in the arena.
    at: usize,
    /// Why it cannot be chosen.
    why: Option<Why>,
    /// Each mode's cost, where offered and allowed.
    costs: [Option<f64>; Mode::ALL.len()],
    /// Feasible first (0) by least TCO, fewer GPUs, sheet order, the layout as set first; the
    /// rest (1) largest offer first.
    rank: (u8, f64, f64, usize, Layout),
}

/// Why a candidate cannot be chosen.
#[derive(Debug, Clone, Copy)]
pub(super) enum Why {
    Incompatible,
    Misfit,
    NoMode,
}

/// One workload evaluated on all its offers.
pub(super) struct Evaluated {
    /// Kept candidates, best first (feasible by least TCO, then the rest, largest offer first).
    pub(super) candidates: Vec<Candidate>,
    /// How many were evaluated.
    pub(super) evaluated: usize,
    pub(super) best: [Option<Best>; Mode::ALL.len()],
    /// GPUs set aside because they cannot run the workload's formats, with what each lacks
    /// (`fp8 needs compute capability ≥ 8.9`).
    pub(super) incompatible: Vec<(String, Vec<Said>)>,
    /// Why nothing fits, when nothing does.
    pub(super) unplanned: Option<Said>,
}

/// One evaluated (offer, replica size) with every slot's value, inputs included, and whether it
/// is out for a reason no price can change (it does not fit, or the platform cannot run it).
#[derive(Clone)]
pub(super) struct FullRow {
    pub(super) offer: usize,
    pub(super) layout: Layout,
    pub(super) out: bool,
    pub(super) values: Vec<f64>,
}

/// Evaluates one workload on every available offer (or its pinned one) and keeps the best.
pub(super) fn evaluate_workload(
    programs: &Programs,
    input: &Input,
    w: &Workload,
    keys: &Keys,
    keep: usize,
) -> std::result::Result<Evaluated, Problem> {
    evaluate_workload_into(programs, input, w, keys, keep, None)
}

/// As [`evaluate_workload`], also handing every evaluated row's whole slot vector to `sink`
/// (the sensitivity sampling re-runs only the cost formulas over them).
pub(super) fn evaluate_workload_into(
    programs: &Programs,
    input: &Input,
    w: &Workload,
    keys: &Keys,
    keep: usize,
    sink: Option<&mut Vec<FullRow>>,
) -> std::result::Result<Evaluated, Problem> {
    let mut sweep = Sweep::new(programs, input, w, keys, sink)?;
    let pin = w.gpu.as_deref().map(crate::model::normalize);
    let offers: Vec<(usize, &GpuOffer)> = input
        .gpus
        .iter()
        .enumerate()
        .filter(|(_, offer)| {
            offer.available
                && pin
                    .as_ref()
                    .is_none_or(|p| *p == crate::model::normalize(&offer.gpu))
        })
        .collect();
    for &(oi, offer) in &offers {
        sweep.offer(oi, offer)?;
    }
    // A latent cache copied to every GPU of a replica: the layouts the engine offers instead.
    for layout in Layout::alternatives(input, w) {
        if !programs.reads_layout(layout) {
            continue;
        }
        sweep.relayout(layout)?;
        for &(oi, offer) in &offers {
            sweep.offer(oi, offer)?;
        }
    }
    Ok(sweep.finish(keep))
}

/// One workload's evaluation in progress: the slot vectors it reuses, and every row evaluated
/// so far with each mode's best.
struct Sweep<'a> {
    programs: &'a Programs,
    input: &'a Input,
    w: &'a Workload,
    keys: &'a Keys,
    /// How many of the slots are inputs (a row's values start after them).
    n_in: usize,
    /// How many values a row keeps (the slots after the inputs).
    width: usize,
    scratch: crate::formula::Scratch,
    /// The workload's values before any offer is bound.
    base: Vec<f64>,
    /// The cache layout of the rows being evaluated.
    layout: Layout,
    /// The row being evaluated, inputs included.
    values: Vec<f64>,
    /// Every row's values, one after another (`Row::at`).
    arena: Vec<f64>,
    rows: Vec<Row>,
    best: [Option<Best>; Mode::ALL.len()],
    incompatible: Vec<(String, Vec<Said>)>,
    sink: Option<&'a mut Vec<FullRow>>,
}

impl<'a> Sweep<'a> {
    /// Starts the evaluation of workload `w`, its own values computed once for all offers.
    fn new(
        programs: &'a Programs,
        input: &'a Input,
        w: &'a Workload,
        keys: &'a Keys,
        sink: Option<&'a mut Vec<FullRow>>,
    ) -> std::result::Result<Self, Problem> {
        let p = &programs.candidate;
        let n_in = p.inputs();
        let mut scratch = p.scratch();
        let base = programs.workload_values(input, w, &mut scratch)?;
        Ok(Sweep {
            programs,
            input,
            w,
            keys,
            n_in,
            width: p.width() - n_in,
            scratch,
            values: base.clone(),
            base,
            layout: Layout::AsSet,
            arena: Vec::new(),
            rows: Vec::new(),
            best: [None; Mode::ALL.len()],
            incompatible: Vec::new(),
            sink,
        })
    }

    /// Evaluates the next offers with the cache laid out as `layout`.
    fn relayout(&mut self, layout: Layout) -> std::result::Result<(), Problem> {
        self.base =
            self.programs
                .workload_values_in(self.input, self.w, layout, &mut self.scratch)?;
        self.layout = layout;
        Ok(())
    }

    /// Evaluates offer `oi` at each replica size worth trying, noting first what the offer's
    /// GPU lacks when it cannot run the workload's formats.
    fn offer(&mut self, oi: usize, offer: &GpuOffer) -> std::result::Result<(), Problem> {
        let verdict = compat::verdict(self.w, offer);
        if let Verdict::Excluded { needs, .. } = &verdict {
            if !self.incompatible.iter().any(|(g, _)| *g == offer.gpu) {
                self.incompatible.push((offer.gpu.clone(), needs.clone()));
            }
        }
        // Replica sizes 1, 2, 4, … up to the workload's limit, each its own candidate: a
        // larger tensor-parallel replica pools its GPUs' memory for more requests. A size too
        // small for the weights jumps to the size that holds them; larger sizes are tried only
        // while the current one needs more than one replica (or does not fit), since one
        // replica on more GPUs can only cost more.
        let (programs, input, w) = (self.programs, self.input, self.w);
        let limit = w.numbers.max_gpus.unwrap_or(offer.gpus_per_node).max(1.0);
        let mut size = 1.0;
        self.values.copy_from_slice(&self.base);
        programs.evaluate(input, w, oi, size, &mut self.values, &mut self.scratch)?;
        loop {
            let needs = self.values[self.n_in + self.keys.gpus_per_replica];
            if needs > size && needs <= limit {
                size = needs;
                programs.resize(input, w, oi, size, &mut self.values, &mut self.scratch)?;
                continue;
            }
            let try_larger = self.record(oi, offer, &verdict, limit, size);
            if !try_larger {
                break;
            }
            size *= 2.0;
            programs.resize(input, w, oi, size, &mut self.values, &mut self.scratch)?;
        }
        Ok(())
    }

    /// Records the row just evaluated on offer `oi` at replica size `size` (within `limit`):
    /// its exclusion, costs and rank, each mode's best, the sink's copy. Says whether a larger
    /// replica is worth trying.
    fn record(
        &mut self,
        oi: usize,
        offer: &GpuOffer,
        verdict: &Verdict,
        limit: f64,
        size: f64,
    ) -> bool {
        let keys = self.keys;
        let vals = &self.values[self.n_in..];
        let needs = vals[keys.gpus_per_replica];
        let try_larger = |exclusion: Option<Why>| {
            matches!(exclusion, None | Some(Why::Misfit))
                && (vals[keys.fits] == 0.0 || vals[keys.replicas] > 1.0)
                && needs <= limit
                && size * 2.0 <= limit
        };
        if self.layout != Layout::AsSet && needs <= 1.0 {
            // One GPU holds the cache once whatever the layout: the row as set stands for it.
            return try_larger(None);
        }
        let (exclusion, costs) = judge(vals, keys, verdict);
        let extra = vals[keys.storage] + vals[keys.egress];
        let gpus = vals[keys.gpus_total];
        let mut cheapest = f64::INFINITY;
        if exclusion.is_none() {
            for (i, c) in costs.iter().enumerate() {
                if let Some(c) = c {
                    let b = Best {
                        tco: c + extra,
                        gpus,
                        offer: oi,
                        size: needs,
                        layout: self.layout,
                    };
                    cheapest = cheapest.min(b.tco);
                    if self.best[i].is_none_or(|cur| b.better_than(&cur)) {
                        self.best[i] = Some(b);
                    }
                }
            }
        }
        let layout = self.layout;
        let rank = if exclusion.is_none() {
            (0, cheapest, gpus, oi, layout)
        } else {
            (1, -(offer.vram_gib * limit), 0.0, oi, layout)
        };
        let try_larger = try_larger(exclusion);
        if let Some(sink) = self.sink.as_deref_mut() {
            sink.push(FullRow {
                offer: oi,
                layout: self.layout,
                out: matches!(exclusion, Some(Why::Incompatible | Why::Misfit)),
                values: self.values.clone(),
            });
        }
        self.rows.push(Row {
            offer: oi,
            layout: self.layout,
            at: self.arena.len(),
            why: exclusion,
            costs,
            rank,
        });
        self.arena.extend_from_slice(&self.values[self.n_in..]);
        try_larger
    }

    /// Keeps the best `keep` rows (at least one) as candidates, best first, and says why
    /// nothing fits when no mode has a best.
    fn finish(self, keep: usize) -> Evaluated {
        let Sweep {
            input,
            w,
            keys,
            width,
            arena,
            mut rows,
            best,
            incompatible,
            ..
        } = self;
        let evaluated = rows.len();
        rows.sort_by(|a, b| {
            let (x, y) = (a.rank, b.rank);
            x.0.cmp(&y.0)
                .then(x.1.total_cmp(&y.1))
                .then(x.2.total_cmp(&y.2))
                .then(x.3.cmp(&y.3))
                .then(x.4.cmp(&y.4))
        });
        rows.truncate(keep.max(1));
        // Collected into a new vector: collecting in place would keep the capacity of every row
        // evaluated (4 KB a workload at 20 offers, 435 MB at 100,000 workloads) for the few kept.
        let mut candidates: Vec<Candidate> = Vec::with_capacity(rows.len());
        candidates.extend(rows.into_iter().map(|row| {
            let values = &arena[row.at..row.at + width];
            candidate(row, values, input, w, keys)
        }));
        let unplanned = best
            .iter()
            .all(Option::is_none)
            .then(|| unplanned_reason(w, input, &candidates, keys));
        Evaluated {
            candidates,
            evaluated,
            best,
            incompatible,
            unplanned,
        }
    }
}

/// Why a row is out, if it is (its text is written only for the candidates kept), and each
/// mode's cost, where offered and allowed.
fn judge(
    vals: &[f64],
    keys: &Keys,
    verdict: &Verdict,
) -> (Option<Why>, [Option<f64>; Mode::ALL.len()]) {
    let mut exclusion = None;
    if matches!(verdict, Verdict::Excluded { .. }) {
        exclusion = Some(Why::Incompatible);
    } else if vals[keys.fits] == 0.0 {
        exclusion = Some(Why::Misfit);
    }
    let mut costs = [None; Mode::ALL.len()];
    // A card that cannot hold its own share has no GPU count, so no cost to show.
    let nothing_fits =
        matches!(exclusion, Some(Why::Misfit)) && keys.own.is_some_and(|o| o.exceed(vals));
    for (i, c) in costs.iter_mut().enumerate().filter(|_| !nothing_fits) {
        *c = keys.mode_cost(vals, i);
    }
    if exclusion.is_none() && costs.iter().all(Option::is_none) {
        exclusion = Some(Why::NoMode);
    }
    (exclusion, costs)
}

/// A kept row as a candidate, with its `values` and the text of why it is out.
fn candidate(row: Row, values: &[f64], input: &Input, w: &Workload, keys: &Keys) -> Candidate {
    let Row {
        offer,
        layout,
        why,
        costs,
        ..
    } = row;
    let values = values.to_vec();
    let exclusion = why.map(|why| match why {
        Why::Incompatible => {
            Exclusion::Incompatible(match compat::verdict(w, &input.gpus[offer]) {
                Verdict::Excluded { reason, .. } => reason,
                _ => Said::default(),
            })
        }
        Why::Misfit => Exclusion::Misfit(misfit_reason(&values, keys, w.numbers.max_ttft_s)),
        Why::NoMode => Exclusion::NoMode,
    });
    Candidate {
        offer,
        values,
        exclusion,
        costs,
        layout,
    }
}

/// Runs `f` on every item, on up to `threads` threads over contiguous chunks, results in order.
pub(super) fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|c| s.spawn(|| c.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        // A worker's panic is a bug: carry it to the caller rather than lose its results.
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

pub(super) fn misfit_reason(v: &[f64], k: &Keys, max_ttft_s: Option<f64>) -> Said {
    if let Some(own) = k.own.filter(|o| o.exceed(v)) {
        return own_needs_reason(v, &own);
    }
    let gib = format_tenths;
    let gpus = v[k.gpus_per_replica];
    if let Some(limit) = k.gpu_limit.map(|i| v[i]) {
        if gpus > limit {
            let (gpus, required, limit) = (
                format_number(gpus),
                gib(v[k.required]),
                format_number(limit),
            );
            return Said::new(
                format!("needs {gpus} GPUs per replica ({required} GiB with headroom); at most {limit} allowed"),
                format!("每个副本需要 {gpus} 张 GPU（含余量 {required} GiB）；最多允许 {limit} 张"),
            );
        }
    }
    if v[k.required] > v[k.replica_vram] {
        let (required, has) = (gib(v[k.required]), format_number(v[k.replica_vram]));
        return Said::new(
            format!("needs {required} GiB with headroom; the replica has {has} GiB"),
            format!("含余量需要 {required} GiB；副本只有 {has} GiB"),
        );
    }
    if let (Some((ttft, meets)), Some(goal)) = (k.ttft, max_ttft_s) {
        let goal = format_number(goal);
        if v[meets] == 0.0 && v[ttft] == 0.0 {
            return Said::new(
                format!("max_ttft_s is {goal} s, and the card's TFLOPS are not known (GPUs sheet: fp16_tflops)"),
                format!("max_ttft_s 为 {goal} s，而该卡的 TFLOPS 未知（算力报价表：fp16_tflops）"),
            );
        }
        if v[meets] == 0.0 {
            let first = format_number((v[ttft] * 100.0).round() / 100.0);
            return Said::new(
                format!("the first token takes {first} s at the workload's context; max_ttft_s is {goal} s"),
                format!("按该负载的上下文长度，首 token 需要 {first} s；max_ttft_s 为 {goal} s"),
            );
        }
    }
    if v[k.concurrency_per_replica] < 1.0 {
        return Said::new(
            "cannot serve one request within the memory or the latency goal",
            "在显存或时延目标之内连一个请求也无法服务",
        );
    }
    Said::new(
        "does not fit (the formula fits is false)",
        "放不下（公式 fits 为否）",
    )
}

/// Why a card fits at no replica size: each GPU's own needs (its activations and overhead, and
/// the copies it holds whole) exceed the memory it may hold. Said instead of the GPU count the
/// division by nothing gives (17,179,869,184 a replica, #34 item 7).
fn own_needs_reason(v: &[f64], own: &OwnNeeds) -> Said {
    let gib = format_tenths;
    let per_gpu = v[own.per_gpu];
    let activations = own.activations.map_or(0.0, |i| v[i]);
    let replicated = own.replicated.map_or(0.0, |i| v[i]);
    let (mut needs, mut needs_zh) = if activations > 0.0 {
        let (a, o) = (gib(activations), gib(per_gpu - activations));
        (
            format!("activations {a} GiB + overhead {o} GiB"),
            format!("激活 {a} GiB + 开销 {o} GiB"),
        )
    } else {
        let o = gib(per_gpu);
        (format!("overhead {o} GiB"), format!("开销 {o} GiB"))
    };
    if replicated > 0.0 {
        let r = gib(replicated);
        needs.push_str(&format!(" + copies held whole {r} GiB"));
        needs_zh.push_str(&format!(" + 完整保存的副本 {r} GiB"));
    }
    let usable = gib(v[own.usable]);
    Said::new(
        format!("does not fit: {needs} on each GPU > {usable} GiB usable"),
        format!("放不下：每张 GPU 上 {needs_zh} > 可用的 {usable} GiB"),
    )
}

fn unplanned_reason(w: &Workload, input: &Input, cands: &[Candidate], k: &Keys) -> Said {
    let name = &w.name;
    if cands.is_empty() {
        return match &w.gpu {
            Some(g) => Said::new(
                format!("{name} is unplanned: its pinned GPU {g} has no available offer"),
                format!("{name} 未能规划：指定的 GPU {g} 没有可用的报价"),
            ),
            None => Said::new(
                format!("{name} is unplanned: no GPU offer is available"),
                format!("{name} 未能规划：没有可用的 GPU 报价"),
            ),
        };
    }
    let evaluated: Vec<&Candidate> = cands.iter().filter(|c| !c.values.is_empty()).collect();
    let largest = evaluated.iter().max_by(|a, b| {
        (input.gpus[a.offer].vram_gib * input.gpus[a.offer].gpus_per_node)
            .total_cmp(&(input.gpus[b.offer].vram_gib * input.gpus[b.offer].gpus_per_node))
    });
    match largest {
        Some(c) => {
            let g = &input.gpus[c.offer];
            // The exclusion says what the largest offer lacks (GPUs, memory, or precision support).
            let why = match &c.exclusion {
                Some(e) => Said::from(e.text_both()),
                None => {
                    let gib = format_tenths(c.values[k.required]);
                    Said::new(
                        format!("needs {gib} GiB per replica with headroom"),
                        format!("每个副本含余量需要 {gib} GiB"),
                    )
                }
            };
            let (offer, vram, gpus) = (
                g.label(),
                format_number(g.vram_gib),
                format_number(g.gpus_per_node),
            );
            Said::new(
                format!(
                    "{name} is unplanned: no offer fits. On the largest offer, {offer} ({vram} GiB × up to {gpus}): {}. Lower the context, concurrency or precision, raise max_gpus, or add a larger offer",
                    why.en
                ),
                format!(
                    "{name} 未能规划：没有放得下的报价。在最大的报价 {offer}（{vram} GiB × 最多 {gpus} 张）上：{}。请降低上下文长度、并发数或精度，提高 max_gpus，或添加更大的报价",
                    why.zh
                ),
            )
        }
        None => Said::new(
            format!("{name} is unplanned: no offer can run it"),
            format!("{name} 未能规划：没有报价能运行它"),
        ),
    }
}

//! The compiled formula programs of an input, and the slots of the values the planner reads.

use super::inputs;
use super::layout::Layout;
use super::{FormulaColumn, Hidden, Mode, REQUIRED_CANDIDATE, REQUIRED_PORTFOLIO};
use crate::error::{Error, Problem, Result};
use crate::formula::{Program, Ty};
use crate::model::{FormulaDef, Input, Scope, Workload};

/// The compiled formula programs of an input.
pub struct Programs {
    /// The candidate-scope formulas compiled: run for each (workload, offer, replica size).
    pub candidate: Program,
    /// Positions of the candidate formulas that depend on no GPU figure: evaluated once per
    /// workload (the weights, the KV cache a token needs, the training FLOPs).
    workload_only: Vec<usize>,
    /// Positions of the candidate formulas that depend on the offer or the replica size:
    /// evaluated for each candidate.
    offer_dependents: Vec<usize>,
    /// Positions of the candidate formulas that depend on the replica size: a larger size of
    /// the same offer re-evaluates only these.
    size_dependents: Vec<usize>,
    /// The portfolio-scope formulas compiled: run once over the chosen candidates' sums.
    pub portfolio: Program,
    pub(super) gpu_slots: inputs::GpuSlots,
    pub(super) candidate_defs: Vec<FormulaDef>,
    pub(super) portfolio_defs: Vec<FormulaDef>,
}

impl Programs {
    /// Compiles both scopes, checking the formulas the planner needs are there.
    pub fn compile(input: &Input) -> Result<Programs> {
        let (candidate_defs, portfolio_defs): (Vec<FormulaDef>, Vec<FormulaDef>) = input
            .formulas
            .iter()
            .cloned()
            .partition(|f| f.scope == Scope::Candidate);
        let problems = required_problems(input, &candidate_defs, &portfolio_defs);
        if !problems.is_empty() {
            return Err(input_error(input, problems));
        }
        let (candidate, portfolio) = compile_programs(input, &candidate_defs, &portfolio_defs)?;
        let problems = type_problems(&candidate, &portfolio, &candidate_defs, &portfolio_defs);
        if !problems.is_empty() {
            return Err(input_error(input, problems));
        }
        let gpu_slots = inputs::GpuSlots::new(&candidate);
        let offer_dependents = candidate.dependents(&gpu_slots.slots());
        let workload_only = (0..candidate.order.len())
            .filter(|k| offer_dependents.binary_search(k).is_err())
            .collect();
        Ok(Programs {
            size_dependents: candidate.dependents(&gpu_slots.size_slot()),
            workload_only,
            offer_dependents,
            gpu_slots,
            candidate,
            portfolio,
            candidate_defs,
            portfolio_defs,
        })
    }

    /// Fills the values of one candidate and evaluates the formulas that depend on the offer;
    /// `values` must come from [`Programs::workload_values`]. A non-finite formula is a problem
    /// naming the formula, the workload and the GPU.
    #[allow(clippy::too_many_arguments)]
    pub fn evaluate(
        &self,
        input: &Input,
        w: &Workload,
        offer: usize,
        size: f64,
        values: &mut [f64],
        scratch: &mut crate::formula::Scratch,
    ) -> std::result::Result<(), Problem> {
        let gpu = &input.gpus[offer];
        self.gpu_slots.bind(gpu, offer, w, values);
        self.gpu_slots.bind_size(size, values);
        self.candidate
            .eval_only(&self.offer_dependents, values, scratch)
            .map_err(|e| self.non_finite(e, w, Some(gpu)))
    }

    /// Evaluates `values` (already evaluated on this offer at another replica size) again at
    /// replica size `size`: only the formulas that depend on it run.
    pub fn resize(
        &self,
        input: &Input,
        w: &Workload,
        offer: usize,
        size: f64,
        values: &mut [f64],
        scratch: &mut crate::formula::Scratch,
    ) -> std::result::Result<(), Problem> {
        self.gpu_slots.bind_size(size, values);
        self.candidate
            .eval_only(&self.size_dependents, values, scratch)
            .map_err(|e| self.non_finite(e, w, Some(&input.gpus[offer])))
    }

    fn non_finite(
        &self,
        e: crate::formula::NonFinite,
        w: &Workload,
        gpu: Option<&crate::model::GpuOffer>,
    ) -> Problem {
        let d = &self.candidate_defs[e.def];
        let on = gpu
            .map(|g| format!(" on {}", g.label()))
            .unwrap_or_default();
        Problem::new(
            d.location(),
            format!(
                "has no value (a division by zero, an overflow, or an undefined result such as sqrt(-1), here or in a formula it uses) for workload {}{on}: look at `{}`",
                w.name,
                d.expression
            ),
        )
    }

    /// Every value of one workload on one offer (inputs, then each candidate formula at its
    /// slot), for a single look such as `explain` or `validate`.
    pub fn evaluate_one(
        &self,
        input: &Input,
        w: &Workload,
        offer: usize,
        size: f64,
    ) -> std::result::Result<Vec<f64>, Problem> {
        let mut scratch = self.candidate.scratch();
        let mut values = self.workload_values(input, w, &mut scratch)?;
        self.evaluate(input, w, offer, size, &mut values, &mut scratch)?;
        Ok(values)
    }

    /// The input values of one candidate (replica size `size`), without evaluating it.
    pub fn input_values(
        &self,
        input: &Input,
        w: &Workload,
        offer: usize,
        size: f64,
        layout: Layout,
    ) -> Vec<f64> {
        let mut values = self.bound_inputs(input, w);
        self.bind_layout(layout, &mut values);
        self.gpu_slots
            .bind(&input.gpus[offer], offer, w, &mut values);
        self.gpu_slots.bind_size(size, &mut values);
        values.truncate(self.candidate.inputs());
        // Every chosen candidate keeps these for the live formulas: without the formula slots'
        // capacity (two fifths of it), 99,990 workloads hold about 120 MB less.
        values.shrink_to_fit();
        values
    }

    /// The workload's values before any offer: assumptions and workload inputs bound, and the
    /// formulas that depend on no GPU figure evaluated (once for all its candidates).
    pub fn workload_values(
        &self,
        input: &Input,
        w: &Workload,
        scratch: &mut crate::formula::Scratch,
    ) -> std::result::Result<Vec<f64>, Problem> {
        self.workload_values_in(input, w, Layout::AsSet, scratch)
    }

    /// As [`Programs::workload_values`], the cache laid out as `layout` says.
    pub(super) fn workload_values_in(
        &self,
        input: &Input,
        w: &Workload,
        layout: Layout,
        scratch: &mut crate::formula::Scratch,
    ) -> std::result::Result<Vec<f64>, Problem> {
        let mut values = self.bound_inputs(input, w);
        self.bind_layout(layout, &mut values);
        self.candidate
            .eval_only(&self.workload_only, &mut values, scratch)
            .map_err(|e| self.non_finite(e, w, None))?;
        Ok(values)
    }

    /// Whether the formulas read the assumption that turns `layout` on (a layout they do not
    /// read would plan the same replica again).
    pub(super) fn reads_layout(&self, layout: Layout) -> bool {
        layout.assumption().is_some_and(|a| {
            self.candidate
                .slot(a)
                .is_some_and(|s| s < self.candidate.inputs())
        })
    }

    /// Turns `layout`'s assumption on in bound inputs.
    fn bind_layout(&self, layout: Layout, values: &mut [f64]) {
        if let Some(s) = layout.assumption().and_then(|a| self.candidate.slot(a)) {
            if s < self.candidate.inputs() {
                values[s] = 1.0;
            }
        }
    }

    /// Assumptions and workload inputs bound (GPU inputs come per offer).
    fn bound_inputs(&self, input: &Input, w: &Workload) -> Vec<f64> {
        let mut values = vec![0.0; self.candidate.width()];
        inputs::bind_assumptions(&self.candidate, &input.assumptions, &mut values);
        inputs::bind_engine(&self.candidate, &input.engines, w, &mut values);
        inputs::bind_workload(&self.candidate, w, &input.assumptions, &mut values);
        inputs::bind_api(&self.candidate, &input.apis, w, &mut values);
        values
    }

    /// How many candidate formulas are evaluated for each offer (the rest once per workload).
    pub fn offer_formulas(&self) -> usize {
        self.offer_dependents.len()
    }

    /// Whether the candidate formula at order position `k` can differ between the offers or the
    /// replica sizes of one workload (it reads a GPU figure or the replica size, directly or not).
    pub(super) fn varies_by_candidate(&self, k: usize) -> bool {
        self.offer_dependents.binary_search(&k).is_ok()
            || self.size_dependents.binary_search(&k).is_ok()
    }

    /// The candidate-scope definitions, indexed as the program's `def`s.
    pub fn candidate_defs(&self) -> &[FormulaDef] {
        &self.candidate_defs
    }

    /// The portfolio-scope definition at index `def` of the portfolio program's `def`s;
    /// panics when out of range.
    pub fn portfolio_def(&self, def: usize) -> &FormulaDef {
        &self.portfolio_defs[def]
    }
}

/// The input error of `input`'s file listing `problems`.
fn input_error(input: &Input, problems: Vec<Problem>) -> Error {
    Error::Input {
        file: input.file.clone(),
        problems,
    }
}

/// The formulas the planner needs that are in the wrong scope (each at its row), then one
/// problem listing those missing altogether (at the Formulas sheet).
fn required_problems(
    input: &Input,
    candidate_defs: &[FormulaDef],
    portfolio_defs: &[FormulaDef],
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let sheet = input
        .formulas
        .iter()
        .find_map(|f| f.cell.as_ref().map(|c| c.sheet.clone()));
    let where_ = sheet.clone().unwrap_or_else(|| "Formulas".to_string());
    let mut missing: Vec<&str> = Vec::new();
    for (required, defs, scope) in [
        (&REQUIRED_CANDIDATE[..], candidate_defs, "candidate"),
        (&REQUIRED_PORTFOLIO[..], portfolio_defs, "portfolio"),
    ] {
        for (name, _) in required {
            if defs.iter().any(|d| d.name == *name) {
                continue;
            }
            match input.formulas.iter().find(|f| f.name == *name) {
                Some(f) => problems.push(Problem::new(
                    f.location(),
                    format!("the formula `{name}` must have scope {scope}"),
                )),
                None => missing.push(name),
            }
        }
    }
    match missing.as_slice() {
        [] => {}
        [one] => problems.push(Problem::new(
            where_.clone(),
            format!("the formula `{one}` is missing; the planner needs it (restore its row from `gpuplan init`)"),
        )),
        many => problems.push(Problem::new(
            where_.clone(),
            format!(
                "{} formulas the planner needs are missing ({}); restore their rows from `gpuplan init`, or delete the sheet to use the built-in set",
                many.len(),
                many.join(", ")
            ),
        )),
    }
    problems
}

/// The candidate program, then the portfolio program that reads it. The problems of the
/// candidate inputs (assumptions, model columns) come after the candidate formulas' own.
fn compile_programs(
    input: &Input,
    candidate_defs: &[FormulaDef],
    portfolio_defs: &[FormulaDef],
) -> Result<(Program, Program)> {
    let err = |problems: Vec<Problem>| input_error(input, problems);
    let (cin, mut p1) = inputs::candidate_inputs(&input.assumptions, &input.model_columns);
    let portfolio_names: Vec<&str> = portfolio_defs.iter().map(|d| d.name.as_str()).collect();
    let cand_refs: Vec<&FormulaDef> = candidate_defs.iter().collect();
    let candidate = Program::compile(&cin, &cand_refs, &portfolio_names).map_err(|mut ps| {
        ps.append(&mut p1);
        err(ps)
    })?;
    if !p1.is_empty() {
        return Err(err(p1));
    }
    let (pin, p2) = inputs::portfolio_inputs(&candidate, &input.assumptions);
    if !p2.is_empty() {
        return Err(err(p2));
    }
    let cand_names: Vec<&str> = candidate_defs.iter().map(|d| d.name.as_str()).collect();
    let port_refs: Vec<&FormulaDef> = portfolio_defs.iter().collect();
    let portfolio = Program::compile(&pin, &port_refs, &cand_names).map_err(err)?;
    Ok((candidate, portfolio))
}

/// The formulas the planner needs that compute the wrong type (a number for a yes/no value or
/// the other way round), candidate ones first.
fn type_problems(
    candidate: &Program,
    portfolio: &Program,
    candidate_defs: &[FormulaDef],
    portfolio_defs: &[FormulaDef],
) -> Vec<Problem> {
    let mut type_problems = Vec::new();
    let scoped = REQUIRED_CANDIDATE
        .iter()
        .map(|r| (r, candidate, candidate_defs))
        .chain(
            REQUIRED_PORTFOLIO
                .iter()
                .map(|r| (r, portfolio, portfolio_defs)),
        );
    for (&(name, want), p, defs) in scoped {
        if let (Some(slot), Some(d)) = (p.slot(name), defs.iter().find(|d| d.name == *name)) {
            if p.ty(slot) != want {
                type_problems.push(Problem::new(
                    d.location(),
                    format!(
                        "`{name}` must compute {}",
                        if want == Ty::Bool {
                            "a yes/no value"
                        } else {
                            "a number"
                        }
                    ),
                ));
            }
        }
    }
    type_problems
}

/// Slots of the values the planner reads, resolved once.
pub(super) struct Keys {
    pub(super) fits: usize,
    pub(super) gpus_total: usize,
    /// Per mode, its cost and allow formulas; `None` for a mode whose formulas an older Formulas
    /// sheet lacks (the owned mode, added after templates were written), which is not priced.
    pub(super) costs: [Option<usize>; Mode::ALL.len()],
    pub(super) allows: [Option<usize>; Mode::ALL.len()],
    /// Per mode, the formula of each hidden part of its cost, in `Hidden::ALL` order.
    pub(super) hidden: [[Option<usize>; 2]; Mode::ALL.len()],
    pub(super) storage: usize,
    pub(super) egress: usize,
    pub(super) utilization: usize,
    pub(super) gpus_per_replica: usize,
    pub(super) total: usize,
    pub(super) required: usize,
    pub(super) replica_vram: usize,
    pub(super) gpu_limit: Option<usize>,
    pub(super) concurrency_per_replica: usize,
    pub(super) replicas: usize,
    pub(super) instances: usize,
    /// Time to first token and whether it meets the workload's goal (absent from a Formulas
    /// sheet that deleted them).
    pub(super) ttft: Option<(usize, usize)>,
    /// A runtime's decoding buffers for its engine's max_batch_size, per GPU.
    pub(super) batch_buffers: Option<usize>,
    /// Whether some weights are multiplied in 16 bits after the kernel expands them, the
    /// engine's choice included (absent from an older Formulas sheet).
    pub(super) weight_only_math: Option<usize>,
    /// A QLoRA of an MoE whose quantizer leaves the experts unquantized: the flag, the experts'
    /// parameters (billions) and their bytes a parameter (absent from an older Formulas sheet).
    pub(super) experts_unquantized: Option<(usize, usize, usize)>,
    /// A LoRA of an MoE with adapters on its routed experts (absent from an older Formulas
    /// sheet).
    pub(super) lora_experts: Option<LoraExperts>,
    /// What one GPU may hold and what each GPU needs for itself (absent from a Formulas sheet
    /// that deleted them): a card whose own needs exceed what it may hold fits at no size.
    pub(super) own: Option<OwnNeeds>,
    /// Spot by its interruptions (absent from a Formulas sheet that deleted them).
    pub(super) spot: Option<SpotKeys>,
}

/// The formulas of a LoRA's adapters on an MoE's routed experts: their parameters, the
/// adapters counted from the shapes, those trained, and the trained parameters' adapter,
/// gradient and optimizer GiB.
pub(super) struct LoraExperts {
    pub(super) experts: usize,
    pub(super) counted: usize,
    pub(super) trained: usize,
    pub(super) states: [usize; 3],
}

/// The formulas that say why spot was refused: λ an hour, one run's hours and how often a run
/// finishes before it is reclaimed.
#[derive(Debug, Clone, Copy)]
pub(super) struct SpotKeys {
    pub(super) interruptions_h: usize,
    pub(super) run_length_h: usize,
    pub(super) success: usize,
}

/// The per-GPU figures that say a card cannot hold even its own share of a replica.
#[derive(Debug, Clone, Copy)]
pub(super) struct OwnNeeds {
    pub(super) usable: usize,
    pub(super) per_gpu: usize,
    pub(super) replicated: Option<usize>,
    pub(super) activations: Option<usize>,
}

impl OwnNeeds {
    /// Whether the card's own needs leave no memory for the replica's shared part: then
    /// `gpus_for_memory` divides by its floor of 1e-9 and the GPU count and costs are noise.
    pub(super) fn exceed(&self, v: &[f64]) -> bool {
        v[self.usable] - v[self.per_gpu] - self.replicated.map_or(0.0, |i| v[i]) <= 0.0
    }
}

impl Keys {
    /// Mode `i`'s cost in a candidate's values `vals`, where its formulas exist, it is allowed
    /// and the cost is not negative.
    pub(super) fn mode_cost(&self, vals: &[f64], i: usize) -> Option<f64> {
        let (cost, allow) = (self.costs[i]?, self.allows[i]?);
        let v = vals[cost];
        (vals[allow] != 0.0 && v >= 0.0).then_some(v)
    }

    pub(super) fn new(columns: &[FormulaColumn]) -> Keys {
        let at = |n: &str| columns.iter().position(|c| c.name == n);
        let must = |n: &str| at(n).unwrap_or(0);
        Keys {
            fits: must("fits"),
            gpus_total: must("gpus_total"),
            costs: Mode::ALL.map(|m| at(m.spec().cost)),
            allows: Mode::ALL.map(|m| at(m.spec().allow)),
            hidden: Mode::ALL.map(|m| Hidden::ALL.map(|h| m.hidden_formula(h).and_then(at))),
            storage: must("storage_cost"),
            egress: must("egress_cost"),
            utilization: must("utilization"),
            gpus_per_replica: must("gpus_per_replica"),
            total: must("total_vram_gib"),
            required: must("required_vram_gib"),
            replica_vram: must("replica_vram_gib"),
            gpu_limit: at("gpu_limit"),
            concurrency_per_replica: must("concurrency_per_replica"),
            replicas: must("replicas"),
            instances: must("instances"),
            ttft: at("ttft_s").zip(at("meets_ttft")),
            batch_buffers: at("batch_buffers_gib"),
            weight_only_math: at("weight_only_math"),
            experts_unquantized: match (
                at("experts_unquantized"),
                at("expert_params_b"),
                at("expert_quant_bytes_per_param"),
            ) {
                (Some(flag), Some(params), Some(bytes)) => Some((flag, params, bytes)),
                _ => None,
            },
            lora_experts: match (
                at("lora_expert_params_b"),
                at("lora_params_b"),
                at("trained_params_b"),
                [at("adapter_gib"), at("grads_gib"), at("optimizer_gib")],
            ) {
                (Some(experts), Some(counted), Some(trained), [Some(a), Some(g), Some(o)]) => {
                    Some(LoraExperts {
                        experts,
                        counted,
                        trained,
                        states: [a, g, o],
                    })
                }
                _ => None,
            },
            own: at("usable_gpu_gib")
                .zip(at("per_gpu_gib"))
                .map(|(usable, per_gpu)| OwnNeeds {
                    usable,
                    per_gpu,
                    replicated: at("replicated_gib"),
                    activations: at("train_activation_per_gpu_gib"),
                }),
            spot: match (
                at("spot_interruptions_h"),
                at("spot_run_length_h"),
                at("spot_success_share"),
            ) {
                (Some(interruptions_h), Some(run_length_h), Some(success)) => Some(SpotKeys {
                    interruptions_h,
                    run_length_h,
                    success,
                }),
                _ => None,
            },
        }
    }
}

//! The one call of microlp: a programme solved from a warm start within a node limit (never a
//! time limit, so that the answer depends on the input alone).

use super::{Limits, Solved};
use microlp::{Problem, SolveOptions, Variable};

/// What the solver gave: every variable's value, the objective and the best proven bound.
pub(super) struct Answer {
    pub values: Vec<f64>,
    pub cost: f64,
    pub bound: f64,
}

impl Answer {
    pub fn of(&self, v: Variable) -> f64 {
        self.values.get(v.idx()).copied().unwrap_or(0.0)
    }
}

/// Whether the fleet's programmes have spent `limits.total_nodes` together: a caller checks it
/// before it builds a programme, as `solve` would give no answer.
pub(super) fn spent(limits: Limits, solved: &Solved) -> bool {
    solved.nodes >= limits.total_nodes
}

/// Solves `p` (a minimisation) from the warm start, which names each of its `width` variables,
/// within `limits.nodes` and what is left of `limits.total_nodes`; `None` when the total is
/// spent (the caller keeps its greedy answer) or, a fallback counted, when the solver gives no
/// answer.
pub(super) fn solve(
    p: &Problem,
    warm: Vec<(Variable, f64)>,
    width: usize,
    limits: Limits,
    solved: &mut Solved,
) -> Option<Answer> {
    if spent(limits, solved) {
        return None;
    }
    let left = limits.total_nodes - solved.nodes;
    let mut opts = SolveOptions::default();
    opts.node_limit = Some(limits.nodes.min(left));
    let names = warm.clone();
    opts.warm_start = Some(warm);
    let outcome = p.solve_with(opts).ok();
    let Some(sol) = outcome.and_then(|o| o.into_solution().ok()) else {
        solved.fallbacks += 1;
        return None;
    };
    let stats = sol.stats();
    solved.nodes += stats.nodes_solved;
    let optimal = sol.status() == microlp::SolutionStatus::Optimal;
    let cost = sol.objective();
    let bound = if optimal {
        cost
    } else {
        stats.best_bound.unwrap_or(f64::NEG_INFINITY).min(cost)
    };
    // The warm start names every variable of the programme.
    let mut values = vec![0.0; width];
    for (v, _) in &names {
        if let Some(x) = values.get_mut(v.idx()) {
            *x = sol.var_value_raw(*v);
        }
    }
    Some(Answer {
        values,
        cost,
        bound,
    })
}

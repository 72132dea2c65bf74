//! The formula engine, and the only user of evalexpr. Each formula is checked (length, nesting),
//! parsed once by evalexpr, type-checked, compiled to slot-indexed stack code, and ordered by its
//! dependencies; evaluation then runs over a flat array of values with no name lookups.

mod compile;
mod excel;
#[cfg(test)]
mod reference;
mod vm;

pub use compile::{check_shape, MAX_DEPTH, MAX_LEN};
pub use excel::{excel_number, Expressions};
#[cfg(test)]
pub use reference::reference_eval;
pub use vm::Scratch;

use crate::error::Problem;
use crate::model::FormulaDef;
use crate::support::suggest;
use std::collections::HashMap;

/// The two types a formula value can have. Booleans are stored as 0.0 / 1.0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// A number (f64).
    Num,
    /// A yes/no value, held as 0.0 (no) or 1.0 (yes).
    Bool,
}

/// A variable the engine provides before any formula runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputVar {
    /// The variable's name as formulas spell it (an assumption key, a workload, model or GPU
    /// column, a `has_…` flag, …).
    pub name: String,
    /// Whether it holds a number or a yes/no.
    pub ty: Ty,
}

impl InputVar {
    /// A numeric input variable called `name`.
    pub fn num(name: impl Into<String>) -> Self {
        InputVar {
            name: name.into(),
            ty: Ty::Num,
        }
    }
    /// A yes/no input variable called `name`.
    pub fn bool(name: impl Into<String>) -> Self {
        InputVar {
            name: name.into(),
            ty: Ty::Bool,
        }
    }
}

/// One compiled formula.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// Index of the definition in the list given to [`Program::compile`].
    pub def: usize,
    /// The formula's name (the Formulas sheet's name column): the variable other formulas read.
    pub name: String,
    /// Where its value lives in the values array.
    pub slot: usize,
    /// The type its expression was checked to have.
    pub ty: Ty,
    code: Vec<vm::Op>,
    /// A money formula (unit `money`): its value is rounded to the cent ([`cents`]).
    cents: bool,
}

/// The unit of a money formula: its value is rounded to the cent once, where it is computed,
/// so that every total is the sum of the cents shown (the Excel translation wraps it in
/// `ROUND(…,2)` alike).
pub const MONEY_UNIT: &str = "money";

pub use crate::model::cents;

impl Compiled {
    /// Its value over `values`, a money formula's rounded to the cent.
    fn value(&self, values: &[f64], scratch: &mut Scratch) -> f64 {
        let v = vm::run(&self.code, values, scratch);
        if self.cents {
            cents(v)
        } else {
            v
        }
    }
}

/// A set of formulas compiled against a set of inputs, in evaluation order.
#[derive(Debug, Clone)]
pub struct Program {
    names: Vec<String>,
    types: Vec<Ty>,
    index: HashMap<String, usize>,
    inputs: usize,
    /// The formulas in dependency order.
    pub order: Vec<Compiled>,
    max_stack: usize,
    /// Whether some formula reads each input.
    read: Vec<bool>,
}

/// A formula whose value is not a finite number (division by zero, overflow).
#[derive(Debug, Clone, PartialEq)]
pub struct NonFinite {
    /// Index of the definition.
    pub def: usize,
    /// The value it evaluated to: NaN or an infinity.
    pub value: f64,
}

impl Program {
    /// Compiles `defs` against `inputs`. Every problem is reported, each naming the formula and
    /// its cell; `elsewhere` lists names that exist in the other scope, for better hints.
    pub fn compile(
        inputs: &[InputVar],
        defs: &[&FormulaDef],
        elsewhere: &[&str],
    ) -> Result<Program, Vec<Problem>> {
        let mut problems = Vec::new();
        let mut names: Vec<String> = inputs.iter().map(|v| v.name.clone()).collect();
        let mut index: HashMap<String, usize> = HashMap::new();
        for (i, v) in inputs.iter().enumerate() {
            index.insert(v.name.clone(), i);
        }
        // Formula slots follow the inputs, in sheet order.
        for (i, d) in defs.iter().enumerate() {
            if let Some(&prev) = index.get(&d.name) {
                if prev < inputs.len() {
                    problems.push(Problem::new(
                        d.location(),
                        format!("the name `{}` is already an input (a workload, GPU or assumption value); choose another name", d.name),
                    ));
                } else {
                    problems.push(Problem::new(
                        d.location(),
                        format!("the formula `{}` is defined twice", d.name),
                    ));
                }
                continue;
            }
            if !is_identifier(&d.name) {
                problems.push(Problem::new(
                    d.location(),
                    format!("`{}` is not a valid formula name: use letters, digits and _ and start with a letter", d.name),
                ));
            } else if compile::FUNCTIONS.contains(&d.name.as_str())
                || matches!(d.name.as_str(), "true" | "false")
            {
                problems.push(Problem::new(
                    d.location(),
                    format!("`{}` is the name of a function or a value of the formula language; choose another name", d.name),
                ));
            }
            index.insert(d.name.clone(), inputs.len() + i);
            names.push(d.name.clone());
        }
        if !problems.is_empty() {
            return Err(problems);
        }

        // Parse every expression and collect its dependencies.
        let mut parsed: Vec<Option<compile::Parsed>> = Vec::with_capacity(defs.len());
        for d in defs {
            match compile::parse(&d.expression) {
                Ok(p) => {
                    let mut ok = true;
                    for id in &p.variables {
                        if !index.contains_key(id) {
                            ok = false;
                            let mut msg = format!("unknown name `{id}` in `{}`", d.expression);
                            if elsewhere.contains(&id.as_str()) {
                                msg.push_str(&format!("; `{id}` is a formula of the other scope (portfolio formulas read candidate formulas as total_<name>)"));
                            } else {
                                msg.push_str(&suggest::hint(id, names.iter().map(String::as_str)));
                            }
                            problems.push(Problem::new(d.location(), msg));
                        }
                    }
                    parsed.push(ok.then_some(p));
                }
                Err(msg) => {
                    problems.push(Problem::new(d.location(), msg));
                    parsed.push(None);
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let parsed: Vec<compile::Parsed> = parsed.into_iter().flatten().collect();
        let mut read = vec![false; inputs.len()];
        for v in parsed.iter().flat_map(|p| &p.variables) {
            if let Some(&s) = index.get(v).filter(|&&s| s < inputs.len()) {
                read[s] = true;
            }
        }

        // Order by dependency; a cycle is reported with its whole loop.
        let n_in = inputs.len();
        let deps: Vec<Vec<usize>> = parsed
            .iter()
            .map(|p| {
                p.variables
                    .iter()
                    .filter_map(|v| index.get(v).copied())
                    .filter(|&s| s >= n_in)
                    .map(|s| s - n_in)
                    .collect()
            })
            .collect();
        let order = match topo_order(&deps) {
            Ok(o) => o,
            Err(cycle) => {
                let names_in_loop: Vec<&str> =
                    cycle.iter().map(|&i| defs[i].name.as_str()).collect();
                let first = cycle[0];
                return Err(vec![Problem::new(
                    defs[first].location(),
                    format!(
                        "formulas depend on each other in a loop: {}",
                        names_in_loop.join(" → ")
                    ),
                )]);
            }
        };

        // Type-check and generate code in dependency order, so every type is known when read.
        let mut types: Vec<Ty> = inputs.iter().map(|v| v.ty).collect();
        types.extend(std::iter::repeat_n(Ty::Num, defs.len()));
        let mut compiled = Vec::with_capacity(defs.len());
        let mut max_stack = 0;
        for &i in &order {
            match compile::generate(&parsed[i], &index, &types) {
                Ok((code, ty, depth)) => {
                    types[n_in + i] = ty;
                    max_stack = max_stack.max(depth);
                    compiled.push(Compiled {
                        def: i,
                        name: defs[i].name.clone(),
                        slot: n_in + i,
                        ty,
                        code,
                        cents: defs[i].unit == MONEY_UNIT && ty == Ty::Num,
                    });
                }
                Err(msg) => problems.push(Problem::new(
                    defs[i].location(),
                    format!("{msg} in `{}`", defs[i].expression),
                )),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Program {
            names,
            types,
            index,
            inputs: n_in,
            order: compiled,
            max_stack,
            read,
        })
    }

    /// Number of values (inputs then formulas) a candidate holds.
    pub fn width(&self) -> usize {
        self.names.len()
    }

    /// Number of inputs; formulas' slots follow.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The slot of the input or formula `name` in the values array; `None` for an unknown name.
    pub fn slot(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// Whether some formula of the program reads the input `name`.
    pub fn reads(&self, name: &str) -> bool {
        self.slot(name)
            .is_some_and(|s| self.read.get(s).copied().unwrap_or(false))
    }

    /// The name of the input or formula at `slot`; panics past [`Program::width`].
    pub fn name(&self, slot: usize) -> &str {
        &self.names[slot]
    }

    /// The type of the input or formula at `slot`; panics past [`Program::width`].
    pub fn ty(&self, slot: usize) -> Ty {
        self.types[slot]
    }

    /// A scratch stack big enough for every formula of this program.
    pub fn scratch(&self) -> Scratch {
        Scratch::with_capacity(self.max_stack)
    }

    /// The positions in `order` of the formulas that read any of the `inputs` slots, directly
    /// or through other formulas: what must be evaluated again when only those inputs change.
    pub fn dependents(&self, inputs: &[usize]) -> Vec<usize> {
        let mut changed = vec![false; self.width()];
        for &i in inputs {
            changed[i] = true;
        }
        let mut out = Vec::new();
        for (k, f) in self.order.iter().enumerate() {
            let reads = f
                .code
                .iter()
                .any(|op| matches!(op, vm::Op::Load(s) if changed[*s as usize]));
            if reads {
                changed[f.slot] = true;
                out.push(k);
            }
        }
        out
    }

    /// Evaluates only the formulas at `positions` of `order` (from [`Program::dependents`]),
    /// the others keeping their values.
    pub fn eval_only(
        &self,
        positions: &[usize],
        values: &mut [f64],
        scratch: &mut Scratch,
    ) -> Result<(), NonFinite> {
        for &k in positions {
            let f = &self.order[k];
            let v = f.value(values, scratch);
            if !v.is_finite() {
                return Err(NonFinite {
                    def: f.def,
                    value: v,
                });
            }
            values[f.slot] = v;
        }
        Ok(())
    }

    /// Evaluates every formula in order, writing into `values` (inputs must be filled).
    /// Stops at the first formula whose value is not finite.
    pub fn eval(&self, values: &mut [f64], scratch: &mut Scratch) -> Result<(), NonFinite> {
        for f in &self.order {
            let v = f.value(values, scratch);
            if !v.is_finite() {
                return Err(NonFinite {
                    def: f.def,
                    value: v,
                });
            }
            values[f.slot] = v;
        }
        Ok(())
    }
}

/// A name a formula can use: a letter, then letters, digits and `_` (formula names, assumption
/// keys, the Models sheet's own columns).
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Topological order of formulas by their dependencies, or one cycle (first node repeated last).
fn topo_order(deps: &[Vec<usize>]) -> Result<Vec<usize>, Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let n = deps.len();
    let mut mark = vec![Mark::New; n];
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        if mark[start] != Mark::New {
            continue;
        }
        // Iterative DFS: (node, next dependency to visit).
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        mark[start] = Mark::Active;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if *next < deps[node].len() {
                let d = deps[node][*next];
                *next += 1;
                match mark[d] {
                    Mark::New => {
                        mark[d] = Mark::Active;
                        stack.push((d, 0));
                    }
                    Mark::Active => {
                        let pos = stack.iter().position(|&(x, _)| x == d).unwrap_or(0);
                        let mut cycle: Vec<usize> = stack[pos..].iter().map(|&(x, _)| x).collect();
                        cycle.push(d);
                        return Err(cycle);
                    }
                    Mark::Done => {}
                }
            } else {
                mark[node] = Mark::Done;
                order.push(node);
                stack.pop();
            }
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests;

//! From text to code: the pre-parse shape check, evalexpr's parse, and the translation of its
//! tree into typed stack code. evalexpr is the parser; it never evaluates at run time.

use super::vm::{Op, F1, F2};
use super::Ty;
use evalexpr::{Node, Operator, Value};
use std::collections::HashMap;

/// Longest expression accepted, in characters.
pub const MAX_LEN: usize = 4096;
/// Deepest nesting accepted (parentheses, or operators inside operators).
pub const MAX_DEPTH: usize = 64;

/// Refuses what would make evalexpr's recursive parser overflow the stack (which aborts the
/// process, beyond any `catch_unwind`): over-long text and deep parenthesis nesting. Runs before
/// evalexpr sees the text.
pub fn check_shape(expression: &str) -> Result<(), String> {
    let len = expression.chars().count();
    if len > MAX_LEN {
        return Err(format!(
            "the expression is {len} characters long; at most {MAX_LEN} are allowed (split it into several formulas)"
        ));
    }
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut prefix_run = 0usize;
    for c in expression.chars() {
        match c {
            '(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        // Chains of prefix operators (`- - - x`, `!!!x`) nest as deeply as parentheses do.
        match c {
            '-' | '!' | '(' => prefix_run += 1,
            c if c.is_whitespace() => {}
            _ => prefix_run = 0,
        }
        deepest = deepest.max(prefix_run);
        if deepest > MAX_DEPTH {
            return Err(format!(
                "the expression nests deeper than {MAX_DEPTH} levels; simplify it or split it into several formulas"
            ));
        }
    }
    Ok(())
}

/// A parsed expression and the variable names it reads.
pub struct Parsed {
    pub(super) node: Node,
    pub variables: Vec<String>,
}

/// Checks the shape, parses with evalexpr, and refuses trees deeper than the engine allows.
pub fn parse(expression: &str) -> Result<Parsed, String> {
    if expression.trim().is_empty() {
        return Err("the expression is empty".to_string());
    }
    check_shape(expression)?;
    let node = evalexpr::build_operator_tree(expression)
        .map_err(|e| format!("syntax error in `{expression}`: {e}"))?;
    // Long flat chains (`a + b + c + …`) make deep trees without parentheses; walk iteratively.
    let mut stack = vec![(&node, 1usize)];
    while let Some((n, d)) = stack.pop() {
        if d > 4 * MAX_DEPTH {
            return Err(format!(
                "the expression is a chain of more than {} operations; split it into several formulas",
                4 * MAX_DEPTH
            ));
        }
        stack.extend(n.children().iter().map(|c| (c, d + 1)));
    }
    let mut variables: Vec<String> = node
        .iter_read_variable_identifiers()
        .map(str::to_string)
        .collect();
    variables.sort();
    variables.dedup();
    Ok(Parsed { node, variables })
}

/// The arguments of a function call node. evalexpr wraps a parenthesised argument list in root
/// nodes and a tuple: look through them; `f()` has none.
pub(super) fn call_args(n: &Node) -> Vec<&Node> {
    let mut inner = n.children();
    while let [only] = inner {
        if matches!(only.operator(), Operator::RootNode) && only.children().len() == 1 {
            inner = only.children();
        } else {
            break;
        }
    }
    match inner {
        [single] => match single.operator() {
            Operator::Tuple => single.children().iter().collect(),
            Operator::RootNode if single.children().is_empty() => Vec::new(),
            Operator::Const {
                value: Value::Empty,
            } => Vec::new(),
            _ => vec![single],
        },
        [] => Vec::new(),
        many => many.iter().collect(),
    }
}

/// The functions a formula may call.
pub const FUNCTIONS: &[&str] = &[
    "if",
    "min",
    "max",
    "ceil",
    "floor",
    "round",
    "roundup",
    "rounddown",
    "clamp",
    "pow2ceil",
    "abs",
    "sqrt",
    "math::abs",
    "math::sqrt",
    "math::cbrt",
    "math::ln",
    "math::log",
    "math::log2",
    "math::log10",
    "math::exp",
    "math::pow",
    "math::hypot",
];

struct Gen<'a> {
    index: &'a HashMap<String, usize>,
    types: &'a [Ty],
    code: Vec<Op>,
}

/// Generates stack code for a parsed expression: the code, its type, and the stack depth it needs.
pub fn generate(
    p: &Parsed,
    index: &HashMap<String, usize>,
    types: &[Ty],
) -> Result<(Vec<Op>, Ty, usize), String> {
    let mut g = Gen {
        index,
        types,
        code: Vec::new(),
    };
    let ty = g.node(&p.node)?;
    let depth = stack_depth(&g.code);
    Ok((g.code, ty, depth))
}

fn stack_depth(code: &[Op]) -> usize {
    let mut d: isize = 0;
    let mut max: isize = 0;
    for op in code {
        d += op.stack_effect();
        max = max.max(d);
    }
    max.max(1) as usize
}

fn type_name(t: Ty) -> &'static str {
    match t {
        Ty::Num => "a number",
        Ty::Bool => "a yes/no value",
    }
}

impl Gen<'_> {
    /// Appends an operation, folding it when all its operands are constants (`2^30`, `1e9 * 2`):
    /// they are computed once here instead of for every candidate.
    fn emit(&mut self, op: Op) {
        let operands = (1 - op.stack_effect()) as usize;
        let n = self.code.len();
        if n >= operands
            && self.code[n - operands..]
                .iter()
                .all(|o| matches!(o, Op::Const(_)))
        {
            let mut code: Vec<Op> = self.code[n - operands..].to_vec();
            code.push(op);
            let v = super::vm::run(&code, &[], &mut super::vm::Scratch::with_capacity(operands));
            if v.is_finite() {
                self.code.truncate(n - operands);
                self.code.push(Op::Const(v));
                return;
            }
        }
        self.code.push(op);
    }

    fn expect(&mut self, n: &Node, want: Ty, what: &str) -> Result<(), String> {
        let got = self.node(n)?;
        if got != want {
            let hint = if want == Ty::Num {
                " (yes/no values are not numbers: use if(flag, a, b))"
            } else {
                " (compare it, e.g. x > 0)"
            };
            return Err(format!(
                "{what} needs {} but `{n}` is {}{hint}",
                type_name(want),
                type_name(got)
            ));
        }
        Ok(())
    }

    fn binary(
        &mut self,
        n: &Node,
        op: Op,
        operand: Ty,
        result: Ty,
        symbol: &str,
    ) -> Result<Ty, String> {
        let [a, b] = n.children() else {
            return Err(format!("`{symbol}` needs two operands"));
        };
        let what = format!("`{symbol}`");
        self.expect(a, operand, &what)?;
        self.expect(b, operand, &what)?;
        self.emit(op);
        Ok(result)
    }

    /// Translates one node of the tree, appending its code, and returns its type. Operators map
    /// to one op each; equality, the prefix operators, constants, names and calls have their
    /// own steps below.
    fn node(&mut self, n: &Node) -> Result<Ty, String> {
        use Operator as O;
        match n.operator() {
            O::RootNode => match n.children() {
                [only] => self.node(only),
                [] => Err("the expression is empty".to_string()),
                _ => Err("a formula is one expression".to_string()),
            },
            // Arithmetic: numbers to a number.
            O::Add => self.binary(n, Op::Add, Ty::Num, Ty::Num, "+"),
            O::Sub => self.binary(n, Op::Sub, Ty::Num, Ty::Num, "-"),
            O::Mul => self.binary(n, Op::Mul, Ty::Num, Ty::Num, "*"),
            O::Div => self.binary(n, Op::Div, Ty::Num, Ty::Num, "/"),
            O::Mod => self.binary(n, Op::Mod, Ty::Num, Ty::Num, "%"),
            O::Exp => self.binary(n, Op::Pow, Ty::Num, Ty::Num, "^"),
            // Ordering: numbers to a yes/no value.
            O::Gt => self.binary(n, Op::Gt, Ty::Num, Ty::Bool, ">"),
            O::Lt => self.binary(n, Op::Lt, Ty::Num, Ty::Bool, "<"),
            O::Geq => self.binary(n, Op::Ge, Ty::Num, Ty::Bool, ">="),
            O::Leq => self.binary(n, Op::Le, Ty::Num, Ty::Bool, "<="),
            // Logic: yes/no values to a yes/no value.
            O::And => self.binary(n, Op::And, Ty::Bool, Ty::Bool, "&&"),
            O::Or => self.binary(n, Op::Or, Ty::Bool, Ty::Bool, "||"),
            O::Eq => self.equality(n, Op::Eq, "=="),
            O::Neq => self.equality(n, Op::Ne, "!="),
            O::Neg => self.prefix(n, Op::Neg, Ty::Num, "-"),
            O::Not => self.prefix(n, Op::Not, Ty::Bool, "!"),
            O::Const { value } => self.constant(value),
            O::VariableIdentifierRead { identifier } => self.load(identifier),
            O::FunctionIdentifier { identifier } => self.call(identifier, n),
            O::Tuple => Err(
                "a list of values `(a, b)` is allowed only as a function's arguments".to_string(),
            ),
            O::Chain => Err("`;` is not allowed: a formula is one expression".to_string()),
            _ => Err(
                "assignments are not allowed: a formula computes a value and changes nothing"
                    .to_string(),
            ),
        }
    }

    /// `a == b` or `a != b` (`op`, written `symbol`): operands of either type, both the same.
    fn equality(&mut self, n: &Node, op: Op, symbol: &str) -> Result<Ty, String> {
        let [a, b] = n.children() else {
            return Err("a comparison needs two operands".to_string());
        };
        let ta = self.node(a)?;
        self.expect(b, ta, &format!("`{symbol}`"))?;
        self.emit(op);
        Ok(Ty::Bool)
    }

    /// A prefix operator (`-x`, `!x`) whose operand and result are both of type `ty`.
    fn prefix(&mut self, n: &Node, op: Op, ty: Ty, symbol: &str) -> Result<Ty, String> {
        let [a] = n.children() else {
            return Err(format!("`{symbol}` needs an operand"));
        };
        let what = format!("`{symbol}`");
        self.expect(a, ty, &what)?;
        self.emit(op);
        Ok(ty)
    }

    /// A literal: a number (every number a float, so `7 / 2` is 3.5 as in a spreadsheet, not 3)
    /// or a yes/no value; text, lists and nothing are refused.
    fn constant(&mut self, value: &Value) -> Result<Ty, String> {
        let (c, ty) = match value {
            Value::Int(i) => (*i as f64, Ty::Num),
            Value::Float(f) => (*f, Ty::Num),
            Value::Boolean(b) => (if *b { 1.0 } else { 0.0 }, Ty::Bool),
            Value::String(_) => return Err("text values are not allowed in formulas".to_string()),
            Value::Tuple(_) | Value::Empty => {
                return Err("a formula must compute a number or a yes/no value".to_string())
            }
        };
        self.code.push(Op::Const(c));
        Ok(ty)
    }

    /// A name: loads its slot; its type is the slot's.
    fn load(&mut self, identifier: &str) -> Result<Ty, String> {
        let slot = *self
            .index
            .get(identifier)
            .ok_or_else(|| format!("unknown name `{identifier}`"))?;
        self.code.push(Op::Load(slot as u32));
        Ok(self.types[slot])
    }

    /// A call of the function `name`: `if`, `min` and `max` have their own rules; the others
    /// take a fixed number of numbers (see [`numeric_function`]).
    fn call(&mut self, name: &str, n: &Node) -> Result<Ty, String> {
        let args = call_args(n);
        match name {
            "if" => self.call_if(&args),
            "min" => self.call_min_max(name, &args, Op::Min),
            "max" => self.call_min_max(name, &args, Op::Max),
            _ => match numeric_function(name) {
                Some((want, op)) => self.call_numeric(name, &args, want, op),
                None => Err(format!(
                    "unknown function `{name}`{}; allowed: {}",
                    crate::support::suggest::hint(name, FUNCTIONS.iter().copied()),
                    FUNCTIONS.join(", ")
                )),
            },
        }
    }

    /// `if(condition, then, else)`: a yes/no condition, two branches of one type, that type.
    fn call_if(&mut self, args: &[&Node]) -> Result<Ty, String> {
        check_arity("if", args, 3)?;
        self.expect(args[0], Ty::Bool, "the condition of if()")?;
        let ty = self.node(args[1])?;
        self.expect(args[2], ty, "both branches of if()")?;
        self.emit(Op::Select);
        Ok(ty)
    }

    /// `min(…)` or `max(…)` (`op` builds the op for the argument count): one number or more.
    fn call_min_max(
        &mut self,
        name: &str,
        args: &[&Node],
        op: fn(u32) -> Op,
    ) -> Result<Ty, String> {
        if args.is_empty() {
            return Err(format!("{name}() needs at least one argument"));
        }
        let what = format!("{name}()");
        for a in args {
            self.expect(a, Ty::Num, &what)?;
        }
        self.emit(op(args.len() as u32));
        Ok(Ty::Num)
    }

    /// A function of `want` numbers to a number, computed by `op`.
    fn call_numeric(
        &mut self,
        name: &str,
        args: &[&Node],
        want: usize,
        op: Op,
    ) -> Result<Ty, String> {
        check_arity(name, args, want)?;
        let what = format!("{name}()");
        for a in args {
            self.expect(a, Ty::Num, &what)?;
        }
        self.emit(op);
        Ok(Ty::Num)
    }
}

/// Refuses a call of `name` with other than `want` arguments.
fn check_arity(name: &str, args: &[&Node], want: usize) -> Result<(), String> {
    if args.len() == want {
        Ok(())
    } else {
        Err(format!(
            "{name}() takes {want} argument(s), found {}",
            args.len()
        ))
    }
}

/// The built-ins of a fixed number of numeric arguments: how many they take and the op that
/// computes them; `None` for any other name.
fn numeric_function(name: &str) -> Option<(usize, Op)> {
    Some(match name {
        "clamp" => (3, Op::Clamp),
        "ceil" => (1, Op::F1(F1::Ceil)),
        "floor" => (1, Op::F1(F1::Floor)),
        "round" => (1, Op::F1(F1::Round)),
        "abs" | "math::abs" => (1, Op::F1(F1::Abs)),
        "sqrt" | "math::sqrt" => (1, Op::F1(F1::Sqrt)),
        "math::cbrt" => (1, Op::F1(F1::Cbrt)),
        "math::ln" => (1, Op::F1(F1::Ln)),
        "math::log2" => (1, Op::F1(F1::Log2)),
        "math::log10" => (1, Op::F1(F1::Log10)),
        "math::exp" => (1, Op::F1(F1::Exp)),
        "pow2ceil" => (1, Op::F1(F1::Pow2Ceil)),
        "roundup" => (2, Op::F2(F2::RoundUp)),
        "rounddown" => (2, Op::F2(F2::RoundDown)),
        "math::pow" => (2, Op::F2(F2::Pow)),
        "math::log" => (2, Op::F2(F2::Log)),
        "math::hypot" => (2, Op::F2(F2::Hypot)),
        _ => return None,
    })
}

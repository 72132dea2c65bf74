//! The evaluator: a small stack machine over a flat array of values. Booleans are 0.0 and 1.0;
//! `if` evaluates both branches (they are pure) and selects, so an unused branch's division by
//! zero is harmless; only a formula's own value must be finite.
//!
//! Errors propagate as a spreadsheet's do: a division by zero or an undefined result
//! (`sqrt(-1)`) is NaN, an overflow inf, and neither is swallowed by what uses it — arithmetic,
//! comparisons, `&&`, `!`, `min`, `max`, `clamp`, the condition of `if` — where Excel's
//! `#DIV/0!` and `#NUM!` would propagate, so a value the engine reports is one the workbook can
//! recompute. A formula whose own value is not finite is refused by the caller.

/// Functions of one argument.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum F1 {
    Ceil,
    Floor,
    Round,
    Abs,
    Sqrt,
    Cbrt,
    Ln,
    Log2,
    Log10,
    Exp,
    Pow2Ceil,
}

/// Functions of two arguments.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum F2 {
    RoundUp,
    RoundDown,
    Pow,
    Log,
    Hypot,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    Const(f64),
    Load(u32),
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    Neg,
    Not,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    /// condition, then, else → chosen
    Select,
    Min(u32),
    Max(u32),
    Clamp,
    F1(F1),
    F2(F2),
}

impl Op {
    /// How the op changes the stack's height.
    pub fn stack_effect(&self) -> isize {
        match self {
            Op::Const(_) | Op::Load(_) => 1,
            Op::Neg | Op::Not | Op::F1(_) => 0,
            Op::Select | Op::Clamp => -2,
            Op::Min(n) | Op::Max(n) => 1 - *n as isize,
            _ => -1,
        }
    }
}

/// A reusable evaluation stack.
#[derive(Debug, Default)]
pub struct Scratch {
    stack: Vec<f64>,
}

impl Scratch {
    /// An empty stack with room for `n` values;
    /// [`Program::scratch`](super::Program::scratch) sizes it for a program.
    pub fn with_capacity(n: usize) -> Self {
        Scratch {
            stack: Vec::with_capacity(n),
        }
    }
}

/// `x` rounded to 9 decimals, where `ceil` and `floor` look: `10 * 1.1` is 11.000000000000002,
/// and a spreadsheet user expects `ceil` of it to be 11. The live workbook writes the same rule
/// (`-INT(-ROUND(x,9))`, `INT(ROUND(x,9))`; formula/excel.rs), so a ceiling agrees in both:
/// `ceil(1000.0000001)` is 1001 here and in Excel.
/// From 2^53 / 10^9 up a double has no ninth decimal to round (its spacing is wider than 10^-9),
/// and scaling it by 10^9 would only add error: `ceil(313367593204)` came out 313367593205.
fn snap(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= 9_007_199.254_740_992 {
        return x; // also the infinities
    }
    (x * 1e9).round() / 1e9
}

pub fn ceil(x: f64) -> f64 {
    snap(x).ceil()
}

pub fn floor(x: f64) -> f64 {
    snap(x).floor()
}

/// The next power of two at or above `x` (1 for anything up to 1).
pub fn pow2ceil(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x <= 1.0 {
        return 1.0;
    }
    2f64.powf(ceil(x.log2()))
}

/// Rounds away from zero (`roundup`) or towards zero (`rounddown`) to `digits` decimals, as Excel's
/// ROUNDUP and ROUNDDOWN do.
fn round_digits(x: f64, digits: f64, up: bool) -> f64 {
    let scale = 10f64.powf(digits.trunc());
    let v = x.abs() * scale;
    let r = if up { ceil(v) } else { floor(v) };
    r.copysign(x) / scale
}

fn b(x: bool) -> f64 {
    if x {
        1.0
    } else {
        0.0
    }
}

/// A comparison or logical result, NaN when either operand is an error (not finite: an
/// overflow's inf is an error too, as Excel's #NUM!).
#[inline]
fn test(x: f64, y: f64, r: bool) -> f64 {
    if x.is_finite() && y.is_finite() {
        b(r)
    } else {
        f64::NAN
    }
}

/// `x / y`: an error (NaN) for a zero or non-finite divisor, as Excel's #DIV/0! and #NUM!;
/// an inf elsewhere stays inf and is refused where a value is used.
#[inline]
fn div(x: f64, y: f64) -> f64 {
    if y == 0.0 || !y.is_finite() {
        f64::NAN
    } else {
        x / y
    }
}

/// `x % y` with the dividend's sign, as evalexpr's `%`: an error (NaN) for a non-finite divisor
/// (a zero divisor gives NaN by itself).
#[inline]
fn modulo(x: f64, y: f64) -> f64 {
    if y.is_finite() {
        x % y
    } else {
        f64::NAN
    }
}

/// `if(c, t, e)`: the chosen branch, or an error (NaN) when the condition is one.
#[inline]
fn select(c: f64, t: f64, e: f64) -> f64 {
    if !c.is_finite() {
        f64::NAN
    } else if c != 0.0 {
        t
    } else {
        e
    }
}

/// `clamp(x, lo, hi)`: `x` held within `lo..=hi`, or an error (NaN) when any operand is one.
#[inline]
fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    if !(x.is_finite() && lo.is_finite() && hi.is_finite()) {
        f64::NAN
    } else {
        x.max(lo).min(hi)
    }
}

/// Replaces the top `n` values of the stack with their minimum (`is_min`) or maximum; an error
/// (NaN) if any of them is one, or if there are none.
#[inline]
fn min_max(st: &mut Vec<f64>, n: u32, is_min: bool) {
    let start = st.len().saturating_sub(n as usize);
    // f64::min and max skip NaN; a spreadsheet's MIN and MAX return the error.
    let acc = st[start..].iter().copied().reduce(|acc, v| {
        if !acc.is_finite() || !v.is_finite() {
            f64::NAN
        } else if is_min {
            acc.min(v)
        } else {
            acc.max(v)
        }
    });
    st.truncate(start);
    st.push(acc.unwrap_or(f64::NAN));
}

/// A built-in function of one argument applied to `x`.
#[inline]
fn call1(f: F1, x: f64) -> f64 {
    match f {
        F1::Ceil => ceil(x),
        F1::Floor => floor(x),
        F1::Round => x.round(),
        F1::Abs => x.abs(),
        F1::Sqrt => x.sqrt(),
        F1::Cbrt => x.cbrt(),
        F1::Ln => x.ln(),
        F1::Log2 => x.log2(),
        F1::Log10 => x.log10(),
        F1::Exp => x.exp(),
        F1::Pow2Ceil => pow2ceil(x),
    }
}

/// A built-in function of two arguments applied to `x` and `y`.
#[inline]
fn call2(f: F2, x: f64, y: f64) -> f64 {
    match f {
        F2::RoundUp => round_digits(x, y, true),
        F2::RoundDown => round_digits(x, y, false),
        F2::Pow => x.powf(y),
        F2::Log => x.log(y),
        F2::Hypot => x.hypot(y),
    }
}

/// Runs `code` over `values` and returns the value it leaves on top of the stack (NaN for code
/// that leaves none). The dispatch stays one match, the hot loop of every candidate evaluation;
/// what an arm computes beyond a single operation is an inlined helper above.
#[inline]
pub fn run(code: &[Op], values: &[f64], s: &mut Scratch) -> f64 {
    let st = &mut s.stack;
    st.clear();
    macro_rules! pop {
        () => {
            st.pop().unwrap_or(f64::NAN)
        };
    }
    macro_rules! unary {
        ($f:expr) => {{
            let x = pop!();
            st.push($f(x));
        }};
    }
    macro_rules! bin {
        ($f:expr) => {{
            let y = pop!();
            let x = pop!();
            st.push($f(x, y));
        }};
    }
    macro_rules! ternary {
        ($f:expr) => {{
            let z = pop!();
            let y = pop!();
            let x = pop!();
            st.push($f(x, y, z));
        }};
    }
    for op in code {
        match *op {
            // Operands.
            Op::Const(c) => st.push(c),
            Op::Load(i) => st.push(values.get(i as usize).copied().unwrap_or(f64::NAN)),
            // Arithmetic.
            Op::Add => bin!(|x, y| x + y),
            Op::Sub => bin!(|x, y| x - y),
            Op::Mul => bin!(|x, y| x * y),
            Op::Div => bin!(div),
            Op::Mod => bin!(modulo),
            Op::Pow => bin!(|x: f64, y: f64| x.powf(y)),
            Op::Neg => unary!(|x: f64| -x),
            // Comparisons and logic.
            Op::Eq => bin!(|x, y| test(x, y, x == y)),
            Op::Ne => bin!(|x, y| test(x, y, x != y)),
            Op::Lt => bin!(|x, y| test(x, y, x < y)),
            Op::Le => bin!(|x, y| test(x, y, x <= y)),
            Op::Gt => bin!(|x, y| test(x, y, x > y)),
            Op::Ge => bin!(|x, y| test(x, y, x >= y)),
            Op::And => bin!(|x, y| test(x, y, x != 0.0 && y != 0.0)),
            Op::Or => bin!(|x, y| test(x, y, x != 0.0 || y != 0.0)),
            Op::Not => unary!(|x: f64| test(x, 0.0, x == 0.0)),
            // Built-in functions.
            Op::Select => ternary!(select),
            Op::Min(n) => min_max(st, n, true),
            Op::Max(n) => min_max(st, n, false),
            Op::Clamp => ternary!(clamp),
            Op::F1(f) => unary!(|x| call1(f, x)),
            Op::F2(f) => bin!(|x, y| call2(f, x, y)),
        }
    }
    st.pop().unwrap_or(f64::NAN)
}

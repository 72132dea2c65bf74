//! evalexpr as the reference evaluator: the same formulas evaluated by evalexpr itself (integer
//! literals made floats, gpuplan's added functions defined), so tests can check that the compiled
//! stack code computes exactly what evalexpr would.

use super::{Program, Ty};
use crate::model::FormulaDef;
use evalexpr::{
    ContextWithMutableFunctions, ContextWithMutableVariables, Function, HashMapContext, Node,
    Operator, Value,
};

fn floats(node: &mut Node) {
    if let Operator::Const {
        value: Value::Int(i),
    } = node.operator()
    {
        let f = *i as f64;
        *node.operator_mut() = Operator::Const {
            value: Value::Float(f),
        };
    }
    for c in node.children_mut() {
        floats(c);
    }
}

fn args(v: &Value) -> Result<Vec<f64>, evalexpr::EvalexprError> {
    match v {
        Value::Tuple(t) => t.iter().map(|x| x.as_number()).collect(),
        other => Ok(vec![other.as_number()?]),
    }
}

/// The spreadsheet's rounding, written apart from the engine's: Excel's ROUND(x, 9) as decimal
/// text, then the integer above or below (what the live workbook's `-INT(-ROUND(x,9))` does).
fn round9(x: f64) -> f64 {
    format!("{x:.9}").parse().unwrap_or(x)
}

fn oracle_ceil(x: f64) -> f64 {
    round9(x).ceil()
}

fn oracle_floor(x: f64) -> f64 {
    round9(x).floor()
}

fn oracle_pow2ceil(x: f64) -> f64 {
    if x.is_nan() {
        f64::NAN
    } else if x <= 1.0 {
        1.0
    } else {
        2f64.powf(oracle_ceil(x.log2()))
    }
}

fn context() -> Result<HashMapContext, String> {
    let mut c = HashMapContext::new();
    let e = |e: evalexpr::EvalexprError| e.to_string();
    c.set_function(
        "ceil".into(),
        Function::new(|a| Ok(Value::Float(oracle_ceil(a.as_number()?)))),
    )
    .map_err(e)?;
    c.set_function(
        "floor".into(),
        Function::new(|a| Ok(Value::Float(oracle_floor(a.as_number()?)))),
    )
    .map_err(e)?;
    c.set_function(
        "pow2ceil".into(),
        Function::new(|a| Ok(Value::Float(oracle_pow2ceil(a.as_number()?)))),
    )
    .map_err(e)?;
    c.set_function(
        "abs".into(),
        Function::new(|a| Ok(Value::Float(a.as_number()?.abs()))),
    )
    .map_err(e)?;
    c.set_function(
        "sqrt".into(),
        Function::new(|a| Ok(Value::Float(a.as_number()?.sqrt()))),
    )
    .map_err(e)?;
    // As a spreadsheet's: an error (a non-finite argument) is the result, not skipped.
    let error_in = |v: &[f64]| v.iter().any(|x| !x.is_finite());
    c.set_function(
        "clamp".into(),
        Function::new(move |a| {
            let v = args(a)?;
            Ok(Value::Float(if error_in(&v) {
                f64::NAN
            } else {
                v[0].max(v[1]).min(v[2])
            }))
        }),
    )
    .map_err(e)?;
    for (name, is_min) in [("min", true), ("max", false)] {
        c.set_function(
            name.into(),
            Function::new(move |a| {
                let v = args(a)?;
                let r = if error_in(&v) {
                    f64::NAN
                } else if is_min {
                    v.iter().copied().fold(f64::INFINITY, f64::min)
                } else {
                    v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                };
                Ok(Value::Float(r))
            }),
        )
        .map_err(e)?;
    }
    for (name, up) in [("roundup", true), ("rounddown", false)] {
        c.set_function(
            name.into(),
            Function::new(move |a| {
                let v = args(a)?;
                let scale = 10f64.powf(v[1].trunc());
                let x = v[0].abs() * scale;
                let r = if up { oracle_ceil(x) } else { oracle_floor(x) };
                Ok(Value::Float(r.copysign(v[0]) / scale))
            }),
        )
        .map_err(e)?;
    }
    Ok(c)
}

/// Evaluates `p`'s formulas with evalexpr on the inputs in `values` (as filled for the compiled
/// program) and returns the values array it arrives at.
pub fn reference_eval(
    p: &Program,
    defs: &[&FormulaDef],
    values: &[f64],
) -> Result<Vec<f64>, String> {
    let mut ctx = context()?;
    let set = |ctx: &mut HashMapContext, name: &str, ty: Ty, v: f64| {
        let value = match ty {
            Ty::Num => Value::Float(v),
            Ty::Bool => Value::Boolean(v != 0.0),
        };
        ctx.set_value(name.to_string(), value)
            .map_err(|e| e.to_string())
    };
    for (slot, v) in values.iter().enumerate().take(p.inputs()) {
        set(&mut ctx, p.name(slot), p.ty(slot), *v)?;
    }
    let mut out = values.to_vec();
    for f in &p.order {
        let mut node =
            evalexpr::build_operator_tree(&defs[f.def].expression).map_err(|e| e.to_string())?;
        floats(&mut node);
        let v = match node
            .eval_with_context(&ctx)
            .map_err(|e| format!("{}: {e}", f.name))?
        {
            Value::Float(x) => x,
            Value::Int(i) => i as f64,
            Value::Boolean(b) => f64::from(u8::from(b)),
            other => return Err(format!("{}: evalexpr gave {other:?}", f.name)),
        };
        // A money formula's value is its cents, as the compiled code gives it.
        let v = if defs[f.def].unit == super::MONEY_UNIT && f.ty == Ty::Num {
            super::cents(v)
        } else {
            v
        };
        out[f.slot] = v;
        set(&mut ctx, &f.name, f.ty, v)?;
    }
    Ok(out)
}

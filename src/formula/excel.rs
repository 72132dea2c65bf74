//! Translation of a formula to an Excel formula, for the live cells of the plan workbook.
//! Every operation is parenthesised explicitly where the two languages differ: evalexpr's `-2^2`
//! is −4 and Excel's 4 (so `^` becomes POWER), evalexpr's `%` is a remainder with the dividend's
//! sign and Excel's a percent sign; `ceil`/`floor` keep their forgiveness of float noise.

use super::compile::{call_args, parse, Parsed};
use evalexpr::{Node, Operator, Value};

/// How a variable appears in the Excel formula: a cell reference, a literal, or a translated
/// sub-formula; the resolver decides. An `Err` makes the whole translation fail (the caller then
/// writes the value instead).
pub type Resolve<'a> = dyn FnMut(&str) -> Result<String, String> + 'a;

/// A number as an Excel literal (parenthesised when negative).
pub fn excel_number(v: f64) -> String {
    let s = if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:?}")
    };
    if v < 0.0 {
        format!("({s})")
    } else {
        s
    }
}

/// Named expressions parsed once, for translating many rows of a workbook.
pub struct Expressions {
    trees: std::collections::HashMap<String, Parsed>,
    /// The money formulas, written `ROUND(…,2)` as the engine rounds them
    /// ([`cents`](super::cents)).
    money: std::collections::HashSet<String>,
}

impl Expressions {
    /// Parses every (name, expression); one that does not parse is left out (it cannot have
    /// compiled either).
    pub fn new<'a>(defs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Expressions {
        let trees = defs
            .into_iter()
            .filter_map(|(n, e)| Some((n.to_string(), parse(e).ok()?)))
            .collect();
        Expressions {
            trees,
            money: std::collections::HashSet::new(),
        }
    }

    /// Names the money formulas among them: their translations round to the cent.
    pub fn with_money<'a>(mut self, names: impl IntoIterator<Item = &'a str>) -> Expressions {
        self.money = names.into_iter().map(str::to_string).collect();
        self
    }

    /// Whether an expression named `name` is held (one evalexpr could not parse is left out).
    pub fn contains(&self, name: &str) -> bool {
        self.trees.contains_key(name)
    }

    /// The variables the named expression reads.
    pub fn variables(&self, name: &str) -> &[String] {
        self.trees.get(name).map_or(&[], |p| p.variables.as_slice())
    }

    /// Whether the named expression holds, evaluated by evalexpr on the values `value` gives
    /// (`(number, is_yes_no)` per variable); None where a variable has no value or the
    /// expression does not evaluate to yes/no (a function call, for one: not defined here).
    /// The writer asks it of a mode's `allow_` formula with the offer's missing price taken
    /// as given, to tell a blank price cell where a quote would price the mode (#34 item 11).
    pub fn holds(&self, name: &str, value: &dyn Fn(&str) -> Option<(f64, bool)>) -> Option<bool> {
        use evalexpr::ContextWithMutableVariables;
        let p = self.trees.get(name)?;
        let mut ctx = evalexpr::HashMapContext::new();
        for v in &p.variables {
            let (x, yes_no) = value(v)?;
            let x = if yes_no {
                Value::Boolean(x != 0.0)
            } else {
                Value::Float(x)
            };
            ctx.set_value(v.clone(), x).ok()?;
        }
        p.node.eval_boolean_with_context(&ctx).ok()
    }

    /// The named expression as an Excel formula body.
    pub fn to_excel(&self, name: &str, resolve: &mut Resolve) -> Result<String, String> {
        let p = self
            .trees
            .get(name)
            .ok_or_else(|| format!("no formula {name}"))?;
        let body = node_to_excel(&p.node, resolve)?;
        Ok(if self.money.contains(name) {
            format!("ROUND({body},2)")
        } else {
            body
        })
    }
}

/// Translates one node of the tree to an Excel formula body: operators here, constants and
/// function calls in their own steps. Operands are translated left to right, so `resolve` sees
/// the variables in the order they are written.
fn node_to_excel(n: &Node, resolve: &mut Resolve) -> Result<String, String> {
    use Operator as O;
    let mut sub = |i: usize| -> Result<String, String> {
        n.children()
            .get(i)
            .ok_or_else(|| "missing operand".to_string())
            .and_then(|c| node_to_excel(c, resolve))
    };
    let bin = |a: String, op: &str, b: String| format!("({a}{op}{b})");
    Ok(match n.operator() {
        O::RootNode => sub(0)?,
        // Arithmetic.
        O::Add => bin(sub(0)?, "+", sub(1)?),
        O::Sub => bin(sub(0)?, "-", sub(1)?),
        O::Mul => bin(sub(0)?, "*", sub(1)?),
        O::Div => bin(sub(0)?, "/", sub(1)?),
        O::Exp => format!("POWER({},{})", sub(0)?, sub(1)?),
        O::Mod => {
            let (a, b) = (sub(0)?, sub(1)?);
            format!("({a}-{b}*TRUNC({a}/{b}))")
        }
        O::Neg => format!("(-{})", sub(0)?),
        // Comparisons.
        O::Eq => bin(sub(0)?, "=", sub(1)?),
        O::Neq => bin(sub(0)?, "<>", sub(1)?),
        O::Gt => bin(sub(0)?, ">", sub(1)?),
        O::Lt => bin(sub(0)?, "<", sub(1)?),
        O::Geq => bin(sub(0)?, ">=", sub(1)?),
        O::Leq => bin(sub(0)?, "<=", sub(1)?),
        // Logic.
        O::And => format!("AND({},{})", sub(0)?, sub(1)?),
        O::Or => format!("OR({},{})", sub(0)?, sub(1)?),
        O::Not => format!("NOT({})", sub(0)?),
        O::Const { value } => constant_to_excel(value)?,
        O::VariableIdentifierRead { identifier } => resolve(identifier)?,
        O::FunctionIdentifier { identifier } => call_to_excel(identifier, n, resolve)?,
        _ => return Err("this expression has no Excel translation".to_string()),
    })
}

/// A literal as Excel writes it: a number or TRUE / FALSE.
fn constant_to_excel(value: &Value) -> Result<String, String> {
    Ok(match value {
        Value::Int(i) => excel_number(*i as f64),
        Value::Float(f) => excel_number(*f),
        Value::Boolean(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        _ => return Err("only numbers and yes/no values translate".to_string()),
    })
}

/// A call of the function `name` (node `n`): its arguments translated first, then the Excel
/// function or expression that computes the same.
fn call_to_excel(name: &str, n: &Node, resolve: &mut Resolve) -> Result<String, String> {
    let a: Vec<String> = call_args(n)
        .into_iter()
        .map(|c| node_to_excel(c, resolve))
        .collect::<Result<_, _>>()?;
    Ok(match name {
        "if" => match a.as_slice() {
            [c, t, e] => format!("IF({c},{t},{e})"),
            _ => return Err("if() takes three arguments".to_string()),
        },
        "min" => format!("MIN({})", a.join(",")),
        "max" => format!("MAX({})", a.join(",")),
        "clamp" => match a.as_slice() {
            [x, lo, hi] => format!("MIN(MAX({x},{lo}),{hi})"),
            _ => return Err("clamp() takes three arguments".to_string()),
        },
        _ => {
            if let Some(f) = function_of_one(name) {
                match a.as_slice() {
                    [x] => f(x),
                    _ => return Err(format!("{name}() takes one argument")),
                }
            } else if let Some(f) = function_of_two(name) {
                match a.as_slice() {
                    [x, y] => f(x, y),
                    _ => return Err(format!("{name}() takes two arguments")),
                }
            } else {
                return Err(format!("{name}() has no Excel translation"));
            }
        }
    })
}

/// The Excel form of a built-in of one argument, given the argument's translation; `None` for
/// any other name.
fn function_of_one(name: &str) -> Option<fn(&str) -> String> {
    let f: fn(&str) -> String = match name {
        // Forgiving float noise as the engine does: round to 9 decimals first.
        "ceil" => |x| format!("(-INT(-ROUND({x},9)))"),
        "floor" => |x| format!("INT(ROUND({x},9))"),
        "round" => |x| format!("ROUND({x},0)"),
        "pow2ceil" => |x| format!("IF({x}<=1,1,POWER(2,-INT(-ROUND(LOG({x},2),9))))"),
        "abs" | "math::abs" => |x| format!("ABS({x})"),
        "sqrt" | "math::sqrt" => |x| format!("SQRT({x})"),
        "math::cbrt" => |x| format!("POWER({x},1/3)"),
        "math::ln" => |x| format!("LN({x})"),
        "math::log2" => |x| format!("LOG({x},2)"),
        "math::log10" => |x| format!("LOG10({x})"),
        "math::exp" => |x| format!("EXP({x})"),
        _ => return None,
    };
    Some(f)
}

/// The Excel form of a built-in of two arguments, given the arguments' translations; `None` for
/// any other name.
fn function_of_two(name: &str) -> Option<fn(&str, &str) -> String> {
    let f: fn(&str, &str) -> String = match name {
        "roundup" => |x, d| format!("ROUNDUP({x},{d})"),
        "rounddown" => |x, d| format!("ROUNDDOWN({x},{d})"),
        "math::log" => |x, b| format!("LOG({x},{b})"),
        "math::pow" => |x, y| format!("POWER({x},{y})"),
        "math::hypot" => |x, y| format!("SQRT(POWER({x},2)+POWER({y},2))"),
        _ => return None,
    };
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tr(expr: &str) -> String {
        let e = Expressions::new([("f", expr)]);
        e.to_excel("f", &mut |v: &str| Ok(format!("[{v}]")))
            .unwrap()
    }

    #[test]
    fn operators_are_parenthesised_where_the_languages_differ() {
        assert_eq!(tr("-2^2"), "(-POWER(2,2))");
        assert_eq!(tr("a % b"), "([a]-[b]*TRUNC([a]/[b]))");
        assert_eq!(tr("a + b * c"), "([a]+([b]*[c]))");
        assert_eq!(
            tr("if(a > 1 && !f, ceil(x), floor(y))"),
            "IF(AND(([a]>1),NOT([f])),(-INT(-ROUND([x],9))),INT(ROUND([y],9)))"
        );
        assert_eq!(tr("max(a, 2, -1.5)"), "MAX([a],2,(-1.5))");
        assert_eq!(tr("a == b || a != c"), "OR(([a]=[b]),([a]<>[c]))");
        assert_eq!(tr("clamp(x, 0, 1)"), "MIN(MAX([x],0),1)");
        assert_eq!(excel_number(0.0167), "0.0167");
        assert_eq!(excel_number(1e9), "1000000000");
    }

    #[test]
    fn untranslatable_input_is_an_error() {
        let e = Expressions::new([("f", "a")]);
        assert!(e
            .to_excel("f", &mut |_: &str| Err("no".to_string()))
            .is_err());
        assert!(e
            .to_excel("missing", &mut |_: &str| Ok(String::new()))
            .is_err());
    }
}

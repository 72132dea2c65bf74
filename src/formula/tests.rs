//! Spreadsheet semantics of the engine, one test each.

use super::*;
use crate::model::{FormulaDef, Origin, Scope};

fn def(name: &str, expr: &str) -> FormulaDef {
    FormulaDef {
        name: name.to_string(),
        expression: expr.to_string(),
        scope: Scope::Candidate,
        unit: String::new(),
        description: String::new(),
        origin: Origin::User,
        cell: None,
    }
}

/// Compiles `formulas` over inputs `x` (number) and `flag` (bool) and evaluates with the given values.
fn eval_with(formulas: &[(&str, &str)], x: f64, flag: bool) -> Result<Vec<(String, f64)>, String> {
    let inputs = [InputVar::num("x"), InputVar::bool("flag")];
    let defs: Vec<FormulaDef> = formulas.iter().map(|(n, e)| def(n, e)).collect();
    let refs: Vec<&FormulaDef> = defs.iter().collect();
    let p = Program::compile(&inputs, &refs, &[]).map_err(|ps| {
        ps.iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let mut values = vec![0.0; p.width()];
    values[0] = x;
    values[1] = if flag { 1.0 } else { 0.0 };
    let mut s = p.scratch();
    p.eval(&mut values, &mut s)
        .map_err(|e| format!("non-finite {} in {}", e.value, defs[e.def].name))?;
    Ok(defs
        .iter()
        .map(|d| (d.name.clone(), values[p.slot(&d.name).unwrap()]))
        .collect())
}

fn one(expr: &str, x: f64) -> Result<f64, String> {
    eval_with(&[("r", expr)], x, true).map(|v| v[0].1)
}

#[test]
fn integers_divide_as_floats() {
    assert_eq!(one("7 / 2", 0.0), Ok(3.5));
    assert_eq!(one("x / 2", 7.0), Ok(3.5));
}

#[test]
fn ceil_and_floor_forgive_float_noise() {
    // 10 * 1.1 = 11.000000000000002 in binary floating point; a spreadsheet user expects 11.
    assert_eq!(one("ceil(10 * 1.1)", 0.0), Ok(11.0));
    assert_eq!(one("floor(0.1 * 3 * 10)", 0.0), Ok(3.0));
    assert_eq!(one("ceil(1.2)", 0.0), Ok(2.0));
    assert_eq!(one("floor(-1.5)", 0.0), Ok(-2.0));
    // The noise forgiven is what Excel's ROUND(x, 9) forgives, the rule the live workbook writes
    // (-INT(-ROUND(x,9))): 1000.0000001 is above 1000 in both, 1000.0000000001 is 1000 in both.
    assert_eq!(one("ceil(x)", 1_000.000_000_1), Ok(1001.0));
    assert_eq!(one("ceil(x)", 1_000.000_000_000_1), Ok(1000.0));
    assert_eq!(one("floor(x)", 999.999_999_9), Ok(999.0));
    assert_eq!(one("floor(x)", 999.999_999_999_9), Ok(1000.0));
    assert_eq!(one("pow2ceil(x)", 4.000_000_000_01), Ok(4.0));
}

#[test]
fn ceil_and_floor_of_large_whole_numbers_are_those_numbers() {
    // Scaled by 10^9, 313,367,593,204 is past 2^53 and came back as …204.00006: ceil gave …205.
    for x in [
        313_367_593_204.0,
        9_007_199.0,
        1e15,
        4_503_599_627_370_497.0,
    ] {
        assert_eq!(one("ceil(x)", x), Ok(x), "{x}");
        assert_eq!(one("floor(x)", x), Ok(x), "{x}");
    }
    assert_eq!(one("ceil(x)", 9_007_198.5), Ok(9_007_199.0));
}

#[test]
fn added_functions() {
    assert_eq!(one("pow2ceil(3)", 0.0), Ok(4.0));
    assert_eq!(one("pow2ceil(4)", 0.0), Ok(4.0));
    assert_eq!(one("pow2ceil(0.3)", 0.0), Ok(1.0));
    assert_eq!(one("clamp(x, 0, 10)", 12.0), Ok(10.0));
    assert_eq!(one("roundup(2.341, 2)", 0.0), Ok(2.35));
    assert_eq!(one("rounddown(2.349, 2)", 0.0), Ok(2.34));
    assert_eq!(one("max(x)", 5.0), Ok(5.0));
    assert_eq!(one("min(3, x, 9)", 1.0), Ok(1.0));
    assert_eq!(one("math::sqrt(16) + sqrt(9)", 0.0), Ok(7.0));
}

#[test]
fn precedence_follows_evalexpr() {
    // evalexpr binds unary minus looser than ^: -2^2 is -4 (Excel says 4; the output translation must parenthesise).
    assert_eq!(one("-2^2", 0.0), Ok(-4.0));
    assert_eq!(one("2 + 3 * 4", 0.0), Ok(14.0));
    assert_eq!(one("7 % 4", 0.0), Ok(3.0));
}

#[test]
fn booleans_are_typed() {
    assert_eq!(one("if(flag, 2, 3)", 0.0), Ok(2.0));
    assert_eq!(one("if(flag && x > 1, 1, 0)", 2.0), Ok(1.0));
    let err = one("flag * 0.2", 0.0).unwrap_err();
    assert!(err.contains("yes/no values are not numbers"), "{err}");
    let err = one("if(x, 1, 2)", 0.0).unwrap_err();
    assert!(err.contains("condition of if()"), "{err}");
}

#[test]
fn if_does_not_fail_on_the_branch_it_does_not_take() {
    assert_eq!(one("if(x > 0, 1 / x, 0)", 0.0), Ok(0.0));
}

#[test]
fn non_finite_results_name_the_formula() {
    // A division by zero is an error value (NaN), as Excel's #DIV/0!, not +inf.
    let err = eval_with(&[("per_gpu", "1 / x")], 0.0, true).unwrap_err();
    assert_eq!(err, "non-finite NaN in per_gpu");
    assert!(one("1e400", 0.0).is_err());
}

#[test]
fn an_error_inside_min_max_clamp_a_comparison_or_a_condition_is_not_swallowed() {
    // f64::max(NaN, 1) is 1, and inf > 1 is true; Excel's MAX(#DIV/0!, 1) and #DIV/0! > 1 are
    // errors, so each of these is an error here too (x = 0).
    for expr in [
        "max(1 / x, 1)",
        "min(1, 1 / x, 2)",
        "clamp(1 / x, 0, 1)",
        "if(1 / x > 1, 1, 2)",
        "if(!(1 / x > 1), 1, 2)",
        "if(x > 0 && 1 / x > 1, 1, 2)",
        "max(0, math::ln(x))",
        "max(0, sqrt(x - 1))",
        "max(0, 1e308 * 10 - 1e308 * 10)",
    ] {
        assert!(one(expr, 0.0).is_err(), "{expr} should be an error");
    }
    // The branch if() does not take may hold one: Excel does not evaluate it either.
    assert_eq!(one("if(x > 0, max(1 / x, 1), 7)", 0.0), Ok(7.0));
    // With x = 2 every one of them is a number.
    assert_eq!(one("max(1 / x, 1)", 2.0), Ok(1.0));
    assert_eq!(one("clamp(1 / x, 0, 1)", 2.0), Ok(0.5));
}

#[test]
fn only_whitelisted_functions() {
    let err = one("str::trim(\"a\")", 0.0).unwrap_err();
    assert!(
        err.contains("unknown function `str::trim`") || err.contains("text values"),
        "{err}"
    );
    let err = one("random()", 0.0).unwrap_err();
    assert!(err.contains("unknown function `random`"), "{err}");
    let err = one("cel(x)", 0.0).unwrap_err();
    assert!(err.contains("did you mean ceil"), "{err}");
}

#[test]
fn assignments_and_chains_are_refused() {
    assert!(one("x = 3", 0.0)
        .unwrap_err()
        .contains("assignments are not allowed"));
    assert!(one("1; 2", 0.0).unwrap_err().contains("`;` is not allowed"));
}

#[test]
fn formulas_are_ordered_by_dependency_not_by_row() {
    let v = eval_with(
        &[("c", "b * 2"), ("b", "a + 1"), ("a", "x * 10")],
        1.0,
        false,
    )
    .unwrap();
    assert_eq!(
        v,
        vec![("c".into(), 22.0), ("b".into(), 11.0), ("a".into(), 10.0)]
    );
}

#[test]
fn cycle_between_formulas_is_reported_with_the_whole_loop() {
    let err = eval_with(
        &[
            ("loop_a", "loop_b + 1"),
            ("loop_b", "loop_c"),
            ("loop_c", "loop_a"),
        ],
        0.0,
        false,
    )
    .unwrap_err();
    assert!(err.contains("loop_a → loop_b → loop_c → loop_a"), "{err}");
}

#[test]
fn unknown_name_suggests_the_closest() {
    let err = eval_with(
        &[("weights_gib", "x"), ("t", "wieghts_gib * 2")],
        0.0,
        false,
    )
    .unwrap_err();
    assert!(
        err.contains("unknown name `wieghts_gib`") && err.contains("did you mean weights_gib"),
        "{err}"
    );
}

#[test]
fn syntax_error_is_reported() {
    let err = one("(x + ", 0.0).unwrap_err();
    assert!(err.contains("syntax error"), "{err}");
}

#[test]
fn deep_and_long_formulas_are_refused_before_parsing() {
    let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    assert!(one(&deep, 0.0).unwrap_err().contains("characters long"));
    let deep_short = format!("{}1{}", "(".repeat(65), ")".repeat(65));
    assert!(one(&deep_short, 0.0)
        .unwrap_err()
        .contains("nests deeper than 64"));
    let negs = format!("{}1", "-".repeat(200));
    assert!(one(&negs, 0.0).unwrap_err().contains("nests deeper"));
    let big = "x+".repeat(500_000) + "1";
    assert!(one(&big, 0.0).unwrap_err().contains("at most 4096"));
    // A flat chain within the length limit parses, and a very long one is refused as a chain.
    let chain = "1+".repeat(100) + "1";
    assert_eq!(one(&chain, 0.0), Ok(101.0));
    let long_chain = "1+".repeat(2000) + "1";
    assert!(one(&long_chain, 0.0)
        .unwrap_err()
        .contains("chain of more than"));
    let pow_chain = "1^".repeat(2000) + "1";
    assert!(one(&pow_chain, 0.0).is_err());
    let fifty = format!("{}x{}", "(".repeat(50), ")".repeat(50));
    assert_eq!(one(&fifty, 3.0), Ok(3.0));
}

#[test]
fn a_formula_cannot_shadow_an_input() {
    let err = one("1", 0.0)
        .and_then(|_| eval_with(&[("x", "1")], 0.0, false).map(|_| 0.0))
        .unwrap_err();
    assert!(err.contains("already an input"), "{err}");
}

/// Money to the cent as Excel's ROUND(x, 2): half away from zero, a half cent binary floating
/// point stores just below (1.005 is 1.00499999999999989…) rounded up, a value truly below the
/// half cent kept below, and no -0.0.
#[test]
fn cents_rounds_as_excel_round_does() {
    use super::cents;
    assert_eq!(cents(308.333_333_333_333_3), 308.33);
    assert_eq!(cents(2.5 * (120.0 + 10.0 * 20.0 / 60.0)), 308.33);
    assert_eq!(cents(1.005), 1.01);
    assert_eq!(cents(-1.005), -1.01);
    assert_eq!(cents(2.675), 2.68);
    assert_eq!(cents(1.004_999), 1.0);
    assert_eq!(cents(0.125), 0.13);
    assert_eq!(cents(44_870.436_666_666_67), 44_870.44);
    assert!(cents(-0.001).is_sign_positive());
    assert_eq!(cents(-0.001), 0.0);
    assert!(cents(f64::NAN).is_nan());
}

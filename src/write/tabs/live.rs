//! Live formulas (SPEC §8.3): which values of the plan stay formulas in the workbook, and how a
//! formula of the engine becomes an Excel formula over the cells it comes from.
//!
//! A formula is *live* when it depends, directly or through other formulas, on a value finance
//! may edit in the output: an offer's price or billing terms (cells of the Plan tab's row) or a
//! money assumption (cells of the Assumptions tab). Live formulas are translated, inlining live
//! sub-formulas; every other value (the sizing: GPUs, hours, …) is written as the number it is.

use super::Ctx;
use crate::formula::{excel_number, Expressions};
use crate::model::{column_letters, GpuOffer, Scope, Warning};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Excel's limit on a formula's text, in characters.
pub const MAX_FORMULA_CHARS: usize = 8_192;

/// Refuses a translation past Excel's limit. Checked at every inlined sub-formula too, so that
/// formulas that use each other many times (`x2 = x1 + x1`, `x3 = x2 + x2`, …) stop growing at
/// the limit instead of doubling without bound.
fn bounded(text: String) -> Result<String, String> {
    if text.chars().count() < MAX_FORMULA_CHARS {
        Ok(text)
    } else {
        Err(format!(
            "its Excel formula would pass Excel's limit of {MAX_FORMULA_CHARS} characters once the live formulas it uses are written out"
        ))
    }
}

/// `'Sheet'`, its quotes doubled, as a reference prefix wants it.
fn quoted(sheet: &str) -> String {
    format!("'{}'", sheet.replace('\'', "''"))
}

/// `'Sheet'!$B$7`.
pub fn absolute(sheet: &str, row: u32, col: u16) -> String {
    format!(
        "{}!${}${}",
        quoted(sheet),
        column_letters(col as u32),
        row + 1
    )
}

/// `'Sheet'!B7`, or `B7` on the same sheet.
pub fn cell(sheet: Option<&str>, row: u32, col: u16) -> String {
    let at = format!("{}{}", column_letters(col as u32), row + 1);
    match sheet {
        Some(s) => format!("{}!{at}", quoted(s)),
        None => at,
    }
}

/// `'Sheet'!$B$2:$B$9`.
pub fn range(sheet: &str, first: u32, last: u32, col: u16) -> String {
    format!("{}!{}", quoted(sheet), local_range(first, last, col))
}

/// `$B$2:$B$9` on the same sheet.
pub fn local_range(first: u32, last: u32, col: u16) -> String {
    let c = column_letters(col as u32);
    format!("${c}${}:${c}${}", first + 1, last.max(first) + 1)
}

/// What the translation knows about the plan's formulas and the Assumptions tab.
pub struct Live {
    expressions: Expressions,
    scope: HashMap<String, Scope>,
    live: HashSet<String>,
    /// Assumption key → its value cell in the Assumptions tab.
    assumptions: HashMap<String, String>,
    editable_assumptions: HashSet<String>,
    /// Names whose values are yes/no, written TRUE/FALSE.
    bools: HashSet<String>,
    /// Formulas written as values because their Excel translation is too long.
    too_long: RefCell<BTreeSet<String>>,
}

impl Live {
    /// The live formulas of `cx`'s plan, reading each numeric assumption at its cell:
    /// `assumption_cells` gives its key, its value's cell and whether the workbook recomputes
    /// with it (the Assumptions tab's [`value_cells`](super::assumptions::value_cells)).
    pub fn new(cx: &Ctx, assumption_cells: Vec<(String, String, bool)>) -> Live {
        let input = &cx.plan.input;
        let mut assumptions = HashMap::new();
        let mut editable_assumptions = HashSet::new();
        for (key, at, editable) in assumption_cells {
            if editable {
                editable_assumptions.insert(key.clone());
            }
            assumptions.insert(key, at);
        }
        let expressions = Expressions::new(
            input
                .formulas
                .iter()
                .map(|f| (f.name.as_str(), f.expression.as_str())),
        )
        .with_money(
            input
                .formulas
                .iter()
                .filter(|f| f.unit == crate::formula::MONEY_UNIT)
                .map(|f| f.name.as_str()),
        );
        let scope: HashMap<String, Scope> = input
            .formulas
            .iter()
            .map(|f| (f.name.clone(), f.scope))
            .collect();
        let bools = cx
            .plan
            .inputs
            .iter()
            .chain(&cx.plan.columns)
            .filter(|c| c.is_bool)
            .map(|c| c.name.clone())
            .collect();
        let mut l = Live {
            expressions,
            scope,
            live: HashSet::new(),
            assumptions,
            editable_assumptions,
            bools,
            too_long: RefCell::new(BTreeSet::new()),
        };
        let mut memo: HashMap<String, bool> = HashMap::new();
        for f in &input.formulas {
            if l.is_live_rec(&f.name, &mut memo, 0) {
                l.live.insert(f.name.clone());
            }
        }
        l
    }

    fn is_live_rec(&self, name: &str, memo: &mut HashMap<String, bool>, depth: usize) -> bool {
        if let Some(v) = memo.get(name) {
            return *v;
        }
        // The formulas were compiled, so their graph is acyclic; the depth guard is belt and braces.
        let v = depth < 256
            && self.expressions.variables(name).iter().any(|v| {
                GpuOffer::TERMS.contains(&v.as_str())
                    || self.editable_assumptions.contains(v)
                    || (v.starts_with("total_") && self.scope.get(name) == Some(&Scope::Portfolio))
                    || (self.expressions.contains(v) && self.is_live_rec(v, memo, depth + 1))
            });
        memo.insert(name.to_string(), v);
        v
    }

    pub fn is_live(&self, name: &str) -> bool {
        self.live.contains(name)
    }

    pub fn is_editable_assumption(&self, key: &str) -> bool {
        self.editable_assumptions.contains(key)
    }

    /// The absolute cell of an assumption finance may edit in the output (a money one).
    pub fn assumption_cell(&self, key: &str) -> Option<&str> {
        self.editable_assumptions
            .contains(key)
            .then(|| self.assumptions.get(key).map(String::as_str))
            .flatten()
    }

    /// A candidate formula of one planned workload as an Excel formula body: `row_cells` maps
    /// variables to cells of the row, `value` gives every other value of the candidate.
    pub fn candidate(
        &self,
        name: &str,
        row_cells: &dyn Fn(&str) -> Option<String>,
        value: &dyn Fn(&str) -> Option<f64>,
    ) -> Result<String, String> {
        let mut resolve =
            |v: &str| -> Result<String, String> { self.candidate_var(v, row_cells, value, 0) };
        self.noting(name, self.expressions.to_excel(name, &mut resolve))
    }

    /// Whether `allow` (a mode's `allow_` formula) holds for the candidate once the prices
    /// whose `has_` flags `quoted` names are given: a quote typed into their blank cells would
    /// price the mode. No for spot on a workload that does not tolerate interruptions.
    pub fn allowed_with_quote(
        &self,
        allow: &str,
        quoted: &dyn Fn(&str) -> bool,
        value: &dyn Fn(&str) -> Option<f64>,
    ) -> bool {
        let lookup = |v: &str| -> Option<(f64, bool)> {
            let x = if quoted(v) { Some(1.0) } else { value(v) }?;
            Some((x, self.bools.contains(v)))
        };
        self.expressions.holds(allow, &lookup) == Some(true)
    }

    /// Checks a translation's length, and remembers a formula whose translation is too long.
    fn noting(&self, name: &str, r: Result<String, String>) -> Result<String, String> {
        let r = r.and_then(bounded);
        if let Err(why) = &r {
            if why.contains("limit of") {
                self.too_long.borrow_mut().insert(name.to_string());
            }
        }
        r
    }

    /// One warning per formula written as values because its Excel formula would be too long.
    pub fn warnings(&self) -> Vec<Warning> {
        self.too_long
            .borrow()
            .iter()
            .map(|name| {
                Warning::warn(
                    "Formulas",
                    format!("{name}: its Excel formula would pass Excel's limit of {MAX_FORMULA_CHARS} characters once the live formulas it uses are written out, so the workbook holds its planned values (with a note) and they do not follow edits of prices or assumptions; rerun gpuplan after such an edit, or simplify the formulas it uses"),
                ).with_zh(format!("{name}：展开其引用的实时公式后，Excel 公式会超过 Excel {MAX_FORMULA_CHARS} 个字符的上限，因此工作簿中填入的是规划时的数值（附批注），修改价格或参数后不会随之更新；修改后请重新运行 gpuplan，或简化其引用的公式"))
            })
            .collect()
    }

    fn candidate_var(
        &self,
        v: &str,
        row_cells: &dyn Fn(&str) -> Option<String>,
        value: &dyn Fn(&str) -> Option<f64>,
        depth: usize,
    ) -> Result<String, String> {
        if let Some(c) = row_cells(v) {
            return Ok(c);
        }
        if self.editable_assumptions.contains(v) {
            if let Some(c) = self.assumptions.get(v) {
                return Ok(c.clone());
            }
        }
        if self.is_live(v) && depth < 64 {
            let mut resolve = |x: &str| -> Result<String, String> {
                self.candidate_var(x, row_cells, value, depth + 1)
            };
            return bounded(format!("({})", self.expressions.to_excel(v, &mut resolve)?));
        }
        self.literal(v, value(v))
    }

    fn literal(&self, v: &str, x: Option<f64>) -> Result<String, String> {
        let x = x.ok_or_else(|| format!("no value for {v}"))?;
        Ok(if self.bools.contains(v) {
            if x != 0.0 { "TRUE" } else { "FALSE" }.to_string()
        } else {
            excel_number(x)
        })
    }

    /// A portfolio formula as an Excel formula body: `sums` gives `total_<name>` as a cell
    /// expression where a Plan column holds `<name>`, `cells` the cells of portfolio formulas,
    /// `value` every other value.
    pub fn portfolio(
        &self,
        name: &str,
        sums: &dyn Fn(&str) -> Option<String>,
        cells: &HashMap<String, String>,
        value: &dyn Fn(&str) -> Option<f64>,
    ) -> Result<String, String> {
        let mut resolve = |v: &str| -> Result<String, String> {
            if let Some(c) = cells.get(v) {
                return Ok(c.clone());
            }
            if let Some(total) = v.strip_prefix("total_").and_then(sums) {
                return Ok(total);
            }
            if self.editable_assumptions.contains(v) {
                if let Some(c) = self.assumptions.get(v) {
                    return Ok(c.clone());
                }
            }
            self.literal(v, value(v))
        };
        let r = self.expressions.to_excel(name, &mut resolve);
        self.noting(name, r)
    }
}

/// Live text: the label of the lowest of the cost cells `costs` (a contiguous row range such
/// as `C2:G2`, blanks skipped by MIN), in the order of `labels`; empty when none is priced.
pub fn cheapest_label(costs: &str, labels: &[&str]) -> String {
    let names: Vec<String> = labels.iter().map(|l| excel_text(l)).collect();
    format!(
        "IF(COUNT({costs})=0,\"\",CHOOSE(MATCH(MIN({costs}),{costs},0),{}))",
        names.join(",")
    )
}

/// A string literal of an Excel formula.
pub fn excel_text(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// The Excel text of a cached result.
pub fn result(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "0".to_string()
    }
}

//! The Formulas sheet: rows that replace defaults or add formulas of their own.

use super::table::Record;
use super::xlsx::{Raw, RawSheet};
use super::Reader;
use crate::catalog;
use crate::error::Problem;
use crate::labels::Label;
use crate::model::{FormulaDef, Origin, Scope, PLANNED, TOTAL_LINES};

/// Most formulas a Formulas sheet may hold: each is a column of the Candidates tab, which
/// Excel caps at 16,384 columns, and is evaluated for every candidate.
pub const MAX_FORMULAS: usize = 1_000;

impl Reader {
    /// The sheet's formulas, each row checked; the defaults where the sheet is absent or holds
    /// more formulas than gpuplan takes.
    pub(super) fn formulas(&mut self, raw: Option<RawSheet>) -> Vec<FormulaDef> {
        let defaults = catalog::formulas();
        let Some(raw) = raw else {
            self.defaulted("Formulas", Label::new("default formulas", "默认公式"));
            return defaults;
        };
        let Some(t) = self.table_with(raw, "Formulas", &["name", "expression"]) else {
            return defaults;
        };
        let records = t.records();
        if records.len() > MAX_FORMULAS {
            self.problems.push(Problem::new(
                format!("{}!A{}", t.sheet, MAX_FORMULAS + 2),
                format!(
                    "the sheet holds {} formulas; gpuplan takes at most {MAX_FORMULAS} (each is a column of the Candidates tab, and is evaluated for every workload on every GPU)",
                    records.len()
                ),
            ));
            return defaults;
        }
        records
            .iter()
            .filter_map(|rec| self.formula(rec, &defaults))
            .collect()
    }

    /// One row: its name, expression and scope checked, its origin against the default of the
    /// same name, and its unit and description (the default's where blank); `None` with a
    /// problem recorded.
    fn formula(&mut self, rec: &Record, defaults: &[FormulaDef]) -> Option<FormulaDef> {
        let name = rec.required_text("name", "the formula needs a name", &mut self.problems)?;
        let expression = self.formula_expression(rec, &name)?;
        let scope = self.formula_scope(rec)?;
        self.check_reserved(rec, &name, scope)?;
        let default = defaults.iter().find(|d| d.name == name);
        let origin = match default {
            Some(d)
                if d.expression
                    .split_whitespace()
                    .eq(expression.split_whitespace()) =>
            {
                Origin::Default
            }
            Some(_) => Origin::Replaced,
            None => Origin::User,
        };
        Some(FormulaDef {
            unit: rec
                .text("unit", &mut self.problems)
                .or(default.map(|d| d.unit.clone()))
                .unwrap_or_default(),
            description: rec
                .text("description", &mut self.problems)
                .or(default.map(|d| d.description.clone()))
                .unwrap_or_default(),
            name,
            expression,
            scope,
            origin,
            cell: Some(rec.cell("expression")),
        })
    }

    /// The row's expression, required, without a spreadsheet's leading =; a problem where the
    /// spreadsheet took it for a formula of its own.
    fn formula_expression(&mut self, rec: &Record, name: &str) -> Option<String> {
        // An expression typed with a leading = is taken by the spreadsheet for one of its own
        // formulas: it arrives as an error (#NAME?) or with no saved value.
        if let Some(Raw::Error(_) | Raw::Uncomputed(_)) = rec.raw("expression") {
            self.problems.push(Problem::new(
                rec.at("expression"),
                format!("the expression of {name} was taken by the spreadsheet for one of its own formulas (it begins with =); type it without the =, or begin it with an apostrophe ('=…) so that it stays text"),
            ));
            return None;
        }
        let expression = rec.required_text(
            "expression",
            format!("the formula {name} has no expression"),
            &mut self.problems,
        )?;
        // `=a + b` kept as text: the = is a spreadsheet habit, not part of the expression.
        Some(match expression.strip_prefix('=') {
            Some(rest) if !rest.starts_with('=') => rest.trim().to_string(),
            _ => expression,
        })
    }

    /// The row's scope (candidate when blank), in English or Chinese.
    fn formula_scope(&mut self, rec: &Record) -> Option<Scope> {
        match rec
            .text("scope", &mut self.problems)
            .map(|s| s.to_lowercase())
        {
            None => Some(Scope::Candidate),
            Some(s) if s == "candidate" || s == "候选" => Some(Scope::Candidate),
            Some(s) if s == "portfolio" || s == "汇总" => Some(Scope::Portfolio),
            Some(s) => {
                self.problems.push(Problem::new(
                    rec.at("scope"),
                    format!("scope must be candidate or portfolio, found \"{s}\""),
                ));
                None
            }
        }
    }

    /// A problem (and `None`) where the name is one of a figure the planner computes itself.
    fn check_reserved(&mut self, rec: &Record, name: &str, scope: Scope) -> Option<()> {
        let reserved =
            PLANNED.contains(&name) || (scope == Scope::Portfolio && TOTAL_LINES.contains(&name));
        if reserved {
            self.problems.push(Problem::new(
                rec.at("name"),
                format!(
                    "`{name}` is the name of a figure the planner computes itself ({}); a {} formula of that name would replace its line in the totals. Choose another name",
                    if PLANNED.contains(&name) {
                        "each workload's planned cost, summed as total_<name>"
                    } else {
                        "a total line"
                    },
                    scope.key()
                ),
            ));
            return None;
        }
        Some(())
    }
}

//! The Formulas sheet: rows that replace defaults or add formulas of their own.

use super::xlsx::RawSheet;
use super::Reader;
use crate::catalog;
use crate::error::Problem;
use crate::model::{FormulaDef, Origin, Scope, PLANNED, TOTAL_LINES};

/// Most formulas a Formulas sheet may hold: each is a column of the Candidates tab, which
/// Excel caps at 16,384 columns, and is evaluated for every candidate.
pub const MAX_FORMULAS: usize = 1_000;

impl Reader {
    pub(super) fn formulas(&mut self, raw: Option<RawSheet>) -> Vec<FormulaDef> {
        let defaults = catalog::formulas();
        let Some(raw) = raw else {
            self.defaulted("Formulas", "default formulas");
            return defaults;
        };
        let Some(t) = self.table(raw, "Formulas") else {
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
        let mut out: Vec<FormulaDef> = Vec::new();
        for rec in records {
            let Some(name) =
                rec.required_text("name", "the formula needs a name", &mut self.problems)
            else {
                continue;
            };
            // An expression typed with a leading = is taken by the spreadsheet for one of its own
            // formulas: it arrives as an error (#NAME?) or with no saved value.
            if let Some(super::xlsx::Raw::Error(_) | super::xlsx::Raw::Uncomputed(_)) =
                rec.raw("expression")
            {
                self.problems.push(Problem::new(
                    rec.at("expression"),
                    format!("the expression of {name} was taken by the spreadsheet for one of its own formulas (it begins with =); type it without the =, or begin it with an apostrophe ('=…) so that it stays text"),
                ));
                continue;
            }
            let Some(expression) = rec.required_text(
                "expression",
                format!("the formula {name} has no expression"),
                &mut self.problems,
            ) else {
                continue;
            };
            // `=a + b` kept as text: the = is a spreadsheet habit, not part of the expression.
            let expression = match expression.strip_prefix('=') {
                Some(rest) if !rest.starts_with('=') => rest.trim().to_string(),
                _ => expression,
            };
            let scope = match rec
                .text("scope", &mut self.problems)
                .map(|s| s.to_lowercase())
            {
                None => Scope::Candidate,
                Some(s) if s == "candidate" || s == "候选" => Scope::Candidate,
                Some(s) if s == "portfolio" || s == "汇总" => Scope::Portfolio,
                Some(s) => {
                    self.problems.push(Problem::new(
                        rec.at("scope"),
                        format!("scope must be candidate or portfolio, found \"{s}\""),
                    ));
                    continue;
                }
            };
            let reserved = PLANNED.contains(&name.as_str())
                || (scope == Scope::Portfolio && TOTAL_LINES.contains(&name.as_str()));
            if reserved {
                self.problems.push(Problem::new(
                    rec.at("name"),
                    format!(
                        "`{name}` is the name of a figure the planner computes itself ({}); a {} formula of that name would replace its line in the totals. Choose another name",
                        if PLANNED.contains(&name.as_str()) {
                            "each workload's planned cost, summed as total_<name>"
                        } else {
                            "a total line"
                        },
                        scope.key()
                    ),
                ));
                continue;
            }
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
            out.push(FormulaDef {
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
            });
        }
        out
    }
}

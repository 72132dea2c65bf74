//! The Formulas sheet: rows that replace defaults or add formulas of their own.

use super::xlsx::RawSheet;
use super::Reader;
use crate::catalog;
use crate::error::Problem;
use crate::model::{FormulaDef, Origin, Scope};

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
        let mut out: Vec<FormulaDef> = Vec::new();
        for rec in t.records() {
            let Some(name) =
                rec.required_text("name", "the formula needs a name", &mut self.problems)
            else {
                continue;
            };
            let Some(expression) = rec.required_text(
                "expression",
                format!("the formula {name} has no expression"),
                &mut self.problems,
            ) else {
                continue;
            };
            let scope = match rec.text("scope").map(|s| s.to_lowercase()) {
                None => Scope::Candidate,
                Some(s) if s == "candidate" || s == "候选" => Scope::Candidate,
                Some(s) if s == "portfolio" || s == "汇总" => Scope::Portfolio,
                Some(s) => {
                    self.problems.push(Problem::new(
                        rec.cell("scope").to_string(),
                        format!("scope must be candidate or portfolio, found \"{s}\""),
                    ));
                    continue;
                }
            };
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
                    .text("unit")
                    .or(default.map(|d| d.unit.clone()))
                    .unwrap_or_default(),
                description: rec
                    .text("description")
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

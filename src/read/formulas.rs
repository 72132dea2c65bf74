//! The Formulas sheet: rows that replace defaults or add formulas of their own.

use super::table::Record;
use super::xlsx::{Raw, RawSheet};
use super::Reader;
use crate::catalog;
use crate::error::Problem;
use crate::labels::Label;
use crate::model::{FormulaDef, Origin, Scope, Warning, PLANNED, TOTAL_LINES};

/// Most formulas a Formulas sheet may hold: each is a column of the Candidates tab, which
/// Excel caps at 16,384 columns, and is evaluated for every candidate.
pub const MAX_FORMULAS: usize = 1_000;

/// What one Formulas row becomes.
enum Row {
    /// The row as written: a default, a default replaced, or a formula of the user's own.
    Kept(FormulaDef),
    /// An earlier gpuplan's default expression of a default formula: today's default instead.
    Updated(FormulaDef),
    /// An earlier gpuplan's default of a formula this version no longer has: left out.
    Retired(String),
}

/// The notice for rows an earlier `gpuplan init` wrote: planned with today's defaults, or left
/// out where today has no formula of that name.
fn stale_defaults(
    sheet: &str,
    updated: &[String],
    retired: &[String],
    added: &[String],
) -> Warning {
    type Say = fn(usize, &str) -> String;
    let parts: [(&[String], Say, Say); 3] = [
        (
            updated,
            |n, names| {
                format!("{n} row(s) hold an earlier gpuplan's default expression, not an edit ({names}): planned with this version's defaults")
            },
            |n, names| {
                format!(
                    "{n} 行是旧版 gpuplan 的默认表达式而非修改（{names}）：已按本版默认公式计算"
                )
            },
        ),
        (
            retired,
            |n, names| {
                format!("{n} row(s) are earlier defaults this version no longer has ({names}): left out")
            },
            |n, names| format!("{n} 行是本版已不再使用的旧默认公式（{names}）：已忽略"),
        ),
        (
            added,
            |n, names| format!("this version's {n} new default(s) added ({names})"),
            |n, names| format!("已加入本版新增的 {n} 个默认公式（{names}）"),
        ),
    ];
    let (mut en, mut zh) = (Vec::new(), Vec::new());
    for (names, say_en, say_zh) in parts.into_iter().filter(|(n, ..)| !n.is_empty()) {
        en.push(say_en(names.len(), &names.join(", ")));
        zh.push(say_zh(names.len(), &names.join("、")));
    }
    Warning::info(
        sheet,
        format!(
            "{}; the sheet is not changed (`gpuplan init` writes today's formulas; edit a row to keep an expression of your own)",
            en.join("; ")
        ),
    )
    .with_zh(format!(
        "{}；工作表未改动（`gpuplan init` 会写入本版公式；如需保留自己的表达式，请修改该行）",
        zh.join("；")
    ))
}

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
        let (mut kept, mut updated, mut retired) = (Vec::new(), Vec::new(), Vec::new());
        for rec in &records {
            match self.formula(rec, &defaults) {
                Some(Row::Kept(f)) => kept.push(f),
                Some(Row::Updated(f)) => {
                    updated.push(f.name.clone());
                    kept.push(f);
                }
                Some(Row::Retired(name)) => retired.push(name),
                None => {}
            }
        }
        if !updated.is_empty() || !retired.is_empty() {
            // A template of an earlier version: today's defaults the updated rows may read
            // (step_gpus, decode_read_s, …) were not in it.
            let added: Vec<FormulaDef> = defaults
                .into_iter()
                .filter(|d| !kept.iter().any(|k| k.name == d.name))
                .collect();
            let names: Vec<String> = added.iter().map(|d| d.name.clone()).collect();
            kept.extend(added);
            self.notices
                .push(stale_defaults(&t.sheet, &updated, &retired, &names));
        }
        kept
    }

    /// One row: its name, expression and scope checked, its origin against the default of the
    /// same name, and its unit and description (the default's where blank); an earlier
    /// version's default is today's (`Row::Updated`), or left out where today has none of that
    /// name (`Row::Retired`); `None` with a problem recorded.
    fn formula(&mut self, rec: &Record, defaults: &[FormulaDef]) -> Option<Row> {
        let name = rec.required_text("name", "the formula needs a name", &mut self.problems)?;
        let expression = self.formula_expression(rec, &name)?;
        let scope = self.formula_scope(rec)?;
        self.check_reserved(rec, &name, scope)?;
        let default = defaults.iter().find(|d| d.name == name);
        let earlier = || catalog::earlier_default(&name, &expression);
        let origin = match default {
            Some(d)
                if d.expression
                    .split_whitespace()
                    .eq(expression.split_whitespace()) =>
            {
                Origin::Default
            }
            // A template of an earlier gpuplan wrote that version's default: not the user's.
            Some(d) if earlier() => {
                return Some(Row::Updated(FormulaDef {
                    cell: Some(rec.cell("expression")),
                    ..d.clone()
                }));
            }
            Some(_) => Origin::Replaced,
            None if earlier() => return Some(Row::Retired(name)),
            None => Origin::User,
        };
        Some(Row::Kept(FormulaDef {
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
        }))
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

//! The Scenarios sheet: named sets of changes in the `--set` syntax. Each change is parsed here
//! (so a typo is reported at its cell with the others); the changes are applied when a scenario
//! is planned, by reading the workbook again with them (commands::calc).

use super::xlsx::RawSheet;
use super::{Override, Reader};
use crate::error::Problem;
use crate::model::ScenarioDef;

impl Reader {
    /// The scenarios in sheet order, rows of the same name merged; none without the sheet.
    pub(super) fn scenarios(&mut self, raw: Option<RawSheet>) -> Vec<ScenarioDef> {
        let mut out: Vec<ScenarioDef> = Vec::new();
        let Some(raw) = raw else {
            return out;
        };
        let Some(t) = self.table(raw, "Scenarios") else {
            return out;
        };
        for rec in t.records() {
            let p = &mut self.problems;
            let Some(name) = rec.required_text("scenario", "the row needs a scenario name", p)
            else {
                continue;
            };
            let name = name.trim().to_string();
            let Some(change) = rec.required_text(
                "change",
                "the row needs a change, e.g. chat-api.context_len=8192",
                p,
            ) else {
                continue;
            };
            let at = rec.at("change");
            if let Err(e) = Override::parse(&change) {
                let why = e.to_string();
                let why = why.strip_prefix("--set ").unwrap_or(&why);
                p.push(Problem::new(at.clone(), why.to_string()));
                continue;
            }
            let change = change.trim().to_string();
            match out.iter_mut().find(|s| s.name == name) {
                Some(s) => s.changes.push((change, at)),
                None => out.push(ScenarioDef {
                    name,
                    changes: vec![(change, at)],
                }),
            }
        }
        out
    }
}

//! The Engines sheet: engine profiles, each a set of assumption values for the workloads that
//! name the engine. Its rows replace the built-in figure of the same engine, scope and key, or
//! add engines and figures; the sheet may be absent (the built-in profiles apply).

use super::assumptions::assumption_value;
use super::table::Record;
use super::xlsx::RawSheet;
use super::Reader;
use crate::catalog;
use crate::error::Problem;
use crate::model::{normalize, Applies, Assumptions, EngineValue, Engines, Value};

/// The engine, scope and key of each row read so far, with where it was: a second row setting
/// the same is a problem.
type Seen = Vec<(String, Applies, String, String)>;

impl Reader {
    /// The built-in profiles with the sheet's rows merged in; each value is checked as the
    /// Assumptions sheet checks its key.
    pub(super) fn engines(&mut self, raw: Option<RawSheet>, assumptions: &Assumptions) -> Engines {
        let mut engines = catalog::engines();
        let Some(raw) = raw else {
            return engines;
        };
        let Some(t) = self.table_with(raw, "Engines", &["value"]) else {
            return engines;
        };
        let mut seen: Seen = Vec::new();
        for rec in t.records() {
            let Some(v) = self.engine_row(&rec, &engines, assumptions, &mut seen) else {
                continue;
            };
            match engines
                .values
                .iter_mut()
                .find(|b| b.engine == v.engine && b.applies == v.applies && b.key == v.key)
            {
                Some(b) => *b = v,
                None => engines.values.push(v),
            }
        }
        engines
    }

    /// One row: its engine, scope and key (once each), and the value; `None` with a problem
    /// recorded.
    fn engine_row(
        &mut self,
        rec: &Record,
        engines: &Engines,
        assumptions: &Assumptions,
        seen: &mut Seen,
    ) -> Option<EngineValue> {
        let p = &mut self.problems;
        let engine = rec.required_text("engine", "the row needs an engine name", p)?;
        let engine = engine.trim().to_string();
        let applies_text = rec.text("applies_to", p).unwrap_or_default();
        let Some(applies) = Applies::parse(&applies_text) else {
            p.push(Problem::new(
                rec.at("applies_to"),
                format!("applies_to must be serving, training or any, found \"{applies_text}\""),
            ));
            return None;
        };
        let key = rec.text("key", p).unwrap_or_default().trim().to_string();
        let here = rec.at("engine");
        if let Some((_, _, _, first)) = seen
            .iter()
            .find(|(e, a, k, _)| normalize(e) == normalize(&engine) && *a == applies && *k == key)
        {
            p.push(Problem::new(
                here,
                format!(
                    "{engine} ({}) sets {} twice (first at {first})",
                    applies.key(),
                    if key.is_empty() { "no key" } else { &key }
                ),
            ));
            return None;
        }
        seen.push((engine.clone(), applies, key.clone(), here));
        let value = if key.is_empty() {
            0.0
        } else {
            profile_value(rec, &engine, &key, assumptions, p)?
        };
        // A built-in engine keeps its name's spelling; the sheet's row replaces its figure.
        let name = engines.find(&engine).unwrap_or(&engine).to_string();
        Some(EngineValue {
            engine: name,
            applies,
            key,
            value,
            unit: rec.text("unit", p).unwrap_or_default(),
            version: rec.text("version", p).unwrap_or_default(),
            source: rec.text("source", p).unwrap_or_default(),
            cell: Some(rec.cell("value")),
        })
    }
}

/// The value a row gives its key, which must be one that sizes memory or speed, checked as the
/// Assumptions sheet checks it (yes/no as 1/0); `None` with a problem recorded, or for a text
/// value (skipped).
fn profile_value(
    rec: &Record,
    engine: &str,
    key: &str,
    assumptions: &Assumptions,
    p: &mut Vec<Problem>,
) -> Option<f64> {
    let profile_keys = catalog::profile_keys();
    if !profile_keys.contains(&key) {
        p.push(Problem::new(
            rec.at("key"),
            format!(
                "an engine profile sets an assumption that sizes memory or speed, one of {}; found \"{key}\" (the money assumptions stay one value for the whole plan)",
                profile_keys.join(", ")
            ),
        ));
        return None;
    }
    let Some(raw) = rec.raw("value") else {
        p.push(Problem::new(
            rec.at("value"),
            format!("{engine} sets {key} but gives no value"),
        ));
        return None;
    };
    let default = assumptions.get(key).map(|a| &a.value);
    match assumption_value(key, raw, default) {
        Ok(Value::Number(n)) => Some(n),
        Ok(Value::Bool(b)) => Some(if b { 1.0 } else { 0.0 }),
        Ok(Value::Text(_)) => None,
        Err(msg) => {
            p.push(Problem::new(rec.at("value"), msg));
            None
        }
    }
}

//! A change to the input: a `--set` on the command line, a row of the Scenarios sheet, or a
//! measured figure of `calc --usage`. Each is parsed once, where it is written, into a
//! [`Change`]; the reader applies changes as it types the workbook's sheets (a change is checked
//! as the cell it replaces would be), and [`Input::set_number`](crate::model::Input::set_number)
//! sets a number in an input already read (the Ranges sheet's samples).

use crate::error::{Error, Result};

/// What a change changes.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// An assumption: `key=value`.
    Assumption,
    /// A column of the workload of that name (`*`: every workload): `workload.column=value`.
    Workload(String),
    /// A column of every offer of that GPU (`*`: every offer): `gpu:NAME.column=value`.
    Gpu(String),
}

/// How a change changes its value.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// `=`: the value as a cell would hold it (its column's type reads it); empty clears a
    /// price.
    Set(String),
    /// `*=`: the current value times a factor ≥ 0 (a blank workload cell stays blank: its
    /// default applies).
    Scale(f64),
}

/// One change: what it changes, how, and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// What it changes: an assumption, a workload's column, or a GPU offer's column.
    pub target: Target,
    /// The column the part after the last `.` names (`context_len`), or the assumption's key
    /// (`safety_margin`); trimmed.
    pub key: String,
    /// How it changes the value: set it, or scale it by a factor.
    pub op: Op,
    /// Where it was written, when not on the command line (a Scenarios cell).
    pub origin: Option<String>,
}

impl Change {
    /// Parses `key=value`, `workload.column=value`, `gpu:NAME.column=value`, any of them with
    /// `*` for every workload or GPU and `*=` for a relative change.
    pub fn parse(text: &str) -> Result<Change> {
        let (lhs, value) = text.split_once('=').ok_or_else(|| {
            Error::Usage(format!(
                "--set {text}: expected KEY=VALUE, e.g. --set safety_margin=0.3"
            ))
        })?;
        let lhs = lhs.trim();
        let (lhs, scale) = match lhs.strip_suffix('*') {
            Some(l) => (l.trim_end(), true),
            None => (lhs, false),
        };
        if lhs.is_empty() {
            return Err(Error::Usage(format!("--set {text}: the key is empty")));
        }
        let value = value.trim();
        let op = if scale {
            match value.parse::<f64>() {
                Ok(f) if f.is_finite() && f >= 0.0 => Op::Scale(f),
                _ => return Err(Error::Usage(format!(
                    "--set {text}: a relative change KEY*=FACTOR needs a number ≥ 0 as the factor, e.g. gpu:*.on_demand_hourly*=1.2"
                ))),
            }
        } else {
            Op::Set(value.to_string())
        };
        let (target, key) = parse_key(lhs);
        Ok(Change {
            target,
            key,
            op,
            origin: None,
        })
    }

    /// A change setting `key` of `target` to `value`, made by gpuplan (a measured figure).
    pub fn set(target: Target, key: &str, value: impl ToString) -> Change {
        Change {
            target,
            key: key.to_string(),
            op: Op::Set(value.to_string()),
            origin: None,
        }
    }

    /// The change, remembering the cell it was written in.
    pub fn at(self, origin: impl Into<String>) -> Change {
        Change {
            origin: Some(origin.into()),
            ..self
        }
    }

    /// Whether it multiplies the current value.
    pub fn is_scale(&self) -> bool {
        matches!(self.op, Op::Scale(_))
    }

    /// The change as written: `chat-api.context_len=8192`, `gpu:*.on_demand_hourly*=1.2`.
    pub fn text(&self) -> String {
        format!("{}{}", key_text(&self.target, &self.key), self.op_text())
    }

    /// What follows the key: `=8192`, `*=1.2`.
    pub fn op_text(&self) -> String {
        match &self.op {
            Op::Set(v) => format!("={v}"),
            Op::Scale(f) => format!("*={f}"),
        }
    }

    /// Where a problem with it is reported: its Scenarios cell, or `--set …`.
    pub fn shown(&self) -> String {
        match &self.origin {
            Some(at) => format!("{at} ({})", self.text()),
            None => format!("--set {}", self.text()),
        }
    }
}

/// The target and column a key names (`chat-api.context_len`, `gpu:H100.monthly`,
/// `safety_margin`): the part before the last `.` names a workload, or a GPU after `gpu:`.
pub fn parse_key(key: &str) -> (Target, String) {
    let key = key.trim();
    match key.rsplit_once('.') {
        Some((w, k)) => match w.trim().strip_prefix("gpu:") {
            Some(g) => (Target::Gpu(g.trim().to_string()), k.trim().to_string()),
            None => (Target::Workload(w.trim().to_string()), k.trim().to_string()),
        },
        None => (Target::Assumption, key.to_string()),
    }
}

/// A key as written: `chat-api.context_len`, `gpu:H100.monthly`, `safety_margin`.
pub fn key_text(target: &Target, key: &str) -> String {
    match target {
        Target::Assumption => key.to_string(),
        Target::Workload(w) => format!("{w}.{key}"),
        Target::Gpu(g) => format!("gpu:{g}.{key}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_target_and_op_and_writes_it_back() {
        let c = Change::parse(" chat-api.context_len = 8192 ").unwrap();
        assert_eq!(c.target, Target::Workload("chat-api".to_string()));
        assert_eq!(c.key, "context_len");
        assert_eq!(c.op, Op::Set("8192".to_string()));
        assert_eq!(c.text(), "chat-api.context_len=8192");
        let c = Change::parse("gpu:*.on_demand_hourly*=1.2").unwrap();
        assert_eq!(c.target, Target::Gpu("*".to_string()));
        assert_eq!(c.op, Op::Scale(1.2));
        assert_eq!(c.text(), "gpu:*.on_demand_hourly*=1.2");
        assert_eq!(c.shown(), "--set gpu:*.on_demand_hourly*=1.2");
        let c = Change::parse("safety_margin=0.3")
            .unwrap()
            .at("Scenarios!B3");
        assert_eq!(c.target, Target::Assumption);
        assert_eq!(c.shown(), "Scenarios!B3 (safety_margin=0.3)");
        // A price may be cleared: the value is empty, not missing.
        assert_eq!(
            Change::parse("gpu:H100.spot_hourly=").unwrap().op,
            Op::Set(String::new())
        );
    }

    #[test]
    fn refuses_what_is_not_a_change() {
        for bad in [
            "safety_margin",
            "=3",
            "gpu:*.monthly*=-1",
            "gpu:*.monthly*=x",
        ] {
            assert!(Change::parse(bad).is_err(), "{bad}");
        }
    }
}

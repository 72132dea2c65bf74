//! `--set workload.column=value` (and `*=` to scale): each change written into the Workloads
//! table's cells as if typed there, in a column past the sheet's own where it lacks one, the
//! cells marked so that a problem names the flag.

use crate::catalog;
use crate::error::Problem;
use crate::model::change::{Change, Op, Target};
use crate::read::table::{self, Table};
use crate::read::xlsx::Raw;
use crate::read::Reader;
use crate::support::suggest;
use std::collections::BTreeMap;

impl Reader {
    /// Writes each `--set workload.column=value` into the table's cells, as if the user had
    /// typed it there, and marks the cells so that a problem with one names the flag.
    pub(in crate::read) fn apply_workload_changes(&mut self, t: &mut Table, changes: &[Change]) {
        // The caller returns before this without a name column (and reports it).
        let Some(&name_col) = t.columns.get("name") else {
            return;
        };
        for o in changes {
            let Target::Workload(wname) = &o.target else {
                continue;
            };
            let at = o.shown();
            let Some(key) = self.change_column_key(o, &at) else {
                continue;
            };
            let col = changed_column(t, key);
            let mut found = false;
            let mut written = false;
            for (r, cells) in t.rows.iter_mut().filter(|(_, cells)| {
                wname == "*"
                    || cells.get(&name_col).map(table::raw_text).as_deref() == Some(wname.as_str())
            }) {
                found = true;
                if self.change_cell(o, &at, *r, cells, col) {
                    t.overridden.insert((*r, col), at.clone());
                    written = true;
                }
            }
            if found && !written && o.is_scale() && wname == "*" {
                self.problems.push(Problem::new(
                    at.clone(),
                    format!(
                        "no workload has a number in {} to scale (every row is blank: their defaults apply); give the value instead (*.{}=…)",
                        o.key, o.key
                    ),
                ));
            }
            if !found {
                self.problems.push(Problem::new(
                    at,
                    format!("there is no workload named \"{wname}\""),
                ));
            }
        }
    }

    /// The Workloads column a `--set` changes, or a problem (at `at`) where it names the name
    /// column or no workload column at all.
    fn change_column_key(&mut self, o: &Change, at: &str) -> Option<&'static str> {
        let columns = catalog::columns("Workloads");
        if o.key == "name" {
            self.problems.push(Problem::new(
                at,
                "a workload's name cannot be set: it is how --set finds the workload; rename it in the sheet",
            ));
            return None;
        }
        match catalog::find_column(&columns, &o.key).map(|(_, c)| c) {
            // A relative change scales a number: a yes/no, a name or a month has none.
            Some(c) if o.is_scale() && !c.ty.is_numeric() => {
                self.problems.push(Problem::new(
                    at,
                    format!(
                        "`{}` is not a numeric column: a relative change (*=) scales numbers only; give its value ({}.{}=…)",
                        o.key,
                        match &o.target {
                            Target::Workload(w) => w.as_str(),
                            _ => "*",
                        },
                        o.key
                    ),
                ));
                None
            }
            Some(c) => Some(c.key),
            None => {
                let hint = suggest::hint(&o.key, columns.iter().map(|c| c.key));
                self.problems.push(Problem::new(
                    at,
                    format!("`{}` is not a workload column{hint}", o.key),
                ));
                None
            }
        }
    }

    /// Writes one `--set` into one row's cell: its text, or for a relative change the cell's
    /// number scaled. False where nothing was written: a blank cell keeps its default, and a cell
    /// that is not a number is a problem.
    fn change_cell(
        &mut self,
        o: &Change,
        at: &str,
        row: u32,
        cells: &mut BTreeMap<u32, Raw>,
        col: u32,
    ) -> bool {
        let factor = match &o.op {
            Op::Set(v) => {
                cells.insert(col, Raw::Text(v.clone()));
                return true;
            }
            Op::Scale(f) => *f,
        };
        // A relative change scales a given number. A blank cell's default is worked out later
        // (by the kind, the model, the formulas): there is no number here to scale, and doing
        // nothing would be a silent no-op, so it is refused naming the row.
        // With `*`, a blank row keeps its default (a batch job has no concurrency), so long as
        // some row is scaled (checked by the caller).
        let Some(raw) = cells.get(&col) else {
            if let Target::Workload(w) = &o.target {
                if w != "*" {
                    self.problems.push(Problem::new(
                        at,
                        format!(
                            "{} of row {} is blank (its default applies): a relative change has no number to scale; give the value instead ({w}.{}=…)",
                            o.key,
                            row + 1,
                            o.key
                        ),
                    ));
                }
            }
            return false;
        };
        match table::raw_number(raw) {
            // A percentage stays one: its column decides whether it may be read.
            Some(v) if table::is_percent(raw) => {
                cells.insert(col, Raw::Percent(v * factor));
                true
            }
            Some(v) => {
                cells.insert(col, Raw::Number(v * factor));
                true
            }
            None => {
                self.problems.push(Problem::new(
                    at,
                    format!(
                        "{} of row {} is {}, not a number a relative change can scale",
                        o.key,
                        row + 1,
                        table::found(raw)
                    ),
                ));
                false
            }
        }
    }
}

/// The column a `--set` writes to: the sheet's own, or for a column the sheet lacks one past
/// everything the sheet holds, so that no cell of the user's own columns is touched.
fn changed_column(t: &mut Table, key: &'static str) -> u32 {
    match t.columns.get(key) {
        Some(&c) => c,
        None => {
            let next = t.width;
            t.width += 1;
            t.columns.insert(key, next);
            next
        }
    }
}

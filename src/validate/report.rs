//! The text `gpuplan validate` prints.

use super::{group, summary, Family, Outcome, Role};

/// The report `gpuplan validate` prints: every row, then the worst and median error of memory
/// and speed rows, calibrate and holdout apart.
pub fn report(outcomes: &[Outcome]) -> String {
    let w = outcomes
        .iter()
        .map(|o| o.row.id.chars().count())
        .max()
        .unwrap_or(0)
        .max(3);
    let mut out = format!(
        "{:<w$} {:<15} {:<9} {:>10} {:>10} {:>8}  {}\n",
        "row", "metric", "role", "estimate", "measured", "error", "what was measured"
    );
    for o in outcomes {
        out.push_str(&format!(
            "{:<w$} {:<15} {:<9} {:>10.2} {:>10.2} {:>+7.1}%  {}\n",
            o.row.id,
            o.row.metric.key(),
            o.row.role.key(),
            o.estimate_gib,
            o.row.measured_gib,
            o.error * 100.0,
            o.row.measure
        ));
    }
    out.push_str("\nmemory in GiB, concurrency in requests, speed in tokens/s, latency in s\n");
    let line = |label: String, g: &[Outcome]| {
        let (worst, median) = summary(g);
        format!(
            "{label:<34}: {:>3} rows, median error {:>5.1}%, worst {:>5.1}%\n",
            g.len(),
            median * 100.0,
            worst * 100.0
        )
    };
    for family in Family::ALL {
        for role in [Role::Calibrate, Role::Holdout] {
            let g = group(outcomes, family, role);
            if !g.is_empty() {
                out.push_str(&line(format!("{} {}", family.key(), role.key()), &g));
            }
        }
    }
    // Per engine profile: the rows run with it (no engine: the defaults).
    out.push_str("\nper engine profile\n");
    let mut engines: Vec<&str> = outcomes
        .iter()
        .map(|o| o.row.engine.as_deref().unwrap_or("(defaults)"))
        .collect();
    engines.sort_unstable();
    engines.dedup();
    for e in engines {
        for family in Family::ALL {
            for role in [Role::Calibrate, Role::Holdout] {
                let g: Vec<Outcome> = group(outcomes, family, role)
                    .into_iter()
                    .filter(|o| o.row.engine.as_deref().unwrap_or("(defaults)") == e)
                    .collect();
                if !g.is_empty() {
                    out.push_str(&line(format!("{e} {} {}", family.key(), role.key()), &g));
                }
            }
        }
    }
    let (worst, median) = summary(outcomes);
    out.push_str(&format!(
        "\n{} rows: worst error {:.1}%, median {:.1}%\n",
        outcomes.len(),
        worst * 100.0,
        median * 100.0
    ));
    out
}

//! How many candidates of each workload a run keeps for the Candidates tab, and the note when
//! some were left out: the run's policy, which the planner follows (`plan::Options::keep`) and
//! the writer shows.

use crate::lang::Lang;
use crate::model::Warning;
use crate::plan::Plan;

/// Candidates the Candidates tab keeps per workload by default: every offer of the built-in
/// sheet, and 20,000 rows for 1,000 workloads, quick to open in Excel.
const DEFAULT_KEEP: usize = crate::plan::DEFAULT_KEEP;

/// Rows the Candidates tab holds at most by default: past 5,000 workloads fewer are kept each.
const DEFAULT_ROWS: usize = 100_000;

/// Excel's row limit, less the header.
const EXCEL_ROWS: usize = 1_048_575;

/// How many candidates of each workload the plan keeps for the Candidates tab: `asked` (None:
/// all), or by default the best 20 (fewer past 5,000 workloads); never more than Excel's
/// 1,048,576 rows hold.
pub fn candidates_kept(workloads: usize, asked: Option<Option<usize>>) -> usize {
    let cap = (EXCEL_ROWS / workloads.max(1)).max(1);
    let want = match asked {
        Some(Some(n)) => n,
        Some(None) => usize::MAX,
        None => (DEFAULT_ROWS / workloads.max(1)).clamp(1, DEFAULT_KEEP),
    };
    want.min(cap)
}

/// The note that the Candidates tab shows only the best `plan.kept` of some workloads' candidates,
/// saying whether more can be asked for or Excel's rows are the limit.
pub fn candidates_note(plan: &Plan) -> Option<Warning> {
    if plan.cut == 0 {
        return None;
    }
    let cap = (EXCEL_ROWS / plan.workloads.len().max(1)).max(1);
    Some(Warning::info(
        crate::labels::layout::Tab::Candidates.name(Lang::En),
        format!(
            "the Candidates tab keeps the best {} candidates of each workload ({} workload(s) had more){}",
            plan.kept,
            plan.cut,
            if plan.kept < cap {
                "; use --candidates all to keep every one"
            } else {
                ", as many as Excel's 1,048,576 rows allow"
            }
        ),
    ).with_zh(format!(
        "候选方案页只保留每个负载最好的 {} 个候选方案（{} 个负载的候选方案更多）{}",
        plan.kept,
        plan.cut,
        if plan.kept < cap {
            "；使用 --candidates all 可保留全部"
        } else {
            "，这已是 Excel 的 1,048,576 行所能容纳的上限"
        }
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_candidates_kept_follow_the_default_the_ask_and_excels_rows() {
        // Default: 20 each up to 5,000 workloads, then 100,000 rows shared: 10 each at 10,000.
        assert_eq!(candidates_kept(1_000, None), 20);
        assert_eq!(candidates_kept(10_000, None), 10);
        // Asked: as asked, but 1,048,575 rows ÷ 100,000 workloads = 10 at most.
        assert_eq!(candidates_kept(1_000, Some(Some(50))), 50);
        assert_eq!(candidates_kept(100_000, Some(None)), 10);
        assert_eq!(candidates_kept(3, Some(None)), 349_525);
    }
}

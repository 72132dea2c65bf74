//! The labels a plan workbook is found by: its tabs' names and the headers and row labels that
//! `gpuplan diff` reads back (diff/plan_book.rs). `write/` writes them from here, so a label
//! changed in one place cannot leave the reader looking for the old one.

use crate::lang::Lang;

pub use super::text::Label;

/// The tabs of a plan workbook, in order. Their names in both languages are [`Tab::label`]'s
/// table: the writer names the sheets and the formulas that cite them from it, and the reader of
/// `gpuplan diff` finds them by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    /// Summary (总览): the totals, one row per workload, and the charts; what finance reads first.
    Summary,
    /// Year (全年): twelve months from `plan_start`, each workload's TCO in the months it runs.
    Year,
    /// Scenarios (情景): the main plan beside each scenario; only when the input has scenarios.
    Scenarios,
    /// Sensitivity (敏感性): the Ranges sheet's tornado and P10/P50/P90; only with ranges.
    Sensitivity,
    /// Diff (变化): what changed since an earlier plan; only with `calc --compare`.
    Diff,
    /// Actuals (实际用量): the plan beside measured usage; only with `--usage` or `--bills`.
    Actuals,
    /// Plan (方案): per workload the chosen candidate's sizing, mode, TCO and advice.
    Plan,
    /// Fleet (卡群): cards shared by several workloads, hour by hour; only when cards are shared.
    Fleet,
    /// Memory (显存): per workload the memory breakdown in GiB, with a stacked bar chart.
    Memory,
    /// Billing (计费对比): per workload the monthly cost of each billing mode.
    Billing,
    /// Candidates (候选方案): every (workload, GPU offer) evaluated, its formulas' values, fit.
    Candidates,
    /// TCO (总拥有成本): the cost line items (category, workload, amount) and totals.
    Tco,
    /// Assumptions (参数): the assumption values used and where each came from.
    Assumptions,
    /// Formulas (公式): each formula's name, expression, scope, origin and description.
    Formulas,
    /// Warnings (提示): severity, where and message of every warning.
    Warnings,
}

impl Tab {
    /// Every tab in the workbook's order; a tab whose input is absent (Scenarios, Fleet, …) is
    /// in the list but not written.
    pub const ALL: [Tab; 15] = [
        Tab::Summary,
        Tab::Year,
        Tab::Scenarios,
        Tab::Sensitivity,
        Tab::Diff,
        Tab::Actuals,
        Tab::Plan,
        Tab::Fleet,
        Tab::Memory,
        Tab::Billing,
        Tab::Candidates,
        Tab::Tco,
        Tab::Assumptions,
        Tab::Formulas,
        Tab::Warnings,
    ];

    /// The tab's name in English and Chinese.
    pub const fn label(self) -> Label {
        match self {
            Tab::Summary => Label::new("Summary", "总览"),
            Tab::Year => Label::new("Year", "全年"),
            Tab::Scenarios => Label::new("Scenarios", "情景"),
            Tab::Sensitivity => Label::new("Sensitivity", "敏感性"),
            Tab::Diff => Label::new("Diff", "变化"),
            Tab::Actuals => Label::new("Actuals", "实际用量"),
            Tab::Plan => Label::new("Plan", "方案"),
            Tab::Fleet => Label::new("Fleet", "卡群"),
            Tab::Memory => Label::new("Memory", "显存"),
            Tab::Billing => Label::new("Billing", "计费对比"),
            Tab::Candidates => Label::new("Candidates", "候选方案"),
            Tab::Tco => Label::new("TCO", "总拥有成本"),
            Tab::Assumptions => Label::new("Assumptions", "参数"),
            Tab::Formulas => Label::new("Formulas", "公式"),
            Tab::Warnings => Label::new("Warnings", "提示"),
        }
    }

    /// The tab's sheet name in `lang` (at most 31 characters, as Excel requires).
    pub fn name(self, lang: Lang) -> &'static str {
        self.label().get(lang)
    }
}

/// Plan tab headers.
pub const WORKLOAD: Label = Label::new("Workload", "负载");
/// Plan tab header of the chosen GPU offer's name.
pub const GPU: Label = Label::new("GPU", "GPU");
/// Plan tab header of the GPUs in total (instances × GPUs per replica).
pub const GPUS: Label = Label::new("GPUs", "GPU 数");
/// Plan tab header of the chosen billing mode (on-demand, monthly, spot, reserved or mixed).
pub const BILLING_MODE: Label = Label::new("Billing mode", "计费方式");
/// Plan tab header of the workload's monthly TCO (GPU + storage + egress, in the currency).
pub const MONTHLY_TCO: Label = Label::new("Monthly TCO", "月度总成本");
/// The priced offer's terms the Plan tab records for each workload: the key under
/// `gpus.<offer>.` in `gpuplan diff`'s inputs, and the column's header.
pub const OFFER_TERMS: [(&str, Label); 7] = [
    (
        "price_on_demand",
        Label::new("On-demand price per GPU-hour", "按量单价(每卡每小时)"),
    ),
    (
        "price_monthly",
        Label::new("Monthly price per GPU", "包月单价(每卡)"),
    ),
    (
        "price_spot",
        Label::new("Spot price per GPU-hour", "竞价单价(每卡每小时)"),
    ),
    (
        "price_reserved",
        Label::new("Reserved price per GPU-month", "预留单价(每卡每月)"),
    ),
    (
        "price_purchase",
        Label::new("Purchase price per card", "购置价(每卡)"),
    ),
    (
        "billing_granularity_min",
        Label::new("Billing granularity (min)", "计费粒度(分钟)"),
    ),
    (
        "min_rental_min",
        Label::new("Minimum rental (min)", "最小起租(分钟)"),
    ),
];

/// The offer's term with this key (a key the table lacks fails the build where it is const).
pub const fn offer_term(key: &str) -> Label {
    let mut i = 0;
    while i < OFFER_TERMS.len() {
        if crate::plan::same_name(OFFER_TERMS[i].0, key) {
            return OFFER_TERMS[i].1;
        }
        i += 1;
    }
    panic!("no such offer term")
}

/// What a workload the plan could not place shows instead of a GPU.
pub const UNPLANNED: Label = Label::new("unplanned", "未规划");

/// TCO tab row labels (column A).
pub const TOTAL: Label = Label::new("Total", "合计");
/// TCO tab row label (column A) of the total with `safety_margin` added on top.
pub const TOTAL_WITH_MARGIN: Label = Label::new("Total with safety margin", "含安全边际总计");

/// Summary tab row labels (column A).
pub const INPUT_SHA256: Label = Label::new("Input SHA-256", "输入文件 SHA-256");
/// Summary tab row label (column A) of the Assumptions `currency` the money is in.
pub const CURRENCY: Label = Label::new("Currency", "货币");
/// The name of the assumptions the printed Assumptions page shows (the money inputs) and of the
/// plan's own settings, in both languages: the key, which stays English (formulas read it), and
/// the Chinese name the Chinese workbook prints before the note.
pub fn assumption_name(key: &str) -> Option<Label> {
    Some(match key {
        "hours_in_month" => Label::new("hours_in_month", "每月小时数"),
        "cold_start_min" => Label::new("cold_start_min", "冷启动时长"),
        "spot_rework" => Label::new("spot_rework", "竞价重跑比例"),
        "storage_price_gb_month" => Label::new("storage_price_gb_month", "存储单价"),
        "egress_price_gb" => Label::new("egress_price_gb", "出口流量单价"),
        "ops_hours_month" => Label::new("ops_hours_month", "每月运维工时"),
        "ops_hourly_rate" => Label::new("ops_hourly_rate", "运维时薪"),
        "trial_reserve" => Label::new("trial_reserve", "试错预留比例"),
        "safety_margin" => Label::new("safety_margin", "安全边际"),
        "vat_rate" => Label::new("vat_rate", "税率"),
        "prices_include_vat" => Label::new("prices_include_vat", "价格含税"),
        "currency" => Label::new("currency", "货币"),
        "plan_start" => Label::new("plan_start", "起始月份"),
        "budget_monthly" => Label::new("budget_monthly", "月度预算上限"),
        "budget_month" => Label::new("budget_month", "预算月份"),
        "cut_order" => Label::new("cut_order", "降级顺序"),
        "fleet" => Label::new("fleet", "卡群规划"),
        "redundancy_online" => Label::new("redundancy_online", "在线服务冗余"),
        "redundancy_offline" => Label::new("redundancy_offline", "离线任务冗余"),
        "monthly_min_utilization" => Label::new("monthly_min_utilization", "包月最低利用率"),
        "requester" => Label::new("requester", "申请人"),
        "cost_centre" => Label::new("cost_centre", "成本中心"),
        "budget_period" => Label::new("budget_period", "预算期间"),
        "approver" => Label::new("approver", "审批人"),
        _ => return None,
    })
}

/// The approval fields (Assumptions text, templates/assumptions.tsv unit `text`): key and the
/// label the Summary prints them under, in order; a blank one is left out.
pub const APPROVAL_FIELDS: [(&str, Label); 4] = [
    ("requester", Label::new("Requested by", "申请人")),
    ("cost_centre", Label::new("Cost centre", "成本中心")),
    ("budget_period", Label::new("Budget period", "预算期间")),
    ("approver", Label::new("Approver", "审批人")),
];

/// The Summary's line under the budget where the fleet shares cards: `gpuplan diff` reads it.
pub const BUDGET_WITH_FLEET: Label = Label::new("Budget with the fleet", "卡群方案预算");

/// The Plan tab's section of cuts: its header's saving column (after the Workload column) and
/// the line under the cuts when they leave the plan over the ceiling; `gpuplan diff` finds the
/// section and whether the cuts meet the ceiling by them.
pub const CUT_SAVING: Label = Label::new("Saving (alone)", "节省（单独）");
/// The Plan tab's line under the cuts when all of them still leave the plan over the budget.
pub const CUTS_UNMET: Label = Label::new(
    "Every cut found still leaves the plan over the budget.",
    "所有降级方案实施后仍超出预算。",
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Each tab's name is one Excel accepts (at most 31 characters, none of `[]:*?/\`, no
    /// apostrophe at either end), and no two tabs share one in either language: the reader of
    /// `gpuplan diff` tells them apart by name.
    #[test]
    fn tab_names_are_distinct_excel_names_in_both_languages() {
        for lang in [Lang::En, Lang::Zh] {
            let names: Vec<&str> = Tab::ALL.iter().map(|t| t.name(lang)).collect();
            for (i, n) in names.iter().enumerate() {
                assert!(!n.is_empty() && n.chars().count() <= 31, "{n}");
                assert!(!n.contains(['[', ']', ':', '*', '?', '/', '\\']), "{n}");
                assert!(!n.starts_with('\'') && !n.ends_with('\''), "{n}");
                assert!(!names[..i].contains(n), "{n} twice");
            }
        }
        assert_eq!(Tab::Tco.name(Lang::En), "TCO");
        assert_eq!(Tab::Summary.name(Lang::Zh), "总览");
    }
}

//! The labels a plan workbook is found by: its tabs' names and the headers and row labels that
//! `gpuplan diff` reads back (read/plan_book.rs). `write/` writes them from here, so a label
//! changed in one place cannot leave the reader looking for the old one.

use crate::lang::Lang;

/// A label in English and in Chinese.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    pub en: &'static str,
    pub zh: &'static str,
}

impl Label {
    pub const fn new(en: &'static str, zh: &'static str) -> Label {
        Label { en, zh }
    }

    pub fn get(self, lang: Lang) -> &'static str {
        lang.t(self.en, self.zh)
    }

    /// Whether `text` is this label in either language.
    pub fn is(self, text: &str) -> bool {
        text == self.en || text == self.zh
    }
}

pub const PLAN_TAB: Label = Label::new("Plan", "方案");
pub const TCO_TAB: Label = Label::new("TCO", "总拥有成本");
pub const ASSUMPTIONS_TAB: Label = Label::new("Assumptions", "参数");
pub const SUMMARY_TAB: Label = Label::new("Summary", "总览");

/// Plan tab headers.
pub const WORKLOAD: Label = Label::new("Workload", "负载");
pub const GPU: Label = Label::new("GPU", "GPU");
pub const GPUS: Label = Label::new("GPUs", "GPU 数");
pub const BILLING_MODE: Label = Label::new("Billing mode", "计费方式");
pub const MONTHLY_TCO: Label = Label::new("Monthly TCO", "月度总成本");
/// The priced offer's terms the Plan tab records for each workload: the key under
/// `gpus.<offer>.` in `gpuplan diff`'s inputs, and the column's header.
pub const OFFER_TERMS: [(&str, Label); 6] = [
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
pub const TOTAL_WITH_MARGIN: Label = Label::new("Total with safety margin", "含安全边际总计");

/// Summary tab row labels (column A).
pub const INPUT_SHA256: Label = Label::new("Input SHA-256", "输入文件 SHA-256");
pub const CURRENCY: Label = Label::new("Currency", "货币");

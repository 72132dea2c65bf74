//! The Summary's approval block (#34 item 1): what finance approves, first on page 1 — the annual
//! and monthly budget, committed against pay-as-you-go spend, the contingency in its parts, and
//! where the run has them the scenarios, P10/P90, the fleet's budget, the budget ceiling and its
//! cuts, the change since the compared plan and the month at the measured use; a flag when the
//! prices are the built-in examples.

use super::live::{absolute, Live};
use super::plan_tab::{self, live_cell};
use super::tco::Layout;
use super::year::committed_formula;
use super::{Category, Ctx, Tab};
use crate::labels::{Label, Said};
use crate::plan::{Mode, Need, NeedSum};
use crate::write::style::{number, text};
use rust_xlsxwriter::{Worksheet, XlsxError};

/// The label's column, the amount's and the note's (which runs on over the empty cells right of
/// it).
const LABEL: u16 = 0;
const AMOUNT: u16 = 1;
const NOTE: u16 = 2;

/// The approval fields, each as its label and text.
type Fields = Vec<(&'static str, String)>;

/// Writes the block from `row` down: a title, then a line each. Returns the last row written.
pub fn write(
    ws: &mut Worksheet,
    cx: &Ctx,
    layout: &Layout,
    live: &Live,
    row: u32,
) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let (mut row, fields) = write_header(ws, cx, row)?;
    row = write_budget_lines(ws, cx, layout, live, row)?;
    for line in month_parts(cx, layout) {
        row += 1;
        line.write(ws, cx, row, (&s.text, &s.money))?;
    }
    let with_margin = layout.amount(cx.sheet(Tab::Tco), layout.with_margin);
    row = write_tax(ws, cx, live, row, &with_margin)?;
    row = write_ownership(ws, cx, row)?;
    row = write_spares(ws, cx, row + 1)?;
    if let Some(r) = write_replan(ws, cx, row + 1)? {
        row = r;
    }
    if let Some(r) = write_example_prices(ws, cx, row + 1)? {
        row = r;
    }
    row = write_risks(ws, cx, row)?;
    row = write_fixed_lines(ws, cx, row)?;
    if !fields.is_empty() {
        row = write_sign_off(ws, cx, row + 1)?;
    }
    Ok(row)
}

/// The header block at `row`: the title, then the approval fields the Assumptions give, a line
/// each. Returns the last row written and the fields.
fn write_header(ws: &mut Worksheet, cx: &Ctx, mut row: u32) -> Result<(u32, Fields), XlsxError> {
    let s = &cx.s;
    text(ws, row, LABEL, cx.t("To approve", "审批要点"), &s.subtitle)?;
    let fields = approval_fields(cx);
    for (label, value) in &fields {
        row += 1;
        text(ws, row, LABEL, label, &s.bold)?;
        text(ws, row, AMOUNT, value, &s.text)?;
    }
    Ok((row, fields))
}

/// The budget lines after `row`: the annual budget (the Year tab's) and the monthly budget,
/// each with its safety margin. Returns the last row written.
fn write_budget_lines(
    ws: &mut Worksheet,
    cx: &Ctx,
    layout: &Layout,
    live: &Live,
    mut row: u32,
) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let (annual, annual_v) = super::year::annual_budget(cx, live);
    row += 1;
    let line = Line {
        label: cx.t("Annual budget", "年度预算"),
        note: cx.t(
            "12 months with safety margin (the Year tab)",
            "12 个月，含安全边际（全年页）",
        ),
        formula: annual,
        value: annual_v,
    };
    line.write(ws, cx, row, (&s.total_label, &s.money_total))?;
    ws.set_row_height(row, 22)?;

    row += 1;
    let line = Line {
        label: cx.t("Monthly budget", "月度预算"),
        note: cx.t("with safety margin; in parts:", "含安全边际，构成如下："),
        formula: layout.amount(cx.sheet(Tab::Tco), layout.with_margin),
        value: cx.plan.sum(NeedSum::TOTAL_WITH_MARGIN),
    };
    line.write(ws, cx, row, (&s.bold, &s.money_bold))?;
    Ok(row)
}

/// The month in parts that add up to it: committed and pay-as-you-go GPUs, the other costs,
/// the contingency.
fn month_parts(cx: &Ctx, layout: &Layout) -> [Line<'static>; 5] {
    let plan = cx.plan;
    let tco = cx.sheet(Tab::Tco);
    let amount = |r: u32| layout.amount(tco, r);
    let monthly = plan.sum(NeedSum::TOTAL_WITH_MARGIN);
    let (committed, payg) = plan.gpus_split();
    let gpu_sum = plan_tab::range_of(cx, plan_tab::GPU_COST).map(|r| format!("SUM({r})"));
    let committed_f = committed_formula(cx, None);
    let payg_f = match &gpu_sum {
        Some(sum) => format!("{sum}-({committed_f})"),
        None => "0".to_string(),
    };
    let others = [Category::Storage, Category::Egress, Category::Ops];
    let others_f = others
        .iter()
        .map(|c| category_formula(cx, layout, *c))
        .collect::<Vec<_>>()
        .join("+");
    let reserve = Category::TrialReserve;
    let contingency = cx.t("contingency", "预留");
    [
        Line {
            label: cx.t("  Committed GPUs", "  承诺性 GPU 费用"),
            note: cx.t(
                "monthly, reserved, owned cards and base + burst's base: paid whatever the use",
                "包月、预留、自购卡及包月+弹性的保底部分：无论用量均需支付",
            ),
            formula: committed_f,
            value: committed,
        },
        Line {
            label: cx.t("  Pay-as-you-go GPUs", "  按用量 GPU 费用"),
            note: cx.t(
                "on-demand, spot, base + burst's burst: follow the hours",
                "按量、竞价及包月+弹性的弹性部分：随用量变化",
            ),
            formula: payg_f,
            value: payg,
        },
        Line {
            label: cx.t("  Storage, egress and ops", "  存储、流量与运维"),
            note: "",
            formula: others_f,
            value: others.iter().map(|c| c.total(plan)).sum(),
        },
        Line {
            label: cx.t("  Trial-and-error reserve", "  试错预留"),
            note: contingency,
            formula: category_formula(cx, layout, reserve),
            value: reserve.total(plan),
        },
        Line {
            label: cx.t("  Safety margin", "  安全边际"),
            note: contingency,
            formula: amount(layout.margin),
            value: monthly - plan.sum(NeedSum::TOTAL),
        },
    ]
}

/// The tax lines after `row` where the Assumptions give a `vat_rate` (Plan::tax): the tax and
/// what is paid with it, or, where the prices include it, the tax the budget holds and the
/// budget before tax; live over the budget (`budget`) and the rate's cell. Returns the last
/// row written.
fn write_tax(
    ws: &mut Worksheet,
    cx: &Ctx,
    live: &Live,
    mut row: u32,
    budget: &str,
) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let rate = plan.input.assumptions.number("vat_rate", 0.0);
    if rate <= 0.0 {
        return Ok(row);
    }
    let (tax, paid, included) = plan.tax();
    let r = live
        .assumption_cell("vat_rate")
        .map_or_else(|| super::live::result(rate), str::to_string);
    let pct = crate::model::format_number((rate * 100.0 * 100.0).round() / 100.0);
    let (lines, formulas, values) = if included {
        (
            [
                Said::new(
                    format!("  Of which tax (VAT {pct}%, in the prices)"),
                    format!("  其中税额（增值税 {pct}%，价格已含）"),
                ),
                Label::new("Budget before tax", "不含税预算").into(),
            ],
            [
                format!("ROUND({budget}-{budget}/(1+{r}),2)"),
                format!("ROUND({budget}/(1+{r}),2)"),
            ],
            [tax, crate::formula::cents(paid - tax)],
        )
    } else {
        (
            [
                Said::new(
                    format!("  Tax (VAT {pct}%)"),
                    format!("  税额（增值税 {pct}%）"),
                ),
                Label::new("Paid with tax", "含税支付额").into(),
            ],
            [
                format!("ROUND({budget}*{r},2)"),
                format!("{budget}+ROUND({budget}*{r},2)"),
            ],
            [tax, paid],
        )
    };
    for (i, (label, (f, v))) in lines.iter().zip(formulas.iter().zip(values)).enumerate() {
        row += 1;
        let label = label.get(cx.lang);
        let (lf, af) = if i == 1 {
            (&s.bold, &s.money_bold)
        } else {
            (&s.text, &s.money)
        };
        text(ws, row, LABEL, label, lf)?;
        live_cell(ws, row, AMOUNT, Ok(f.clone()), v, af, cx)?;
    }
    Ok(row)
}

/// The top three risks in money after `row` (plan::risks: a guessed model, example prices,
/// spot capacity, the budget ceiling), each with its amount at stake and what it is. Returns
/// the last row written.
fn write_risks(ws: &mut Worksheet, cx: &Ctx, mut row: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    for (i, r) in crate::plan::risks::risks(cx.plan)
        .iter()
        .take(3)
        .enumerate()
    {
        row += 1;
        let label = Said::new(
            format!("Risk {} (at stake)", i + 1),
            format!("风险 {}（涉及金额）", i + 1),
        );
        text(ws, row, LABEL, label.get(cx.lang), &s.text)?;
        number(ws, row, AMOUNT, r.amount, &s.money)?;
        let note = cx.s.muted.clone().set_indent(1);
        text(ws, row, NOTE, r.said().get(cx.lang), &note)?;
    }
    Ok(row)
}

/// The approval fields the Assumptions give (requester, cost centre, budget period, approver),
/// each as its label and text; a blank one is left out.
fn approval_fields(cx: &Ctx) -> Fields {
    let a = &cx.plan.input.assumptions;
    crate::labels::layout::APPROVAL_FIELDS
        .iter()
        .filter(|(key, _)| !a.text(key).is_empty())
        .map(|(key, label)| (label.get(cx.lang), a.text(key).to_string()))
        .collect()
}

/// The sign-off lines from `row`: the requester's and the approver's, each with the name the
/// Assumptions give (blank to fill in by hand), a signature and a date. Returns the last row.
fn write_sign_off(ws: &mut Worksheet, cx: &Ctx, row: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let name = |key: &str| cx.plan.input.assumptions.text(key).to_string();
    let blank = "________________";
    let lines = [
        (cx.t("Requested (sign)", "申请人签字"), name("requester")),
        (cx.t("Approved (sign)", "审批人签字"), name("approver")),
    ];
    let mut r = row;
    for (label, who) in lines {
        r += 1;
        text(ws, r, LABEL, label, &s.bold)?;
        let who = if who.is_empty() {
            blank.to_string()
        } else {
            who
        };
        // One string from the amount's column, running on over the empty cells right of it,
        // so that a long name does not hide under the signature.
        let line = Said::new(
            format!("{who}    Signature {blank}    Date {blank}"),
            format!("{who}    签字 {blank}    日期 {blank}"),
        );
        text(ws, r, AMOUNT, line.get(cx.lang), &s.text)?;
        ws.set_row_height(r, 24)?;
    }
    Ok(r)
}

/// A line of the block: its label, live amount (formula and cached value) and muted note.
struct Line<'a> {
    label: &'a str,
    note: &'a str,
    formula: String,
    value: f64,
}

/// The owned cards, where any workload is planned on them (#47): the purchase spent up front,
/// a month of ownership (already in the committed GPUs above), and the months the rent it
/// saves take to repay the purchase. The capital and the month are live over the Plan tab's
/// owned rows; the months are as planned.
fn write_ownership(ws: &mut Worksheet, cx: &Ctx, mut row: u32) -> Result<u32, XlsxError> {
    let Some(o) = cx.plan.ownership() else {
        return Ok(row);
    };
    let s = &cx.s;
    let owned = super::live::excel_text(Mode::Owned.label(cx.lang));
    let (capital_f, monthly_f) = match (
        plan_tab::range_of(cx, plan_tab::MODE),
        plan_tab::range_of(cx, plan_tab::GPUS_TOTAL),
        plan_tab::range_of(cx, plan_tab::PRICE_PURCHASE),
        plan_tab::range_of(cx, plan_tab::GPU_COST),
    ) {
        (Some(modes), Some(gpus), Some(prices), Some(costs)) => (
            format!("SUMPRODUCT(({modes}={owned})*{gpus}*{prices})"),
            format!("SUMIF({modes},{owned},{costs})"),
        ),
        _ => (o.capital.to_string(), o.monthly.to_string()),
    };
    let lines = [
        Line {
            label: cx.t("Owned cards: capital up front", "自购卡：一次性资本支出"),
            note: cx.t(
                "the purchase, not in the monthly budget",
                "购置款，不计入月度预算",
            ),
            formula: capital_f,
            value: o.capital,
        },
        Line {
            label: cx.t("  A month of ownership", "  每月自有成本"),
            note: cx.t(
                "depreciation, power and hosting; in the committed GPUs",
                "折旧、电费与托管；已含在承诺性 GPU 费用中",
            ),
            formula: monthly_f,
            value: o.monthly,
        },
    ];
    for line in lines {
        row += 1;
        line.write(ws, cx, row, (&s.text, &s.money))?;
    }
    row += 1;
    text(
        ws,
        row,
        LABEL,
        cx.t("  Paid back against renting in", "  相对租用的回本期"),
        &s.text,
    )?;
    let note = cx.t(
        "months: the purchase over the rent saved a month less power and hosting (as planned)",
        "个月：购置款 ÷（每月节省的租金 − 电费与托管）（规划时数值）",
    );
    match o.months_to_break_even {
        Some(m) => {
            number(ws, row, AMOUNT, (m * 10.0).round() / 10.0, &s.general)?;
        }
        None => {
            text(ws, row, AMOUNT, cx.t("never", "无法回本"), &s.bad)?;
        }
    }
    let muted = s.muted.clone().set_indent(1);
    text(ws, row, NOTE, note, &muted)?;
    Ok(row)
}

impl Line<'_> {
    /// Writes the line at `row` in `formats` (the label's, the amount's).
    fn write(
        self,
        ws: &mut Worksheet,
        cx: &Ctx,
        row: u32,
        formats: (&rust_xlsxwriter::Format, &rust_xlsxwriter::Format),
    ) -> Result<(), XlsxError> {
        text(ws, row, LABEL, self.label, formats.0)?;
        live_cell(ws, row, AMOUNT, Ok(self.formula), self.value, formats.1, cx)?;
        if !self.note.is_empty() {
            // Indented one step: the note does not touch the amount's box.
            let note = cx.s.muted.clone().set_indent(1);
            text(ws, row, NOTE, self.note, &note)?;
        }
        Ok(())
    }
}

/// A cost category's live amount: a sum over the Plan tab's rows, or the TCO tab's line.
pub(super) fn category_formula(cx: &Ctx, layout: &Layout, c: Category) -> String {
    let sum =
        |col: u16| plan_tab::range_of(cx, col).map_or("0".to_string(), |r| format!("SUM({r})"));
    c.plan_formula(sum).unwrap_or_else(|| {
        let r = layout
            .portfolio
            .iter()
            .find(|(n, _)| Some(n.as_str()) == c.portfolio_name().map(NeedSum::name))
            .map_or(layout.total, |(_, r)| *r);
        layout.amount(cx.sheet(Tab::Tco), r)
    })
}

/// Of the GPU cost, the spare instances redundancy adds (instances beyond the replicas the
/// work needs), with the services of one replica it doubles named (#34 item 9). Live over the
/// Plan tab's GPU cost of each such row. Returns the row written.
fn write_spares(ws: &mut Worksheet, cx: &Ctx, row: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let sheet = cx.sheet(Tab::Plan);
    let mut value = 0.0;
    let mut terms = Vec::new();
    let mut doubled = Vec::new();
    for w in 0..plan.workloads.len() {
        let Some((c, ch)) = cx.chosen(w) else {
            continue;
        };
        let replicas = plan.need(c, Need::REPLICAS);
        let offer = &plan.input.gpus[c.offer];
        let Some(share) = crate::plan::spares_share(ch.mode, |n| plan.value(c, n), offer) else {
            continue;
        };
        value += ch.gpu_cost * share;
        let at = |col| absolute(sheet, plan_tab::row(w), col);
        // Base plus burst: its spare monthly cards and burst card-hours at the Plan tab's
        // prices; every other mode: its share of the GPU cost, which no price moves.
        let mixed = (ch.mode == Mode::Mixed)
            .then(|| crate::plan::mixed_spares(|n| plan.value(c, n)))
            .flatten()
            .filter(|_| offer.monthly.is_some() && offer.on_demand_hourly.is_some());
        terms.push(match mixed {
            Some((cards, card_hours)) => [
                (cards, plan_tab::PRICE_MONTHLY),
                (card_hours, plan_tab::PRICE_ON_DEMAND),
            ]
            .iter()
            .filter(|(k, _)| *k > 0.0)
            .map(|(k, col)| format!("{k}*{}", at(*col)))
            .collect::<Vec<_>>()
            .join("+"),
            // Every digit: a rounded factor would not recompute to the cached value.
            None => format!("{}*{share}", at(plan_tab::GPU_COST)),
        });
        if terms.last().is_some_and(String::is_empty) {
            terms.pop();
        }
        if replicas == 1.0 {
            doubled.push(plan.input.workloads[w].name.as_str());
        }
    }
    text(
        ws,
        row,
        LABEL,
        cx.t("  Of the GPUs: spares", "  其中 GPU：冗余实例"),
        &s.text,
    )?;
    // A formula of thousands of terms would pass Excel's 8,192 characters: the value then.
    let formula = if terms.is_empty() {
        "0".to_string()
    } else {
        terms.join("+")
    };
    if formula.len() < 8_000 {
        live_cell(ws, row, AMOUNT, Ok(formula), value, &s.money, cx)?;
    } else {
        number(ws, row, AMOUNT, value, &s.money)?;
    }
    if !doubled.is_empty() {
        let note = Said::new(
            format!(
                "{}: 1 replica doubled by redundancy (Warnings)",
                doubled.join(", ")
            ),
            format!("{}：单副本因冗余翻倍（见提示页）", doubled.join("、")),
        );
        text(ws, row, NOTE, note.get(cx.lang), &s.bad)?;
    }
    Ok(row)
}

/// How many planned workloads have a cheaper mode now than the one planned: the Plan tab's
/// Billing mode against its live Cheapest mode now, which an edited or newly typed price moves.
/// The budget above keeps the planned modes until gpuplan re-plans, so a count above 0 says to
/// rerun it (#34: a quote typed into a blank price did not move the total, silently). Its cached
/// value compares the same two labels as written. Returns the row written, if any (none without
/// workloads).
fn write_replan(ws: &mut Worksheet, cx: &Ctx, row: u32) -> Result<Option<u32>, XlsxError> {
    let (Some(modes), Some(now)) = (
        plan_tab::range_of(cx, plan_tab::MODE),
        plan_tab::range_of(cx, plan_tab::CHEAPEST_NOW),
    ) else {
        return Ok(None);
    };
    let value = (0..cx.plan.workloads.len())
        .filter_map(|w| cx.chosen(w))
        .filter(|(c, ch)| plan_tab::cheapest_now(c, cx.lang) != ch.mode.label(cx.lang))
        .count();
    let line = Line {
        label: cx.t("Modes to re-plan", "需重新规划的计费方式"),
        note: cx.t(
            "cheapest mode now ≠ planned (Plan tab): rerun gpuplan",
            "当前最便宜方式与规划不同（方案页）：请重新运行 gpuplan",
        ),
        formula: format!("SUMPRODUCT(({modes}<>\"\")*({modes}<>{now}))"),
        value: value as f64,
    };
    line.write(ws, cx, row, (&cx.s.text, &cx.s.integer))?;
    Ok(Some(row))
}

/// A line saying the prices are the built-in examples, when a chosen offer's are. Returns the
/// row written, if any.
fn write_example_prices(ws: &mut Worksheet, cx: &Ctx, row: u32) -> Result<Option<u32>, XlsxError> {
    let plan = cx.plan;
    let examples = (0..plan.workloads.len())
        .filter_map(|w| cx.chosen(w))
        .any(|(c, _)| plan.input.gpus[c.offer].is_example());
    if !examples {
        return Ok(None);
    }
    text(ws, row, LABEL, cx.t("Prices", "价格"), &cx.s.bad)?;
    text(
        ws,
        row,
        AMOUNT,
        cx.t(
            "EXAMPLES, not quotes: put your quotes in the GPUs sheet first",
            "示例价格，非报价：审批前请在算力报价表填入报价",
        ),
        &cx.s.bad,
    )?;
    Ok(Some(row))
}

/// The figures computed once, each stamped as such: the scenarios' budgets, the P10/P90, the
/// change since the compared plan and the month at the measured use. Returns the last row.
fn write_fixed_lines(ws: &mut Worksheet, cx: &Ctx, mut row: u32) -> Result<u32, XlsxError> {
    let s = &cx.s;
    let plan = cx.plan;
    let currency = plan.input.assumptions.currency();
    let money = |v: f64| crate::model::money(&currency, v);
    let mut lines = Vec::new();
    lines.extend(scenarios_line(cx, &money));
    lines.extend(percentiles_line(cx, &money));
    lines.extend(compared_lines(cx, &money));
    lines.extend(fleet_line(cx, &money));
    lines.extend(ceiling_line(cx, &money));
    lines.extend(measured_line(cx, &money));
    for (label, value) in lines {
        row += 1;
        text(ws, row, LABEL, label.get(cx.lang), &s.text)?;
        text(ws, row, AMOUNT, value.get(cx.lang), &s.text)?;
    }
    Ok(row)
}

/// A figure stamped as computed once (each but the change's parts).
fn fixed(mut value: Said) -> Said {
    value.push(&Label::new(" — fixed at calculation", "（计算时固定）"));
    value
}

/// The scenarios' line: the lowest and the highest monthly budget, each with its scenario.
fn scenarios_line(cx: &Ctx, money: &impl Fn(f64) -> String) -> Option<(Label, Said)> {
    let budget = |p: &crate::plan::Plan| p.sum(NeedSum::TOTAL_WITH_MARGIN);
    if cx.calc.scenarios.is_empty() {
        return None;
    }
    let low = cx
        .calc
        .scenarios
        .iter()
        .min_by(|a, b| budget(&a.plan).total_cmp(&budget(&b.plan)));
    let high = cx
        .calc
        .scenarios
        .iter()
        .max_by(|a, b| budget(&a.plan).total_cmp(&budget(&b.plan)));
    let (lo, hi) = low.zip(high)?;
    let range = format!(
        "{} ({}) – {} ({})",
        money(budget(&lo.plan)),
        lo.name,
        money(budget(&hi.plan)),
        hi.name
    );
    Some((
        Label::new("Scenarios, monthly", "情景，月度"),
        fixed(Said::new(&range, range.clone())),
    ))
}

/// The P10 – P90 line; none when no draw was made (`--samples 0`): nothing to say then.
fn percentiles_line(cx: &Ctx, money: &impl Fn(f64) -> String) -> Option<(Label, Said)> {
    let Some((Some(p10), Some(p90))) = cx.calc.sensitivity.as_ref().map(|s| (s.p10, s.p90)) else {
        return None;
    };
    let range = format!("{} – {}", money(p10), money(p90));
    Some((
        Label::new("P10 – P90, monthly", "P10 – P90，月度"),
        fixed(Said::new(&range, range.clone())),
    ))
}

/// The change since the compared plan (with the fleet's where a fleet saving moves it), then
/// its parts on one line; none without a compared plan's total.
fn compared_lines(cx: &Ctx, money: &impl Fn(f64) -> String) -> Vec<(Label, Said)> {
    let mut lines = Vec::new();
    let Some((file, diff)) = &cx.calc.compared else {
        return lines;
    };
    let Some(change) = diff.total_with_margin_change else {
        return lines;
    };
    let sign = |v: f64| if v > 0.0 { "+" } else { "" };
    // A fleet saving gained or lost moves the budget with the fleet, not the total.
    let fleet = diff
        .budget_with_fleet_change
        .filter(|f| (f - change).abs() >= 0.005);
    let with_fleet = fleet.map_or_else(Said::default, |f| {
        Said::new(
            format!(", with the fleet {}{}", sign(f), money(f)),
            format!("，卡群方案 {}{}", sign(f), money(f)),
        )
    });
    lines.push((
        Label::new("Since the compared plan", "相对对比方案"),
        fixed(Said::new(
            format!(
                "{}{} a month{} ({file})",
                sign(change),
                money(change),
                with_fleet.en
            ),
            format!(
                "每月 {}{}{}（{file}）",
                sign(change),
                money(change),
                with_fleet.zh
            ),
        )),
    ));
    // The change in parts that add up to it (gpuplan diff's bridge), on one line.
    if let Some(b) = diff.bridge() {
        let part = |v: f64| format!("{}{}", sign(v), money(v));
        lines.push((
            Label::new("  In parts", "  构成"),
            Said::new(
                format!(
                    "workloads {}, reserve and ops {}, margin {}, fleet {}: {} (the Diff tab)",
                    part(b.workloads),
                    part(b.reserve_and_ops),
                    part(b.margin),
                    part(b.fleet),
                    part(b.total)
                ),
                format!(
                    "各负载 {}，试错预留与运维 {}，安全边际 {}，卡群节省 {}，合计 {}（见附录中的对比页）",
                    part(b.workloads),
                    part(b.reserve_and_ops),
                    part(b.margin),
                    part(b.fleet),
                    part(b.total)
                ),
            ),
        ));
    }
    lines
}

/// The fleet's line: the budget with the fleet and what sharing cards saves.
fn fleet_line(cx: &Ctx, money: &impl Fn(f64) -> String) -> Option<(Label, Said)> {
    let f = cx.plan.fleet.as_ref()?;
    Some((
        Label::new("With the fleet", "卡群方案"),
        fixed(Said::new(
            format!(
                "{} a month, {} saved by sharing cards (the Fleet tab, in the appendix)",
                money(f.budget),
                money(f.saving)
            ),
            format!(
                "每月 {}，节省 {}（见附录中的卡群页）",
                money(f.budget),
                money(f.saving)
            ),
        )),
    ))
}

/// The budget ceiling's line, when the plan is over it: by how much, and where its cuts bring
/// the month.
fn ceiling_line(cx: &Ctx, money: &impl Fn(f64) -> String) -> Option<(Label, Said)> {
    let c = cx.plan.cuts.as_ref().filter(|c| c.over())?;
    let (ceiling, over, n) = (
        money(c.budget),
        money(c.planned - c.budget),
        c.chosen().count(),
    );
    let after = money(c.after());
    let m = &c.month;
    Some((
        Label::new("Over the budget ceiling", "超出预算上限"),
        fixed(if c.met {
            Said::new(
                format!("ceiling {ceiling} for {m}, over by {over}: the {n} cut(s) on the Plan tab bring it to {after}"),
                format!("{m} 上限 {ceiling}，超出 {over}；方案页的 {n} 项降级方案可使其回到 {after}"),
            )
        } else {
            Said::new(
                format!("ceiling {ceiling} for {m}, over by {over}: all {n} cut(s) on the Plan tab still leave {after}"),
                format!("{m} 上限 {ceiling}，超出 {over}；方案页的 {n} 项降级方案全部实施后仍为 {after}"),
            )
        }),
    ))
}

/// The month at the measured use of the workloads measured, against what was planned for them.
fn measured_line(cx: &Ctx, money: &impl Fn(f64) -> String) -> Option<(Label, Said)> {
    let measured: Vec<_> = cx
        .calc
        .actuals
        .iter()
        .filter_map(|a| a.as_is.zip(a.planned.as_ref()))
        .collect();
    if measured.is_empty() {
        return None;
    }
    let as_is: f64 = measured.iter().map(|(v, _)| v).sum();
    let planned: f64 = measured.iter().map(|(_, p)| p.tco).sum();
    Some((
        Label::new("At the measured use", "按实测用量"),
        fixed(Said::new(
            format!(
                "{} a month for the measured workloads (planned {})",
                money(as_is),
                money(planned)
            ),
            format!("已测负载每月 {}（计划 {}）", money(as_is), money(planned)),
        )),
    ))
}

//! The planner's warnings about the input as a whole: offers set aside, assumptions nothing
//! reads, example prices, replaced default formulas and modes no offer prices.

use super::*;
use crate::lang::Lang;
use crate::model::{Input, Warning};

/// One warning per group of GPUs excluded by precision support, naming the workloads concerned
/// (the first five, then how many more).
pub(super) fn exclusion_warnings(excluded: &[ExcludedGroup], warnings: &mut Vec<Warning>) {
    for ((gpus, need), ws) in excluded {
        let (location, who, who_zh) = match ws.as_slice() {
            [one] => (one.cell.to_string(), one.name.clone(), one.name.clone()),
            many => {
                let names: Vec<&str> = many.iter().take(5).map(|w| w.name.as_str()).collect();
                let (more, more_zh) = if many.len() > 5 {
                    let n = many.len() - 5;
                    (format!(" and {n} more"), format!(" 等另外 {n} 个"))
                } else {
                    (String::new(), String::new())
                };
                (
                    many[0].cell.sheet.clone(),
                    format!("{} workloads ({}{more})", many.len(), names.join(", ")),
                    format!("{} 个负载（{}{more_zh}）", many.len(), names.join("、")),
                )
            }
        };
        let (need, need_zh) = (&need.en, &need.zh);
        warnings.push(Warning::warn(location, format!("{gpus} excluded for {who}: {need}; choose another precision (e.g. fp16) to consider them"))
            .with_zh(format!("{who_zh} 未考虑 {gpus}：{need_zh}；如需考虑这些 GPU，请改用其他精度（如 fp16）")));
    }
}

/// Warns of each numeric assumption of the user's own that no formula reads: most likely a
/// misspelt key.
pub(super) fn unread_assumption_warnings(
    programs: &Programs,
    input: &Input,
    warnings: &mut Vec<Warning>,
) {
    let defaults = crate::catalog::assumptions(Lang::En);
    for a in &input.assumptions.items {
        if defaults.get(&a.key).is_none()
            && !programs.candidate.reads(&a.key)
            && !programs.portfolio.reads(&a.key)
            && !matches!(a.value, crate::model::Value::Text(_))
        {
            let keys = || defaults.items.iter().map(|d| d.key.as_str());
            let hint = crate::support::suggest::hint(&a.key, keys());
            let hint_zh = match crate::support::suggest::closest(&a.key, keys()) {
                c if c.is_empty() => String::new(),
                c => format!("；是否应为 {}？", c.join("、")),
            };
            let at = match &a.source {
                crate::model::Source::Set => format!("--set {}", a.key),
                other => other.to_string(),
            };
            warnings.push(
                Warning::warn(
                    at,
                    format!(
                        "the assumption {} is read by no formula, so it changes nothing{hint}",
                        a.key
                    ),
                )
                .with_zh(format!(
                    "参数 {} 没有被任何公式引用，不影响结果{hint_zh}",
                    a.key
                )),
            );
        }
    }
}

/// One warning when a chosen offer's prices are the built-in examples (provider `example`):
/// the Summary flags it on page 1, and the warning carries it to the Warnings tab, the JSON and
/// the terminal, naming the offers and how many workloads they price.
pub(super) fn example_price_warning(
    input: &Input,
    plans: &[WorkloadPlan],
    warnings: &mut Vec<Warning>,
) {
    let mut offers: Vec<usize> = Vec::new();
    let mut workloads = 0;
    for wp in plans {
        let Some(ch) = &wp.chosen else {
            continue;
        };
        let offer = wp.candidates[ch.candidate].offer;
        if input.gpus[offer].is_example() {
            workloads += 1;
            if !offers.contains(&offer) {
                offers.push(offer);
            }
        }
    }
    let Some(&first) = offers.first() else {
        return;
    };
    let names: Vec<String> = offers.iter().map(|&o| input.gpus[o].label()).collect();
    let location = input.gpus[first]
        .cell
        .as_ref()
        .map_or("GPUs".to_string(), ToString::to_string);
    let en = if workloads == 1 {
        "1 workload is".to_string()
    } else {
        format!("{workloads} workloads are")
    };
    let zh = format!("{workloads} 个负载");
    warnings.push(
        Warning::warn(
            location,
            format!(
                "the prices of {} are the built-in examples, not quotes, and {en} priced at them: put your quotes in the GPUs sheet before the plan is approved",
                names.join(", ")
            ),
        )
        .with_zh(format!(
            "{} 的价格是内置示例，不是报价，{zh}按其计价：审批前请在算力报价表填入报价",
            names.join("、")
        )),
    );
}

/// Notes about the formulas and prices themselves: each default formula the sheet replaced,
/// then each billing mode no available offer has a price for.
pub(super) fn formula_and_price_warnings(input: &Input, warnings: &mut Vec<Warning>) {
    for f in &input.formulas {
        if f.origin == Origin::Replaced {
            warnings.push(
                Warning::info(
                    f.location(),
                    format!(
                        "the default formula {} was replaced by the sheet's expression",
                        f.name
                    ),
                )
                .with_zh(format!("默认公式 {} 已被工作表中的表达式替换", f.name)),
            );
        }
    }
    // The rented modes of one price each (base plus burst needs two, and says nothing of its
    // own); owning is opt-in, so a sheet without purchase prices is not told about it.
    let rented = |m: &Mode| {
        let prices = m.spec().prices;
        prices.len() == 1 && prices[0].spec().per != crate::model::Per::Once
    };
    for m in Mode::ALL.into_iter().filter(rented) {
        let priced = input
            .gpus
            .iter()
            .filter(|g| g.available)
            .any(|g| m.is_priced(g));
        if !priced {
            warnings.push(
                Warning::info(
                    "GPUs",
                    format!(
                        "no offer has a {} price, so {} was not considered",
                        m.name().en,
                        m.name().en
                    ),
                )
                .with_zh(format!(
                    "没有报价给出{}价格，因此未考虑{}",
                    m.name().zh,
                    m.name().zh
                )),
            );
        }
    }
}

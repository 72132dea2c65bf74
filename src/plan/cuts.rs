//! The downgrade plan (seed 001 §6.3, 降级方案): when the budget with margin is over the
//! Assumption `budget_monthly`, what to cut, ranked by saving — a lower precision on a cheaper
//! card that still fits, spot for offline work, postponing a job, dropping a service's
//! redundancy, an API where it is cheaper — each with its risk and the budget after it,
//! cumulated until under the budget. Pure: it re-evaluates a workload at another precision with
//! the compiled formulas, nothing else.

use super::choose::choose;
use super::evaluate::evaluate_workload;
use super::programs::{Keys, Programs};
use super::{Candidate, Mode, WorkloadPlan};
use crate::model::{Input, Kind, Precision, Warning};
use serde::Serialize;

/// The budget, what it is over by, and the cuts that bring it under.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cuts {
    /// The Assumption budget_monthly.
    pub budget: f64,
    /// The budget the plan needs: the total with safety margin (less the fleet's saving).
    pub planned: f64,
    /// Whether the cuts listed bring it within the budget.
    pub met: bool,
    /// Ranked by saving, one a workload, cumulated until within the budget.
    pub cuts: Vec<Cut>,
}

/// One cut: what to do to which workload, what it saves a month, its risk, and the budget after
/// it and every cut above it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cut {
    pub workload: String,
    /// `lower_precision`, `spot`, `postpone`, `no_redundancy` or `api`.
    pub action: &'static str,
    /// What to change, in words.
    pub change: String,
    pub saving: f64,
    pub risk: String,
    pub total_after: f64,
    /// The change and the risk in Chinese, for a `--lang zh` workbook and terminal (the JSON
    /// keeps the English, as a Warning's message).
    #[serde(skip)]
    pub zh: (String, String),
}

impl Cut {
    /// What to change, in the language of the output.
    pub fn change(&self, lang: crate::lang::Lang) -> &str {
        match lang {
            crate::lang::Lang::Zh => &self.zh.0,
            _ => &self.change,
        }
    }

    /// The risk the cut takes, in the language of the output.
    pub fn risk(&self, lang: crate::lang::Lang) -> &str {
        match lang {
            crate::lang::Lang::Zh => &self.zh.1,
            _ => &self.risk,
        }
    }
}

/// The cuts of a plan whose budget (`planned`) is over the Assumption budget_monthly; `None`
/// without one or within it. `value` reads a candidate formula's value by name; `moved` names
/// the workloads on the fleet's shared cards (left out: they carry or ride on others).
#[allow(clippy::too_many_arguments)]
pub(super) fn cuts(
    programs: &Programs,
    input: &Input,
    plans: &[WorkloadPlan],
    keys: &Keys,
    value: &dyn Fn(&Candidate, &str) -> Option<f64>,
    planned: f64,
    moved: &[&str],
    warnings: &mut Vec<Warning>,
) -> Option<Cuts> {
    let budget = input.assumptions.number("budget_monthly", f64::NAN);
    if budget.is_nan() || planned.is_nan() || planned <= budget {
        return None;
    }
    let monthly_min = input.assumptions.number("monthly_min_utilization", 0.4);
    let mut found: Vec<Cut> = Vec::new();
    for (w, wp) in input.workloads.iter().zip(plans) {
        let Some(ch) = &wp.chosen else { continue };
        // The fleet's workloads are left as they are: a moved job costs no rent, and a host's
        // or a shared card's instances carry others.
        if moved.contains(&w.name.as_str()) {
            continue;
        }
        let c = &wp.candidates[ch.candidate];
        let get = |n: &str| value(c, n);
        let mut options: Vec<Cut> = Vec::new();
        // Each cut's change and risk come in English and Chinese: [en, zh].
        let mut add = |action, change: [String; 2], saving: f64, risk: [&str; 2]| {
            if saving > 0.005 {
                let [change, change_zh] = change;
                options.push(Cut {
                    workload: w.name.clone(),
                    action,
                    change,
                    saving,
                    risk: risk[0].to_string(),
                    total_after: f64::NAN,
                    zh: (change_zh, risk[1].to_string()),
                });
            }
        };
        // A lower precision, re-planned: the cheapest offer that fits it.
        if w.kind == Kind::Inference {
            for p in [Precision::Fp8, Precision::Int8, Precision::Int4] {
                if p.bytes() >= w.precision.bytes() {
                    continue;
                }
                let mut lower = w.clone();
                lower.precision = p;
                if lower.expert_precision.bytes() > p.bytes() {
                    lower.expert_precision = p;
                }
                let Ok(e) = evaluate_workload(programs, input, &lower, keys, 1) else {
                    continue;
                };
                if let Some(low) = choose(&e.candidates, &e.best, keys, monthly_min) {
                    let offer = &input.gpus[e.candidates[low.candidate].offer];
                    let (p, gpu, mode) = (p.key(), offer.label(), low.mode.key());
                    add(
                        "lower_precision",
                        [
                            format!("serve in {p} on {gpu} ({mode})"),
                            format!("改用 {p} 精度，部署在 {gpu}（{mode}）"),
                        ],
                        ch.tco - low.tco,
                        [
                            "answers of a quantized model may be worse: check its evaluations first",
                            "量化后模型的回答可能变差：先核对其评测结果",
                        ],
                    );
                }
            }
        }
        // Spot for offline work billed on demand.
        if !w.online && !w.spot_ok && ch.mode == Mode::OnDemand {
            if let Some(spot) = get("cost_spot").filter(|v| v.is_finite() && *v > 0.0) {
                add(
                    "spot",
                    [
                        "run on spot instances (spot_ok yes)".into(),
                        "改用竞价（Spot）实例（spot_ok 设为 yes）".into(),
                    ],
                    ch.gpu_cost - spot,
                    [
                        "spot instances are reclaimed: the job must checkpoint and may finish later",
                        "竞价实例会被回收：任务须保存断点，完成时间可能推迟",
                    ],
                );
            }
        }
        // Postpone a job to a later month.
        if !w.online {
            add(
                "postpone",
                [
                    "postpone it to a later month (start_month)".into(),
                    "推迟到以后的月份（start_month）".into(),
                ],
                ch.tco,
                ["the work is delivered later", "交付时间推后"],
            );
        }
        // A service without its redundancy instances.
        if w.online {
            if let (Some(inst), Some(repl)) = (get("instances"), get("replicas")) {
                let offer = &input.gpus[c.offer];
                if let Some(share) = super::spares_share(ch.mode, get, offer) {
                    let plural = if repl == 1.0 { "instance" } else { "instances" };
                    add(
                        "no_redundancy",
                        [
                            format!("run {repl} {plural} instead of {inst} (redundancy 0)"),
                            format!("只运行 {repl} 个实例而非 {inst} 个（redundancy 设为 0）"),
                        ],
                        ch.gpu_cost * share,
                        [
                            "no spare instance: a failure or a peak above plan is an outage (only for a non-critical service)",
                            "没有备用实例：一次故障或超出计划的峰值即会中断服务（仅适用于非关键服务）",
                        ],
                    );
                }
            }
        }
        // An API where it is cheaper.
        if w.api.is_some() {
            if let Some(api) = get("api_monthly_cost").filter(|v| v.is_finite()) {
                let name = w.api.as_deref().unwrap_or("");
                add(
                    "api",
                    [
                        format!("use the API {name} instead"),
                        format!("改用 API {name}"),
                    ],
                    ch.tco - api,
                    [
                        "the data leaves for the API provider, and its price and limits are theirs",
                        "数据会发给 API 提供方，价格与限额也由对方决定",
                    ],
                );
            }
        }
        if let Some(best) = options
            .into_iter()
            .max_by(|a, b| a.saving.total_cmp(&b.saving))
        {
            found.push(best);
        }
    }
    found.sort_by(|a, b| b.saving.total_cmp(&a.saving));
    let mut total = planned;
    let mut list = Vec::new();
    for mut c in found {
        if total <= budget {
            break;
        }
        total -= c.saving;
        c.total_after = total;
        list.push(c);
    }
    let met = total <= budget;
    let n = list.len();
    // Amounts as the terminal and the Summary write them (¥30,000.00), not 30000.00.
    let money = |v: f64| crate::model::money(&input.assumptions.currency(), v);
    let (b, over) = (money(budget), money(planned - budget));
    let warning = if met {
        Warning::warn(
            "Assumptions",
            format!("the budget {b} is exceeded by {over}: {n} cut(s) listed in the Plan tab bring it within"),
        )
        .with_zh(format!("超出预算 {b} 共 {over}：方案页列出的 {n} 项削减可使其回到预算内"))
    } else {
        let left = money(total - budget);
        Warning::warn(
            "Assumptions",
            format!("the budget {b} is exceeded by {over}, and every cut found leaves {left} over"),
        )
        .with_zh(format!(
            "超出预算 {b} 共 {over}，采取找到的全部削减后仍超出 {left}"
        ))
    };
    warnings.push(warning);
    Some(Cuts {
        budget,
        planned,
        met,
        cuts: list,
    })
}

//! The plan's risks in money (#43 item 4): what could make the month cost other than planned,
//! each with the amount at stake, the largest first. Page 1 shows the top three; JSON `risks`
//! all of them. Each is also a warning or a line elsewhere; this is their ranking by money.

use super::{Mode, Plan, Said};
use crate::labels::Label;
use serde::Serialize;

/// What a risk is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RiskKind {
    /// A workload's layers and heads borrowed from a catalog model (`from`): its whole month
    /// rests on them.
    GuessedModel,
    /// The GPU prices are the built-in examples: the GPU cost of the workloads priced at them.
    ExamplePrices,
    /// A workload on spot: if spot capacity is not there, on demand costs this much more.
    Spot,
    /// The month is over the budget ceiling by this much.
    OverBudget,
}

/// One risk: its kind, the workload it concerns (if one) and the money at stake a month.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Risk {
    /// What the risk is about; the JSON's `risk` key, in snake case.
    pub risk: RiskKind,
    /// The name of the workload it concerns; `None` for the example prices and the budget.
    pub workload: Option<String>,
    /// The catalog model a guessed architecture was borrowed from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The money at stake a month, in the workbook's currency: a guessed model's workload's
    /// TCO, on demand's extra cost over spot, the GPU cost at example prices, or the excess
    /// over the budget ceiling.
    #[serde(serialize_with = "crate::model::cents_json")]
    pub amount: f64,
}

impl Risk {
    /// The risk in a line, in both languages.
    pub fn said(&self) -> Said {
        let w = self.workload.as_deref().unwrap_or("");
        let from = self.from.as_deref().unwrap_or("");
        match self.risk {
            RiskKind::GuessedModel => Said::new(
                format!("{w}: its model's layers and heads are guessed from {from}; its month rests on them (Memory tab)"),
                format!("{w}：模型的层数和注意力头数按 {from} 推测，其月度成本取决于此（见显存页）"),
            ),
            RiskKind::ExamplePrices => Label::new(
                "the GPU prices are the built-in examples, not quotes (the GPUs sheet)",
                "GPU 价格是内置示例，不是报价（算力报价表）",
            )
            .into(),
            RiskKind::Spot => Said::new(
                format!("{w} on spot: what on demand costs more if spot capacity is not there"),
                format!("{w} 使用竞价实例：竞价资源不足时，按量计费多花的金额"),
            ),
            RiskKind::OverBudget => Label::new(
                "over the budget ceiling (the cuts on the Plan tab)",
                "超出预算上限的金额（见方案页的降级方案）",
            )
            .into(),
        }
    }
}

/// The plan's risks, the largest amount first (ties in the order found: workloads in sheet
/// order, then the prices, then the ceiling).
pub fn risks(plan: &Plan) -> Vec<Risk> {
    let mut out = Vec::new();
    let mut example = 0.0;
    for w in 0..plan.workloads.len() {
        let Some((c, ch)) = plan.chosen(w) else {
            continue;
        };
        let wl = &plan.input.workloads[w];
        if let Some(from) = wl.model.as_ref().and_then(|m| m.guessed_from()) {
            out.push(Risk {
                risk: RiskKind::GuessedModel,
                workload: Some(wl.name.clone()),
                from: Some(from.to_string()),
                amount: ch.tco,
            });
        }
        if ch.mode == Mode::Spot {
            if let Some(on_demand) = c.cost(Mode::OnDemand) {
                let more = on_demand - ch.gpu_cost;
                if more > 0.0 {
                    out.push(Risk {
                        risk: RiskKind::Spot,
                        workload: Some(wl.name.clone()),
                        from: None,
                        amount: more,
                    });
                }
            }
        }
        if plan.input.gpus[c.offer].is_example() {
            example += ch.gpu_cost;
        }
    }
    if example > 0.0 {
        out.push(Risk {
            risk: RiskKind::ExamplePrices,
            workload: None,
            from: None,
            amount: example,
        });
    }
    if let Some(c) = plan.cuts.as_ref().filter(|c| c.over()) {
        out.push(Risk {
            risk: RiskKind::OverBudget,
            workload: None,
            from: None,
            amount: c.planned - c.budget,
        });
    }
    out.sort_by(|a, b| b.amount.total_cmp(&a.amount));
    out
}

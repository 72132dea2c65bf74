//! What the plan's values read as, in either language: the billing modes, the seeds'
//! utilization bands, a workload's advice line, renting against an API, and the advice from
//! measured usage. `plan/` decides; this module only words the decisions.

use super::{Label, Said};
use crate::lang::Lang;
use crate::model::{format_number, format_tenths};
use crate::plan::advice::{Advice, Band};
use crate::plan::Mode;
use crate::usage::compare::{replica_peak, Row, Side, NOTHING};

impl Band {
    /// The billing the seeds' rule of thumb advises for this utilization band: `on-demand` for
    /// [`Band::Low`] up to `monthly` for [`Band::Full`].
    pub const fn label(self) -> Label {
        match self {
            Band::Low => Label::new("on-demand", "按量计费"),
            Band::Moderate => {
                Label::new("on-demand, spot for batch work", "按量为主，批任务配合竞价")
            }
            Band::High => Label::new(
                "monthly or reserved base plus on-demand burst",
                "包月或预留保底 + 按量应对峰值",
            ),
            Band::Full => Label::new("monthly", "包月"),
        }
    }
}

impl Advice {
    /// The workload's advice line in `lang` (as [`Advice::said`] words it).
    pub fn text(&self, lang: Lang) -> String {
        self.said().pick(lang)
    }

    /// The workload's advice line: utilization in percent and its band's advice, a caution
    /// against monthly below `monthly_min_utilization`, then the chosen mode and how many times
    /// more the next-best mode would cost (`utilization 100%: monthly; chose …`).
    pub fn said(&self) -> Said {
        let pct = format_number((self.utilization * 100.0).round());
        let band = self.band.label();
        let mut en = format!("utilization {pct}%: {}", band.en);
        let mut zh = format!("利用率 {pct}%：建议{}", band.zh);
        // Below the minimum a monthly plan is advised against, unless it is what was chosen
        // (the only mode offered, or cheaper even so): then the advice says so rather than
        // contradicting the choice.
        if self.below_monthly_minimum {
            let caution = if self.mode == Mode::Monthly {
                Label::new(
                    ", below where monthly usually pays off",
                    "，低于包月通常划算的利用率",
                )
            } else {
                Label::new(", never monthly", "，不建议包月")
            };
            en.push_str(caution.en);
            zh.push_str(caution.zh);
        }
        let chosen = self.mode.name();
        match self.next {
            Some((m, ratio)) => {
                let r = format!("{:.1}", ratio);
                let next = m.name();
                en.push_str(&format!(
                    "; chose {}; {} would cost {r}× more",
                    chosen.en, next.en
                ));
                zh.push_str(&format!("；选用{}，{}要贵 {r} 倍", chosen.zh, next.zh));
            }
            None => {
                en.push_str(&format!(
                    "; chose {} (the only billing mode offered)",
                    chosen.en
                ));
                zh.push_str(&format!("；选用{}（唯一可用的计费方式）", chosen.zh));
            }
        }
        Said::new(en, zh)
    }
}

/// A count rounded to a whole number with thousands separators: `27,397`.
fn grouped(v: f64) -> String {
    let digits = format!("{:.0}", v.max(0.0).round());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Renting against calling an API, in a line: the API's monthly cost at the workload's volume
/// beside the self-hosted TCO, and the break-even volume (amounts as `money` writes them).
pub fn api_text(
    api: &str,
    per_day: f64,
    api_cost: f64,
    tco: f64,
    breakeven: f64,
    money: &dyn Fn(f64) -> String,
) -> Said {
    // Without a volume, or with an API that costs nothing, there is no break-even to give:
    // "cheaper below 0 requests a day" would be a made-up figure.
    if per_day.is_nan() || per_day <= 0.0 {
        return Said::new(
            format!("the API {api}: the comparison needs the workload's requests_per_day (blank or 0 here); give it to see which is cheaper"),
            format!("API {api}：对比需要该负载的每日请求量（requests_per_day，此处为空或 0），请填写"),
        );
    }
    if api_cost.is_nan() || api_cost <= 0.0 {
        return Said::new(
            format!("the API {api} costs nothing at {} requests a day (its prices are 0 or blank): no break-even to give; check its row of the APIs sheet", grouped(per_day)),
            format!("API {api} 按每日 {} 次请求费用为 0（价格为 0 或空）：无盈亏平衡点；请检查 APIs 表中该行", grouped(per_day)),
        );
    }
    let volume = grouped(per_day);
    let even = grouped(breakeven);
    let (a, t) = (money(api_cost), money(tco));
    if api_cost < tco {
        Said::new(
            format!("the API {api} would cost {a} a month at {volume} requests a day against {t} self-hosted: cheaper below {even} requests a day, so consider the API"),
            format!("API {api} 按每日 {volume} 次请求每月 {a}，自建 {t}：日请求量低于 {even} 时 API 更便宜，建议考虑 API"),
        )
    } else {
        Said::new(
            format!("the API {api} would cost {a} a month at {volume} requests a day against {t} self-hosted: renting GPUs is cheaper above {even} requests a day"),
            format!("API {api} 按每日 {volume} 次请求每月 {a}，自建 {t}：日请求量高于 {even} 时租用 GPU 更便宜"),
        )
    }
}

fn pct(share: f64) -> String {
    format_number((share * 100.0).round())
}

impl Row {
    /// The advice line, with amounts as `money` writes them.
    pub fn advice(&self, money: &dyn Fn(f64) -> String) -> Said {
        let Some(p) = &self.planned else {
            return Label::new(
                "unplanned: nothing to compare with",
                "未规划：无法与实测对比",
            )
            .into();
        };
        let why = Said::join(&self.reasons(p), Label::new(", ", "，"));
        let mut line = self.verdict(p, &why, money);
        line.push(&self.measured_budget(p, money));
        line
    }

    /// Why, as the advice's reasons: the measured hours against the plan's, then each rule the
    /// measured figures meet (the monthly band, a smaller card, spot when the re-plan takes it).
    fn reasons(&self, p: &Side) -> Vec<Said> {
        let a = &self.actual;
        let mut why = vec![Said::new(
            format!(
                "measured {} h a month against {} planned (utilization {}%)",
                format_tenths(self.measured_hours),
                format_tenths(p.run_hours),
                pct(a.utilization)
            ),
            format!(
                "实测每月 {} 小时（计划 {}），利用率 {}%",
                format_tenths(self.measured_hours),
                format_tenths(p.run_hours),
                pct(a.utilization)
            ),
        )];
        if self.rules.monthly {
            why.push(Label::new("in the monthly band", "高于包月利用率区间").into());
        }
        if self.rules.smaller_card {
            let peak = replica_peak(a, p).unwrap_or(0.0);
            why.push(Said::new(
                format!(
                    "memory peak {} GiB is below half of the card's {} GiB",
                    format_tenths(peak),
                    format_tenths(p.replica_vram_gib)
                ),
                format!(
                    "显存峰值 {} GiB 低于所选卡 {} GiB 的一半",
                    format_tenths(peak),
                    format_tenths(p.replica_vram_gib)
                ),
            ));
        }
        // Spot is named when the re-plan takes it: without a spot price (or where on-demand
        // stays cheaper) the rule has nothing to offer.
        let spot_taken = self
            .replanned
            .as_ref()
            .is_some_and(|r| r.mode == Mode::Spot && p.mode != Mode::Spot);
        if self.rules.spot && spot_taken {
            why.push(
                Label::new("interruptible work that runs in bursts", "可中断且间歇运行").into(),
            );
        }
        why
    }

    /// The advice proper, `why` in it: when the re-plan takes another card, count or mode and
    /// saves against carrying on, which and how much; otherwise keep the plan.
    fn verdict(&self, p: &Side, why: &Said, money: &dyn Fn(f64) -> String) -> Said {
        let other_card = |r: &Side| r.gpu != p.gpu || r.gpus_total != p.gpus_total;
        match &self.replanned {
            Some(r) if self.saving > 0.0 && (other_card(r) || r.mode != p.mode) => {
                let action = action(p, r);
                let saving = money(self.saving);
                Said::new(
                    format!(
                        "{}: {}; saves {saving} a month against carrying on as planned",
                        action.en, why.en
                    ),
                    format!("{}：{}；比按原方案运行每月省 {saving}", action.zh, why.zh),
                )
            }
            _ => {
                let (gpus, mode) = (format_number(p.gpus_total), p.mode.name());
                Said::new(
                    format!("keep: {gpus} × {} {}; {}", p.gpu, mode.en, why.en),
                    format!("保持：{gpus} × {} {}；{}", p.gpu, mode.zh, why.zh),
                )
            }
        }
    }

    /// The advice's tail: what the month costs at the measured use beside the plan (a budget
    /// to correct, not a saving: the same setup simply runs less or more), or that the re-plan
    /// found nothing; empty when the re-plan costs what the plan does.
    fn measured_budget(&self, p: &Side, money: &dyn Fn(f64) -> String) -> Said {
        match &self.replanned {
            Some(r) if (r.tco - p.tco).abs() > NOTHING => Said::new(
                format!(
                    "; at the measured use the month costs {} (planned {})",
                    money(r.tco),
                    money(p.tco)
                ),
                format!("；按实测每月预算 {}（计划 {}）", money(r.tco), money(p.tco)),
            ),
            Some(_) => Said::default(),
            None => Label::new(
                "; re-planning at the measured figures plans nothing",
                "；按实测重新规划找不到可用方案",
            )
            .into(),
        }
    }
}

/// What the re-plan `r` changes from the plan `p`, as the advice's opening words.
fn action(p: &Side, r: &Side) -> Said {
    let card = format!("{} × {}", format_number(r.gpus_total), r.gpu);
    let other_card = r.gpu != p.gpu || r.gpus_total != p.gpus_total;
    let smaller = r.gpu != p.gpu && r.replica_vram_gib < p.replica_vram_gib;
    let card = if smaller {
        Said::new(
            format!("a smaller card, {card}"),
            format!("换更小的卡 {card}"),
        )
    } else {
        Said::new(card.clone(), format!("换用 {card}"))
    };
    let mode = r.mode.name();
    match (other_card, r.mode != p.mode) {
        (true, true) => Said::new(
            format!("switch to {} on {}", card.en, mode.en),
            format!("{}，改{}", card.zh, mode.zh),
        ),
        (true, false) => Said::new(format!("switch to {}", card.en), card.zh),
        (false, true) => Said::new(format!("switch to {}", mode.en), format!("改{}", mode.zh)),
        (false, false) => Said::new(
            format!("budget the measured hours on {}", mode.en),
            format!("按实测小时数预算{}", mode.zh),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_reads_like_the_seeds() {
        let a = Advice {
            utilization: 300.0 / 730.0,
            band: Band::Moderate,
            below_monthly_minimum: false,
            mode: Mode::OnDemand,
            next: Some((Mode::Monthly, 2.11)),
        };
        assert_eq!(a.text(Lang::En), "utilization 41%: on-demand, spot for batch work; chose on-demand; monthly would cost 2.1× more");
        // Monthly chosen below the minimum (cheaper even so): the advice does not say "never".
        let cheap_monthly = Advice {
            utilization: 0.3,
            band: Band::of(0.3),
            below_monthly_minimum: true,
            mode: Mode::Monthly,
            next: Some((Mode::OnDemand, 1.1)),
        };
        assert_eq!(
            cheap_monthly.text(Lang::En),
            "utilization 30%: on-demand, spot for batch work, below where monthly usually pays off; chose monthly; on-demand would cost 1.1× more"
        );
        assert!(!cheap_monthly.said().zh.contains("不建议包月"));
        assert!(a.said().zh.starts_with("利用率 41%"));
    }
}

//! What the plan's values read as, in either language: the billing modes, the seeds'
//! utilization bands, a workload's advice line, renting against an API, and the advice from
//! measured usage. `plan/` decides; this module only words the decisions.

use crate::lang::Lang;
use crate::model::format_number;
use crate::plan::advice::{Advice, Band};
use crate::plan::Mode;
use crate::usage::compare::{replica_peak, Row, Side, NOTHING};

impl Band {
    /// The billing the seeds' rule of thumb advises for this utilization band, in `lang`:
    /// `on-demand` for [`Band::Low`] up to `monthly` for [`Band::Full`].
    pub fn text(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Band::Low, Lang::En) => "on-demand",
            (Band::Moderate, Lang::En) => "on-demand, spot for batch work",
            (Band::High, Lang::En) => "monthly or reserved base plus on-demand burst",
            (Band::Full, Lang::En) => "monthly",
            (Band::Low, Lang::Zh) => "按量计费",
            (Band::Moderate, Lang::Zh) => "按量为主，批任务配合竞价",
            (Band::High, Lang::Zh) => "包月或预留保底 + 按量应对峰值",
            (Band::Full, Lang::Zh) => "包月",
        }
    }
}

impl Advice {
    /// The workload's advice line in `lang`: utilization in percent and its band's advice,
    /// a caution against monthly below `monthly_min_utilization`, then the chosen mode and how
    /// many times more the next-best mode would cost (`utilization 100%: monthly; chose …`).
    pub fn text(&self, lang: Lang) -> String {
        let pct = format_number((self.utilization * 100.0).round());
        let mut s = if lang == Lang::Zh {
            format!("利用率 {pct}%：建议{}", self.band.text(Lang::Zh))
        } else {
            format!("utilization {pct}%: {}", self.band.text(Lang::En))
        };
        // Below the minimum a monthly plan is advised against, unless it is what was chosen
        // (the only mode offered, or cheaper even so): then the advice says so rather than
        // contradicting the choice.
        if self.below_monthly_minimum {
            s.push_str(match (self.mode == Mode::Monthly, lang) {
                (false, Lang::En) => ", never monthly",
                (false, Lang::Zh) => "，不建议包月",
                (true, Lang::En) => ", below where monthly usually pays off",
                (true, Lang::Zh) => "，低于包月通常划算的利用率",
            });
        }
        let chosen = self.mode.label(lang);
        match self.next {
            Some((m, ratio)) => {
                let r = format!("{:.1}", ratio);
                if lang == Lang::Zh {
                    s.push_str(&format!("；选用{chosen}，{}要贵 {r} 倍", m.label(Lang::Zh)));
                } else {
                    s.push_str(&format!(
                        "; chose {chosen}; {} would cost {r}× more",
                        m.label(Lang::En)
                    ));
                }
            }
            None => s.push_str(&if lang == Lang::Zh {
                format!("；选用{chosen}（唯一可用的计费方式）")
            } else {
                format!("; chose {chosen} (the only billing mode offered)")
            }),
        }
        s
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
    lang: Lang,
) -> String {
    // Without a volume, or with an API that costs nothing, there is no break-even to give:
    // "cheaper below 0 requests a day" would be a made-up figure.
    if per_day.is_nan() || per_day <= 0.0 {
        return match lang {
            Lang::En => format!("the API {api}: the comparison needs the workload's requests_per_day (blank or 0 here); give it to see which is cheaper"),
            Lang::Zh => format!("API {api}：对比需要该负载的每日请求量（requests_per_day，此处为空或 0），请填写"),
        };
    }
    if api_cost.is_nan() || api_cost <= 0.0 {
        return match lang {
            Lang::En => format!("the API {api} costs nothing at {} requests a day (its prices are 0 or blank): no break-even to give; check its row of the APIs sheet", grouped(per_day)),
            Lang::Zh => format!("API {api} 按每日 {} 次请求费用为 0（价格为 0 或空）：无盈亏平衡点；请检查 APIs 表中该行", grouped(per_day)),
        };
    }
    let volume = grouped(per_day);
    let even = grouped(breakeven);
    let (a, t) = (money(api_cost), money(tco));
    match (api_cost < tco, lang) {
        (true, Lang::En) => format!("the API {api} would cost {a} a month at {volume} requests a day against {t} self-hosted: cheaper below {even} requests a day, so consider the API"),
        (false, Lang::En) => format!("the API {api} would cost {a} a month at {volume} requests a day against {t} self-hosted: renting GPUs is cheaper above {even} requests a day"),
        (true, Lang::Zh) => format!("API {api} 按每日 {volume} 次请求每月 {a}，自建 {t}：日请求量低于 {even} 时 API 更便宜，建议考虑 API"),
        (false, Lang::Zh) => format!("API {api} 按每日 {volume} 次请求每月 {a}，自建 {t}：日请求量高于 {even} 时租用 GPU 更便宜"),
    }
}

fn pct(share: f64) -> String {
    format_number((share * 100.0).round())
}

fn hours(h: f64) -> String {
    format_number((h * 10.0).round() / 10.0)
}

impl Row {
    /// The advice line, with amounts as `money` writes them.
    pub fn advice(&self, money: &dyn Fn(f64) -> String, lang: Lang) -> String {
        let Some(p) = &self.planned else {
            return if lang == Lang::Zh {
                "未规划：无法与实测对比".to_string()
            } else {
                "unplanned: nothing to compare with".to_string()
            };
        };
        let why = self
            .reasons(p, lang)
            .join(if lang == Lang::Zh { "，" } else { ", " });
        let mut line = self.verdict(p, &why, money, lang);
        line.push_str(&self.measured_budget(p, money, lang));
        line
    }

    /// Why, as the advice's reasons: the measured hours against the plan's, then each rule the
    /// measured figures meet (the monthly band, a smaller card, spot when the re-plan takes it).
    fn reasons(&self, p: &Side, lang: Lang) -> Vec<String> {
        let a = &self.actual;
        let mut why = vec![if lang == Lang::Zh {
            format!(
                "实测每月 {} 小时（计划 {}），利用率 {}%",
                hours(self.measured_hours),
                hours(p.run_hours),
                pct(a.utilization)
            )
        } else {
            format!(
                "measured {} h a month against {} planned (utilization {}%)",
                hours(self.measured_hours),
                hours(p.run_hours),
                pct(a.utilization)
            )
        }];
        if self.rules.monthly {
            why.push(
                if lang == Lang::Zh {
                    "高于包月利用率区间"
                } else {
                    "in the monthly band"
                }
                .to_string(),
            );
        }
        if self.rules.smaller_card {
            let peak = replica_peak(a, p).unwrap_or(0.0);
            why.push(if lang == Lang::Zh {
                format!(
                    "显存峰值 {} GiB 低于所选卡 {} GiB 的一半",
                    hours(peak),
                    hours(p.replica_vram_gib)
                )
            } else {
                format!(
                    "memory peak {} GiB is below half of the card's {} GiB",
                    hours(peak),
                    hours(p.replica_vram_gib)
                )
            });
        }
        // Spot is named when the re-plan takes it: without a spot price (or where on-demand
        // stays cheaper) the rule has nothing to offer.
        let spot_taken = self
            .replanned
            .as_ref()
            .is_some_and(|r| r.mode == Mode::Spot && p.mode != Mode::Spot);
        if self.rules.spot && spot_taken {
            why.push(
                if lang == Lang::Zh {
                    "可中断且间歇运行"
                } else {
                    "interruptible work that runs in bursts"
                }
                .to_string(),
            );
        }
        why
    }

    /// The advice proper, `why` in it: when the re-plan takes another card, count or mode and
    /// saves against carrying on, which and how much; otherwise keep the plan.
    fn verdict(&self, p: &Side, why: &str, money: &dyn Fn(f64) -> String, lang: Lang) -> String {
        let other_card = |r: &Side| r.gpu != p.gpu || r.gpus_total != p.gpus_total;
        match &self.replanned {
            Some(r) if self.saving > 0.0 && (other_card(r) || r.mode != p.mode) => {
                let action = action(p, r, lang);
                if lang == Lang::Zh {
                    format!(
                        "{action}：{why}；比按原方案运行每月省 {}",
                        money(self.saving)
                    )
                } else {
                    format!(
                        "{action}: {why}; saves {} a month against carrying on as planned",
                        money(self.saving)
                    )
                }
            }
            _ => {
                let (gpus, mode) = (format_number(p.gpus_total), p.mode.label(lang));
                if lang == Lang::Zh {
                    format!("保持：{gpus} × {} {mode}；{why}", p.gpu)
                } else {
                    format!("keep: {gpus} × {} {mode}; {why}", p.gpu)
                }
            }
        }
    }

    /// The advice's tail: what the month costs at the measured use beside the plan (a budget
    /// to correct, not a saving: the same setup simply runs less or more), or that the re-plan
    /// found nothing; empty when the re-plan costs what the plan does.
    fn measured_budget(&self, p: &Side, money: &dyn Fn(f64) -> String, lang: Lang) -> String {
        match &self.replanned {
            Some(r) if (r.tco - p.tco).abs() > NOTHING => {
                if lang == Lang::Zh {
                    format!("；按实测每月预算 {}（计划 {}）", money(r.tco), money(p.tco))
                } else {
                    format!(
                        "; at the measured use the month costs {} (planned {})",
                        money(r.tco),
                        money(p.tco)
                    )
                }
            }
            Some(_) => String::new(),
            None => if lang == Lang::Zh {
                "；按实测重新规划找不到可用方案"
            } else {
                "; re-planning at the measured figures plans nothing"
            }
            .to_string(),
        }
    }
}

/// What the re-plan `r` changes from the plan `p`, as the advice's opening words.
fn action(p: &Side, r: &Side, lang: Lang) -> String {
    let card = format!("{} × {}", format_number(r.gpus_total), r.gpu);
    let other_card = r.gpu != p.gpu || r.gpus_total != p.gpus_total;
    let smaller = r.gpu != p.gpu && r.replica_vram_gib < p.replica_vram_gib;
    if lang == Lang::Zh {
        let card = if smaller {
            format!("换更小的卡 {card}")
        } else {
            format!("换用 {card}")
        };
        match (other_card, r.mode != p.mode) {
            (true, true) => format!("{card}，改{}", r.mode.label(Lang::Zh)),
            (true, false) => card,
            (false, true) => format!("改{}", r.mode.label(Lang::Zh)),
            (false, false) => format!("按实测小时数预算{}", r.mode.label(Lang::Zh)),
        }
    } else {
        let card = if smaller {
            format!("a smaller card, {card}")
        } else {
            card
        };
        match (other_card, r.mode != p.mode) {
            (true, true) => format!("switch to {card} on {}", r.mode.label(Lang::En)),
            (true, false) => format!("switch to {card}"),
            (false, true) => format!("switch to {}", r.mode.label(Lang::En)),
            (false, false) => format!("budget the measured hours on {}", r.mode.label(Lang::En)),
        }
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
        assert!(!cheap_monthly.text(Lang::Zh).contains("不建议包月"));
        assert!(a.text(Lang::Zh).starts_with("利用率 41%"));
    }
}

//! The advice line of a planned workload, in the seeds' terms: utilization, the rule of thumb for
//! billing, and what the chosen mode saves against the next best option.

use super::Mode;
use crate::model::format_number;

/// The seeds' utilization bands (seed 001 §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    /// Under 20%: on-demand.
    Low,
    /// 20–50%: on-demand, with spot for batch work.
    Moderate,
    /// 50–70%: a monthly or reserved base plus on-demand burst.
    High,
    /// Over 70%: monthly.
    Full,
}

impl Band {
    pub fn of(utilization: f64) -> Band {
        if utilization < 0.2 {
            Band::Low
        } else if utilization < 0.5 {
            Band::Moderate
        } else if utilization <= 0.7 {
            Band::High
        } else {
            Band::Full
        }
    }

    fn text(self, zh: bool) -> &'static str {
        match (self, zh) {
            (Band::Low, false) => "on-demand",
            (Band::Moderate, false) => "on-demand, spot for batch work",
            (Band::High, false) => "monthly or reserved base plus on-demand burst",
            (Band::Full, false) => "monthly",
            (Band::Low, true) => "按量计费",
            (Band::Moderate, true) => "按量为主，批任务配合竞价",
            (Band::High, true) => "包月或预留保底 + 按量应对峰值",
            (Band::Full, true) => "包月",
        }
    }
}

/// Why a workload got its mode, ready to be written in either language.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    pub utilization: f64,
    pub band: Band,
    /// Below `monthly_min_utilization`: never monthly.
    pub below_monthly_minimum: bool,
    pub mode: Mode,
    /// The next best option with another mode: its mode and cost ratio to the chosen one.
    pub next: Option<(Mode, f64)>,
}

impl Advice {
    pub fn text(&self, zh: bool) -> String {
        let pct = format_number((self.utilization * 100.0).round());
        let mut s = if zh {
            format!("利用率 {pct}%：建议{}", self.band.text(true))
        } else {
            format!("utilization {pct}%: {}", self.band.text(false))
        };
        // Below the minimum a monthly plan is advised against, unless it is what was chosen
        // (the only mode offered, or cheaper even so): then the advice says so rather than
        // contradicting the choice.
        if self.below_monthly_minimum {
            s.push_str(match (self.mode == Mode::Monthly, zh) {
                (false, false) => ", never monthly",
                (false, true) => "，不建议包月",
                (true, false) => ", below where monthly usually pays off",
                (true, true) => "，低于包月通常划算的利用率",
            });
        }
        let chosen = self.mode.label(zh);
        match self.next {
            Some((m, ratio)) => {
                let r = format!("{:.1}", ratio);
                if zh {
                    s.push_str(&format!("；选用{chosen}，{}要贵 {r} 倍", m.label(true)));
                } else {
                    s.push_str(&format!(
                        "; chose {chosen}; {} would cost {r}× more",
                        m.label(false)
                    ));
                }
            }
            None => s.push_str(&if zh {
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
    zh: bool,
) -> String {
    let volume = grouped(per_day);
    let even = grouped(breakeven);
    let (a, t) = (money(api_cost), money(tco));
    match (api_cost < tco, zh) {
        (true, false) => format!("the API {api} would cost {a} a month at {volume} requests a day against {t} self-hosted: cheaper below {even} requests a day, so consider the API"),
        (false, false) => format!("the API {api} would cost {a} a month at {volume} requests a day against {t} self-hosted: renting GPUs is cheaper above {even} requests a day"),
        (true, true) => format!("API {api} 按每日 {volume} 次请求每月 {a}，自建 {t}：日请求量低于 {even} 时 API 更便宜，建议考虑 API"),
        (false, true) => format!("API {api} 按每日 {volume} 次请求每月 {a}，自建 {t}：日请求量高于 {even} 时租用 GPU 更便宜"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_follow_the_seed_rule_of_thumb() {
        assert_eq!(Band::of(0.1), Band::Low);
        assert_eq!(Band::of(0.41), Band::Moderate);
        assert_eq!(Band::of(0.6), Band::High);
        assert_eq!(Band::of(1.0), Band::Full);
    }

    #[test]
    fn advice_reads_like_the_seeds() {
        let a = Advice {
            utilization: 300.0 / 730.0,
            band: Band::Moderate,
            below_monthly_minimum: false,
            mode: Mode::OnDemand,
            next: Some((Mode::Monthly, 2.11)),
        };
        assert_eq!(a.text(false), "utilization 41%: on-demand, spot for batch work; chose on-demand; monthly would cost 2.1× more");
        // Monthly chosen below the minimum (cheaper even so): the advice does not say "never".
        let cheap_monthly = Advice {
            utilization: 0.3,
            band: Band::of(0.3),
            below_monthly_minimum: true,
            mode: Mode::Monthly,
            next: Some((Mode::OnDemand, 1.1)),
        };
        assert_eq!(
            cheap_monthly.text(false),
            "utilization 30%: on-demand, spot for batch work, below where monthly usually pays off; chose monthly; on-demand would cost 1.1× more"
        );
        assert!(!cheap_monthly.text(true).contains("不建议包月"));
        assert!(a.text(true).starts_with("利用率 41%"));
    }
}

//! The billing modes and the prices of a GPU offer, each stated once in a descriptor row: its
//! key (the JSON's and the formulas'), its labels in English and Chinese, whether it commits to
//! a term, the candidate formulas that price it and the prices it needs. Adding a mode is a
//! row here (and a variant, whose missing arms the compiler names) plus its formulas in
//! templates/formulas.tsv; the planner, the tabs and the JSON walk [`Mode::ALL`].

use crate::labels::Label;
use crate::lang::Lang;

/// A price column of the GPUs sheet, declared in the order of [`Price::ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Price {
    /// `on_demand_hourly`: per GPU-hour on demand.
    OnDemandHourly,
    /// `monthly`: per GPU per month.
    Monthly,
    /// `spot_hourly`: per GPU-hour on spot (interruptible) instances.
    SpotHourly,
    /// `reserved_monthly`: reserved (committed) price per GPU per month.
    ReservedMonthly,
    /// `purchase_price`: a card bought, once, with its share of the server (the owned mode).
    Purchase,
}

/// What a price is per: a GPU-hour, a GPU-month, or once (a card bought).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Per {
    /// Per GPU-hour (on-demand, spot).
    Hour,
    /// Per GPU-month (monthly, reserved).
    Month,
    /// Paid once (a purchase).
    Once,
}

/// A price column: its key on the GPUs sheet, the formula variable it binds on a candidate, the
/// formula flag that says the offer has it, and what it is per.
#[derive(Debug)]
pub struct PriceSpec {
    /// The price this row states.
    pub price: Price,
    /// The GPUs sheet's column: `on_demand_hourly`.
    pub key: &'static str,
    /// The candidate formula variable bound to the price: `price_on_demand` (0 when blank).
    pub input: &'static str,
    /// The candidate formula flag that is true when the offer has the price: `has_on_demand`.
    pub flag: &'static str,
    /// What the price is per.
    pub per: Per,
}

/// The price columns, in [`Price`]'s order.
pub const PRICES: [PriceSpec; 5] = [
    PriceSpec {
        price: Price::OnDemandHourly,
        key: "on_demand_hourly",
        input: "price_on_demand",
        flag: "has_on_demand",
        per: Per::Hour,
    },
    PriceSpec {
        price: Price::Monthly,
        key: "monthly",
        input: "price_monthly",
        flag: "has_monthly",
        per: Per::Month,
    },
    PriceSpec {
        price: Price::SpotHourly,
        key: "spot_hourly",
        input: "price_spot",
        flag: "has_spot",
        per: Per::Hour,
    },
    PriceSpec {
        price: Price::ReservedMonthly,
        key: "reserved_monthly",
        input: "price_reserved",
        flag: "has_reserved",
        per: Per::Month,
    },
    PriceSpec {
        price: Price::Purchase,
        key: "purchase_price",
        input: "price_purchase",
        flag: "has_purchase",
        per: Per::Once,
    },
];

impl Price {
    /// Every price, in declaration order (the order of [`PRICES`]).
    pub const ALL: [Price; 5] = [
        Price::OnDemandHourly,
        Price::Monthly,
        Price::SpotHourly,
        Price::ReservedMonthly,
        Price::Purchase,
    ];

    /// The price's row of [`PRICES`].
    pub fn spec(self) -> &'static PriceSpec {
        &PRICES[self as usize]
    }

    /// The GPUs sheet's column: `on_demand_hourly`.
    pub fn key(self) -> &'static str {
        self.spec().key
    }

    /// The price a GPUs column names; `None` for any other column.
    pub fn parse(key: &str) -> Option<Price> {
        Price::ALL.into_iter().find(|p| p.key() == key)
    }
}

/// What the hidden part of a mode's cost pays for (its own line in the TCO tab).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hidden {
    /// Billed time before useful work (`cold_start_min` per run) and billing rounding up to
    /// the granularity or the minimum rental.
    ColdStarts,
    /// Spot hours re-done after preemptions (`spot_rework`).
    Rework,
}

impl Hidden {
    /// Every hidden part, in declaration order.
    pub const ALL: [Hidden; 2] = [Hidden::ColdStarts, Hidden::Rework];
}

/// A billing mode, declared in the order of [`Mode::ALL`] and of [`MODES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `on_demand`: per GPU-hour for the hours run, each run with its cold start.
    OnDemand,
    /// `monthly`: the monthly price per GPU, whatever the hours.
    Monthly,
    /// `spot`: interruptible instances per GPU-hour plus re-done work; only where `spot_ok`.
    Spot,
    /// `reserved`: the reserved monthly price per GPU, committed for a term.
    Reserved,
    /// `mixed` (base + burst): monthly instances for `base_concurrency`, on-demand ones for
    /// the peak hours.
    Mixed,
    /// `owned`: cards bought, costed as depreciation, power and hosting a month.
    Owned,
}

/// A billing mode stated once.
#[derive(Debug)]
pub struct ModeSpec {
    /// The mode this row states.
    pub mode: Mode,
    /// The JSON's key and the formulas' suffix: `on_demand`.
    pub key: &'static str,
    /// Its name in English and Chinese: `on-demand`, `按量计费`.
    pub label: Label,
    /// What its cost is, for the Billing tab's column note.
    pub note: Label,
    /// The offer's prices it needs, every one of them, to be considered.
    pub prices: &'static [Price],
    /// Whether it commits to a month or a term whatever the use; base plus burst commits its
    /// base only, which [`crate::plan::Plan::committed`] prices apart.
    pub committed: bool,
    /// The candidate formulas of its cost and of whether it is allowed.
    pub cost: &'static str,
    /// The candidate formula that says whether the mode is allowed: `allow_on_demand`.
    pub allow: &'static str,
    /// Whether a Formulas sheet may lack them: a mode added after templates were written
    /// (owned) is then not priced, where a missing formula of the others is an error.
    pub optional: bool,
    /// The hidden parts of its cost and the candidate formula of each: cold starts and billing
    /// rounding for on-demand and base plus burst; for spot the same (a spot instance is billed
    /// as an on-demand one, #34 item 8) and the re-done hours; nothing for monthly and
    /// reserved.
    pub hidden: &'static [(Hidden, &'static str)],
}

/// The billing modes, in [`Mode`]'s order.
#[rustfmt::skip]
pub const MODES: [ModeSpec; 6] = [
    ModeSpec {
        mode: Mode::OnDemand,
        key: "on_demand",
        label: Label::new("on-demand", "按量计费"),
        note: Label::new("Each run's hours plus the cold start, rounded up to the billing granularity, at least the minimum rental.", "每次运行时长加冷启动，按计费粒度向上取整，且不少于最小起租时长。"),
        prices: &[Price::OnDemandHourly],
        committed: false,
        cost: "cost_on_demand",
        allow: "allow_on_demand",
        optional: false,
        hidden: &[(Hidden::ColdStarts, "cold_start_cost_on_demand")],
    },
    ModeSpec {
        mode: Mode::Monthly,
        key: "monthly",
        label: Label::new("monthly", "包月"),
        note: Label::new("The monthly price per GPU, whatever the hours.", "每卡包月价，与使用时长无关。"),
        prices: &[Price::Monthly],
        committed: true,
        cost: "cost_monthly",
        allow: "allow_monthly",
        optional: false,
        hidden: &[],
    },
    ModeSpec {
        mode: Mode::Spot,
        key: "spot",
        label: Label::new("spot", "竞价实例"),
        note: Label::new("Spot price × hours × (1 + spot_rework); only for workloads that tolerate interruptions.", "竞价价 × 小时 × (1 + 重跑比例)；仅限可中断任务。"),
        prices: &[Price::SpotHourly],
        committed: false,
        cost: "cost_spot",
        allow: "allow_spot",
        optional: false,
        hidden: &[(Hidden::ColdStarts, "cold_start_cost_spot"), (Hidden::Rework, "rework_cost_spot")],
    },
    ModeSpec {
        mode: Mode::Reserved,
        key: "reserved",
        label: Label::new("reserved", "预留实例"),
        note: Label::new("The reserved monthly price per GPU.", "每卡预留月价。"),
        prices: &[Price::ReservedMonthly],
        committed: true,
        cost: "cost_reserved",
        allow: "allow_reserved",
        optional: false,
        hidden: &[],
    },
    ModeSpec {
        mode: Mode::Mixed,
        key: "mixed",
        label: Label::new("base + burst", "包月保底 + 按量弹性"),
        note: Label::new("Monthly instances for the off-peak concurrency, on-demand ones during peak hours.", "非高峰并发用包月实例，高峰时段用按量实例。"),
        prices: &[Price::Monthly, Price::OnDemandHourly],
        committed: false,
        cost: "cost_mixed",
        allow: "allow_mixed",
        optional: false,
        hidden: &[(Hidden::ColdStarts, "cold_start_cost_mixed")],
    },
    ModeSpec {
        mode: Mode::Owned,
        key: "owned",
        label: Label::new("owned", "自建"),
        note: Label::new("Cards bought: each month's depreciation (purchase price less its residual share, over depreciation_months), power at the busy hours and idle power the rest of the month × pue × electricity_price, and hosting. The purchase itself is capital spent up front (the Summary).", "自购 GPU：每月折旧（购置价扣除残值比例后按 depreciation_months 分摊）、忙时功耗与其余时间的待机功耗 × pue × electricity_price，以及托管费。购置款本身为一次性资本支出（见总览）。"),
        prices: &[Price::Purchase],
        committed: true,
        cost: "cost_owned",
        allow: "allow_owned",
        optional: true,
        hidden: &[],
    },
];

// Each row where its mode's declaration puts it, each price's likewise.
const _: () = {
    let mut i = 0;
    while i < MODES.len() {
        assert!(MODES[i].mode as usize == i && Mode::ALL[i] as usize == i);
        i += 1;
    }
    let mut i = 0;
    while i < PRICES.len() {
        assert!(PRICES[i].price as usize == i && Price::ALL[i] as usize == i);
        i += 1;
    }
};

impl Mode {
    /// Every mode, in declaration order (the order of [`MODES`], the Billing tab and JSON).
    pub const ALL: [Mode; 6] = [
        Mode::OnDemand,
        Mode::Monthly,
        Mode::Spot,
        Mode::Reserved,
        Mode::Mixed,
        Mode::Owned,
    ];

    /// The mode's row of [`MODES`].
    pub fn spec(self) -> &'static ModeSpec {
        &MODES[self as usize]
    }

    /// The JSON's key and the formulas' suffix: `on_demand`, `mixed`.
    pub fn key(self) -> &'static str {
        self.spec().key
    }

    /// The mode's name in both languages: `on-demand` / `按量计费`, `base + burst`.
    pub fn name(self) -> Label {
        self.spec().label
    }

    /// The mode's name in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        self.name().get(lang)
    }

    /// Whether the mode commits to a month or a term whatever the use (monthly, reserved).
    pub fn is_committed(self) -> bool {
        self.spec().committed
    }

    /// What the hidden parts of this mode's cost pay for.
    pub fn hidden(self) -> impl Iterator<Item = Hidden> {
        self.spec().hidden.iter().map(|(h, _)| *h)
    }

    /// The candidate formula holding the hidden part `kind` of this mode's cost.
    pub fn hidden_formula(self, kind: Hidden) -> Option<&'static str> {
        self.spec()
            .hidden
            .iter()
            .find(|(h, _)| *h == kind)
            .map(|(_, f)| *f)
    }

    /// The mode a key (`on_demand`) or a label in either language (`on-demand`, `按量计费`) names.
    pub fn parse(text: &str) -> Option<Mode> {
        Mode::ALL
            .into_iter()
            .find(|m| m.key() == text || m.name().is(text))
    }

    /// Position in `Mode::ALL` (the declaration order).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether `offer` has every price the mode needs.
    pub fn is_priced(self, offer: &super::GpuOffer) -> bool {
        self.spec().prices.iter().all(|p| offer.price(*p).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_is_parsed_back_from_its_key_and_labels() {
        for m in Mode::ALL {
            assert_eq!(Mode::parse(m.key()), Some(m));
            assert_eq!(Mode::parse(m.name().en), Some(m));
            assert_eq!(Mode::parse(m.name().zh), Some(m));
        }
        assert_eq!(Mode::parse("包月保底 + 按量弹性"), Some(Mode::Mixed));
        assert_eq!(Price::parse("spot_hourly"), Some(Price::SpotHourly));
        assert_eq!(Price::parse("spot"), None);
    }

    #[test]
    fn every_mode_names_its_own_formulas() {
        for m in Mode::ALL {
            assert_eq!(m.spec().cost, format!("cost_{}", m.key()));
            assert_eq!(m.spec().allow, format!("allow_{}", m.key()));
            for (_, f) in m.spec().hidden {
                assert!(f.ends_with(m.key()), "{f}");
            }
        }
    }
}

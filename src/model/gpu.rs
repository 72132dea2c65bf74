//! A GPU offer: a GPU at a provider, its figures, prices and terms.

use super::*;

/// One GPU offer: a GPU model at a provider, prices per GPU.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GpuOffer {
    /// The GPU model's name (`gpu` column, `RTX 4090`); the catalog's figures fill blank
    /// specifications when it matches a built-in GPU.
    pub gpu: String,
    /// Who rents it (`provider` column); `example` on the built-in rows, whose prices are
    /// examples.
    pub provider: String,
    /// The software stack: `cuda`, `rocm`, `ascend` (templates/compat.tsv says what each runs).
    pub platform: String,
    /// Memory per card, GiB, as the driver reports it to an engine (a little under the data
    /// sheet's figure).
    pub vram_gib: f64,
    /// Memory bandwidth per card, GB/s.
    pub bandwidth_gbs: f64,
    /// Dense FP16/BF16 tensor TFLOPS per card (no sparsity).
    pub fp16_tflops: f64,
    /// Dense 8-bit tensor TFLOPS (FP8, or INT8 where the card has no FP8); 0 = unknown.
    pub fp8_tflops: f64,
    /// Dense 16-bit tensor TFLOPS accumulating in 16 bits where it differs from `fp16_tflops`
    /// (GeForce cards: twice); 0 = the same as `fp16_tflops`.
    pub fp16_acc16_tflops: f64,
    /// CUDA compute capability; 0 on other platforms.
    pub compute_capability: f64,
    /// Whether the cards of a node are linked by NVLink (`nvlink` column).
    pub nvlink: bool,
    /// GB/s between the GPUs of a node, both directions (NVLink, Infinity Fabric, HCCS, PCIe).
    pub interconnect_gbs: f64,
    /// Most cards one instance (node) can have, a whole number ≥ 1; default 8.
    pub gpus_per_node: f64,
    /// GB/s between nodes (RDMA), when the provider says; `None` = unknown.
    pub node_interconnect_gbs: Option<f64>,
    /// Price per GPU-hour on demand, in the plan's currency; `None`: not offered.
    pub on_demand_hourly: Option<f64>,
    /// Price per GPU per month, in the plan's currency; `None`: not offered.
    pub monthly: Option<f64>,
    /// Price per GPU-hour on spot (interruptible) instances; `None`: not offered.
    pub spot_hourly: Option<f64>,
    /// Reserved (committed) price per GPU per month; `None`: not offered.
    pub reserved_monthly: Option<f64>,
    /// A card bought: its price with its share of the server (`None`: not for sale), the months
    /// it is depreciated over, the share of the price it resells for, its board power (W;
    /// `None`: unknown) and its rack or colocation fee a month.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purchase_price: Option<f64>,
    /// Months an owned card is written off over, > 0; default 36.
    pub depreciation_months: f64,
    /// Share of the purchase price an owned card resells for after depreciation, 0–0.99;
    /// default 0.
    pub residual_share: f64,
    /// Board power of one card at work, W; `None`: unknown (the owned mode needs it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power_w: Option<f64>,
    /// Rack, colocation or office cost per owned card a month, in the plan's currency;
    /// default 0.
    pub hosting_monthly: f64,
    /// How often a spot instance of the offer is reclaimed, per day; `None`: the Assumption
    /// `spot_interruptions_per_day`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spot_interruptions_per_day: Option<f64>,
    /// Months a reserved price commits to (blank: not stated, shown month by month).
    pub reserved_term_months: Option<f64>,
    /// Minutes on-demand and spot time is billed up to a multiple of: 60 per hour, 1 per
    /// minute, 0.0167 per second; default 60.
    pub billing_granularity_min: f64,
    /// Least minutes billed per start; default 0.
    pub min_rental_min: f64,
    /// `available` column: false keeps the row but the planner skips it; default true.
    pub available: bool,
    /// Where the row is, when it came from the user's sheet.
    pub cell: Option<CellRef>,
    /// A quote in another currency than the plan's: its code, the rate it was converted at
    /// (the plan's currency per unit of it) and the cell of its currency. The prices above are
    /// the converted ones.
    #[serde(skip)]
    pub quoted_in: Option<(String, f64, String)>,
}

impl GpuOffer {
    /// The provider of the built-in catalog's offers, whose prices are examples, not quotes.
    pub const EXAMPLE_PROVIDER: &'static str = "example";

    /// Whether its prices are the built-in examples (provider `example`).
    pub fn is_example(&self) -> bool {
        self.provider == Self::EXAMPLE_PROVIDER
    }

    /// The numeric columns of the GPUs sheet.
    pub const NUMERIC: [&'static str; 22] = [
        "vram_gib",
        "bandwidth_gbs",
        "fp16_tflops",
        "fp8_tflops",
        "fp16_acc16_tflops",
        "interconnect_gbs",
        "node_interconnect_gbs",
        "compute_capability",
        "gpus_per_node",
        "on_demand_hourly",
        "monthly",
        "spot_hourly",
        "reserved_monthly",
        "spot_interruptions_per_day",
        "purchase_price",
        "depreciation_months",
        "residual_share",
        "power_w",
        "hosting_monthly",
        "billing_granularity_min",
        "reserved_term_months",
        "min_rental_min",
    ];

    /// Sets a numeric column of the offer (a price, a term, a specification); false, and
    /// nothing set, for a key that is not one of [`GpuOffer::NUMERIC`].
    pub fn set_number(&mut self, key: &str, v: f64) -> bool {
        if !Self::NUMERIC.contains(&key) {
            return false;
        }
        self.set_column(key, v);
        true
    }

    /// Sets a numeric column of [`GpuOffer::NUMERIC`] (any other key is a price, and ignored
    /// when it is not one).
    pub fn set_column(&mut self, key: &str, v: f64) {
        match key {
            "vram_gib" => self.vram_gib = v,
            "bandwidth_gbs" => self.bandwidth_gbs = v,
            "fp16_tflops" => self.fp16_tflops = v,
            "compute_capability" => self.compute_capability = v,
            "fp8_tflops" => self.fp8_tflops = v,
            "fp16_acc16_tflops" => self.fp16_acc16_tflops = v,
            "interconnect_gbs" => self.interconnect_gbs = v,
            "node_interconnect_gbs" => self.node_interconnect_gbs = Some(v),
            "gpus_per_node" => self.gpus_per_node = v,
            "billing_granularity_min" => self.billing_granularity_min = v,
            "min_rental_min" => self.min_rental_min = v,
            "reserved_term_months" => self.reserved_term_months = Some(v),
            "spot_interruptions_per_day" => self.spot_interruptions_per_day = Some(v),
            "depreciation_months" => self.depreciation_months = v,
            "residual_share" => self.residual_share = v,
            "power_w" => self.power_w = Some(v),
            "hosting_monthly" => self.hosting_monthly = v,
            price => self.set_price(price, Some(v)),
        }
    }

    /// Sets a price of the offer by its column; `None` is not offered. Any other key is
    /// ignored.
    pub fn set_price(&mut self, key: &str, v: Option<f64>) {
        if let Some(p) = Price::parse(key) {
            *self.price_mut(p) = v;
        }
    }

    /// A price of the offer; `None` where the mode is not offered.
    pub fn price(&self, p: Price) -> Option<f64> {
        match p {
            Price::OnDemandHourly => self.on_demand_hourly,
            Price::Monthly => self.monthly,
            Price::SpotHourly => self.spot_hourly,
            Price::ReservedMonthly => self.reserved_monthly,
            Price::Purchase => self.purchase_price,
        }
    }

    /// The slot of a price of the offer, to set or clear it (`None`: not offered).
    pub fn price_mut(&mut self, p: Price) -> &mut Option<f64> {
        match p {
            Price::OnDemandHourly => &mut self.on_demand_hourly,
            Price::Monthly => &mut self.monthly,
            Price::SpotHourly => &mut self.spot_hourly,
            Price::ReservedMonthly => &mut self.reserved_monthly,
            Price::Purchase => &mut self.purchase_price,
        }
    }

    /// The formula variables of an offer's prices and billing terms, in the order of
    /// [`GpuOffer::terms`]: the planner binds them, the Plan tab writes them as editable inputs.
    pub const TERMS: [&'static str; 7] = [
        "price_on_demand",
        "price_monthly",
        "price_spot",
        "price_reserved",
        "price_purchase",
        "billing_granularity_min",
        "min_rental_min",
    ];

    /// The offer's prices (None where not offered) and billing terms, as named by `TERMS`.
    pub fn terms(&self) -> [Option<f64>; 7] {
        let [a, b, c, d, e] = Price::ALL.map(|p| self.price(p));
        [
            a,
            b,
            c,
            d,
            e,
            Some(self.billing_granularity_min),
            Some(self.min_rental_min),
        ]
    }

    /// Whether `name` (normalized) names this offer: its GPU (`rtx4090`) or its label
    /// (`RTX 4090 @ example`).
    pub fn is_named(&self, name: &str) -> bool {
        normalize(&self.gpu) == name || normalize(&self.label()) == name
    }

    /// `RTX 4090 @ example`.
    pub fn label(&self) -> String {
        if self.provider.is_empty() {
            self.gpu.clone()
        } else {
            format!("{} @ {}", self.gpu, self.provider)
        }
    }
}

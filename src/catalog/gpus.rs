//! templates/gpus.tsv: the built-in GPU offers (example prices), and a GPU found by a loose
//! name.

use super::{field, num, opt_num, plain_default, records};
use crate::model::{normalize, GpuOffer};

pub(super) const GPUS_TSV: &str = include_str!("../../templates/gpus.tsv");

/// The built-in GPU offers (example prices, provider `example`).
pub fn gpus() -> Vec<GpuOffer> {
    records(GPUS_TSV)
        .iter()
        .map(|r| GpuOffer {
            gpu: field(r, "gpu").to_string(),
            provider: field(r, "provider").to_string(),
            platform: field(r, "platform").to_string(),
            vram_gib: num(r, "vram_gib"),
            bandwidth_gbs: num(r, "bandwidth_gbs"),
            fp16_tflops: num(r, "fp16_tflops"),
            fp8_tflops: num(r, "fp8_tflops"),
            fp16_acc16_tflops: num(r, "fp16_acc16_tflops"),
            compute_capability: num(r, "compute_capability"),
            nvlink: field(r, "nvlink") == "yes",
            interconnect_gbs: num(r, "interconnect_gbs"),
            gpus_per_node: num(r, "gpus_per_node"),
            node_interconnect_gbs: opt_num(r, "node_interconnect_gbs"),
            on_demand_hourly: opt_num(r, crate::model::Price::OnDemandHourly.key()),
            monthly: opt_num(r, crate::model::Price::Monthly.key()),
            spot_hourly: opt_num(r, crate::model::Price::SpotHourly.key()),
            reserved_monthly: opt_num(r, crate::model::Price::ReservedMonthly.key()),
            reserved_term_months: None,
            spot_interruptions_per_day: None,
            purchase_price: None,
            depreciation_months: plain_default("GPUs", "depreciation_months")
                .and_then(|d| d.parse().ok())
                .unwrap_or(36.0),
            residual_share: 0.0,
            power_w: opt_num(r, "power_w"),
            hosting_monthly: 0.0,
            billing_granularity_min: num(r, "billing_granularity_min"),
            min_rental_min: num(r, "min_rental_min"),
            available: field(r, "available") != "no",
            cell: None,
            quoted_in: None,
        })
        .collect()
}

/// The built-in GPU whose name matches `name` loosely (`rtx4090`, `4090`, `A100 80G`).
pub fn find_gpu(name: &str) -> Option<GpuOffer> {
    let n = normalize(name);
    let all = gpus();
    all.iter()
        .find(|g| normalize(&g.gpu) == n)
        .or_else(|| {
            all.iter().find(|g| {
                normalize(&g.gpu).trim_start_matches("rtx") == n.trim_start_matches("rtx")
            })
        })
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_names_match_loosely() {
        // The RTX 4090's 24 GB as the driver reports it to an engine.
        assert_eq!(find_gpu("4090").map(|g| g.vram_gib), Some(23.64));
        assert_eq!(
            find_gpu("a100 80g").map(|g| g.gpu),
            Some("A100-80G".to_string())
        );
        assert!(find_gpu("Voodoo 2").is_none());
    }
}

//! Writes a large, realistic input workbook for benchmarks: mixed kinds, models, contexts and
//! concurrencies; offers of every catalog GPU at several providers with varied prices.
//!
//!     cargo run --release --example gen -- --workloads 1000 --offers 100 -o /tmp/big.xlsx

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark tool: a failure is a crash with a message

use rust_xlsxwriter::Workbook;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next() % xs.len() as u64) as usize]
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let get = |flag: &str, default: &str| -> String {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
            .unwrap_or_else(|| default.to_string())
    };
    let workloads: usize = get("--workloads", "1000").parse()?;
    let offers: usize = get("--offers", "100").parse()?;
    let out = get("-o", "big.xlsx");
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);

    let mut wb = Workbook::new();
    let ws = wb.add_worksheet();
    ws.set_name("Workloads")?;
    let cols = [
        "name",
        "kind",
        "model",
        "context_len",
        "concurrency",
        "base_concurrency",
        "peak_hours_per_day",
        "batch_size",
        "hours_per_month",
        "runs_per_month",
        "storage_gb",
        "egress_gb",
    ];
    ws.write_row(0, 0, cols)?;
    let llms = [
        "Qwen2.5-7B",
        "Llama-3.1-8B",
        "Mistral-7B",
        "Qwen2.5-14B",
        "GLM-4-9B",
        "Llama-2-7B",
        "Qwen2.5-32B",
        "Qwen2.5-0.5B",
        "DeepSeek-R1-Distill-Qwen-7B",
        "Llama-3.1-70B",
    ];
    let images = ["SD1.5", "SDXL", "FLUX.1-dev"];
    for i in 0..workloads {
        let r = i as u32 + 1;
        let roll = rng.unit();
        let kind = if roll < 0.5 {
            "inference"
        } else if roll < 0.65 {
            "lora"
        } else if roll < 0.75 {
            "qlora"
        } else if roll < 0.8 {
            "full_finetune"
        } else if roll < 0.9 {
            "image_gen"
        } else {
            "batch"
        };
        ws.write_string(r, 0, format!("{kind}-{i:05}"))?;
        ws.write_string(r, 1, kind)?;
        let model = if kind == "image_gen" {
            *rng.pick(&images)
        } else {
            *rng.pick(&llms)
        };
        ws.write_string(r, 2, model)?;
        let training = matches!(kind, "lora" | "qlora" | "full_finetune");
        let ctx = if training {
            *rng.pick(&[1024.0, 2048.0, 4096.0])
        } else {
            *rng.pick(&[2048.0, 4096.0, 8192.0, 16384.0, 32768.0])
        };
        ws.write_number(r, 3, ctx)?;
        if kind == "inference" || kind == "image_gen" {
            let c = (1.0 + rng.unit() * 120.0).round();
            ws.write_number(r, 4, c)?;
            if rng.unit() < 0.4 {
                ws.write_number(r, 5, (c * 0.4).round())?;
                ws.write_number(r, 6, *rng.pick(&[4.0, 6.0, 8.0, 10.0]))?;
            }
        } else {
            ws.write_number(r, 7, *rng.pick(&[1.0, 2.0, 4.0]))?;
            ws.write_number(r, 8, (8.0 + rng.unit() * 300.0).round())?;
            ws.write_number(r, 9, *rng.pick(&[1.0, 2.0, 4.0, 10.0, 30.0]))?;
        }
        ws.write_number(r, 10, (rng.unit() * 500.0).round())?;
        ws.write_number(r, 11, (rng.unit() * 200.0).round())?;
    }

    let ws = wb.add_worksheet();
    ws.set_name("GPUs")?;
    let gcols = [
        "gpu",
        "provider",
        "on_demand_hourly",
        "monthly",
        "spot_hourly",
        "reserved_monthly",
        "billing_granularity_min",
        "min_rental_min",
    ];
    ws.write_row(0, 0, gcols)?;
    let catalog = gpuplan::catalog::gpus();
    let providers = [
        "alpha", "bravo", "cloudy", "delta", "echo", "foxtrot", "gamma",
    ];
    for i in 0..offers {
        let r = i as u32 + 1;
        let g = &catalog[i % catalog.len()];
        let provider = format!(
            "{}-{}",
            providers[(i / catalog.len()) % providers.len()],
            i / (catalog.len() * providers.len())
        );
        let f = 0.8 + rng.unit() * 0.4;
        ws.write_string(r, 0, &g.gpu)?;
        ws.write_string(r, 1, &provider)?;
        let od = g.on_demand_hourly.unwrap_or(5.0) * f;
        ws.write_number(r, 2, (od * 100.0).round() / 100.0)?;
        if rng.unit() < 0.8 {
            ws.write_number(r, 3, (od * 730.0 * 0.65).round())?;
        }
        if rng.unit() < 0.6 {
            ws.write_number(r, 4, (od * 0.45 * 100.0).round() / 100.0)?;
        }
        if rng.unit() < 0.5 {
            ws.write_number(r, 5, (od * 730.0 * 0.55).round())?;
        }
        ws.write_number(r, 6, *rng.pick(&[1.0, 60.0, 0.0167]))?;
        ws.write_number(r, 7, *rng.pick(&[0.0, 10.0, 60.0]))?;
    }
    wb.save(&out)?;
    println!(
        "wrote {out}: {workloads} workloads × {offers} offers = {} candidates",
        workloads * offers
    );
    Ok(())
}

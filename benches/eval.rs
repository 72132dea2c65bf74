//! Formula evaluation throughput: every candidate formula of the default set, evaluated for the
//! workloads of samples/startup.xlsx on the built-in GPU offers, single-threaded.
//!
//!     cargo bench --bench eval

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark tool: a failure is a crash with a message

use gpuplan::plan::Programs;
use std::time::Instant;

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/startup.xlsx");
    let mut input = gpuplan::read::read(&path, &[]).expect("read sample");
    input.gpus = gpuplan::catalog::gpus();
    let programs = Programs::compile(&input).expect("compile");
    let formulas = programs.candidate.order.len();
    let mut scratch = programs.candidate.scratch();
    // The formulas that depend on no GPU figure are evaluated once per workload, here.
    let bases: Vec<Vec<f64>> = input
        .workloads
        .iter()
        .map(|w| {
            programs
                .workload_values(&input, w, &mut scratch)
                .expect("workload")
        })
        .collect();
    let per_offer = programs.offer_formulas();
    let mut values = bases[0].clone();
    let mut evals = 0u64;
    let mut checksum = 0.0;
    let probe = programs
        .candidate
        .slot("total_vram_gib")
        .expect("total_vram_gib");
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < 3.0 {
        for (w, base) in input.workloads.iter().zip(&bases) {
            for offer in 0..input.gpus.len() {
                values.copy_from_slice(base);
                programs
                    .evaluate(&input, w, offer, 1.0, &mut values, &mut scratch)
                    .expect("evaluate");
                checksum += values[probe];
                evals += per_offer as u64;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let candidates = evals / per_offer as u64;
    println!(
        "{per_offer} of {formulas} formulas per candidate × {candidates} candidates in {secs:.2} s: {:.1} M formula evaluations/s, {:.0} k candidates/s (checksum {checksum:.3e})",
        evals as f64 / secs / 1e6,
        candidates as f64 / secs / 1e3
    );
}

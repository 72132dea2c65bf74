//! Any bytes as a workbook: reading, and planning what reads, must never panic or abort.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(input) = gpuplan::read::read_bytes(std::path::Path::new("fuzz.xlsx"), data.to_vec(), &[]) {
        let _ = gpuplan::plan::plan(input);
    }
});

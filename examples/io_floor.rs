//! gpuplan's own I/O floor: only read INPUT with calamine, and only write the cells of PLAN (a
//! gpuplan output, loaded beforehand and not timed) with rust_xlsxwriter, as plainly as possible.
//!
//!     cargo run --release --example io_floor -- INPUT PLAN

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark tool: a failure is a crash with a message

use calamine::{Data, Reader, Xlsx};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (input, plan) = (&args[1], &args[2]);
    // The output's cells, loaded before the clock starts.
    let mut out: Xlsx<_> = calamine::open_workbook(plan)?;
    let sheets: Vec<(String, calamine::Range<Data>)> = out
        .sheet_names()
        .into_iter()
        .map(|n| {
            let r = out.worksheet_range(&n);
            (n, r)
        })
        .filter_map(|(n, r)| r.ok().map(|r| (n, r)))
        .collect();

    let start = Instant::now();
    let mut wb: Xlsx<_> = calamine::open_workbook(input)?;
    let mut cells = 0usize;
    for name in wb.sheet_names() {
        let mut reader = wb.worksheet_cells_reader(&name)?;
        while reader.next_cell()?.is_some() {
            cells += 1;
        }
    }
    let read = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let mut w = rust_xlsxwriter::Workbook::new();
    w.set_zip_compression_level(2);
    let mut written = 0usize;
    for (name, range) in &sheets {
        let ws = w.add_worksheet_with_constant_memory()?;
        ws.set_name(name)?;
        for (r, row) in range.rows().enumerate() {
            for (c, v) in row.iter().enumerate() {
                match v {
                    Data::Float(f) => {
                        ws.write_number(r as u32, c as u16, *f)?;
                    }
                    Data::String(s) => {
                        ws.write_string(r as u32, c as u16, s)?;
                    }
                    Data::Bool(b) => {
                        ws.write_boolean(r as u32, c as u16, *b)?;
                    }
                    _ => continue,
                }
                written += 1;
            }
        }
    }
    w.save("/tmp/gpuplan-io-floor.xlsx")?;
    let write = start.elapsed().as_secs_f64();
    println!("io floor: read {cells} cells in {read:.3}s, write {written} cells in {write:.3}s, total {:.3}s", read + write);
    Ok(())
}

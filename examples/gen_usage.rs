//! Writes a large nvidia-smi usage log for the `gpuplan usage` benchmark: `--query-gpu=timestamp,
//! index,uuid,name,utilization.gpu,memory.used,memory.total --format=csv` with units, one row per
//! GPU per sample, utilization and memory varying as a busy cluster's do.
//!
//!     cargo run --release --example gen_usage -- --days 30 --gpus 8 --interval 1 -o /tmp/month.csv
//!
//! 30 days of 1-second samples on 8 GPUs are 20,736,000 rows (about 2.4 GB).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark tool: a failure is a crash with a message

use std::io::Write;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// `n` in decimal into `out`.
fn push_int(out: &mut Vec<u8>, n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

fn push2(out: &mut Vec<u8>, n: u64) {
    out.push(b'0' + (n / 10) as u8);
    out.push(b'0' + (n % 10) as u8);
}

/// `YYYY/MM/DD` of a day after 1970-01-01 (gpuplan's civil date, with nvidia-smi's slashes).
fn date(days: i64) -> String {
    gpuplan::support::time::civil_date(days * 86_400).replace('-', "/")
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
    let days: u64 = get("--days", "30").parse()?;
    let gpus: u64 = get("--gpus", "8").parse()?;
    let interval: u64 = get("--interval", "1").parse()?;
    let out = get("-o", "usage.csv");
    let file = std::fs::File::create(&out)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    w.write_all(b"timestamp, index, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n")?;
    let uuids: Vec<String> = (0..gpus)
        .map(|g| {
            format!(
                "GPU-{:08x}-8d4b-4c6f-9a1e-{:012x}",
                0x5f1c_3a2e + g,
                0x2b7d_3c4e_5f60 + g
            )
        })
        .collect();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    // 2026-11-02 is day 20,759.
    let first_day = 20_759i64;
    let mut line = Vec::with_capacity(256);
    let mut rows: u64 = 0;
    let mut bytes: u64 = 0;
    // Each GPU alternates busy and idle stretches of a few minutes to a few hours.
    let mut busy_left = vec![0u64; gpus as usize];
    let mut busy = vec![false; gpus as usize];
    for day in 0..days {
        let d = date(first_day + day as i64);
        let mut s = 0;
        while s < 86_400 {
            for g in 0..gpus as usize {
                if busy_left[g] == 0 {
                    busy[g] = !busy[g];
                    busy_left[g] = 60 + rng.next() % 14_400;
                }
                busy_left[g] = busy_left[g].saturating_sub(interval);
                let r = rng.next();
                let (util, mem) = if busy[g] {
                    (50 + r % 51, 30_000 + (r >> 8) % 40_000)
                } else {
                    (r % 6, 500 + (r >> 8) % 2_000)
                };
                line.clear();
                line.extend_from_slice(d.as_bytes());
                line.push(b' ');
                push2(&mut line, s / 3600);
                line.push(b':');
                push2(&mut line, s / 60 % 60);
                line.push(b':');
                push2(&mut line, s % 60);
                line.push(b'.');
                push_int(&mut line, 100 + (g as u64 * 37 + r % 11) % 900);
                line.extend_from_slice(b", ");
                push_int(&mut line, g as u64);
                line.extend_from_slice(b", ");
                line.extend_from_slice(uuids[g].as_bytes());
                line.extend_from_slice(b", NVIDIA A100-SXM4-80GB, ");
                push_int(&mut line, util);
                line.extend_from_slice(b" %, ");
                push_int(&mut line, mem);
                line.extend_from_slice(b" MiB, 81920 MiB\n");
                w.write_all(&line)?;
                rows += 1;
                bytes += line.len() as u64;
            }
            s += interval;
        }
    }
    w.flush()?;
    println!("{rows} rows, {bytes} bytes: {out}");
    Ok(())
}

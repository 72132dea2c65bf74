//! The provenance stamp of a plan (Summary and JSON): when it was made, by which gpuplan, from
//! which input (name and SHA-256 of its bytes) and with which `--set` values, so that a workbook
//! found in a mail months later says what produced it.

use crate::support::time;
use sha2::{Digest, Sha256};

/// Excel refuses a cell text past 32,767 characters; the `--set` summary stays well under it.
const MAX_SETS_TEXT: usize = 30_000;

/// What made a plan.
#[derive(Debug, Clone)]
pub struct Provenance {
    /// Seconds since the Unix epoch: `SOURCE_DATE_EPOCH` when set (reproducible builds), else now.
    pub generated: i64,
    /// The gpuplan version that made the plan (the crate's `CARGO_PKG_VERSION`, without the
    /// commit).
    pub version: &'static str,
    /// The input as named on the command line.
    pub input: String,
    /// SHA-256 of the input's bytes, lowercase hex.
    pub input_sha256: String,
    /// Each key given with `--set` and its final value, in the order first given.
    pub sets: Vec<(String, String)>,
    /// The other options that shaped the plan, as `(option, value)`: `--usage` with the days
    /// its logs cover and their first and last sample times (`logs from`, `logs to`), `--map`,
    /// `--bills`, `--compare`, and `--samples` with `--seed` where the input has ranges
    /// (#34 item 13).
    pub options: Vec<(String, String)>,
}

impl Provenance {
    /// The stamp of a run now, from the input's name and digest and the `--set` arguments as
    /// typed (`key=value`); a key set twice keeps its last value at its first place.
    pub fn new(input: &str, input_sha256: &str, sets: &[String]) -> Provenance {
        Provenance::at(time::generation_time(), input, input_sha256, sets)
    }

    /// The stamp of a run made at `generated` (Unix seconds): the caller's clock, as in a
    /// browser, where the engine has none.
    pub fn at(generated: i64, input: &str, input_sha256: &str, sets: &[String]) -> Provenance {
        let mut kept: Vec<(String, String)> = Vec::new();
        for s in sets {
            let (k, v) = s.split_once('=').unwrap_or((s.as_str(), ""));
            let (k, v) = (k.trim().to_string(), v.trim().to_string());
            match kept.iter_mut().find(|(x, _)| *x == k) {
                Some(slot) => slot.1 = v,
                None => kept.push((k, v)),
            }
        }
        Provenance {
            generated,
            version: env!("CARGO_PKG_VERSION"),
            input: input.to_string(),
            input_sha256: input_sha256.to_string(),
            sets: kept,
            options: Vec::new(),
        }
    }

    /// The generation time as ISO 8601 in UTC, `2026-12-02T20:13:28Z`.
    pub fn generated_iso(&self) -> String {
        time::iso_datetime(self.generated)
    }

    /// The `--set` values as one line, `key=value; key=value`, summarised past
    /// `MAX_SETS_TEXT` (30,000) characters as `… and N more`; `none` when there are none.
    pub fn sets_text(&self) -> String {
        joined(
            self.sets.iter().map(|(k, v)| format!("{k}={v}")),
            self.sets.len(),
        )
    }

    /// The other options as one line, `--usage a.csv; --seed 1`, summarised as the `--set`
    /// values are (between items, never inside a file name); `none` when there are none.
    pub fn options_text(&self) -> String {
        joined(
            self.options.iter().map(|(k, v)| format!("{k} {v}")),
            self.options.len(),
        )
    }
}

/// `items` (`n` of them) joined by `; ` up to [`MAX_SETS_TEXT`] characters, then `… and N more`;
/// `none` when there are none.
fn joined(items: impl Iterator<Item = String>, n: usize) -> String {
    if n == 0 {
        return "none".to_string();
    }
    let mut out = String::new();
    for (i, item) in items.enumerate() {
        let sep = if out.is_empty() { "" } else { "; " };
        if out.chars().count() + sep.len() + item.chars().count() > MAX_SETS_TEXT {
            out.push_str(&format!("; … and {} more", n - i));
            break;
        }
        out.push_str(sep);
        out.push_str(&item);
    }
    out
}

/// SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_inputs() {
        // FIPS 180-2 test vectors.
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_key_set_twice_keeps_its_last_value_at_its_first_place() {
        let p = Provenance::new(
            "b.xlsx",
            "00",
            &[
                "safety_margin=0.3".into(),
                "gpu:A10.on_demand_hourly = 5.5".into(),
                "safety_margin=0.25".into(),
            ],
        );
        assert_eq!(
            p.sets,
            vec![
                ("safety_margin".to_string(), "0.25".to_string()),
                ("gpu:A10.on_demand_hourly".to_string(), "5.5".to_string()),
            ]
        );
        assert_eq!(
            p.sets_text(),
            "safety_margin=0.25; gpu:A10.on_demand_hourly=5.5"
        );
        assert_eq!(Provenance::new("b.xlsx", "00", &[]).sets_text(), "none");
    }

    #[test]
    fn a_long_set_list_is_summarised_under_excels_cell_limit() {
        // 5,000 keys of 20 characters each (`k0000=...` padded) would be about 110,000 characters.
        let sets: Vec<String> = (0..5000)
            .map(|i| format!("w{i:04}.concurrency={:>10}", i))
            .collect();
        let p = Provenance::new("b.xlsx", "00", &sets);
        let text = p.sets_text();
        assert!(text.chars().count() <= MAX_SETS_TEXT + 40, "{}", text.len());
        assert!(text.ends_with(" more"), "{}", &text[text.len() - 40..]);
        assert!(text.starts_with("w0000.concurrency="));
    }

    #[test]
    fn a_long_usage_list_is_cut_between_files_not_inside_a_name() {
        // 1,000 logs of a 39-character path (21 of name, 18 spaces): "--usage " + 39 = 47
        // characters an item, 49 with the "; " before it. 47 + 49 × 611 = 29,986 ≤ 30,000 and
        // one more would be 30,035: 612 items fit, 388 are summarised.
        let mut p = Provenance::new("b.xlsx", "00", &[]);
        p.options = (0..1000)
            .map(|i| {
                (
                    "--usage".to_string(),
                    format!("logs/node{i:04}.smi.csv{:>18}", ""),
                )
            })
            .collect();
        let text = p.options_text();
        assert!(
            text.ends_with("; … and 388 more"),
            "{}",
            &text[text.len() - 60..]
        );
        let items: Vec<&str> = text.split("; ").collect();
        assert_eq!(items.len(), 613);
        assert!(items[..612].iter().all(|i| i.chars().count() == 47));
        assert_eq!(Provenance::new("b.xlsx", "00", &[]).options_text(), "none");
    }
}

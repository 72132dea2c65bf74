//! The draws of the samples: a seeded generator that never changes, a value from a Ranges
//! row's range, and the quantiles of the sampled budgets.

use crate::model::RangeDef;

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny generator whose sequence for a seed never
/// changes with a dependency update, so `--seed` reproduces a run on any version. The fleet's
/// property test and benchmark draw their portfolios from it too.
pub struct SplitMix(pub u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1): the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A whole number below `n` (1 or more).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A draw from the range: uniform, or triangular with mode `likely` (inverse CDF).
fn draw(r: &RangeDef, u: f64) -> f64 {
    let (a, b) = (r.low, r.high);
    if b <= a {
        return a;
    }
    match r.likely {
        None => a + u * (b - a),
        Some(c) => {
            let fc = (c - a) / (b - a);
            if u < fc {
                a + (u * (b - a) * (c - a)).sqrt()
            } else {
                b - ((1.0 - u) * (b - a) * (b - c)).sqrt()
            }
        }
    }
}

/// The `p` quantile of sorted values, interpolating between order statistics (Hyndman and Fan's
/// type 7, the default of R and NumPy).
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// The values of every key for each of `samples` samples, drawn in order from one generator
/// seeded with `seed` (whole-number keys rounded): the same seed gives the same samples
/// whatever the number of threads that plan them.
pub(super) fn draw_samples(
    ranges: &[RangeDef],
    whole: &[bool],
    samples: usize,
    seed: u64,
) -> Vec<Vec<f64>> {
    let mut rng = SplitMix(seed);
    (0..samples)
        .map(|_| {
            ranges
                .iter()
                .zip(whole)
                .map(|(r, w)| {
                    let v = draw(r, rng.unit());
                    if *w {
                        v.round()
                    } else {
                        v
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::change::Target;

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0];
        // h = 4 × 0.1 = 0.4: 1 + 0.4 × (2 − 1) = 1.4; the median is 3; h = 3.6: 4.6.
        assert!((quantile(&x, 0.1) - 1.4).abs() < 1e-12);
        assert_eq!(quantile(&x, 0.5), 3.0);
        assert!((quantile(&x, 0.9) - 4.6).abs() < 1e-12);
    }

    #[test]
    fn splitmix_gives_its_published_first_values() {
        // SplitMix64 seeded with 0 (the reference sequence of Vigna's splitmix64.c).
        let mut r = SplitMix(0);
        assert_eq!(r.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn triangular_draws_follow_the_inverse_cdf() {
        let r = RangeDef {
            key: "k".into(),
            target: Target::Assumption,
            column: "k".into(),
            whole: false,
            low: 0.0,
            high: 10.0,
            likely: Some(2.0),
            cell: String::new(),
        };
        // F(2) = 0.2: u = 0.2 gives the mode; u = 0.05 gives sqrt(0.05 × 10 × 2) = 1;
        // u = 0.6 gives 10 − sqrt(0.4 × 10 × 8) = 10 − sqrt(32).
        assert!((draw(&r, 0.2) - 2.0).abs() < 1e-12);
        assert!((draw(&r, 0.05) - 1.0).abs() < 1e-12);
        assert!((draw(&r, 0.6) - (10.0 - 32f64.sqrt())).abs() < 1e-12);
        let u = RangeDef { likely: None, ..r };
        assert_eq!(draw(&u, 0.25), 2.5);
    }
}

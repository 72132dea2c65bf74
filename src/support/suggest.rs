//! "Did you mean …?": the closest known names to a misspelt one, for error messages.

/// Edit distance between two strings, case-insensitive.
fn distance(a: &str, b: &str) -> usize {
    strsim::levenshtein(&a.to_lowercase(), &b.to_lowercase())
}

/// Up to three known names close to `name`, best first.
pub fn closest<'a, I>(name: &str, known: I) -> Vec<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let limit = (name.chars().count() / 3).max(2);
    let lower = name.to_lowercase();
    let mut scored: Vec<(usize, &'a str)> = known
        .into_iter()
        .filter_map(|k| {
            let d = distance(name, k);
            let kl = k.to_lowercase();
            let related = lower.len() >= 3 && (kl.contains(&lower) || lower.contains(&kl));
            (d <= limit || related).then_some((if related { d.min(limit) } else { d }, k))
        })
        .collect();
    scored.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(b.1)));
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, k)| k).collect()
}

/// `; did you mean a, b?` or nothing.
pub fn hint<'a, I>(name: &str, known: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    let c = closest(name, known);
    if c.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", c.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelt_names_find_their_neighbours() {
        let known = ["weights_gib", "kv_cache_gib", "concurrency", "gpus_total"];
        assert_eq!(closest("wieghts_gib", known), vec!["weights_gib"]);
        assert_eq!(closest("concurency", known), vec!["concurrency"]);
        assert!(closest("zzz", known).is_empty());
        assert_eq!(hint("gpus_totl", known), "; did you mean gpus_total?");
    }
}

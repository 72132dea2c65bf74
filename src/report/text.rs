//! Text helpers of the terminal outputs: aligned tables by terminal columns, CSV, colour.

/// Whether to colour output: a terminal, and no `NO_COLOR`.
pub fn use_color<T: std::io::IsTerminal>(stream: &T) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Terminal columns `s` takes (a CJK character two, an en dash one).
pub(super) fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

pub(super) fn pad(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(display_width(s))))
}

/// Aligned rows of cells.
pub fn table(rows: &[Vec<String>], right: &[bool]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width = display_width;
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| width(s))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if right.get(i).copied().unwrap_or(false) {
                    format!("{}{s}", " ".repeat(widths[i].saturating_sub(width(s))))
                } else {
                    pad(s, widths[i])
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

pub(super) fn csv(rows: &[Vec<String>]) -> String {
    rows.iter()
        .map(|r| {
            r.iter()
                .map(|c| {
                    if c.contains([',', '"', '\n']) {
                        format!("\"{}\"", c.replace('"', "\"\""))
                    } else {
                        c.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_by_terminal_columns() {
        // "负载" takes four columns, "4.46–4.51" nine (the en dash is one): the second column
        // starts at the same terminal column on every line.
        let t = table(
            &[
                vec!["负载".to_string(), "a".to_string()],
                vec!["4.46–4.51".to_string(), "b".to_string()],
            ],
            &[],
        );
        let starts: Vec<usize> = t
            .lines()
            .map(|l| {
                let cut = l.rfind(['a', 'b']).unwrap();
                display_width(&l[..cut])
            })
            .collect();
        assert_eq!(starts[0], starts[1], "{t}");
    }
}

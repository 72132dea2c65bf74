//! A cell's value read as a number, text or yes/no, and how a found value reads in a message
//! in either language.

use crate::labels::{Label, Said};
use crate::model::format_number;
use crate::read::xlsx::Raw;
use crate::support::fields::{invisible, parse_number_text};

/// Text with its invisible characters shown as `<U+200B>`, for messages.
pub fn visible(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if invisible(c) || (c.is_control() && c != '\n') {
            out.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a cell holds a percentage: typed as text (`50%`), or a number in a percentage format
/// (what Excel stores where `50%` is typed into a number cell).
pub fn is_percent(raw: &Raw) -> bool {
    match raw {
        Raw::Text(t) => t.trim().ends_with(['%', '％']),
        Raw::Percent(_) => true,
        Raw::Number(_) | Raw::Bool(_) | Raw::Error(_) | Raw::Date(_) | Raw::Uncomputed(_) => false,
    }
}

/// A number shown as a percentage, as the cell shows it: 0.5 → `50%`.
fn percent_text(v: f64) -> String {
    format!("{}%", format_number(v * 100.0))
}

/// Yes/no from TRUE/FALSE, yes/no, y/n, 1/0, 是/否.
pub fn parse_bool(raw: &Raw) -> Option<bool> {
    match raw {
        Raw::Bool(b) => Some(*b),
        Raw::Number(n) if *n == 1.0 => Some(true),
        Raw::Number(n) if *n == 0.0 => Some(false),
        Raw::Text(t) => match t.trim().to_lowercase().as_str() {
            "true" | "yes" | "y" | "1" | "是" | "对" | "✓" => Some(true),
            "false" | "no" | "n" | "0" | "否" | "不" | "不是" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// How a found value reads in an English message ([`found_text`]'s English).
pub fn found(raw: &Raw) -> String {
    found_text(raw).en
}

/// How a found value reads in a message, in English and in Chinese.
pub fn found_text(raw: &Raw) -> Said {
    match raw {
        Raw::Number(n) => {
            let n = format_number(*n);
            Said::new(n.clone(), n)
        }
        Raw::Percent(v) => {
            let (p, n) = (percent_text(*v), format_number(*v));
            Said::new(
                format!("{p} (the number {n} in a percentage format)"),
                format!("{p}（百分比格式的数值 {n}）"),
            )
        }
        Raw::Text(t) => {
            let short: String = t.chars().take(40).collect();
            let more = if short.len() < t.len() { "…" } else { "" };
            let hint = if t.contains([',', '，']) && parse_number_text(t).is_none() {
                Label::new(
                    " (a comma separates thousands only, as in 1,000; write decimals with a point: 9.5)",
                    "（逗号只用于千位分隔，如 1,000；小数请用小数点，如 9.5）",
                )
            } else {
                Label::new("", "")
            };
            let shown = visible(&short);
            Said::new(
                format!("\"{shown}{more}\"{}", hint.en),
                format!("“{shown}{more}”{}", hint.zh),
            )
        }
        Raw::Bool(b) => {
            let t = if *b { "TRUE" } else { "FALSE" };
            Said::new(t, t)
        }
        Raw::Error(e) => Said::new(format!("the error {e}"), format!("错误值 {e}")),
        Raw::Date(d) => {
            let d = crate::support::time::serial_date(*d);
            Said::new(format!("a date ({d})"), format!("日期（{d}）"))
        }
        Raw::Uncomputed(f) => Said::new(
            format!("the formula ={f} with no saved value (open the workbook in Excel or LibreOffice and save it, so the value is stored)"),
            format!("公式 ={f}，但没有保存计算结果（请在 Excel 或 LibreOffice 中打开并保存工作簿，以保存其值）"),
        ),
    }
}

pub fn raw_number(raw: &Raw) -> Option<f64> {
    match raw {
        Raw::Number(n) | Raw::Percent(n) if n.is_finite() => Some(*n),
        Raw::Text(t) => parse_number_text(t),
        Raw::Number(_)
        | Raw::Percent(_)
        | Raw::Bool(_)
        | Raw::Error(_)
        | Raw::Date(_)
        | Raw::Uncomputed(_) => None,
    }
}

/// A cell as text: text trimmed, numbers as a person writes them, a percentage as `50%`,
/// booleans as `TRUE`/`FALSE`, a date as its serial number and a formula without a saved
/// value as `=formula`.
pub fn raw_text(raw: &Raw) -> String {
    match raw {
        Raw::Number(n) => format_number(*n),
        Raw::Percent(v) => percent_text(*v),
        Raw::Text(t) => t.trim().to_string(),
        Raw::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Raw::Error(e) => e.clone(),
        Raw::Date(d) => format_number(*d),
        Raw::Uncomputed(f) => format!("={f}"),
    }
}

//! templates/columns.tsv: each input sheet's columns, with their type, bounds or words, the
//! default a blank cell stands for, and their labels and notes in both languages.

use super::rows;
use crate::labels::Label;
use crate::lang::Lang;

pub(super) const COLUMNS_TSV: &str = include_str!("../../templates/columns.tsv");

/// What kind of value a column holds; drives validation and the template's dropdowns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnType {
    /// `text`: free text, kept as written (`name`, `notes`); also any unknown type word.
    Text,
    /// `number`: any number within the column's bounds.
    Number,
    /// `integer`: a whole number within the column's bounds.
    Integer,
    /// `fraction`: a share, where `20%` reads as 0.2.
    Fraction,
    /// A number of hours: a percentage typed there is refused, not read as a share.
    Hours,
    /// `money`: an amount of money (a price, a fee).
    Money,
    /// `bool`: TRUE/FALSE, yes/no, y/n, 1/0 or 是/否.
    Bool,
    /// `kind`: a workload kind or one of its aliases ([`crate::model::Kind::parse`]).
    Kind,
    /// `precision`: a weight format ([`crate::model::Precision::parse`]).
    Precision,
    /// `kv_precision`: a KV cache format, one of fp16, bf16, fp8 or int8.
    KvPrecision,
    /// `any`: typed by the row's key (the `value` column of Assumptions and Engines).
    Any,
    /// A calendar month: `YYYY-MM` text or a date.
    Month,
}

impl ColumnType {
    /// Whether the column holds a number (which a relative change can scale).
    pub fn is_numeric(self) -> bool {
        matches!(
            self,
            ColumnType::Number
                | ColumnType::Integer
                | ColumnType::Fraction
                | ColumnType::Hours
                | ColumnType::Money
        )
    }
}

/// One column of an input sheet, with its labels and notes in both languages.
#[derive(Debug, Clone)]
pub struct Column {
    /// The sheet's English name as templates/columns.tsv writes it: `Workloads`, `GPUs`.
    pub sheet: &'static str,
    /// The column's key (`concurrency`), as `Label (key)` headers and `--set` name it.
    pub key: &'static str,
    /// What the column's cells hold (the `type` field).
    pub ty: ColumnType,
    /// What a number cell must hold; `None` for a column of words or text.
    pub bounds: Option<Bounds>,
    /// The words a word column allows (kind, precisions), as the table lists them.
    pub words: Vec<&'static str>,
    /// What a blank cell stands for, as the table writes it (see [`Column::default_for`]).
    pub default: &'static str,
    /// The English header label, without the key: `Concurrency`.
    pub label_en: &'static str,
    /// The Chinese header label: `并发数`.
    pub label_zh: &'static str,
    /// The English note the template attaches to the header: what the column means.
    pub note_en: &'static str,
    /// The Chinese note the template attaches to the header.
    pub note_zh: &'static str,
}

impl Column {
    /// The header label in both languages, without the key.
    pub fn label(&self) -> Label {
        Label::new(self.label_en, self.label_zh)
    }
    /// The header's note in both languages.
    pub fn note(&self) -> Label {
        Label::new(self.note_en, self.note_zh)
    }
    /// Whether a header cell names this column: its key, a label in either language, or
    /// `… (key)` ([`crate::support::fields::header_matches`]).
    pub fn is_named_by(&self, header: &str) -> bool {
        crate::support::fields::header_matches(header, self.key, [self.label_en, self.label_zh])
    }

    /// `Label (key)`, as the template writes headers.
    pub fn header(&self, lang: Lang) -> String {
        format!("{} ({})", self.label().get(lang), self.key)
    }
}

/// The interval a number column's cells must lie in, and whether they must be whole.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// The lower end of the interval.
    pub min: f64,
    /// The minimum itself is allowed (`[`), or only what is above it (`(`).
    pub min_ok: bool,
    /// The upper end, always allowed (1e12 for no practical limit).
    pub max: f64,
    /// Whether cells must hold whole numbers (the column's type is `integer`).
    pub integer: bool,
}

impl Bounds {
    /// `[1, 10000000]` or `(0, 1e12]`; `None` where the text is not such an interval.
    fn parse(text: &str, integer: bool) -> Option<Bounds> {
        let min_ok = match text.chars().next()? {
            '[' => true,
            '(' => false,
            _ => return None,
        };
        let (min, max) = text.get(1..)?.strip_suffix(']')?.split_once(',')?;
        Some(Bounds {
            min: min.trim().parse().ok()?,
            min_ok,
            max: max.trim().parse().ok()?,
            integer,
        })
    }
}

/// What a blank cell stands for: a value, or the figure of another column, an assumption, the
/// model (`model.…`) or the GPU offer (`offer.…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// A literal value as the table writes it: `4096`, `yes`, `bf16`.
    Value(&'static str),
    /// `=name` without the `=`: another column, an assumption, `model.…` or `offer.…`.
    Ref(&'static str),
}

impl Column {
    /// The default of a row for which `holds` says which conditions are met: the first
    /// `cond: value` alternative that holds, else the plain value; `None` where there is none.
    pub fn default_for(&self, holds: impl Fn(&str) -> bool) -> Option<Fallback> {
        let mut parts = self.default.split(';').map(str::trim);
        let plain = parts.next().filter(|p| !p.is_empty())?;
        let chosen = parts
            .find_map(|p| {
                let (cond, v) = p.split_once(':')?;
                holds(cond.trim()).then_some(v.trim())
            })
            .unwrap_or(plain);
        Some(match chosen.strip_prefix('=') {
            Some(r) => Fallback::Ref(r),
            None => Fallback::Value(chosen),
        })
    }
}

/// Whether a default's condition holds for a workload of `kind`, online or not: the kind's key,
/// `training` for any training kind, or `online`.
pub fn condition_holds(cond: &str, kind: crate::model::Kind, online: bool) -> bool {
    cond == kind.key() || (cond == "training" && kind.is_training()) || (cond == "online" && online)
}

/// Whether a workload of `kind` serves users when its online cell is blank: the online
/// column's default in templates/columns.tsv (inference and image generation; video
/// generation, minutes per clip, is a queue of jobs).
pub fn online_by_default(kind: crate::model::Kind) -> bool {
    workload_default("online", kind, false) == Some(Fallback::Value("yes"))
}

/// The default of a Workloads column for a workload of `kind`, online or not.
pub fn workload_default(key: &str, kind: crate::model::Kind, online: bool) -> Option<Fallback> {
    all_columns()
        .iter()
        .find(|c| c.sheet == "Workloads" && c.key == key)?
        .default_for(|c| condition_holds(c, kind, online))
}

/// The default of a column of `sheet` that does not depend on the row (a GPUs column's).
pub fn plain_default(sheet: &str, key: &str) -> Option<&'static str> {
    all_columns()
        .iter()
        .find(|c| c.sheet == sheet && c.key == key)
        .map(|c| c.default.trim())
        .filter(|d| !d.is_empty())
}

/// The column `key` of `sheet`, if templates/columns.tsv has it.
pub fn column(sheet: &str, key: &str) -> Option<&'static Column> {
    all_columns()
        .iter()
        .find(|c| c.sheet == sheet && c.key == key)
}

/// The words the word column `key` of `sheet` allows, as the table lists them.
pub fn words(sheet: &str, key: &str) -> &'static [&'static str] {
    all_columns()
        .iter()
        .find(|c| c.sheet == sheet && c.key == key)
        .map_or(&[], |c| c.words.as_slice())
}

/// Every column of templates/columns.tsv, parsed once.
fn all_columns() -> &'static [Column] {
    static COLUMNS: std::sync::OnceLock<Vec<Column>> = std::sync::OnceLock::new();
    COLUMNS.get_or_init(|| {
        rows(COLUMNS_TSV)
            .filter(|r| r.len() >= 9)
            .map(|r| {
                let ty = match r[2] {
                    "number" => ColumnType::Number,
                    "integer" => ColumnType::Integer,
                    "fraction" => ColumnType::Fraction,
                    "hours" => ColumnType::Hours,
                    "money" => ColumnType::Money,
                    "bool" => ColumnType::Bool,
                    "kind" => ColumnType::Kind,
                    "precision" => ColumnType::Precision,
                    "kv_precision" => ColumnType::KvPrecision,
                    "any" => ColumnType::Any,
                    "month" => ColumnType::Month,
                    _ => ColumnType::Text,
                };
                let bounds = Bounds::parse(r[3], ty == ColumnType::Integer);
                Column {
                    sheet: r[0],
                    key: r[1],
                    ty,
                    bounds,
                    words: if bounds.is_none() {
                        r[3].split_whitespace().collect()
                    } else {
                        Vec::new()
                    },
                    default: r[4],
                    label_en: r[5],
                    label_zh: r[6],
                    note_en: r[7],
                    note_zh: r[8],
                }
            })
            .collect()
    })
}

/// The columns of one input sheet (`Workloads`, `GPUs`, `Models`, `Assumptions`, `Formulas`).
pub fn columns(sheet: &str) -> Vec<Column> {
    all_columns()
        .iter()
        .filter(|c| c.sheet == sheet)
        .cloned()
        .collect()
}

/// The column `key` among `cols` (one sheet's columns) and its position: the one lookup of a
/// column by key, for the readers, the template and the usage logs' map alike.
pub fn find_column<'a>(cols: &'a [Column], key: &str) -> Option<(usize, &'a Column)> {
    cols.iter().enumerate().find(|(_, c)| c.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{assumption_number, assumptions, SHEETS};
    use crate::model::{Kind, ModelSpec, Precision};

    /// templates/columns.tsv is the one home of a column's bounds and default: every numeric
    /// column of the sheets the readers check has an interval, every word column its words, and
    /// every default names a value the column allows or a figure that exists.
    #[test]
    fn each_column_has_its_bounds_and_a_default_that_resolves() {
        numeric_columns_have_bounds();
        let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.key()).collect();
        word_columns_list_what_the_reader_accepts(&kinds);
        workload_defaults_resolve(&kinds);
        defaults_once_written_in_code();
        gpu_defaults_are_one_figure_each();
    }

    fn numeric(c: &Column) -> bool {
        c.ty.is_numeric()
    }

    /// Every numeric column of the sheets the readers check has an interval, of whole numbers
    /// where the column's type is integer.
    fn numeric_columns_have_bounds() {
        for sheet in ["Workloads", "GPUs", "Models", "APIs"] {
            for c in columns(sheet).iter().filter(|c| numeric(c)) {
                let b = c
                    .bounds
                    .unwrap_or_else(|| panic!("{sheet}.{} has no bounds", c.key));
                assert!(b.min < b.max, "{sheet}.{}", c.key);
                assert_eq!(b.integer, c.ty == ColumnType::Integer, "{sheet}.{}", c.key);
            }
        }
    }

    /// The word columns list what the reader accepts, in the order its messages give.
    fn word_columns_list_what_the_reader_accepts(kinds: &[&str]) {
        assert_eq!(words("Workloads", "kind"), kinds);
        for key in ["precision", "kv_precision", "expert_precision"] {
            for w in words("Workloads", key) {
                assert_eq!(Precision::parse(w).map(|p| p.key()), Some(*w), "{key}: {w}");
            }
        }
        assert_eq!(
            words("Workloads", "kv_precision"),
            ["fp16", "bf16", "fp8", "int8"]
        );
    }

    /// Each Workloads default's conditions are kinds, `training` or `online`, and for every kind,
    /// online or not, it gives a value the column allows or names a figure that exists.
    fn workload_defaults_resolve(kinds: &[&str]) {
        let workloads = columns("Workloads");
        let gpus = columns("GPUs");
        let built_in = assumptions(Lang::En);
        for c in &workloads {
            let mut parts = c.default.split(';').map(str::trim);
            for alt in parts.by_ref().skip(1) {
                let (cond, _) = alt.split_once(':').expect("cond: value");
                let cond = cond.trim();
                assert!(
                    kinds.contains(&cond) || cond == "training" || cond == "online",
                    "{}: condition {cond}",
                    c.key
                );
            }
            for kind in Kind::ALL {
                for online in [false, true] {
                    match c.default_for(|cond| condition_holds(cond, kind, online)) {
                        None => {}
                        Some(Fallback::Value(v)) if numeric(c) => {
                            let n: f64 = v.parse().unwrap_or_else(|_| panic!("{}: {v}", c.key));
                            let b = c.bounds.expect("bounds");
                            // 0 (hours offline) stands for "not given", below some minimums.
                            assert!(n == 0.0 || (n >= b.min && n <= b.max), "{}: {v}", c.key);
                        }
                        Some(Fallback::Value(v)) if c.ty == ColumnType::Bool => {
                            assert!(v == "yes" || v == "no", "{}: {v}", c.key)
                        }
                        Some(Fallback::Value(v)) => {
                            assert!(c.words.contains(&v), "{}: {v}", c.key)
                        }
                        Some(Fallback::Ref(r)) => {
                            let known = find_column(&workloads, r).is_some()
                                || r.strip_prefix("model.")
                                    .is_some_and(|f| ModelSpec::FIELDS.contains(&f))
                                || r.strip_prefix("offer.")
                                    .is_some_and(|f| find_column(&gpus, f).is_some())
                                || built_in.get(r).is_some();
                            assert!(known, "{}: ={r}", c.key);
                            assert_ne!(r, c.key);
                        }
                    }
                }
            }
        }
    }

    /// The figures the planner and the reader had written in code before the table held them.
    fn defaults_once_written_in_code() {
        use Fallback::{Ref as R, Value as V};
        let cases = [
            ("context_len", Kind::Lora, false, Some(V("2048"))),
            ("context_len", Kind::Inference, true, Some(V("4096"))),
            ("precision", Kind::Qlora, false, Some(V("int4"))),
            ("precision", Kind::Lora, false, Some(V("bf16"))),
            ("hours_per_month", Kind::Batch, false, Some(V("0"))),
            (
                "hours_per_month",
                Kind::Batch,
                true,
                Some(R("hours_in_month")),
            ),
            ("spot_ok", Kind::Batch, false, Some(V("yes"))),
            ("redundancy", Kind::Batch, false, None),
        ];
        for (key, kind, online, expected) in cases {
            assert_eq!(
                workload_default(key, kind, online),
                expected,
                "{key} {kind:?}"
            );
        }
        let online: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| online_by_default(*k))
            .collect();
        assert_eq!(online, [Kind::Inference, Kind::ImageGen]);
        assert_eq!(assumption_number("hours_in_month"), Some(730.0));
    }

    /// The GPUs sheet's defaults, one figure each.
    fn gpu_defaults_are_one_figure_each() {
        assert_eq!(plain_default("GPUs", "billing_granularity_min"), Some("60"));
        assert_eq!(plain_default("GPUs", "min_rental_min"), Some("0"));
        assert_eq!(plain_default("GPUs", "available"), Some("yes"));
        for c in columns("GPUs").iter().filter(|c| !c.default.is_empty()) {
            assert!(!c.default.contains([';', '=']), "{}", c.key);
            if numeric(c) {
                let n: f64 = c.default.parse().expect("a figure");
                let b = c.bounds.expect("bounds");
                assert!(n >= b.min && n <= b.max, "{}", c.key);
            }
        }
    }

    /// The template's notes say the defaults the table gives (they are written by hand, in two
    /// languages): each plain figure or precision default appears as "Default X" in the note.
    #[test]
    fn the_notes_say_the_defaults_of_the_table() {
        for c in columns("Workloads").into_iter().chain(columns("GPUs")) {
            let plain = c.default.split(';').next().unwrap_or("").trim();
            // pilot_concurrency's 1 binds only without a pilot (the reader asks for both).
            let unsaid =
                plain.is_empty() || plain.starts_with('=') || plain == "0" || plain == "no";
            if unsaid || c.key == "pilot_concurrency" {
                continue;
            }
            assert!(
                c.note_en.contains(&format!("Default {plain}")),
                "{}: the note lacks Default {plain}: {}",
                c.key,
                c.note_en
            );
        }
    }

    #[test]
    fn every_column_has_both_labels_and_notes() {
        for sheet in SHEETS.map(|s| s.en) {
            let cols = columns(sheet);
            assert!(!cols.is_empty(), "{sheet}");
            for c in cols {
                assert!(
                    !c.label_en.is_empty()
                        && !c.label_zh.is_empty()
                        && !c.note_en.is_empty()
                        && !c.note_zh.is_empty(),
                    "{}",
                    c.key
                );
            }
        }
        // Every numeric workload column the formulas read has a header, a label and a note.
        let workloads = columns("Workloads");
        for key in crate::model::WorkloadNumbers::NAMES {
            assert!(
                find_column(&workloads, key).is_some(),
                "{key} has no column"
            );
        }
        let models = columns("Models");
        for key in ModelSpec::FIELDS {
            assert!(find_column(&models, key).is_some(), "{key} has no column");
        }
    }
}

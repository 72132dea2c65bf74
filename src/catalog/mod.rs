//! Built-in data: the GPUs, models, assumptions, default formulas and column labels of
//! `templates/`, compiled in. Data files are tab-separated with a header line; `#` lines are comments.

use crate::lang::Lang;
use crate::model::{
    normalize, Applies, Assumption, Assumptions, EngineValue, Engines, FormulaDef, GpuOffer,
    ModelSpec, Origin, Scope, Source, Value,
};

const COLUMNS_TSV: &str = include_str!("../../templates/columns.tsv");
const GPUS_TSV: &str = include_str!("../../templates/gpus.tsv");
const MODELS_TSV: &str = include_str!("../../templates/models.tsv");
const ASSUMPTIONS_TSV: &str = include_str!("../../templates/assumptions.tsv");
const FORMULAS_TSV: &str = include_str!("../../templates/formulas.tsv");
const FORMULAS_ZH_TSV: &str = include_str!("../../templates/formulas.zh.tsv");
const EXAMPLES_TSV: &str = include_str!("../../templates/examples.tsv");
const COMPAT_TSV: &str = include_str!("../../templates/compat.tsv");
const COMPAT_ZH_TSV: &str = include_str!("../../templates/compat.zh.tsv");
const ENGINES_TSV: &str = include_str!("../../templates/engines.tsv");
const APIS_TSV: &str = include_str!("../../templates/apis.tsv");

/// Rows of a TSV data file, header first, comments and blank lines skipped.
fn rows(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

/// Data rows as (header → cell) lookups.
fn records(text: &'static str) -> Vec<Vec<(&'static str, &'static str)>> {
    let mut it = rows(text);
    let header = it.next().unwrap_or_default();
    it.map(|r| {
        header
            .iter()
            .copied()
            .zip(r.iter().copied().chain(std::iter::repeat("")))
            .collect()
    })
    .collect()
}

fn field<'a>(rec: &'a [(&'static str, &'static str)], key: &str) -> &'a str {
    rec.iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.trim())
        .unwrap_or("")
}

fn num(rec: &[(&'static str, &'static str)], key: &str) -> f64 {
    field(rec, key).parse().unwrap_or(0.0)
}

fn opt_num(rec: &[(&'static str, &'static str)], key: &str) -> Option<f64> {
    field(rec, key).parse().ok()
}

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
    /// The header label in `lang`, without the key.
    pub fn label(&self, lang: Lang) -> &'static str {
        if lang == Lang::Zh {
            self.label_zh
        } else {
            self.label_en
        }
    }
    /// The header's note in `lang`.
    pub fn note(&self, lang: Lang) -> &'static str {
        if lang == Lang::Zh {
            self.note_zh
        } else {
            self.note_en
        }
    }
    /// Whether a header cell names this column: its key, a label in either language, or
    /// `… (key)` ([`crate::support::fields::header_matches`]).
    pub fn is_named_by(&self, header: &str) -> bool {
        crate::support::fields::header_matches(header, self.key, [self.label_en, self.label_zh])
    }

    /// `Label (key)`, as the template writes headers.
    pub fn header(&self, lang: Lang) -> String {
        format!("{} ({})", self.label(lang), self.key)
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

/// The figure of a built-in assumption (the Assumptions sheet's default), if it is a number.
pub fn assumption_number(key: &str) -> Option<f64> {
    static BUILT_IN: std::sync::OnceLock<Assumptions> = std::sync::OnceLock::new();
    match BUILT_IN
        .get_or_init(|| assumptions(Lang::En))
        .get(key)
        .map(|a| &a.value)
    {
        Some(Value::Number(n)) => Some(*n),
        _ => None,
    }
}

/// The column `key` among `cols` (one sheet's columns) and its position: the one lookup of a
/// column by key, for the readers, the template and the usage logs' map alike.
pub fn find_column<'a>(cols: &'a [Column], key: &str) -> Option<(usize, &'a Column)> {
    cols.iter().enumerate().find(|(_, c)| c.key == key)
}

/// The input sheets, with their English and Chinese names.
pub const SHEETS: [(&str, &str); 10] = [
    ("Workloads", "负载"),
    ("GPUs", "算力报价"),
    ("Models", "模型"),
    ("Assumptions", "参数"),
    ("Engines", "引擎"),
    ("Formulas", "公式"),
    ("Scenarios", "情景"),
    ("Ranges", "范围"),
    ("APIs", "API报价"),
    ("Usage", "用量"),
];

/// The name of an input sheet in the chosen language.
pub fn sheet_name(english: &str, lang: Lang) -> &str {
    SHEETS
        .iter()
        .find(|(en, _)| *en == english)
        .map(|(en, cn)| if lang == Lang::Zh { *cn } else { *en })
        .unwrap_or(english)
}

/// The built-in GPU offers (example prices, provider `example`).
pub fn gpus() -> Vec<GpuOffer> {
    records(GPUS_TSV)
        .iter()
        .map(|r| GpuOffer {
            gpu: field(r, "gpu").to_string(),
            provider: field(r, "provider").to_string(),
            platform: field(r, "platform").to_string(),
            vram_gib: num(r, "vram_gib"),
            bandwidth_gbs: num(r, "bandwidth_gbs"),
            fp16_tflops: num(r, "fp16_tflops"),
            fp8_tflops: num(r, "fp8_tflops"),
            fp16_acc16_tflops: num(r, "fp16_acc16_tflops"),
            compute_capability: num(r, "compute_capability"),
            nvlink: field(r, "nvlink") == "yes",
            interconnect_gbs: num(r, "interconnect_gbs"),
            gpus_per_node: num(r, "gpus_per_node"),
            node_interconnect_gbs: opt_num(r, "node_interconnect_gbs"),
            on_demand_hourly: opt_num(r, crate::model::Price::OnDemandHourly.key()),
            monthly: opt_num(r, crate::model::Price::Monthly.key()),
            spot_hourly: opt_num(r, crate::model::Price::SpotHourly.key()),
            reserved_monthly: opt_num(r, crate::model::Price::ReservedMonthly.key()),
            reserved_term_months: None,
            spot_interruptions_per_day: None,
            purchase_price: None,
            depreciation_months: plain_default("GPUs", "depreciation_months")
                .and_then(|d| d.parse().ok())
                .unwrap_or(36.0),
            residual_share: 0.0,
            power_w: opt_num(r, "power_w"),
            hosting_monthly: 0.0,
            billing_granularity_min: num(r, "billing_granularity_min"),
            min_rental_min: num(r, "min_rental_min"),
            available: field(r, "available") != "no",
            cell: None,
            quoted_in: None,
        })
        .collect()
}

/// The built-in GPU whose name matches `name` loosely (`rtx4090`, `4090`, `A100 80G`).
pub fn find_gpu(name: &str) -> Option<GpuOffer> {
    let n = normalize(name);
    let all = gpus();
    all.iter()
        .find(|g| normalize(&g.gpu) == n)
        .or_else(|| {
            all.iter().find(|g| {
                normalize(&g.gpu).trim_start_matches("rtx") == n.trim_start_matches("rtx")
            })
        })
        .cloned()
}

/// The built-in models: every column of templates/models.tsv that names a Models field.
pub fn models() -> Vec<ModelSpec> {
    records(MODELS_TSV)
        .iter()
        .map(|r| {
            let mut m = ModelSpec {
                name: field(r, "name").to_string(),
                source: field(r, "source").to_string(),
                ..ModelSpec::default()
            };
            for key in ModelSpec::FIELDS {
                if let (Some(slot), Some(v)) = (m.field_mut(key), opt_num(r, key)) {
                    *slot = v;
                }
            }
            if opt_num(r, "kv_heads").is_none() {
                m.kv_heads = m.heads;
            }
            if opt_num(r, "head_dim").is_none() && m.heads > 0.0 {
                m.head_dim = m.hidden / m.heads;
            }
            m
        })
        .collect()
}

/// The default assumptions, each with its unit and note in the chosen language.
pub fn assumptions(lang: Lang) -> Assumptions {
    let items = records(ASSUMPTIONS_TSV)
        .iter()
        .map(|r| {
            let raw = field(r, "value");
            let value = match raw {
                "yes" => Value::Bool(true),
                "no" => Value::Bool(false),
                _ => raw
                    .parse()
                    .map(Value::Number)
                    .unwrap_or_else(|_| Value::Text(raw.to_string())),
            };
            Assumption {
                key: field(r, "key").to_string(),
                value,
                unit: field(r, "unit").to_string(),
                note: field(
                    r,
                    if lang == Lang::Zh {
                        "Chinese note"
                    } else {
                        "English note"
                    },
                )
                .to_string(),
                source: Source::Default,
            }
        })
        .collect();
    Assumptions { items }
}

/// What an assumption is for (templates/assumptions.tsv, column role).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssumptionRole {
    /// Costs: the plan workbook recomputes them when it is edited.
    Money,
    /// Sizes memory and speed: an engine profile may set it per workload.
    Sizing,
    /// The rest (currency, redundancy, advice thresholds).
    Plan,
}

/// The unit of a default assumption as templates/assumptions.tsv writes it (`share`, `h`,
/// `money`, `per GB`); `None` for a user's own key.
pub fn assumption_unit(key: &str) -> Option<&'static str> {
    static UNITS: std::sync::OnceLock<Vec<(&'static str, &'static str)>> =
        std::sync::OnceLock::new();
    UNITS
        .get_or_init(|| {
            records(ASSUMPTIONS_TSV)
                .iter()
                .map(|r| (field_static(r, "key"), field_static(r, "unit")))
                .collect()
        })
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, u)| *u)
}

/// The role of a default assumption; `None` for a user's own key.
pub fn assumption_role(key: &str) -> Option<AssumptionRole> {
    // Read from the table once: the Assumptions tab and its live cells ask for every key.
    static ROLES: std::sync::OnceLock<Vec<(&'static str, AssumptionRole)>> =
        std::sync::OnceLock::new();
    let roles = ROLES.get_or_init(|| {
        records(ASSUMPTIONS_TSV)
            .iter()
            .map(|r| {
                let role = match field(r, "role") {
                    "money" => AssumptionRole::Money,
                    "sizing" => AssumptionRole::Sizing,
                    _ => AssumptionRole::Plan,
                };
                (field_static(r, "key"), role)
            })
            .collect()
    });
    roles.iter().find(|(k, _)| *k == key).map(|(_, r)| *r)
}

/// The assumptions an engine profile may set: those that size memory and speed. The money ones
/// stay one value for the whole plan, which the workbook recomputes from one cell each.
pub fn profile_keys() -> Vec<&'static str> {
    records(ASSUMPTIONS_TSV)
        .iter()
        .filter(|r| field(r, "role") == "sizing")
        .map(|r| field_static(r, "key"))
        .collect()
}

/// The built-in engine profiles (templates/engines.tsv).
/// The built-in example API prices (templates/apis.tsv), used when the workbook has no APIs
/// sheet.
pub fn apis() -> Vec<crate::model::ApiPrice> {
    records(APIS_TSV)
        .iter()
        .map(|r| crate::model::ApiPrice {
            provider: field(r, "provider").to_string(),
            model: field(r, "model").to_string(),
            input_per_m: num(r, "input_per_m"),
            output_per_m: num(r, "output_per_m"),
            cached_input_per_m: opt_num(r, "cached_input_per_m"),
            source: field(r, "source").to_string(),
        })
        .collect()
}

/// The built-in engine profiles (templates/engines.tsv): `yes`/`no` values read as 1/0, a
/// blank `applies_to` as [`Applies::Any`], and no cell.
pub fn engines() -> Engines {
    let values = records(ENGINES_TSV)
        .iter()
        .map(|r| {
            let raw = field(r, "value");
            EngineValue {
                engine: field(r, "engine").to_string(),
                applies: Applies::parse(field(r, "applies_to")).unwrap_or(Applies::Any),
                key: field(r, "key").to_string(),
                value: match raw {
                    "yes" => 1.0,
                    "no" => 0.0,
                    _ => raw.parse().unwrap_or(0.0),
                },
                unit: field(r, "unit").to_string(),
                version: field(r, "version").to_string(),
                source: field(r, "source").to_string(),
                cell: None,
            }
        })
        .collect();
    Engines { values }
}

/// The default formula set.
pub fn formulas() -> Vec<FormulaDef> {
    records(FORMULAS_TSV)
        .iter()
        .map(|r| FormulaDef {
            name: field(r, "name").to_string(),
            expression: field(r, "expression").to_string(),
            scope: if field(r, "scope") == "portfolio" {
                Scope::Portfolio
            } else {
                Scope::Candidate
            },
            unit: field(r, "unit").to_string(),
            description: field(r, "description").to_string(),
            origin: Origin::Default,
            cell: None,
        })
        .collect()
}

/// The default formulas' descriptions in both languages: name, English (templates/formulas.tsv)
/// and Chinese (templates/formulas.zh.tsv, empty where the name has none).
fn formula_descriptions() -> &'static [(&'static str, &'static str, &'static str)] {
    // Read once: the Formulas tab asks for every formula.
    static BOTH: std::sync::OnceLock<Vec<(&'static str, &'static str, &'static str)>> =
        std::sync::OnceLock::new();
    BOTH.get_or_init(|| {
        let zh = records(FORMULAS_ZH_TSV);
        records(FORMULAS_TSV)
            .iter()
            .map(|r| {
                let name = field_static(r, "name");
                let text_zh = zh
                    .iter()
                    .find(|z| field(z, "name") == name)
                    .map(|z| field_static(z, "description_zh"))
                    .unwrap_or_default();
                (name, field_static(r, "description"), text_zh)
            })
            .collect()
    })
}

/// A formula's description in `lang`. A default formula's own text, in English or in Chinese
/// (as a template of either language wrote it), is given in `lang`; a description the user
/// wrote, or one of a formula that is not a default, is kept as written.
pub fn formula_description(f: &FormulaDef, lang: Lang) -> &str {
    match formula_descriptions()
        .iter()
        .find(|(name, _, _)| *name == f.name)
    {
        Some(&(_, en, zh)) if !zh.is_empty() && (f.description == en || f.description == zh) => {
            lang.t(en, zh)
        }
        _ => &f.description,
    }
}

/// How a platform runs a number format (templates/compat.tsv).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Hardware math in the format.
    Native,
    /// Stored in the format, computed in 16 bits by a weight-only kernel.
    WeightOnly,
    /// Not run.
    None,
}

/// One rule of the compatibility table.
#[derive(Debug, Clone)]
pub struct CompatRule {
    /// The platform the rule is for: `cuda`, `rocm` or `ascend`.
    pub platform: &'static str,
    /// The number format's key: `bf16`, `fp8`, `int4`.
    pub precision: &'static str,
    /// `weights`, `kv` or `any`.
    pub role: &'static str,
    /// The lowest CUDA compute capability the rule covers; `None`: any.
    pub min_cc: Option<f64>,
    /// The compute capability the rule stops at (excluded); `None`: any.
    pub max_cc: Option<f64>,
    /// How the platform runs the format there.
    pub support: Support,
    /// Why, in English: the text of the note or the exclusion the rule gives.
    pub note: &'static str,
    /// The note in Chinese (templates/compat.zh.tsv); the English where none is given.
    pub note_zh: &'static str,
    /// Where the rule comes from (vendor documentation, an engine's code or issue).
    pub source: &'static str,
}

/// The compatibility rules, in the table's order (the first match decides).
pub fn compat_rules() -> Vec<CompatRule> {
    let zh = records(COMPAT_ZH_TSV);
    records(COMPAT_TSV)
        .iter()
        .map(|r| CompatRule {
            platform: field_static(r, "platform"),
            precision: field_static(r, "precision"),
            role: field_static(r, "role"),
            min_cc: opt_num(r, "min_cc"),
            max_cc: opt_num(r, "max_cc"),
            support: match field(r, "support") {
                "native" => Support::Native,
                "weight_only" => Support::WeightOnly,
                _ => Support::None,
            },
            note: field_static(r, "note"),
            note_zh: zh
                .iter()
                .find(|z| field(z, "note") == field(r, "note"))
                .map_or(field_static(r, "note"), |z| field_static(z, "note_zh")),
            source: field_static(r, "source"),
        })
        .collect()
}

fn field_static(rec: &[(&'static str, &'static str)], key: &str) -> &'static str {
    rec.iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.trim())
        .unwrap_or("")
}

/// The example workloads of a template (`team`, `api`): per row, the non-blank (column, value) pairs.
pub fn examples(name: &str) -> Vec<Vec<(&'static str, &'static str)>> {
    records(EXAMPLES_TSV)
        .into_iter()
        .filter(|r| field(r, "example") == name)
        .map(|r| {
            r.into_iter()
                .filter(|(k, v)| *k != "example" && !v.trim().is_empty())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// templates/columns.tsv is the one home of a column's bounds and default: every numeric
    /// column of the sheets the readers check has an interval, every word column its words, and
    /// every default names a value the column allows or a figure that exists.
    #[test]
    fn each_column_has_its_bounds_and_a_default_that_resolves() {
        use crate::model::{Kind, Precision};
        let numeric = |c: &Column| c.ty.is_numeric();
        for sheet in ["Workloads", "GPUs", "Models", "APIs"] {
            for c in columns(sheet).iter().filter(|c| numeric(c)) {
                let b = c
                    .bounds
                    .unwrap_or_else(|| panic!("{sheet}.{} has no bounds", c.key));
                assert!(b.min < b.max, "{sheet}.{}", c.key);
                assert_eq!(b.integer, c.ty == ColumnType::Integer, "{sheet}.{}", c.key);
            }
        }
        // The word columns list what the reader accepts, in the order its messages give.
        let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.key()).collect();
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
        // The figures the planner and the reader had written in code before the table held them.
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
        // The GPUs sheet's defaults, one figure each.
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

    /// Every default formula has a Chinese description, every Chinese description names a
    /// default formula, and each keeps the English text's figures (citations, worked numbers).
    #[test]
    fn every_formula_has_a_chinese_description_and_none_is_stale() {
        let names: Vec<String> = formulas().into_iter().map(|f| f.name).collect();
        let zh = records(FORMULAS_ZH_TSV);
        let zh_names: Vec<&str> = zh.iter().map(|r| field(r, "name")).collect();
        let missing: Vec<&String> = names
            .iter()
            .filter(|n| !zh_names.contains(&n.as_str()))
            .collect();
        let stale: Vec<&&str> = zh_names
            .iter()
            .filter(|n| !names.iter().any(|m| m == *n))
            .collect();
        assert!(missing.is_empty(), "formulas without Chinese: {missing:?}");
        assert!(
            stale.is_empty(),
            "Chinese descriptions of no formula: {stale:?}"
        );
        let mut seen = std::collections::HashSet::new();
        for n in &zh_names {
            assert!(seen.insert(*n), "{n} is described twice in formulas.zh.tsv");
        }
        // The figures of each English text, as runs of digits with their separators.
        let figures = |t: &str| -> Vec<String> {
            t.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
                .map(|w| w.trim_matches(|c| c == '.' || c == ','))
                .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
                .map(str::to_string)
                .collect()
        };
        for (name, en, zh) in formula_descriptions() {
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{name}: no Chinese in {zh:?}"
            );
            for figure in figures(en) {
                assert!(
                    zh.contains(&figure),
                    "{name}: {figure} of the English text is not in the Chinese"
                );
            }
        }
    }

    /// Every note of templates/compat.tsv has its Chinese in compat.zh.tsv, and every Chinese
    /// note translates a note the table still holds.
    #[test]
    fn every_compat_note_has_its_chinese_and_none_is_stale() {
        let notes: Vec<&str> = compat_rules().iter().map(|r| r.note).collect();
        for r in compat_rules() {
            assert!(
                r.note_zh
                    .chars()
                    .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "no Chinese for {:?}",
                r.note
            );
        }
        for z in records(COMPAT_ZH_TSV) {
            assert!(
                notes.contains(&field(&z, "note")),
                "stale: {:?}",
                field(&z, "note")
            );
        }
        let fp8 = compat_rules()
            .into_iter()
            .find(|r| r.platform == "ascend" && r.precision == "fp8")
            .unwrap();
        assert_eq!(
            fp8.note_zh,
            "昇腾 910B 和 910C 不支持 FP8：请把检查点转换为 bf16 或 W8A8 int8（msModelSlim）"
        );
    }

    #[test]
    fn a_default_description_follows_the_language_and_a_users_is_kept() {
        let mut f = formulas()
            .into_iter()
            .find(|f| f.name == "utilization")
            .unwrap();
        assert_eq!(
            formula_description(&f, Lang::Zh),
            "月利用率：运行小时 ÷ 当月小时数（seed 001 计费的经验法则）。"
        );
        let en = "Monthly utilization: hours run ÷ hours in the month (seed 001's rule of thumb for billing).";
        assert_eq!(formula_description(&f, Lang::En), en);
        // The Chinese template's text read back gives English in an English plan.
        f.description = formula_description(&f, Lang::Zh).to_string();
        assert_eq!(formula_description(&f, Lang::En), en);
        f.description = "our own note".into();
        assert_eq!(formula_description(&f, Lang::Zh), "our own note");
    }

    #[test]
    fn catalogs_hold_what_the_spec_names() {
        let gpus = gpus();
        for name in [
            "RTX 3090", "RTX 4090", "RTX 5090", "A10", "L4", "L40S", "A100-40G", "A100-80G",
            "A800", "H100", "H800", "H20", "H200", "V100", "T4",
        ] {
            let g = gpus
                .iter()
                .find(|g| g.gpu == name)
                .unwrap_or_else(|| panic!("{name} missing"));
            assert_eq!(g.provider, "example");
            assert!(
                g.vram_gib > 0.0 && g.bandwidth_gbs > 0.0 && g.fp16_tflops > 0.0,
                "{name}"
            );
        }
        let models = models();
        for name in [
            "Llama-2-7B",
            "Llama-2-13B",
            "Llama-2-70B",
            "Llama-3.1-8B",
            "Llama-3.1-70B",
            "Mistral-7B",
            "Qwen2.5-0.5B",
            "Qwen2.5-7B",
            "Qwen2.5-14B",
            "Qwen2.5-32B",
            "Qwen2.5-72B",
            "GLM-4-9B",
            "DeepSeek-R1-Distill-Qwen-7B",
            "DeepSeek-R1-Distill-Qwen-14B",
            "DeepSeek-R1-Distill-Qwen-32B",
            "Yi-34B",
            "SD1.5",
            "SDXL",
            "FLUX.1-dev",
        ] {
            assert!(models.iter().any(|m| m.name == name), "{name} missing");
        }
        let qwen = models.iter().find(|m| m.name == "Qwen2.5-7B").unwrap();
        assert_eq!(
            (qwen.layers, qwen.kv_heads, qwen.head_dim),
            (28.0, 4.0, 128.0)
        );
    }

    #[test]
    fn default_assumptions_match_the_spec() {
        let a = assumptions(Lang::En);
        assert_eq!(a.number("hours_in_month", 0.0), 730.0);
        assert_eq!(a.number("redundancy_online", 0.0), 0.2);
        assert_eq!(a.number("cold_start_min", 0.0), 20.0);
        assert_eq!(
            a.get("grad_checkpointing").map(|x| &x.value),
            Some(&Value::Bool(true))
        );
        assert_eq!(a.currency(), "CNY");
        // Added by the accuracy work (#9): the serving engine's prefill chunk and fixed buffers,
        // and the optimizer's bytes per trained parameter.
        assert_eq!(a.number("prefill_chunk_tokens", 0.0), 8192.0);
        assert_eq!(a.number("inference_activation_gib", 0.0), 0.5);
        assert_eq!(a.number("optimizer_bytes_per_param", 0.0), 12.0);
        // Every default has a note in both languages (the Assumptions sheet shows them).
        for (en, zh) in a.items.iter().zip(assumptions(Lang::Zh).items.iter()) {
            assert!(!en.note.is_empty() && !zh.note.is_empty(), "{}", en.key);
        }
    }

    #[test]
    fn every_column_has_both_labels_and_notes() {
        for (sheet, _) in SHEETS {
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

    /// A typo in a data file (`8O` for 80) would otherwise read as 0 GiB: every cell of a
    /// numeric column parses, every text column of the sheet is known, and each row has no more
    /// cells than the header.
    #[test]
    fn the_built_in_tables_parse_cell_by_cell() {
        let text_columns = [
            "gpu",
            "provider",
            "platform",
            "nvlink",
            "name",
            "source",
            "available",
        ];
        for (file, tsv) in [("gpus.tsv", GPUS_TSV), ("models.tsv", MODELS_TSV)] {
            let mut lines = rows(tsv);
            let header = lines.next().unwrap_or_default();
            for (n, r) in lines.enumerate() {
                assert!(
                    r.len() <= header.len(),
                    "{file} row {}: {} cells",
                    n + 1,
                    r.len()
                );
                for (h, cell) in header.iter().zip(&r) {
                    let cell = cell.trim();
                    if text_columns.contains(h) || cell.is_empty() {
                        continue;
                    }
                    assert!(
                        cell.parse::<f64>().is_ok_and(f64::is_finite),
                        "{file} row {} column {h}: {cell:?} is not a number",
                        n + 1
                    );
                }
            }
        }
        for (file, tsv, numeric) in [
            ("engines.tsv", ENGINES_TSV, &["value"][..]),
            (
                "apis.tsv",
                APIS_TSV,
                &["input_per_m", "output_per_m", "cached_input_per_m"][..],
            ),
            ("compat.tsv", COMPAT_TSV, &["min_cc", "max_cc"][..]),
        ] {
            for r in records(tsv) {
                for key in numeric {
                    let cell = field(&r, key);
                    assert!(
                        cell.is_empty() || cell.parse::<f64>().is_ok_and(f64::is_finite),
                        "{file}: {key} {cell:?} is not a number"
                    );
                }
            }
        }
        for r in records(ENGINES_TSV) {
            assert!(
                Applies::parse(field(&r, "applies_to")).is_some(),
                "engines.tsv: applies_to {:?}",
                field(&r, "applies_to")
            );
        }
    }

    #[test]
    fn every_default_assumption_says_its_role() {
        for r in records(ASSUMPTIONS_TSV) {
            assert!(
                ["money", "sizing", "plan"].contains(&field(&r, "role")),
                "{}: role {:?}",
                field(&r, "key"),
                field(&r, "role")
            );
        }
        assert_eq!(
            assumption_role("safety_margin"),
            Some(AssumptionRole::Money)
        );
        assert_eq!(
            assumption_role("gpu_memory_utilization"),
            Some(AssumptionRole::Sizing)
        );
        assert_eq!(assumption_role("my_own"), None);
        assert!(!profile_keys().contains(&"hours_in_month"));
    }

    #[test]
    fn every_built_in_engine_value_sets_a_profile_key_of_the_defaults_with_a_source() {
        let defaults = assumptions(Lang::En);
        let engines = engines();
        assert!(engines.names().len() >= 7, "{:?}", engines.names());
        for v in &engines.values {
            assert!(
                !v.source.is_empty() && !v.version.is_empty(),
                "{}",
                v.engine
            );
            if v.key.is_empty() {
                continue;
            }
            assert!(
                profile_keys().contains(&v.key.as_str()),
                "{} sets {}",
                v.engine,
                v.key
            );
            assert!(defaults.get(&v.key).is_some(), "{} has no default", v.key);
            assert!(v.value.is_finite() && v.value >= 0.0);
        }
        // vLLM takes 90% of each GPU for its weights, working memory and KV pool.
        let vllm: Vec<_> = engines
            .for_workload("vllm", crate::model::Kind::Inference)
            .filter(|v| v.key == "gpu_memory_utilization")
            .collect();
        assert_eq!(vllm.len(), 1);
        assert_eq!(vllm[0].value, 0.9);
        assert_eq!(
            engines
                .for_workload("vllm", crate::model::Kind::Lora)
                .count(),
            0
        );
        // vllm@0.17 is vLLM's profile with 0.17's own figures in place: the sampler's 14 bytes
        // (the sort path's 38 before), 0.25 GiB outside torch (0.35) and 1.85 GiB across GPUs
        // (the assumption's 0.35), every other figure vLLM's (the 0.9 share), each key once.
        let v17: Vec<_> = engines
            .for_workload("vllm@0.17", crate::model::Kind::Inference)
            .collect();
        let value = |key: &str| {
            let found: Vec<f64> = v17
                .iter()
                .filter(|v| v.key == key)
                .map(|v| v.value)
                .collect();
            assert_eq!(found.len(), 1, "{key}: {found:?}");
            found[0]
        };
        assert_eq!(value("sampler_bytes"), 14.0);
        assert_eq!(value("runtime_overhead_gib"), 0.25);
        assert_eq!(value("tp_comm_gib"), 1.85);
        assert_eq!(value("gpu_memory_utilization"), 0.9);
        let base = engines
            .for_workload("vllm", crate::model::Kind::Inference)
            .count();
        // vLLM's figures but its runtime_overhead_gib, which 0.17's replaces, and 0.17's three.
        assert_eq!(v17.len(), base - 1 + 3);
        assert_eq!(engines.find("VLLM@0.17"), Some("vllm@0.17"));
    }

    #[test]
    fn gpu_names_match_loosely() {
        // The RTX 4090's 24 GB as the driver reports it to an engine.
        assert_eq!(find_gpu("4090").map(|g| g.vram_gib), Some(23.64));
        assert_eq!(
            find_gpu("a100 80g").map(|g| g.gpu),
            Some("A100-80G".to_string())
        );
        assert!(find_gpu("Voodoo 2").is_none());
    }
}

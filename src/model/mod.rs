//! Plain domain types: what a validated workbook says. No I/O here; `read/` builds these from
//! cells (keeping cell addresses for messages) and every later stage only reads them.

pub mod billing;
pub mod change;
pub use billing::{Hidden, Mode, Per, Price};

use crate::model::change::{Change, Target};
use serde::Serialize;
use std::fmt;

/// A cell address, kept so that later stages can say where a value came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct CellRef {
    pub sheet: String,
    /// 0-based row.
    pub row: u32,
    /// 0-based column.
    pub col: u32,
}

impl CellRef {
    pub fn new(sheet: impl Into<String>, row: u32, col: u32) -> Self {
        CellRef {
            sheet: sheet.into(),
            row,
            col,
        }
    }
}

/// `A`, `B`, … `XFD` for a 0-based column.
/// A calendar month: months since year 0 (`year × 12 + month − 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month(pub i32);

impl Month {
    pub fn new(year: i32, month: u32) -> Option<Month> {
        ((1..=12).contains(&month) && (1900..=9999).contains(&year))
            .then(|| Month(year * 12 + month as i32 - 1))
    }

    /// `2027-03`, `2027-3`, `2027/03`, `2027-03-15` (the day ignored) or `2027年3月`.
    pub fn parse(text: &str) -> Option<Month> {
        let t = text.trim().trim_end_matches('月');
        let mut parts = t.split(['-', '/', '.', '年']);
        let year = parts.next()?.trim().parse().ok()?;
        let month = parts.next()?.trim().parse().ok()?;
        if let Some(day) = parts.next() {
            let d: u32 = day.trim().trim_end_matches('日').parse().ok()?;
            if !(1..=31).contains(&d) {
                return None;
            }
        }
        if parts.next().is_some() {
            return None;
        }
        Month::new(year, month)
    }

    /// The month of a Unix timestamp (UTC).
    pub fn of_timestamp(secs: i64) -> Month {
        let date = crate::support::time::civil_date(secs);
        Month::parse(&date).unwrap_or(Month(2026 * 12))
    }

    pub fn year(self) -> i32 {
        self.0.div_euclid(12)
    }

    pub fn month(self) -> u32 {
        self.0.rem_euclid(12) as u32 + 1
    }

    pub fn plus(self, months: i32) -> Month {
        Month(self.0 + months)
    }
}

impl std::fmt::Display for Month {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}", self.year(), self.month())
    }
}

/// Hours of the day as a window of whole hours, `22-07` from 22:00 to 07:00 (across midnight);
/// `0-24` (or any window whose ends meet, `9-9`) is the whole day. The Workloads sheet's `window`
/// (when a job may run) and `peak_window` (when a service's peak hours fall).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DayWindow {
    /// First hour in the window, 0–23.
    pub start: u8,
    /// The hour the window ends at (not in it), 0–23; equal to `start` for the whole day.
    pub end: u8,
}

impl DayWindow {
    /// The whole day.
    pub const ALL_DAY: DayWindow = DayWindow { start: 0, end: 0 };

    /// `22-07`, `22:00-07:00`, `22–07`, `22~7`, `22点-7点`; hours 0–24.
    pub fn parse(text: &str) -> Option<DayWindow> {
        let t = text.trim();
        let (a, b) = t
            .split_once(['-', '–', '—', '~', '～', '至'])
            .filter(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty())?;
        let hour = |s: &str| -> Option<u8> {
            let s = s.trim().trim_end_matches('点').trim_end_matches("时");
            let s = s
                .strip_suffix(":00")
                .or_else(|| s.strip_suffix("：00"))
                .unwrap_or(s);
            let h: u8 = s.trim().parse().ok()?;
            (h <= 24).then_some(h % 24)
        };
        Some(DayWindow {
            start: hour(a)?,
            end: hour(b)?,
        })
    }

    /// Whether hour `h` (0–23) of the day is in the window.
    pub fn contains(self, h: usize) -> bool {
        let (s, e, h) = (self.start as usize, self.end as usize, h % 24);
        if s == e {
            true
        } else if s < e {
            (s..e).contains(&h)
        } else {
            h >= s || h < e
        }
    }

    /// Hours in the window (24 for the whole day).
    pub fn len(self) -> usize {
        (0..24).filter(|&h| self.contains(h)).count()
    }

    /// Whether it is empty: never (a window whose ends meet is the whole day).
    pub fn is_empty(self) -> bool {
        false
    }
}

impl std::fmt::Display for DayWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.start == self.end {
            write!(f, "00-24")
        } else {
            write!(f, "{:02}-{:02}", self.start, self.end)
        }
    }
}

pub fn column_letters(col: u32) -> String {
    let mut n = col as u64 + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = ((n - 1) % 26) as u8;
        out.push(b'A' + rem);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

impl fmt::Display for CellRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}!{}{}",
            self.sheet,
            column_letters(self.col),
            self.row + 1
        )
    }
}

/// What a workload does; it decides which memory terms apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Inference,
    Lora,
    Qlora,
    FullFinetune,
    Pretrain,
    ImageGen,
    VideoGen,
    Batch,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Inference,
        Kind::Lora,
        Kind::Qlora,
        Kind::FullFinetune,
        Kind::Pretrain,
        Kind::ImageGen,
        Kind::VideoGen,
        Kind::Batch,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Kind::Inference => "inference",
            Kind::Lora => "lora",
            Kind::Qlora => "qlora",
            Kind::FullFinetune => "full_finetune",
            Kind::Pretrain => "pretrain",
            Kind::ImageGen => "image_gen",
            Kind::VideoGen => "video_gen",
            Kind::Batch => "batch",
        }
    }

    pub fn zh(self) -> &'static str {
        match self {
            Kind::Inference => "推理",
            Kind::Lora => "LoRA微调",
            Kind::Qlora => "QLoRA微调",
            Kind::FullFinetune => "全参微调",
            Kind::Pretrain => "预训练",
            Kind::ImageGen => "生图",
            Kind::VideoGen => "生视频",
            Kind::Batch => "批处理",
        }
    }

    /// Parses a key or an alias in either language, case-insensitively.
    pub fn parse(text: &str) -> Option<Kind> {
        let t = normalize(text);
        Kind::ALL.into_iter().find(|k| {
            normalize(k.key()) == t
                || normalize(k.zh()) == t
                || match k {
                    Kind::Inference => ["serving", "api", "在线服务"]
                        .iter()
                        .any(|a| normalize(a) == t),
                    Kind::FullFinetune => ["full", "fullfinetuning", "finetune"]
                        .iter()
                        .any(|a| normalize(a) == t),
                    Kind::Pretrain => ["pretraining", "training"]
                        .iter()
                        .any(|a| normalize(a) == t),
                    Kind::ImageGen => ["image", "imagegeneration", "comfyui", "文生图"]
                        .iter()
                        .any(|a| normalize(a) == t),
                    Kind::VideoGen => [
                        "video",
                        "videogeneration",
                        "t2v",
                        "i2v",
                        "文生视频",
                        "视频生成",
                    ]
                    .iter()
                    .any(|a| normalize(a) == t),
                    Kind::Batch => ["batchjob", "跑批"].iter().any(|a| normalize(a) == t),
                    Kind::Lora => ["lora微调"].iter().any(|a| normalize(a) == t),
                    Kind::Qlora => ["qlora微调"].iter().any(|a| normalize(a) == t),
                }
        })
    }

    pub fn is_training(self) -> bool {
        matches!(
            self,
            Kind::Lora | Kind::Qlora | Kind::FullFinetune | Kind::Pretrain
        )
    }

    /// Image and video generation: sized by pixels (and frames), priced by work done.
    pub fn is_generation(self) -> bool {
        matches!(self, Kind::ImageGen | Kind::VideoGen)
    }
}

/// Lower-case, without spaces, dashes, underscores or dots: how names and aliases compare.
pub fn normalize(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '.' | '\u{3000}'))
        .collect()
}

/// Number formats of weights and KV caches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precision {
    Fp32,
    Fp16,
    Bf16,
    Fp8,
    Int8,
    Int4,
    /// OCP microscaling FP4: E2M1 values with one 8-bit (E8M0) scale per 32 (4.25 bits).
    Mxfp4,
    /// NVIDIA FP4: E2M1 values with one FP8 (E4M3) scale per 16 (4.5 bits).
    Nvfp4,
}

impl Precision {
    pub const ALL: [Precision; 8] = [
        Precision::Fp32,
        Precision::Fp16,
        Precision::Bf16,
        Precision::Fp8,
        Precision::Int8,
        Precision::Int4,
        Precision::Mxfp4,
        Precision::Nvfp4,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Fp16 => "fp16",
            Precision::Bf16 => "bf16",
            Precision::Fp8 => "fp8",
            Precision::Int8 => "int8",
            Precision::Int4 => "int4",
            Precision::Mxfp4 => "mxfp4",
            Precision::Nvfp4 => "nvfp4",
        }
    }

    /// Bytes a value takes in this format. Microscaling formats include their scales (MXFP4:
    /// 4 bits + 8 bits / 32 = 4.25 bits; NVFP4: 4 bits + 8 bits / 16 = 4.5 bits); int4's group
    /// scales are added by the formulas (`quant_bytes_per_param`), as they depend on the quantizer.
    pub fn bytes(self) -> f64 {
        match self {
            Precision::Fp32 => 4.0,
            Precision::Fp16 | Precision::Bf16 => 2.0,
            Precision::Fp8 | Precision::Int8 => 1.0,
            Precision::Int4 => 0.5,
            Precision::Mxfp4 => 4.25 / 8.0,
            Precision::Nvfp4 => 4.5 / 8.0,
        }
    }

    pub fn parse(text: &str) -> Option<Precision> {
        let t = normalize(text);
        let alias = match t.as_str() {
            "float32" | "full" | "32bit" | "单精度" => "fp32",
            "float16" | "half" | "16bit" | "半精度" => "fp16",
            "bfloat16" => "bf16",
            "float8" | "e4m3" | "8bitfloat" => "fp8",
            "8bit" | "q8" | "w8a16" => "int8",
            "4bit" | "nf4" | "q4" | "gptq" | "awq" | "w4a16" => "int4",
            "mxfp4e2m1" | "ocpfp4" => "mxfp4",
            "fp4" | "nvfp4e2m1" => "nvfp4",
            other => other,
        };
        Precision::ALL.into_iter().find(|p| p.key() == alias)
    }
}

macro_rules! numeric_fields {
    ($(#[$meta:meta])* $name:ident { $($field:ident),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq)]
        pub struct $name { $(pub $field: Option<f64>,)* }

        impl $name {
            /// The column keys, in sheet order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];

            /// The value of a column by key; `None` when the key is not one of these columns.
            pub fn get(&self, key: &str) -> Option<Option<f64>> {
                match key { $(stringify!($field) => Some(self.$field),)* _ => None }
            }

            /// A mutable handle on a column by key.
            pub fn get_mut(&mut self, key: &str) -> Option<&mut Option<f64>> {
                match key { $(stringify!($field) => Some(&mut self.$field),)* _ => None }
            }
        }
    };
}

numeric_fields! {
    /// The numeric columns of a workload row, exactly as given (blank is `None`); defaults are
    /// applied where the formulas' variables are bound, so that `has_<key>` can tell them apart.
    WorkloadNumbers {
        params_b, context_len, avg_tokens, concurrency, base_concurrency, peak_hours_per_day,
        batch_size, tokens_per_s_per_request, min_tokens_per_s, max_ttft_s, target_tps, train_tokens_m,
        hours_per_month, runs_per_month, redundancy, max_gpus, resolution, vram_gib,
        pilot_vram_gib, pilot_concurrency, storage_gb, egress_gb, image_tokens,
        items_per_month, seconds_per_item, frames, requests_per_day, input_tokens,
        output_tokens, cached_share, checkpoint_min,
    }
}

macro_rules! model_fields {
    ($($(#[$doc:meta])* $field:ident),* $(,)?) => {
        /// A model's architecture, as its config.json gives it; zero where a figure is unknown or
        /// does not apply (an image model has no KV cache, a dense model no experts).
        #[derive(Debug, Clone, Default, PartialEq, Serialize)]
        pub struct ModelSpec {
            pub name: String,
            $($(#[$doc])* pub $field: f64,)*
            /// Numeric columns a user added to the Models sheet, each a formula variable.
            pub extra: Vec<(String, f64)>,
            /// Where the figures come from (a config.json, a model card), when known.
            pub source: String,
        }

        impl ModelSpec {
            /// The figures of a Models row, in sheet order; each is a formula variable.
            pub const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];

            /// A figure by key: a built-in field, else a column of the user's; 0 when absent.
            pub fn field(&self, key: &str) -> f64 {
                match key {
                    $(stringify!($field) => self.$field,)*
                    other => self.extra.iter().find(|(k, _)| k == other).map_or(0.0, |(_, v)| *v),
                }
            }

            /// A mutable handle on a built-in field.
            pub fn field_mut(&mut self, key: &str) -> Option<&mut f64> {
                match key { $(stringify!($field) => Some(&mut self.$field),)* _ => None }
            }
        }
    };
}

model_fields! {
    /// Total parameters, billions (every expert included: all are resident).
    params_b,
    /// Parameters one token uses, billions (MoE: shared part plus its experts); 0 = params_b.
    active_params_b,
    layers, hidden, heads, kv_heads, head_dim, ffn, vocab,
    /// 1 where the output head shares the input embeddings' weights (tie_word_embeddings).
    tied_embeddings,
    /// Routed experts per MoE layer (0: a dense model).
    experts,
    /// Routed experts each token uses.
    experts_per_token,
    /// Experts every token uses (DeepSeek, GLM-4.5, Llama 4: 1).
    shared_experts,
    /// Width of one expert's feed-forward layer.
    moe_ffn,
    /// Layers with a dense feed-forward layer instead of experts.
    dense_layers,
    /// Multi-head latent attention: rank of the cached latent (DeepSeek-V3: 512; 0: not MLA).
    kv_lora_rank,
    /// Multi-head latent attention: the decoupled RoPE key cached beside the latent (64).
    qk_rope_head_dim,
    /// Tokens a local-attention layer keeps (sliding window or chunk); 0: none.
    sliding_window,
    /// Layers that keep at most sliding_window tokens.
    sliding_layers,
    /// Layers of linear attention or a state-space model (Gated DeltaNet, Mamba): each request
    /// holds a fixed recurrent state there instead of a KV cache that grows with its tokens.
    linear_layers,
    /// The recurrent state one request holds over all linear_layers, MiB.
    linear_state_mib,
    /// Parameters of the vision tower, billions (kept 16-bit under a quantized language model).
    vision_params_b,
    /// Parameters of the language model, billions, that a quantized checkpoint keeps 16-bit
    /// besides its embeddings and output head (Meta's Llama-3.1-405B FP8: all attention).
    unquantized_params_b,
}

impl ModelSpec {
    /// What `source` says of a model whose layers and heads were borrowed from the catalog's
    /// model nearest in size (no sheet described it): the prefix, then that model's name.
    pub const GUESSED_FROM: &'static str = "guessed from the catalog's nearest in size: ";

    /// The catalog model a guessed architecture was borrowed from, if this one was guessed.
    pub fn guessed_from(&self) -> Option<&str> {
        self.source.strip_prefix(Self::GUESSED_FROM)
    }

    /// A transformer language model (it has layers and heads, hence a KV cache).
    pub fn has_architecture(&self) -> bool {
        self.layers > 0.0
            && (self.kv_lora_rank > 0.0 || (self.kv_heads > 0.0 && self.head_dim > 0.0))
    }

    /// Parameters one token uses: the published active figure, else all of them.
    pub fn active_params(&self) -> f64 {
        if self.active_params_b > 0.0 {
            self.active_params_b
        } else {
            self.params_b
        }
    }
}

/// One validated workload row.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    pub name: String,
    pub kind: Kind,
    /// The model as resolved (from the Models sheet or the catalog); `None` for a workload sized
    /// only by `vram_gib` or by `params_b` with no known architecture.
    pub model: Option<ModelSpec>,
    pub precision: Precision,
    pub kv_precision: Precision,
    /// The routed experts' weights (an MoE checkpoint may quantize only them, as gpt-oss ships
    /// MXFP4 experts beside bf16 attention); default the precision.
    pub expert_precision: Precision,
    pub numbers: WorkloadNumbers,
    pub online: bool,
    pub spot_ok: bool,
    /// Pinned GPU (a `gpu` value of the GPUs sheet).
    pub gpu: Option<String>,
    /// The serving engine or trainer whose profile applies (a name of [`Engines`]).
    pub engine: Option<String>,
    /// The APIs row (by model) its cost is compared with; None: no comparison.
    pub api: Option<String>,
    /// The first and last months it runs in the Year tab (blank: the whole year).
    pub start_month: Option<Month>,
    pub end_month: Option<Month>,
    /// The hours of the day it may run (blank: any time), for the fleet's off-hours sharing.
    pub window: Option<DayWindow>,
    /// When a service's peak hours fall; off-peak it needs only its base instances.
    pub peak_window: Option<DayWindow>,
    pub notes: String,
    /// Where the row is: `Workloads!A5` (the name cell).
    pub cell: CellRef,
}

impl Workload {
    /// Parameters in billions: the row's own figure, else the model's.
    pub fn params_b(&self) -> f64 {
        self.numbers
            .params_b
            .or(self.model.as_ref().map(|m| m.params_b))
            .unwrap_or(0.0)
    }
}

/// `v` rounded to the cent, half away from zero as Excel's ROUND; 0.0, never -0.0. The value
/// is first nudged away from zero by one part in 10¹³ (a few hundred units in the last place),
/// so that a half cent that binary floating point holds as 0.00499999… (1.005 × 100 =
/// 100.49999…) rounds up as Excel and LibreOffice round it, while a value truly below the half
/// cent is not moved across it.
pub fn cents(v: f64) -> f64 {
    if !v.is_finite() {
        return v;
    }
    let x = v * 100.0;
    (x * (1.0 + 1e-13)).round() / 100.0 + 0.0
}

/// Serializes money to the cent (`#[serde(serialize_with = "crate::model::cents_json")]`): a
/// difference or sum of cents is written as its 2 decimals, not as 308.33000000000175.
pub fn cents_json<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(cents(*v))
}

/// [`cents_json`] for an amount that may be absent.
pub fn cents_json_opt<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(x) => s.serialize_some(&cents(*x)),
        None => s.serialize_none(),
    }
}

/// One GPU offer: a GPU model at a provider, prices per GPU.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GpuOffer {
    pub gpu: String,
    pub provider: String,
    /// The software stack: `cuda`, `rocm`, `ascend` (templates/compat.tsv says what each runs).
    pub platform: String,
    pub vram_gib: f64,
    pub bandwidth_gbs: f64,
    pub fp16_tflops: f64,
    /// Dense 8-bit tensor TFLOPS (FP8, or INT8 where the card has no FP8); 0 = unknown.
    pub fp8_tflops: f64,
    /// Dense 16-bit tensor TFLOPS accumulating in 16 bits where it differs from `fp16_tflops`
    /// (GeForce cards: twice); 0 = the same as `fp16_tflops`.
    pub fp16_acc16_tflops: f64,
    /// CUDA compute capability; 0 on other platforms.
    pub compute_capability: f64,
    pub nvlink: bool,
    /// GB/s between the GPUs of a node, both directions (NVLink, Infinity Fabric, HCCS, PCIe).
    pub interconnect_gbs: f64,
    pub gpus_per_node: f64,
    /// GB/s between nodes (RDMA), when the provider says; `None` = unknown.
    pub node_interconnect_gbs: Option<f64>,
    pub on_demand_hourly: Option<f64>,
    pub monthly: Option<f64>,
    pub spot_hourly: Option<f64>,
    pub reserved_monthly: Option<f64>,
    /// A card bought: its price with its share of the server (`None`: not for sale), the months
    /// it is depreciated over, the share of the price it resells for, its board power (W;
    /// `None`: unknown) and its rack or colocation fee a month.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purchase_price: Option<f64>,
    pub depreciation_months: f64,
    pub residual_share: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power_w: Option<f64>,
    pub hosting_monthly: f64,
    /// How often a spot instance of the offer is reclaimed, per day; `None`: the Assumption
    /// `spot_interruptions_per_day`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spot_interruptions_per_day: Option<f64>,
    /// Months a reserved price commits to (blank: not stated, shown month by month).
    pub reserved_term_months: Option<f64>,
    pub billing_granularity_min: f64,
    pub min_rental_min: f64,
    pub available: bool,
    /// Where the row is, when it came from the user's sheet.
    pub cell: Option<CellRef>,
    /// A quote in another currency than the plan's: its code, the rate it was converted at
    /// (the plan's currency per unit of it) and the cell of its currency. The prices above are
    /// the converted ones.
    #[serde(skip)]
    pub quoted_in: Option<(String, f64, String)>,
}

impl GpuOffer {
    /// The provider of the built-in catalog's offers, whose prices are examples, not quotes.
    pub const EXAMPLE_PROVIDER: &'static str = "example";

    /// Whether its prices are the built-in examples (provider `example`).
    pub fn is_example(&self) -> bool {
        self.provider == Self::EXAMPLE_PROVIDER
    }

    /// The numeric columns of the GPUs sheet.
    pub const NUMERIC: [&'static str; 22] = [
        "vram_gib",
        "bandwidth_gbs",
        "fp16_tflops",
        "fp8_tflops",
        "fp16_acc16_tflops",
        "interconnect_gbs",
        "node_interconnect_gbs",
        "compute_capability",
        "gpus_per_node",
        "on_demand_hourly",
        "monthly",
        "spot_hourly",
        "reserved_monthly",
        "spot_interruptions_per_day",
        "purchase_price",
        "depreciation_months",
        "residual_share",
        "power_w",
        "hosting_monthly",
        "billing_granularity_min",
        "reserved_term_months",
        "min_rental_min",
    ];

    /// Sets a numeric column of the offer (a price, a term, a specification); false, and
    /// nothing set, for a key that is not one of [`GpuOffer::NUMERIC`].
    pub fn set_number(&mut self, key: &str, v: f64) -> bool {
        if !Self::NUMERIC.contains(&key) {
            return false;
        }
        self.set_column(key, v);
        true
    }

    /// Sets a numeric column of [`GpuOffer::NUMERIC`] (any other key is a price, and ignored
    /// when it is not one).
    pub fn set_column(&mut self, key: &str, v: f64) {
        match key {
            "vram_gib" => self.vram_gib = v,
            "bandwidth_gbs" => self.bandwidth_gbs = v,
            "fp16_tflops" => self.fp16_tflops = v,
            "compute_capability" => self.compute_capability = v,
            "fp8_tflops" => self.fp8_tflops = v,
            "fp16_acc16_tflops" => self.fp16_acc16_tflops = v,
            "interconnect_gbs" => self.interconnect_gbs = v,
            "node_interconnect_gbs" => self.node_interconnect_gbs = Some(v),
            "gpus_per_node" => self.gpus_per_node = v,
            "billing_granularity_min" => self.billing_granularity_min = v,
            "min_rental_min" => self.min_rental_min = v,
            "reserved_term_months" => self.reserved_term_months = Some(v),
            "spot_interruptions_per_day" => self.spot_interruptions_per_day = Some(v),
            "depreciation_months" => self.depreciation_months = v,
            "residual_share" => self.residual_share = v,
            "power_w" => self.power_w = Some(v),
            "hosting_monthly" => self.hosting_monthly = v,
            price => self.set_price(price, Some(v)),
        }
    }

    /// Sets a price of the offer by its column; `None` is not offered. Any other key is
    /// ignored.
    pub fn set_price(&mut self, key: &str, v: Option<f64>) {
        if let Some(p) = Price::parse(key) {
            *self.price_mut(p) = v;
        }
    }

    /// A price of the offer; `None` where the mode is not offered.
    pub fn price(&self, p: Price) -> Option<f64> {
        match p {
            Price::OnDemandHourly => self.on_demand_hourly,
            Price::Monthly => self.monthly,
            Price::SpotHourly => self.spot_hourly,
            Price::ReservedMonthly => self.reserved_monthly,
            Price::Purchase => self.purchase_price,
        }
    }

    pub fn price_mut(&mut self, p: Price) -> &mut Option<f64> {
        match p {
            Price::OnDemandHourly => &mut self.on_demand_hourly,
            Price::Monthly => &mut self.monthly,
            Price::SpotHourly => &mut self.spot_hourly,
            Price::ReservedMonthly => &mut self.reserved_monthly,
            Price::Purchase => &mut self.purchase_price,
        }
    }

    /// The formula variables of an offer's prices and billing terms, in the order of
    /// [`GpuOffer::terms`]: the planner binds them, the Plan tab writes them as editable inputs.
    pub const TERMS: [&'static str; 7] = [
        "price_on_demand",
        "price_monthly",
        "price_spot",
        "price_reserved",
        "price_purchase",
        "billing_granularity_min",
        "min_rental_min",
    ];

    /// The offer's prices (None where not offered) and billing terms, as named by `TERMS`.
    pub fn terms(&self) -> [Option<f64>; 7] {
        let [a, b, c, d, e] = Price::ALL.map(|p| self.price(p));
        [
            a,
            b,
            c,
            d,
            e,
            Some(self.billing_granularity_min),
            Some(self.min_rental_min),
        ]
    }

    /// Whether `name` (normalized) names this offer: its GPU (`rtx4090`) or its label
    /// (`RTX 4090 @ example`).
    pub fn is_named(&self, name: &str) -> bool {
        normalize(&self.gpu) == name || normalize(&self.label()) == name
    }

    /// `RTX 4090 @ example`.
    pub fn label(&self) -> String {
        if self.provider.is_empty() {
            self.gpu.clone()
        } else {
            format!("{} @ {}", self.gpu, self.provider)
        }
    }
}

/// Where a value came from, for the Assumptions tab and for warnings.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    Sheet(String),
    Default,
    Set,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Sheet(cell) => write!(f, "{cell}"),
            Source::Default => write!(f, "default"),
            Source::Set => write!(f, "--set"),
        }
    }
}

/// An assumption's value: a number, a yes/no, or a label (`currency`).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Number(f64),
    Bool(bool),
    Text(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(n) => write!(f, "{}", format_number(*n)),
            Value::Bool(b) => write!(f, "{}", if *b { "yes" } else { "no" }),
            Value::Text(t) => write!(f, "{t}"),
        }
    }
}

/// A number as a person writes it: no trailing `.0`, at most 6 significant decimals.
pub fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        let s = format!("{n:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Assumption {
    pub key: String,
    pub value: Value,
    pub unit: String,
    pub note: String,
    pub source: Source,
}

/// The Assumptions sheet after defaults and `--set` are applied.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Assumptions {
    pub items: Vec<Assumption>,
}

impl Assumptions {
    pub fn get(&self, key: &str) -> Option<&Assumption> {
        self.items.iter().find(|a| a.key == key)
    }

    /// A text assumption, trimmed; "" when it is absent, blank or not text.
    pub fn text(&self, key: &str) -> &str {
        match self.get(key).map(|a| &a.value) {
            Some(Value::Text(t)) => t.trim(),
            _ => "",
        }
    }

    /// A numeric assumption, or `default` if it is absent or not a number.
    pub fn number(&self, key: &str, default: f64) -> f64 {
        match self.get(key).map(|a| &a.value) {
            Some(Value::Number(n)) => *n,
            _ => default,
        }
    }

    pub fn currency(&self) -> String {
        match self.get("currency").map(|a| &a.value) {
            Some(Value::Text(t)) if !t.trim().is_empty() => t.trim().to_uppercase(),
            _ => "CNY".to_string(),
        }
    }
}

/// A kind of budget cut (seed 001 §6.3, 降级方案), named as the Assumption `cut_order` lists
/// them from least to most harm. One table: the words, the default order and the parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CutAction {
    Spot,
    Fp8,
    Int8,
    NoRedundancy,
    Int4,
    Api,
    Postpone,
}

impl CutAction {
    /// Every action, in the default order of harm (the default `cut_order`).
    pub const ALL: [CutAction; 7] = [
        CutAction::Spot,
        CutAction::Fp8,
        CutAction::Int8,
        CutAction::NoRedundancy,
        CutAction::Int4,
        CutAction::Api,
        CutAction::Postpone,
    ];

    pub fn key(self) -> &'static str {
        match self {
            CutAction::Spot => "spot",
            CutAction::Fp8 => "fp8",
            CutAction::Int8 => "int8",
            CutAction::NoRedundancy => "no_redundancy",
            CutAction::Int4 => "int4",
            CutAction::Api => "api",
            CutAction::Postpone => "postpone",
        }
    }

    /// The lower precision the action serves in, for fp8, int8 and int4.
    pub fn precision(self) -> Option<Precision> {
        match self {
            CutAction::Fp8 => Some(Precision::Fp8),
            CutAction::Int8 => Some(Precision::Int8),
            CutAction::Int4 => Some(Precision::Int4),
            _ => None,
        }
    }

    /// The actions a `cut_order` text lists, least harm first: words separated by commas,
    /// spaces or `<`; each once. An action left out is never proposed. The error names the word
    /// that is not an action, or the one listed twice.
    pub fn parse_order(text: &str) -> Result<Vec<CutAction>, String> {
        let mut order = Vec::new();
        let words = text
            .split(|c: char| c == ',' || c == '<' || c == '，' || c == '、' || c.is_whitespace())
            .filter(|w| !w.is_empty());
        for word in words {
            let w = word.to_ascii_lowercase().replace('-', "_");
            let Some(a) = CutAction::ALL.into_iter().find(|a| a.key() == w) else {
                let all: Vec<&str> = CutAction::ALL.iter().map(|a| a.key()).collect();
                return Err(format!("`{word}` is not a cut: use {}", all.join(", ")));
            };
            if order.contains(&a) {
                return Err(format!("{} is listed twice", a.key()));
            }
            order.push(a);
        }
        if order.is_empty() {
            return Err("no cut is listed".to_string());
        }
        Ok(order)
    }

    /// The order as the Assumption writes it.
    pub fn order_text(order: &[CutAction]) -> String {
        order.iter().map(|a| a.key()).collect::<Vec<_>>().join(", ")
    }
}

/// A currency's symbol and decimals where it has one the outputs write as a prefix (`¥1,628.00`);
/// any other ISO code is written as a suffix with two decimals. The terminal and the workbook
/// both read this table.
pub fn currency_symbol(code: &str) -> Option<(&'static str, usize)> {
    match code {
        "CNY" | "RMB" => Some(("¥", 2)),
        "USD" => Some(("$", 2)),
        "EUR" => Some(("€", 2)),
        "GBP" => Some(("£", 2)),
        "JPY" => Some(("¥", 0)),
        _ => None,
    }
}

/// `¥1,628.00`, `$12.50`, `¥1,628` (JPY), `1,000.00 CHF`.
pub fn money(currency: &str, v: f64) -> String {
    let symbol = currency_symbol(currency);
    let decimals = symbol.map_or(2, |(_, d)| d);
    let scale = 10u128.pow(decimals as u32);
    let units = (v.abs() * scale as f64).round() as u128;
    let whole = (units / scale).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let n = if decimals > 0 {
        format!("{grouped}.{:0decimals$}", units % scale)
    } else {
        grouped
    };
    let sign = if v < 0.0 && units > 0 { "-" } else { "" };
    match symbol {
        Some((s, _)) => format!("{sign}{s}{n}"),
        None => format!("{sign}{n} {currency}"),
    }
}

/// Which workloads an engine profile's value applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Applies {
    /// Inference, batch, image and video generation: what serves requests or items.
    Serving,
    /// LoRA, QLoRA, full fine-tune, pretraining.
    Training,
    /// Both.
    Any,
}

impl Applies {
    pub fn parse(text: &str) -> Option<Applies> {
        match normalize(text).as_str() {
            "serving" | "inference" | "推理" | "服务" => Some(Applies::Serving),
            "training" | "train" | "训练" => Some(Applies::Training),
            "any" | "both" | "all" | "" => Some(Applies::Any),
            _ => None,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Applies::Serving => "serving",
            Applies::Training => "training",
            Applies::Any => "any",
        }
    }

    pub fn covers(self, kind: Kind) -> bool {
        match self {
            Applies::Any => true,
            Applies::Training => kind.is_training(),
            Applies::Serving => !kind.is_training(),
        }
    }
}

/// One figure of an engine profile: the value an assumption takes for the workloads that run
/// on that engine, with its source.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineValue {
    pub engine: String,
    pub applies: Applies,
    /// An assumption key whose role is sizing (`catalog::profile_keys`).
    pub key: String,
    pub value: f64,
    pub unit: String,
    /// The engine version the figure holds for.
    pub version: String,
    pub source: String,
    /// The Engines sheet cell of the value, `None` for a built-in figure.
    pub cell: Option<CellRef>,
}

/// The engine profiles of an input (built-in figures and the Engines sheet's).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Engines {
    pub values: Vec<EngineValue>,
}

impl Engines {
    /// The engines named, in first-seen order.
    pub fn names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for v in &self.values {
            if !out.iter().any(|n| *n == v.engine) {
                out.push(&v.engine);
            }
        }
        out
    }

    /// The engine's canonical name for `text` (compared normalized), if it has a profile.
    pub fn find(&self, text: &str) -> Option<&str> {
        let n = normalize(text);
        self.values
            .iter()
            .find(|v| normalize(&v.engine) == n)
            .map(|v| v.engine.as_str())
    }

    /// The figures of `engine` that apply to a workload of `kind`.
    pub fn for_workload<'a>(
        &'a self,
        engine: &'a str,
        kind: Kind,
    ) -> impl Iterator<Item = &'a EngineValue> + 'a {
        self.values
            .iter()
            .filter(move |v| v.engine == engine && v.applies.covers(kind))
    }
}

/// Names the planner adds to each chosen candidate, so portfolio formulas can sum them
/// (`total_gpu_cost`, …): no formula may take them.
pub const PLANNED: [&str; 4] = ["gpu_cost", "cold_start_cost", "rework_cost", "tco"];

/// Names of the plan's own total lines (the terminal summary, the JSON `totals`) besides
/// [`PLANNED`]: a portfolio formula may not take them, or it would replace a line.
pub const TOTAL_LINES: [&str; 3] = ["storage_cost", "egress_cost", "trial_reserve"];

/// When a formula is evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Once for every (workload, GPU offer).
    Candidate,
    /// Once, after the plan is chosen.
    Portfolio,
}

impl Scope {
    pub fn key(self) -> &'static str {
        match self {
            Scope::Candidate => "candidate",
            Scope::Portfolio => "portfolio",
        }
    }
}

/// Whether a formula is gpuplan's, a user's replacement of one, or a user's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Default,
    Replaced,
    User,
}

/// One row of the Formulas sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct FormulaDef {
    pub name: String,
    pub expression: String,
    pub scope: Scope,
    pub unit: String,
    pub description: String,
    pub origin: Origin,
    /// The expression's cell, when the row came from the user's sheet.
    pub cell: Option<CellRef>,
}

impl FormulaDef {
    /// `Formulas!B7 (fits)` or `formula fits` for messages.
    pub fn location(&self) -> String {
        match &self.cell {
            Some(cell) => format!("{cell} ({})", self.name),
            None => format!("formula {}", self.name),
        }
    }
}

/// How serious a warning is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Info,
    Warning,
}

/// Something the user should know; never silent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    pub severity: Severity,
    #[serde(rename = "where")]
    pub location: String,
    pub message: String,
    /// The message in Chinese, where it has been translated (the Warnings tab and the terminal
    /// with `--lang zh` show it; otherwise, and in the JSON, the English), as [`Problem`]s have.
    ///
    /// [`Problem`]: crate::error::Problem
    #[serde(skip)]
    pub zh: Option<String>,
}

impl Warning {
    pub fn warn(location: impl Into<String>, message: impl Into<String>) -> Self {
        Warning {
            severity: Severity::Warning,
            location: location.into(),
            message: message.into(),
            zh: None,
        }
    }
    pub fn info(location: impl Into<String>, message: impl Into<String>) -> Self {
        Warning {
            severity: Severity::Info,
            location: location.into(),
            message: message.into(),
            zh: None,
        }
    }

    /// The same warning with its Chinese message.
    pub fn with_zh(mut self, zh: impl Into<String>) -> Self {
        self.zh = Some(zh.into());
        self
    }

    /// The message in the language asked for: English where no translation exists, so a
    /// warning added without its Chinese still shows.
    pub fn text(&self, lang: crate::lang::Lang) -> &str {
        match (&self.zh, lang) {
            (Some(zh), crate::lang::Lang::Zh) => zh,
            _ => &self.message,
        }
    }
}

/// A validated input workbook: everything the engine needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    pub file: std::path::PathBuf,
    pub workloads: Vec<Workload>,
    pub gpus: Vec<GpuOffer>,
    /// The catalog after the Models sheet's rows are merged in.
    pub models: Vec<ModelSpec>,
    /// Numeric columns the user added to the Models sheet (formula variables).
    pub model_columns: Vec<String>,
    pub assumptions: Assumptions,
    /// Engine profiles: per-engine assumption values for the workloads that name the engine.
    pub engines: Engines,
    pub formulas: Vec<FormulaDef>,
    /// Read-time notices: sheets taken from defaults, models guessed, figures filled from the catalog.
    pub notices: Vec<Warning>,
    /// SHA-256 of the file's bytes as read, lowercase hex (empty for an input not from a file).
    pub sha256: String,
    /// The Scenarios sheet: each scenario's changes in the --set syntax, in sheet order.
    pub scenarios: Vec<ScenarioDef>,
    /// The APIs sheet, or the built-in examples without one.
    pub apis: Vec<ApiPrice>,
    /// The Ranges sheet: what varies for the Sensitivity tab.
    pub ranges: Vec<RangeDef>,
    /// The Usage sheet: which GPU of the usage logs runs which workload (`gpuplan usage`).
    pub usage: Vec<GpuMapping>,
}

impl Input {
    /// Sets `key` of `target` to the number `v` in an input already read, as `--set key=v` would
    /// have: a numeric assumption, a numeric GPU column of the matching offers, or a numeric
    /// Workloads column of the matching workloads (`*` for all); or why it cannot.
    pub fn set_number(&mut self, target: &Target, key: &str, v: f64) -> Result<(), String> {
        match target {
            Target::Assumption => {
                let items = &mut self.assumptions.items;
                let Some(i) = items.iter().position(|a| a.key == key) else {
                    let hint =
                        crate::support::suggest::hint(key, items.iter().map(|a| a.key.as_str()));
                    return Err(format!("{key} is not an assumption{hint}"));
                };
                let a = &mut items[i];
                match a.value {
                    Value::Number(_) => a.value = Value::Number(v),
                    _ => return Err(format!("{key} is not a number")),
                }
            }
            Target::Gpu(name) => {
                let mut any = false;
                let n = normalize(name);
                for g in self
                    .gpus
                    .iter_mut()
                    .filter(|g| name == "*" || g.is_named(&n))
                {
                    any = true;
                    if !g.set_number(key, v) {
                        return Err(format!("{key} is not a numeric GPU column"));
                    }
                }
                if !any {
                    return Err(format!("there is no GPU offer \"{name}\""));
                }
            }
            Target::Workload(name) => {
                let mut any = false;
                for w in self
                    .workloads
                    .iter_mut()
                    .filter(|w| name == "*" || &w.name == name)
                {
                    any = true;
                    match w.numbers.get_mut(key) {
                        Some(slot) => *slot = Some(v),
                        None => {
                            let hint = crate::support::suggest::hint(
                                key,
                                crate::model::WorkloadNumbers::NAMES.iter().copied(),
                            );
                            return Err(format!("{key} is not a numeric workload column{hint}"));
                        }
                    }
                }
                if !any {
                    return Err(format!("there is no workload named \"{name}\""));
                }
            }
        }
        Ok(())
    }

    /// The workloads' names, in the sheet's order.
    pub fn workload_names(&self) -> Vec<String> {
        self.workloads.iter().map(|w| w.name.clone()).collect()
    }
}

/// A per-token API price, for comparing renting GPUs with calling an API (the APIs sheet).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiPrice {
    pub provider: String,
    /// The name a workload's `api` column gives.
    pub model: String,
    /// Prices per million tokens, in the plan's currency.
    pub input_per_m: f64,
    pub output_per_m: f64,
    /// Per million input tokens a cache serves; None: not offered (cached tokens cost as input).
    pub cached_input_per_m: Option<f64>,
    /// Where the price was read (examples are marked so).
    pub source: String,
}

/// One row of the Ranges sheet: what varies (the --set syntax without the value) and how.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeDef {
    /// The key as written: `chat-api.concurrency`, `gpu:H100.monthly`, `safety_margin`.
    pub key: String,
    /// What the key names, parsed once.
    pub target: Target,
    pub column: String,
    /// Whether the column holds whole numbers (a concurrency, a context length): samples are
    /// rounded.
    pub whole: bool,
    pub low: f64,
    pub high: f64,
    /// The mode of a triangular distribution; None: uniform.
    pub likely: Option<f64>,
    /// The row's key cell, `Ranges!A2`.
    pub cell: String,
}

/// One scenario of the Scenarios sheet: its name and its changes, each with its cell.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioDef {
    pub name: String,
    /// Its changes, each with its cell `Scenarios!B3` as origin.
    pub changes: Vec<Change>,
}

/// One row of the Usage sheet (or of a `--map` file): a GPU as the usage logs name it, and the
/// workload it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuMapping {
    /// A uuid (`GPU-5f1c…`), an index (`0`), `host:index` (`node1:0`), or a plain log's own name.
    pub gpu_id: String,
    pub workload: String,
    /// Where the row is, for messages: `Usage!A3` or `map.csv:3`.
    pub location: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A warning added without its Chinese (as other branches add them) still shows, in English.
    #[test]
    fn a_warning_without_chinese_falls_back_to_english() {
        use crate::lang::Lang;
        let plain = Warning::warn("Workloads!A2", "a share is tight");
        assert_eq!(plain.text(Lang::Zh), "a share is tight");
        let both = plain.clone().with_zh("比例偏紧");
        assert_eq!(both.text(Lang::Zh), "比例偏紧");
        assert_eq!(both.text(Lang::En), "a share is tight");
        assert_eq!(
            serde_json::to_value(&both).unwrap()["message"],
            "a share is tight"
        );
    }

    #[test]
    fn column_letters_cover_one_two_and_three_letters() {
        assert_eq!(column_letters(0), "A");
        assert_eq!(column_letters(25), "Z");
        assert_eq!(column_letters(26), "AA");
        assert_eq!(column_letters(16383), "XFD");
    }

    #[test]
    fn kind_aliases_in_both_languages() {
        assert_eq!(Kind::parse("LoRA微调"), Some(Kind::Lora));
        assert_eq!(Kind::parse(" Full_Finetune "), Some(Kind::FullFinetune));
        assert_eq!(Kind::parse("生图"), Some(Kind::ImageGen));
        assert_eq!(Kind::parse("推理"), Some(Kind::Inference));
        assert_eq!(Kind::parse("video"), Some(Kind::VideoGen));
        assert_eq!(Kind::parse("生视频"), Some(Kind::VideoGen));
        assert_eq!(Kind::parse("hologram"), None);
    }

    #[test]
    fn precision_bytes_and_aliases() {
        assert_eq!(Precision::parse("NF4"), Some(Precision::Int4));
        assert_eq!(Precision::parse("BF16").map(Precision::bytes), Some(2.0));
        assert_eq!(Precision::Int4.bytes(), 0.5);
        assert_eq!(Precision::parse("fp64"), None);
    }

    #[test]
    fn money_is_grouped_with_the_currency_symbol() {
        assert_eq!(money("CNY", 1628.0), "¥1,628.00");
        assert_eq!(money("USD", 1234567.891), "$1,234,567.89");
        assert_eq!(money("CHF", 12.5), "12.50 CHF");
        assert_eq!(money("CNY", -5.0), "-¥5.00");
        // The workbook's table: pounds with a symbol, yen without decimals.
        assert_eq!(money("GBP", 12.5), "£12.50");
        assert_eq!(money("JPY", 1234.6), "¥1,235");
    }
}

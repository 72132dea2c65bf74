//! A workload as the Workloads sheet gives it, and the model it runs: its kind, precisions,
//! numbers and the model's figures.

use super::*;
use crate::labels::Label;

/// What a workload does; it decides which memory terms apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `inference` (推理): serving a model to users; weights, KV cache and activations.
    Inference,
    /// `lora` (LoRA微调): fine-tuning adapters, `lora_trainable_fraction` of the parameters.
    Lora,
    /// `qlora` (QLoRA微调): LoRA over base weights held at 4 bits (default precision int4).
    Qlora,
    /// `full_finetune` (全参微调): every parameter trained, with gradients and AdamW states.
    FullFinetune,
    /// `pretrain` (预训练): training from scratch; sized like a full fine-tune.
    Pretrain,
    /// `image_gen` (生图): an image-generation pipeline, sized by resolution and batch.
    ImageGen,
    /// `video_gen` (生视频): video generation, sized by resolution and frames.
    VideoGen,
    /// `batch` (批处理): offline GPU batch jobs; spot allowed by default.
    Batch,
}

impl Kind {
    /// Every kind, in the order the template lists them.
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

    /// The kind's word in both languages: the Workloads sheet's English word, also the JSON's
    /// (`full_finetune`), and the Chinese one, an alias the sheet accepts (`全参微调`).
    pub const fn label(self) -> Label {
        match self {
            Kind::Inference => Label::new("inference", "推理"),
            Kind::Lora => Label::new("lora", "LoRA微调"),
            Kind::Qlora => Label::new("qlora", "QLoRA微调"),
            Kind::FullFinetune => Label::new("full_finetune", "全参微调"),
            Kind::Pretrain => Label::new("pretrain", "预训练"),
            Kind::ImageGen => Label::new("image_gen", "生图"),
            Kind::VideoGen => Label::new("video_gen", "生视频"),
            Kind::Batch => Label::new("batch", "批处理"),
        }
    }

    /// The Workloads sheet's English word, also the JSON's: `full_finetune`.
    pub fn key(self) -> &'static str {
        self.label().en
    }

    /// Parses a key or an alias in either language, case-insensitively.
    pub fn parse(text: &str) -> Option<Kind> {
        let t = normalize(text);
        Kind::ALL.into_iter().find(|k| {
            normalize(k.key()) == t
                || normalize(k.label().zh) == t
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

    /// LoRA, QLoRA, full fine-tune or pretraining: gradients and optimizer states apply
    /// (`is_training` in the formulas).
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
    /// 32-bit float, 4 bytes a value.
    Fp32,
    /// IEEE half, 2 bytes a value; the default KV cache precision.
    Fp16,
    /// bfloat16, 2 bytes a value; the default weight precision (on CUDA, compute capability
    /// 8.0 or later: templates/compat.tsv).
    Bf16,
    /// 8-bit float (E4M3), 1 byte a value.
    Fp8,
    /// 8-bit integer, 1 byte a value.
    Int8,
    /// 4-bit integer (GPTQ, AWQ, NF4), 0.5 byte a value before its group scales.
    Int4,
    /// OCP microscaling FP4: E2M1 values with one 8-bit (E8M0) scale per 32 (4.25 bits).
    Mxfp4,
    /// NVIDIA FP4: E2M1 values with one FP8 (E4M3) scale per 16 (4.5 bits).
    Nvfp4,
}

impl Precision {
    /// Every precision, in the order the Workloads sheet's `precision` column lists them.
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

    /// The word the sheet and the formulas use: `bf16`, `int4`, `nvfp4`.
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

    /// Parses a key or an alias (`bfloat16`, `half`, `nf4`, `awq`, `fp4`), ignoring case,
    /// spaces, dashes and underscores; None for anything else.
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
        pub struct $name {
            $(
                #[doc = concat!(
                    "The Workloads sheet's `", stringify!($field),
                    "` column as given (templates/columns.tsv says what it holds)."
                )]
                pub $field: Option<f64>,
            )*
        }

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
        output_tokens, cached_share, checkpoint_min, lora_rank,
    }
}

macro_rules! model_fields {
    ($($(#[$doc:meta])* $field:ident),* $(,)?) => {
        /// A model's architecture, as its config.json gives it; zero where a figure is unknown or
        /// does not apply (an image model has no KV cache, a dense model no experts).
        #[derive(Debug, Clone, Default, PartialEq, Serialize)]
        pub struct ModelSpec {
            /// The model's name (`Qwen2.5-7B`), as a workload's `model` column refers to it.
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
    /// Transformer layers (num_hidden_layers).
    layers,
    /// Width of the hidden state (hidden_size).
    hidden,
    /// Attention heads (num_attention_heads).
    heads,
    /// Key/value heads (num_key_value_heads; fewer than heads under GQA); default heads.
    kv_heads,
    /// Width of one head; default hidden / heads.
    head_dim,
    /// Width of a dense feed-forward layer (intermediate_size).
    ffn,
    /// Tokens in the vocabulary (vocab_size).
    vocab,
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
    /// 1 where each attention layer normalizes its queries and keys (QK-norm: Qwen3, Gemma 3,
    /// GLM-4.5): a training step keeps the norms' fp32 inputs for the backward pass.
    qk_norm,
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
    /// The workload's name (`name` column), unique in the sheet.
    pub name: String,
    /// What it does (`kind` column).
    pub kind: Kind,
    /// The model as resolved (from the Models sheet or the catalog); `None` for a workload sized
    /// only by `vram_gib` or by `params_b` with no known architecture.
    pub model: Option<ModelSpec>,
    /// The weights' format (`precision` column); default bf16, int4 for QLoRA.
    pub precision: Precision,
    /// The KV cache's format (`kv_precision` column: fp16, bf16, fp8 or int8); default fp16.
    pub kv_precision: Precision,
    /// The routed experts' weights (an MoE checkpoint may quantize only them, as gpt-oss ships
    /// MXFP4 experts beside bf16 attention); default the precision.
    pub expert_precision: Precision,
    /// The row's numeric columns as given (blank: `None`, its default bound by the planner).
    pub numbers: WorkloadNumbers,
    /// Whether it serves users and so gets online redundancy (`online` column); default yes
    /// for inference and image generation.
    pub online: bool,
    /// Whether it may run on spot instances (`spot_ok` column); default yes for batch only.
    pub spot_ok: bool,
    /// Pinned GPU (a `gpu` value of the GPUs sheet).
    pub gpu: Option<String>,
    /// The serving engine or trainer whose profile applies (a name of [`Engines`]).
    pub engine: Option<String>,
    /// The APIs row (by model) its cost is compared with; None: no comparison.
    pub api: Option<String>,
    /// The first and last months it runs in the Year tab (blank: the whole year).
    pub start_month: Option<Month>,
    /// The last month it runs in the Year tab (`end_month`); blank: to the end of the year.
    pub end_month: Option<Month>,
    /// The hours of the day it may run (blank: any time), for the fleet's off-hours sharing.
    pub window: Option<DayWindow>,
    /// When a service's peak hours fall; off-peak it needs only its base instances.
    pub peak_window: Option<DayWindow>,
    /// Free text (`notes` column), carried to the output.
    pub notes: String,
    /// Where the row is: `Workloads!A5` (the name cell).
    pub cell: CellRef,
}

impl Workload {
    /// A workload of `kind` named `name` whose row is at `cell`, every other field blank: no
    /// model, bf16 weights and experts, an fp16 cache, no figures, offline, not on spot, no
    /// pinned GPU, engine, API, months or windows. Callers set what they know with struct
    /// update syntax (`Workload { precision, ..Workload::new(…) }`).
    pub fn new(name: impl Into<String>, kind: Kind, cell: CellRef) -> Workload {
        Workload {
            name: name.into(),
            kind,
            model: None,
            precision: Precision::Bf16,
            kv_precision: Precision::Fp16,
            expert_precision: Precision::Bf16,
            numbers: WorkloadNumbers::default(),
            online: false,
            spot_ok: false,
            gpu: None,
            engine: None,
            api: None,
            start_month: None,
            end_month: None,
            window: None,
            peak_window: None,
            notes: String::new(),
            cell,
        }
    }

    /// Parameters in billions: the row's own figure, else the model's.
    pub fn params_b(&self) -> f64 {
        self.numbers
            .params_b
            .or(self.model.as_ref().map(|m| m.params_b))
            .unwrap_or(0.0)
    }
}

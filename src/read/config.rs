//! A model as its authors publish it: a Hugging Face or ModelScope folder (config.json, and
//! *.safetensors or their index) or a config.json alone, read without any network into a Models
//! row, saying where each figure came from. Only the JSON headers of safetensors files are read,
//! each bounded, to count the checkpoint's exact parameters and bytes per dtype.

use crate::error::{Error, Result};
use crate::model::{format_number, ModelSpec, Precision};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest config.json or index JSON read.
const MAX_JSON_BYTES: u64 = 16 * 1024 * 1024;
/// Largest safetensors header read: the format's own readers' limit (safetensors'
/// MAX_HEADER_SIZE). The header is streamed from the file a tensor at a time, never held whole
/// nor as a JSON tree (which took some 40 times its size), so memory does not grow with it.
pub const MAX_HEADER_BYTES: u64 = 100 * 1000 * 1000;
/// Most safetensors files a folder may hold.
const MAX_FILES: usize = 10_000;

/// The architectures whose config keys gpuplan maps (model_type).
pub const KNOWN: &[&str] = &[
    "llama",
    "mistral",
    "mixtral",
    "qwen2",
    "qwen2_moe",
    "qwen3",
    "qwen3_moe",
    "deepseek_v2",
    "deepseek_v3",
    "kimi_k2",
    "gpt_oss",
    "gemma2",
    "gemma3",
    "gemma3_text",
    "llama4",
    "llama4_text",
    "glm4",
    "glm4_moe",
    "qwen2_vl",
    "qwen2_5_vl",
    "mistral3",
    "phi3",
];

/// What a checkpoint's headers say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checkpoint {
    /// Tensor elements of all files (a packed 4-bit tensor counts its bytes, not its values).
    pub elements: u64,
    /// Bytes of tensor data.
    pub bytes: u64,
    /// Per dtype: (elements, bytes).
    pub by_dtype: BTreeMap<String, (u64, u64)>,
    /// Elements of tensors named as a vision tower's (visual., vision_tower., vision_model.).
    pub vision_elements: u64,
    /// How many `.safetensors` files were read (0 where only `model.safetensors.index.json`
    /// gave the size).
    pub files: usize,
    /// Some tensor is packed (U8/I8 blocks of sub-byte values): elements undercount parameters.
    pub packed: bool,
}

/// A model read from its files.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The architecture figures of the Models row, from config.json and the checkpoint.
    pub spec: ModelSpec,
    /// `model_type` (or the first of `architectures`).
    pub architecture: String,
    /// For each figure set, where it came from.
    pub sources: Vec<(&'static str, String)>,
    /// Figures the files do not give (the row leaves them blank).
    pub missing: Vec<&'static str>,
    /// What else the files say: the checkpoint's format, quantization, a default used.
    pub notes: Vec<String>,
    /// What the safetensors headers (or the index's total size) say; `None` for a bare
    /// config.json or a folder without either.
    pub checkpoint: Option<Checkpoint>,
}

fn unreadable(path: &Path, reason: impl Into<String>) -> Error {
    Error::Unreadable {
        file: path.to_path_buf(),
        reason: reason.into(),
    }
}

fn read_json(path: &Path, what: &str) -> Result<Value> {
    let bytes = crate::support::files::read_bounded(path, MAX_JSON_BYTES, what)?;
    serde_json::from_slice(&bytes)
        .map_err(|e| unreadable(path, format!("{what} is not valid JSON: {e}")))
}

/// The model at `path`: a folder holding config.json, or a config.json.
pub fn import(path: &Path) -> Result<Imported> {
    let meta = std::fs::metadata(path).map_err(|e| {
        unreadable(
            path,
            format!("cannot read it: {}", crate::error::describe(&e)),
        )
    })?;
    let (dir, config_path) = if meta.is_dir() {
        let c = path.join("config.json");
        if !c.exists() {
            return Err(unreadable(
                path,
                "the folder has no config.json: give a Hugging Face or ModelScope model folder, or the config.json itself",
            ));
        }
        (path.to_path_buf(), c)
    } else {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        (dir, path.to_path_buf())
    };
    let config = read_json(&config_path, "a config.json")?;
    if !config.is_object() {
        return Err(unreadable(
            &config_path,
            "config.json must hold a JSON object",
        ));
    }
    // The folder's name (Hugging Face's Qwen3-30B-A3B/), or a renamed file's stem.
    let named = if meta.is_dir() || path.file_name().is_some_and(|n| n == "config.json") {
        dir.canonicalize()
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_os_string()))
    } else {
        path.file_stem().map(|n| n.to_os_string())
    };
    let name = named
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "model".to_string());
    let checkpoint = if meta.is_dir() {
        checkpoint(&dir)?
    } else {
        None
    };
    Ok(from_config(&name, &config, checkpoint, &config_path))
}

/// The safetensors headers of a folder, when it has any.
fn checkpoint(dir: &Path) -> Result<Option<Checkpoint>> {
    let mut files: Vec<PathBuf> = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| {
        unreadable(
            dir,
            format!("cannot list the folder: {}", crate::error::describe(&e)),
        )
    })?;
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "safetensors") {
            files.push(p);
            if files.len() > MAX_FILES {
                return Err(unreadable(
                    dir,
                    format!("the folder holds more than {MAX_FILES} safetensors files"),
                ));
            }
        }
    }
    files.sort();
    if files.is_empty() {
        // An index alone (weights not downloaded) still gives the size.
        let index = dir.join("model.safetensors.index.json");
        if index.exists() {
            let v = read_json(&index, "model.safetensors.index.json")?;
            if let Some(total) = v.pointer("/metadata/total_size").and_then(Value::as_u64) {
                return Ok(Some(Checkpoint {
                    bytes: total,
                    ..Checkpoint::default()
                }));
            }
        }
        return Ok(None);
    }
    let mut c = Checkpoint {
        files: files.len(),
        ..Checkpoint::default()
    };
    for f in &files {
        header(f, &mut c)?;
    }
    Ok(Some(c))
}

/// Bytes per element of a safetensors dtype; `None` for one gpuplan does not know.
fn dtype_bytes(dtype: &str) -> Option<f64> {
    Some(match dtype {
        "F64" | "I64" | "U64" => 8.0,
        "F32" | "I32" | "U32" => 4.0,
        "F16" | "BF16" | "I16" | "U16" => 2.0,
        "F8_E4M3" | "F8_E5M2" | "F8_E8M0" | "I8" | "U8" | "BOOL" => 1.0,
        "F4" | "F6_E2M3" | "F6_E3M2" => 0.5,
        _ => return None,
    })
}

/// Adds one safetensors file's header to `c`: an 8-byte little-endian length, then that many
/// bytes of JSON naming each tensor's dtype, shape and data offsets.
pub fn header(path: &Path, c: &mut Checkpoint) -> Result<()> {
    let bad = |reason: String| unreadable(path, reason);
    // A FIFO or a device named *.safetensors would block the read: regular files only.
    let len = crate::support::files::regular_input(path, "a safetensors file")?.len();
    let mut f = std::fs::File::open(path)
        .map_err(|e| bad(format!("cannot read it: {}", crate::error::describe(&e))))?;
    let mut n = [0u8; 8];
    f.read_exact(&mut n).map_err(|_| {
        bad("the file is too short for a safetensors header (8-byte length first)".into())
    })?;
    let size = u64::from_le_bytes(n);
    if size > MAX_HEADER_BYTES {
        return Err(bad(format!(
            "its header claims {size} bytes; gpuplan reads safetensors headers of at most {} MB (the file is damaged or not safetensors)",
            MAX_HEADER_BYTES / 1_000_000
        )));
    }
    if size > len.saturating_sub(8) {
        return Err(bad(format!(
            "its header claims {size} bytes but the file holds {}: the file is truncated (an interrupted download?)",
            len.saturating_sub(8)
        )));
    }
    c.files = c.files.max(1);
    let mut tensors = Tensors {
        c,
        data: len.saturating_sub(8 + size),
        refused: None,
    };
    // Streamed from the file, the header's bytes only: each tensor is counted as it is read.
    let reader = std::io::BufReader::new(f.take(size));
    let mut de = serde_json::Deserializer::from_reader(reader);
    let read = serde::Deserializer::deserialize_map(&mut de, &mut tensors).and_then(|()| de.end());
    match (read, tensors.refused) {
        (_, Some(why)) => Err(bad(why)),
        (Err(e), None) if e.is_data() => Err(bad(format!(
            "its header is not a JSON object of tensors: {e}"
        ))),
        (Err(e), None) if e.is_io() => Err(bad(format!("cannot read its header: {e}"))),
        (Err(e), None) => Err(bad(format!("its header is not valid JSON: {e}"))),
        (Ok(()), None) => Ok(()),
    }
}

/// What a safetensors header gives of one tensor; other keys are skipped as they are read.
#[derive(serde::Deserialize)]
struct TensorEntry {
    #[serde(default)]
    dtype: Option<Value>,
    #[serde(default)]
    shape: Option<Value>,
    #[serde(default)]
    data_offsets: Option<Value>,
}

/// The header's tensors, each added to the checkpoint as the stream reaches it; the reason a
/// tensor is refused, kept apart from the JSON's own errors.
struct Tensors<'a> {
    c: &'a mut Checkpoint,
    /// Bytes of data after the header.
    data: u64,
    refused: Option<String>,
}

impl<'de> serde::de::Visitor<'de> for &mut Tensors<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a JSON object of tensors")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut a: A,
    ) -> std::result::Result<(), A::Error> {
        while let Some(name) = a.next_key::<String>()? {
            if name == "__metadata__" {
                a.next_value::<serde::de::IgnoredAny>()?;
                continue;
            }
            let t: TensorEntry = a.next_value()?;
            if let Err(why) = add_tensor(self.c, &name, &t, self.data) {
                self.refused = Some(why.clone());
                return Err(serde::de::Error::custom(why));
            }
        }
        Ok(())
    }
}

/// Adds one tensor of a safetensors header to `c`: its elements and bytes by dtype, checked
/// against its data offsets; the reason where it cannot be.
fn add_tensor(
    c: &mut Checkpoint,
    name: &str,
    t: &TensorEntry,
    data: u64,
) -> std::result::Result<(), String> {
    let dtype = t.dtype.as_ref().and_then(Value::as_str).unwrap_or("?");
    // Every dimension a whole number: a negative or fractional one is not dropped.
    let shape: Option<Vec<u64>> = t
        .shape
        .as_ref()
        .and_then(Value::as_array)
        .and_then(|a| a.iter().map(Value::as_u64).collect());
    let Some(shape) = shape else {
        return Err(format!(
            "tensor {name} has no shape (a list of whole numbers)"
        ));
    };
    let elements = shape
        .iter()
        .try_fold(1u64, |acc, d| acc.checked_mul(*d))
        .ok_or_else(|| format!("tensor {name} has an impossible shape"))?;
    let bytes = match t.data_offsets.as_ref().and_then(Value::as_array) {
        Some(o) if o.len() == 2 => {
            let (Some(a), Some(b)) = (o[0].as_u64(), o[1].as_u64()) else {
                return Err(format!(
                    "tensor {name}: data_offsets are not two byte offsets"
                ));
            };
            if a > b || b > data {
                return Err(format!(
                    "tensor {name}: data_offsets [{a}, {b}] lie outside the file's {data} bytes of data (the file is damaged or truncated)"
                ));
            }
            // The shape must fill the bytes the offsets give it, as the format's readers
            // check: a shape whose product wraps or lies cannot pass.
            if let Some(per) = dtype_bytes(dtype) {
                let want = (elements as f64 * per).ceil();
                if want != (b - a) as f64 {
                    return Err(format!(
                        "tensor {name}: its shape {shape:?} of {dtype} holds {want} bytes but its data_offsets give {} (the header is damaged)",
                        b - a
                    ));
                }
            }
            b - a
        }
        _ => (elements as f64 * dtype_bytes(dtype).unwrap_or(0.0)) as u64,
    };
    if matches!(dtype, "U8" | "I8") && !name.contains("scale") && name.contains("blocks") {
        c.packed = true;
    }
    let e = c.by_dtype.entry(dtype.to_string()).or_default();
    e.0 += elements;
    e.1 += bytes;
    c.elements += elements;
    c.bytes += bytes;
    if [
        "visual.",
        "vision_tower.",
        "vision_model.",
        "model.visual.",
        "model.vision_tower.",
        "multi_modal_projector.",
    ]
    .iter()
    .any(|p| name.starts_with(p))
    {
        c.vision_elements += elements;
    }
    Ok(())
}

/// A figure of the config: the first key present, with the key that gave it.
struct Config<'a> {
    /// The text model's config (`text_config` of a multimodal model, else the top level).
    text: &'a Value,
    top: &'a Value,
}

impl Config<'_> {
    fn num(&self, keys: &[&'static str]) -> Option<(f64, &'static str)> {
        keys.iter().find_map(|k| {
            self.text
                .get(*k)
                .or_else(|| self.top.get(*k))
                .and_then(Value::as_f64)
                .map(|v| (v, *k))
        })
    }
    fn get(&self, key: &str) -> Option<&Value> {
        self.text.get(key).or_else(|| self.top.get(key))
    }
}

/// Defaults of architectures whose config.json leaves keys out (transformers' config classes).
fn default_of(arch: &str, key: &str) -> Option<f64> {
    match (arch, key) {
        ("gemma3" | "gemma3_text", "vocab_size") => Some(262_208.0),
        ("gemma3" | "gemma3_text", "num_attention_heads") => Some(8.0),
        ("gemma3" | "gemma3_text", "num_key_value_heads") => Some(4.0),
        ("gemma3" | "gemma3_text", "head_dim") => Some(256.0),
        ("gemma3" | "gemma3_text", "sliding_window_pattern") => Some(6.0),
        _ => None,
    }
}

/// The plain figures, each with the keys that may give it (the first present wins).
const PLAIN: [(&str, &[&str]); 7] = [
    ("layers", &["num_hidden_layers", "n_layer", "num_layers"]),
    ("hidden", &["hidden_size", "n_embd", "d_model"]),
    ("heads", &["num_attention_heads", "n_head"]),
    ("kv_heads", &["num_key_value_heads", "num_kv_heads"]),
    ("head_dim", &["head_dim"]),
    ("ffn", &["intermediate_size", "ffn_hidden_size"]),
    ("vocab", &["vocab_size"]),
];

/// Maps a config.json to a Models row.
pub fn from_config(
    name: &str,
    config: &Value,
    checkpoint: Option<Checkpoint>,
    config_path: &Path,
) -> Imported {
    let top = config;
    let text = top
        .get("text_config")
        .filter(|v| v.is_object())
        .unwrap_or(top);
    let architecture = architecture_of(top);
    let cfg = config_path.display().to_string();
    let mut row = Mapping {
        c: Config { text, top },
        arch: &architecture,
        m: ModelSpec {
            name: name.to_string(),
            source: cfg.clone(),
            ..ModelSpec::default()
        },
        sources: Vec::new(),
        missing: Vec::new(),
        notes: Vec::new(),
    };
    row.plain_figures();
    row.tied_embeddings();
    row.attention_defaults();
    row.experts();
    row.latent_attention();
    row.local_attention();
    row.linear_attention();
    row.vision_tower(checkpoint.as_ref());
    row.parameters(checkpoint.as_ref());
    row.format_notes(checkpoint.as_ref());
    row.unquantized_modules();
    row.missing_and_unknown();
    let Mapping {
        mut m,
        sources,
        missing,
        notes,
        ..
    } = row;
    m.source = format!("{cfg} ({architecture})");
    Imported {
        spec: m,
        architecture,
        sources,
        missing,
        notes,
        checkpoint,
    }
}

/// `model_type`, else the first of `architectures`, else `unknown`.
fn architecture_of(top: &Value) -> String {
    top.get("model_type")
        .and_then(Value::as_str)
        .or_else(|| {
            top.get("architectures")
                .and_then(Value::as_array)
                .and_then(|a| a.first())
                .and_then(Value::as_str)
        })
        .unwrap_or("unknown")
        .to_string()
}

/// A Models row being read from a config.json: the figures so far, where each came from, what
/// the files do not give and what else they say.
struct Mapping<'a> {
    c: Config<'a>,
    /// The architecture (`model_type`), for its documented defaults.
    arch: &'a str,
    m: ModelSpec,
    sources: Vec<(&'static str, String)>,
    missing: Vec<&'static str>,
    notes: Vec<String>,
}

impl Mapping<'_> {
    /// Sets a figure and records where it came from.
    fn set(&mut self, field: &'static str, v: f64, from: String) {
        if let Some(slot) = self.m.field_mut(field) {
            *slot = v;
        }
        self.sources.push((field, from));
    }

    /// Sets a figure from the first of `keys` the config gives; false when it gives none.
    fn set_from_keys(&mut self, field: &'static str, keys: &[&'static str]) -> bool {
        match self.c.num(keys) {
            Some((v, k)) => {
                self.set(field, v, format!("config.json {k}"));
                true
            }
            None => false,
        }
    }

    /// The plain figures, each from its key or its architecture's documented default.
    fn plain_figures(&mut self) {
        let arch = self.arch;
        for (field, keys) in PLAIN {
            // A size is a whole count of at least 1 and no more than any model has (1e308
            // printed as inf; a negative or zero count left a blank not named as missing).
            if let Some((v, k)) = self.c.num(keys) {
                if !(1.0..=1e8).contains(&v) || v.fract() != 0.0 {
                    self.notes.push(format!(
                        "config.json {k} is {v}, not a size (a whole number from 1 to 100,000,000): left out"
                    ));
                    continue;
                }
            }
            if self.set_from_keys(field, keys) {
                continue;
            }
            if let Some(v) = keys.iter().find_map(|k| default_of(arch, k)) {
                self.set(
                    field,
                    v,
                    format!("the {arch} default in transformers ({})", keys[0]),
                );
            }
        }
    }

    /// Tied embeddings: the config's flag, else Gemma's default (tied).
    fn tied_embeddings(&mut self) {
        let arch = self.arch;
        let tied = self
            .c
            .get("tie_word_embeddings")
            .and_then(Value::as_bool)
            .map(|t| (t, "config.json tie_word_embeddings".to_string()))
            .or_else(|| {
                arch.starts_with("gemma").then(|| {
                    (
                        true,
                        format!("the {arch} default in transformers (tie_word_embeddings)"),
                    )
                })
            });
        if let Some((true, from)) = tied {
            self.set("tied_embeddings", 1.0, from);
        }
    }

    /// The attention widths a config may leave out: as many KV heads as heads (multi-head
    /// attention), and the head dim from the value head's or as hidden ÷ heads.
    fn attention_defaults(&mut self) {
        if self.m.kv_heads == 0.0 && self.m.heads > 0.0 {
            self.m.kv_heads = self.m.heads;
            self.sources.push((
                "kv_heads",
                "= heads (no num_key_value_heads: multi-head attention)".into(),
            ));
        }
        // Latent attention gives its heads' widths apart: the value head's is the head dim.
        if self.m.head_dim == 0.0
            && self.m.heads > 0.0
            && !self.set_from_keys("head_dim", &["v_head_dim"])
        {
            self.m.head_dim = self.m.hidden / self.m.heads;
            self.sources.push((
                "head_dim",
                "hidden_size ÷ num_attention_heads (no head_dim key)".into(),
            ));
        }
    }

    /// Mixture of experts: how many, how many a token uses, the shared ones, their width and
    /// the layers without experts.
    fn experts(&mut self) {
        let Some((e, k)) = self
            .c
            .num(&[
                "num_experts",
                "n_routed_experts",
                "num_local_experts",
                "moe_num_experts",
            ])
            .filter(|(e, _)| *e > 0.0)
        else {
            return;
        };
        self.set("experts", e, format!("config.json {k}"));
        self.set_from_keys(
            "experts_per_token",
            &["num_experts_per_tok", "experts_per_token", "moe_topk"],
        );
        self.expert_width();
        if !self.set_from_keys(
            "shared_experts",
            &[
                "n_shared_experts",
                "num_shared_experts",
                "shared_expert_count",
            ],
        ) {
            let shared_width = self
                .c
                .num(&["shared_expert_intermediate_size"])
                .filter(|(w, _)| *w > 0.0 && self.m.moe_ffn > 0.0);
            if let Some((w, k)) = shared_width {
                // Qwen2-MoE, Qwen3-Next: one shared feed-forward layer of w, counted in experts
                // of moe_ffn (Qwen2-57B-A14B: 20,480 / 2,560 = 8).
                let n = w / self.m.moe_ffn;
                self.set(
                    "shared_experts",
                    n,
                    format!(
                        "config.json {k} {w} / moe_intermediate_size {}",
                        self.m.moe_ffn
                    ),
                );
            } else if self.arch.starts_with("llama4") {
                self.set(
                    "shared_experts",
                    1.0,
                    "Llama 4 has one shared expert in every MoE layer".into(),
                );
            }
        }
        if let Some((v, from)) = self.dense_layers() {
            self.set("dense_layers", v, from);
        }
    }

    /// The experts' width: its own key, else intermediate_size, and then the dense layers' width
    /// is intermediate_size_mlp where given, else there is no dense feed-forward layer.
    fn expert_width(&mut self) {
        if self.set_from_keys(
            "moe_ffn",
            &["moe_intermediate_size", "expert_intermediate_size"],
        ) {
            return;
        }
        // Mixtral, gpt-oss and Llama 4 give the expert width as intermediate_size;
        // Llama 4's dense layers use intermediate_size_mlp.
        let width = self.m.ffn;
        self.set(
            "moe_ffn",
            width,
            "config.json intermediate_size (the experts' width here)".into(),
        );
        match self.c.num(&["intermediate_size_mlp"]) {
            Some((v, k)) => self.set("ffn", v, format!("config.json {k} (dense layers)")),
            None => self.set("ffn", 0.0, "no dense feed-forward layer".into()),
        }
    }

    /// The layers without experts, and what says so: the first k dense, an interleave step, or
    /// a list of dense layers.
    fn dense_layers(&self) -> Option<(f64, String)> {
        if let Some((v, k)) = self.c.num(&["first_k_dense_replace"]) {
            Some((v, format!("config.json {k}")))
        } else if let Some((step, k)) = self
            .c
            .num(&["interleave_moe_layer_step"])
            .filter(|(s, _)| *s > 1.0)
        {
            let moe = (self.m.layers / step).floor();
            Some((
                self.m.layers - moe,
                format!("config.json {k} {step}: every {step}th layer has experts"),
            ))
        } else {
            self.c
                .get("mlp_only_layers")
                .and_then(Value::as_array)
                .filter(|a| !a.is_empty())
                .map(|a| (a.len() as f64, "config.json mlp_only_layers".to_string()))
        }
    }

    /// Latent attention: the compressed KV's rank and the RoPE part of a head.
    fn latent_attention(&mut self) {
        let Some((r, k)) = self.c.num(&["kv_lora_rank"]).filter(|(r, _)| *r > 0.0) else {
            return;
        };
        self.set("kv_lora_rank", r, format!("config.json {k}"));
        if !self.set_from_keys("qk_rope_head_dim", &["qk_rope_head_dim"]) {
            self.missing.push("qk_rope_head_dim");
        }
    }

    /// Local attention: the window, and the layers that use it.
    fn local_attention(&mut self) {
        let window = self.c.num(&["sliding_window", "attention_chunk_size"]);
        let Some((w, wk)) = window.filter(|(w, _)| *w > 0.0) else {
            return;
        };
        if let Some((n, from)) = self.local_layers(w, wk).filter(|(n, _)| *n > 0.0) {
            self.set("sliding_window", w, format!("config.json {wk}"));
            self.set("sliding_layers", n, from);
        }
    }

    /// Linear attention (Gated DeltaNet: Qwen3-Next, Qwen3.5): the layers that hold a fixed
    /// recurrent state instead of a KV cache, and that state per request. A state-space hybrid
    /// the mapping does not size (Mamba layers in hybrid_override_pattern) gets a note.
    fn linear_attention(&mut self) {
        let from_types = self
            .c
            .get("layer_types")
            .and_then(Value::as_array)
            .map(|t| {
                t.iter()
                    .filter(|v| v.as_str() == Some("linear_attention"))
                    .count() as f64
            });
        let interval = self
            .c
            .num(&["full_attention_interval"])
            .filter(|(k, _)| *k >= 1.0 && self.c.get("linear_num_value_heads").is_some());
        let (n, from) = match (from_types.filter(|n| *n > 0.0), interval) {
            (Some(n), _) => (
                n,
                "config.json layer_types (linear_attention entries)".to_string(),
            ),
            (None, Some((k, key))) if self.m.layers > 0.0 => (
                self.m.layers - (self.m.layers / k).floor(),
                format!("config.json {key} {k}: every {k}th layer attends, the rest are linear"),
            ),
            _ => {
                if self.c.get("hybrid_override_pattern").is_some() {
                    self.notes.push("config.json hybrid_override_pattern: its Mamba layers hold a fixed state per request, which this import does not size: give linear_layers and linear_state_mib by hand".to_string());
                }
                return;
            }
        };
        self.set("linear_layers", n, from);
        let key = |k: &'static str| self.c.num(&[k]).map(|(v, _)| v);
        let (Some(nk), Some(dk), Some(nv), Some(dv), Some(kernel)) = (
            key("linear_num_key_heads"),
            key("linear_key_head_dim"),
            key("linear_num_value_heads"),
            key("linear_value_head_dim"),
            key("linear_conv_kernel_dim"),
        ) else {
            self.missing.push("linear_state_mib");
            return;
        };
        // A dtype name (torch's "bfloat16", "float32") as the bytes a value takes; 16 bits
        // where the config names none.
        let bytes_of = |v: Option<&Value>| {
            v.and_then(Value::as_str)
                .and_then(Precision::parse)
                .map_or(2.0, Precision::bytes)
        };
        let model = bytes_of(self.c.get("torch_dtype").or_else(|| self.c.get("dtype")));
        let recurrent = match self.c.get("mamba_ssm_dtype") {
            Some(v) => bytes_of(Some(v)),
            None => model,
        };
        let per_layer =
            (kernel - 1.0) * (2.0 * nk * dk + nv * dv) * model + nv * dk * dv * recurrent;
        self.set(
            "linear_state_mib",
            n * per_layer / 1_048_576.0,
            format!("config.json linear_* keys: per layer (linear_conv_kernel_dim − 1) × (2 × linear_num_key_heads × linear_key_head_dim + linear_num_value_heads × linear_value_head_dim) convolution values at {model} B and linear_num_value_heads × linear_key_head_dim × linear_value_head_dim recurrent values at {recurrent} B (mamba_ssm_dtype, else the model's dtype)"),
        );
    }

    /// How many layers use a window `w` given by `wk`, and what says so: layer_types, a pattern,
    /// Llama 4's chunks, or a window on every layer. `None`, with a note, where none is windowed
    /// or the config does not say which.
    fn local_layers(&mut self, w: f64, wk: &str) -> Option<(f64, String)> {
        let use_sliding = self.c.get("use_sliding_window").and_then(Value::as_bool);
        let layers = self.m.layers;
        if let Some(types) = self.c.get("layer_types").and_then(Value::as_array) {
            let n = types
                .iter()
                .filter(|t| {
                    t.as_str()
                        .is_some_and(|s| s.contains("sliding") || s.contains("chunked"))
                })
                .count() as f64;
            Some((
                n,
                "config.json layer_types (sliding_attention entries)".to_string(),
            ))
        } else if wk == "attention_chunk_size" {
            let rope = self
                .c
                .get("no_rope_layers")
                .and_then(Value::as_array)
                .filter(|a| !a.is_empty());
            Some(match rope {
                Some(a) => (
                    a.iter().filter(|x| x.as_u64() == Some(1)).count() as f64,
                    "config.json no_rope_layers (the RoPE layers are chunked)".to_string(),
                ),
                None => (
                    layers - (layers / 4.0).floor(),
                    "Llama 4: every 4th layer is global (no_rope_layer_interval 4), the others chunked".to_string(),
                ),
            })
        } else if let Some((p, pk)) = self.c.num(&["sliding_window_pattern"]).or_else(|| {
            default_of(self.arch, "sliding_window_pattern").map(|v| (v, "sliding_window_pattern"))
        }) {
            Some((
                layers - (layers / p).floor(),
                format!("{pk} {p}: one global layer in every {p}"),
            ))
        } else if use_sliding == Some(false) {
            self.notes.push(format!(
                "config.json sets {wk} {w} but use_sliding_window false: no layer is windowed"
            ));
            None
        } else if self.arch.starts_with("mistral") || self.arch == "mixtral" {
            Some((layers, format!("config.json {wk} on every layer (Mistral)")))
        } else {
            self.notes.push(format!("config.json sets {wk} {w} without saying which layers use it: left out (give sliding_layers by hand)"));
            None
        }
    }

    /// A vision tower: its tensors' count, else an estimate from vision_config.
    fn vision_tower(&mut self, checkpoint: Option<&Checkpoint>) {
        let top = self.c.top;
        if let Some(ck) = checkpoint.filter(|ck| ck.vision_elements > 0) {
            self.set(
                "vision_params_b",
                ck.vision_elements as f64 / 1e9,
                "the safetensors headers: vision tower tensors".into(),
            );
        } else if let Some(v) = top.get("vision_config").filter(|v| v.is_object()) {
            let g = |keys: &[&str]| {
                keys.iter()
                    .find_map(|k| v.get(*k).and_then(Value::as_f64))
                    .unwrap_or(0.0)
            };
            let depth = g(&["num_hidden_layers", "depth"]);
            let h = g(&["hidden_size", "embed_dim"]);
            let ffn = g(&["intermediate_size"]);
            if depth > 0.0 && h > 0.0 && ffn > 0.0 {
                let mlp = if self.arch.starts_with("qwen2_5_vl") {
                    3.0
                } else {
                    2.0
                };
                let n = depth * (4.0 * h * h + mlp * h * ffn);
                self.set("vision_params_b", n / 1e9, format!("approximate, from vision_config: {depth} layers × (4 × {h}² + {mlp} × {h} × {ffn})"));
            } else {
                self.missing.push("vision_params_b");
            }
        }
    }

    /// Parameters: the checkpoint's exact count, else counted from the architecture; and for a
    /// mixture of experts, the share one token uses.
    fn parameters(&mut self, checkpoint: Option<&Checkpoint>) {
        let counted = count_params(&self.m, &self.c, self.arch);
        match checkpoint {
            Some(ck) if ck.elements > 0 && !ck.packed => {
                self.set(
                    "params_b",
                    ck.elements as f64 / 1e9,
                    format!("the safetensors headers: {} tensor elements", ck.elements),
                );
            }
            // Without vocab_size the embeddings and head are unknown: a count without them is
            // no model's size (Llama-2-7B's 6.476 B for 6.738), so params_b is left blank and
            // the note says what was counted (#44 item 7).
            _ => match counted {
                Some((total, _)) if self.m.vocab <= 0.0 => {
                    self.missing.push("params_b");
                    self.notes.push(format!(
                        "params_b left blank: without vocab_size the embeddings and output head (vocab × hidden, twice when untied) cannot be counted; the rest of the architecture counts {} B. Give vocab (the tokenizer's vocabulary size) in the Models row, or params_b from the model card",
                        crate::model::format_number(((total / 1e9 + self.m.vision_params_b) * 1e3).round() / 1e3)
                    ));
                }
                Some((total, _)) => {
                    let all = total / 1e9 + self.m.vision_params_b;
                    self.set("params_b", all, "counted from the architecture (embeddings, attention, feed-forward layers, experts and any vision tower)".into())
                }
                None => self.missing.push("params_b"),
            },
        }
        if let Some((total, active)) =
            counted.filter(|_| self.m.experts > 0.0 && self.m.params_b > 0.0)
        {
            let share = self.m.params_b * 1e9 / total;
            self.set(
                "active_params_b",
                active * share / 1e9,
                "counted from the architecture: what one token uses (shared part and its experts)"
                    .into(),
            );
        }
    }

    /// The checkpoint's format: its quantization (or the dtype its weights are stored in), and
    /// its size per dtype.
    fn format_notes(&mut self, checkpoint: Option<&Checkpoint>) {
        if let Some(q) = self
            .c
            .top
            .get("quantization_config")
            .filter(|q| q.is_object())
        {
            self.notes.push(quantization_note(q));
        } else if let Some(d) = self
            .c
            .get("torch_dtype")
            .or_else(|| self.c.get("dtype"))
            .and_then(Value::as_str)
        {
            self.notes.push(format!("weights stored as {d}"));
        }
        if let Some(ck) = checkpoint {
            self.notes.push(checkpoint_note(ck));
        }
    }

    /// Names the plain figures nothing gave (but ffn: a model may have no dense feed-forward
    /// layer), and says so when the architecture is not one gpuplan knows.
    fn missing_and_unknown(&mut self) {
        for (field, _) in PLAIN {
            if self.m.field(field) == 0.0
                && !self.sources.iter().any(|(f, _)| *f == field)
                && field != "ffn"
            {
                self.missing.push(field);
            }
        }
        if !KNOWN.contains(&self.arch) {
            let arch = self.arch;
            self.notes.push(format!("the architecture {arch} is not one gpuplan knows: the figures were read from the usual keys (check them against the model card)"));
        }
    }
}

impl Mapping<'_> {
    /// The parameters a quantized checkpoint leaves 16-bit besides its embeddings and head
    /// (unquantized_params_b): the projections its quantization_config lists not to convert.
    fn unquantized_modules(&mut self) {
        let Some(q) = self.c.top.get("quantization_config") else {
            return;
        };
        let Some((key, names)) = NOT_CONVERTED
            .iter()
            .find_map(|k| q.get(*k).and_then(Value::as_array).map(|a| (*k, a)))
        else {
            return;
        };
        let names: Vec<&str> = names.iter().filter_map(Value::as_str).collect();
        let n = kept_projection_params(&self.m, &names);
        if n > 0.0 {
            let from = format!(
                "quantization_config {key}: the {} listed module(s)' projections, counted from the architecture",
                names.len()
            );
            self.set("unquantized_params_b", n / 1e9, from);
        }
    }
}

/// The keys under which quantizers list the modules they leave unquantized: transformers'
/// fbgemm_fp8, bitsandbytes, AWQ and GPTQ (`modules_to_not_convert`), vLLM's fp8
/// (`ignored_layers`), compressed-tensors and ModelOpt (`ignore`, `exclude_modules`) and
/// bitsandbytes' older `llm_int8_skip_modules`.
const NOT_CONVERTED: [&str; 5] = [
    "modules_to_not_convert",
    "ignored_layers",
    "ignore",
    "exclude_modules",
    "llm_int8_skip_modules",
];

/// Parameters of the attention and dense feed-forward projections the names cover, each
/// counted once: `model.layers.0.mlp.down_proj` one layer's, `self_attn` or a pattern without a
/// layer number (`re:.*q_proj`) every layer's. Embeddings and the head are left out (the
/// weights formula keeps them 16-bit already), and so are a mixture of experts' feed-forward
/// modules and a latent attention's projections, whose names do not say their shapes here.
fn kept_projection_params(m: &ModelSpec, names: &[&str]) -> f64 {
    let (h, q, kv) = (m.hidden, m.heads * m.head_dim, m.kv_heads * m.head_dim);
    let latent = m.kv_lora_rank > 0.0;
    let dense_ffn = m.experts == 0.0;
    let shapes: [(&str, f64, bool); 7] = [
        ("q_proj", h * q, !latent),
        ("k_proj", h * kv, !latent),
        ("v_proj", h * kv, !latent),
        ("o_proj", q * h, !latent),
        ("gate_proj", h * m.ffn, dense_ffn),
        ("up_proj", h * m.ffn, dense_ffn),
        ("down_proj", m.ffn * h, dense_ffn),
    ];
    // Projections kept in every layer, and (layer, projection) pairs kept in one: never
    // expanded layer by layer, so a config's layer count cannot make this loop long.
    let mut everywhere = [false; 7];
    let mut kept = std::collections::BTreeSet::new();
    for name in names {
        let name = name.trim_start_matches("re:");
        let projections: Vec<usize> = (0..shapes.len())
            .filter(|&i| {
                let p = shapes[i].0;
                name.contains(p)
                    || (i < 4 && (name.ends_with("self_attn") || name.ends_with("attn")))
                    || (i >= 4 && name.ends_with("mlp"))
            })
            .collect();
        let layer = name
            .split("layers.")
            .nth(1)
            .and_then(|rest| rest.split('.').next())
            .and_then(|n| n.parse::<usize>().ok());
        match layer {
            Some(l) if (l as f64) < m.layers => kept.extend(projections.iter().map(|&i| (l, i))),
            Some(_) => {}
            None => projections.iter().for_each(|&i| everywhere[i] = true),
        }
    }
    let in_all: f64 = (0..shapes.len())
        .filter(|&i| everywhere[i] && shapes[i].2)
        .map(|i| m.layers * shapes[i].1)
        .sum();
    let in_one: f64 = kept
        .iter()
        .filter(|(_, i)| !everywhere[*i] && shapes[*i].2)
        .map(|(_, i)| shapes[*i].1)
        .sum();
    in_all + in_one
}

/// What a quantization_config means for the workload's precision.
fn quantization_note(q: &Value) -> String {
    let method = q.get("quant_method").and_then(Value::as_str).unwrap_or("?");
    let bits = q.get("bits").and_then(Value::as_u64);
    let precision = match (method, bits) {
        ("mxfp4", _) => "expert_precision mxfp4 (the experts; attention and embeddings stay bf16)",
        ("fp8" | "fbgemm_fp8" | "compressed-tensors", _)
            if q.to_string().contains("float") || method != "compressed-tensors" =>
        {
            "precision fp8"
        }
        (_, Some(4)) => "precision int4",
        (_, Some(8)) => "precision int8",
        ("bitsandbytes", _) => "precision int4 (bitsandbytes)",
        _ => "the precision of its quantization_config",
    };
    format!("quantized checkpoint (quant_method {method}): use {precision} in the workload")
}

/// The checkpoint's size, files and bytes per dtype.
fn checkpoint_note(ck: &Checkpoint) -> String {
    let dtypes: Vec<String> = ck
        .by_dtype
        .iter()
        .map(|(d, (_, b))| format!("{d} {}", human(*b)))
        .collect();
    format!(
        "checkpoint: {} in {} file(s){}",
        human(ck.bytes),
        ck.files,
        if dtypes.is_empty() {
            String::new()
        } else {
            format!(" ({})", dtypes.join(", "))
        }
    )
}

/// Total and active parameters from the architecture: embeddings and head (tied or not),
/// attention (grouped-query or latent), dense feed-forward layers and experts. `None` when the
/// shape is not known.
fn count_params(m: &ModelSpec, c: &Config, arch: &str) -> Option<(f64, f64)> {
    if m.layers <= 0.0 || m.hidden <= 0.0 || m.heads <= 0.0 {
        return None;
    }
    let h = m.hidden;
    let tied = c
        .get("tie_word_embeddings")
        .and_then(Value::as_bool)
        .unwrap_or(arch.starts_with("gemma"));
    let embed = m.vocab * h * if tied { 1.0 } else { 2.0 };
    let attention = if m.kv_lora_rank > 0.0 {
        let q_rank = c.num(&["q_lora_rank"]).map_or(0.0, |(v, _)| v);
        let nope = c.num(&["qk_nope_head_dim"]).map_or(0.0, |(v, _)| v);
        let v_dim = c.num(&["v_head_dim"]).map_or(m.head_dim, |(v, _)| v);
        let qk = nope + m.qk_rope_head_dim;
        let q = if q_rank > 0.0 {
            h * q_rank + q_rank * m.heads * qk
        } else {
            h * m.heads * qk
        };
        q + h * (m.kv_lora_rank + m.qk_rope_head_dim)
            + m.kv_lora_rank * m.heads * (nope + v_dim)
            + m.heads * v_dim * h
    } else {
        h * m.heads * m.head_dim * 2.0 + h * m.kv_heads * m.head_dim * 2.0
    };
    let dense_ffn = 3.0 * h * m.ffn;
    let (total_ffn, active_ffn) = if m.experts > 0.0 {
        let moe_layers = m.layers - m.dense_layers;
        let expert = 3.0 * h * m.moe_ffn;
        let per_layer_total = m.experts * expert + m.shared_experts * expert + h * m.experts;
        let per_layer_active = (m.experts_per_token + m.shared_experts) * expert + h * m.experts;
        (
            m.dense_layers * dense_ffn + moe_layers * per_layer_total,
            m.dense_layers * dense_ffn + moe_layers * per_layer_active,
        )
    } else {
        (m.layers * dense_ffn, m.layers * dense_ffn)
    };
    let base = embed + m.layers * attention;
    Some((base + total_ffn, base + active_ffn))
}

/// `65.25 GB`.
fn human(bytes: u64) -> String {
    format!("{} GB", format_number((bytes as f64 / 1e7).round() / 100.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imported(json: &str) -> Imported {
        let v: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}"));
        from_config("m", &v, None, Path::new("config.json"))
    }

    #[test]
    fn gated_deltanet_layers_hold_a_fixed_state_per_request() {
        // Qwen3-Next-80B-A3B's keys: every 4th of 48 layers attends, 36 are Gated DeltaNet. Per
        // linear layer, in bf16 (no mamba_ssm_dtype): convolution 3 × (2 × 16 × 128 + 32 × 128)
        // = 24,576 values × 2 B = 49,152 B, recurrent 32 × 128 × 128 = 524,288 × 2 B =
        // 1,048,576 B; 36 × 1,097,728 B = 39,518,208 B = 37.6875 MiB.
        let next = imported(
            r#"{"model_type": "qwen3_next", "torch_dtype": "bfloat16", "num_hidden_layers": 48,
                "hidden_size": 2048, "num_attention_heads": 16, "num_key_value_heads": 2,
                "head_dim": 256, "full_attention_interval": 4, "linear_conv_kernel_dim": 4,
                "linear_key_head_dim": 128, "linear_num_key_heads": 16,
                "linear_num_value_heads": 32, "linear_value_head_dim": 128,
                "num_experts": 512, "num_experts_per_tok": 10, "moe_intermediate_size": 512,
                "shared_expert_intermediate_size": 512, "vocab_size": 151936}"#,
        );
        assert_eq!(next.spec.linear_layers, 36.0);
        // Its shared expert is given as a width: 512 / moe_intermediate_size 512 = 1.
        assert_eq!(next.spec.shared_experts, 1.0);
        assert_eq!(next.spec.linear_state_mib, 37.6875);
        // Qwen3.5's text_config lists its layer types and keeps the recurrent state in fp32: 24
        // linear layers of 32, each 49,152 B + 524,288 × 4 B = 2,146,304 B; 24 × 2,146,304 B =
        // 51,511,296 B = 49.125 MiB.
        let types = std::iter::repeat_n(
            r#""linear_attention", "linear_attention", "linear_attention", "full_attention""#,
            8,
        )
        .collect::<Vec<_>>()
        .join(", ");
        let q35 = imported(&format!(
            r#"{{"model_type": "qwen3_5", "text_config": {{"dtype": "bfloat16",
                "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 16,
                "num_key_value_heads": 4, "head_dim": 256, "layer_types": [{types}],
                "full_attention_interval": 4, "linear_conv_kernel_dim": 4,
                "linear_key_head_dim": 128, "linear_num_key_heads": 16,
                "linear_num_value_heads": 32, "linear_value_head_dim": 128,
                "mamba_ssm_dtype": "float32", "vocab_size": 248320}}}}"#
        ));
        assert_eq!(q35.spec.linear_layers, 24.0);
        assert_eq!(q35.spec.linear_state_mib, 49.125);
        // A Mamba hybrid is named, not sized.
        let mamba = imported(
            r#"{"model_type": "nemotron_h", "num_hidden_layers": 4, "hidden_size": 4096,
                "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
                "hybrid_override_pattern": "M-M*", "vocab_size": 131072}"#,
        );
        assert_eq!(mamba.spec.linear_layers, 0.0);
        assert!(mamba
            .notes
            .iter()
            .any(|n| n.contains("hybrid_override_pattern")));
    }

    #[test]
    fn a_checkpoint_that_keeps_attention_in_bf16_says_how_much() {
        // Meta's Llama-3.1-405B-Instruct-FP8 (fbgemm_fp8): modules_to_not_convert lists every
        // layer's four attention projections and layers 0 and 125's three MLP projections
        // by full name, as here (with lm_head, which the weights formula already keeps
        // 16-bit). By hand: attention a layer
        // 16,384 × 128 × 128 × 2 (q, o) + 16,384 × 8 × 128 × 2 (k, v) = 536,870,912 +
        // 33,554,432 = 570,425,344, × 126 = 71,873,593,344; an MLP 3 × 16,384 × 53,248 =
        // 2,617,245,696, × 2 = 5,234,491,392; together 77,108,084,736 = 77.108 B. The other
        // 124 MLPs, 324,538,466,304 parameters, are FP8.
        let mut names = vec!["lm_head".to_string()];
        for l in [0, 125] {
            for p in ["gate_proj", "up_proj", "down_proj"] {
                names.push(format!("model.layers.{l}.mlp.{p}"));
            }
        }
        for l in 0..126 {
            for p in ["q_proj", "k_proj", "v_proj", "o_proj"] {
                names.push(format!("model.layers.{l}.self_attn.{p}"));
            }
        }
        // A compressed-tensors pattern for every layer's attention covers the same modules:
        // counted once.
        names.push("re:.*self_attn".into());
        let config = serde_json::json!({
            "model_type": "llama", "hidden_size": 16384, "num_hidden_layers": 126,
            "num_attention_heads": 128, "num_key_value_heads": 8, "intermediate_size": 53248,
            "vocab_size": 128256, "tie_word_embeddings": false,
            "quantization_config": {"quant_method": "fbgemm_fp8", "modules_to_not_convert": names}
        });
        let i = imported(&config.to_string());
        assert_eq!(i.spec.unquantized_params_b, 77.108084736);
        // fbgemm_fp8 is FP8 (row-wise scales): the note says which precision to give.
        assert!(
            i.notes.iter().any(|n| n.contains("use precision fp8")),
            "{:?}",
            i.notes
        );
        // A config claiming 10^12 layers walks nothing: a size over 1e8 is not a size (#35
        // item 16), so the layer count is listed missing and no module is counted for it.
        let mut huge = config.clone();
        huge["num_hidden_layers"] = serde_json::json!(1e12);
        huge["quantization_config"]["modules_to_not_convert"] = serde_json::json!(["q_proj"]);
        let h = imported(&huge.to_string());
        assert_eq!(h.spec.unquantized_params_b, 0.0);
        assert!(h.missing.contains(&"layers"), "{:?}", h.missing);
        // The same model without the list keeps nothing else 16-bit.
        let mut plain = config.clone();
        plain["quantization_config"] = serde_json::json!({"quant_method": "fbgemm_fp8"});
        assert_eq!(imported(&plain.to_string()).spec.unquantized_params_b, 0.0);
    }

    #[test]
    fn a_dense_model_is_counted_from_its_architecture() {
        // Qwen3-32B: embeddings 151,936 × 5,120 × 2 (untied) = 1,555,824,640; attention per layer
        // 5,120 × 64 × 128 × 2 + 5,120 × 8 × 128 × 2 = 94,371,840; feed-forward 3 × 5,120 ×
        // 25,600 = 393,216,000; × 64 layers = 31,205,621,760; total 32,761,446,400 (norms and
        // q/k norms, 675,864 more, are left out): the published count is 32,762,123,264.
        let i = imported(
            r#"{"model_type":"qwen3","hidden_size":5120,"num_hidden_layers":64,"num_attention_heads":64,"num_key_value_heads":8,"head_dim":128,"intermediate_size":25600,"vocab_size":151936,"tie_word_embeddings":false}"#,
        );
        assert_eq!(i.spec.params_b, 32.7614464);
        assert_eq!(i.spec.head_dim, 128.0);
        assert!(i.missing.is_empty(), "{:?}", i.missing);
    }
}

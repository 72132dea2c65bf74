//! A model as its authors publish it: a Hugging Face or ModelScope folder (config.json, and
//! *.safetensors or their index) or a config.json alone, read without any network into a Models
//! row, saying where each figure came from. Only the JSON headers of safetensors files are read,
//! each bounded, to count the checkpoint's exact parameters and bytes per dtype.
//!
//! This file reads the files and builds the row; the rest of the folder maps what they say:
//! `walk` the keys and defaults each figure is looked up by, `families` the figures whose keys
//! differ by model family (attention, experts), `params` the parameter counts, `quant` what a
//! quantized checkpoint keeps and says, and `safetensors` the checkpoint's headers.

mod families;
mod params;
mod quant;
mod safetensors;
#[cfg(test)]
mod tests;
mod walk;

pub use safetensors::{header, MAX_HEADER_BYTES};

use crate::error::{Error, Result};
use crate::model::ModelSpec;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use walk::{Config, Mapping};

/// Largest config.json or index JSON read.
const MAX_JSON_BYTES: u64 = 16 * 1024 * 1024;
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
    row.qk_norm();
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

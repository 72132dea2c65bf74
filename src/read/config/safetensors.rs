//! A checkpoint's safetensors headers: each file's 8-byte length and JSON header, streamed a
//! tensor at a time (never held whole), each tensor's elements and bytes added by dtype and
//! checked against its data offsets.

use super::{unreadable, Checkpoint};
use crate::error::Result;
use serde_json::Value;
use std::io::Read;
use std::path::Path;

/// Largest safetensors header read: the format's own readers' limit (safetensors'
/// MAX_HEADER_SIZE). The header is streamed from the file a tensor at a time, never held whole
/// nor as a JSON tree (which took some 40 times its size), so memory does not grow with it.
pub const MAX_HEADER_BYTES: u64 = 100 * 1000 * 1000;

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

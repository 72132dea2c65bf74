//! `gpuplan model PATH`: published config.json files of twelve architectures mapped to Models
//! rows, a safetensors checkpoint whose headers are counted exactly, and files it refuses.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;
use std::path::Path;

fn model_json(dir: &Path, path: &str) -> serde_json::Value {
    let r = gpuplan(dir, &["model", path, "--format", "json"]);
    r.ok();
    json_of(&r)
}

fn field(v: &serde_json::Value, f: &str) -> f64 {
    v["fields"][f].as_f64().unwrap_or(0.0)
}

#[test]
fn twelve_architectures_map_to_the_catalogs_rows() {
    let d = tempdir();
    // (fixture, catalog row): the architecture figures read from the config.json equal the
    // catalog's, which were typed from the same published files by hand; parameters are
    // counted from the architecture and land within 1.5% of the published totals.
    for (file, row) in [
        ("Llama-3.3-70B-Instruct", "Llama-3.3-70B"),
        ("Mistral-7B-v0.1", "Mistral-7B"),
        ("Mixtral-8x7B-v0.1", "Mixtral-8x7B"),
        ("Qwen2.5-7B-Instruct", "Qwen2.5-7B"),
        ("Qwen3-8B", "Qwen3-8B"),
        ("Qwen3-30B-A3B", "Qwen3-30B-A3B"),
        ("DeepSeek-V3", "DeepSeek-V3"),
        ("Kimi-K2-Instruct", "Kimi-K2"),
        ("gpt-oss-120b", "gpt-oss-120b"),
        ("gemma-3-27b-it", "Gemma-3-27B"),
        ("Llama-4-Scout-17B-16E-Instruct", "Llama-4-Scout"),
        ("Qwen2.5-VL-7B-Instruct", "Qwen2.5-VL-7B"),
    ] {
        let v = model_json(
            d.path(),
            &repo(&format!("tests/fixtures/configs/{file}.json"))
                .display()
                .to_string(),
        );
        let m = gpuplan::catalog::models()
            .into_iter()
            .find(|m| m.name == row)
            .unwrap();
        for f in [
            "layers",
            "hidden",
            "heads",
            "kv_heads",
            "vocab",
            "experts",
            "experts_per_token",
            "moe_ffn",
            "dense_layers",
            "kv_lora_rank",
            "qk_rope_head_dim",
            "qk_norm",
        ] {
            assert_eq!(field(&v, f), m.field(f), "{file}: {f}");
        }
        // Mistral-7B-v0.1 windows every layer at 4,096 tokens; the catalog's Mistral-7B row
        // (any version) leaves it out, as v0.2 and later have no window.
        if row == "Mistral-7B" {
            assert_eq!(
                (field(&v, "sliding_window"), field(&v, "sliding_layers")),
                (4096.0, 32.0)
            );
        } else {
            assert_eq!(field(&v, "sliding_window"), m.sliding_window, "{file}");
            assert_eq!(field(&v, "sliding_layers"), m.sliding_layers, "{file}");
        }
        if m.kv_lora_rank == 0.0 {
            assert_eq!(field(&v, "head_dim"), m.head_dim, "{file}: head_dim");
        }
        let params = field(&v, "params_b");
        assert!(
            (params - m.params_b).abs() / m.params_b < 0.015,
            "{file}: {params} vs {}",
            m.params_b
        );
        assert!(v["architecture"].as_str().is_some());
        for f in ["layers", "hidden", "heads", "vocab"] {
            assert!(
                v["sources"][f].as_str().unwrap().starts_with("config.json")
                    || row == "Gemma-3-27B",
                "{file}: {f} {}",
                v["sources"][f]
            );
        }
    }
}

#[test]
fn gemma_defaults_and_gpt_oss_quantization_are_said_not_silent() {
    let d = tempdir();
    let v = model_json(
        d.path(),
        &repo("tests/fixtures/configs/gemma-3-27b-it.json")
            .display()
            .to_string(),
    );
    // Gemma 3's text_config leaves vocab_size to transformers' default, 262,208: said so.
    assert_eq!(field(&v, "vocab"), 262_208.0);
    assert!(v["sources"]["vocab"]
        .as_str()
        .unwrap()
        .contains("default in transformers"));
    // 62 layers, one global in every 6: 62 − 10 = 52 local.
    assert_eq!(field(&v, "sliding_layers"), 52.0);
    let v = model_json(
        d.path(),
        &repo("tests/fixtures/configs/gpt-oss-120b.json")
            .display()
            .to_string(),
    );
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(
        notes.iter().any(|n| n.contains("expert_precision mxfp4")),
        "{notes:?}"
    );
}

#[test]
fn csv_output_is_a_models_row_the_sheet_reads() {
    let d = tempdir();
    let r = gpuplan(
        d.path(),
        &[
            "model",
            &repo("tests/fixtures/configs/Qwen3-30B-A3B.json")
                .display()
                .to_string(),
            "--format",
            "csv",
            "--name",
            "My-MoE",
        ],
    );
    r.ok();
    let mut lines = r.stdout.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[0], "name");
    assert_eq!(row[0], "My-MoE");
    // The row, pasted into a Models sheet, plans a workload on it.
    let mut rows: Vec<Option<V>> = Vec::new();
    for (h, v) in header.iter().zip(&row) {
        let _ = h;
        rows.push(if v.is_empty() {
            None
        } else if let Ok(x) = v.parse::<f64>() {
            Some(n(x))
        } else {
            Some(s(v))
        });
    }
    let book = Book::new()
        .sheet(
            "Workloads",
            &["name", "kind", "model", "concurrency"],
            vec![vec![
                Some(s("api")),
                Some(s("inference")),
                Some(s("My-MoE")),
                Some(n(8.0)),
            ]],
        )
        .sheet("Models", &header, vec![rows]);
    book.write(&d.path().join("b.xlsx"));
    let json = calc_json(d.path(), "b.xlsx", "o.xlsx", &[]);
    let values = &json["workloads"][0]["values"];
    // 128 experts of 3 × 2,048 × 768 in 48 layers: 28.99 B of the 30.53 B.
    assert_eq!(values["expert_params_b"].as_f64(), Some(28.991029248));
}

/// A safetensors file: the 8-byte length, the JSON header, then the data.
fn safetensors(path: &Path, tensors: &[(&str, &str, &[u64])]) -> (u64, u64) {
    let mut header = serde_json::Map::new();
    let mut offset = 0u64;
    let mut elements = 0u64;
    for (name, dtype, shape) in tensors {
        let n: u64 = shape.iter().product();
        let size = n * match *dtype {
            "F32" => 4,
            "BF16" | "F16" => 2,
            _ => 1,
        };
        header.insert(
            name.to_string(),
            serde_json::json!({"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}),
        );
        offset += size;
        elements += n;
    }
    header.insert("__metadata__".into(), serde_json::json!({"format": "pt"}));
    let text = serde_json::to_vec(&header).unwrap();
    let mut bytes = (text.len() as u64).to_le_bytes().to_vec();
    bytes.extend(&text);
    bytes.extend(vec![0u8; offset as usize]);
    std::fs::write(path, bytes).unwrap();
    (elements, offset)
}

#[test]
fn a_checkpoints_headers_give_its_exact_parameters_and_bytes() {
    let d = tempdir();
    let m = d.path().join("tiny");
    std::fs::create_dir(&m).unwrap();
    std::fs::copy(
        repo("tests/fixtures/configs/Qwen2.5-7B-Instruct.json"),
        m.join("config.json"),
    )
    .unwrap();
    // Two shards: 4 × 8 + 8 = 40 BF16 values (80 B) and 2 × 3 = 6 F32 values (24 B), plus a
    // vision tensor of 5 × 5 = 25 BF16 values (50 B): 71 elements, 154 bytes.
    let (e1, b1) = safetensors(
        &m.join("model-00001-of-00002.safetensors"),
        &[
            ("model.embed_tokens.weight", "BF16", &[4, 8]),
            ("model.norm.weight", "BF16", &[8]),
        ],
    );
    let (e2, b2) = safetensors(
        &m.join("model-00002-of-00002.safetensors"),
        &[
            ("lm_head.bias", "F32", &[2, 3]),
            ("visual.patch.weight", "BF16", &[5, 5]),
        ],
    );
    assert_eq!((e1 + e2, b1 + b2), (71, 154));
    let v = model_json(d.path(), "tiny");
    assert_eq!(v["checkpoint"]["elements"], 71);
    assert_eq!(v["checkpoint"]["bytes"], 154);
    assert_eq!(v["checkpoint"]["files"], 2);
    assert_eq!(v["checkpoint"]["by_dtype"]["BF16"]["elements"], 65);
    assert_eq!(v["checkpoint"]["by_dtype"]["F32"]["bytes"], 24);
    assert_eq!(field(&v, "params_b"), 71e-9);
    assert_eq!(field(&v, "vision_params_b"), 25e-9);
    assert_eq!(v["name"], "tiny");
}

#[test]
fn a_truncated_or_oversized_header_and_a_missing_config_are_refused() {
    let d = tempdir();
    let m = d.path().join("bad");
    std::fs::create_dir(&m).unwrap();
    // No config.json.
    gpuplan(d.path(), &["model", "bad"]).fails_with(2, &["bad: the folder has no config.json"]);
    std::fs::copy(
        repo("tests/fixtures/configs/Qwen3-8B.json"),
        m.join("config.json"),
    )
    .unwrap();
    // A header length of 4 GB.
    let mut b = (4u64 << 30).to_le_bytes().to_vec();
    b.extend(b"{}");
    std::fs::write(m.join("model.safetensors"), &b).unwrap();
    gpuplan(d.path(), &["model", "bad"]).fails_with(2, &["model.safetensors: its header claims 4294967296 bytes; gpuplan reads safetensors headers of at most 100 MB"]);
    // A header cut short: it claims 1,000 bytes, the file holds 10.
    let mut b = 1000u64.to_le_bytes().to_vec();
    b.extend(b"{\"a\": {\"dt");
    std::fs::write(m.join("model.safetensors"), &b).unwrap();
    gpuplan(d.path(), &["model", "bad"]).fails_with(
        2,
        &["its header claims 1000 bytes but the file holds 10: the file is truncated"],
    );
    // A config.json that is not JSON.
    std::fs::write(m.join("config.json"), "{ not json").unwrap();
    std::fs::remove_file(m.join("model.safetensors")).unwrap();
    gpuplan(d.path(), &["model", "bad"])
        .fails_with(2, &["config.json: a config.json is not valid JSON"]);
}

#[test]
fn an_unknown_architecture_prints_what_it_read_and_names_what_is_missing() {
    let d = tempdir();
    std::fs::write(
        d.path().join("config.json"),
        r#"{"model_type": "rwkv7", "hidden_size": 4096, "vocab_size": 65536}"#,
    )
    .unwrap();
    let v = model_json(d.path(), "config.json");
    assert_eq!(field(&v, "hidden"), 4096.0);
    let missing: Vec<&str> = v["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        missing.contains(&"layers") && missing.contains(&"heads") && missing.contains(&"params_b"),
        "{missing:?}"
    );
    assert!(v["notes"].as_array().unwrap().iter().any(|n| n
        .as_str()
        .unwrap()
        .contains("rwkv7 is not one gpuplan knows")));
}

#[test]
fn a_workloads_model_may_be_a_folder_beside_the_workbook() {
    let d = tempdir();
    let m = d.path().join("models").join("Qwen3-30B-A3B");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::copy(
        repo("tests/fixtures/configs/Qwen3-30B-A3B.json"),
        m.join("config.json"),
    )
    .unwrap();
    let book = |model: &str| {
        Book::new().sheet(
            "Workloads",
            &["name", "kind", "model", "concurrency"],
            vec![vec![
                Some(s("api")),
                Some(s("inference")),
                Some(s(model)),
                Some(n(8.0)),
            ]],
        )
    };
    book("models/Qwen3-30B-A3B").write(&d.path().join("b.xlsx"));
    let json = calc_json(d.path(), "b.xlsx", "o.xlsx", &[]);
    assert_eq!(
        json["workloads"][0]["values"]["expert_params_b"].as_f64(),
        Some(28.991029248)
    );
    assert!(json["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["message"]
            .as_str()
            .unwrap()
            .contains("the model Qwen3-30B-A3B was read from models/Qwen3-30B-A3B (qwen3_moe)")));
    book("models/nope").write(&d.path().join("c.xlsx"));
    gpuplan(d.path(), &["calc", "c.xlsx"]).fails_with(
        2,
        &["Workloads!C2: the model path models/nope cannot be read"],
    );
}

/// A model folder with a config.json that gpuplan maps.
fn model_folder(d: &Path) -> std::path::PathBuf {
    let m = d.join("m");
    std::fs::create_dir(&m).unwrap();
    std::fs::copy(
        repo("tests/fixtures/configs/Qwen3-8B.json"),
        m.join("config.json"),
    )
    .unwrap();
    m
}

/// Runs `gpuplan ARGS` in `dir`, killed after 30 seconds (a hang is then a failure, not a stuck
/// test run).
fn gpuplan_or_hang(dir: &Path, args: &[&str]) -> Run {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gpuplan"))
        .args(args)
        .current_dir(dir)
        .env_remove("LANG")
        .env_remove("LC_ALL")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..300 {
        if child.try_wait().unwrap().is_some() {
            return run_of(child.wait_with_output().unwrap());
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    child.kill().unwrap();
    panic!("gpuplan {args:?} hung");
}

#[cfg(unix)]
#[test]
fn a_fifo_named_safetensors_is_refused_not_waited_on() {
    let d = tempdir();
    let m = model_folder(d.path());
    let fifo = m.join("model.safetensors");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    gpuplan_or_hang(d.path(), &["model", "m"])
        .fails_with(2, &["model.safetensors", "not a regular file"]);
}

/// A safetensors file of one tensor with the header as given (data of `data` bytes after it).
fn one_tensor(path: &Path, tensor: serde_json::Value, data: usize) {
    let text = serde_json::to_vec(&serde_json::json!({ "w": tensor })).unwrap();
    let mut bytes = (text.len() as u64).to_le_bytes().to_vec();
    bytes.extend(&text);
    bytes.extend(vec![0u8; data]);
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_safetensors_shape_that_does_not_fill_its_data_offsets_is_refused() {
    let d = tempdir();
    let m = model_folder(d.path());
    let st = m.join("model.safetensors");
    // 2^32 × 2^32 + 8 elements wraps to 8 in 64 bits: BF16 would then need 16 bytes, and
    // checked, the product overflows; a shape of [4, 8] BF16 needs 4 × 8 × 2 = 64 bytes, not 16.
    one_tensor(
        &st,
        serde_json::json!({"dtype": "BF16", "shape": [4, 8], "data_offsets": [0, 16]}),
        16,
    );
    gpuplan(d.path(), &["model", "m"]).fails_with(2, &["tensor w", "holds 64 bytes", "give 16"]);
    // A negative dimension is not dropped (it made [-1, 8] count as 8 elements).
    one_tensor(
        &st,
        serde_json::json!({"dtype": "BF16", "shape": [-1, 8], "data_offsets": [0, 16]}),
        16,
    );
    gpuplan(d.path(), &["model", "m"]).fails_with(2, &["tensor w has no shape"]);
    // Offsets past the data the file holds.
    one_tensor(
        &st,
        serde_json::json!({"dtype": "BF16", "shape": [8], "data_offsets": [0, 16]}),
        4,
    );
    gpuplan(d.path(), &["model", "m"]).fails_with(2, &["lie outside the file's 4 bytes"]);
}

#[test]
fn a_safetensors_header_over_100_mb_is_refused_before_it_is_read() {
    let d = tempdir();
    let m = model_folder(d.path());
    // It claims one byte more than the format's own readers take (100,000,000).
    let size = 100_000_001u64;
    let mut b = size.to_le_bytes().to_vec();
    b.extend(b"{}");
    std::fs::write(m.join("model.safetensors"), &b).unwrap();
    gpuplan(d.path(), &["model", "m"]).fails_with(
        2,
        &["its header claims 100000001 bytes; gpuplan reads safetensors headers of at most 100 MB"],
    );
}

/// #44 item 10: a safetensors header was parsed as a whole JSON tree (some 40 times its size),
/// so headers were capped at 16 MB and a 20 MB one was refused. It is now streamed a tensor at
/// a time and what is not needed (here 20 MB of `__metadata__`) is skipped as it is read: the
/// one tensor, 4 × 8 BF16 = 32 elements in 64 bytes, is counted.
#[test]
fn a_20_mb_safetensors_header_is_streamed_and_its_tensors_counted() {
    let d = tempdir();
    let m = model_folder(d.path());
    let header = serde_json::json!({
        "__metadata__": {"format": "pt", "notes": "x".repeat(20_000_000)},
        "w": {"dtype": "BF16", "shape": [4, 8], "data_offsets": [0, 64]},
    });
    let text = serde_json::to_vec(&header).unwrap();
    assert!(text.len() > 20_000_000);
    let mut bytes = (text.len() as u64).to_le_bytes().to_vec();
    bytes.extend(&text);
    bytes.extend(vec![0u8; 64]);
    std::fs::write(m.join("model.safetensors"), bytes).unwrap();
    let v = model_json(d.path(), "m");
    assert_eq!(v["checkpoint"]["elements"], 32, "{}", v["checkpoint"]);
    assert_eq!(v["checkpoint"]["bytes"], 64);
}

#[test]
fn a_model_folder_gpuplan_cannot_map_is_refused_naming_the_cell_and_keys() {
    let d = tempdir();
    // MPT names its sizes d_model, n_layers and n_heads: only d_model is a key gpuplan maps.
    std::fs::create_dir(d.path().join("mpt")).unwrap();
    std::fs::write(
        d.path().join("mpt/config.json"),
        r#"{"model_type": "mpt", "d_model": 4096, "n_layers": 32, "n_heads": 32, "vocab_size": 50432}"#,
    )
    .unwrap();
    std::fs::write(d.path().join("empty.json"), "{}").unwrap();
    for (path, missing) in [
        ("./mpt", "layers, heads"),
        ("empty.json", "layers, hidden, heads"),
    ] {
        // qa-api's model cell is Workloads!C3.
        team()
            .set("Workloads", 2, 2, Some(s(path)))
            .write(&d.path().join("t.xlsx"));
        gpuplan(d.path(), &["calc", "t.xlsx", "-q", "--force"])
            .fails_with(2, &["Workloads!C3", "cannot be sized", missing]);
    }
}

#[test]
fn model_sizes_that_are_not_sizes_are_named_missing_not_printed_as_inf() {
    let d = tempdir();
    std::fs::write(
        d.path().join("config.json"),
        r#"{"model_type": "llama", "hidden_size": 1e308, "num_hidden_layers": -4, "num_attention_heads": 0,
            "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}"#,
    )
    .unwrap();
    let r = gpuplan(d.path(), &["model", "config.json", "--format", "json"]);
    r.ok();
    assert!(!r.stdout.contains("inf"), "{}", r.stdout);
    let v = json_of(&r);
    for f in ["layers", "hidden", "heads"] {
        assert!(
            v["missing"].as_array().unwrap().contains(&f.into()),
            "{f} in {}",
            v["missing"]
        );
    }
}

/// #44 item 7: a config.json without vocab_size was reported as "params_b 6.476 counted from the
/// architecture (embeddings, …)", though the embeddings were not in it. Llama-2-7B's shape:
/// per layer attention 4 × 4,096² = 67,108,864 and feed-forward 3 × 4,096 × 11,008 =
/// 135,266,304: 202,375,168 × 32 layers = 6,476,005,376 (6.476 B; the norms' few thousand are not
/// counted); its 32,000-token vocabulary adds 32,000 × 4,096 × 2 (untied) = 262,144,000:
/// 6,738,149,376 (6.738 B). Without the vocabulary params_b is left blank and named missing,
/// with a note giving what was counted.
#[test]
fn a_config_without_vocab_size_leaves_params_b_blank_and_says_why() {
    let d = tempdir();
    let llama2 = |vocab: &str| {
        format!(
            r#"{{"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 11008, "tie_word_embeddings": false{vocab}}}"#
        )
    };
    std::fs::write(d.path().join("config.json"), llama2("")).unwrap();
    let v = model_json(d.path(), "config.json");
    assert!(v["fields"]["params_b"].is_null(), "{}", v["fields"]);
    let missing: Vec<&str> = v["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        missing.contains(&"vocab") && missing.contains(&"params_b"),
        "{missing:?}"
    );
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("params_b left blank: without vocab_size the embeddings and output head")
            && notes.contains("counts 6.476 B"),
        "{notes}"
    );
    let text = gpuplan(d.path(), &["model", "config.json"]);
    text.ok();
    assert!(
        !text
            .stdout
            .contains("counted from the architecture (embeddings"),
        "{}",
        text.stdout
    );
    std::fs::write(
        d.path().join("config.json"),
        llama2(r#", "vocab_size": 32000"#),
    )
    .unwrap();
    let v = model_json(d.path(), "config.json");
    assert!(
        close(field(&v, "params_b"), 6.738_149_376),
        "{}",
        v["fields"]
    );
}

//! Engine profiles (issue #16): a workload's `engine` column applies its engine's figures, the
//! Engines sheet edits or adds them, and mistakes name their cell.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use calamine::DataType;
use common::*;

/// One vLLM-style service: Llama-3.1-8B at 20,000 tokens on an RTX 3090, one request.
fn service(engine: &str) -> Book {
    Book::new()
        .sheet(
            "Workloads",
            &[
                "name",
                "kind",
                "model",
                "context_len",
                "concurrency",
                "gpu",
                "engine",
            ],
            vec![vec![
                Some(s("svc")),
                Some(s("inference")),
                Some(s("Llama-3.1-8B")),
                Some(n(20000.0)),
                Some(n(1.0)),
                Some(s("RTX 3090")),
                Some(s(engine)),
            ]],
        )
        .sheet(
            "GPUs",
            &["gpu", "provider", "monthly"],
            vec![vec![Some(s("RTX 3090")), Some(s("p")), Some(n(1000.0))]],
        )
}

/// The candidate's KV pool (GiB) and the full-context requests it holds, to 1e-4.
#[track_caller]
fn assert_pool(values: &serde_json::Value, pool: f64, concurrency: f64) {
    let got = values["kv_pool_gib"].as_f64().unwrap();
    assert!(
        (got - pool).abs() < 1e-4,
        "kv_pool_gib {got}, expected {pool}"
    );
    let got = values["max_concurrency"].as_f64().unwrap();
    assert!(
        (got - concurrency).abs() < 1e-4,
        "max_concurrency {got}, expected {concurrency}"
    );
}

/// The book with an Engines sheet of one serving figure: [engine, key, source] and its value.
fn with_engine_figure(book: Book, [engine, key, source]: [&str; 3], value: f64) -> Book {
    book.sheet(
        "Engines",
        &["engine", "applies_to", "key", "value", "source"],
        vec![vec![
            Some(s(engine)),
            Some(s("serving")),
            Some(s(key)),
            Some(n(value)),
            Some(s(source)),
        ]],
    )
}

fn values(book: Book) -> serde_json::Value {
    plan(book)["workloads"][0].clone()
}

/// The whole JSON plan of the book.
fn plan(book: Book) -> serde_json::Value {
    let d = tempdir();
    let p = book_with(&d, "b.xlsx", book);
    calc_json(d.path(), p.to_str().unwrap(), "out.xlsx", &[])
}

/// The messages of the plan's warnings that contain `needle`.
fn warnings_with(plan: &serde_json::Value, needle: &str) -> Vec<String> {
    plan["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w["message"].as_str())
        .filter(|m| m.contains(needle))
        .map(str::to_string)
        .collect()
}

#[test]
fn vllm_sizes_a_replica_from_its_share_of_the_card_and_reports_the_pool() {
    // vLLM's profile: gpu_memory_utilization 0.9, prefill 2,048 tokens below 70 GiB, 0.35 GiB
    // outside torch, no fixed buffers, a sampler warm-up of 256 sequences at 38 bytes per
    // vocabulary entry. RTX 3090, 23.56 GiB in the catalog (its total as the driver reports it):
    //   usable per card   0.9 × 23.56 = 21.204 GiB, less 0.35 = 20.854
    //   weights           8.03e9 × 2 B / 2^30 = 14.957 GiB
    //   prefill           2,048 × (3 × 14,336 + 4 × 4,096) × 2 B / 2^30 = 0.2266 GiB
    //   sampler           256 × 128,256 × 38 B / 2^30 = 1.1620 GiB, the larger of the two:
    //                     0.9354 GiB beyond the prefill
    //   pool              20.854 − 14.957 − 0.2266 − 0.9354 = 4.7350 GiB
    //   one full request  32 layers × 2 × 8 × 128 × 2 B = 131,072 B a token × 20,000
    //                     = 2.4414 GiB → max_concurrency 4.7350 / 2.4414 = 1.9394
    let w = values(service("vllm"));
    assert_eq!(w["engine"], "vllm");
    let v = &w["values"];
    let pool = v["kv_pool_gib"].as_f64().unwrap();
    assert!((pool - 4.7350).abs() < 0.001, "{pool}");
    let conc = v["max_concurrency"].as_f64().unwrap();
    assert!((conc - 1.9394).abs() < 0.001, "{conc}");
    // vLLM 0.17 and later (#45): the same, but a sampler of 14 bytes per vocabulary entry and
    // 0.25 GiB outside torch:
    //   usable            21.204 − 0.25 = 20.954 GiB
    //   sampler           256 × 128,256 × 14 B / 2^30 = 0.4281 GiB: 0.2015 beyond the prefill
    //   pool              20.954 − 14.957 − 0.2266 − 0.2015 = 5.5689 GiB → 2.2810 requests
    let w = values(service("vllm@0.17"));
    assert_eq!(w["engine"], "vllm@0.17");
    let v = &w["values"];
    let pool = v["kv_pool_gib"].as_f64().unwrap();
    assert!((pool - 5.5689).abs() < 0.001, "{pool}");
    let conc = v["max_concurrency"].as_f64().unwrap();
    assert!((conc - 2.2810).abs() < 0.001, "{conc}");
    // Without an engine: no pool, and the card is planned with vram_headroom instead.
    let w = values(service(""));
    assert_eq!(w["engine"], serde_json::Value::Null);
    assert_eq!(w["values"]["kv_pool_gib"].as_f64(), Some(0.0));
}

#[test]
fn trt_llm_takes_its_share_of_the_free_memory_for_the_pool() {
    // TensorRT-LLM's profile (engine flow, 0.14–0.19): kv_free_fraction 0.9 of what is free
    // after the weights, the engine's activation memory (max_num_tokens 8,192), the runtime's
    // decoding buffers for max_batch_size 2,048 and 0.76 GiB of context; no other fixed
    // buffers. Same service as above, 20,000 tokens:
    //   usable            the whole card, 23.56 GiB, less 0.76 = 22.80 GiB
    //   weights           8.03e9 × 2 B / 2^30 = 14.95706 GiB
    //   prefill           8,192 × (3 × 14,336 + 4 × 4,096) × 2 B / 2^30 = 0.90625 GiB
    //   buffers           2,048 × (5 × 128,256 × 4 + 40 × 20,000 + 65,536) B
    //                     = 2,048 × 3,430,656 B = 7,025,983,488 B = 6.54346 GiB
    //   free              22.80 − 14.95706 − 0.90625 − 6.54346 = 0.39323 GiB
    //   pool              0.9 × 0.39323 = 0.35391 GiB: not one request of 20,000 tokens
    //                     (32 layers × 2 × 8 × 128 × 2 B × 20,000 = 2.44141 GiB), so the plan
    //                     takes two GPUs, each holding its own buffers and 0.35 GiB of NCCL:
    //   per GPU           0.76 + 0.35 + 6.54346 = 7.65346 GiB
    //   replica           2 × (23.56 − 7.65346) = 31.81308 GiB
    //   pool              0.9 × (31.81308 − 14.95706 − 0.90625) = 0.9 × 15.94977 = 14.35479 GiB
    //   max_concurrency   14.35479 / 2.44141 = 5.87972
    let whole = plan(service("trt-llm"));
    let w = &whole["workloads"][0];
    assert_eq!(w["engine"], "trt-llm");
    assert_eq!(w["gpus_per_replica"].as_f64(), Some(2.0));
    // Buffers of 6.54 GiB are over a fifth of the 23.56 GiB card: the plan says what to change.
    assert_eq!(
        warnings_with(&whole, "batch_buffers_gib"),
        ["svc: the runtime's decoding buffers for the engine's max_batch_size take 6.54 GiB of each RTX 3090's 23.56 GiB (batch_buffers_gib); build the engine for the sequences it will serve (trtllm-build --max_batch_size) and give that figure as engine_max_batch_size in the Engines sheet"]
    );
    let v = &w["values"];
    let buffers = v["batch_buffers_gib"].as_f64().unwrap();
    assert!((buffers - 6.54346).abs() < 1e-5, "{buffers}");
    assert_pool(v, 14.35479, 5.87972);
    // The whole card is planned (the free memory it leaves is the headroom): 23.56 GiB, not
    // 23.56 / 1.2 = 19.63 GiB.
    let usable = v["usable_gpu_gib"].as_f64().unwrap();
    assert!((usable - 23.56).abs() < 1e-9, "{usable}");
    // An engine built for 64 sequences (the Engines sheet says so):
    //   buffers           64 × 3,430,656 B = 219,561,984 B = 0.20448 GiB
    //   free              22.80 − 14.95706 − 0.90625 − 0.20448 = 6.73221 GiB
    //   pool              0.9 × 6.73221 = 6.05899 GiB, 6.05899 / 2.44141 = 2.48176 requests
    let book = with_engine_figure(
        service("trt-llm"),
        [
            "trt-llm",
            "engine_max_batch_size",
            "trtllm-build --max_batch_size 64",
        ],
        64.0,
    );
    let whole = plan(book);
    let w = &whole["workloads"][0];
    assert_eq!(w["gpus_per_replica"].as_f64(), Some(1.0));
    assert_pool(&w["values"], 6.05899, 2.48176);
    assert!(warnings_with(&whole, "batch_buffers_gib").is_empty());
}

#[test]
fn an_engines_sheet_row_replaces_the_built_in_figure() {
    // gpu_memory_utilization 0.95: usable 0.95 × 23.56 − 0.35 = 22.032, pool 22.032 − 14.957
    // − 0.2266 − 0.9354 (the sampler beyond the prefill, as above) = 5.9130 GiB.
    let book = with_engine_figure(
        service("vllm"),
        ["vLLM", "gpu_memory_utilization", "our launch script"],
        0.95,
    );
    let w = values(book);
    let pool = w["values"]["kv_pool_gib"].as_f64().unwrap();
    assert!((pool - 5.9130).abs() < 0.001, "{pool}");
}

#[test]
fn an_unknown_engine_names_the_cell_and_the_engines() {
    refused_book(
        service("vlm"),
        &[
            "Workloads!G2: the engine \"vlm\" has no profile (built in: transformers, transformers-4.35, transformers@4.46, hf-peft, unsloth, litgpt, vllm",
            "did you mean vllm",
        ],
    );
}

#[test]
fn an_engines_row_may_not_set_a_money_assumption_or_a_bad_value() {
    let book = service("vllm").sheet(
        "Engines",
        &["engine", "applies_to", "key", "value"],
        vec![
            vec![
                Some(s("vllm")),
                Some(s("serving")),
                Some(s("safety_margin")),
                Some(n(0.1)),
            ],
            vec![
                Some(s("vllm")),
                Some(s("serving")),
                Some(s("gpu_memory_utilization")),
                Some(n(1.5)),
            ],
            vec![
                Some(s("vllm")),
                Some(s("inference only")),
                Some(s("prefill_chunk_tokens")),
                Some(n(512.0)),
            ],
        ],
    );
    refused_book(
        book,
        &[
            "Engines!C2: an engine profile sets an assumption that sizes memory or speed",
            "found \"safety_margin\"",
            "Engines!D3: gpu_memory_utilization must be",
            "Engines!B4: applies_to must be serving, training or any",
        ],
    );
}

#[test]
fn an_engine_without_figures_for_the_kind_keeps_the_defaults_with_a_note() {
    let mut book = service("vllm");
    book = book
        .set("Workloads", 1, 1, Some(s("lora")))
        .set("Workloads", 1, 3, Some(n(2048.0)));
    let d = tempdir();
    let p = book_with(&d, "b.xlsx", book.set("Workloads", 1, 4, None));
    let j = calc_json(
        d.path(),
        p.to_str().unwrap(),
        "out.xlsx",
        &["--set", "svc.hours_per_month=10"],
    );
    let note = "vllm has no figures for lora workloads: the Assumptions sheet's apply to svc";
    let notes = warnings_with(&j, "has no figures");
    assert!(notes.iter().any(|m| m == note), "{notes:?}");
    assert_eq!(j["workloads"][0]["planned"], true);
}

#[test]
fn an_engine_without_a_profile_says_the_defaults_apply_and_their_error() {
    // gpt-fast has only a declaration row (the defaults were fitted on its figures): the
    // workload is planned on the defaults, with a note naming the engine and the row's source.
    // mlc-llm and exllamav2, declared the same way before, have profiles now (#36 item 4).
    let d = tempdir();
    let plan = |engine: &str| {
        let p = book_with(&d, &format!("{engine}.xlsx"), service(engine));
        let out = format!("{engine}-out.xlsx");
        calc_json(
            d.path(),
            p.to_str().unwrap(),
            &out,
            &["--set", "svc.hours_per_month=10"],
        )
    };
    let j = plan("gpt-fast");
    let notes = warnings_with(&j, "has no profile of its own");
    assert!(
        notes.iter().any(|m| m.starts_with(
            "gpt-fast has no profile of its own: the Assumptions sheet's defaults apply to svc ("
        ) && m.contains("were fitted on its README figures")),
        "{notes:?}"
    );
    assert_eq!(j["workloads"][0]["planned"], true);
    let notes = warnings_with(&plan("mlc-llm"), "has no profile of its own");
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn the_template_holds_the_built_in_engines_and_reads_back() {
    let d = tempdir();
    gpuplan(d.path(), &["init", "t.xlsx"]).ok();
    let sheets = sheet_names(&d.path().join("t.xlsx"));
    assert!(sheets.iter().any(|n| n == "Engines"), "{sheets:?}");
    let rows = read_sheet(&d.path().join("t.xlsx"), "Engines");
    let vllm_util = rows.iter().any(|r| {
        r.first().map(|c| c.to_string()) == Some("vllm".into())
            && r.get(2).map(|c| c.to_string()) == Some("gpu_memory_utilization".into())
            && r.get(3).and_then(|c| c.get_float()) == Some(0.9)
    });
    assert!(vllm_util, "{rows:?}");
    gpuplan(d.path(), &["check", "t.xlsx"]).ok();
}

#[test]
fn catalog_engines_lists_every_figure_and_its_source() {
    let d = tempdir();
    let r = gpuplan(d.path(), &["catalog", "engines"]);
    r.ok();
    assert!(
        r.stdout
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == [
                    "vllm",
                    "serving",
                    "gpu_memory_utilization",
                    "0.9",
                    "share",
                    "0.6–0.11"
                ]),
        "{}",
        r.stdout
    );
    let csv = gpuplan(d.path(), &["catalog", "engines", "--format", "csv"]);
    csv.ok();
    // One line per figure of templates/engines.tsv, each with its source, under the header.
    let figures = gpuplan::catalog::engines().values.len();
    assert_eq!(csv.stdout.lines().count(), figures + 1);
    assert!(csv.stdout.contains("EngineArgs.get_batch_defaults"));
}

/// The workbook names the profile where finance reads it: the Plan tab's "Engine" column holds
/// the workload's engine, and the Assumptions tab's block of the profile's figures has its
/// "Engine" header under a title naming that column. (A rename of the planner's compiled
/// formulas, plan::Engine to Programs, once renamed these labels too.)
#[test]
fn the_plan_and_assumptions_tabs_label_the_engine_profile() {
    let d = tempdir();
    let p = book_with(&d, "b.xlsx", service("vllm"));
    let r = gpuplan(
        d.path(),
        &["calc", p.to_str().unwrap(), "-o", "out.xlsx", "-q"],
    );
    r.ok();
    let out = d.path().join("out.xlsx");
    let plan = read_sheet(&out, "Plan");
    let col = plan[0]
        .iter()
        .position(|h| *h == calamine::Data::String("Engine".into()))
        .expect("an Engine column on the Plan tab");
    assert_eq!(plan[1][col].to_string(), "vllm");
    let assumptions = read_sheet(&out, "Assumptions");
    let title = assumptions
        .iter()
        .position(|r| r[0].to_string().starts_with("Engine profiles in use:"))
        .expect("the profile block's title");
    assert!(
        assumptions[title][0]
            .to_string()
            .ends_with("(Plan tab, Engine column)."),
        "{}",
        assumptions[title][0]
    );
    assert_eq!(assumptions[title + 1][0].to_string(), "Engine");
    assert_eq!(assumptions[title + 2][0].to_string(), "vllm");

    // A profile keyed by version: the Plan tab names it, and the block lists every figure the
    // workload took, vLLM's under vLLM's name and 0.17's own under its name, each key once.
    let p = book_with(&d, "v.xlsx", service("vllm@0.17"));
    gpuplan(
        d.path(),
        &["calc", p.to_str().unwrap(), "-o", "v.plan.xlsx", "-q"],
    )
    .ok();
    let out = d.path().join("v.plan.xlsx");
    assert_eq!(read_sheet(&out, "Plan")[1][col].to_string(), "vllm@0.17");
    let assumptions = read_sheet(&out, "Assumptions");
    let title = assumptions
        .iter()
        .position(|r| r[0].to_string().starts_with("Engine profiles in use:"))
        .expect("the profile block's title");
    let rows: Vec<(String, String)> = assumptions[title + 2..]
        .iter()
        .take_while(|r| !r[0].to_string().is_empty())
        .map(|r| (r[0].to_string(), r[1].to_string()))
        .collect();
    let has = |engine: &str, key: &str| rows.iter().any(|(e, k)| e == engine && k == key);
    assert!(has("vllm", "gpu_memory_utilization"), "{rows:?}");
    assert!(has("vllm@0.17", "sampler_bytes"), "{rows:?}");
    assert!(has("vllm@0.17", "runtime_overhead_gib"), "{rows:?}");
    assert!(!has("vllm", "runtime_overhead_gib"), "{rows:?}");
    let mut keys: Vec<&str> = rows.iter().map(|(_, k)| k.as_str()).collect();
    keys.sort_unstable();
    let n = keys.len();
    keys.dedup();
    assert_eq!(keys.len(), n, "a key listed twice: {rows:?}");
}

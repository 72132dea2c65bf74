//! The command line end to end: init, check, calc, explain and catalog on real workbooks,
//! including ones written by openpyxl and LibreOffice.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod common;
use common::*;

#[test]
fn init_then_check_is_ok_in_both_languages() {
    let d = tempdir();
    for (file, lang) in [("t.xlsx", "en"), ("zh.xlsx", "zh")] {
        gpuplan(d.path(), &["init", file, "--lang", lang]).ok();
        let r = gpuplan(d.path(), &["check", file]);
        r.ok();
        let offers = gpuplan::catalog::gpus().len();
        assert!(
            r.stdout
                .starts_with(&format!("ok: 3 workloads, {offers} GPU offers")),
            "{}",
            r.stdout
        );
    }
    // Every input sheet, in the order the catalog lists them, in each language.
    let (en, zh): (Vec<&str>, Vec<&str>) = gpuplan::catalog::SHEETS
        .iter()
        .map(|s| (s.en, s.zh))
        .unzip();
    assert_eq!(sheet_names(&d.path().join("zh.xlsx")), zh);
    assert_eq!(sheet_names(&d.path().join("t.xlsx")), en);
    assert_eq!(en[6..], ["Scenarios", "Ranges", "APIs", "Usage"]);
    // The Formulas sheet holds the whole default set; headers are `Label (key)`.
    let f = read_sheet(&d.path().join("t.xlsx"), "Formulas");
    assert_eq!(f[0][0].to_string(), "Name (name)");
    // One row per default formula, named as the catalog names them.
    let names: Vec<String> = f[1..].iter().map(|r| r[0].to_string()).collect();
    let defaults: Vec<String> = gpuplan::catalog::formulas()
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(names, defaults);
}

#[test]
fn init_refuses_to_overwrite_without_force() {
    let d = tempdir();
    gpuplan(d.path(), &["init", "b.xlsx", "--blank"]).ok();
    let before = bytes(&d.path().join("b.xlsx"));
    gpuplan(d.path(), &["init", "b.xlsx"]).fails_with(2, &["already exists", "--force"]);
    assert_eq!(bytes(&d.path().join("b.xlsx")), before);
    gpuplan(d.path(), &["init", "b.xlsx", "--force", "--example", "api"]).ok();
    let r = gpuplan(d.path(), &["check", "b.xlsx"]);
    assert!(r.stdout.starts_with("ok: 3 workloads"), "{}", r.stdout);
}

#[test]
fn blank_template_is_refused_by_check_until_a_workload_is_added() {
    let d = tempdir();
    gpuplan(d.path(), &["init", "b.xlsx", "--blank"]).ok();
    gpuplan(d.path(), &["check", "b.xlsx"]).fails_with(2, &["Workloads!2", "lists no workload"]);
}

#[test]
fn keys_only_headers_and_inline_strings_from_openpyxl_read_correctly() {
    // Written by openpyxl (inline strings), headers are bare keys, numbers are text ("8",
    // "10": it held "1,000%" for 10 hours until a percentage in hours was refused, #44), kinds
    // are Chinese aliases, a model name in another case, an unknown column.
    let d = tempdir();
    let input = repo("tests/fixtures/keys-only-openpyxl.xlsx");
    let j = calc_json(d.path(), input.to_str().unwrap(), "out.xlsx", &[]);
    let w = &j["workloads"];
    assert_eq!(w[0]["name"], "bot");
    assert_eq!(w[0]["kind"], "inference");
    assert_eq!(
        w[0]["values"]["utilization"].as_f64().unwrap(),
        10.0 / 730.0
    );
    assert_eq!(w[1]["name"], "trainer");
    assert_eq!(w[1]["kind"], "lora");
    // llama-3.1-8b resolved to the catalog's Llama-3.1-8B: 8.03e9 × 2 / 2^30 base weights.
    assert!(close(
        w[1]["values"]["base_weights_gib"].as_f64().unwrap(),
        8.03e9 * 2.0 / 2f64.powi(30)
    ));
    assert_eq!(w.as_array().unwrap().len(), 2);
}

#[test]
fn libreoffice_written_workbook_gives_the_seed_001_totals() {
    // tests/fixtures/team-libreoffice.xlsx is samples/team.xlsx saved again by LibreOffice
    // (shared strings, LibreOffice's own styles and dimensions).
    let d = tempdir();
    let input = repo("tests/fixtures/team-libreoffice.xlsx");
    let j = calc_json(d.path(), input.to_str().unwrap(), "out.xlsx", &[]);
    let t = &j["totals"];
    assert!(close(t["gpu_cost"].as_f64().unwrap(), 1628.0));
}

#[test]
fn seed_001_team_sample_totals() {
    // Seed 001 §6.4, with cold starts and spot rework at 0 as the seed priced them:
    //   LoRA:      2 runs × 8 h on the pinned RTX 4090 at ¥6/h   =    ¥96
    //   inference: 30 runs × 10 h on an A10 at ¥5/h (redundancy 0) = ¥1,500
    //   batch:     4 runs × 4 h on RTX 4090 spot at ¥2/h          =    ¥32
    //   GPU ¥1,628; storage 200 GB × ¥0.5 = ¥100; trial reserve 10% × 1,628 = ¥162.80;
    //   total 1,628 + 100 + 162.80 = ¥1,890.80; with the 20% margin × 1.2 = ¥2,268.96.
    let d = tempdir();
    let input = repo("samples/team.xlsx");
    let j = calc_json(d.path(), input.to_str().unwrap(), "out.xlsx", &[]);
    let t = &j["totals"];
    for (k, want) in [
        ("gpu_cost", 1628.0),
        ("storage_cost", 100.0),
        ("trial_reserve", 162.8),
        ("total", 1890.8),
        ("total_with_margin", 2268.96),
    ] {
        assert!(close(t[k].as_f64().unwrap(), want), "{k}: {}", t[k]);
    }
    let w = &j["workloads"];
    for (i, want) in [
        ("RTX 4090", "on_demand", 96.0),
        ("A10", "on_demand", 1500.0),
        ("RTX 4090", "spot", 32.0),
    ]
    .iter()
    .enumerate()
    {
        let got = (
            w[i]["gpu"].as_str().unwrap_or(""),
            w[i]["mode"].as_str().unwrap_or(""),
            w[i]["gpu_cost"].as_f64().unwrap_or(f64::NAN),
        );
        assert_eq!(&got, want, "workload {i}");
    }
    // 300 h of 730: the advice names the seed's band and the saving.
    assert!(
        w[1]["advice"]
            .as_str()
            .unwrap()
            .starts_with("utilization 41%: on-demand"),
        "{}",
        w[1]["advice"]
    );
}

#[test]
fn every_startup_workload_is_pinned_from_hand_worked_prices() {
    // samples/startup.xlsx (seed 000's table and case study; samples/README.md), prices per GPU:
    // RTX 4090 ¥2.5/h or ¥1,500 a month, A100-80G ¥10/h; 20-minute cold starts, per-minute billing.
    //   chat-api: two replicas of two 4090s, monthly: 4 × 1,500 = ¥6,000.
    //   lora-experiments: one 4090 on demand, 10 runs × (12 h + 20 min) = 123.33 h × 2.5
    //     = ¥308.33; storage 100 GB × ¥0.5 = ¥50: TCO ¥358.33.
    //   full-finetune-20b: eight A100-80G on demand, 4 runs × (50 h + 20 min) = 201.33 h × 8 × 10
    //     = ¥16,106.67; storage 500 GB × 0.5 = ¥250: TCO ¥16,356.67.
    //   comfyui: two 4090s (online redundancy), 22 runs × (200/22 h + 20 min) = 207.53 h × 2 × 2.5
    //     = ¥1,037.67.
    //   case-4k: four one-GPU instances, two monthly (¥3,000) and two bursting 8 h a day:
    //     730/24 days × (8 h + 20 min) = 253.47 h × 2 × 2.5 = ¥1,267.36: ¥4,267.36.
    //   case-8k: two replicas of two 4090s, monthly: ¥6,000.
    //   GPU ¥33,720.03, storage ¥300, trial reserve 10% ¥3,372.00: ¥37,392.03; × 1.2 = ¥44,870.44.
    let d = tempdir();
    let input = repo("samples/startup.xlsx");
    let j = calc_json(d.path(), input.to_str().unwrap(), "out.xlsx", &[]);
    let w = &j["workloads"];
    let want = [
        ("chat-api", "RTX 4090", "monthly", 2.0, 2.0, 6000.0),
        (
            "lora-experiments",
            "RTX 4090",
            "on_demand",
            1.0,
            1.0,
            358.33,
        ),
        (
            "full-finetune-20b",
            "A100-80G",
            "on_demand",
            8.0,
            1.0,
            16356.67,
        ),
        ("comfyui", "RTX 4090", "on_demand", 1.0, 2.0, 1037.67),
        ("case-4k", "RTX 4090", "mixed", 1.0, 4.0, 4267.36),
        ("case-8k", "RTX 4090", "monthly", 2.0, 2.0, 6000.0),
    ];
    assert_eq!(w.as_array().unwrap().len(), want.len());
    for (i, (name, gpu, mode, per_replica, instances, tco)) in want.into_iter().enumerate() {
        assert_eq!(w[i]["name"], name);
        assert_eq!(
            (
                w[i]["gpu"].as_str().unwrap_or(""),
                w[i]["mode"].as_str().unwrap_or(""),
                w[i]["gpus_per_replica"].as_f64().unwrap_or(f64::NAN),
                w[i]["instances"].as_f64().unwrap_or(f64::NAN),
            ),
            (gpu, mode, per_replica, instances),
            "{name}"
        );
        let got = w[i]["tco"].as_f64().unwrap();
        assert!((got - tco).abs() < 0.01, "{name}: TCO {got}");
    }
    let t = &j["totals"];
    for (k, want) in [
        ("gpu_cost", 33720.03),
        ("storage_cost", 300.0),
        ("trial_reserve", 3372.0),
        ("total", 37392.03),
        ("total_with_margin", 44870.44),
    ] {
        let got = t[k].as_f64().unwrap();
        assert!((got - want).abs() < 0.01, "{k}: {got}");
    }
}

#[test]
fn portfolio_2026_sample_plans_two_gpu_replicas() {
    // samples/portfolio-2026.xlsx, the 2026 models on the sample's six offers (samples/README.md):
    //   moe-api, Qwen3-30B-A3B bf16: 56.9 GiB of weights + 48 × 3,000 × 98,304 B = 13.2 GiB of KV
    //     need 88.4 GiB with headroom: a replica of two 48 GB cards, +20% redundancy → 2
    //     replicas: 4 × ¥2,300 monthly = ¥9,200.
    //   reasoning, QwQ-32B fp8: 72.2 GiB → two 48 GB cards again, 4 × ¥2,300 = ¥9,200 (beats two
    //     96 GB H20 at 2 × ¥4,800 = ¥9,600).
    //   images, FLUX.1-dev: 31.5 GiB of weights → two 24 GB 4090s; 40,000 × 12 s = 133⅓ h of
    //     the replica on spot, billed as on demand with one 20-minute cold start (#34 item 8):
    //     (133⅓ + 1/3) × 2 × ¥1.5 = ¥401, + 15% rework of the work hours (¥60) = ¥461.
    //   video-clips, Wan2.1-14B: 58.3 GiB → two 48 GB cards for 150 × 1,500 s = 62.5 h on
    //     demand plus one 20-minute cold start: (62.5 + 1/3) × 2 × ¥3.8 = ¥477.53.
    //   storage 750 GB × ¥0.5 = ¥375; egress 350 GB × ¥0.8 = ¥280.
    let d = tempdir();
    let input = repo("samples/portfolio-2026.xlsx");
    let j = calc_json(d.path(), input.to_str().unwrap(), "out.xlsx", &[]);
    let w = &j["workloads"];
    for (i, want) in [
        (0, ("RTX 4090 48GB", "monthly", 2.0, 2.0, 9200.0)),
        (1, ("RTX 4090 48GB", "monthly", 2.0, 2.0, 9200.0)),
        (3, ("RTX 4090", "spot", 2.0, 1.0, 461.0)),
        (4, ("RTX 4090 48GB", "on_demand", 2.0, 1.0, 477.5333)),
    ] {
        let got = (
            w[i]["gpu"].as_str().unwrap_or(""),
            w[i]["mode"].as_str().unwrap_or(""),
            w[i]["gpus_per_replica"].as_f64().unwrap_or(f64::NAN),
            w[i]["instances"].as_f64().unwrap_or(f64::NAN),
        );
        assert_eq!(got, (want.0, want.1, want.2, want.3), "workload {i}");
        let cost = w[i]["gpu_cost"].as_f64().unwrap();
        assert!((cost - want.4).abs() < 0.01, "workload {i}: {cost}");
    }
    assert_eq!(w[2]["gpu"].as_str(), Some("H100"));
    let t = &j["totals"];
    assert!(close(t["storage_cost"].as_f64().unwrap(), 375.0));
    assert!(close(t["egress_cost"].as_f64().unwrap(), 280.0));
}

#[test]
fn hidden_costs_are_added_back_by_set() {
    // The same team with gpuplan's defaults for what the seed ignored:
    //   LoRA: 8 h + 20 min = 500 min → 540 min billed → 2 × 9 h × ¥6 = ¥108 (¥12 of it cold start)
    //   inference: 600 + 20 = 620 min → 660 min → 30 × 11 h × ¥5 = ¥1,650 (¥150 cold start)
    //   batch on spot, billed as on demand (#34 item 8): 4 h + 20 min = 260 min → 300 min billed
    //   → 4 × 5 h × ¥2 = ¥40 (¥8 of it cold start) + 16 h × ¥2 × 0.15 rework = ¥4.80: ¥44.80
    //   (it was 16 h × ¥2 × 1.15 = ¥36.80, 4 hours of billing fewer than on demand's 20).
    let d = tempdir();
    let input = repo("samples/team.xlsx");
    let j = calc_json(
        d.path(),
        input.to_str().unwrap(),
        "o.xlsx",
        &["--set", "cold_start_min=20", "--set", "spot_rework=0.15"],
    );
    let t = &j["totals"];
    assert!(
        close(t["gpu_cost"].as_f64().unwrap(), 108.0 + 1650.0 + 44.8),
        "{}",
        t["gpu_cost"]
    );
    assert!(close(
        t["cold_start_cost"].as_f64().unwrap(),
        12.0 + 150.0 + 8.0
    ));
    assert!(close(t["rework_cost"].as_f64().unwrap(), 4.8));
    // A workload column too: 330 hours in 30 runs (the sample's cold start is 0) → 30 × 11 h × ¥5 = ¥1,650.
    let j = calc_json(
        d.path(),
        input.to_str().unwrap(),
        "o.xlsx",
        &["--set", "qa-api.hours_per_month=330"],
    );
    let w = &j["workloads"][1];
    assert!(
        close(w["gpu_cost"].as_f64().unwrap(), 30.0 * 11.0 * 5.0),
        "{}",
        w["gpu_cost"]
    );
}

#[test]
fn explain_prints_every_formula_with_its_value() {
    let d = tempdir();
    let input = repo("samples/team.xlsx");
    let r = gpuplan(d.path(), &["explain", input.to_str().unwrap(), "qa-api"]);
    r.ok();
    assert!(
        r.stdout.starts_with("qa-api on A10 @ seed 001"),
        "{}",
        r.stdout
    );
    // Qwen2.5-7B bf16: 7.62e9 × 2 / 2^30 = 14.1934 GiB
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("base_weights_gib"))
        .unwrap();
    assert!(line.contains("14.193356"), "{line}");
    // The title, the column headers, then one line per candidate-scope default formula.
    let candidate_formulas = gpuplan::catalog::formulas()
        .iter()
        .filter(|f| f.scope == gpuplan::model::Scope::Candidate)
        .count();
    assert_eq!(
        r.stdout.lines().filter(|l| !l.is_empty()).count(),
        2 + candidate_formulas
    );
    let r = gpuplan(
        d.path(),
        &[
            "explain",
            input.to_str().unwrap(),
            "qa-api",
            "--gpu",
            "RTX 4090",
        ],
    );
    assert!(
        r.stdout.starts_with("qa-api on RTX 4090 @ seed 001"),
        "{}",
        r.stdout
    );
    gpuplan(d.path(), &["explain", input.to_str().unwrap(), "qa-apj"])
        .fails_with(2, &["no workload named \"qa-apj\"", "did you mean qa-api"]);
}

#[test]
fn catalog_prints_gpus_and_models_in_three_formats() {
    let d = tempdir();
    let r = gpuplan(d.path(), &["catalog", "gpus"]);
    assert!(
        r.stdout.contains("RTX 4090") && r.stdout.contains("EXAMPLES"),
        "{}",
        r.stdout
    );
    // The RTX 4090: 165 TFLOPS accumulating in 32 bits, 330 in 16 (and 330 in FP8).
    let r = gpuplan(d.path(), &["catalog", "gpus", "--format", "csv"]);
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("RTX 4090,example,cuda,23.64,1008,165,330,330,8.9,no,64,8,")),
        "{}",
        r.stdout
    );
    let r = gpuplan(d.path(), &["catalog", "models", "--format", "csv"]);
    // Qwen2.5-7B's config.json: a dense model, every MoE, latent, local- and linear-attention
    // field blank, nothing kept 16-bit (unquantized_params_b) and no QK-norm (qk_norm, the last
    // column); Qwen3-8B normalizes its queries and keys.
    assert!(
        r.stdout
            .lines()
            .any(|l| l == "Qwen2.5-7B,7.62,,28,3584,28,4,128,18944,152064,,,,,,,,,,,,,,,"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("Qwen3-8B,") && l.ends_with(",1")),
        "{}",
        r.stdout
    );
    // DeepSeek-V3's: 256 routed experts, 8 a token, one shared, 3 dense layers, a 512 + 64 latent.
    assert!(
        r.stdout.lines().any(|l| {
            l
            == "DeepSeek-V3,671.03,37.55,61,7168,128,128,128,18432,129280,,256,8,1,2048,3,512,64,,,,,,,"
        }),
        "{}",
        r.stdout
    );
    // Qwen3-Next-80B-A3B's: 512 experts, 10 a token, one shared, 36 Gated DeltaNet layers of
    // 48 holding 37.69 MiB a request, QK-norm on its attention layers.
    assert!(
        r.stdout.lines().any(|l| {
            l == "Qwen3-Next-80B-A3B,79.67,3.87,48,2048,16,2,256,,151936,,512,10,1,512,,,,,,36,37.69,,,1"
        }),
        "{}",
        r.stdout
    );
    let r = gpuplan(d.path(), &["catalog", "gpus", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), gpuplan::catalog::gpus().len());
}

#[test]
fn help_has_examples_and_bad_usage_exits_2() {
    let d = tempdir();
    let r = gpuplan(d.path(), &["calc", "--help"]);
    r.ok();
    assert!(
        r.stdout.contains("Examples:") && r.stdout.contains("--set"),
        "{}",
        r.stdout
    );
    assert_eq!(gpuplan(d.path(), &["frobnicate"]).code, 2);
    gpuplan(d.path(), &["calc", "x.xlsx", "--set", "nonsense"])
        .fails_with(2, &["expected KEY=VALUE"]);
    // A Workloads or GPUs column named without its row is not an assumption: the message says
    // how to write it, and nothing is written.
    let team = repo("samples/team.xlsx");
    let team = team.to_str().unwrap();
    for (set, says) in [
        (
            "lora_rank=64",
            "lora_rank is a column of the Workloads sheet, not an assumption: write *.lora_rank=64 \
             for every workload, or NAME.lora_rank=64 for one",
        ),
        (
            "on_demand_hourly*=1.2",
            "write gpu:*.on_demand_hourly*=1.2 for every GPU",
        ),
    ] {
        gpuplan(d.path(), &["calc", team, "-o", "o.xlsx", "--set", set]).fails_with(2, &[says]);
        assert!(!d.path().join("o.xlsx").exists());
    }
}

#[test]
fn validate_reports_every_row_and_names_a_bad_table() {
    let d = tempdir();
    let r = gpuplan(d.path(), &["validate"]);
    r.ok();
    let rows = validate_table_rows();
    // One line per row of samples/validation.csv, then a summary per family and role
    // (memory, concurrency and speed; calibrate and holdout), the same per engine profile, then
    // the whole.
    assert!(
        r.stdout.contains(&format!("{rows} rows: worst error ")),
        "{}",
        r.stdout
    );
    let row_lines = r
        .stdout
        .lines()
        .filter(|l| {
            l.contains('%') && !l.contains(" rows, median error") && !l.contains(" rows: worst")
        })
        .count();
    assert_eq!(row_lines, rows);
    for line in [
        "memory calibrate",
        "memory holdout",
        "speed calibrate",
        "speed holdout",
        "per engine profile",
        "vllm memory holdout",
        "transformers memory holdout",
    ] {
        assert!(r.stdout.contains(line), "{line}: {}", r.stdout);
    }
    assert!(r.stdout.contains("qwen25-7b-in30720"), "{}", r.stdout);
    let bad = d.path().join("mine.csv");
    std::fs::write(
        &bad,
        "id,model,kind,precision,kv_precision,context_len,batch_size,concurrency,avg_tokens,lora_trainable_fraction,grad_checkpointing,flash_attention,settings,framework,gpu,measured,unit,measure,source,notes\n\
         x,Llama-2-7B,full,bf16,,512,2,,,,yes,yes,optimizer_bytes_per_param=abc,f,g,51.6,GiB,m,s,\n",
    )
    .unwrap();
    gpuplan(d.path(), &["validate", bad.to_str().unwrap()]).fails_with(
        2,
        &[
            "validation row x",
            "optimizer_bytes_per_param must be a number from 0 to 64",
        ],
    );
    std::fs::write(&bad, "id,model\nx,Llama-2-7B\n").unwrap();
    gpuplan(d.path(), &["validate", bad.to_str().unwrap()])
        .fails_with(2, &["mine.csv", "no column kind"]);
}

fn validate_table_rows() -> usize {
    let csv = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/validation.csv"),
    )
    .unwrap();
    csv.lines().skip(1).filter(|l| !l.trim().is_empty()).count()
}

/// Chinese at the terminal (#18, 11): `--lang zh`, or a Chinese locale when --lang is not given,
/// gives Chinese messages; LC_ALL outranks LANG; the JSON keys stay English.
#[test]
fn chinese_locale_or_lang_gives_chinese_messages() {
    let d = tempdir();
    let zh = [("LANG", "zh_CN.UTF-8"), ("LC_ALL", ""), ("LC_MESSAGES", "")];
    let r = gpuplan_env(d.path(), &["init", "a.xlsx"], &zh);
    r.ok();
    assert_eq!(
        r.stdout,
        "已写入 a.xlsx：请填写Workloads表，然后运行 `gpuplan calc a.xlsx`\n"
    );
    // LC_ALL=C outranks a Chinese LANG.
    let r = gpuplan_env(
        d.path(),
        &["init", "b.xlsx"],
        &[("LANG", "zh_CN.UTF-8"), ("LC_ALL", "C")],
    );
    assert!(r.stdout.starts_with("wrote b.xlsx"), "{}", r.stdout);
    // --lang zh: a Chinese template and message whatever the locale.
    let r = gpuplan_env(
        d.path(),
        &["init", "c.xlsx", "--lang", "zh"],
        &[("LC_ALL", "C")],
    );
    assert!(
        r.stdout.starts_with("已写入 c.xlsx：请填写负载表"),
        "{}",
        r.stdout
    );

    team().write(&d.path().join("t.xlsx"));
    let r = gpuplan_env(d.path(), &["calc", "t.xlsx", "--json", "-"], &zh);
    r.ok();
    assert!(r.stderr.contains("含安全边际总计"), "{}", r.stderr);
    assert!(r.stderr.contains("负载"), "{}", r.stderr);
    assert!(r.stderr.contains("已写入 t.plan.xlsx"), "{}", r.stderr);
    let j = json_of(&r);
    assert!(j["totals"]["total_with_margin"].as_f64().is_some(), "{j}");
    // The workbook stays in the language --lang gives (English by default).
    assert_eq!(sheet_names(&d.path().join("t.plan.xlsx"))[0], "Summary");

    // A wrong cell: the line and its message in Chinese.
    team()
        .set("Workloads", 2, 3, Some(s("abc")))
        .write(&d.path().join("bad.xlsx"));
    let ok = gpuplan_env(d.path(), &["check", "t.xlsx"], &zh);
    ok.ok();
    assert!(ok.stdout.starts_with("通过：3 个负载"), "{}", ok.stdout);
    gpuplan_env(d.path(), &["check", "bad.xlsx"], &zh).fails_with(
        2,
        &["错误：bad.xlsx: Workloads!D3: concurrency 应为 1 到 1000000 之间的整数，实际为 “abc”"],
    );
    gpuplan(d.path(), &["check", "bad.xlsx"]).fails_with(
        2,
        &["error: bad.xlsx: Workloads!D3: concurrency must be a whole number from 1 to 1000000, found \"abc\""],
    );
}

/// #34 item 9: redundancy doubled a service of one replica silently. The startup sample's
/// chat-api needs one replica of 2 × RTX 4090; +20% redundancy rounds ceil(1 × 1.2) = 2
/// instances, 4 cards × ¥1,500 monthly = ¥6,000; the spare costs 2 × ¥1,500 = ¥3,000 a month.
#[test]
fn redundancy_that_doubles_a_single_replica_service_is_a_warning_with_its_cost() {
    let d = tempdir();
    let input = repo("samples/startup.xlsx");
    let j = calc_json(d.path(), input.to_str().unwrap(), "o.xlsx", &[]);
    let chat = &j["workloads"][0];
    assert_eq!(chat["name"], "chat-api");
    assert_eq!(chat["instances"].as_f64(), Some(2.0));
    assert!(close(chat["gpu_cost"].as_f64().unwrap(), 4.0 * 1500.0));
    let said: Vec<&str> = j["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["severity"] == "warning")
        .filter_map(|w| w["message"].as_str())
        .filter(|m| m.starts_with("chat-api: redundancy"))
        .collect();
    assert_eq!(
        said,
        ["chat-api: redundancy rounds its 1 replica up to 2 instances, which costs ¥3,000.00 a month more than one; set the workload's redundancy to 0 to run one instance without a spare"]
    );
    // With redundancy 0 there is one instance and nothing to say.
    let j = calc_json(
        d.path(),
        input.to_str().unwrap(),
        "o.xlsx",
        &["--set", "chat-api.redundancy=0"],
    );
    assert_eq!(j["workloads"][0]["instances"].as_f64(), Some(1.0));
    assert!(!j["warnings"].to_string().contains("chat-api: redundancy"));
}

/// #34 item 12: informational notes came a line per offer ("… taken from the built-in catalog",
/// 27 in a plan) and a CUDA line per workload, burying the warnings that need action. The
/// startup sample: one catalog line naming its five offers and one CUDA line naming the
/// workloads on each card.
#[test]
fn catalog_and_cuda_notes_are_one_line_each() {
    let d = tempdir();
    let input = repo("samples/startup.xlsx");
    let j = calc_json(d.path(), input.to_str().unwrap(), "o.xlsx", &[]);
    let messages: Vec<&str> = j["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w["message"].as_str())
        .collect();
    let catalog: Vec<&&str> = messages
        .iter()
        .filter(|m| m.contains("built-in catalog"))
        .collect();
    assert_eq!(
        catalog,
        [&"specifications left blank taken from the built-in catalog (gpuplan catalog gpus) for 5 offers: RTX 4090 @ example, A10 @ example, A100-40G @ example, A100-80G @ example, H800 @ example"]
    );
    let cuda: Vec<&&str> = messages
        .iter()
        .filter(|m| m.contains("CUDA ≥ 11.8"))
        .collect();
    assert_eq!(cuda.len(), 1, "{cuda:?}");
    assert!(
        cuda[0].starts_with("CUDA ≥ 11.8 and PyTorch ≥ 2.0 needed by RTX 4090 (sm_89) for chat-api, lora-experiments, comfyui, case-4k, case-8k"),
        "{}",
        cuda[0]
    );
}

#[test]
fn the_summary_is_on_stdout_and_wrote_names_the_json_too() {
    let d = sample_team_dir();
    let r = gpuplan(
        d.path(),
        &["calc", "t.xlsx", "-o", "p.xlsx", "--json", "p.json"],
    );
    r.ok();
    assert!(r.stdout.ends_with("wrote p.xlsx, p.json\n"), "{}", r.stdout);
    assert!(!r.stderr.contains("wrote"), "{}", r.stderr);
    // With --json - the JSON alone is on stdout, the summary on stderr.
    let r = gpuplan(d.path(), &["calc", "t.xlsx", "-o", "q.xlsx", "--json", "-"]);
    r.ok();
    json_of(&r);
    assert!(r.stderr.contains("wrote q.xlsx"), "{}", r.stderr);
}

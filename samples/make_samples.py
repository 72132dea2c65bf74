"""Writes the sample workbooks with openpyxl (an independent writer, not gpuplan itself).

    python3 samples/make_samples.py      # from the repository root

Each sample reproduces a case of the seed articles; README.md in this folder says what the
seed said and what gpuplan plans. Headers are written as `Label (key)`, as the template does.
"""
import pathlib
import openpyxl

HERE = pathlib.Path(__file__).resolve().parent

WORKLOAD_LABELS = {
    "name": "Workload", "kind": "Kind", "model": "Model", "params_b": "Parameters (B)",
    "precision": "Weight precision", "context_len": "Context length", "concurrency": "Concurrency",
    "base_concurrency": "Off-peak concurrency", "peak_hours_per_day": "Peak hours per day",
    "batch_size": "Batch size", "hours_per_month": "Hours per month", "runs_per_month": "Runs per month",
    "online": "Online", "spot_ok": "Spot OK", "redundancy": "Redundancy", "gpu": "Pinned GPU",
    "vram_gib": "Measured memory (GiB)", "pilot_vram_gib": "Pilot peak memory (GiB)",
    "pilot_concurrency": "Pilot concurrency", "resolution": "Resolution (px)", "storage_gb": "Storage (GB)",
    "egress_gb": "Egress (GB/month)", "avg_tokens": "Average tokens held", "expert_precision": "Expert precision",
    "train_tokens_m": "Training tokens (M/month)", "frames": "Frames", "items_per_month": "Items per month",
    "seconds_per_item": "Seconds per item", "requests_per_day": "Requests per day",
    "input_tokens": "Input tokens per request", "output_tokens": "Output tokens per request",
    "api": "Compare with API", "window": "Run window", "peak_window": "Peak window",
    "checkpoint_min": "Checkpoint every (min)", "notes": "Notes",
}
GPU_COLUMNS = ["gpu", "provider", "on_demand_hourly", "monthly", "spot_hourly", "reserved_monthly",
               "billing_granularity_min", "min_rental_min"]


def table(ws, columns, rows, labels=None):
    ws.append([f"{labels[c]} ({c})" if labels and c in labels else c for c in columns])
    for r in rows:
        ws.append([r.get(c) for c in columns])


def workbook(path, workloads, gpus, assumptions, note, scenarios=(), ranges=()):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Workloads"
    cols = [c for c in WORKLOAD_LABELS if any(c in w for w in workloads)]
    table(ws, cols, workloads, WORKLOAD_LABELS)
    table(wb.create_sheet("GPUs"), GPU_COLUMNS, gpus)
    a = wb.create_sheet("Assumptions")
    a.append(["key", "value", "unit", "note"])
    for row in assumptions:
        a.append(list(row))
    if scenarios:
        sc = wb.create_sheet("Scenarios")
        sc.append(["scenario", "change"])
        for row in scenarios:
            sc.append(list(row))
    if ranges:
        rg = wb.create_sheet("Ranges")
        rg.append(["key", "low", "high", "likely"])
        for row in ranges:
            rg.append(list(row))
    n = wb.create_sheet("About")
    for line in note.strip().splitlines():
        n.append([line])
    wb.save(path)


# Seed 001, section 6.4: a ten-person team's month.
workbook(
    HERE / "team.xlsx",
    [
        {"name": "lora-finetune", "kind": "lora", "model": "Llama-2-7B", "context_len": 2048, "hours_per_month": 16,
         "runs_per_month": 2, "gpu": "RTX 4090", "storage_gb": 200,
         "notes": "seed 001: 2 runs × 8 h on one RTX 4090 at ¥6/h = ¥96"},
        {"name": "qa-api", "kind": "inference", "model": "Qwen2.5-7B", "concurrency": 4, "hours_per_month": 300,
         "runs_per_month": 30, "redundancy": 0,
         "notes": "seed 001: 30 days × 10 h on one A10 at ¥5/h = ¥1,500 (priced without redundancy)"},
        {"name": "preprocess", "kind": "batch", "vram_gib": 8, "hours_per_month": 16, "runs_per_month": 4,
         "spot_ok": "yes", "notes": "seed 001: 4 weeks × 4 h on spot at ¥2/h = ¥32"},
    ],
    [
        {"gpu": "RTX 4090", "provider": "seed 001", "on_demand_hourly": 6, "spot_hourly": 2, "billing_granularity_min": 60},
        {"gpu": "A10", "provider": "seed 001", "on_demand_hourly": 5, "billing_granularity_min": 60},
    ],
    [
        ("currency", "CNY", "", "seed 001 prices in yuan"),
        ("cold_start_min", 0, "min", "seed 001 did not count cold starts; gpuplan's default is 20"),
        ("spot_rework", 0, "share", "seed 001 did not count spot rework; gpuplan's default is 0.15"),
        ("storage_price_gb_month", 0.5, "per GB-month", "seed 001: 200 GB × 0.5 = 100"),
        ("trial_reserve", 0.1, "share", "seed 001 reserved about ¥300; gpuplan takes 10% of GPU cost"),
        ("safety_margin", 0.2, "share", "seed 001: add 20–30%"),
    ],
    """
Seed 001 (§6.4): a ten-person team building a vertical Q&A product.
The seed: LoRA 2 × 8 h × ¥6 = ¥96; inference 30 × 10 h × ¥5 = ¥1,500; batch 4 × 4 h × ¥2 = ¥32;
storage 200 GB × ¥0.5 = ¥100; trial reserve about ¥300; total about ¥2,000 a month.
gpuplan: GPU ¥1,628, storage ¥100, trial reserve ¥162.80 (10%), total ¥1,890.80, with the 20% margin ¥2,268.96.
Cold starts and spot rework are set to 0 here because the seed ignored them; run
`gpuplan calc samples/team.xlsx --set cold_start_min=20 --set spot_rework=0.15` to see what they add.
The Scenarios sheet asks two what-ifs: owning the RTX 4090 (the card alone at NVIDIA's China
launch price, ¥12,999, October 2022; a workstation share would add to it), and spot instances
reclaimed six times a day, which the batch job, without checkpoints, pays for in runs redone.
""",
    [
        ("own the 4090", "gpu:RTX 4090.purchase_price=12999"),
        ("spot reclaimed 6 a day", "gpu:RTX 4090.spot_interruptions_per_day=6"),
    ],
)

# Seed 000: the table of section 4.2 and the case study of section 6.1.
workbook(
    HERE / "startup.xlsx",
    [
        {"name": "chat-api", "kind": "inference", "model": "Qwen2.5-7B", "concurrency": 60, "context_len": 4096,
         "base_concurrency": 20, "peak_window": "09-21", "requests_per_day": 50000, "input_tokens": 1500, "output_tokens": 400, "api": "qwen-plus",
         "notes": "seed 000 table: 7B API at 60 concurrent, 4 × 24 GB cards, ¥4,000–8,000 a month; "
                  "compared with qwen-plus at an assumed 50,000 requests a day"},
        {"name": "lora-experiments", "kind": "lora", "model": "Llama-2-7B", "context_len": 2048, "hours_per_month": 120,
         "runs_per_month": 10, "storage_gb": 100, "window": "22-07", "checkpoint_min": 30,
         "notes": "seed 000 table: 7B LoRA experiments, 1 × 40 GB card, ¥3,000–7,000 a month"},
        {"name": "full-finetune-20b", "kind": "full_finetune", "params_b": 20, "context_len": 2048, "hours_per_month": 200,
         "runs_per_month": 4, "storage_gb": 500,
         "notes": "seed 000 table: 20B full fine-tune, 4 × 80 GB cards, ¥20,000–50,000 a month"},
        {"name": "comfyui", "kind": "image_gen", "model": "SDXL", "resolution": 1024, "hours_per_month": 200,
         "runs_per_month": 22, "notes": "seed 000 table: ComfyUI on one 24 GB RTX 4090, ¥1,500–3,000 a month"},
        {"name": "case-4k", "kind": "inference", "model": "Qwen2.5-7B", "concurrency": 30, "context_len": 4096,
         "base_concurrency": 12, "peak_hours_per_day": 8, "pilot_vram_gib": 19.5, "pilot_concurrency": 12,
         "notes": "seed 000 §6.1: 12 concurrent peaked at 19.5 GB on one 24 GB card; ended on 4 cards, 2 monthly + 2 on demand"},
        {"name": "case-8k", "kind": "inference", "model": "Qwen2.5-7B", "concurrency": 30, "context_len": 8192,
         "base_concurrency": 12, "peak_hours_per_day": 8,
         "notes": "seed 000 §6.1: the same service at 8,192 context (23 GB, near OOM on one card)"},
    ],
    [
        {"gpu": "RTX 4090", "provider": "example", "on_demand_hourly": 2.5, "monthly": 1500, "spot_hourly": 1.2, "billing_granularity_min": 1},
        {"gpu": "A10", "provider": "example", "on_demand_hourly": 3, "monthly": 1800, "billing_granularity_min": 1},
        {"gpu": "A100-40G", "provider": "example", "on_demand_hourly": 7, "monthly": 4000, "billing_granularity_min": 1},
        {"gpu": "A100-80G", "provider": "example", "on_demand_hourly": 10, "monthly": 6500, "billing_granularity_min": 1},
        {"gpu": "H800", "provider": "example", "on_demand_hourly": 15, "monthly": 9500, "billing_granularity_min": 1},
    ],
    [("currency", "CNY", "", "prices chosen to match the seed's table ranges")],
    """
Seed 000's table (§4.2) and case study (§6.1). Prices are examples chosen inside the seed's ranges.
See samples/README.md for what the seed said and what gpuplan plans.
The Scenarios sheet holds the case study's what-if (the chat API at 8,192 tokens of context),
every price 20% higher, and owning the RTX 4090s (¥12,999 a card, NVIDIA's China launch price
for the card alone, October 2022) instead of renting them.
""",
    [
        ("chat-api at 8k context", "chat-api.context_len=8192"),
        ("own the 4090s", "gpu:RTX 4090.purchase_price=12999"),
        ("prices +20%", "gpu:*.on_demand_hourly*=1.2"),
        ("prices +20%", "gpu:*.monthly*=1.2"),
        ("prices +20%", "gpu:*.spot_hourly*=1.2"),
    ],
    [
        ("safety_margin", 0.2, 0.3, None),
        ("gpu:RTX 4090.monthly", 1200, 1800, 1500),
        ("chat-api.concurrency", 40, 80, 60),
    ],
)

# A small company's 2026 portfolio: an MoE API, a reasoning service, a QLoRA of a Qwen3 dense
# model, an image pipeline and a short-video job (issue #14).
workbook(
    HERE / "portfolio-2026.xlsx",
    [
        {"name": "moe-api", "kind": "inference", "model": "Qwen3-30B-A3B", "context_len": 8192, "avg_tokens": 3000,
         "concurrency": 48, "base_concurrency": 16, "peak_window": "09-22", "storage_gb": 120, "egress_gb": 50,
         "notes": "Qwen3-30B-A3B behind an OpenAI-style API: 48 concurrent chats at peak, 3,000 tokens held on average"},
        {"name": "reasoning", "kind": "inference", "model": "QwQ-32B", "precision": "fp8", "context_len": 32768,
         "avg_tokens": 16000, "concurrency": 6, "storage_gb": 70,
         "notes": "QwQ-32B in FP8 for long chains of thought: 6 concurrent, 16,000 tokens held on average"},
        {"name": "qlora-qwen3-8b", "kind": "qlora", "model": "Qwen3-8B", "context_len": 4096, "batch_size": 4,
         "train_tokens_m": 400, "storage_gb": 60,
         "notes": "monthly QLoRA refresh of Qwen3-8B on 400 M tokens"},
        {"name": "images", "kind": "image_gen", "model": "FLUX.1-dev", "resolution": 1024, "items_per_month": 40000,
         "seconds_per_item": 12, "online": "no", "spot_ok": "yes", "storage_gb": 300, "egress_gb": 200,
         "notes": "40,000 product images a month, 12 s each on one card (a pilot's figure)"},
        {"name": "video-clips", "kind": "video_gen", "model": "Wan2.1-14B", "resolution": 1280, "frames": 81,
         "items_per_month": 150, "seconds_per_item": 1500, "storage_gb": 200, "egress_gb": 100, "window": "22-08",
         "checkpoint_min": 25,
         "notes": "150 720p clips of 5 s a month, 25 minutes each on one card (a pilot's figure)"},
    ],
    [
        {"gpu": "RTX 4090", "provider": "example", "on_demand_hourly": 2.6, "monthly": 1500, "spot_hourly": 1.5,
         "billing_granularity_min": 1},
        {"gpu": "RTX 4090 48GB", "provider": "example", "on_demand_hourly": 3.8, "monthly": 2300,
         "billing_granularity_min": 1},
        {"gpu": "L20", "provider": "example", "on_demand_hourly": 4.5, "monthly": 2600, "billing_granularity_min": 1},
        {"gpu": "A100-80G", "provider": "example", "on_demand_hourly": 9, "monthly": 5400, "spot_hourly": 5,
         "billing_granularity_min": 1},
        {"gpu": "H20", "provider": "example", "on_demand_hourly": 8, "monthly": 4800, "billing_granularity_min": 1},
        {"gpu": "H100", "provider": "example", "on_demand_hourly": 17, "monthly": 10500, "spot_hourly": 9,
         "billing_granularity_min": 1},
    ],
    [("currency", "CNY", "", "example prices of a Chinese GPU cloud, end of 2026")],
    """
A small company's 2026 portfolio (issue #14): a mixture-of-experts API, a reasoning service in FP8,
a QLoRA of Qwen3-8B, an image pipeline and a short-video job sized by work done.
Prices are examples. See samples/README.md for the plan and why.
""",
)

# A fixture for the tests: headers are the bare keys, as a script would write them.
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Workloads"
ws.append(["name", "kind", "model", "concurrency", "hours_per_month", "my own column"])
ws.append(["bot", "推理", "Mistral-7B", "8", "10"])  # numbers as text (a percentage in hours is refused)
ws.append([None, None, None, None, None, "a note in an unknown column"])
ws.append(["trainer", "LoRA微调", "llama-3.1-8b", None, 40, None])
wb.save(HERE.parent / "tests" / "fixtures" / "keys-only-openpyxl.xlsx")

# The validation table as a workbook, for reading (gpuplan validate reads the CSV).
import csv

wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Validation"
with open(HERE / "validation.csv", newline="") as f:
    for i, row in enumerate(csv.reader(f)):
        ws.append([float(v) if i and v.replace(".", "", 1).isdigit() else v for v in row])
ws.freeze_panes = "A2"
wb.save(HERE / "validation.xlsx")

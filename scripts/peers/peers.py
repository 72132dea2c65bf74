#!/usr/bin/env python3
"""Run Hugging Face accelerate's memory estimator (`accelerate estimate-memory`) on the
memory rows of gpuplan's validation ledger, offline, from local config.json files.

    python3 peers.py samples/validation.csv [--csv OUT] [--tables]

What is reproduced: accelerate/commands/estimate.py's `gather_data()` runs as the CLI runs it,
with the CLI's own `create_empty_model()` (AutoConfig, then `AutoModel.from_config(config,
torch_dtype=float32)` under `init_empty_weights()`, or the `AutoModelFor*` class named in
config.json's `auto_map`), `calculate_maximum_sizes`, the per-dtype division (float16 /2,
int8 /4, int4 /8) and "Training using Adam" (max of estimate_training_usage). The one thing
replaced is the Hub lookup `verify_on_hub()`: it answers from the local config.json (the Hub's
model_info carries library_name and a copy of config.json, whose auto_map the CLI reads), and
the model name handed to AutoConfig is that local file. No network.

Because plain `AutoModel` has no LM head, the CLI leaves out `lm_head` for models with untied
embeddings (unless auto_map sends it to AutoModelForCausalLM). A second figure, "+head", builds
`AutoModelForCausalLM` instead (tie_weights() applied, so tied embeddings count once) to show
what that costs the peer.

If accelerate is not importable and ./.venv exists beside this file, the script re-runs itself
with .venv/bin/python (see README.md for the install line).
"""

import argparse
import contextlib
import csv
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAIN = HERE.parent.parent  # the repository root

# No network, ever: every config is a local file.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

try:
    import torch  # noqa: F401
    import accelerate  # noqa: F401
    import transformers  # noqa: F401
except ImportError:
    venv_py = HERE / ".venv" / "bin" / "python"
    if venv_py.exists() and Path(sys.prefix).resolve() != (HERE / ".venv").resolve():
        os.execv(str(venv_py), [str(venv_py), __file__, *sys.argv[1:]])
    sys.exit("peers.py needs accelerate, transformers and torch; see README.md for the install line")

import warnings

warnings.filterwarnings("ignore")
import torch  # noqa: E402
import accelerate  # noqa: E402
import transformers  # noqa: E402
from accelerate import init_empty_weights  # noqa: E402
from accelerate.commands import estimate as accel_estimate  # noqa: E402
from accelerate.utils import convert_bytes  # noqa: E402
from transformers import AutoConfig, AutoModel, AutoModelForCausalLM  # noqa: E402

transformers.logging.set_verbosity_error()

# ---------------------------------------------------------------------------------------------
# Catalog model name -> local config.json (published file; provenance in README.md).
# None = no local config: the row is reported as "no config", never guessed.
# ---------------------------------------------------------------------------------------------
MODEL_CONFIGS = {
    # meta-llama/Llama-2-7b-hf (inference-sim mirror, byte-identical copy)
    "Llama-2-7B": HERE / "configs" / "Llama-2-7B.json",
    # meta-llama/Llama-2-70b-hf: not found in the stored mirrors
    "Llama-2-70B": None,
    # meta-llama/Llama-3.1-8B (= Meta-Llama-3.1-8B; aiconfigurator mirror, byte-identical copy)
    "Llama-3.1-8B": HERE / "configs" / "Llama-3.1-8B.json",
    # meta-llama/Llama-3.1-70B (= Meta-Llama-3.1-70B; aiconfigurator mirror)
    "Llama-3.1-70B": HERE / "configs" / "Meta-Llama-3.1-70B.json",
    # Qwen/Qwen2.5-0.5B (transcribed from two verbatim prints of the HF file)
    "Qwen2.5-0.5B": HERE / "configs" / "Qwen2.5-0.5B.json",
    # Qwen/Qwen2.5-7B base (transcribed from a verbatim third-party dump; same tensor shapes as
    # the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)
    "Qwen2.5-7B": HERE / "configs" / "Qwen2.5-7B.json",
    # Qwen/Qwen3-* (aiconfigurator mirror; 8B and 30B-A3B also in tests/fixtures/configs)
    "Qwen3-0.6B": HERE / "configs" / "Qwen3-0.6B.json",
    "Qwen3-4B": HERE / "configs" / "Qwen3-4B.LLM-Prof.json",
    # Qwen/Qwen3-0.6B-FP8 and Qwen/Qwen3-4B-FP8: their own config.json files (which set the
    # quantization and whether the head is tied) are not in the stored mirrors
    "Qwen3-0.6B-FP8": None,
    "Qwen3-4B-FP8": None,
    "Qwen3-8B": HERE / "configs" / "Qwen3-8B.json",
    "Qwen3-14B": HERE / "configs" / "Qwen3-14B.inference-sim.json",
    "Qwen3-32B": HERE / "configs" / "Qwen3-32B.json",
    "Qwen3-30B-A3B": HERE / "configs" / "Qwen3-30B-A3B.json",
    # mistralai/Mixtral-8x7B-v0.1
    "Mixtral-8x7B": HERE / "configs" / "Mixtral-8x7B-v0.1.json",
    # deepseek-ai/DeepSeek-V2-Lite (inference-sim mirror, byte-identical copy)
    "DeepSeek-V2-Lite": HERE / "configs" / "DeepSeek-V2-Lite.json",
    # deepseek-ai/DeepSeek-V3 (aiconfigurator mirror)
    "DeepSeek-V3": HERE / "configs" / "DeepSeek-V3.json",
    # openai/gpt-oss-120b (aiconfigurator mirror; = tests/fixtures/configs)
    "gpt-oss-120b": HERE / "configs" / "gpt-oss-120b.json",
}
FALLBACK_DIRS = [HERE / "configs", MAIN / "tests" / "fixtures" / "configs"]

# Ledger precision -> the `--dtypes` choice of `accelerate estimate-memory` a user would pick.
# The CLI offers only float32, float16, int8, int4.
DTYPE = {
    "fp32": "float32",
    "bf16": "float16",  # no bfloat16 choice; same 2 bytes
    "fp16": "float16",
    "fp8": "int8",  # no fp8 choice; same 1 byte
    "int8": "int8",
    "int4": "int4",
    "mxfp4": "int4",  # 0.5 byte; block scales not counted
    "nf4": "int4",
}
TRAIN_KINDS = {"full", "full_finetune", "fullfinetune", "fullfinetuning", "finetune", "pretrain"}
ADAPTER_KINDS = {"lora", "qlora"}
MEMORY_METRICS = {"", "memory", "weights"}


def sharding_engines() -> set:
    """The engines whose multi-GPU training replicas shard the weights, gradients and optimizer
    states: zero_stage 3 in their templates/engines.tsv rows, else the Assumptions default."""

    def rows(name):
        with open(MAIN / "templates" / name, newline="") as fh:
            lines = [l for l in fh if not l.startswith("#")]
        return list(csv.DictReader(lines, delimiter="\t"))

    default = next(float(r["value"]) for r in rows("assumptions.tsv") if r["key"] == "zero_stage")
    stage = {}
    for r in rows("engines.tsv"):
        stage.setdefault(r["engine"], default)
        if r["key"] == "zero_stage":
            stage[r["engine"]] = float(r["value"])
    return {e for e, z in stage.items() if z >= 3}


SHARDING_ENGINES = sharding_engines()


def to_gib(value: float, unit: str) -> float:
    unit = unit.strip()
    if unit == "GiB":
        return value
    if unit == "GB":
        return value * 1e9 / 2**30
    if unit == "MiB":
        return value / 1024
    raise ValueError(f"unit {unit!r}")


def config_path(model: str):
    if model in MODEL_CONFIGS:
        p = MODEL_CONFIGS[model]
        return p if p is not None and p.exists() else None
    for d in FALLBACK_DIRS:
        p = d / f"{model}.json"
        if p.exists():
            return p
    return None


def _constructor(config, head: bool):
    """The CLI's choice: AutoModel unless config.json's auto_map names an AutoModelFor* class."""
    if head:
        return AutoModelForCausalLM
    auto_map = getattr(config, "auto_map", None)
    if isinstance(auto_map, dict):
        for key in auto_map:
            if key.startswith("AutoModelFor"):
                return getattr(transformers, key)
    return AutoModel


def make_local_create_empty_model(head: bool):
    def create_empty_model(model_name, library_name, trust_remote_code=False, access_token=None):
        # Mirrors accelerate.commands.estimate.create_empty_model's transformers branch, with
        # `model_name` a local config.json and no Hub lookup.
        config = AutoConfig.from_pretrained(model_name, trust_remote_code=trust_remote_code)
        with init_empty_weights():
            constructor = _constructor(config, head)
            model = constructor.from_config(config, torch_dtype=torch.float32, trust_remote_code=trust_remote_code)
        if head:
            # transformers 5 from_config leaves lm_head untied under init_empty_weights; tie it
            # where the config says so, or tied embeddings are counted twice.
            model.tie_weights()
        create_empty_model.last_class = type(model).__name__
        return model

    create_empty_model.last_class = None
    return create_empty_model


_REAL_CREATE_EMPTY_MODEL = accel_estimate.create_empty_model
_REAL_CALCULATE_MAXIMUM_SIZES = accel_estimate.calculate_maximum_sizes
_last_built = {}
_cache = {}


def _recording_calculate_maximum_sizes(model):
    """accelerate's calculate_maximum_sizes, noting which class the CLI built."""
    _last_built["class"] = type(model).__name__
    return _REAL_CALCULATE_MAXIMUM_SIZES(model)


accel_estimate.calculate_maximum_sizes = _recording_calculate_maximum_sizes


def _offline_model_info(path: Path):
    """Stands in for the Hub's model_info(): the fields create_empty_model reads (library_name, and
    config, the Hub's copy of config.json, of which the CLI uses auto_map)."""

    def verify_on_hub(repo, token=None):
        with open(path) as fh:
            cfg = json.load(fh)
        return types.SimpleNamespace(library_name="transformers", config=cfg)

    return verify_on_hub


def accelerate_figures(path: Path, head: bool):
    """{dtype: (largest_layer_bytes, total_bytes, training_bytes or None)} as estimate-memory computes them."""
    key = (str(path), head)
    if key in _cache:
        return _cache[key]
    if head:
        fake = make_local_create_empty_model(head)
        accel_estimate.create_empty_model = fake
    else:
        # The CLI's own create_empty_model, unchanged; only its Hub lookup is answered locally
        # (AutoConfig.from_pretrained reads the local config.json path it is given).
        accel_estimate.create_empty_model = _REAL_CREATE_EMPTY_MODEL
        accel_estimate.verify_on_hub = _offline_model_info(path)
        fake = None
    args = argparse.Namespace(
        model_name=str(path),
        library_name="transformers",
        trust_remote_code=False,
        dtypes=["float32", "float16", "int8", "int4"],
    )
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # the CLI's "Loading pretrained config…" line
            data = accel_estimate.gather_data(args)
    except Exception as e:  # noqa: BLE001 - report any instantiation failure per model
        _cache[key] = e
        return e
    model_class = fake.last_class if fake else _last_built.get("class")
    out = {}
    for dtype, largest, total, training in data:
        t = max(training.values())
        out[dtype] = (largest, total, None if t == -1 else t)
    out["_class"] = model_class
    out["_rows"] = data
    _cache[key] = out
    return out


def cli_table(name: str, figs) -> str:
    """The table `accelerate estimate-memory` prints, from the same numbers."""
    rows = []
    for dtype, largest, total, training in figs["_rows"]:
        t = max(training.values())
        rows.append([dtype, convert_bytes(largest), convert_bytes(total), convert_bytes(t) if t != -1 else "N/A"])
    headers = ["dtype", "Largest Layer", "Total Size", "Training using Adam"]
    return accel_estimate.create_ascii_table(headers, rows, f"Memory Usage for loading `{name}`")


def find_gpuplan(arg):
    if arg == "none":
        return None
    if arg != "auto":
        return Path(arg)
    for cand in (shutil.which("gpuplan"), MAIN / "target" / "release" / "gpuplan", MAIN / "target" / "debug" / "gpuplan"):
        if cand and Path(cand).exists():
            return Path(cand)
    return None


def gpuplan_errors(binary: Path, ledger: str):
    """{row id: (estimate, error %)} from `gpuplan validate LEDGER` (its report's row lines)."""
    out = subprocess.run([str(binary), "validate", ledger], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise RuntimeError(f"{binary} validate failed: {out.stderr.strip()[:300]}")
    got = {}
    for line in out.stdout.splitlines():
        f = line.split()
        if len(f) >= 6 and f[5].endswith("%"):
            try:
                got[f[0]] = (float(f[3]), float(f[5].rstrip("%")))
            except ValueError:
                pass
    return got


def pct(est, meas):
    return (est - meas) / meas * 100.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ledger", help="validation.csv")
    ap.add_argument("--csv", metavar="OUT", help="also write one line per ledger row here")
    ap.add_argument("--tables", action="store_true", help="also print the CLI's table for each model")
    ap.add_argument("--gpuplan", default="auto", metavar="BIN",
                    help="gpuplan binary whose `validate` errors are printed alongside (default: gpuplan on PATH, "
                         "else target/{release,debug}/gpuplan; 'none' to leave it out)")
    a = ap.parse_args()

    t0 = time.time()
    with open(a.ledger, newline="") as fh:
        rows = list(csv.DictReader(fh))

    results, skipped = [], []
    for r in rows:
        rid, model = r["id"], r["model"].strip()
        metric = (r.get("metric") or "").strip()
        kind = r["kind"].strip().lower()
        prec = r["precision"].strip().lower()
        role = (r.get("role") or "").strip() or "calibrate"
        base = {"id": rid, "role": role, "kind": kind, "model": model, "precision": prec, "metric": metric or "memory"}
        if metric not in MEMORY_METRICS:
            why = "speed row" if metric in ("decode_tps", "ttft_s") else f"{metric}: accelerate estimates weights only, no KV-cache figure"
            skipped.append({**base, "status": "skipped", "why": why})
            continue
        path = config_path(model)
        if path is None:
            skipped.append({**base, "status": "skipped", "why": "no config"})
            continue
        dtype = DTYPE.get(prec)
        if dtype is None:
            skipped.append({**base, "status": "skipped", "why": f"precision {prec} has no estimate-memory dtype"})
            continue
        measured = to_gib(float(r["measured"]), r["unit"])
        notes = []
        if kind in TRAIN_KINDS:
            figure = "Training using Adam"
        elif kind in ADAPTER_KINDS:
            figure = "Total Size"
            notes.append("no LoRA mode: inference total used")
        else:
            figure = "Total Size"
        if prec == "fp8":
            notes.append("fp8 -> int8 column")
        if prec == "mxfp4":
            notes.append("mxfp4 -> int4 column")
        ex = (r.get("expert_precision") or "").strip().lower()
        alt_dtype = DTYPE.get(ex) if ex and ex != prec else None
        if ex and ex != prec:
            notes.append(f"experts {ex} not representable: one dtype for all weights")

        rec = {**base, "measured_gib": measured, "accel_dtype": dtype, "figure": figure, "config": str(path)}
        ok = True
        for head, tag in ((False, "cli"), (True, "head")):
            figs = accelerate_figures(path, head)
            if isinstance(figs, Exception):
                rec[f"{tag}_error"] = f"{type(figs).__name__}: {figs}"
                if not head:
                    ok = False
                continue
            largest, total, training = figs[dtype]
            val = training if figure == "Training using Adam" else total
            if val is None:
                rec[f"{tag}_error"] = f"Training using Adam is N/A for {dtype}"
                if not head:
                    ok = False
                continue
            rec[f"{tag}_class"] = figs["_class"]
            rec[f"{tag}_bytes"] = val
            rec[f"{tag}_gib"] = val / 2**30
            rec[f"{tag}_print"] = convert_bytes(val)
            rec[f"{tag}_err_pct"] = pct(val / 2**30, measured)
            rec[f"{tag}_largest_layer_print"] = convert_bytes(largest)
        if not ok:
            skipped.append({**base, "status": "skipped", "why": rec.get("cli_error", "error")})
            continue
        if alt_dtype and alt_dtype != dtype and not isinstance(accelerate_figures(path, False), Exception):
            _, alt_total, _ = accelerate_figures(path, False)[alt_dtype]
            notes.append(f"{alt_dtype} column instead: {alt_total / 2**30:.2f} GiB "
                         f"({pct(alt_total / 2**30, measured):+.1f}%)")
        gpus = int(float(r.get("gpus") or 1))
        if figure == "Training using Adam" and gpus > 1 and r.get("engine", "").strip() in SHARDING_ENGINES:
            # accelerate sizes one device; a sharded replica (FSDP, ZeRO-3) holds 1/gpus of the
            # model's states on each GPU, so a user would divide its figure by the GPUs.
            for tag in ("cli", "head"):
                if f"{tag}_bytes" in rec:
                    rec[f"{tag}_bytes"] /= gpus
                    rec[f"{tag}_gib"] = rec[f"{tag}_bytes"] / 2**30
                    rec[f"{tag}_print"] = convert_bytes(rec[f"{tag}_bytes"])
                    rec[f"{tag}_err_pct"] = pct(rec[f"{tag}_gib"], measured)
            notes.append(f"Adam figure / {gpus} GPUs (sharded replica)")
        settings = (r.get("settings") or "").replace(" ", "")
        if figure == "Training using Adam" and "optimizer_bytes_per_param=" in settings:
            notes.append("optimizer " + settings.split("optimizer_bytes_per_param=")[1].split(";")[0]
                         + " B/param not modelled (Adam is 8 B/param at fp32)")
        rec["notes"] = "; ".join(notes)
        rec["status"] = "ok"
        results.append(rec)

    gp_bin = find_gpuplan(a.gpuplan)
    gp = {}
    if gp_bin is not None:
        try:
            gp = gpuplan_errors(gp_bin, a.ledger)
        except Exception as e:  # noqa: BLE001
            print(f"(gpuplan left out: {e})")
            gp_bin = None
    for x in results:
        if x["id"] in gp:
            x["gpuplan_gib"], x["gpuplan_err_pct"] = gp[x["id"]]

    # ---- table ------------------------------------------------------------------------------
    w = max([len(x["id"]) for x in results] + [2])
    wm = max([len(x["model"]) for x in results] + [5])
    hdr = (f"{'id':<{w}} {'role':<9} {'kind':<13} {'model':<{wm}} {'prec':<5} {'accel':<7} {'figure':<6} "
           f"{'meas GiB':>9} {'accel GiB':>10} {'err %':>7} {'+head GiB':>10} {'err %':>7}"
           + (f" {'gpuplan':>8} {'err %':>7}" if gp_bin else "") + "  notes")
    print(f"accelerate {accelerate.__version__} estimate-memory (transformers {transformers.__version__}, "
          f"torch {torch.__version__}) on {a.ledger}")
    print("accel GiB: what the CLI prints (AutoModel, or the auto_map class); +head: AutoModelForCausalLM")
    print("figure: total = 'Total Size' at the row's dtype; adam = 'Training using Adam'")
    if gp_bin:
        print(f"gpuplan: `{gp_bin} validate` (built {time.strftime('%Y-%m-%d %H:%M', time.localtime(gp_bin.stat().st_mtime))})")
    print()
    print(hdr)
    print("-" * len(hdr))
    for x in results:
        fig = "adam" if x["figure"] == "Training using Adam" else "total"
        hg = f"{x['head_gib']:10.2f} {x['head_err_pct']:+6.1f}%" if "head_gib" in x else f"{'-':>10} {'-':>7}"
        print(f"{x['id']:<{w}} {x['role']:<9} {x['kind']:<13} {x['model']:<{wm}} {x['precision']:<5} {x['accel_dtype']:<7} "
              f"{fig:<6} {x['measured_gib']:9.2f} {x['cli_gib']:10.2f} {x['cli_err_pct']:+6.1f}% {hg}"
              + ((f" {x['gpuplan_gib']:8.2f} {x['gpuplan_err_pct']:+6.1f}%" if "gpuplan_err_pct" in x
                  else f" {'-':>8} {'-':>7}") if gp_bin else "")
              + f"  {x['notes']}")

    # ---- summary per role -------------------------------------------------------------------
    print()
    mem_rows = [r for r in rows if (r.get("metric") or "").strip() in MEMORY_METRICS]
    tags = [("cli", "accelerate (CLI)"), ("head", "accelerate +head")] + ([("gpuplan", "gpuplan")] if gp_bin else [])
    for tag, label in tags:
        for role in ("calibrate", "holdout"):
            inrole = [r for r in mem_rows if ((r.get("role") or "").strip() or "calibrate") == role]
            errs = [abs(x[f"{tag}_err_pct"]) for x in results if x["role"] == role and f"{tag}_err_pct" in x]
            if not inrole:
                continue
            if errs:
                print(f"{label:<17} {role:<9}: {len(errs):>2}/{len(inrole)} memory+weights rows covered, "
                      f"median |error| {statistics.median(errs):.1f}%, worst {max(errs):.1f}%")
            else:
                print(f"{label:<17} {role:<9}:  0/{len(inrole)} memory+weights rows covered")

    # ---- skipped ----------------------------------------------------------------------------
    print()
    print(f"skipped {len(skipped)} of {len(rows)} rows:")
    reasons = {}
    for s in skipped:
        reasons.setdefault(s["why"], []).append(s["id"])
    for why, ids in reasons.items():
        shown = ", ".join(ids) if len(ids) <= 6 else ", ".join(ids[:4]) + f", … ({len(ids)} rows)"
        print(f"  {why}: {shown}")

    used = sorted({x["model"]: x["config"] for x in results}.items())
    print()
    print("configs used:")
    for m, p in used:
        print(f"  {m:<{wm}} {p}")

    if a.tables:
        for m, p in used:
            print()
            print(cli_table(m, accelerate_figures(Path(p), False)))

    if a.csv:
        cols = ["id", "role", "kind", "model", "precision", "metric", "status", "why", "accel_dtype", "figure",
                "measured_gib", "cli_class", "cli_gib", "cli_print", "cli_err_pct", "cli_largest_layer_print",
                "head_class", "head_gib", "head_err_pct", "gpuplan_gib", "gpuplan_err_pct", "notes", "config"]
        with open(a.csv, "w", newline="") as fh:
            wr = csv.DictWriter(fh, fieldnames=cols, extrasaction="ignore")
            wr.writeheader()
            for x in results + skipped:
                wr.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in x.items()})
        print(f"\nwrote {a.csv}")
    print(f"\n{time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()

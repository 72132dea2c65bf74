#!/usr/bin/env python3
"""Run Hugging Face accelerate's memory estimator (`accelerate estimate-memory`) on the
memory rows of gpuplan's validation ledger, offline, from local config.json files.

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)python3 peers.py samples/validation.csv [--csv OUT] [--tables]

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
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)import torch  # noqa: F401
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)import accelerate  # noqa: F401
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)import transformers  # noqa: F401
except ImportError:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)venv_py = HERE / ".venv" / "bin" / "python"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if venv_py.exists() and Path(sys.prefix).resolve() != (HERE / ".venv").resolve():
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    os.execv(str(venv_py), [str(venv_py), __file__, *sys.argv[1:]])
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)sys.exit("peers.py needs accelerate, transformers and torch; see README.md for the install line")

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
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# meta-llama/Llama-2-7b-hf (inference-sim mirror, byte-identical copy)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Llama-2-7B": HERE / "configs" / "Llama-2-7B.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# meta-llama/Llama-2-70b-hf: not found in the stored mirrors
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Llama-2-70B": None,
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# meta-llama/Llama-3.1-8B (= Meta-Llama-3.1-8B; aiconfigurator mirror, byte-identical copy)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Llama-3.1-8B": HERE / "configs" / "Llama-3.1-8B.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# meta-llama/Llama-3.1-70B (= Meta-Llama-3.1-70B; aiconfigurator mirror)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Llama-3.1-70B": HERE / "configs" / "Meta-Llama-3.1-70B.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# Qwen/Qwen2.5-0.5B (transcribed from two verbatim prints of the HF file)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Qwen2.5-0.5B": HERE / "configs" / "Qwen2.5-0.5B.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# Qwen/Qwen2.5-7B base (transcribed from a verbatim third-party dump; same tensor shapes as
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Qwen2.5-7B": HERE / "configs" / "Qwen2.5-7B.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# Qwen/Qwen3-* (aiconfigurator mirror; 8B and 30B-A3B also in tests/fixtures/configs)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Qwen3-0.6B": HERE / "configs" / "Qwen3-0.6B.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Qwen3-4B": HERE / "configs" / "Qwen3-4B.LLM-Prof.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Qwen3-8B": HERE / "configs" / "Qwen3-8B.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Qwen3-14B": HERE / "configs" / "Qwen3-14B.inference-sim.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Qwen3-32B": HERE / "configs" / "Qwen3-32B.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Qwen3-30B-A3B": HERE / "configs" / "Qwen3-30B-A3B.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# mistralai/Mixtral-8x7B-v0.1
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"Mixtral-8x7B": HERE / "configs" / "Mixtral-8x7B-v0.1.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# deepseek-ai/DeepSeek-V2-Lite (inference-sim mirror, byte-identical copy)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"DeepSeek-V2-Lite": HERE / "configs" / "DeepSeek-V2-Lite.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# deepseek-ai/DeepSeek-V3 (aiconfigurator mirror)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"DeepSeek-V3": HERE / "configs" / "DeepSeek-V3.json",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# openai/gpt-oss-120b (aiconfigurator mirror; = tests/fixtures/configs)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"gpt-oss-120b": HERE / "configs" / "gpt-oss-120b.json",
}
FALLBACK_DIRS = [HERE / "configs", MAIN / "tests" / "fixtures" / "configs"]

# Ledger precision -> the `--dtypes` choice of `accelerate estimate-memory` a user would pick.
# The CLI offers only float32, float16, int8, int4.
DTYPE = {
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"fp32": "float32",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"bf16": "float16",  # no bfloat16 choice; same 2 bytes
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"fp16": "float16",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"fp8": "int8",  # no fp8 choice; same 1 byte
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"int8": "int8",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"int4": "int4",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"mxfp4": "int4",  # 0.5 byte; block scales not counted
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"nf4": "int4",
}
TRAIN_KINDS = {"full", "full_finetune", "fullfinetune", "fullfinetuning", "finetune", "pretrain"}
ADAPTER_KINDS = {"lora", "qlora"}
MEMORY_METRICS = {"", "memory", "weights"}


def to_gib(value: float, unit: str) -> float:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)unit = unit.strip()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if unit == "GiB":
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return value
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if unit == "GB":
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return value * 1e9 / 2**30
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if unit == "MiB":
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return value / 1024
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)raise ValueError(f"unit {unit!r}")


def config_path(model: str):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if model in MODEL_CONFIGS:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    p = MODEL_CONFIGS[model]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return p if p is not None and p.exists() else None
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for d in FALLBACK_DIRS:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    p = d / f"{model}.json"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if p.exists():
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        return p
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)return None


def _constructor(config, head: bool):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"""The CLI's choice: AutoModel unless config.json's auto_map names an AutoModelFor* class."""
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if head:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return AutoModelForCausalLM
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)auto_map = getattr(config, "auto_map", None)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if isinstance(auto_map, dict):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    for key in auto_map:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        if key.startswith("AutoModelFor"):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            return getattr(transformers, key)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)return AutoModel


def make_local_create_empty_model(head: bool):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)def create_empty_model(model_name, library_name, trust_remote_code=False, access_token=None):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    # Mirrors accelerate.commands.estimate.create_empty_model's transformers branch, with
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    # `model_name` a local config.json and no Hub lookup.
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    config = AutoConfig.from_pretrained(model_name, trust_remote_code=trust_remote_code)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    with init_empty_weights():
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        constructor = _constructor(config, head)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        model = constructor.from_config(config, torch_dtype=torch.float32, trust_remote_code=trust_remote_code)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if head:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        # transformers 5 from_config leaves lm_head untied under init_empty_weights; tie it
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        # where the config says so, or tied embeddings are counted twice.
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        model.tie_weights()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    create_empty_model.last_class = type(model).__name__
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return model

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)create_empty_model.last_class = None
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)return create_empty_model


_REAL_CREATE_EMPTY_MODEL = accel_estimate.create_empty_model
_REAL_CALCULATE_MAXIMUM_SIZES = accel_estimate.calculate_maximum_sizes
_last_built = {}
_cache = {}


def _recording_calculate_maximum_sizes(model):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"""accelerate's calculate_maximum_sizes, noting which class the CLI built."""
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)_last_built["class"] = type(model).__name__
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)return _REAL_CALCULATE_MAXIMUM_SIZES(model)


accel_estimate.calculate_maximum_sizes = _recording_calculate_maximum_sizes


def _offline_model_info(path: Path):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"""Stands in for the Hub's model_info(): the fields create_empty_model reads (library_name, and
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)config, the Hub's copy of config.json, of which the CLI uses auto_map)."""

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)def verify_on_hub(repo, token=None):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    with open(path) as fh:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        cfg = json.load(fh)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return types.SimpleNamespace(library_name="transformers", config=cfg)

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)return verify_on_hub


def accelerate_figures(path: Path, head: bool):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"""{dtype: (largest_layer_bytes, total_bytes, training_bytes or None)} as estimate-memory computes them."""
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)key = (str(path), head)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if key in _cache:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return _cache[key]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if head:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    fake = make_local_create_empty_model(head)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    accel_estimate.create_empty_model = fake
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)else:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    # The CLI's own create_empty_model, unchanged; only its Hub lookup is answered locally
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    # (AutoConfig.from_pretrained reads the local config.json path it is given).
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    accel_estimate.create_empty_model = _REAL_CREATE_EMPTY_MODEL
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    accel_estimate.verify_on_hub = _offline_model_info(path)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    fake = None
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)args = argparse.Namespace(
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    model_name=str(path),
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    library_name="transformers",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    trust_remote_code=False,
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    dtypes=["float32", "float16", "int8", "int4"],
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json))
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)try:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    with contextlib.redirect_stdout(io.StringIO()):  # the CLI's "Loading pretrained config…" line
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        data = accel_estimate.gather_data(args)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)except Exception as e:  # noqa: BLE001 - report any instantiation failure per model
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    _cache[key] = e
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return e
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)model_class = fake.last_class if fake else _last_built.get("class")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)out = {}
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for dtype, largest, total, training in data:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    t = max(training.values())
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    out[dtype] = (largest, total, None if t == -1 else t)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)out["_class"] = model_class
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)out["_rows"] = data
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)_cache[key] = out
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)return out


def cli_table(name: str, figs) -> str:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"""The table `accelerate estimate-memory` prints, from the same numbers."""
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)rows = []
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for dtype, largest, total, training in figs["_rows"]:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    t = max(training.values())
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    rows.append([dtype, convert_bytes(largest), convert_bytes(total), convert_bytes(t) if t != -1 else "N/A"])
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)headers = ["dtype", "Largest Layer", "Total Size", "Training using Adam"]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)return accel_estimate.create_ascii_table(headers, rows, f"Memory Usage for loading `{name}`")


def find_gpuplan(arg):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if arg == "none":
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return None
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if arg != "auto":
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    return Path(arg)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for cand in (shutil.which("gpuplan"), MAIN / "target" / "release" / "gpuplan", MAIN / "target" / "debug" / "gpuplan"):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if cand and Path(cand).exists():
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        return Path(cand)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)return None


def gpuplan_errors(binary: Path, ledger: str):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)"""{row id: (estimate, error %)} from `gpuplan validate LEDGER` (its report's row lines)."""
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)out = subprocess.run([str(binary), "validate", ledger], capture_output=True, text=True, timeout=300)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if out.returncode != 0:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    raise RuntimeError(f"{binary} validate failed: {out.stderr.strip()[:300]}")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)got = {}
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for line in out.stdout.splitlines():
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    f = line.split()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if len(f) >= 6 and f[5].endswith("%"):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        try:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            got[f[0]] = (float(f[3]), float(f[5].rstrip("%")))
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        except ValueError:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            pass
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)return got


def pct(est, meas):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)return (est - meas) / meas * 100.0


def main():
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)ap.add_argument("ledger", help="validation.csv")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)ap.add_argument("--csv", metavar="OUT", help="also write one line per ledger row here")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)ap.add_argument("--tables", action="store_true", help="also print the CLI's table for each model")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)ap.add_argument("--gpuplan", default="auto", metavar="BIN",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)                help="gpuplan binary whose `validate` errors are printed alongside (default: gpuplan on PATH, "
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)                     "else target/{release,debug}/gpuplan; 'none' to leave it out)")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)a = ap.parse_args()

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)t0 = time.time()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)with open(a.ledger, newline="") as fh:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    rows = list(csv.DictReader(fh))

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)results, skipped = [], []
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for r in rows:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    rid, model = r["id"], r["model"].strip()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    metric = (r.get("metric") or "").strip()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    kind = r["kind"].strip().lower()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    prec = r["precision"].strip().lower()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    role = (r.get("role") or "").strip() or "calibrate"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    base = {"id": rid, "role": role, "kind": kind, "model": model, "precision": prec, "metric": metric or "memory"}
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if metric not in MEMORY_METRICS:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        why = "speed row" if metric == "decode_tps" else f"{metric}: accelerate estimates weights only, no KV-cache figure"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        skipped.append({**base, "status": "skipped", "why": why})
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        continue
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    path = config_path(model)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if path is None:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        skipped.append({**base, "status": "skipped", "why": "no config"})
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        continue
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    dtype = DTYPE.get(prec)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if dtype is None:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        skipped.append({**base, "status": "skipped", "why": f"precision {prec} has no estimate-memory dtype"})
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        continue
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    measured = to_gib(float(r["measured"]), r["unit"])
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    notes = []
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if kind in TRAIN_KINDS:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        figure = "Training using Adam"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    elif kind in ADAPTER_KINDS:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        figure = "Total Size"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        notes.append("no LoRA mode: inference total used")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    else:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        figure = "Total Size"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if prec == "fp8":
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        notes.append("fp8 -> int8 column")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if prec == "mxfp4":
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        notes.append("mxfp4 -> int4 column")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    ex = (r.get("expert_precision") or "").strip().lower()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    alt_dtype = DTYPE.get(ex) if ex and ex != prec else None
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if ex and ex != prec:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        notes.append(f"experts {ex} not representable: one dtype for all weights")

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    rec = {**base, "measured_gib": measured, "accel_dtype": dtype, "figure": figure, "config": str(path)}
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    ok = True
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    for head, tag in ((False, "cli"), (True, "head")):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        figs = accelerate_figures(path, head)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        if isinstance(figs, Exception):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            rec[f"{tag}_error"] = f"{type(figs).__name__}: {figs}"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            if not head:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)                ok = False
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            continue
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        largest, total, training = figs[dtype]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        val = training if figure == "Training using Adam" else total
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        if val is None:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            rec[f"{tag}_error"] = f"Training using Adam is N/A for {dtype}"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            if not head:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)                ok = False
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            continue
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        rec[f"{tag}_class"] = figs["_class"]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        rec[f"{tag}_bytes"] = val
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        rec[f"{tag}_gib"] = val / 2**30
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        rec[f"{tag}_print"] = convert_bytes(val)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        rec[f"{tag}_err_pct"] = pct(val / 2**30, measured)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        rec[f"{tag}_largest_layer_print"] = convert_bytes(largest)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if not ok:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        skipped.append({**base, "status": "skipped", "why": rec.get("cli_error", "error")})
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        continue
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if alt_dtype and alt_dtype != dtype and not isinstance(accelerate_figures(path, False), Exception):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        _, alt_total, _ = accelerate_figures(path, False)[alt_dtype]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        notes.append(f"{alt_dtype} column instead: {alt_total / 2**30:.2f} GiB "
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)                     f"({pct(alt_total / 2**30, measured):+.1f}%)")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    settings = (r.get("settings") or "").replace(" ", "")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if figure == "Training using Adam" and "optimizer_bytes_per_param=" in settings:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        notes.append("optimizer " + settings.split("optimizer_bytes_per_param=")[1].split(";")[0]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)                     + " B/param not modelled (Adam is 8 B/param at fp32)")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    rec["notes"] = "; ".join(notes)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    rec["status"] = "ok"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    results.append(rec)

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)gp_bin = find_gpuplan(a.gpuplan)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)gp = {}
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if gp_bin is not None:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    try:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        gp = gpuplan_errors(gp_bin, a.ledger)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    except Exception as e:  # noqa: BLE001
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        print(f"(gpuplan left out: {e})")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        gp_bin = None
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for x in results:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    if x["id"] in gp:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        x["gpuplan_gib"], x["gpuplan_err_pct"] = gp[x["id"]]

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# ---- table ------------------------------------------------------------------------------
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)w = max([len(x["id"]) for x in results] + [2])
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)wm = max([len(x["model"]) for x in results] + [5])
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)hdr = (f"{'id':<{w}} {'role':<9} {'kind':<13} {'model':<{wm}} {'prec':<5} {'accel':<7} {'figure':<6} "
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)       f"{'meas GiB':>9} {'accel GiB':>10} {'err %':>7} {'+head GiB':>10} {'err %':>7}"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)       + (f" {'gpuplan':>8} {'err %':>7}" if gp_bin else "") + "  notes")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print(f"accelerate {accelerate.__version__} estimate-memory (transformers {transformers.__version__}, "
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)      f"torch {torch.__version__}) on {a.ledger}")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print("accel GiB: what the CLI prints (AutoModel, or the auto_map class); +head: AutoModelForCausalLM")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print("figure: total = 'Total Size' at the row's dtype; adam = 'Training using Adam'")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if gp_bin:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    print(f"gpuplan: `{gp_bin} validate` (built {time.strftime('%Y-%m-%d %H:%M', time.localtime(gp_bin.stat().st_mtime))})")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print(hdr)
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print("-" * len(hdr))
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for x in results:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    fig = "adam" if x["figure"] == "Training using Adam" else "total"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    hg = f"{x['head_gib']:10.2f} {x['head_err_pct']:+6.1f}%" if "head_gib" in x else f"{'-':>10} {'-':>7}"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    print(f"{x['id']:<{w}} {x['role']:<9} {x['kind']:<13} {x['model']:<{wm}} {x['precision']:<5} {x['accel_dtype']:<7} "
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)          f"{fig:<6} {x['measured_gib']:9.2f} {x['cli_gib']:10.2f} {x['cli_err_pct']:+6.1f}% {hg}"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)          + ((f" {x['gpuplan_gib']:8.2f} {x['gpuplan_err_pct']:+6.1f}%" if "gpuplan_err_pct" in x
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)              else f" {'-':>8} {'-':>7}") if gp_bin else "")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)          + f"  {x['notes']}")

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# ---- summary per role -------------------------------------------------------------------
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)mem_rows = [r for r in rows if (r.get("metric") or "").strip() in MEMORY_METRICS]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)tags = [("cli", "accelerate (CLI)"), ("head", "accelerate +head")] + ([("gpuplan", "gpuplan")] if gp_bin else [])
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for tag, label in tags:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    for role in ("calibrate", "holdout"):
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        inrole = [r for r in mem_rows if ((r.get("role") or "").strip() or "calibrate") == role]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        errs = [abs(x[f"{tag}_err_pct"]) for x in results if x["role"] == role and f"{tag}_err_pct" in x]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        if not inrole:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            continue
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        if errs:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            print(f"{label:<17} {role:<9}: {len(errs):>2}/{len(inrole)} memory+weights rows covered, "
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)                  f"median |error| {statistics.median(errs):.1f}%, worst {max(errs):.1f}%")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        else:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            print(f"{label:<17} {role:<9}:  0/{len(inrole)} memory+weights rows covered")

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)# ---- skipped ----------------------------------------------------------------------------
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print(f"skipped {len(skipped)} of {len(rows)} rows:")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)reasons = {}
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for s in skipped:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    reasons.setdefault(s["why"], []).append(s["id"])
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for why, ids in reasons.items():
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    shown = ", ".join(ids) if len(ids) <= 6 else ", ".join(ids[:4]) + f", … ({len(ids)} rows)"
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    print(f"  {why}: {shown}")

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)used = sorted({x["model"]: x["config"] for x in results}.items())
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print("configs used:")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)for m, p in used:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    print(f"  {m:<{wm}} {p}")

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if a.tables:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    for m, p in used:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        print()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        print(cli_table(m, accelerate_figures(Path(p), False)))

 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)if a.csv:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    cols = ["id", "role", "kind", "model", "precision", "metric", "status", "why", "accel_dtype", "figure",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            "measured_gib", "cli_class", "cli_gib", "cli_print", "cli_err_pct", "cli_largest_layer_print",
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            "head_class", "head_gib", "head_err_pct", "gpuplan_gib", "gpuplan_err_pct", "notes", "config"]
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    with open(a.csv, "w", newline="") as fh:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        wr = csv.DictWriter(fh, fieldnames=cols, extrasaction="ignore")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        wr.writeheader()
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)        for x in results + skipped:
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)            wr.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in x.items()})
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)    print(f"\nwrote {a.csv}")
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)print(f"\n{time.time() - t0:.1f} s")


if __name__ == "__main__":
 the Instruct file in ../models/configs/Qwen2.5-7B-Instruct.json)main()

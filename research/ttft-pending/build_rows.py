#!/usr/bin/env python3
"""Builds ttft_rows.csv: published time-to-first-token (and llama.cpp prompt-processing)
measurements at one request in flight. Every row is entered by hand with its quote; nothing
here computes an estimate. Run: python3 build_rows.py (writes ttft_rows.csv beside it)."""
import csv
import os

COLUMNS = (
    "id,model,kind,precision,kv_precision,context_len,batch_size,concurrency,avg_tokens,"
    "lora_trainable_fraction,grad_checkpointing,flash_attention,settings,framework,gpu,measured,"
    "unit,measure,source,notes,expert_precision,metric,role,gpus,engine,gpu_gib,engine_version"
).split(",")

ROWS = []


def row(**kw):
    r = {c: "" for c in COLUMNS}
    r.update(kind="inference", batch_size="1", concurrency="1", grad_checkpointing="no",
             role="")
    if isinstance(kw.get("measured"), float):
        kw["measured"] = f"{round(kw['measured'], 6):.10g}"
    r.update({k: str(v) for k, v in kw.items()})
    assert set(r) == set(COLUMNS), set(r) ^ set(COLUMNS)
    ROWS.append(r)


# --- 1. TensorRT-LLM performance.md, "Low Latency" tables (data from TensorRT-LLM v0.5) ----------
TRT_SRC = ("NVIDIA/TensorRT-LLM docs/source/performance.md @138f96d45f90b9667426f7c47297d8c06bafac73, "
           "section 'Low Latency' (https://nvidia.github.io/TensorRT-LLM/performance.html)")
TRT_COMMON = ("table header '| Model | Batch Size | TP (1) | Input Length | 1st Token Latency (ms) |'; "
              "the doc says 'The following data is from TensorRT-LLM v0.5' and 'reference data at batch "
              "size 1 for first token latency'; its reproduction section benchmarks gptSessionBenchmark "
              "with '--input_output_len $isl,1' (one output token) but loops over batch sizes 64/32, which "
              "contradicts the table's batch 1 (doubtful); 'LLaMA 7B/70B' are Llama2-7b/Llama2-70b per "
              "the doc's 'Benchmarking per Model' section")
for gid, gpu, prec, kv, fw_prec, model, mshort, tp, isl, ms, extra in [
    ("h100", "H100", "fp8", "fp8", "FP8 (--enable_fp8 --fp8_kv_cache)", "Llama-2-7B", "LLaMA 7B", 1, 128, 7, ""),
    ("h100", "H100", "fp8", "fp8", "FP8 (--enable_fp8 --fp8_kv_cache)", "Llama-2-7B", "LLaMA 7B", 1, 2048, 36, ""),
    ("h100", "H100", "fp8", "fp8", "FP8 (--enable_fp8 --fp8_kv_cache)", "Llama-2-70B", "LLaMA 70B", 4, 128, 26, ""),
    ("h100", "H100", "fp8", "fp8", "FP8 (--enable_fp8 --fp8_kv_cache)", "Llama-2-70B", "LLaMA 70B", 4, 2048, 109, ""),
    ("l40s", "L40S", "fp8", "fp8", "FP8 (--enable_fp8 --fp8_kv_cache)", "Llama-2-7B", "LLaMA 7B", 1, 128, 14, ""),
    ("l40s", "L40S", "fp8", "fp8", "FP8 (--enable_fp8 --fp8_kv_cache)", "Llama-2-7B", "LLaMA 7B", 1, 2048, 73, ""),
    ("a100", "A100-80G", "fp16", "fp16", "FP16 (fp8 flags removed, as the doc says for A100)", "Llama-2-7B", "LLaMA 7B", 1, 128, 16,
     "; A100 memory size not stated in performance.md (the v0.5 H100-vs-A100 blog used 'SXM 80GB GPUs')"),
    ("a100", "A100-80G", "fp16", "fp16", "FP16 (fp8 flags removed, as the doc says for A100)", "Llama-2-7B", "LLaMA 7B", 1, 2048, 133,
     "; A100 memory size not stated in performance.md (the v0.5 H100-vs-A100 blog used 'SXM 80GB GPUs')"),
    ("a100", "A100-80G", "fp16", "fp16", "FP16 (fp8 flags removed, as the doc says for A100)", "Llama-2-70B", "LLaMA 70B", 4, 128, 47,
     "; A100 memory size not stated in performance.md (the v0.5 H100-vs-A100 blog used 'SXM 80GB GPUs')"),
    ("a100", "A100-80G", "fp16", "fp16", "FP16 (fp8 flags removed, as the doc says for A100)", "Llama-2-70B", "LLaMA 70B", 4, 2048, 377,
     "; A100 memory size not stated in performance.md (the v0.5 H100-vs-A100 blog used 'SXM 80GB GPUs')"),
]:
    size = "7b" if "7B" in model else "70b"
    row(id=f"trtllm05-{gid}-llama2{size}-tp{tp}-{isl}-ttft", model=model, precision=prec,
        kv_precision=kv, context_len=isl, flash_attention="yes",
        framework=(f"TensorRT-LLM v0.5 engine, gptSessionBenchmark (static batch), {fw_prec}, "
                   f"tensor parallel {tp}, batch 1, input {isl}, output 1 token, context FMHA plugin"),
        gpu=gpu, measured=ms / 1000, unit="s",
        measure="first-token latency at batch size 1 (statistic not stated; table is in ms)",
        source=TRT_SRC,
        notes=(f"quote: | {mshort} | 1 | {tp} | {isl} | {ms} | (converted ms to s by /1000); "
               + TRT_COMMON + (" ; H100 is 'H100-HBM3-80GB' per the doc" if gpu == "H100" else "") + extra),
        metric="ttft_s", gpus=tp, engine="trt-llm", engine_version="0.5.0")

# --- 2. LMDeploy (TurboMind) A100-80G static inference benchmark, batch 1 ---------------------------
LMD_SRC = ("InternLM/lmdeploy docs/en/benchmark/a100_fp16.md @3e391df4673326f79363eebe030876861a9b7090 "
           "('Static Inference Benchmark', tested version v0.1.0a1; the same batch-1 tables reappear at "
           "@f44ba31cece50e28208c337238d9f903a4f66751 under 'The tested lmdeploy version is `v0.2.0`')")
for model, mname, tp, isl, ftl, line in [
    ("Llama-2-7B", "llama2-7b", 1, 128, 0.022, "| 1     | 1   | 128           | 128           | 102.21                | 76.59   | 0.022       | 0.022       | 0.022       |"),
    ("Llama-2-7B", "llama2-7b", 1, 2048, 0.139, "| 1     | 1   | 2048          | 128           | 86.1                  | 76.77   | 0.139       | 0.139       | 0.14        |"),
    ("Llama-2-13B", "llama2-13b", 1, 128, 0.04, "| 1     | 1   | 128           | 128           | 56.58                 | 74.84   | 0.04        | 0.039       | 0.04        |"),
    ("Llama-2-13B", "llama2-13b", 1, 2048, 0.242, "| 1     | 1   | 2048          | 128           | 48.99                 | 75.09   | 0.242       | 0.242       | 0.243       |"),
    ("Llama-2-70B", "llama2-70b", 4, 128, 0.074, "| 1     | 4   | 128           | 128           | 33.63                 | 73.72   | 0.074       | 0.073       | 0.074       |"),
    ("Llama-2-70B", "llama2-70b", 4, 2048, 0.402, "| 1     | 4   | 2048          | 128           | 28.32                 | 73.78   | 0.402       | 0.401       | 0.403       |"),
]:
    row(id=f"lmdeploy-a100-{mname}-tp{tp}-{isl}-ttft", model=model, precision="fp16",
        kv_precision="fp16", context_len=isl, flash_attention="yes",
        framework=(f"LMDeploy TurboMind, static inference benchmark (profile_generation), fp16, tensor "
                   f"parallel {tp}, batch 1, {isl} prompt tokens, 128 output tokens"),
        gpu="A100-80G", measured=ftl, unit="s",
        measure="mean first-token latency, FTL(ave), batch 1",
        source=LMD_SRC,
        notes=(f"quote ({mname} table; columns batch|tp|prompt_tokens|output_tokens|throughput(out tok/s)|"
               f"mem(GB)|FTL(ave)(s)|FTL(min)(s)|FTL(max)(s)): {line}; 'All the following results are tested "
               "on (x8) A100-80G CUDA 11.8'; the same table's 1-token prompt gives FTL(ave) 0.011 s (7b), "
               "0.018 s (13b), 0.031 s (70b TP4), i.e. the fixed per-request overhead; kv_precision fp16 "
               "presumed (not stated); flash_attention=yes stands for TurboMind's fused attention kernels"),
        metric="ttft_s", gpus=tp, engine="lmdeploy", engine_version="v0.1.0a1 (doc later relabelled v0.2.0)")

# --- 3. NVIDIA NIM benchmarking guide, Performance page -------------------------------------------
NIM_SRC = ("NVIDIA NIM for LLMs Benchmarking guide, 'Performance' page (https://docs.nvidia.com/nim/benchmarking/"
           "llm/1.0.0/performance.md), 'Llama-3.3-70b-instruct Results', Version: 1.8.0, 2 x H100 80G, fp8 TP2")
for isl, osl, ms, q in [
    (5000, 500, 406.77, "#### 5000 Input Tokens / 500 Output Tokens | Concurrency | TTFT (ms) | ITL (ms) | Throughput(Tokens/s) | ... | 1 | 406.77 | 18.58 | 51.67 |"),
    (500, 2000, 47.77, "#### 500 Input Tokens / 2000 Output Tokens | Concurrency | TTFT (ms) | ITL (ms) | Throughput(Tokens/s) | ... | 1 | 47.77 | 18.91 | 52.85 |"),
]:
    row(id=f"nim180-h100x2-llama33-70b-fp8-tp2-{isl}-ttft", model="Llama-3.3-70B", precision="fp8",
        context_len=isl, flash_attention="yes",
        framework=(f"NVIDIA NIM container llama-3.3-70b-instruct 1.8.0, fp8, tensor parallel 2, AIPerf client, "
                   f"{isl} input / {osl} output tokens, concurrency 1"),
        gpu="H100", measured=ms / 1000, unit="s",
        measure="TTFT at concurrency 1 (statistic not stated on the page)",
        source=NIM_SRC,
        notes=(f"quote: {q} (ms converted to s by /1000); the page names the NIM container, not the engine "
               "inside it (NIM LLM profiles run TensorRT-LLM or vLLM); kv_precision not stated; 'H100 80G' "
               "variant (SXM/PCIe) not stated; copied from the search-corpus copy of the page"),
        metric="ttft_s", gpus=2, engine="nim", engine_version="1.8.0")

# --- 4. SGLang cookbook speed benchmarks, --max-concurrency 1 --------------------------------------
CB = "sgl-project/sgl-cookbook"
CB_NOTE = ("sglang.bench_serving random dataset without --random-range-ratio: prompt lengths vary per request, "
           "so context_len is the mean prompt (Total input tokens / Successful requests); TTFT is the mean over "
           "10 requests of varying length")
for rid, model, prec, exp, gpu, ngpu, path, commit, hw, ver, cmd, isl_req, tot, nreq, mean, median, extra in [
    ("cookbook-b200x8-qwen3-235b-tp8-in1000", "Qwen3-235B-A22B", "bf16", "", "B200", 8,
     "docs/autoregressive/Qwen/Qwen3.md", "8e3bdb7e3f5ff87bd4cd7f65014e0e32634df894",
     "NVIDIA B200 GPU (8x)", "0.5.6", "--random-input-len 1000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1",
     1000, 6101, 10, 99.03, 92.18, "model Qwen3-235B-A22B-Instruct-2507 launched with --tp 8 (bf16 checkpoint)"),
    ("cookbook-b200x8-qwen3-235b-tp8-in8000", "Qwen3-235B-A22B", "bf16", "", "B200", 8,
     "docs/autoregressive/Qwen/Qwen3.md", "8e3bdb7e3f5ff87bd4cd7f65014e0e32634df894",
     "NVIDIA B200 GPU (8x)", "0.5.6", "--random-input-len 8000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1",
     8000, 41941, 10, 139.90, 114.85, "model Qwen3-235B-A22B-Instruct-2507 launched with --tp 8 (bf16 checkpoint)"),
    ("cookbook-b200x8-dsr1-tp8-in1000", "DeepSeek-R1", "fp8", "", "B200", 8,
     "docs/autoregressive/DeepSeek/DeepSeek-R1.md", "268193ccf59631fe01880790f184bee7c35eee95",
     "B200 GPU (8x)", "0.5.6.post1", "--random-input-len 1000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 --request-rate inf",
     1000, 6101, 10, 153.00, 140.76, "model deepseek-ai/DeepSeek-R1-0528 launched with --tp 8 (the checkpoint's block FP8; no --quantization flag)"),
    ("cookbook-b200x8-dsr1-tp8-in8000", "DeepSeek-R1", "fp8", "", "B200", 8,
     "docs/autoregressive/DeepSeek/DeepSeek-R1.md", "268193ccf59631fe01880790f184bee7c35eee95",
     "B200 GPU (8x)", "0.5.6.post1", "--random-input-len 8000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 --request-rate inf",
     8000, 41941, 10, 165.91, 154.96, "model deepseek-ai/DeepSeek-R1-0528 launched with --tp 8 (the checkpoint's block FP8; no --quantization flag)"),
    ("cookbook-a100x8-llama31-70b-tp8-in1000", "Llama-3.1-70B", "bf16", "", "A100-80G", 8,
     "docs/autoregressive/Llama/Llama3.1.md", "1e3601bc19dbca27b9791e741e13505acb21cdfe",
     "NVIDIA A100 GPU (8x)", "0.5.6", "--random-input-len 1000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1",
     1000, 6101, 10, 131.61, 131.77, "model Meta-Llama/Llama-3.1-70B launched with --tp 8; A100 memory size not stated (A100-80G assumed; bf16 70B fits 8x40 GB too)"),
    ("cookbook-a100x8-llama31-70b-tp8-in8000", "Llama-3.1-70B", "bf16", "", "A100-80G", 8,
     "docs/autoregressive/Llama/Llama3.1.md", "1e3601bc19dbca27b9791e741e13505acb21cdfe",
     "NVIDIA A100 GPU (8x)", "0.5.6", "--random-input-len 8000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1",
     8000, 41941, 10, 395.25, 318.02, "model Meta-Llama/Llama-3.1-70B launched with --tp 8; A100 memory size not stated (A100-80G assumed); P99 TTFT 850.80 ms, so the mean is pulled up by the longest prompts"),
    ("cookbook-b200x8-gptoss120b-tp8-sharegpt", "gpt-oss-120b", "bf16", "mxfp4", "B200", 8,
     "docs/autoregressive/OpenAI/GPT-OSS.md", "2c1242c5d1e4a2843c433210569050384d510158",
     "NVIDIA B200 GPU (8x)", "0.5.6", "--num-prompt 100 --max-concurrency 1 (default dataset, ShareGPT per the page)",
     None, 33178, 100, 33.71, 31.79, "model openai/gpt-oss-120b launched with --tp 8 (MXFP4 experts, bf16 rest); ShareGPT prompts, not random"),
]:
    avg = round(tot / nreq)
    row(id=rid, model=model, precision=prec, expert_precision=exp, context_len=avg, avg_tokens=avg,
        flash_attention="yes",
        framework=(f"SGLang {ver} server, tensor parallel {ngpu}; sglang.bench_serving {cmd}"),
        gpu=gpu, measured=mean / 1000, unit="s",
        measure=f"mean TTFT over {nreq} requests at --max-concurrency 1 (median {median} ms)",
        source=f"{CB} {path} @{commit} (section 5.1 Speed Benchmark, Low Concurrency / Latency-Sensitive)",
        notes=(f"quote: 'Hardware: {hw}' ... 'Max request concurrency:                 1' ... "
               f"'Total input tokens:                      {tot}' ... 'Mean TTFT (ms):                          {mean:.2f}' "
               f"'Median TTFT (ms):                        {median:.2f}' (ms converted to s); "
               + (CB_NOTE + "; " if isl_req else "ShareGPT prompts of varying length; context_len is the mean prompt; ")
               + extra),
        metric="ttft_s", gpus=ngpu, engine="sglang", engine_version=ver)

# Llama 4 on MI300X: one request of the ten stalled (P99 TTFT 48 s / 38.6 s), so the median is recorded.
L4_PATH, L4_COMMIT = "docs/autoregressive/Llama/Llama4.md", "855445bd4d6116d9881e4b6056e62e95d0828f73"
for rid, model, hf, sec, mean, median, p99 in [
    ("cookbook-mi300x8-llama4-scout-tp8-in1000", "Llama-4-Scout", "meta-llama/Llama-4-Scout-17B-16E-Instruct",
     "5.1.1", 4246.98, 68.57, 48091.05),
    ("cookbook-mi300x8-llama4-maverick-tp8-in1000", "Llama-4-Maverick", "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
     "5.2.1", 4296.56, 57.45, 38633.95),
]:
    row(id=rid, model=model, precision="bf16", context_len=610, avg_tokens=610, flash_attention="yes",
        framework=(f"SGLang 0.5.9 server, {hf}, --tp 8 --context-length 1000000; sglang.bench_serving "
                   "--random-input-len 1000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 "
                   "--request-rate inf"),
        gpu="MI300X", measured=median / 1000, unit="s",
        measure=(f"MEDIAN TTFT over 10 requests at --max-concurrency 1 (mean {mean} ms is dominated by one "
                 f"stalled request: P99 {p99} ms)"),
        source=f"{CB} {L4_PATH} @{L4_COMMIT} (section {sec} Low Concurrency (Latency-Optimized))",
        notes=(f"quote: 'Hardware: AMD MI300x GPU' 'Model: {model}' 'Tensor Parallelism: 8' ... "
               f"'Max request concurrency:                 1' ... 'Total input tokens:                      6101' ... "
               f"'Mean TTFT (ms):                          {mean:.2f}' 'Median TTFT (ms):                        {median:.2f}' "
               f"'P99 TTFT (ms):                           {p99:.2f}' (ms converted to s); " + CB_NOTE.replace("the mean over 10", "the median of 10")
               + "; number of MI300X cards inferred from --tp 8; ROCm build; Llama 4 is multimodal, text-only prompts here"),
        metric="ttft_s", gpus=8, engine="sglang", engine_version="0.5.9")

# --- 5. kubesimplify blog: Qwen3-235B-A22B FP8 on 4x RTX PRO 6000, vLLM TP4 ------------------------
row(id="kubesimplify-rtxpro6000x4-qwen3-235b-fp8-tp4-1024-ttft", model="Qwen3-235B-A22B", precision="fp8",
    kv_precision="bf16", context_len=1024, flash_attention="yes",
    framework=("vLLM 0.27.1 (official container, PyTorch 2.13.0, CUDA 13.0), --tensor-parallel-size 4, "
               "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 (128x128 block FP8), vllm bench serve random 1024 in / "
               "256 out, --max-concurrency 1 --num-prompts 12 --ignore-eos --no-enable-prefix-caching"),
    gpu="RTX PRO 6000", measured=0.25531, unit="s",
    measure="mean TTFT over 12 requests at --max-concurrency 1 (median 251.60 ms)",
    source=("kubesimplify/website content/blog/running-a-big-llm-across-multiple-gpus-with-vllm.md "
            "@00b7452215ee797ddc20c5ed57144396d7cc301b, 'Step 7: Benchmark it'"),
    notes=("quote: 'Maximum request concurrency: 1' ... 'Total input tokens:                      12288' ... "
           "'Mean TTFT (ms):                          255.31' 'Median TTFT (ms):                        251.60' "
           "(ms converted to s); 8x RTX PRO 6000 Blackwell Server Edition (4 used), 95.01 GiB usable each, "
           "no NVLink: every GPU pair is SYS (PCIe + socket link), so the TP all-reduces of the prefill cross "
           "PCIe; the post notes a warm, prefix-cached rerun gave 61 ms and that pipeline parallelism beat "
           "TP on TTFT at 32 in flight; KV cache BF16 per the post"),
    metric="ttft_s", gpus=4, engine="vllm", engine_version="0.27.1")

# --- 6. llama.cpp prompt processing (pp) rates, one sequence -------------------------------------
XD_SRC = ("XiongjieDai/GPU-Benchmarks-on-LLM-Inference README.md @00dd2bdeb2404263f22bd6c1cd46ce397e341db5, "
          "'LLaMA 3' NVIDIA table (OS: Ubuntu 22.04.2 LTS, pytorch:2.2.0, py: 3.10, cuda: 12.1.1 on RunPod; "
          "snapshots in May 2024)")
XD_HDR = "| GPU | Model | tg 512 | tg 1024 | tg 4096 | tg 8192 | pp 512 | pp 1024 | pp 4096 | pp 8192 |"
for gid, gpu, qname, prec, line, pp512, pp8192 in [
    ("4090", "RTX 4090", "8B F16", "fp16", "|                 | 8B F16     | 54.84   | 54.34    | 52.63    | 50.88    | 9382.00 | 9056.26  | 6531.36  | 4744.18  |", 9382.00, 4744.18),
    ("4090", "RTX 4090", "8B Q4_K_M", "int4", "| 4090 24GB       | 8B Q4_K_M  | 130.58  | 127.74   | 119.44   | 110.66   | 7138.99 | 6898.71  | 5265.68  | 4039.68  |", 7138.99, 4039.68),
    ("3090", "RTX 3090", "8B F16", "fp16", "|                 | 8B F16     | 47.40   | 46.51    | 44.79    | 42.62    | 4444.65 | 4239.64  | 3410.47  | 2667.14  |", 4444.65, 2667.14),
    ("3090", "RTX 3090", "8B Q4_K_M", "int4", "| 3090 24GB       | 8B Q4_K_M  | 115.42  | 111.74   | 97.31    | 87.49    | 4030.40 | 3865.39  | 3169.91  | 2527.40  |", 4030.40, 2527.40),
]:
    qtag = "f16" if prec == "fp16" else "q4km"
    for n, val in [(512, pp512), (8192, pp8192)]:
        row(id=f"xdai-llamacpp-{gid}-llama3-8b-{qtag}-pp{n}", model="Llama-3.1-8B", precision=prec,
            kv_precision="fp16", context_len=n, flash_attention="no",
            framework=(f"llama.cpp llama-bench -p 512,1024,4096,8192 (build not stated, May 2024), all layers on "
                       f"one GPU, LLaMA 3 8B GGUF {qname.split()[1]}, prompt processing of one {n}-token sequence"),
            gpu=gpu, measured=val, unit="tokens/s",
            measure=f"llama-bench pp{n}: average prompt-processing rate (TTFT ~ {n} / rate)",
            source=XD_SRC,
            notes=(f"quote ({XD_HDR}): {line}; the row is {gpu} '{qname}'; model is Meta Llama 3 8B, mapped to the "
                   "catalog's Llama-3.1-8B (same layers, widths and vocab; only RoPE scaling and context differ); "
                   + ("Q4_K_M is a mixed ~4.5-5 bit GGUF quant (Q4_K with some Q6_K tensors), mapped to int4; "
                      if prec == "int4" else "")
                   + "batch/ubatch and flash-attention settings not stated in the README (llama-bench defaults were "
                   "used; flash attention was off by default in llama.cpp of that period - not verified here); KV f16 "
                   "presumed (llama.cpp default)"),
            metric="pp_tps", gpus=1, engine="llama.cpp", engine_version="not stated (May 2024)")

row(id="llamacpp-pr4766-4090-codellama7b-f16-pp512", model="Llama-2-7B", precision="fp16", kv_precision="fp16",
    context_len=512, flash_attention="no",
    framework=("llama.cpp llama-bench (PR 4766 'llama : ggml-backend integration' branch, Jan 2024), "
               "LLAMA_CUBLAS=1, codellama-7b ggml-model-f16.gguf, default -ngl (99 shown), one GPU"),
    gpu="RTX 4090", measured=11048.22, unit="tokens/s",
    measure="llama-bench pp 512: mean prompt-processing rate ± sd 269.74 (TTFT ~ 512 / rate)",
    source=("ggml-org/llama.cpp PR 4766, comment by ggerganov 2024-01-10 "
            "(https://github.com/ggml-org/llama.cpp/pull/4766)"),
    notes=("quote: Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes | llama 7B F16 | 12.55 GiB | "
           "6.74 B | CUDA | 99 | pp 512 | 11048.22 ± 269.74 |; CodeLlama-7B has Llama-2-7B's architecture "
           "(vocab 32016 vs 32000); copied from the search-corpus excerpt of the PR thread"),
    metric="pp_tps", gpus=1, engine="llama.cpp", engine_version="PR 4766 branch (Jan 2024)")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "ttft_rows.csv")
    ids = [r["id"] for r in ROWS]
    assert len(ids) == len(set(ids)), "duplicate ids"
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(ROWS)
    print(f"{len(ROWS)} rows -> {out}")


if __name__ == "__main__":
    main()

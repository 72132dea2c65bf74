#!/usr/bin/env python3
"""Builds new_rows.csv: ledger rows in validation.csv's column order plus engine, engine_version.

Qwen rows are copied from ../measurements/{memory,speed}.csv by id (values, quotes and sources
unchanged); every other row is entered by hand below with its quote. Nothing is estimated.
Selection rules (decided before looking at any gpuplan output; gpuplan validate was never run):
  * Qwen2.5 doc (transformers, A100): catalog models, single-GPU runs only (device_map splits
    are sums over GPUs, not per GPU), prompt lengths 1 and 30720, precisions not yet in the ledger.
  * Qwen3 doc (transformers, H20): catalog models of 4B and up, prompts 1 and 30720, precisions
    not yet in the ledger.
"""
import csv, os, re

HERE = os.path.dirname(os.path.abspath(__file__))
MEAS = os.path.join(HERE, '..', 'measurements')
COLS = ("id,model,kind,precision,kv_precision,context_len,batch_size,concurrency,avg_tokens,"
        "lora_trainable_fraction,grad_checkpointing,flash_attention,settings,framework,gpu,measured,"
        "unit,measure,source,notes,expert_precision,metric,role,gpus,engine,engine_version,gpu_gib").split(',')

mem = {r['id']: r for r in csv.DictReader(open(os.path.join(MEAS, 'memory.csv')))}
spd = {r['id']: r for r in csv.DictReader(open(os.path.join(MEAS, 'speed.csv')))}
rows = []

def add(**kw):
    r = {c: '' for c in COLS}
    for k, v in kw.items():
        assert k in r, k
        r[k] = '' if v is None else str(v)
    rows.append(r)

def prec(p):
    p = p.lower()
    for k in ('bf16', 'fp8', 'int8', 'int4'):
        if p.startswith(k):
            return k
    raise ValueError(p)

def kvp(p):
    return 'fp16' if ('awq' in p.lower() or 'gptq' in p.lower()) else 'bf16'

def qlabel(p):
    return {'bf16': 'BF16', 'fp8': 'FP8', 'int8 (GPTQ)': 'GPTQ-Int8', 'int4 (GPTQ)': 'GPTQ-Int4',
            'int4 (AWQ)': 'AWQ'}.get(p, p)

CATALOG = {'Qwen2.5-0.5B-Instruct': 'Qwen2.5-0.5B', 'Qwen2.5-7B-Instruct': 'Qwen2.5-7B',
           'Qwen2.5-14B-Instruct': 'Qwen2.5-14B', 'Qwen2.5-32B-Instruct': 'Qwen2.5-32B',
           'Qwen2.5-72B-Instruct': 'Qwen2.5-72B'}
GI = 'prefill_chunk_tokens=0; inference_activation_gib=0'

# ---------------------------------------------------------------- Qwen2.5 memory (transformers, A100)
Q25_SRC = ('QwenLM/Qwen2.5 (now QwenLM/Qwen3) docs/source/benchmark/speed_benchmark.rst @2abc0f3; '
           'examples/speed-benchmark/speed_benchmark_transformers.py reports torch.cuda.max_memory_allocated / 1024^3')
for mid in ['qwen2.5-100m', 'qwen2.5-112m',
            'qwen2.5-137m', 'qwen2.5-138m', 'qwen2.5-139m', 'qwen2.5-140m',
            'qwen2.5-149m', 'qwen2.5-150m', 'qwen2.5-151m', 'qwen2.5-152m',
            'qwen2.5-177m', 'qwen2.5-178m', 'qwen2.5-179m', 'qwen2.5-180m',
            'qwen2.5-189m', 'qwen2.5-190m', 'qwen2.5-191m', 'qwen2.5-192m',
            'qwen2.5-219m', 'qwen2.5-220m']:
    m = mem[mid]
    assert m['gpus'] == '1'
    p, n = m['precision'], int(m['prompt_tokens'])
    ctx = n + 2048
    add(id='q25tf-' + CATALOG[m['model']].split('-')[1].lower() + '-' + qlabel(p).lower() + f'-in{n}',
        model=CATALOG[m['model']], kind='inference', precision=prec(p), kv_precision=kvp(p),
        context_len=ctx, concurrency=1, avg_tokens=ctx, grad_checkpointing='no', flash_attention='yes',
        settings='', framework='transformers 4.46.0 generate, torch 2.3.1, flash-attn 2.5.8, batch 1'
        + (', AutoGPTQ 0.7.1' if 'GPTQ' in p else '') + (', AutoAWQ 0.2.6' if 'AWQ' in p else ''),
        gpu='A100 80GB', measured=m['measured'], unit='GiB', measure='max_memory_allocated',
        source=Q25_SRC + f" ({m['model']}, {qlabel(p)}, input length {n})",
        notes=(f"{n:,}-token prompt + 2,048 generated = {ctx:,} tokens of KV; the table labels GiB as GB; "
               f"quote: {m['quote'].strip()}"
               + ('; 16-bit activations/KV (the AWQ/GPTQ checkpoints are float16)' if kvp(p) == 'fp16' else '')
               + ('; row note: ' + m['notes'].split("Row note: ")[1] if 'Row note' in m['notes'] else '')),
        metric='memory', gpus=1, engine='transformers', engine_version='4.46.0')

# ---------------------------------------------------------------- Qwen3 memory (transformers, H20)
Q3_SRC = 'QwenLM/Qwen3 docs/source/getting_started/speed_benchmark.md @7a2f61f'
Q3_MEASURE = ("allocated after generate: the table's 'GPU Memory (MB)', in MiB (same reading as the "
              "ledger's existing Qwen3 rows: it grows with the prompt by exactly the KV cache)")
for mid in ['qwen3-067m', 'qwen3-068m', 'qwen3-069m', 'qwen3-076m', 'qwen3-077m', 'qwen3-078m',
            'qwen3-098m', 'qwen3-099m', 'qwen3-107m', 'qwen3-108m',
            'qwen3-127m', 'qwen3-128m', 'qwen3-129m', 'qwen3-136m', 'qwen3-137m', 'qwen3-138m',
            'qwen3-158m', 'qwen3-159m', 'qwen3-167m', 'qwen3-168m',
            'qwen3-188m', 'qwen3-194m']:
    m = mem[mid]
    assert m['gpus'] == '1'
    p, n = m['precision'], int(m['prompt_tokens'])
    ctx = n + 2048
    add(id='q3tf-' + m['model'].lower().replace('qwen3-', '') + '-' + qlabel(p).lower() + f'-in{n}',
        model=m['model'], kind='inference', precision=prec(p), kv_precision=kvp(p), context_len=ctx,
        concurrency=1, avg_tokens=ctx, grad_checkpointing='no', flash_attention='yes', settings='',
        framework='transformers 4.51.3 generate, torch 2.6.0, flash-attn 2.7.4, batch 1'
        + (', AutoAWQ 0.2.9' if 'AWQ' in p else ''),
        gpu='H20', measured=m['measured'], unit='MiB', measure=Q3_MEASURE,
        source=Q3_SRC + f" ({m['model']} (Transformers) table, {qlabel(p)}, input length {n}), NVIDIA H20 96GB",
        notes=(f"{n:,}-token prompt + 2,048 generated; quote: {m['quote'].strip()}"
               + ('; checkpoint Qwen/' + m['model'] + '-FP8 (block-wise fp8 weights; embeddings/head 16-bit)' if prec(p) == 'fp8' else '')
               + ('; checkpoint Qwen/' + m['model'] + '-AWQ' if 'AWQ' in p else '')
               + ('; mixture of experts, all experts resident' if 'A3B' in m['model'] else '')),
        metric='memory', gpus=1, engine='transformers', engine_version='4.51.3')

# ---------------------------------------------------------------- torchtune README (2024-09, GiB)
TT_RD = ('pytorch/torchtune README.md "Memory and training speed" table (added 30b8519e8, 2024-09-24; '
         'still in bd2a0fc): batch size 2, no grad accumulation, dataset packed to 2048, torch.compile on')
TT_MEAS = ("torchtune peak memory per GPU (torch allocator; get_memory_stats divides by 1024^3 since "
           "d0b89e2, 2024-08-15; which of allocated/active/reserved the table shows is not stated)")
def tt(id_, model, kind, p, meas, gpu, gpus, engine, frac, settings, quote, notes):
    add(id=id_, model=model, kind=kind, precision=p, context_len=2048, batch_size=2,
        lora_trainable_fraction=frac, grad_checkpointing='yes', flash_attention='yes', settings=settings,
        framework='torchtune recipes (config llama3_1/*), bf16, packed 2048, compile', gpu=gpu, measured=meas,
        unit='GiB', measure=TT_MEAS, source=TT_RD, notes=f'quote: {quote}; {notes}', metric='memory',
        gpus=gpus, engine=engine, engine_version='torchtune @30b8519e8 (Sep 2024)')
FULL8 = ('8B_full_single_device: bitsandbytes PagedAdamW8bit, optimizer_in_bwd=True, activation '
         'checkpointing on, dtype bf16 (weights and grads bf16)')
tt('tt-readme-l31-8b-full-4090', 'Llama-3.1-8B', 'full_finetune', 'bf16', '18.9', 'RTX 4090', '', 'torchtune', '',
   'optimizer_bytes_per_param=2', '| Llama 3.1 8B | Full finetune | 1x 4090 | 18.9 GiB | 1650 |',
   FULL8 + '; 18.9 GiB is below bf16 weights + 8-bit states on the GPU (about 15 + 15 GiB): the paged optimizer is evicted to CPU under memory pressure and optimizer_in_bwd frees each gradient at once, neither of which gpuplan models')
tt('tt-readme-l31-8b-full-a6000', 'Llama-3.1-8B', 'full_finetune', 'bf16', '37.4', 'RTX A6000 (48 GB)', '', 'torchtune', '',
   'optimizer_bytes_per_param=2', '| Llama 3.1 8B | Full finetune | 1x A6000 | 37.4 GiB |  2579|',
   FULL8 + '; same recipe as the 4090 row; on a 48 GB card the paged 8-bit states stay resident (about 2x the 4090 figure); the table does not say whether other flags differed per card')
tt('tt-readme-l31-8b-lora-4090', 'Llama-3.1-8B', 'lora', 'bf16', '16.2', 'RTX 4090', '', 'torchtune', '0.000424',
   '', '| Llama 3.1 8B | LoRA | 1x 4090 |  16.2 GiB | 3083 |',
   '8B_lora_single_device: LoRA rank 8 on q_proj,v_proj (3,407,872 trained parameters = 0.042%), fused AdamW, activation checkpointing on')
tt('tt-readme-l31-8b-lora-a6000', 'Llama-3.1-8B', 'lora', 'bf16', '30.3', 'RTX A6000 (48 GB)', '', 'torchtune', '0.000424',
   '', '| Llama 3.1 8B | LoRA | 1x A6000 | 30.3 GiB  | 4699 |',
   'same config as the 4090 row; the README does not explain the 4090/A6000 gap (14 GiB); flags may differ per card (unstated)')
tt('tt-readme-l31-8b-qlora-4090', 'Llama-3.1-8B', 'qlora', 'int4', '7.4', 'RTX 4090', '', 'torchtune', '0.00261',
   '', '| Llama 3.1 8B | QLoRA | 1x 4090 | 7.4 GiB | 2413  |',
   '8B_qlora_single_device: NF4 base (torchao), LoRA rank 8 on q,k,v,o + MLP (20,971,520 trained = 0.26%), activation checkpointing on')
tt('tt-readme-l31-70b-full-8xa100', 'Llama-3.1-70B', 'full_finetune', 'bf16', '13.9', 'A100-80G', 8, 'fsdp', '',
   'optimizer_bytes_per_param=0', '| Llama 3.1 70B | Full finetune | 8x A100  | 13.9 GiB ** | 1568  |',
   "** = 'Uses CPU offload with fused optimizer': full_finetune_distributed, FSDP with fsdp_cpu_offload=True (parameters, gradients and AdamW states live in CPU memory; optimizer_bytes_per_param=0 only says no states on the GPU); A100 memory size not printed (80 GB assumed)")
tt('tt-readme-l31-70b-lora-8xa100', 'Llama-3.1-70B', 'lora', 'bf16', '27.6', 'A100-80G', 8, 'fsdp', '0.000631',
   '', '| Llama 3.1 70B | LoRA | 8x A100 | 27.6 GiB  | 3497  |',
   'lora_finetune_distributed, FSDP (frozen bf16 weights sharded over 8 GPUs), LoRA rank 16 on q,k,v (44,564,480 trained = 0.063%); A100 memory size not printed (80 GB assumed)')

# ---------------------------------------------------------------- torchtune tutorials (2024-04, GB = 1e9)
TT_TUT_UNIT = ('torchtune memory_stats_log at that commit divides by 1e9 (utils/memory.py @0914d5cfb, '
               'changed to 1024^3 only on 2024-08-15), so these are decimal GB, not GiB')
LORA_TUT = ('pytorch/torchtune docs/source/tutorials/lora_finetune.rst (table added ff594c231, 2024-04-15): '
            'config llama2/7B_lora_single_device, batch 2, alpaca_cleaned (max_seq_len 512), bf16, activation checkpointing on')
for id_, frac, what, val, q in [
        ('tt-tut-l2-7b-lora-qv-r8', '0.000622', 'Q and V only, rank 8 (4,194,304 trained)', '15.57', '* - Q and V only / - 8 / - 16 / - **15.57 GB**'),
        ('tt-tut-l2-7b-lora-all-r8', '0.003009', 'all linear layers + output projection, rank 8 (20,277,248 trained)', '15.87', '* - all layers / - 8 / - 16 / - 15.87 GB'),
        ('tt-tut-l2-7b-lora-qv-r64', '0.004978', 'Q and V only, rank 64 (33,554,432 trained)', '15.86', '* - Q and V only / - 64 / - 128 / - 15.86 GB'),
        ('tt-tut-l2-7b-lora-all-r64', '0.02407', 'all linear layers + output projection, rank 64 (162,217,984 trained)', '17.04', '* - all layers / - 64 / - 128 / - 17.04 GB')]:
    add(id=id_, model='Llama-2-7B', kind='lora', precision='bf16', context_len=512, batch_size=2,
        lora_trainable_fraction=frac, grad_checkpointing='yes', flash_attention='yes',
        framework='torchtune lora_finetune_single_device (April 2024), AdamW', gpu='not stated',
        measured=val, unit='GB',
        measure='max_memory_reserved (peak during training; same 15.57 as the qlora tutorial\'s "Peak memory reserved, training" for the identical run)',
        source=LORA_TUT, notes=f'LoRA on {what}; quote: {q}; {TT_TUT_UNIT}; sequences truncated to 512 tokens',
        metric='memory', engine='torchtune', engine_version='torchtune @ff594c231 (Apr 2024)')
QL_TUT = ('pytorch/torchtune docs/source/tutorials/qlora_finetune.rst (table added 0914d5cfb, 2024-04-15): '
          'config llama2/7B_qlora_single_device, batch 2, alpaca_cleaned (max_seq_len 512), bf16, activation checkpointing on')
add(id='tt-tut-l2-7b-qlora-train', model='Llama-2-7B', kind='qlora', precision='int4', context_len=512, batch_size=2,
    lora_trainable_fraction='0.002966', grad_checkpointing='yes', flash_attention='yes',
    framework='torchtune lora_finetune_single_device with NF4 base (April 2024), AdamW', gpu='not stated',
    measured='9.29', unit='GB', measure='max_memory_reserved (Peak memory reserved, training)', source=QL_TUT,
    notes=('QLoRA: NF4 base, LoRA rank 8 on q,k,v,o + MLP (19,988,480 trained); quote: QLoRA  9.13 GB  9.29 GB; '
           'the LoRA line of the same table (15.57 GB) is the run already entered as tt-tut-l2-7b-lora-qv-r8; ' + TT_TUT_UNIT),
    metric='memory', engine='torchtune', engine_version='torchtune @0914d5cfb (Apr 2024)')
add(id='tt-tut-l2-7b-lora-init-weights', model='Llama-2-7B', kind='lora', precision='bf16', context_len=512, batch_size=2,
    lora_trainable_fraction='0.000622', grad_checkpointing='yes', flash_attention='yes',
    framework='torchtune lora_finetune_single_device (April 2024)', gpu='not stated', measured='13.96', unit='GB',
    measure='max_memory_allocated after model init (bf16 weights + LoRA adapters, before any batch)', source=QL_TUT,
    notes=('quote: Memory Stats after model init:: GPU peak memory allocation: 13.96 GB / GPU peak memory reserved: 13.98 GB; '
           'LoRA rank 8 on q,v; ' + TT_TUT_UNIT),
    metric='weights', engine='torchtune', engine_version='torchtune @0914d5cfb (Apr 2024)')
L3_TUT = ('pytorch/torchtune docs/source/tutorials/llama3.rst (added 20747cd87, 2024-04-18)')
add(id='tt-tut-l3-8b-lora', model='Llama-3.1-8B', kind='lora', precision='bf16', context_len=512, batch_size=2,
    lora_trainable_fraction='0.000424', grad_checkpointing='yes', flash_attention='yes',
    framework='torchtune lora_finetune_single_device, config llama3/8B_lora_single_device (April 2024)',
    gpu='not stated (24 GB class)', measured='18.5', unit='GB',
    measure='observed peak memory (stat not named; torchtune logged allocated/reserved/active, all /1e9 at that commit)',
    source=L3_TUT,
    notes=('quote: In our experiments, we observed a peak memory usage of 18.5 GB; Meta-Llama-3-8B-Instruct has Llama-3.1-8B\'s architecture '
           '(only RoPE scaling and max length differ); LoRA rank 8 on q,v (3,407,872 trained), batch 2, alpaca_cleaned max_seq_len 512; ' + TT_TUT_UNIT),
    metric='memory', engine='torchtune', engine_version='torchtune @20747cd87 (Apr 2024)')
add(id='tt-tut-l3-8b-generate', model='Llama-3.1-8B', kind='inference', precision='bf16', kv_precision='bf16',
    context_len=8192, concurrency=1, avg_tokens=8192, grad_checkpointing='no', flash_attention='yes', settings=GI,
    framework='torchtune recipes/generate.py (no compile), bf16, KV cache set up for the model max_seq_len',
    gpu='not stated', measured='18.31', unit='GB', measure='max_memory_allocated (generate.py prints torch.cuda.max_memory_allocated() / 1e9)',
    source=L3_TUT + ' generation section',
    notes=('quote: [generate.py:139] Memory used: 18.31 GB; same log: 18.94 tokens/sec (GPU not named, so not a speed row); '
           'generate.py @20747cd87 calls model.setup_caches(max_batch_size=1) which allocates KV for llama3_8b max_seq_len 8192; '
           'prompt "Hello, my name is", max_new_tokens 300; Llama-3-8B fine-tune has Llama-3.1-8B\'s architecture'),
    metric='memory', engine='torchtune', engine_version='torchtune @20747cd87 (Apr 2024)')

# ---------------------------------------------------------------- LitGPT resource tables (Oct 2023, A100-SXM4-40GB, GB = 1e9)
LG_RT = ('Lightning-AI/litgpt tutorials/resource-tables.md (LitGPT commit 8641822, PyTorch 2.1.0, bitsandbytes 0.41.1, '
         'NVIDIA A100-SXM4-40GB, --precision bf16-true, Alpaca)')
LG_UNIT = 'finetune/lora.py and generate/base.py @8641822 print torch.cuda.max_memory_allocated() / 1e9 as "GB"'
def lg_lora(id_, model, p, mb, val, quote, gpus='', fsdp=False, frac='0.000622', extra=''):
    add(id=id_, model=model, kind='qlora' if p == 'int4' else 'lora', precision=p, context_len=1304, batch_size=mb,
        lora_trainable_fraction=frac, grad_checkpointing='yes' if fsdp else 'no', flash_attention='yes',
        framework=('litgpt finetune/lora.py' + (' on FSDP (Block wrap, activation checkpointing)' if fsdp else ' single GPU')
                   + ', bf16-true, LoRA r=8 alpha=16 on query and value, AdamW' + (' (bnb PagedAdamW)' if p == 'int4' else '')),
        gpu='A100-40G', measured=val, unit='GB', measure='max_memory_allocated (per GPU, rank 0)',
        source=LG_RT + (' "Finetuning with LoRA on Multiple GPUs"' if fsdp else ' "Finetuning with LoRA on 1 GPU"'),
        notes=(f'quote: {quote}; micro-batch {mb}, global batch 128 by accumulation; the first batch holds Alpaca\'s longest example '
               '(1,304 Llama 2 tokens, stated in the doc) and batches are padded to their longest, so the peak is at 1,304 tokens; '
               + LG_UNIT + extra),
        metric='memory', gpus=gpus, engine='fsdp' if fsdp else 'litgpt', engine_version='litgpt @8641822 (Oct 2023)')
lg_lora('lg-rt-l2-7b-lora-mb1', 'Llama-2-7B', 'bf16', 1, '21.30', '| 7 B   | Llama 2        | None         | 1               | 4,194,304            | 21.30 GB    | 2.36 min           |')
lg_lora('lg-rt-l2-7b-qlora-nf4-mb1', 'Llama-2-7B', 'int4', 1, '14.14', '| 7 B   | Llama 2        | bnb.nf4      | 1               | 4,194,304            | 14.14 GB    | 3.68 min           |', extra='; bnb.nf4 base weights')
lg_lora('lg-rt-l2-7b-qlora-nf4dq-mb1', 'Llama-2-7B', 'int4', 1, '13.84', '| 7 B   | Llama 2        | bnb.nf4-dq   | 1               | 4,194,304            | 13.84 GB    | 3.83 min           |', extra='; bnb.nf4-dq (double-quantized scales)')
lg_lora('lg-rt-l2-7b-lora-mb2', 'Llama-2-7B', 'bf16', 2, '29.07', '| 7 B   | Llama 2        | None         | 2               | 4,194,304            | 29.07 GB    | 2.52 min           |')
lg_lora('lg-rt-l2-13b-lora-mb1', 'Llama-2-13B', 'bf16', 1, '38.12', '| 13 B  | Llama 2        | None         | 1               | 6,553,600            | 38.12 GB    | 3.19 min           |', frac='0.000504')
lg_lora('lg-rt-l2-13b-qlora-nf4-mb1', 'Llama-2-13B', 'int4', 1, '23.14', '| 13 B  | Llama 2        | bnb.nf4      | 1               | 6,553,600            | 23.14 GB    | 6.38 min           |', frac='0.000504', extra='; bnb.nf4 base weights')
lg_lora('lg-rt-l2-13b-qlora-nf4dq-mb1', 'Llama-2-13B', 'int4', 1, '22.55', '| 13 B  | Llama 2        | bnb.nf4-dq   | 1               | 6,553,600            | 22.55 GB    | 6.55 min           |', frac='0.000504', extra='; bnb.nf4-dq')
lg_lora('lg-rt-l2-7b-lora-2gpu-mb1', 'Llama-2-7B', 'bf16', 1, '22.18', '| 7 B   | Llama 2        | None         | 1               | 4,194,304            | 2 x A100 | 22.18 GB    | 5.93 min           |', gpus=2, fsdp=True)
lg_lora('lg-rt-l2-7b-lora-2gpu-mb2', 'Llama-2-7B', 'bf16', 2, '22.47', '| 7 B   | Llama 2        | None         | 2               | 4,194,304            | 2 x A100 | 22.47 GB    | 6.48 min           |', gpus=2, fsdp=True)
lg_lora('lg-rt-l2-7b-lora-2gpu-mb4', 'Llama-2-7B', 'bf16', 4, '23.39', '| 7 B   | Llama 2        | None         | 4               | 4,194,304            | 2 x A100 | 23.39 GB    | 8.66 min           |', gpus=2, fsdp=True)
lg_lora('lg-rt-l2-13b-lora-4gpu-mb1', 'Llama-2-13B', 'bf16', 1, '35.57', '| 13 B  | Llama 2        | None         | 1               | 6,553,600            | 4 x A100 | 35.57 GB    | 10.25 min          |', gpus=4, fsdp=True, frac='0.000504')
LG_INF = ('litgpt generate/base.py @8641822 defaults (not restated in the table): prompt "Hello, my name is" (6 Llama 2 tokens), '
          'max_new_tokens 50, KV cache sized to prompt+50 = 56 tokens, no torch.compile')
for id_, model, p, val, tps, q, extra in [
        ('lg-rt-l2-7b-inf-bf16', 'Llama-2-7B', 'bf16', '13.52', '30.97', '| 7 B   | Llama 2        | None         | 1 x A100 | 13.52 GB                                  | 30.97     |', ''),
        ('lg-rt-l2-7b-inf-nf4', 'Llama-2-7B', 'int4', '4.57', '19.98', '| 7 B   | Llama 2        | bnb.nf4      | 1 x A100 | 4.57 GB                                   | 19.98     |', '; bnb.nf4 weights, bf16 compute'),
        ('lg-rt-l2-7b-inf-nf4dq', 'Llama-2-7B', 'int4', '4.26', '17.3', '| 7 B   | Llama 2        | bnb.nf4-dq   | 1 x A100 | 4.26 GB                                   | 17.3      |', '; bnb.nf4-dq weights'),
        ('lg-rt-l2-13b-inf-bf16', 'Llama-2-13B', 'bf16', '26.21', '24.82', '| 13 B  | Llama 2        | None         | 1 x A100 | 26.21 GB                                  | 24.82     |', ''),
        ('lg-rt-l2-13b-inf-nf4', 'Llama-2-13B', 'int4', '8.32', '16.73', '| 13 B  | Llama 2        | bnb.nf4      | 1 x A100 | 8.32 GB                                   | 16.73     |', '; bnb.nf4 weights'),
        ('lg-rt-l2-13b-inf-nf4dq', 'Llama-2-13B', 'int4', '7.72', '14.43', '| 13 B  | Llama 2        | bnb.nf4-dq   | 1 x A100 | 7.72 GB                                   | 14.43     |', '; bnb.nf4-dq weights'),
        ('lg-rt-l2-70b-inf-nf4dq', 'Llama-2-70B', 'int4', '37.21', '7.97', '| 70 B  | Llama 2        | bnb.nf4-dq   | 1 x A100 | 37.21 GB                                  | 7.97      |', '; bnb.nf4-dq weights (plain bnb.nf4 failed with CUBLAS_STATUS_NOT_INITIALIZED)')]:
    common = dict(model=model, kind='inference', precision=p, kv_precision='bf16', context_len=56, concurrency=1,
                  grad_checkpointing='no', flash_attention='yes',
                  framework='litgpt generate/base.py, bf16-true, batch 1, no compile' + (', bitsandbytes 0.41.1' if p == 'int4' else ''),
                  gpu='A100-40G', source=LG_RT + ' "Single-GPU Inference"', gpus=1, engine='litgpt',
                  engine_version='litgpt @8641822 (Oct 2023)')
    add(id=id_ + '-mem', avg_tokens=56, settings=GI, measured=val, unit='GB', measure='max_memory_allocated',
        notes=f'quote: {q}; {LG_INF}; {LG_UNIT}{extra}', metric='memory', **common)
    add(id=id_ + '-tps', avg_tokens=31, measured=tps, unit='tokens/s',
        measure='generated tokens / wall time of generate() (50 tokens after a ~6-token prompt, prefill included)',
        notes=f'quote: {q}; {LG_INF}; eager PyTorch, so launch-bound rather than bandwidth-bound{extra}',
        metric='decode_tps', **common)

# ---------------------------------------------------------------- LitGPT config hub (2024-04, A10G, GB = 1e9)
LG_CH = ('Lightning-AI/litgpt config_hub/finetune/README.md table (added 43c44323, 2024-04-24; Lightning Studio automated '
         'benchmarks): bf16-true, Alpaca2k, max seq length 512; the README says "All runs are single-GPU experiments"')
for id_, model, hf, p, mb, val, frac, q in [
        ('lg-ch-l2-7b-lora', 'Llama-2-7B', 'llama-2-7b', 'bf16', 2, '19.77', '0.002489', '| llama-2-7b/lora.yaml | llama-2-7b | 4 | 512 | 2 | 1xA10G | 32.82 min | $1.0 | 19.77 GB |'),
        ('lg-ch-l2-7b-qlora', 'Llama-2-7B', 'llama-2-7b', 'int4', 2, '13.68', '0.002489', '| llama-2-7b/qlora.yaml | llama-2-7b | 4 | 512 | 2 | 1xA10G | 45.67 min | $1.4 | 13.68 GB |'),
        ('lg-ch-l3-8b-lora', 'Llama-3.1-8B', 'llama-3-8b', 'bf16', 1, '19.73', '0.001698', '| llama-3-8b/lora.yaml | llama-3-8b | 2 | 512 | 1 | 1xA10G | 14.79 min | $0.4 | 19.73 GB |'),
        ('lg-ch-l3-8b-qlora', 'Llama-3.1-8B', 'llama-3-8b', 'int4', 2, '17.41', '0.001698', '| llama-3-8b/qlora.yaml | llama-3-8b | 2 | 512 | 2 | 1xA10G | 22.24 min | $0.7 | 17.41 GB |'),
        ('lg-ch-m7b-v01-lora', 'Mistral-7B', 'mistral-7b', 'bf16', 2, '20.66', '0.001883', '| mistral-7b/lora.yaml | mistral-7b | 4 | 512 | 2 | 1xA10G | 31.01 min | $0.9 | 20.66 GB |'),
        ('lg-ch-m7b-v01-qlora', 'Mistral-7B', 'mistral-7b', 'int4', 2, '14.29', '0.001883', '| mistral-7b/qlora.yaml | mistral-7b | 4 | 512 | 2 | 1xA10G | 44.75 min | $1.3 | 14.29 GB |'),
        ('lg-ch-m7b-v02-lora', 'Mistral-7B', 'mistral-7b-v0.2', 'bf16', 2, '20.66', '0.001883', '| mistral-7b-v0.2/lora.yaml | mistral-7b-v0.2 | 4 | 512 | 2 | 1xA10G | 31.00 min | $0.9 | 20.66 GB |'),
        ('lg-ch-m7b-v02-qlora', 'Mistral-7B', 'mistral-7b-v0.2', 'int4', 2, '14.29', '0.001883', '| mistral-7b-v0.2/qlora.yaml | mistral-7b-v0.2 | 4 | 512 | 2 | 1xA10G | 44.75 min | $1.3 | 14.29 GB |')]:
    arch = {'llama-3-8b': '; Meta-Llama-3-8B has Llama-3.1-8B\'s architecture',
            'mistral-7b-v0.2': '; Mistral-7B-v0.2 has Mistral-7B-v0.1\'s dimensions (no sliding window, rope theta 1e6); irrelevant at 512 tokens',
            'mistral-7b': '; Mistral-7B-v0.1 (4,096 sliding window, irrelevant at 512 tokens)'}.get(hf, '')
    add(id=id_, model=model, kind='qlora' if p == 'int4' else 'lora', precision=p, context_len=512, batch_size=mb,
        lora_trainable_fraction=frac, grad_checkpointing='no', flash_attention='yes',
        framework=f'litgpt finetune lora, config_hub/finetune/{hf}/{"q" if p == "int4" else ""}lora.yaml: LoRA r=32 alpha=16 on query+value, AdamW'
        + (', bnb.nf4 base (PagedAdamW)' if p == 'int4' else ''),
        gpu='A10G (AWS, 24 GB)', measured=val, unit='GB', measure='max_memory_allocated (peak over the run)',
        source=LG_CH, notes=(f'quote (whitespace trimmed): {q}; micro-batch {mb}, global batch 8; litgpt/finetune/lora.py @43c44323 prints '
                              'torch.cuda.max_memory_allocated() / 1e9 as "GB"; single GPU, no activation checkpointing; the table\'s '
                              '4xA10G duplicates of these runs report the same peak and are left out' + arch),
        metric='memory', engine='litgpt', engine_version='litgpt @43c44323 (Apr 2024)')

# ---------------------------------------------------------------- vLLM / SGLang weight lines (per GPU)
V0W = 'vLLM V0 "Loading model weights took X GB" is bytes / 2^30 (GiB despite the label)'
def w(id_, model, p, val, src, quote, notes, gpu='not stated', gpus='', ver='', ctx='', ex='', engine='vllm', unit='GiB', measure=None):
    add(id=id_, model=model, kind='inference', precision=p, kv_precision='bf16', context_len=ctx, concurrency=1,
        grad_checkpointing='no', flash_attention='yes', framework=f'{engine} {ver}'.strip(), gpu=gpu, measured=val,
        unit=unit, measure=measure or 'vLLM weights loaded per GPU (allocator delta while loading)',
        source=src, notes=f'quote: {quote}; {notes}', expert_precision=ex, metric='weights', gpus=gpus,
        engine=engine, engine_version=ver)
w('vllm-l31-8b-3090-weights', 'Llama-3.1-8B', 'bf16', '14.9888', 'vllm-project/vllm issue 10517, comment by kaspersiminski 2024-12-02',
  'Loading model weights took 14.9888 GB', V0W + '; meta-llama/Llama-3.1-8B-Instruct, TP 1, max_model_len 20000', gpu='RTX 3090', ver='V0 (late 2024; version not in the excerpt)', ctx=20000)
w('vllm-l3-8b-h100-weights', 'Llama-3.1-8B', 'bf16', '14.96', 'vllm-project/vllm PR 10511, comment by youkaichao 2024-12-14 (vllm serve meta-llama/Meta-Llama-3-8B)',
  'model weights take   14.96GiB', 'Meta-Llama-3-8B has Llama-3.1-8B\'s architecture; TP 1; total_gpu_memory 79.22GiB (an H100-80G per the same author\'s PR 12126 log with the same total)',
  gpu='H100', ver='V0 main (Dec 2024)', ctx=8192)
w('vllm-l3-8b-h100-tp2-weights', 'Llama-3.1-8B', 'bf16', '7.48', 'vllm-project/vllm PR 10511, comment by youkaichao 2024-12-14 (vllm serve meta-llama/Meta-Llama-3-8B -tp 2)',
  'model weights take   7.48GiB', 'per GPU at tensor parallel 2 (same log: non_torch_memory 3.58GiB per GPU vs 1.79 at TP 1); total_gpu_memory 79.22GiB (H100-80G, see previous row)',
  gpu='H100', gpus=2, ver='V0 main (Dec 2024)', ctx=8192)
w('vllm-l31-70b-w8a8-weights', 'Llama-3.1-70B', 'int8', '67.7229', 'vllm-project/vllm PR 12569 log',
  'INFO 01-30 03:18:12 gpu_model_runner.py:848] Loading model weights took 67.7229 GB',
  V0W.replace('V0', 'V1 (Jan 2025, same format)') + '; neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8 (int8 weights and activations; embeddings and head 16-bit), TP 1, --max-model-len 2048 --gpu-memory-utilization 0.98; GPU not named in the excerpt',
  ver='V1 (PR 12569, Jan 2025)', ctx=2048)
w('vllm-r1d-14b-2x4090-weights', 'DeepSeek-R1-Distill-Qwen-14B', 'bf16', '13.9476', 'vllm-project/vllm issue 13061',
  '(VllmWorkerProcess pid=1786) INFO 02-11 07:40:45 model_runner.py:1115] Loading model weights took 13.9476 GB',
  V0W + '; per GPU at --tensor_parallel_size 2, --gpu_memory_utilization=0.98, max_model_len 131072 (model default)',
  gpu='RTX 4090', gpus=2, ver='V0 (Feb 2025)', ctx=131072)
w('vllm-gptoss120b-h100-0101-weights', 'gpt-oss-120b', 'bf16', '65.9651', 'vllm-project/vllm issue 23278',
  '(EngineCore_0 pid=5839) INFO 08-20 18:04:10 [gpu_model_runner.py:2007] Model loading took 65.9651 GiB and 12.799889 seconds',
  'MXFP4 experts run weight-only through Marlin on H100 (no native FP4); other tensors bf16; TP 1; same model as the ledger\'s 0.14.1 row (64.38 GiB)',
  gpu='H100', ver='0.10.1', ctx=131072, ex='mxfp4')
w('vllm-gptoss20b-3090-weights', 'gpt-oss-20b', 'bf16', '12.8848', 'vllm-project/vllm issue 22331, comment by GilbertKrantz 2025-08-11',
  '(EngineCore_0 pid=114) INFO 08-10 12:14:42 [gpu_model_runner.py:1962] Model loading took 12.8848 GiB and 3.081864 seconds',
  'openai/gpt-oss-20b on one RTX 3090 with docker image vllm/vllm-openai:gptoss, VLLM_ATTENTION_BACKEND=TRITON_ATTN_VLLM_V1; MXFP4 experts, other tensors bf16; no other flags (max_model_len default 131072)',
  gpu='RTX 3090', ver='vllm/vllm-openai:gptoss image (Aug 2025, ~0.10.1)', ctx=131072, ex='mxfp4')
w('vllm-q25-7b-bnb4-4060-weights', 'Qwen2.5-7B', 'int4', '5.2032', 'vllm-project/vllm issue 13882 (sancelot)',
  'INFO 02-26 09:54:02 model_runner.py:1115] Loading model weights took 5.2032 GB',
  V0W + '; Qwen2.5-7B-Instruct-bnb-4bit (bitsandbytes NF4; embeddings and head stay 16-bit), TP 1, max_seq_len 4096, gpu_memory_utilization 0.70',
  gpu='RTX 4060 (8 GB; total_gpu_memory 8.00GiB)', ver='v0.7.3.dev233+gad5a35c2 (V0)', ctx=4096)
w('vllm-q3-30b-a3b-w4a16-3090-weights', 'Qwen3-30B-A3B', 'int4', '15.6841', 'vllm-project/vllm issue 17327, comment by bedovyy 2025-05-07',
  'INFO 05-07 22:17:23 [model_runner.py:1140] Model loading took 15.6841 GiB and 17.586636 seconds',
  'nytopop/Qwen3-30B-A3B.w4a16 (int4 weights, 16-bit activations; mixture of experts, all experts resident), VLLM_USE_V1=0, TP 1, gpu-memory-utilization 0.9, max-num-seqs 8',
  gpu='RTX 3090', ver='V0 engine (May 2025)', ctx=40960)
w('sglang-q3-30b-a3b-amd-weights', 'Qwen3-30B-A3B', 'bf16', '56.98', 'sgl-project/sglang PR 18263 (fxmarty-amd) log',
  '[2026-07-15 13:14:53] Load weight end. elapsed=19.09 s, type=Qwen3MoeForCausalLM, avail mem=230.20 GB, mem usage=56.98 GB.',
  'SGLang prints free memory via torch.cuda.mem_get_info / 2^30 (get_available_gpu_memory), so "GB" is GiB; Qwen/Qwen3-30B-A3B-Instruct(-2507) bf16 (Qwen3-30B-A3B architecture), TP 1, ROCm/AITER; GPU not named (about 287 GiB total per the log, an MI355X-class card)',
  gpu='AMD Instinct (not named)', ver='main (Jul 2026)', engine='sglang', unit='GiB', measure="SGLang 'Load weight end' mem usage (weights per GPU)", ctx='')

# ---------------------------------------------------------------- llama.cpp / ollama
add(id='ollama-gptoss120b-weights-buffer', model='gpt-oss-120b', kind='inference', precision='bf16', kv_precision='fp16',
    context_len=131072, concurrency=2, grad_checkpointing='no', flash_attention='yes',
    framework='ollama 0.30.x (llama.cpp llama-server), ROCm', gpu='AMD Radeon 8060S (unified memory)', measured='61223', unit='MiB',
    measure='llama.cpp memory breakdown: model buffer on the GPU device', source='ollama/ollama issue 16416 (common_memory_breakdown_print)',
    notes=('quote: | - ROCm0 (8060S Graphics) | 115200 = 120459 + (71326 = 61223 + 9306 + 796) + -76586 |; '
           'model = 61223 MiB of the self 71326; GGUF types f32 433, bf16 146, mxfp4 108 (file 60.87 GiB, the ledger\'s gguf row)'),
    expert_precision='mxfp4', metric='weights', gpus=1, engine='llama.cpp', engine_version='ollama 0.30.x')
add(id='ollama-gptoss120b-self-total', model='gpt-oss-120b', kind='inference', precision='bf16', kv_precision='fp16',
    context_len=131072, concurrency=2, avg_tokens=131072, grad_checkpointing='no', flash_attention='yes',
    framework='ollama 0.30.x (llama.cpp llama-server), ROCm, flash attention, 2 sequences (n_ctx 262144, n_ctx_seq 131072)',
    gpu='AMD Radeon 8060S (unified memory)', measured='71326', unit='MiB',
    measure='llama.cpp memory breakdown: self = model + context + compute buffers (exact buffer sizes, no CUDA/ROCm context)',
    source='ollama/ollama issue 16416 (common_memory_breakdown_print)',
    notes=('quote: (71326 = 61223 + 9306 + 796); context 9306 MiB = 9216 MiB global-layer KV (131072 cells x 18 layers x 2 seqs) + 90 MiB '
           'sliding-window KV (1280 cells) per ollama issue 16480 (same user); compute buffers 796 MiB at n_ubatch 1024'),
    expert_precision='mxfp4', metric='memory', gpus=1, engine='llama.cpp', engine_version='ollama 0.30.x')
add(id='llamacpp-gptoss120b-q8-gguf-file', model='gpt-oss-120b', kind='inference', precision='int8', kv_precision='fp16',
    context_len=32000, concurrency=1, grad_checkpointing='no', flash_attention='yes',
    framework='llama.cpp llama-server b6132, lmstudio-community gpt-oss-120b-MXFP4 GGUF', gpu='not a GPU measurement',
    measured='59.02', unit='GiB', measure="llama.cpp 'file size' of the GGUF weights (what the checkpoint stores)",
    source='ggml-org/llama.cpp issue 15253', notes=('quote: print_info: file type = MXFP4 MoE / print_info: file size = 59.02 GiB (4.34 BPW); '
    'GGUF types f32 433, q8_0 146, mxfp4 108: experts MXFP4, other tensors q8_0 (1.0625 B/value with scales; gpuplan counts int8 as 1 B)'),
    expert_precision='mxfp4', metric='weights', gpus=1, engine='llama.cpp', engine_version='b6132')
add(id='iklcpp-dsr1-q8-gguf-file', model='DeepSeek-R1', kind='inference', precision='int8', kv_precision='fp16',
    context_len=4096, concurrency=1, grad_checkpointing='no', flash_attention='yes',
    framework='ik_llama.cpp llama-bench, DeepSeek R1 Q8_0 GGUF', gpu='not a GPU measurement', measured='307.20', unit='GiB',
    measure='llama-bench model size column (GGUF weights)', source='ikawrakow/ik_llama.cpp issue 263 (davidsyoung, "Benchmarking DeepSeek R1 - 16x3090")',
    notes=('quote: | deepseek2 671B Q8_0 | 307.20 GiB | 672.05 B | CUDA | 63 | ...; q8_0 stores 32 values + a 2-byte scale (1.0625 B/value); '
           'mixture of experts with latent attention'),
    metric='weights', gpus=1, engine='llama.cpp', engine_version='ik_llama.cpp (Mar 2025)')

# ---------------------------------------------------------------- kv_pool and max_concurrency (new metrics)
def pool(id_, model, p, val, ctx, util, gpu, total, src, quote, notes, gpus='', ver='', engine='vllm', metric='kv_pool', unit='GiB', kv='bf16', ex='', measure=None, key='gpu_memory_utilization', gib=''):
    add(id=id_, model=model, kind='inference', precision=p, kv_precision=kv, context_len=ctx, concurrency='',
        grad_checkpointing='no', flash_attention='yes', settings=f'{key}={util}', framework=f'{engine} {ver}'.strip(),
        gpu=gpu, measured=val, unit=unit,
        measure=measure or ("vLLM 'Available KV cache memory' (V1) / 'kv_cache_size' (V0 memory profiling), per GPU" if metric == 'kv_pool'
                             else "vLLM 'Maximum concurrency for N tokens per request: X x' (KV tokens / max_model_len)"),
        source=src, notes=f'total GPU memory: {total}; quote: {quote}; {notes}', expert_precision=ex, metric=metric,
        gpus=gpus, engine=engine, engine_version=ver, gpu_gib=gib)
S10517 = 'vllm-project/vllm issue 10517, comment by kaspersiminski 2024-12-02'
pool('vllm-l31-8b-3090-20k-kvpool', 'Llama-3.1-8B', 'bf16', '3.81', 20000, '0.90', 'RTX 3090', 'total_gpu_memory=23.58GiB', S10517,
     'Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB peak_torch_memory=17.06GiB memory_usage_post_profile=15.35GiB non_torch_memory=0.35GiB kv_cache_size=3.81GiB gpu_memory_utilization=0.90',
     'meta-llama/Llama-3.1-8B-Instruct, TP 1, --max-model-len 20000; weights 14.9888 GiB; GPU blocks 1952', ver='V0 (late 2024)', gib='23.58')
pool('vllm-l31-8b-3090-29k-kvpool', 'Llama-3.1-8B', 'bf16', '2.89', 29000, '0.90', 'RTX 3090', 'total_gpu_memory=23.58GiB', S10517,
     'Memory profiling results: total_gpu_memory=23.58GiB ... peak_torch_memory=17.98GiB ... non_torch_memory=0.35GiB kv_cache_size=2.89GiB gpu_memory_utilization=0.90',
     'same server at --max-model-len 29000: the profiled activation peak grows with max_model_len and the pool shrinks; GPU blocks 1478; the engine then refused to start (23648 tokens < 29000)', ver='V0 (late 2024)', gib='23.58')
pool('vllm-l31-8b-3090-20k-maxconc', 'Llama-3.1-8B', 'bf16', '1.56', 20000, '0.90', 'RTX 3090', 'total_gpu_memory=23.58GiB', S10517,
     'Maximum concurrency for 20000 tokens per request: 1.56x', '1952 blocks x 16 tokens / 20000', ver='V0 (late 2024)', metric='max_concurrency', unit='requests', gib='23.58')
pool('vllm-l31-8b-3090-29k-maxconc', 'Llama-3.1-8B', 'bf16', '0.82', 29000, '0.90', 'RTX 3090', 'total_gpu_memory=23.58GiB', S10517,
     'Maximum concurrency for 29000 tokens per request: 0.82x', '1478 blocks x 16 = 23648 tokens / 29000', ver='V0 (late 2024)', metric='max_concurrency', unit='requests', gib='23.58')
pool('vllm-l3-8b-h100-kvpool', 'Llama-3.1-8B', 'bf16', '53.29', 8192, '0.90', 'H100', 'total_gpu_memory 79.22GiB (H100-80G: the same author\'s PR 12126 log names "H100-80G" with this total)',
     'vllm-project/vllm PR 10511, comment by youkaichao 2024-12-14 (vllm serve meta-llama/Meta-Llama-3-8B)',
     'available_kv_cache_memory    53.29GiB',
     'Meta-Llama-3-8B (Llama-3.1-8B architecture), TP 1, defaults (max_model_len 8192 from the model config, not printed); same log: model weights 14.96GiB, non_torch_memory 1.79GiB, PyTorch activation peak 1.26GiB, can use 71.29GiB',
     ver='V0 main (Dec 2024)', gib='79.22')
pool('vllm-gptoss120b-h100-0101-kvpool', 'gpt-oss-120b', 'bf16', '-2.14', 131072, '0.9', 'H100', 'NVIDIA H100 80GB (issue text)', 'vllm-project/vllm issue 23278',
     '(EngineCore_0 pid=5839) INFO 08-20 18:04:22 [gpu_worker.py:276] Available KV cache memory: -2.14 GiB',
     'negative: weights (65.9651 GiB) + profiled activations exceed 0.9 x the card; default gpu_memory_utilization; max_num_batched_tokens 8192; the engine then failed', ver='0.10.1', ex='mxfp4')
pool('vllm-gptoss120b-h100-095-kvpool', 'gpt-oss-120b', 'bf16', '1.71', 131072, '0.95', 'H100', 'NVIDIA H100 80GB HBM3 (issue text)', 'vllm-project/vllm issue 27508, comment 2025-10-31',
     '(EngineCore_DP0 pid=6880) INFO 10-31 15:07:49 [gpu_worker.py:298] Available KV cache memory: 1.71 GiB',
     'vllm serve openai/gpt-oss-120b --gpu-memory-utilization 0.95 --max-num-batched-tokens 1024; max_model_len 131072 (default); too small for one 131072-token request', ver='V1 (Oct 2025; version not in the excerpt)', ex='mxfp4')
pool('vllm-q3-235b-fp8-4xh100-kvpool', 'Qwen3-235B-A22B', 'fp8', '8.11', 40960, '0.9', 'H100', '4 x H100 (80 GB class; exact totals not printed)', 'vllm-project/vllm issue 21348',
     'Available KV cache memory: 8.11 GiB / GPU KV cache size: 178,880 tokens',
     'Qwen/Qwen3-235B-A22B-FP8, --tensor-parallel-size 4 with an LMCache kv-transfer-config, other settings default (gpu_memory_utilization 0.9; max_model_len not set, so the model\'s 40960)', gpus=4, ver='V1 (Jul 2025)')
pool('sglang-q3-235b-fp8-4xh100-kvpool', 'Qwen3-235B-A22B', 'fp8', '16.46', 40960, '0.93', 'H100', '4 x H100 (80 GB class)', 'vllm-project/vllm issue 21348 (SGLang comparison in the description)',
     'KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB',
     '--mem-fraction-static 0.93 (SGLang\'s share, recorded as gpu_memory_utilization); conversion: 16.46 = the printed K size 8.23 + V size 8.23 (SGLang\'s memory_pool divides by GB = 1024^3, so GiB), per GPU; --tp 4 --mem-fraction-static 0.93; context length default',
     gpus=4, ver='mid-2025 (not stated)', engine='sglang', key='gpu_memory_utilization',
     measure="SGLang 'KV Cache is allocated' K size + V size, per GPU")
pool('vllm-q25-7b-bnb4-4060-kvpool', 'Qwen2.5-7B', 'int4', '-1.05', 4096, '0.70', 'RTX 4060 (8 GB)', 'total_gpu_memory (8.00GiB)', 'vllm-project/vllm issue 13882 (sancelot)',
     'model weights take 5.20GiB; non_torch_memory takes 0.03GiB; PyTorch activation peak memory takes 1.42GiB; the rest of the memory reserved for KV Cache is -1.05GiB.',
     'Qwen2.5-7B-Instruct-bnb-4bit, TP 1, max_seq_len 4096; the instance can use 8.00GiB x 0.70 = 5.60GiB', ver='v0.7.3.dev233+gad5a35c2 (V0)', kv='bf16', gib='8.00')
pool('vllm-q25-7b-bnb4-4060-maxconc', 'Qwen2.5-7B', 'int4', '0.00', 4096, '0.70', 'RTX 4060 (8 GB)', 'total_gpu_memory (8.00GiB)', 'vllm-project/vllm issue 13882 (sancelot)',
     'INFO 02-26 09:54:05 executor_base.py:116] Maximum concurrency for 4096 tokens per request: 0.00x', '# cuda blocks: 0 in the same log', ver='v0.7.3.dev233+gad5a35c2 (V0)', metric='max_concurrency', unit='requests', gib='8.00')
pool('vllm-r1d-14b-2x4090-kvpool', 'DeepSeek-R1-Distill-Qwen-14B', 'bf16', '8.69', 131072, '0.98', 'RTX 4090', '24 GB cards; the reporter computes 23.08 GiB usable per card (0.98 x total)', 'vllm-project/vllm issue 13061 (stg609)',
     'Why the rest of the memory reserved for KV Cache is only 8.69GiB? (the reporter paraphrasing the log line)',
     'per GPU at TP 2; weights 13.9476 GiB, non_torch 0.25GiB, activation peak 0.19GiB per the reporter; the error line says the KV cache holds 81536 tokens, which at 98,304 B per token per GPU is 7.46 GiB, so the two figures disagree (paraphrase or block rounding: uncertain)',
     gpus=2, ver='V0 (Feb 2025)')
pool('vllm-q3-30b-a3b-w4a16-3090-kvpool', 'Qwen3-30B-A3B', 'int4', '5.34', 40960, '0.90', 'RTX 3090', 'total_gpu_memory (23.56GiB)', 'vllm-project/vllm issue 17327, comment by bedovyy 2025-05-07',
     'model weights take 15.68GiB; non_torch_memory takes 0.06GiB; PyTorch activation peak memory takes 0.12GiB; the rest of the memory reserved for KV Cache is 5.34GiB.',
     'nytopop/Qwen3-30B-A3B.w4a16, VLLM_USE_V1=0, --gpu-memory-utilization 0.9 --max-num-seqs 8; max_model_len not set (model default 40960, not printed); the log also warns about fp8 attention scales, so the KV dtype is uncertain (the pool size in GiB does not depend on it)', ver='V0 engine (May 2025)', gib='23.56')

# ---------------------------------------------------------------- speed: Qwen2.5 vLLM 0.6.3 (A100 80GB)
Q25V_SRC = 'QwenLM/Qwen2.5 (now QwenLM/Qwen3) docs/source/benchmark/speed_benchmark.rst @2abc0f3, vLLM tables'
for sid in ['qwen2.5-017s', 'qwen2.5-113s', 'qwen2.5-114s', 'qwen2.5-115s', 'qwen2.5-116s',
            'qwen2.5-153s', 'qwen2.5-154s', 'qwen2.5-155s', 'qwen2.5-156s',
            'qwen2.5-193s', 'qwen2.5-194s', 'qwen2.5-195s', 'qwen2.5-196s',
            'qwen2.5-233s', 'qwen2.5-234s', 'qwen2.5-235s', 'qwen2.5-236s', 'qwen2.5-237s', 'qwen2.5-238s']:
    s = spd[sid]
    p, tp = s['precision'], s['tp']
    note = ''
    if 'Row note' in s['notes']:
        rn = s['notes'].split("Row note: '")[1].split("'")[0]
        if '72B' in s['model']:   # the 72B table has its own footnotes (rst lines 677-682 @2abc0f3)
            note = {'Setting 1': 'Setting 1 = gpu_memory_utilization 0.98, max_model_len 4096, enforce_eager=True (no CUDA graphs)',
                    'Setting 2': 'Setting 2 = gpu_memory_utilization 1.0, max_model_len 4096, enforce_eager=True (no CUDA graphs)',
                    'Default': 'Default = gpu_memory_utilization 0.9, max_model_len 32768, enforce_eager=False'}[rn]
        else:                     # 32B table footnotes (rst lines 573-575)
            note = {'setting1': 'Setting 1 = gpu_memory_utilization 1.0, max_model_len 32768, enforce_eager=True (no CUDA graphs)'}[rn]
    else:
        note = 'Default = gpu_memory_utilization 0.9, max_model_len 32768, enforce_eager=False'
    add(id='q25vllm-' + CATALOG[s['model']].split('-')[1].lower() + '-' + qlabel(p).lower() + f'-tp{tp}-decode',
        model=CATALOG[s['model']], kind='inference', precision=prec(p), kv_precision=kvp(p), context_len=2049,
        concurrency=1, avg_tokens=1025, grad_checkpointing='no', flash_attention='yes',
        framework='vLLM 0.6.3 offline generate, batch 1', gpu='A100-80G', measured=s['value'], unit='tokens/s',
        measure='decode tokens/s of one request: 2,048 generated / wall time of the whole call after a 1-token prompt',
        source=Q25V_SRC + f" ({s['model']}, {qlabel(p)}, {tp} GPU, input length 1), NVIDIA A100 80GB",
        notes=f"quote: {s['quote'].strip()}; {note}" + ('; tensor parallel' if tp != '1' else ''),
        metric='decode_tps', gpus=tp, engine='vllm', engine_version='0.6.3')

# ---------------------------------------------------------------- speed: Qwen3 SGLang and transformers (H20)
for sid in ['qwen3-002s', 'qwen3-003s', 'qwen3-050s', 'qwen3-051s', 'qwen3-080s', 'qwen3-081s',
            'qwen3-110s', 'qwen3-111s', 'qwen3-140s', 'qwen3-141s', 'qwen3-170s', 'qwen3-171s',
            'qwen3-013s', 'qwen3-067s', 'qwen3-097s', 'qwen3-127s', 'qwen3-157s', 'qwen3-187s']:
    s = spd[sid]
    p = s['precision']
    sg = s['framework'].startswith('SGLang')
    extra = ''
    if 'GPTQ' in p and 'A3B' in s['model']:
        extra = '; row note GPTQ-Marlin (MoE GPTQ kernel path)'
    add(id=('q3sgl-' if sg else 'q3tf-') + s['model'].lower().replace('qwen3-', '') + '-' + qlabel(p).lower().replace('gptq-int4', 'gptq-int4') + '-decode',
        model=s['model'], kind='inference', precision=prec(p), kv_precision=kvp(p), context_len=2049, concurrency=1,
        avg_tokens=1025, grad_checkpointing='no', flash_attention='yes',
        framework=('SGLang 0.4.6.post1 (mem_fraction_static 0.85, context_length 140000, enable_mixed_chunk), batch 1' if sg
                   else 'transformers 4.51.3 generate, torch 2.6.0, flash-attn 2.7.4, batch 1'),
        gpu='H20', measured=s['value'], unit='tokens/s',
        measure='decode tokens/s of one request (1-token prompt, 2,048 generated: (prompt + generated) / time)',
        source=Q3_SRC + f" ({s['model']} ({'SGLang' if sg else 'Transformers'}) table, {qlabel(p)}, input length 1), NVIDIA H20 96GB",
        notes=f"quote: {s['quote'].strip()}" + extra + ('; mixture of experts' if 'A3B' in s['model'] else ''),
        metric='decode_tps', gpus=1, engine='sglang' if sg else 'transformers',
        engine_version='0.4.6.post1' if sg else '4.51.3')

# ---------------------------------------------------------------- speed: ik_llama.cpp DeepSeek R1 on 16x3090
add(id='iklcpp-dsr1-q8-16x3090-tg256', model='DeepSeek-R1', kind='inference', precision='int8', kv_precision='fp16',
    context_len=256, concurrency=1, avg_tokens=128, grad_checkpointing='no', flash_attention='yes',
    framework='ik_llama.cpp llama-bench, all 63 layers on 16 GPUs (layer split, not tensor parallel), fa 1, mla 2, fmoe 1',
    gpu='RTX 3090', measured='17.83', unit='tokens/s', measure='llama-bench tg256: decode tokens/s of one sequence from an empty cache',
    source='ikawrakow/ik_llama.cpp issue 263 (davidsyoung, "Benchmarking DeepSeek R1 - 16x3090")',
    notes=('quote: | deepseek2 671B Q8_0 | 307.20 GiB | 672.05 B | CUDA | 63 | 4096 | 1024 | 1 | 2 | 64 | 1 | tg256 | 17.83 ± 0.03 |; '
           'column meanings after ngl (n_batch, n_ubatch, fa, mla, amb, fmoe) read from ik_llama.cpp llama-bench defaults, header not in the excerpt; '
           'layers are split across the 16 cards and run one after another, so gpus=16 is not tensor parallelism'),
    metric='decode_tps', gpus=16, engine='llama.cpp', engine_version='ik_llama.cpp (Mar 2025)')

# ---------------------------------------------------------------- aggregate throughput and TTFT
add(id='vllm-q3-32b-h100nvl-sharegpt-agg', model='Qwen3-32B', kind='inference', precision='bf16', kv_precision='bf16',
    context_len=32000, concurrency=32, grad_checkpointing='no', flash_attention='yes',
    framework='vLLM 0.8.5.post1 serve + benchmark_serving.py, ShareGPT 1000 prompts, request rate inf, --max-num-seqs 32, chunked prefill, prefix caching',
    gpu='H100 NVL (94 GB, 3.9 TB/s; not the catalog H100 SXM)', measured='653.61', unit='tokens/s',
    measure='output tokens/s over the whole benchmark (batch bounded by max-num-seqs 32)', source='vllm-project/vllm issue 17788',
    notes='quote: Output token throughput (tok/s): 653.61; same run: Total Token throughput 1362.23 tok/s, Mean TTFT 146809.12 ms (queueing); context_len holds --max-model-len 32000 (ShareGPT requests are much shorter)',
    metric='aggregate_tps', gpus=1, engine='vllm', engine_version='0.8.5.post1')
for id_, tp, val, when in [('vllm-l31-70b-a100-tp2-before', 2, '1054.01', 'before PR 17885 (max_num_batched_tokens default of the time)'),
                           ('vllm-l31-70b-a100-tp2-after', 2, '1438.49', 'after PR 17885 (smaller max_num_batched_tokens default on A100)'),
                           ('vllm-l31-70b-a100-tp4-before', 4, '3053.03', 'before PR 17885'),
                           ('vllm-l31-70b-a100-tp4-after', 4, '2994.03', 'after PR 17885')]:
    add(id=id_ + '-agg', model='Llama-3.1-70B', kind='inference', precision='bf16', kv_precision='bf16', context_len=10000,
        concurrency=400, grad_checkpointing='no', flash_attention='yes', settings='gpu_memory_utilization=0.95',
        framework=f'vLLM serve -tp {tp} --max-model-len 10000 --gpu-memory-utilization 0.95 --swap-space 0; benchmark_serving.py ShareGPT 400 prompts, request rate inf',
        gpu='A100-80G', measured=val, unit='tokens/s',
        measure='"Token throughput" of benchmark_serving (the PR does not say output-only or total)',
        source='vllm-project/vllm PR 17885 (KuntaiDu, 2025-05-09)',
        notes=(f'quote: | Llama 70B, TP={tp} | ... {val} ...; {when}; concurrency holds the 400 prompts sent at once (the running batch is bounded '
               'by max_num_seqs and KV capacity); A100 memory size not printed: 80 GB inferred since 141 GB of bf16 weights run at TP 2'),
        metric='aggregate_tps', gpus=tp, engine='vllm', engine_version='main (May 2025, ~0.8.5)')
add(id='vllm-dsr1-l20-pp3tp8-c16-agg', model='DeepSeek-R1', kind='inference', precision='fp8', kv_precision='bf16',
    context_len=5120, concurrency=16, grad_checkpointing='no', flash_attention='yes',
    framework='vLLM pipeline-parallel 3 x tensor-parallel 8 (24 GPUs), default (untuned) block-fp8 and MoE kernel configs; benchmark_serving random 4096 in / 1024 out, --max-concurrency 16, 16 prompts, ignore-eos',
    gpu='L20', measured='131.35', unit='tokens/s', measure='output tokens/s at 16 concurrent requests',
    source='vllm-project/vllm PR 15322 (DefTruth, vipshop), "Before" benchmark',
    notes='quote: Output token throughput (tok/s): 131.35 / Total Token throughput (tok/s): 656.75 / Mean TPOT (ms): 112.99; gpus=24 is pp3 x tp8, not tp24',
    metric='aggregate_tps', gpus=24, engine='vllm', engine_version='main (Mar 2025, ~0.8.x)')
add(id='vllm-dsr1-l20-pp3tp8-c16-ttft', model='DeepSeek-R1', kind='inference', precision='fp8', kv_precision='bf16',
    context_len=4096, concurrency=16, grad_checkpointing='no', flash_attention='yes',
    framework='vLLM pipeline-parallel 3 x tensor-parallel 8 (24 GPUs); benchmark_serving random 4096 in / 1024 out, --max-concurrency 16, 16 prompts',
    gpu='L20', measured='8.74986', unit='s', measure='mean time to first token with 16 requests arriving together (includes queueing behind each other\'s prefill)',
    source='vllm-project/vllm PR 15322 (DefTruth, vipshop), "Before" benchmark',
    notes='quote: Mean TTFT (ms): 8749.86 (converted to s by /1000); Median 9009.79 ms, P99 13242.30 ms',
    metric='ttft_s', gpus=24, engine='vllm', engine_version='main (Mar 2025, ~0.8.x)')
for sid in ['tt-a100-q3moe-128-128-ttft', 'tt-a100-q3moe-128-1024-ttft', 'tt-a100-q3moe-1024-128-ttft',
            'tt-a100-q3moe-2048-128-ttft', 'tt-a100-q3moe-3072-128-ttft', 'tt-a100-q3moe-4096-128-ttft']:
    s = spd[sid]
    isl = int(s['id'].split('-')[3])
    add(id='tt-gpuref-' + sid.replace('tt-a100-', ''), model='Qwen3-30B-A3B', kind='inference', precision='bf16',
        kv_precision='bf16', context_len=isl, concurrency=1, grad_checkpointing='no', flash_attention='yes',
        framework="tenstorrent tt-inference-server 'gpu' reference workflow (vLLM serving benchmark; version, precision and TP not stated)",
        gpu='A100 (memory size not stated)', measured=s['value'], unit='s', measure='mean time to first token, 1 concurrent request',
        source=s['source'], notes=f"quote: {s['quote'].strip()}; printed in ms, converted to s by /1000; precision bf16 is presumed, not stated; weak provenance",
        metric='ttft_s', gpus='', engine='vllm', engine_version='not stated')

# ---------------------------------------------------------------- write
ids = [r['id'] for r in rows]
assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
with open(os.path.join(HERE, 'new_rows.csv'), 'w', newline='') as f:
    wr = csv.DictWriter(f, fieldnames=COLS, quoting=csv.QUOTE_MINIMAL)
    wr.writeheader()
    for r in rows:
        r['notes'] = re.sub(r'\s{2,}', ' ', r['notes'])
    wr.writerows(rows)
print(len(rows), 'rows')

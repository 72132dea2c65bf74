#!/usr/bin/env python3
"""Format check of new_rows.csv against validate.rs's parsing rules and the gpuplan catalog (no estimates)."""
import csv, subprocess, sys, os
HERE = os.path.dirname(os.path.abspath(__file__))
GP = '/work/main/target/release/gpuplan'
models = {l.split()[0] for l in subprocess.run([GP, 'catalog', 'models'], capture_output=True, text=True).stdout.splitlines()[1:] if l.strip()}
gpus = set()
for l in subprocess.run([GP, 'catalog', 'gpus'], capture_output=True, text=True).stdout.splitlines()[1:]:
    if l.strip() and not l.startswith('Prices'):
        gpus.add(l.split('  ')[0].strip())
# the ledger's column order as the brief gave it (validation.csv at the time); the working tree's
# header has since gained engine and gpu_gib, which new_rows.csv also carries
hdr = ('id,model,kind,precision,kv_precision,context_len,batch_size,concurrency,avg_tokens,lora_trainable_fraction,'
       'grad_checkpointing,flash_attention,settings,framework,gpu,measured,unit,measure,source,notes,expert_precision,'
       'metric,role,gpus').split(',')
rows = list(csv.DictReader(open(os.path.join(HERE, 'new_rows.csv'))))
cols = list(rows[0].keys())
assert cols[:len(hdr)] == hdr and cols[len(hdr):] == ['engine', 'engine_version', 'gpu_gib'], cols
KINDS = {'inference', 'lora', 'qlora', 'full_finetune', 'pretrain'}
PREC = {'fp32', 'bf16', 'fp16', 'fp8', 'int8', 'int4', 'mxfp4', 'nvfp4'}
MEM = {'memory', 'weights', 'kv_cache', 'request_kv'}
ENG = {'transformers', 'vllm', 'sglang', 'llama.cpp', 'trt-llm', 'hf-peft', 'unsloth', 'litgpt', 'torchtune',
       'deepspeed-zero2', 'deepspeed-zero3', 'fsdp'}
UNITS = {**{m: {'GB', 'GiB', 'MiB'} for m in MEM}, 'kv_pool': {'GiB'}, 'max_concurrency': {'requests'},
         'decode_tps': {'tokens/s'}, 'aggregate_tps': {'tokens/s'}, 'ttft_s': {'s'}}
bad = 0
for r in rows:
    e = []
    if r['model'] not in models: e.append('model not in catalog')
    if r['kind'] not in KINDS: e.append('kind')
    if r['precision'] not in PREC: e.append('precision')
    if r['kv_precision'] and r['kv_precision'] not in PREC: e.append('kv_precision')
    if r['expert_precision'] and r['expert_precision'] not in PREC: e.append('expert_precision')
    if r['metric'] not in UNITS: e.append('metric')
    elif r['unit'] not in UNITS[r['metric']]: e.append('unit')
    for c in ('context_len', 'batch_size', 'concurrency', 'avg_tokens', 'lora_trainable_fraction', 'measured', 'gpus'):
        if r[c].strip():
            try: float(r[c])
            except ValueError: e.append(c)
    if not r['measured'].strip(): e.append('no measurement')
    if r['gpus'].strip() and (float(r['gpus']) < 1 or float(r['gpus']) % 1): e.append('gpus')
    if r['metric'] == 'decode_tps' and r['gpu'] not in gpus: e.append('decode_tps gpu not in catalog: ' + r['gpu'])
    for pair in [p for p in r['settings'].split(';') if p.strip()]:
        if '=' not in pair: e.append('settings')
    if r['grad_checkpointing'] not in ('yes', 'no') or r['flash_attention'] not in ('yes', 'no'): e.append('yes/no')
    if r['engine'] not in ENG: e.append('engine')
    if r['role']: e.append('role must be blank')
    if not r['source'] or not r['notes']: e.append('source/notes')
    if e:
        bad += 1
        print(r['id'], e)
print(len(rows), 'rows,', bad, 'with problems')

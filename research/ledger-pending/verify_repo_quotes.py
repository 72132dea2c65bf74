#!/usr/bin/env python3
"""Checks that the quotes of rows taken from fetched repositories (torchtune, litgpt, Qwen) occur in the
file at the cited commit, whitespace collapsed. Issue/PR quotes cannot be re-read here (search excerpts)."""
import csv, re, subprocess, os
HERE = os.path.dirname(os.path.abspath(__file__))
def show(repo, rev, path):
    return subprocess.run(['git', '-C', f'/work/.mirror/{repo}/repo', 'show', f'{rev}:{path}'],
                          capture_output=True, text=True).stdout
ws = lambda t: re.sub(r'\s+', ' ', t).strip()
FILES = {
  'torchtune README': ('pytorch+torchtune', '30b8519e8', 'README.md'),
  'lora_finetune.rst': ('pytorch+torchtune', 'ff594c231', 'docs/source/tutorials/lora_finetune.rst'),
  'qlora_finetune.rst': ('pytorch+torchtune', '0914d5cfb', 'docs/source/tutorials/qlora_finetune.rst'),
  'llama3.rst': ('pytorch+torchtune', '20747cd87', 'docs/source/tutorials/llama3.rst'),
  'resource-tables.md': ('Lightning-AI+litgpt', 'HEAD', 'tutorials/resource-tables.md'),
  'config_hub/finetune/README.md': ('Lightning-AI+litgpt', '43c44323', 'config_hub/finetune/README.md'),
  'speed_benchmark.rst': ('QwenLM+Qwen3', '2abc0f3', 'docs/source/benchmark/speed_benchmark.rst'),
  'speed_benchmark.md': ('QwenLM+Qwen3', '7a2f61f', 'docs/source/getting_started/speed_benchmark.md'),
}
ok = bad = 0
for r in csv.DictReader(open(os.path.join(HERE, 'new_rows.csv'))):
    key = next((k for k in FILES if ('/' + k) in r['source'] or (' ' + k) in r['source'] or k == 'torchtune README' and k in r['source']), None)
    if not key or 'quote' not in r['notes']:
        continue
    text = ws(show(*FILES[key]))
    if key in ('speed_benchmark.md', 'resource-tables.md', 'config_hub/finetune/README.md', 'speed_benchmark.rst'):
        text_cells = ws(text.replace('|', ' | '))
    quote = r['notes'].split('quote')[1].split(': ', 1)[1].split('; ')[0]
    quote = re.sub(r'^\[[^\]]*\]\s*', '', quote)  # Qwen quotes start with a [table] tag
    # a quote may join several lines with ' / '
    parts = [p for p in re.split(r' / | \.\.\. ', quote) if p.strip()]
    good = True
    for p in parts:
        p = ws(p)
        tokens = [t for t in re.split(r'\s*\|\s*', p) if t and t not in ('*', '-', '**')]
        # cell-wise check: every cell value appears in order on one line of the file
        if ws(p) in text:
            continue
        lines = [ws(l) for l in show(*FILES[key]).splitlines()]
        if any(all(t.strip('*- ') in l for t in tokens) for l in lines):
            continue
        good = False
        print('NOT FOUND', r['id'], '|', p[:120])
    ok += good; bad += not good
print(ok, 'quotes found,', bad, 'not found')

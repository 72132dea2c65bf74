#!/usr/bin/env bash
# Fuzzes the workbook reader and the formula compiler/evaluator with cargo-fuzz (libFuzzer).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     # default 600
#
# Needs `cargo install cargo-fuzz`. cargo-fuzz wants a nightly compiler for its sanitizer flags;
# on a stable toolchain RUSTC_BOOTSTRAP=1 lets the same compiler accept them.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
export RUSTC_BOOTSTRAP=1
mkdir -p fuzz/corpus/read_workbook fuzz/corpus/formula
cp samples/*.xlsx tests/fixtures/*.xlsx tests/fixtures/bad/* fuzz/corpus/read_workbook/ 2>/dev/null || true
awk -F'\t' 'NR > 2 && !/^#/ { print $2 > ("fuzz/corpus/formula/default-" NR) }' templates/formulas.tsv
for target in read_workbook formula; do
  echo "== $target for ${secs}s"
  cargo fuzz run "$target" "fuzz/corpus/$target" -- -max_total_time="$secs" -rss_limit_mb=2048 -max_len=262144 2>&1 | tail -n 25
done

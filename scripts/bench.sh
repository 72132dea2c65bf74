#!/usr/bin/env bash
# Times the release binary end to end and per phase, with peak memory, on the seed 001 sample,
# 1,000 × 100, 10,000 × 100 and 99,990 × 20 (2 million candidates) generated workbooks; then the I/O floors (openpyxl reading the
# 1,000 × 100 input; calamine reading it plus rust_xlsxwriter writing the same output); then
# `gpuplan usage` on a month of 1-second samples on 8 GPUs (scripts/bench-usage.sh); the fleet's
# packing of 200 workloads × 30 offers (examples/fleet_bench.rs).
#
#   scripts/bench.sh            # needs GNU time (/usr/bin/time) and, for the floor, openpyxl
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin gpuplan --example gen --example io_floor --example fleet_bench
B=target/release/gpuplan
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
target/release/examples/gen --workloads 1000 --offers 100 -o "$W/w1k.xlsx" >/dev/null
target/release/examples/gen --workloads 10000 --offers 100 -o "$W/w10k.xlsx" >/dev/null
target/release/examples/gen --workloads 99990 --offers 20 -o "$W/w100k.xlsx" >/dev/null
cp samples/team.xlsx "$W/team.xlsx"

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
printf '%-22s %8s %8s %8s %8s %8s %8s %9s %9s\n' size read compile evaluate plan write total wall_s peak_MB
# The 2 M-candidate case also writes the JSON (every workload's plan streamed); it runs once.
for case in "team:seed 001 sample" "w1k:1,000 × 100" "w10k:10,000 × 100" "w100k:99,990 × 20 +json"; do
  f=${case%%:*}; label=${case#*:}
  best=""
  runs="1 2 3"; extra=()
  if [ "$f" = w100k ]; then runs=1; extra=(--json "$W/$f.json"); fi
  for run in $runs; do
    /usr/bin/time -v "$B" calc "$W/$f.xlsx" -o "$W/$f.plan.xlsx" --force -q --timings "${extra[@]}" 2>"$W/log" >/dev/null
    t=$(grep '^timings: read' "$W/log")
    wall=$(grep 'Elapsed (wall clock)' "$W/log" | awk '{print $NF}' | awk -F: '{print $(NF-1)*60+$NF}')
    peak=$(grep 'Maximum resident' "$W/log" | awk '{print int($NF/1024)}')
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < ${best%% *})}"; then best="$wall $peak $t"; fi
  done
  set -- $best
  wall=$1; peak=$2; shift 2
  ph() { echo "$*" | grep -o "$1 [0-9.]*s" | awk '{print $2}'; }
  printf '%-22s %8s %8s %8s %8s %8s %8s %9s %9s\n' "$label" "$(ph read "$*")" "$(ph compile "$*")" "$(ph evaluate "$*")" "$(ph plan "$*")" "$(ph write "$*")" "$(echo "$*" | grep -o 'total [0-9.]*s' | awk '{print $2}')" "$wall" "$peak"
done

echo
target/release/examples/io_floor "$W/w1k.xlsx" "$W/w1k.plan.xlsx"
if python3 -c 'import openpyxl' 2>/dev/null; then
  python3 - "$W/w1k.xlsx" <<'PY'
import sys, time, openpyxl
t = time.perf_counter()
wb = openpyxl.load_workbook(sys.argv[1], read_only=True, data_only=True)
n = sum(1 for ws in wb for row in ws.iter_rows(values_only=True) for v in row if v is not None)
print(f"openpyxl: read {n} cells of the 1,000 × 100 input in {time.perf_counter() - t:.3f}s")
PY
fi

# Sensitivity (#19): a 50-workload × 30-offer workbook with a Ranges sheet, 1,000 and 10,000
# samples, each with the margin, the trial reserve and one workload's concurrency, and:
# "ops": ops labour (portfolio formulas only); "storage": the storage price, which every
# candidate reads but adds alike to a workload's candidates (only the chosen row re-runs);
# "prices": every offer's on-demand price (every candidate's costs re-run, the choice redone).
if python3 -c 'import openpyxl' 2>/dev/null; then
  target/release/examples/gen --workloads 50 --offers 30 -o "$W/w50.xlsx" >/dev/null
  python3 - "$W/w50.xlsx" "$W" <<'PY'
import sys, openpyxl
src, out = sys.argv[1], sys.argv[2]
for name, rows in [
    ("ops", [("safety_margin", 0.1, 0.3, 0.2), ("trial_reserve", 0.05, 0.2, None),
             ("ops_hourly_rate", 100, 300, None)]),
    ("storage", [("safety_margin", 0.1, 0.3, 0.2), ("trial_reserve", 0.05, 0.2, None),
                 ("storage_price_gb_month", 0.3, 0.8, None)]),
    ("prices", [("safety_margin", 0.1, 0.3, 0.2), ("trial_reserve", 0.05, 0.2, None),
                ("gpu:*.on_demand_hourly", 1, 10, None)]),
]:
    wb = openpyxl.load_workbook(src)
    first = wb["Workloads"].cell(2, 1).value
    ws = wb.create_sheet("Ranges")
    ws.append(["key", "low", "high", "likely"])
    for r in rows:
        ws.append(list(r))
    ws.append([f"{first}.concurrency", 1, 8, None])
    wb.save(f"{out}/w50-{name}.xlsx")
PY
  for f in ops storage prices; do
    for n in 1000 10000; do
      /usr/bin/time -v "$B" calc "$W/w50-$f.xlsx" -o "$W/w50-$f.plan.xlsx" --force -q --samples "$n" --timings 2>"$W/log" >/dev/null
      s=$(grep -o 'sensitivity [0-9.]*s' "$W/log" | awk '{print $2}')
      wall=$(grep 'Elapsed (wall clock)' "$W/log" | awk '{print $NF}' | awk -F: '{print $(NF-1)*60+$NF}')
      echo "sensitivity 50 × 30, ranges with $f: $n samples: sampling $s, wall ${wall}s"
    done
  done
fi

# The fleet (#33): 200 workloads over 30 GPU offers packed (target: 2 s on 2 cores), and the
# solver's gap to the best proven bound; 1,000 workloads to show where the time limit bites.
echo
target/release/examples/fleet_bench --workloads 200 --offers 30
target/release/examples/fleet_bench --workloads 1000 --offers 30

echo
scripts/bench-usage.sh

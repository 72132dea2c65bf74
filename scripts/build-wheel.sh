#!/usr/bin/env bash
# Builds the gpuplan wheel (the release binary inside; see pyproject.toml) into target/wheels and
# prints its path on stdout. maturin is installed from PyPI into a venv under target/ the first
# time; its messages go to stderr.
#
#   wheel=$(scripts/build-wheel.sh) && pip install "$wheel"
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/maturin-venv
if [ ! -x "$venv/bin/maturin" ]; then
  python3 -m venv "$venv"
  # The range of pyproject.toml's [build-system].
  "$venv/bin/python" -m pip install -q "maturin>=1.5,<2" >&2
fi
rm -f target/wheels/gpuplan-*.whl
# Cargo's release profile and target/, as `cargo build --release` uses them.
"$venv/bin/maturin" build --release --out target/wheels >&2
wheels=(target/wheels/gpuplan-*.whl)
[ -f "${wheels[0]}" ] || { echo "error: maturin wrote no wheel in target/wheels" >&2; exit 2; }
echo "$PWD/${wheels[0]}"

#!/usr/bin/env bash
# Installs a gpuplan wheel into a fresh virtual environment and, from an empty folder, runs the
# `gpuplan` it put on PATH: --version, init, calc on the template and on the team sample. Nothing
# of the source tree is beside it, so the binary must carry its templates and tables itself.
#
#   scripts/check-wheel.sh target/wheels/gpuplan-0.1.0-py3-none-manylinux_2_34_x86_64.whl
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
wheel=$(realpath "${1:?usage: scripts/check-wheel.sh WHEEL}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

step() { printf '\n$ %s\n' "$*"; "$@"; }

python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "$wheel"
# As an activated venv would: its bin first on PATH.
export PATH="$work/venv/bin:$PATH"
found=$(command -v gpuplan)
if [ "$found" != "$work/venv/bin/gpuplan" ]; then
  echo "error: gpuplan on PATH is $found, not the wheel's" >&2
  exit 1
fi
echo "installed $(basename "$wheel") into a fresh venv: $found"

mkdir "$work/empty"
cd "$work/empty"

# The version, and the commit when the wheel was built from a git checkout of this repository.
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)
expected="gpuplan $version"
if top=$(git -C "$repo" rev-parse --show-toplevel 2>/dev/null) && [ "$top" = "$repo" ]; then
  expected="$expected ($(git -C "$repo" rev-parse --short HEAD))"
fi
printf '\n$ gpuplan --version\n'
got=$(gpuplan --version)
echo "$got"
if [ "$got" != "$expected" ]; then
  echo "error: expected \`$expected\`" >&2
  exit 1
fi

step gpuplan init budget.xlsx
step gpuplan calc budget.xlsx
cp "$repo/samples/team.xlsx" .
step gpuplan calc team.xlsx --json team.json
printf '\n$ gpuplan validate | tail -n 2\n'
gpuplan validate | tail -n 2
for f in budget.xlsx budget.plan.xlsx team.plan.xlsx team.json; do
  if [ ! -s "$f" ]; then
    echo "error: $f was not written" >&2
    exit 1
  fi
done
printf '\nok: the wheel'"'"'s gpuplan planned the template and the team sample from an empty folder:\n'
ls -l

#!/usr/bin/env bash
# Builds the page that plans in the browser (#48) into target/web/: index.html, app.js and
# pkg/ (the engine as WebAssembly, with wasm-bindgen's loader). On a clean Debian 12 machine it
# installs what it needs first, as .ci/run does (run it as root, or as a user with sudo):
#
#   - Debian's rustc-web 1.96 with std's source (rust-web-src) and lld: rustup's toolchains here
#     have no wasm32 std, so std is built from source (-Zbuild-std; RUSTC_BOOTSTRAP allows the
#     flag on this stable compiler);
#   - wasm-bindgen-cli of the very version web/engine pins (Cargo.lock), in target/web-tools.
#
# Open the page with `python3 -m http.server -d target/web` and http://localhost:8000/; publish it
# by copying target/web/ to any static host (serve .wasm as application/wasm).
# Prints the folder; the size of the WebAssembly, raw and gzipped, goes to stderr.
# `scripts/build-web.sh --tools` only installs the tools (scripts/test-deps.sh calls it).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi

# The Debian compiler for the web. rust-web-src must come in the same command as rustc-web: the
# archive holds more than one version, and std's source must match the compiler.
if ! [ -x /usr/bin/rustc ] || ! [ -x /usr/bin/rust-lld ] ||
  ! [ -d "/usr/src/rustc-$(/usr/bin/rustc --version | awk '{print $2}')/library/std" ]; then
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    rustc-web cargo-web rust-web-src rust-web-llvm lld-22 >/dev/null
fi
version=$(/usr/bin/rustc --version | awk '{print $2}')
if ! [ -d "/usr/src/rustc-$version/library/std" ]; then
  echo "build-web.sh: std's source for rustc $version is missing (/usr/src/rustc-$version)" >&2
  exit 1
fi

# wasm-bindgen-cli, the version Cargo.lock holds for web/engine (they must be equal). Not
# --locked: the tool's own lockfile pins a crate the registry here lacks.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
tools=target/web-tools
bindgen="$tools/bin/wasm-bindgen"
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version | awk '{print $2}')" != "$bindgen_version" ]; then
  cargo install -q wasm-bindgen-cli --version "$bindgen_version" --root "$tools" >&2
fi

if [ "${1:-}" = "--tools" ]; then
  exit 0
fi

# The engine: the library without its command line (web/engine depends on it with no default
# features), std built for wasm32 with aborting panics. Its own target folder: the native build's
# is left alone. PATH is left alone too (/usr/bin first would change python3).
RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 /usr/bin/cargo build -q --locked \
  --profile web --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort \
  -p gpuplan-web --target-dir target/wasm >&2
wasm=target/wasm/wasm32-unknown-unknown/web/gpuplan_web.wasm

out=target/web
rm -rf "$out.tmp"
mkdir -p "$out.tmp/pkg"
"$bindgen" --target web --no-typescript --out-dir "$out.tmp/pkg" "$wasm"
cp web/index.html web/app.js "$out.tmp/"
rm -rf "$out"
mv "$out.tmp" "$out"

raw=$(stat -c %s "$out/pkg/gpuplan_web_bg.wasm")
gz=$(gzip -9c "$out/pkg/gpuplan_web_bg.wasm" | wc -c)
echo "build-web.sh: the WebAssembly is $((raw / 1000)) kB, $((gz / 1000)) kB gzipped" >&2
echo "$out"

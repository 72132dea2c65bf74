#!/usr/bin/env bash
# Installs what the tests marked #[ignore = "needs …"] use, on a Debian or Ubuntu machine with
# Rust, cargo, Python 3 and apt: `cargo test -- --include-ignored` then runs every test.
# Run it as root, or as a user with sudo. .ci/run calls it first.
#
# LibreOffice renders and recalculates the plan workbooks (a workbook it cannot open is broken),
# Gnumeric's ssconvert recalculates them too, poppler-utils' pdftotext reads back the PDF
# LibreOffice prints of them, openpyxl reads them back and edits them,
# openxml-audit validates the templates and plans against the OOXML schemas, prlimit bounds memory
# and file size, mkfifo and kill make FIFOs and send signals, zsh and fish check the completion
# scripts, groff the manual pages, and python3-venv builds and checks the wheel. Chromium,
# ChromeDriver and selenium drive the page in the browser (tests/web.rs), which
# scripts/build-web.sh builds with the tools its --tools installs (Debian's rustc-web, std's
# source, lld and wasm-bindgen-cli).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "test-deps.sh: run it as root or install sudo (apt-get installs the packages)" >&2
    exit 1
  fi
fi

need=()
command -v soffice >/dev/null 2>&1 || need+=(libreoffice-calc-nogui)
command -v ssconvert >/dev/null 2>&1 || need+=(gnumeric)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
command -v prlimit >/dev/null 2>&1 || need+=(util-linux)
command -v kill >/dev/null 2>&1 || need+=(procps)
command -v mkfifo >/dev/null 2>&1 || need+=(coreutils)
command -v zsh >/dev/null 2>&1 || need+=(zsh)
command -v fish >/dev/null 2>&1 || need+=(fish)
command -v groff >/dev/null 2>&1 || need+=(groff-base)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
# Debian's python3 needs python3-venv for a virtual environment and python3-pip for pip.
probe=$(mktemp -d)
python3 -m venv "$probe/venv" >/dev/null 2>&1 || need+=(python3-venv)
rm -rf "$probe"
python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
if [ ${#need[@]} -gt 0 ]; then
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The tests run `python3`, so the packages go where it finds them: the user's site-packages.
# Where the system Python is externally managed (PEP 668: Debian 12, Ubuntu 23.04 and later), pip
# refuses that unless told --break-system-packages; a user install touches no system file.
pip_install() {
  python3 -m pip install -q --user "$@" 2>/dev/null ||
    python3 -m pip install -q --user --break-system-packages "$@"
}
if ! python3 -c "import openpyxl" >/dev/null 2>&1; then
  pip_install openpyxl
fi
if ! python3 -c "import importlib.metadata as m; assert m.version('openxml-audit') == '0.8.0'" >/dev/null 2>&1; then
  pip_install openxml-audit==0.8.0
fi
if ! python3 -c "import selenium" >/dev/null 2>&1; then
  pip_install "selenium>=4.20,<5"
fi

# The page in the browser's toolchain (tests/web.rs builds the page with scripts/build-web.sh).
"$(dirname "$0")/build-web.sh" --tools

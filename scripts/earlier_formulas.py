#!/usr/bin/env python3
"""Write templates/formulas.earlier.tsv: every expression a default formula has had in this
repository's history (git log of templates/formulas.tsv) that is not its expression today.

`gpuplan calc` reads a workbook's Formulas sheet as data: a row that names a default formula
with another expression replaces it. A workbook written by an earlier `gpuplan init` holds that
version's defaults, which are not the user's edits; calc recognises them by this file and plans
with today's default instead, saying so. The file's first line records a SHA-256 of today's
defaults (name and expression, whitespace collapsed): a test fails when a default changes and
this script was not run again.

Usage: python3 scripts/earlier_formulas.py   (from the repository root; needs its git history)
"""
import hashlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TSV = "templates/formulas.tsv"
OUT = ROOT / "templates" / "formulas.earlier.tsv"


def pairs(text):
    """(name, expression) of each formula row, whitespace collapsed, in file order."""
    out = []
    for line in text.split("\n"):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 2 or cols[0] == "name":
            continue
        out.append((cols[0], " ".join(cols[1].split())))
    return out


def digest(current):
    h = hashlib.sha256()
    for name, expr in current:
        h.update(f"{name}\t{expr}\n".encode())
    return h.hexdigest()


def main():
    shallow = subprocess.run(
        ["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    if shallow != "false":
        sys.exit("earlier_formulas.py needs the whole git history (a shallow or missing clone)")
    revs = subprocess.run(
        ["git", "log", "--format=%H", "--", TSV], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    current = pairs((ROOT / TSV).read_text())
    now = set(current)
    seen = set()
    earlier = []
    for rev in reversed(revs):
        text = subprocess.run(
            ["git", "show", f"{rev}:{TSV}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        for p in pairs(text):
            if p not in now and p not in seen:
                seen.add(p)
                earlier.append(p)
    lines = [
        f"# sha256 of today's defaults: {digest(current)}",
        "# Expressions default formulas had in earlier versions of gpuplan (scripts/earlier_formulas.py"
        " writes this file from git history; do not edit). A Formulas row that names the formula"
        " with one of these is an earlier gpuplan's default, not a user's edit.",
        "name\texpression",
    ]
    lines += [f"{n}\t{e}" for n, e in sorted(earlier)]
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(earlier)} earlier expressions of {len({n for n, _ in earlier})} formulas")


if __name__ == "__main__":
    main()

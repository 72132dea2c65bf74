#!/usr/bin/env python3
"""Write templates/formulas.earlier.tsv: every expression a default formula has had in this
repository's history (git log of templates/formulas.tsv) that is not its expression today; and
templates/assumptions.earlier.tsv: every value a default assumption has had that is not its value
today (git log of templates/assumptions.tsv).

`gpuplan calc` reads a workbook's Formulas sheet as data: a row that names a default formula
with another expression replaces it. A workbook written by an earlier `gpuplan init` holds that
version's defaults, which are not the user's edits; calc recognises them by this file and plans
with today's default instead, saying so. The same holds for the Assumptions sheet: a value that
was a default once and is not today (layer_activation_bytes 34 before it was counted from the
model's shape) is the template's, and calc plans with today's. Each file's first line records a
SHA-256 of today's defaults (name and expression, whitespace collapsed; key and value): a test
fails when a default changes and this script was not run again.

Usage: python3 scripts/earlier_formulas.py   (from the repository root; needs its git history)
"""
import hashlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TSV = "templates/formulas.tsv"
OUT = ROOT / "templates" / "formulas.earlier.tsv"
ASSUMPTIONS_TSV = "templates/assumptions.tsv"
ASSUMPTIONS_OUT = ROOT / "templates" / "assumptions.earlier.tsv"


def table_pairs(text, header, value):
    """(first column, value(second column)) of each data row with a value, in file order."""
    out = []
    for line in text.split("\n"):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 2 or cols[0] == header or not value(cols[1]):
            continue
        out.append((cols[0], value(cols[1])))
    return out


def pairs(text):
    """(name, expression) of each formula row, whitespace collapsed, in file order."""
    return table_pairs(text, "name", lambda e: " ".join(e.split()))


def assumption_pairs(text):
    """(key, value) of each assumption row with a value, in file order."""
    return table_pairs(text, "key", str.strip)


def history(tsv, read):
    """Pairs the file had in some commit and has not today, oldest first, each once."""
    revs = subprocess.run(
        ["git", "log", "--format=%H", "--", tsv], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    now = set(read((ROOT / tsv).read_text()))
    seen = set()
    earlier = []
    for rev in reversed(revs):
        text = subprocess.run(
            ["git", "show", f"{rev}:{tsv}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        for p in read(text):
            if p not in now and p not in seen:
                seen.add(p)
                earlier.append(p)
    return earlier


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
    write(TSV, pairs, OUT, ("name", "expression"), "expressions", "formulas",
          "Expressions default formulas had in earlier versions of gpuplan (scripts/earlier_formulas.py"
          " writes this file from git history; do not edit). A Formulas row that names the formula"
          " with one of these is an earlier gpuplan's default, not a user's edit.")
    write(ASSUMPTIONS_TSV, assumption_pairs, ASSUMPTIONS_OUT, ("key", "value"), "values", "assumptions",
          "Values default assumptions had in earlier versions of gpuplan (scripts/earlier_formulas.py"
          " writes this file from git history; do not edit). An Assumptions row that gives the key one"
          " of these is an earlier gpuplan's template, not a user's choice.")


def write(tsv, read, out, header, what, of, comment):
    """The file of `tsv`'s earlier pairs, headed by the digest of today's and a comment."""
    current = read((ROOT / tsv).read_text())
    earlier = history(tsv, read)
    lines = [f"# sha256 of today's defaults: {digest(current)}", f"# {comment}", "\t".join(header)]
    lines += [f"{a}\t{b}" for a, b in sorted(earlier)]
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out.relative_to(ROOT)}: {len(earlier)} earlier {what} of {len({a for a, _ in earlier})} {of}")

if __name__ == "__main__":
    main()

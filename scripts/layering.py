#!/usr/bin/env python3
"""The house's layering rules (STYLE.md, #46), checked over the `crate::` and `super::` paths of
src/ (unit tests, after `#[cfg(test)]`, left out):

- read imports neither plan, write, diff nor report;
- plan imports neither read, write, report nor usage;
- usage does not import read;
- no two files import each other.

Prints each broken rule with the file and line, and exits 1 when there is one; 0 and a count of
the files and paths read otherwise. Run by .ci/run; `python3 scripts/layering.py [src]`.
"""
import os
import re
import sys

FORBIDDEN = {
    "read": {"plan", "write", "diff", "report"},
    "plan": {"read", "write", "report", "usage"},
    "usage": {"read"},
}

PATH = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
GROUP = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{")


def module_of(rel):
    """src-relative file path -> its module path: read/xlsx.rs -> [read, xlsx]."""
    parts = rel[:-3].split(os.sep)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return parts


def file_of(src, segments):
    """The file a module path lives in: the longest prefix that is a file or a folder."""
    best = None
    for n in range(1, len(segments) + 1):
        base = os.path.join(src, *segments[:n])
        if os.path.isfile(base + ".rs"):
            best = base + ".rs"
        elif os.path.isfile(os.path.join(base, "mod.rs")):
            best = os.path.join(base, "mod.rs")
        else:
            break
    return best


def code_of(text):
    """The file less its unit tests and comments."""
    cut = re.search(r"#\[cfg\(test\)\]\s*(pub(\([a-z]+\))?\s+)?mod\s+\w+\s*\{", text)
    if cut:
        text = text[: cut.start()]
    return "\n".join(re.sub(r"//.*", "", line) for line in text.split("\n"))


def paths_in(code):
    """Each path a file names, `crate::a::b` or `super::x`, with its line; a `use a::{b, c}`
    group gives `a::b` and `a::c` (one level deep, as rustfmt writes them)."""
    for m in PATH.finditer(code):
        line = code.count("\n", 0, m.start()) + 1
        yield m.group(1), [s for s in m.group(2).split("::") if s], line
    for m in GROUP.finditer(code):
        line = code.count("\n", 0, m.start()) + 1
        body = code[m.end(): code.find("}", m.end())]
        head = [s for s in m.group(2).split("::") if s]
        for item in body.split(","):
            name = item.strip().split(" as ")[0].split("::")
            name = [s for s in name if s and s != "self" and re.match(r"^[A-Za-z_]\w*$", s)]
            if name:
                yield m.group(1), head + name, line


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "src"
    edges = {}
    broken = []
    files = 0
    named = 0
    for root, _, names in os.walk(src):
        for name in sorted(names):
            if not name.endswith(".rs"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
            if rel.split(os.sep)[0] == "bin" or "tests" in rel.split(os.sep):
                continue
            files += 1
            here = module_of(rel)
            with open(path, encoding="utf-8") as f:
                code = code_of(f.read())
            for kind, segments, line in paths_in(code):
                named += 1
                if kind == "crate":
                    target = segments
                else:
                    # super:: from a mod.rs is its folder's parent; from a.rs, a's folder.
                    parent = here[:-1] if here else []
                    extra = 0
                    while segments and segments[0] == "super":
                        segments = segments[1:]
                        extra += 1
                    target = parent[: len(parent) - extra] + segments
                if not target:
                    continue
                top = here[0] if here else ""
                if target[0] in FORBIDDEN.get(top, set()):
                    broken.append(f"{path}:{line}: {top} imports {'::'.join(target)}")
                dest = file_of(src, target)
                if dest and os.path.abspath(dest) != os.path.abspath(path):
                    edges.setdefault(os.path.normpath(path), {}).setdefault(
                        os.path.normpath(dest), line
                    )
    for a, outs in sorted(edges.items()):
        for b, line in sorted(outs.items()):
            if a < b and a in edges.get(b, {}):
                broken.append(
                    f"{a}:{line} and {b}:{edges[b][a]}: import each other"
                )
    for b in broken:
        print(b)
    if broken:
        print(f"layering: {len(broken)} broken rule(s)", file=sys.stderr)
        return 1
    print(f"layering: {files} files, {named} paths, no broken rule")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""No source file of the tree is over the house limit (README "Layout"): a file holds one
concern, so a reader finds a rule, a step or a parser in a file of a few hundred lines.

Checks every tracked C++, Python and shell file under the source directory given as the
first argument (default: two levels up) and prints each file over the limit with its
length. Exit 0 when none is, 1 otherwise. Data (JSON, the corpus, tests/data) is not code
and is not checked.
"""
import os
import subprocess
import sys

LIMIT = 650  # "about 600 lines"
SUFFIXES = (".cc", ".h", ".py", ".sh")


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout:
        return out.stdout.splitlines()
    files = []  # not a git checkout (a source package): walk the tree
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "build"))]
        files += [os.path.relpath(os.path.join(dirpath, f), root) for f in filenames]
    return files


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    over = []
    for rel in tracked_files(root):
        if not rel.endswith(SUFFIXES) or rel.startswith("tests/data/"):
            continue
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            n = sum(1 for _ in f)
        if n > LIMIT:
            over.append((n, rel))
    for n, rel in sorted(over, reverse=True):
        print(f"{rel}: {n} lines (limit {LIMIT})")
    if over:
        print(f"{len(over)} file(s) over {LIMIT} lines: split them by concern")
        return 1
    print(f"no source file over {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())

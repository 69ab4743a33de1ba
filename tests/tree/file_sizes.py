#!/usr/bin/env python3
"""No source file of the tree is over the house limit (README "Layout"): a file holds one
concern, so a reader finds a rule, a step or a parser in a file of a few hundred lines.

Checks every tracked C++, Python and shell file under the source directory given as the
first argument (default: two levels up) and prints each file over the limit with its
length. The files still waiting for their split are listed, with the reason, in
tests/tree/oversize.txt; a file over the limit that is not listed fails the check, and so
does a listed file that is no longer over it (the list only shrinks). Exit 0 when all is
well, 1 otherwise. Data (JSON, the corpus, tests/data) is not code and is not checked.
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


def source_files(root, suffixes):
    """(relative path, path) of every tracked file ending in one of `suffixes`, data apart."""
    for rel in tracked_files(root):
        if not rel.endswith(suffixes) or rel.startswith("tests/data/"):
            continue
        path = os.path.join(root, rel)
        if os.path.isfile(path):
            yield rel, path


def listed(root, name):
    """The entries of tests/tree/NAME: `key  reason` per line, # comments -> {key: line}."""
    entries = {}
    path = os.path.join(root, "tests", "tree", name)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    entries[line.split()[0]] = line
    return entries


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    waiting = listed(root, "oversize.txt")
    over = []
    for rel, path in source_files(root, SUFFIXES):
        with open(path, encoding="utf-8", errors="replace") as f:
            n = sum(1 for _ in f)
        if n > LIMIT:
            over.append((n, rel))
    failed = 0
    for n, rel in sorted(over, reverse=True):
        if rel in waiting:
            print(f"{rel}: {n} lines (limit {LIMIT}; listed in tests/tree/oversize.txt)")
        else:
            print(f"{rel}: {n} lines (limit {LIMIT}): split it by concern")
            failed += 1
    still = {rel for _, rel in over}
    for rel in sorted(set(waiting) - still):
        print(f"{rel}: listed in tests/tree/oversize.txt but not over {LIMIT} lines: "
              f"remove it from the list")
        failed += 1
    if failed:
        return 1
    print(f"no unlisted source file over {LIMIT} lines ({len(over)} listed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

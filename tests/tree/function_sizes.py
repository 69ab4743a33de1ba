#!/usr/bin/env python3
"""No C++ function of the tree is over the house limit of about 80 lines (README "Layout"):
a function does one step, so a reader sees it whole.

Reads every tracked .cc and .h file under the source directory given as the first argument
(default: two levels up). The tree is clang-formatted (.clang-format), so a function defined
at namespace scope starts at column 0 (its signature may run over several lines) and ends
with a `}` alone at column 0; a lambda or a method defined inside a class body is part of
the function or class around it. Functions that are tables (one entry per rule, per check,
per case: data, not steps), and the functions still waiting for their split, are listed
with the reason in tests/tree/long_functions.txt as `path:function`; any other function over
the limit fails the check, and so does a listed one that is no longer over it (the list only
shrinks). Exit 0 when all is well.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from file_sizes import listed, source_files  # noqa: E402

LIMIT = 90  # "about 80 lines"
SUFFIXES = (".cc", ".h")
NOT_A_FUNCTION = re.compile(
    r"^(namespace|struct|class|enum|union|extern|template\s*<[^>]*>\s*(struct|class)|"
    r"#|//|/\*|\*|using|typedef|static_assert|[A-Z_]+\(|TEST)")
NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_:~<>]*(?:operator\S*)?)\s*\(")


def functions(lines):
    """(first line, line count, name) of every function defined at column 0."""
    out = []
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        starts = line and not line[0].isspace() and not NOT_A_FUNCTION.match(line)
        if starts and "(" in line and not line.rstrip().endswith(";"):
            # The signature runs until a line ending in "{" (the body) or ";" (a declaration).
            j = i
            while (j < n and not lines[j].rstrip().endswith(("{", ";", "}")) and j - i < 12 and
                   (j == i or lines[j][:1].isspace())):
                j += 1
            if j < n and lines[j].rstrip().endswith("{") and "=" not in line.split("(")[0]:
                end = j
                while end < n and lines[end] != "}":
                    end += 1
                m = NAME.search(line)
                name = m.group(1) if m else line.strip()
                out.append((i + 1, end - i + 1, name))
                i = end + 1
                continue
        # A TEST body is a function too: it is written as a macro call.
        if line.startswith("TEST") and line.rstrip().endswith("{"):
            end = i
            while end < n and lines[end] != "}":
                end += 1
            out.append((i + 1, end - i + 1, re.sub(r"\s+", "", line.split("{")[0])))
            i = end + 1
            continue
        i += 1
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    tables = listed(root, "long_functions.txt")
    over = []
    for rel, path in source_files(root, SUFFIXES):
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        for first, count, name in functions(lines):
            if count > LIMIT:
                over.append((count, f"{rel}:{name}", first))
    failed = 0
    for count, key, first in sorted(over, reverse=True):
        if key in tables:
            print(f"{key} (line {first}): {count} lines (listed in "
                  f"tests/tree/long_functions.txt: {tables[key].split(None, 1)[-1]})")
        else:
            print(f"{key} (line {first}): {count} lines (limit {LIMIT}): split it into "
                  f"named steps")
            failed += 1
    still = {key for _, key, _ in over}
    for key in sorted(set(tables) - still):
        print(f"{key}: listed in tests/tree/long_functions.txt but not over {LIMIT} lines: "
              f"remove it from the list")
        failed += 1
    if failed:
        return 1
    print(f"no unlisted function over {LIMIT} lines ({len(over)} listed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

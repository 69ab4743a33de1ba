#!/usr/bin/env python3
"""Every documentation page the tree cites is a file of the repository (docs/design/README.md).

    cited_docs.py [SOURCE_DIR]

Reads every tracked text file (code, docs, tests, scripts; data under tests/data and the
fixture corpus apart) and finds three kinds of citation:

- a path into the docs, `docs/<page>.md` or `docs/<folder>/<page>.md`: that file must exist;
- a design page by its bare name in capitals, `SPEC.md`, `ARCHITECTURE.md`, `README.md`, ...:
  a tracked file of that name must exist somewhere in the tree (docs/design/ holds the
  original design);
- a relative Markdown link `[text](path.md)` in a Markdown file: it must resolve from the
  file that holds it, except a link into the Iceberg repository that the seed's sentences
  carry (`expressions-spec.md`, `udf-spec.md`, `spec.md`), quoted where a page quotes them.

Names of files a run writes (summary.md, review.md, ...) are lower case and not cited as
pages, so they are not checked. Prints each dead citation as FILE:LINE: CITED and exits 1
when there is one, 0 otherwise.
"""
import os
import re
import subprocess
import sys

DOCS_PATH = re.compile(r"(?<![A-Za-z0-9_./-])(docs/(?:[A-Za-z0-9_-]+/)*[A-Za-z0-9_.-]+\.md)\b")
DESIGN_NAME = re.compile(r"(?<![A-Za-z0-9_./-])([A-Z][A-Z0-9_-]*\.md)\b")
LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)")
ICEBERG_PAGES = {"expressions-spec.md", "udf-spec.md", "spec.md"}
SKIP_PREFIXES = ("tests/data/", "fixtures/corpus/")
TEXT_SUFFIXES = (".cc", ".h", ".py", ".sh", ".md", ".txt", ".cmake", ".json", ".in", ".html",
                 ".js", ".css")


def tracked(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout:
        return out.stdout.splitlines()
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "build"))]
        files += [os.path.relpath(os.path.join(dirpath, f), root) for f in filenames]
    return files


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), "..", ".."))
    files = [f for f in tracked(root) if os.path.isfile(os.path.join(root, f))]
    present = set(files)
    names = {os.path.basename(f) for f in files}
    dead = []
    for rel in files:
        name = os.path.basename(rel)
        if rel.startswith(SKIP_PREFIXES) or not (
                rel.endswith(TEXT_SUFFIXES) or name in ("CMakeLists.txt", "run")):
            continue
        path = os.path.join(root, rel)
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for n, line in enumerate(lines, 1):
            for cited in DOCS_PATH.findall(line):
                if cited not in present:
                    dead.append((rel, n, cited))
            for cited in DESIGN_NAME.findall(line):
                if cited not in names:
                    dead.append((rel, n, cited))
            if rel.endswith(".md"):
                for link in LINK.findall(line):
                    if "://" in link or link in ICEBERG_PAGES:
                        continue
                    target = os.path.normpath(os.path.join(os.path.dirname(rel), link))
                    if target not in present:
                        dead.append((rel, n, link))
    for rel, n, cited in dead:
        print("%s:%d: %s is not in the repository" % (rel, n, cited))
    print("cited pages: %d dead citations in %d files read" % (len(dead), len(files)))
    return 1 if dead else 0


if __name__ == "__main__":
    sys.exit(main())

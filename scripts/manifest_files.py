#!/usr/bin/env python3
"""Prints the files a data manifest.json lists, filtered by kind and expected result.

Usage: manifest_files.py MANIFEST [--kind KIND] [--expect valid|invalid]
                         [--exceptions HEADER (--without-exceptions | --only-exceptions)]
Paths are printed relative to the current directory (the manifest's folder joined with each
file's path). HEADER is tests/codec/codec_exceptions_internal.h, the one list of files on
which ictk knowingly differs from the source test (docs/codec-exceptions.md)."""
import argparse
import json
import os
import re
import sys


def read_exceptions(header: str) -> set:
    """The file paths listed in kCodecExceptions (adjacent C++ string literals joined)."""
    with open(header, encoding="utf-8") as f:
        text = f.read()
    body = text[text.index("kCodecExceptions[]"):]
    files = set()
    for entry in re.finditer(r"\{((?:\s*\"(?:[^\"\\]|\\.)*\")+)\s*,", body):
        files.add("".join(re.findall(r"\"((?:[^\"\\]|\\.)*)\"", entry.group(1))))
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest")
    parser.add_argument("--kind")
    parser.add_argument("--expect")
    parser.add_argument("--exceptions")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--without-exceptions", action="store_true")
    group.add_argument("--only-exceptions", action="store_true")
    args = parser.parse_args()
    exceptions = read_exceptions(args.exceptions) if args.exceptions else set()
    try:
        with open(args.manifest, encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"{args.manifest}: {e}", file=sys.stderr)
        return 2
    base = os.path.dirname(args.manifest)
    for entry in manifest["files"]:
        if args.kind and entry.get("kind") != args.kind:
            continue
        if args.expect and entry.get("expect") != args.expect:
            continue
        if args.without_exceptions and entry["file"] in exceptions:
            continue
        if args.only_exceptions and entry["file"] not in exceptions:
            continue
        print(os.path.join(base, entry["file"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

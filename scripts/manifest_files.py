#!/usr/bin/env python3
"""Prints the files a data manifest.json lists, filtered by kind and expected result.

Usage: manifest_files.py MANIFEST [--kind KIND] [--expect valid|invalid]
Paths are printed relative to the current directory (the manifest's folder joined with each
file's path)."""
import argparse
import json
import os
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest")
    parser.add_argument("--kind")
    parser.add_argument("--expect")
    args = parser.parse_args()
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
        print(os.path.join(base, entry["file"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

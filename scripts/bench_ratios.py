#!/usr/bin/env python3
"""Prints the benchmark ratios with targets, from Google Benchmark JSON files in one folder.

- codec: metadata decode throughput / bare nlohmann parse throughput, per file (target >= 0.5)
Other benchmarks print their own ratios as counters; this script lists them too."""
import json
import os
import sys


def load(folder, name):
    path = os.path.join(folder, name + ".json")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return json.load(f).get("benchmarks", [])


def main() -> int:
    folder = sys.argv[1]
    runs = load(folder, "ictk_codec_bench")
    by_name = {b["name"]: b for b in runs}
    for name, b in sorted(by_name.items()):
        if not name.startswith("BM_Decode/"):
            continue
        bare = by_name.get(name.replace("BM_Decode", "BM_BareParse"))
        if bare:
            ratio = bare["cpu_time"] / b["cpu_time"]
            print(f"codec decode/bare-parse throughput ratio (CPU time) {b.get('label', name)}: "
                  f"{ratio:.2f} (target >= 0.5)")
    for file in sorted(os.listdir(folder)):
        if not file.endswith(".json") or file == "ictk_codec_bench.json":
            continue
        for b in load(folder, file[:-5]):
            counters = {k: v for k, v in b.items() if "ratio" in k.lower()}
            for k, v in counters.items():
                print(f"{file[:-5]} {b['name']} {k}: {v:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Prints every ratio the performance issues set a target for, each against its target
(met / not met), from the Google Benchmark JSON files scripts/bench wrote into one folder.
Each ratio compares two measurements of the same run of the same binary.

Usage: scripts/bench_ratios.py FOLDER [--json OUT]

- history (ictk_history_bench): cost per request at 400 plan steps against 20, for the exec
  sample and builtin:reference (<= 1.5), in wall-clock time and in the CPU time of ictk's
  thread; the harness's share of a run against the exec
  sample, 1 - adapter_share (<= 25%, issue 34); whole answers against metadata deltas at 400 steps
  (shown)
- commit (ictk_commit_bench): Adopt of a k = 1000 commit, CPU t(n = 10^6) / t(n = 10^3)
  (<= 1.3); heap per live row at n = 10^6 (<= 0.6 KB)
- adapter (ictk_adapter_bench): the exec transport against echo-plus-parse of the same
  bytes (<= 1.5), the exec sample against builtin:sample plus echo-plus-parse (shown),
  lib: against builtin: (<= 1.5), with whole answers and with metadata deltas offered,
  wall-clock
- jobs (jobs.json, written by scripts/bench): --jobs 2 against --jobs 1 (>= 1.85, issue 34)
- codec (ictk_codec_bench): decode throughput / bare parse throughput, per file (>= 0.5)
Other benchmarks' counters named "..._ratio..." are listed as they are."""
import json
import os
import sys


def load(folder, name):
    path = os.path.join(folder, name + ".json")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return json.load(f).get("benchmarks", [])


def by_name(runs):
    """Each benchmark by its name (without "/real_time"): the median of its repetitions
    when it was repeated (--benchmark_repetitions), else its one run."""
    out = {}
    for b in runs:
        key = b.get("run_name", b["name"]).replace("/real_time", "")
        # A fixed iteration count (the 400-step histories) is part of the name.
        key = key.split("/iterations:")[0]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                out[key] = b
        elif key not in out:
            out[key] = b
    return out


class Table:
    def __init__(self):
        self.rows = []

    def add(self, figure, value, shown, target, met):
        self.rows.append((figure, shown, target, "met" if met else "NOT MET"))

    def info(self, figure, shown):
        self.rows.append((figure, shown, "-", "-"))

    def missing(self, figure, target, why):
        self.rows.append((figure, f"not measured ({why})", target, "-"))

    def print(self):
        width = max(len(r[0]) for r in self.rows) if self.rows else 0
        for figure, shown, target, verdict in self.rows:
            print(f"{figure:<{width}}  {shown:<28} target {target:<8} {verdict}")


UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def history(folder, t):
    runs = by_name(load(folder, "ictk_history_bench"))
    for name, label in (("BM_CertifyExecSample", "exec sample"),
                        ("BM_CertifyReference", "builtin:reference")):
        short, long = runs.get(f"{name}/20"), runs.get(f"{name}/400")
        figure = f"cost per request, 400 vs 20 steps, {label}"
        if not short or not long or "us_per_request" not in short:
            t.missing(figure, "<= 1.5", "ictk_history_bench")
            continue
        r = long["us_per_request"] / short["us_per_request"]
        t.add(figure, r, f"{r:.2f}x ({long['us_per_request']:.0f} vs "
              f"{short['us_per_request']:.0f} us)", "<= 1.5", r <= 1.5)
        # The same in CPU time of the benchmark's thread (the harness, and a builtin
        # adapter with it; not the exec adapter's process), which a loaded machine
        # disturbs less than the wall clock.
        cpu = [b["cpu_time"] * UNIT_US.get(b.get("time_unit", "ns"), 1e-3) /
               b["steps_per_history"] for b in (long, short)
               if b.get("steps_per_history")]
        if len(cpu) == 2:
            r = cpu[0] / cpu[1]
            t.add(figure + " (CPU, ictk's thread)", r,
                  f"{r:.2f}x ({cpu[0]:.0f} vs {cpu[1]:.0f} us)", "<= 1.5", r <= 1.5)
    # Metadata deltas (docs/protocol.md section 7) against whole answers, at 400 steps:
    # shown, no target of its own (the 400-vs-20 figures above are the targets).
    for name, label in (("BM_CertifyExecSample", "exec sample"),
                        ("BM_CertifyReference", "builtin:reference")):
        delta, whole = runs.get(f"{name}/400"), runs.get(f"{name}Whole/400")
        if delta and whole and "us_per_request" in delta and "us_per_request" in whole:
            r = whole["us_per_request"] / delta["us_per_request"]
            t.info(f"whole answers vs metadata deltas, 400 steps, {label}",
                   f"{r:.2f}x ({whole['us_per_request']:.0f} vs "
                   f"{delta['us_per_request']:.0f} us)")
    exec20 = runs.get("BM_CertifyExecSample/20")
    figure = "harness share of a run, exec sample (20 steps)"
    if exec20 and "adapter_share" in exec20:
        share = 1 - exec20["adapter_share"]
        t.add(figure, share, f"{share * 100:.0f}%", "<= 25%", share <= 0.25)
    else:
        t.missing(figure, "<= 25%", "ictk_history_bench")


def commit(folder, t):
    runs = by_name(load(folder, "ictk_commit_bench"))
    small, large = runs.get("BM_CommitAdopt/1000/1000"), runs.get("BM_CommitAdopt/1000000/1000")
    figure = "Adopt k=1000, CPU t(n=1e6)/t(n=1e3)"
    if small and large:
        r = large["cpu_time"] / small["cpu_time"]
        t.add(figure, r, f"{r:.2f}", "<= 1.3", r <= 1.3)
    else:
        t.missing(figure, "<= 1.3", "ictk_commit_bench")
    figure = "heap per live row (pk+unique+check, n=1e6)"
    if large and "bytes_per_row" in large:
        kb = large["bytes_per_row"] / 1024
        t.add(figure, kb, f"{kb:.2f} KiB", "<= 0.6 KB", kb <= 0.6)
    else:
        t.missing(figure, "<= 0.6 KB", "ictk_commit_bench")


def adapter(folder, t):
    runs = by_name(load(folder, "ictk_adapter_bench"))
    ms = {k: v["real_time"] for k, v in runs.items() if "error_occurred" not in v}
    floor = ms.get("BM_BareEcho", 0) + ms.get("BM_BareParse", 0)
    figure = "exec transport vs echo+parse of the same bytes"
    if "BM_ExecReplay" in ms and "BM_BareEcho" in ms and "BM_BareParse" in ms:
        r = ms["BM_ExecReplay"] / floor
        t.add(figure, r, f"{r:.2f}x", "<= 1.5", r <= 1.5)
    else:
        t.missing(figure, "<= 1.5", "ictk_adapter_bench")
    if "BM_Exec" in ms and "BM_Builtin" in ms and floor > 0:
        r = ms["BM_Exec"] / (ms["BM_Builtin"] + floor)
        t.info("exec sample vs builtin:sample + echo + parse", f"{r:.2f}x")
    for suffix, figure in (("", "lib: vs builtin: (the sample, same session)"),
                           ("Delta", "lib: vs builtin:, metadata deltas offered (same session)")):
        lib, builtin = ms.get("BM_Lib" + suffix), ms.get("BM_Builtin" + suffix)
        if lib and builtin:
            r = lib / builtin
            t.add(figure, r, f"{r:.2f}x", "<= 1.5", r <= 1.5)
        else:
            t.missing(figure, "<= 1.5", "ictk_adapter_bench")


def jobs(folder, t):
    figure = "--jobs 2 vs --jobs 1 (histories/s, exec sample)"
    path = os.path.join(folder, "jobs.json")
    if not os.path.exists(path):
        t.missing(figure, ">= 1.85", "scripts/bench --quick skips it")
        return
    with open(path, encoding="utf-8") as f:
        j = json.load(f)
    r = j["seconds_jobs1"] / j["seconds_jobs2"]
    t.add(figure, r, f"{r:.2f}x ({j['histories']} histories)", ">= 1.85", r >= 1.85)


def codec(folder, t):
    runs = by_name(load(folder, "ictk_codec_bench"))
    for name, b in sorted(runs.items()):
        if not name.startswith("BM_Decode/"):
            continue
        bare = runs.get(name.replace("BM_Decode", "BM_BareParse"))
        if bare:
            r = bare["cpu_time"] / b["cpu_time"]
            t.add(f"codec decode/bare parse {b.get('label', name)}", r, f"{r:.2f}",
                  ">= 0.5", r >= 0.5)


def main() -> int:
    folder = sys.argv[1]
    t = Table()
    history(folder, t)
    commit(folder, t)
    adapter(folder, t)
    jobs(folder, t)
    codec(folder, t)
    t.print()
    for file in sorted(os.listdir(folder)):
        if not file.endswith(".json") or file in ("ictk_codec_bench.json", "jobs.json"):
            continue
        for b in load(folder, file[:-5]):
            for k, v in b.items():
                if (k.lower().endswith("ratio") or "_ratio" in k.lower()) and isinstance(
                        v, (int, float)):
                    print(f"{file[:-5]} {b['name']} {k}: {v:.3f}")
    if "--json" in sys.argv:
        out = sys.argv[sys.argv.index("--json") + 1]
        with open(out, "w", encoding="utf-8") as f:
            json.dump([dict(zip(("figure", "value", "target", "verdict"), r))
                       for r in t.rows], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

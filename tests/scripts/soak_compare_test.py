#!/usr/bin/env python3
"""scripts/soak's comparison of a case's record between the undisturbed and the disturbed run:
what differs by design (duration, output folder, the adapter's restart marks in the stderr
tail) is not a difference; anything else is.

    soak_compare_test.py --source REPO
"""
import argparse
import copy
import importlib.machinery
import importlib.util
import os
import sys


def load_soak(source):
    path = os.path.join(source, "scripts", "soak")
    loader = importlib.machinery.SourceFileLoader("soak", path)
    spec = importlib.util.spec_from_loader("soak", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--source", required=True)
    soak = load_soak(p.parse_args().source)
    mark = "\n" + soak.RESTART_MARK + "\n"
    base = {
        "id": "random/s1/63511", "verdict": "fail", "duration-ms": 61.9,
        "failure": {
            "rule": "ice.single-value", "stderr-tail": "",
            "fixture": "/out/baseline/failures/ice.single-value/x.json",
            "replay": "ictk replay --adapter exec:a /out/baseline/failures/ice.single-value/x.json",
        },
    }
    disturbed = copy.deepcopy(base)
    disturbed["duration-ms"] = 35.1
    disturbed["failure"]["stderr-tail"] = mark * 7
    for k in ("fixture", "replay"):
        disturbed["failure"][k] = disturbed["failure"][k].replace("/out/baseline", "/out/soak")

    def same(a, b):
        return soak.comparable(a, "/out/baseline") == soak.comparable(b, "/out/soak")

    failures = []
    if not same(base, disturbed):
        failures.append("a record differing only by design was counted as a difference")
    other_rule = copy.deepcopy(disturbed)
    other_rule["failure"]["rule"] = "sem.live-rows"
    if same(base, other_rule):
        failures.append("a different rule was not counted as a difference")
    other_tail = copy.deepcopy(disturbed)
    other_tail["failure"]["stderr-tail"] = mark + "panic: index out of range\n"
    if same(base, other_tail):
        failures.append("adapter output beside the restart marks was ignored")
    other_verdict = copy.deepcopy(disturbed)
    other_verdict["verdict"] = "pass"
    if same(base, other_verdict):
        failures.append("a different verdict was not counted as a difference")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    print("soak comparison:", "ok" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

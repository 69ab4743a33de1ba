#!/usr/bin/env python3
"""An exec adapter in front of another: passes every line through unchanged, except that
it rewrites the `format-versions` (and optionally `profile`) of the `hello` answer.

    hello_proxy.py --format-versions 1,2,3 -- build/bin/ictk-sample-adapter

turns the sample (a v4 writer) into a v1-v3 writer as far as the harness can tell, so
tests can certify a v1-v3 writer without a second implementation.
"""
import argparse
import json
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--format-versions", required=True,
                        type=lambda s: [int(x) for x in s.split(",") if x])
    parser.add_argument("--profile", default=None)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)
    for line in sys.stdin:
        child.stdin.write(line)
        child.stdin.flush()
        out = child.stdout.readline()
        if not out:
            sys.exit(1)
        try:
            request = json.loads(line)
            response = json.loads(out)
        except ValueError:
            sys.stdout.write(out)
            sys.stdout.flush()
            continue
        if (isinstance(request, dict) and request.get("op") == "hello"
                and isinstance(response, dict) and response.get("result") == "ok"):
            response["format-versions"] = args.format_versions
            if args.profile:
                response["profile"] = args.profile
            out = json.dumps(response) + "\n"
        sys.stdout.write(out)
        sys.stdout.flush()
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""An exec adapter in front of another: passes every line through unchanged, except that
it rewrites the `format-versions` (and optionally `profile`) of the `hello` answer.

    hello_proxy.py --format-versions 1,2,3 -- build/bin/ictk-sample-adapter

turns the sample (a v4 writer) into a v1-v3 writer as far as the harness can tell, so
tests can certify a v1-v3 writer without a second implementation.

    hello_proxy.py --format-versions 4 --hello '{"constraint-ops": ["add-constraint"]}'
        --strict -- build/bin/ictk-sample-adapter

also merges members into the hello answer and, with --strict, answers `unsupported`
(without passing it on) any request the declarations leave out: a constraint op not in
`constraint-ops`, a check operator not in `expression-operators`, a request needing a
capability not in `capabilities` (docs/protocol.md section 9) - so a run that sends one
fails.
"""
import argparse
import json
import subprocess
import sys


CONSTRAINT_OPS = ("add-constraint", "update-constraint", "remove-constraint")
# The check predicates of docs/protocol.md section 9, "Finer declarations" (terms, literals
# and types are not operators).
OPERATORS = {"true", "false", "not", "and", "or", "is-null", "not-null", "is-nan", "not-nan",
             "lt", "lt-eq", "gt", "gt-eq", "eq", "not-eq", "starts-with", "not-starts-with",
             "in", "not-in"}


def operators(node):
    """Every `type` of the expression JSON `node` (predicates and terms)."""
    if isinstance(node, dict):
        found = {node["type"]} if isinstance(node.get("type"), str) else set()
        for value in node.values():
            found |= operators(value)
        return found
    if isinstance(node, list):
        return set().union(*map(operators, node)) if node else set()
    return set()


def undeclared(request, hello):
    """Why `request` asks what `hello` left out ("" when it does not)."""
    op = request.get("op")
    ops = hello.get("constraint-ops")
    if ops is not None and op in CONSTRAINT_OPS and op not in ops:
        return "constraint op %s not declared" % op
    allowed = hello.get("expression-operators")
    if allowed is not None:
        body = request.get("constraint", {}).get("expression") or \
            request.get("function", {}).get("body")
        extra = sorted((operators(body) & OPERATORS) - set(allowed))
        if extra:
            return "operators %s not declared" % ", ".join(extra)
    return ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--format-versions", required=True,
                        type=lambda s: [int(x) for x in s.split(",") if x])
    parser.add_argument("--profile", default=None)
    parser.add_argument("--hello", type=json.loads, default={})
    parser.add_argument("--strict", action="store_true")
    parser.add_argument("--refuse", action="append", default=[],
                        help="answer this op unsupported whatever hello declares")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)
    hello = {}
    for line in sys.stdin:
        if args.strict and hello:
            request = json.loads(line)
            why = undeclared(request, hello) or (
                "refused" if request.get("op") in args.refuse else "")
            if why:
                sys.stdout.write(json.dumps({"id": request.get("id"), "result": "unsupported",
                                             "message": why}) + "\n")
                sys.stdout.flush()
                continue
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
            response.update(args.hello)
            hello = response
            out = json.dumps(response) + "\n"
        sys.stdout.write(out)
        sys.stdout.flush()
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()

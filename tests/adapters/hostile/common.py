"""Shared by the test adapters in this folder: read one request line, answer one line."""
import json
import sys


def requests():
    """Yields each request object read from stdin (one JSON object per line)."""
    for line in sys.stdin:
        yield json.loads(line)


def answer(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def hello(request):
    return {"id": request.get("id"), "result": "ok", "protocol-version": 1,
            "implementation": {"name": "ictk-test-echo", "version": "0", "language": "python"},
            "format-versions": [4], "capabilities": []}


def echo(request):
    """A well-formed answer: hello as hello, anything else ok with the request echoed."""
    if request.get("op") == "hello":
        return hello(request)
    return {"id": request.get("id"), "result": "ok", "echo": request}

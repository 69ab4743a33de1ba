"""Hostile: writes 1 MiB to stderr per request (far more than a pipe holds) and nothing to
stdout. With --then-answer it answers properly after the stderr flood, which checks that
the harness drains stderr while it waits (otherwise both sides block)."""
import sys
from common import requests, answer, echo

then_answer = "--then-answer" in sys.argv
for n, request in enumerate(requests()):
    for i in range(1024):
        sys.stderr.write("noise %d %04d %s\n" % (n, i, "." * 1000))
    sys.stderr.write("last words of request %d\n" % n)
    sys.stderr.flush()
    if then_answer:
        answer(echo(request))

"""Strict about the handshake: every process answers `error` to anything before its own
`hello` (protocol section 4: hello is sent first after every (re)start), and is killed by
a signal at the request whose op is "crash". With a file path as its argument, a process
started when that file exists (a restart: the first process creates it) refuses its hello."""
import os
import signal
import sys
from common import requests, answer, echo

refuse_hello = False
if len(sys.argv) > 1:
    refuse_hello = os.path.exists(sys.argv[1])
    open(sys.argv[1], "a").close()

greeted = False
for request in requests():
    if request.get("op") == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if request.get("op") == "hello":
        if refuse_hello:
            answer({"id": request.get("id"), "result": "rejected",
                    "error": {"kind": "invalid-request", "message": "not again"}})
            continue
        greeted = True
    if not greeted:
        answer({"id": request.get("id"), "result": "error",
                "message": "no hello in this process"})
        continue
    answer(echo(request))

"""Hostile: answers the first two requests, then is killed by a signal at the third."""
import os
import signal
from common import requests, answer, echo

for n, request in enumerate(requests()):
    if n == 2:
        os.kill(os.getpid(), signal.SIGSEGV)
    answer(echo(request))

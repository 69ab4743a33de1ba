"""Hostile: starts a grandchild (to check that the whole process group is killed), tells
its pid on stderr, answers hello, then hangs at the next request."""
import subprocess
import sys
import time
from common import requests, answer, echo

child = subprocess.Popen(["sleep", "1000"])
sys.stderr.write("grandchild %d\n" % child.pid)
sys.stderr.flush()
for n, request in enumerate(requests()):
    if request.get("op") != "hello":
        time.sleep(1000)
    answer(echo(request))

"""Hostile: closes its stdin at once and lingers, so the harness's write fails (EPIPE, and
SIGPIPE unless the harness guards against it)."""
import os
import time

os.close(0)
time.sleep(1000)

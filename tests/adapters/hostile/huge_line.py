"""Hostile: answers with 100 MB and no newline."""
import sys

sys.stdin.readline()
chunk = "x" * (1 << 20)
for _ in range(100):
    sys.stdout.write(chunk)
sys.stdout.flush()

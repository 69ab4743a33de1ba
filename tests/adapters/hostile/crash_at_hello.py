"""Hostile: dies at the first request (hello) without answering."""
import os
import sys

sys.stdin.readline()
os._exit(3)

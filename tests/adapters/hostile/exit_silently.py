"""Hostile: reads a request and exits 0 without answering."""
import sys

sys.stdin.readline()
sys.exit(0)

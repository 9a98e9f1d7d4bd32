"""Test bot: plays straight but ignores Game Over and keeps running (and ignores SIGTERM)."""

import signal
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
first = sys.stdin.readline()
n = int(first.split()[0])
while True:
    line = sys.stdin.readline()
    if not line:
        break
    line = line.strip()
    if line == "Game Over":
        while True:
            time.sleep(3600)
    if "," not in line and " " not in line:
        for _ in range(n):
            sys.stdin.readline()
        print(5, flush=True)

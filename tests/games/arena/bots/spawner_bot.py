"""Test bot: starts a child process that sleeps, then plays straight like steady_bot."""

import subprocess
import sys

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
print(f"log child {child.pid}", flush=True)
first = sys.stdin.readline()
n = int(first.split()[0])
for line in sys.stdin:
    line = line.strip()
    if line == "Game Over":
        break
    if "," not in line and " " not in line:
        for _ in range(n):
            sys.stdin.readline()
        print(5, flush=True)

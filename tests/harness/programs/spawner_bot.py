"""Test arena bot: starts a process tree, then exits, crashes at its 3rd state, or hangs.

Usage: spawner_bot.py PIDFILE exit|crash|hang
"""

import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from spawn_tree import spawn

spawn(sys.argv[1])
how = sys.argv[2]
if how == "exit":
    raise SystemExit(0)
if how == "hang":
    time.sleep(300)
n = int(sys.stdin.readline().split()[0])
k = 0
for line in sys.stdin:
    line = line.strip()
    if line == "Game Over":
        break
    if "," not in line and " " not in line:  # the own-index line, then n snake lines
        for _ in range(n):
            sys.stdin.readline()
        k += 1
        if k == 3:
            raise RuntimeError("crash at the third state")
        print(5, flush=True)

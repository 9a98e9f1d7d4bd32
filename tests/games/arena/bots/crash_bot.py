"""Test bot: plays straight, then raises an exception on its 10th state."""

import sys

first = sys.stdin.readline()
n = int(first.split()[0])
step = 0
while True:
    line = sys.stdin.readline().strip()
    if not line or line == "Game Over":
        break
    if "," not in line and " " not in line:
        for _ in range(n):
            sys.stdin.readline()
        step += 1
        if step == 10:
            raise RuntimeError("boom at step 10")
        print(5)

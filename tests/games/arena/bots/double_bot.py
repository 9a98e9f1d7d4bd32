"""Test bot: answers every state with two move lines, 0 then 3 (only the last one counts)."""

import sys

first = sys.stdin.readline()
n = int(first.split()[0])
for line in sys.stdin:
    line = line.strip()
    if line == "Game Over":
        break
    if "," not in line and " " not in line:
        for _ in range(n):
            sys.stdin.readline()
        print("0\n3", flush=True)

"""Test bot: answers every state with a line that is not a move."""

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
        print("north please", flush=True)

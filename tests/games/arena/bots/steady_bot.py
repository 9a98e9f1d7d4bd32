"""Test bot: answers straight (5) every step, logs each step; exits on Game Over."""

import sys


def read_state():
    """Read one state; None at Game Over or end of input."""
    lines = []
    while True:
        line = sys.stdin.readline()
        if not line or line.startswith("Game Over"):
            return None
        line = line.strip()
        lines.append(line)
        if "," not in line and " " not in line:  # the own-index line
            n = int(first.split()[0])
            return lines + [sys.stdin.readline().strip() for _ in range(n)]


first = sys.stdin.readline()
step = 0
while True:
    state = read_state()
    if state is None:
        break
    step += 1
    print(f"log step {step}")
    print(5)

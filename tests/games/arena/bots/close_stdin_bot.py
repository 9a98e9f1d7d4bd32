"""Test bot: answers three states, then closes its standard input and sleeps."""

import os
import sys
import time

first = sys.stdin.readline()
n = int(first.split()[0])
answered = 0
while answered < 3:
    line = sys.stdin.readline().strip()
    if "," not in line and " " not in line:
        for _ in range(n):
            sys.stdin.readline()
        print(5, flush=True)
        answered += 1
sys.stdin.close()
os.close(0)
time.sleep(3600)

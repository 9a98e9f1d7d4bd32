"""Test bot: spins the CPU forever after the init line."""

import sys

sys.stdin.readline()
x = 0
while True:
    x += 1

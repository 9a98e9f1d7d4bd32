"""Test bot: prints 10 MB of garbage on its first state, then keeps reading."""

import sys

sys.stdin.readline()
sys.stdin.readline()
sys.stdout.write("garbage " * (10_000_000 // 8))
sys.stdout.flush()
for _ in sys.stdin:
    pass

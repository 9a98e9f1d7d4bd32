"""Test bot: tries to allocate 1 GiB after the init line."""

import sys

sys.stdin.readline()
blob = bytearray(1 << 30)
print(5, flush=True)

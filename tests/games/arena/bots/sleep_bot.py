"""Test bot: reads the init line, then sleeps forever without reading or answering."""

import sys
import time

sys.stdin.readline()
while True:
    time.sleep(3600)

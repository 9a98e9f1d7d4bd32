"""Test program for the SNAKGAME judge: starts a process tree, then exits, crashes or hangs.

Usage: spawner_judged.py PIDFILE exit|crash|hang|spin
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from spawn_tree import spawn

spawn(sys.argv[1])
how = sys.argv[2]
sys.stdin.readline()
if how == "exit":
    print("EXIT", flush=True)
elif how == "crash":
    raise SystemExit(3)
elif how == "hang":
    import time

    time.sleep(300)
else:
    while True:
        pass

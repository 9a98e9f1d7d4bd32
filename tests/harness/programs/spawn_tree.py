"""Test helper: start a process tree that tries to outlive its parent.

``spawn(pidfile)`` starts a ``sleep 300`` child, and a grandchild that calls
``setsid()`` (leaving the session and process group) and whose parent exits at once
(so it is orphaned), then writes both pids to ``pidfile``.
"""

import os
import subprocess


def spawn(pidfile: str) -> None:
    child = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL)
    r, w = os.pipe()
    mid = os.fork()
    if mid == 0:
        grandchild = os.fork()
        if grandchild == 0:
            os.setsid()
            os.execvp("sleep", ["sleep", "300"])
        os.write(w, str(grandchild).encode())
        os._exit(0)
    os.waitpid(mid, 0)
    grandchild = int(os.read(r, 64))
    with open(pidfile + ".tmp", "w") as f:
        f.write(f"{child.pid} {grandchild}")
    os.replace(pidfile + ".tmp", pidfile)

"""Reading and controlling process trees on Linux: ``/proc``, the subreaper, cgroups.

The primitives under :mod:`snakelab.harness.process` (see its docstring for how they
make one layer): one process's figures from ``/proc/<pid>/stat``, its children, its
environment marker; the harness as a child subreaper; a cgroup v2 per program where
one can be made.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE = resource.getpagesize()
PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
try:
    LIBC: Any = ctypes.CDLL(None, use_errno=True)
except OSError:  # pragma: no cover - not Linux
    LIBC = None


_PR_GET_CHILD_SUBREAPER = 37
_subreaper_holds = 0
_subreaper_lock = threading.Lock()


def hold_subreaper() -> bool:
    """Make the harness process a child subreaper while it runs programs; whether it is one.

    Orphans of the programs it runs are then re-parented to it, so their trees stay
    closed. Each call is matched by :func:`release_subreaper`: the flag is set while at
    least one program runs and cleared after the last, so processes orphaned by
    anything else the harness process started at other times still go to init (the
    harness reaps only the orphans of its programs' trees). Without it (not Linux, or a
    kernel before 3.4), orphans go to init: they are still found and killed through
    their marker while they live, but the CPU time of those that end by themselves is
    lost.
    """
    global _subreaper_holds
    with _subreaper_lock:
        if _subreaper_holds == 0 and (LIBC is None or LIBC.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0):
            return False
        _subreaper_holds += 1
        return True


def release_subreaper() -> None:
    """Undo one successful :func:`hold_subreaper` (the flag is cleared after the last)."""
    global _subreaper_holds
    with _subreaper_lock:
        if _subreaper_holds == 0:
            return
        _subreaper_holds -= 1
        if _subreaper_holds == 0 and LIBC is not None:
            LIBC.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def is_subreaper() -> bool:
    """Whether the harness process is a child subreaper now."""
    if LIBC is None:
        return False
    flag = ctypes.c_int(0)
    return LIBC.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) == 0 and flag.value != 0


@dataclass(frozen=True)
class Stat:
    """What one sample reads from ``/proc/<pid>/stat`` (times in clock ticks)."""

    start: int
    state: str
    ppid: int
    ticks: int  # utime + stime + cutime + cstime
    rss_pages: int


def read_stat(pid: int) -> Stat | None:
    """What one sample needs of ``/proc/<pid>/stat`` (None if the process is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    # Fields after the command (which may hold spaces or parentheses) follow the last ')'.
    fields = raw[raw.rfind(b")") + 2 :].split()
    try:
        return Stat(
            start=int(fields[19]),
            state=fields[0].decode(),
            ppid=int(fields[1]),
            ticks=int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14]),
            rss_pages=int(fields[21]),
        )
    except (IndexError, ValueError):
        return None


def children(pid: int) -> list[int]:
    """Children of ``pid`` (all of its threads' children)."""
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                out.extend(int(x) for x in f.read().split())
        except (OSError, ValueError):
            continue
    return out


def has_marker(pid: int, marker: bytes) -> bool:
    """Whether the process's environment holds ``marker`` (``NAME=value``)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return marker in f.read().split(b"\0")
    except OSError:
        return False


def user_tasks() -> int:
    """Tasks (threads included: what ``RLIMIT_NPROC`` counts) of this user now."""
    uid = os.getuid()
    n = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    n += len(os.listdir(f"/proc/{entry}/task"))
            except OSError:
                continue
    return n


def processes_in_group(pgid: int) -> list[int]:
    """Pids of live (non-zombie) processes whose process group is ``pgid`` (Linux /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(entry))
    return out


def is_alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    st = read_stat(pid)
    return st is not None and st.state not in ("Z", "X")


def own_cgroup_dir() -> Path | None:
    """The folder of the harness's own cgroup in the cgroup v2 hierarchy, if mounted."""
    try:
        rel = next(
            line[3:].strip() for line in Path("/proc/self/cgroup").read_text().splitlines() if line.startswith("0::")
        )
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except (OSError, StopIteration):
        return None
    for line in mounts:
        fields = line.split()
        if " - cgroup2 " in line and len(fields) > 4:
            return Path(fields[4]) / rel.lstrip("/")
    return None


class Cgroup:
    """A cgroup v2 for one program's tree, made only where the harness may make one.

    It gives exact membership (``cgroup.procs``: every process of the tree, whatever it
    did to its environment or parentage), an atomic kill (``cgroup.kill``, Linux ≥
    5.14) and, when the memory and pids controllers are enabled for children of the
    harness's cgroup, exact limits (``memory.max``, ``pids.max``).
    """

    PREFIX = "snakelab-"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.memory_max = False
        """Whether ``memory.max`` bounds the tree."""
        self.pids_max = False
        """Whether ``pids.max`` bounds the tree."""

    @classmethod
    def make(cls, token: str) -> Cgroup | None:
        """A new cgroup under the harness's own, or None where none can be made."""
        base = own_cgroup_dir()
        if base is None or not os.access(base, os.W_OK):
            return None
        cls._remove_stale(base)
        path = base / f"{cls.PREFIX}{os.getpid()}-{token}"
        try:
            path.mkdir()
        except OSError:
            return None
        if not os.access(path / "cgroup.procs", os.W_OK):
            with contextlib.suppress(OSError):
                path.rmdir()
            return None
        return cls(path)

    @classmethod
    def _remove_stale(cls, base: Path) -> None:
        """Kill and remove the cgroups of harnesses that died without cleaning up (SIGKILL)."""
        with contextlib.suppress(OSError):
            for entry in base.iterdir():
                if not entry.name.startswith(cls.PREFIX):
                    continue
                try:
                    owner = int(entry.name[len(cls.PREFIX) :].split("-")[0])
                except ValueError:
                    continue
                if owner == os.getpid() or is_alive(owner):
                    continue
                stale = cls(entry)
                stale.kill()
                stale.remove(wait_s=0.2)

    def limit(self, memory_bytes: int | None, pids: int | None) -> None:
        """Set ``memory.max`` and ``pids.max`` where those controllers are enabled."""
        if memory_bytes is not None:
            with contextlib.suppress(OSError):
                (self.path / "memory.max").write_text(str(memory_bytes))
                with contextlib.suppress(OSError):
                    (self.path / "memory.swap.max").write_text("0")
                self.memory_max = True
        if pids is not None:
            with contextlib.suppress(OSError):
                (self.path / "pids.max").write_text(str(pids))
                self.pids_max = True

    def oom_killed(self) -> bool:
        """Whether the kernel killed a process of the cgroup for passing ``memory.max``."""
        if not self.memory_max:
            return False
        try:
            events = dict(line.split() for line in (self.path / "memory.events").read_text().splitlines())
        except (OSError, ValueError):
            return False
        return int(events.get("oom_kill", "0")) > 0

    def procs(self) -> list[int]:
        """Pids of the processes in the cgroup."""
        try:
            return [int(x) for x in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def kill(self) -> None:
        """Kill every process in the cgroup at once (where ``cgroup.kill`` exists)."""
        with contextlib.suppress(OSError):
            (self.path / "cgroup.kill").write_text("1")

    def remove(self, wait_s: float = 1.0) -> None:
        """Remove the (emptied) cgroup; a cgroup still busy after ``wait_s`` is left."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    return
                for pid in self.procs():
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.01)


__all__ = [
    "Cgroup",
    "Stat",
    "children",
    "has_marker",
    "hold_subreaper",
    "is_alive",
    "is_subreaper",
    "own_cgroup_dir",
    "processes_in_group",
    "read_stat",
    "release_subreaper",
    "user_tasks",
]

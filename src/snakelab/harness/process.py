"""External programs: the one layer through which the harness runs any program.

Arena bots (:mod:`snakelab.harness.arena_bot`) and judged SNAKGAME programs
(:mod:`snakelab.harness.snakgame_judge`) both start their programs here. An
:class:`ExternalProcess` is one program and every process it starts (its *tree*):

**Start.** The program runs in its own session and process group
(``start_new_session``), with standard input and output as pipes the caller speaks
over, standard error to its own file (or the harness's, if none is given), and in its
environment a marker ``SNAKELAB_PROCESS_TREE=<token>`` that its descendants inherit.
Between fork and exec it gets its rlimits (below), no core files, and
``PR_SET_PDEATHSIG`` so it dies if the harness dies. Programs named ``java`` get the
memory limit as their heap (``-Xmx``) instead of an address-space limit, as the JVM
reserves far more address space than it uses.

**The tree.** The harness process makes itself a *child subreaper*
(``prctl(PR_SET_CHILD_SUBREAPER)``, Linux ≥ 3.4) when it starts its first program. A
process whose parent dies is then re-parented to the harness instead of init, so no
descendant of a program can leave the tree: not by double-forking, not by calling
``setsid()`` (which changes the session and process group, not the parent). A
watchdog thread samples the tree every :data:`POLL_S` seconds: the program's
descendants by their parent links (``/proc/<pid>/task/<tid>/children``), each checked
against its start time so a recycled pid is never mistaken for a member; and the
harness's own children that carry the program's marker (orphans that were born and
orphaned between two samples). It reaps the orphans of the tree that died.

**CPU time** of the tree is measured, not estimated: the sum over its live processes
of ``utime + stime + cutime + cstime`` from ``/proc/<pid>/stat`` (a process's own
time plus that of the children it has reaped), plus the resource usage (``wait4``)
of every member the harness reaped itself (the program and the orphans). Each
process is counted exactly once, alive or dead. :meth:`ExternalProcess.cpu_seconds`
samples it on demand; :attr:`ExternalProcess.cpu_s` is the watchdog's latest figure.

**Limits** (:class:`ProcessLimits`), all on the whole tree:

* ``cpu_s``: CPU seconds of the tree. The watchdog stops the tree once its CPU time
  passes the limit (within one sampling period: at most ``POLL_S`` × cores of CPU
  overshoot). Each process also gets ``RLIMIT_CPU`` of the limit + 1 s as a backstop.
* ``memory_mb``: the tree's resident memory together (sum of ``rss`` over its
  processes) is bounded by the watchdog, which stops the tree when it passes the
  limit; each process also gets ``RLIMIT_AS`` of the limit (Java: ``-Xmx``, and the
  tree bound gets :data:`JAVA_OVERHEAD_MB` on top for the JVM's own memory).
* ``max_processes``: processes alive in the tree at once; the watchdog stops a tree
  that has more. ``RLIMIT_NPROC`` (which the kernel counts per user, not per tree)
  is set to the user's task count at start plus :data:`NPROC_HEADROOM` as a backstop
  against fork bombs that outrun the watchdog (the kernel ignores it for root).

**A cgroup, where one can be made.** If the cgroup v2 hierarchy is mounted and the
harness may create a cgroup under its own (root, or a delegated subtree such as a
systemd user session's), each program gets one (:class:`Cgroup`): the program joins it
between fork and exec, so everything it starts is in it. Its ``cgroup.procs`` then
gives the tree exactly (even a process that cleared its environment and left its
parentage), ``cgroup.kill`` kills it at once, and where the harness's cgroup enables
the memory and pids controllers for its children, ``memory.max`` and ``pids.max``
bound the tree exactly (the kernel refuses the allocation or the fork). The cgroup is
removed when the program is closed; the cgroups of a harness that was killed with
SIGKILL are killed and removed by the next harness that makes one in the same place.

What is *not* possible without a cgroup: the memory and process bounds are sampled, so
a program that allocates or forks very fast can overshoot them for up to one sampling
period before it is stopped (the per-process ``RLIMIT_AS`` still caps each process
exactly, and resident memory counts pages shared between processes once per process);
a process that clears its environment and is orphaned between two samples is not
found (with the subreaper it is re-parented to the harness, but nothing tells it from
the harness's other children); and if the harness itself is killed with SIGKILL the
program dies (``PR_SET_PDEATHSIG``) but descendants it started live on, as nothing is
left to kill them. Without the subreaper (not Linux, or a kernel before 3.4) orphans go
to init: they are found through their marker while they live, but the CPU time of
those that end by themselves is lost.

**Stopping.** :meth:`ExternalProcess.kill` stops every process of the tree: first
``SIGSTOP`` to all (so none can fork while it is being killed), then ``SIGKILL``,
repeated until a fresh sample of the tree finds no live process.
:meth:`ExternalProcess.close` does that after an optional grace period and reaps
everything, so when it returns no process of the tree is alive. Callers close in a
``finally``; an ``atexit`` hook kills every tree still alive if the harness exits
(an exception, Ctrl-C, ``sys.exit``).

**Wall clock.** CPU time is the contest limit; wall-clock time only guards against a
program that sleeps or blocks (or waits for input that never comes), which uses no
CPU. The guard is separate and generous: :func:`wall_guard_s` gives
:data:`WALL_GUARD_MULTIPLE` (10) × the CPU limit by default, so the pipe latency of
a long dialogue (tens of microseconds per line) never decides a game. Callers apply
it to the time they spend waiting for the program; the arena keeps its own per-step
timing rules on top (see :mod:`snakelab.harness.arena_bot`).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import queue
import resource
import secrets
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from snakelab.core.errors import BotError

POLL_S = 0.05
"""Seconds between two samples of a program's tree by its watchdog."""

NPROC_HEADROOM = 512
"""Tasks a program may add to its user's count before ``RLIMIT_NPROC`` refuses a fork."""

JAVA_OVERHEAD_MB = 512
"""MiB a JVM may hold beyond its heap (``-Xmx``) before the tree's memory bound applies."""

WALL_GUARD_MULTIPLE = 10.0
"""Default wall-clock guard, in multiples of the CPU limit (see :func:`wall_guard_s`)."""

MARKER_ENV = "SNAKELAB_PROCESS_TREE"
"""The environment variable that marks every process of a program's tree."""

_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = resource.getpagesize()
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
try:
    _LIBC: Any = ctypes.CDLL(None, use_errno=True)
except OSError:  # pragma: no cover - not Linux
    _LIBC = None

_LIVE: weakref.WeakSet[ExternalProcess] = weakref.WeakSet()
_subreaper: bool | None = None
_subreaper_lock = threading.Lock()


def wall_guard_s(cpu_limit_s: float | None, wall_s: float | None = None) -> float | None:
    """The wall-clock guard: ``wall_s`` if given, else :data:`WALL_GUARD_MULTIPLE` × the CPU limit.

    None (no guard) when neither is given.
    """
    if wall_s is not None:
        return wall_s
    return None if cpu_limit_s is None else WALL_GUARD_MULTIPLE * cpu_limit_s


def make_subreaper() -> bool:
    """Make the harness process a child subreaper (once); whether it is one.

    Orphans of the programs it runs are then re-parented to it, so their trees stay
    closed. Without it (not Linux, or an old kernel), orphans go to init: they are
    still found and killed through their marker while they live, but the CPU time of
    those that end by themselves is lost.
    """
    global _subreaper
    with _subreaper_lock:
        if _subreaper is None:
            ok = False
            if _LIBC is not None:
                ok = _LIBC.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            _subreaper = ok
        return _subreaper


@dataclass(frozen=True)
class ProcessLimits:
    """Limits of one program's whole process tree (see the module docstring).

    Attributes:
        cpu_s: CPU seconds of the tree, or None for no limit.
        memory_mb: MiB of resident memory of the tree together (and of address space
            per process; for Java the heap), or None for no limit.
        max_processes: Processes alive in the tree at once, or None for no limit.
    """

    cpu_s: float | None = None
    memory_mb: int | None = 2048
    max_processes: int | None = 64


@dataclass(frozen=True)
class _Stat:
    """What one sample reads from ``/proc/<pid>/stat``."""

    start: int
    state: str
    ppid: int
    ticks: int  # utime + stime + cutime + cstime
    rss_pages: int


def _read_stat(pid: int) -> _Stat | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    # Fields after the command (which may hold spaces or parentheses) follow the last ')'.
    fields = raw[raw.rfind(b")") + 2 :].split()
    try:
        return _Stat(
            start=int(fields[19]),
            state=fields[0].decode(),
            ppid=int(fields[1]),
            ticks=int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14]),
            rss_pages=int(fields[21]),
        )
    except (IndexError, ValueError):
        return None


def _children(pid: int) -> list[int]:
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


def _has_marker(pid: int, marker: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return marker in f.read().split(b"\0")
    except OSError:
        return False


def _user_tasks() -> int:
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
    st = _read_stat(pid)
    return st is not None and st.state not in ("Z", "X")


def _own_cgroup_dir() -> Path | None:
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
        base = _own_cgroup_dir()
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


def _preexec(
    cpu_s: float | None, mem_bytes: int | None, nproc: int | None, cgroup_procs: bytes | None
) -> Callable[[], None]:
    libc = _LIBC

    def setup() -> None:  # runs in the child between fork and exec: keep it tiny
        if cgroup_procs is not None:
            try:  # join the tree's cgroup before anything else can fork
                fd = os.open(cgroup_procs, os.O_WRONLY)
                os.write(fd, b"0")
                os.close(fd)
            except OSError:
                pass
        if cpu_s is not None:
            # A backstop only: the watchdog stops the tree at the limit itself.
            c = max(1, int(cpu_s + 0.999)) + 1
            resource.setrlimit(resource.RLIMIT_CPU, (c, c + 1))
        if mem_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (mem_bytes, mem_bytes))
        if nproc is not None:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if libc is not None:
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)

    return setup


def describe_exit(code: int) -> str:
    """``exited with code N`` or ``was killed by SIGNAME (why)`` for an exit status."""
    if code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        why = {"SIGXCPU": " (CPU-time limit)", "SIGKILL": " (killed)", "SIGSEGV": " (crash)"}.get(name, "")
        return f"was killed by {name}{why}"
    return f"exited with code {code}"


class ExternalProcess:
    """One external program and its whole process tree (see the module docstring).

    Args:
        command: The argv.
        limits: Limits of the tree.
        err_path: File for its standard error (None: the harness's standard error).
        cwd: Working folder (default: the harness's).
        poll_s: Seconds between two samples by the watchdog.
        on_write_error: Called (in the writer thread) when writing to its standard
            input fails: it closed it, or exited.
        use_cgroup: Put the tree in a cgroup of its own where one can be made.

    Raises:
        BotError: if the program cannot be started.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        limits: ProcessLimits | None = None,
        err_path: str | os.PathLike[str] | None = None,
        cwd: str | None = None,
        poll_s: float = POLL_S,
        on_write_error: Callable[[], None] | None = None,
        use_cgroup: bool = True,
    ) -> None:
        self.command = list(command)
        self._on_write_error = on_write_error
        self.limits = limits or ProcessLimits()
        self.poll_s = poll_s
        argv = list(self.command)
        java = bool(argv) and Path(argv[0]).name == "java"
        mem = self.limits.memory_mb
        if java and mem is not None:
            argv.insert(1, f"-Xmx{mem}m")
        self._tree_mem_bytes = None if mem is None else (mem + (JAVA_OVERHEAD_MB if java else 0)) << 20
        make_subreaper()
        self._token = secrets.token_hex(8)
        self.cgroup = Cgroup.make(self._token) if use_cgroup else None
        """The tree's cgroup, where one could be made (None otherwise)."""
        if self.cgroup is not None:
            self.cgroup.limit(self._tree_mem_bytes, self.limits.max_processes)
        self._marker = f"{MARKER_ENV}={self._token}".encode()
        env = dict(os.environ)
        env[MARKER_ENV] = self._token
        nproc = None if self.limits.max_processes is None else _user_tasks() + NPROC_HEADROOM
        self._err: IO[bytes] | None = None
        if err_path is not None:
            Path(err_path).parent.mkdir(parents=True, exist_ok=True)
            self._err = Path(err_path).open("wb")  # noqa: SIM115 - open for the program's life, closed by close()
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._err,
                cwd=cwd,
                env=env,
                start_new_session=True,
                preexec_fn=_preexec(  # noqa: PLW1509 - rlimits and the cgroup must be set in the child
                    self.limits.cpu_s,
                    None if java or mem is None else mem << 20,
                    nproc,
                    None if self.cgroup is None else bytes(self.cgroup.path / "cgroup.procs"),
                ),
                bufsize=0,
            )
        except OSError as exc:
            if self._err is not None:
                self._err.close()
            if self.cgroup is not None:
                self.cgroup.remove()
            raise BotError(f"cannot start {shlex.join(self.command)}: {exc.strerror or exc}") from None
        self.pid = self.proc.pid
        self.started = time.monotonic()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdout_fd = self.proc.stdout.fileno()
        self.returncode: int | None = None
        self.fault: str | None = None
        """Why the harness stopped the tree for breaking a limit (None if it did not)."""
        self.fault_kind: str | None = None
        """``"cpu"``, ``"memory"`` or ``"processes"`` with :attr:`fault`."""
        self.cpu_s = 0.0
        """CPU seconds of the tree at the latest sample."""
        self.peak_memory_mb = 0.0
        """Largest resident memory of the tree together seen by a sample, in MiB."""
        self.peak_processes = 1
        self._dead_s = 0.0  # CPU of members the harness reaped itself (wait4)
        self._members: dict[int, int] = {self.pid: -1}  # pid -> start time (-1: not read yet)
        self._not_ours: set[tuple[int, int]] = set()  # (pid, start) of our children without the marker
        self._lock = threading.RLock()  # one sample, reap or kill at a time
        self._closed = threading.Event()
        self._killed = False
        self._out: queue.Queue[bytes | None] = queue.Queue(maxsize=1000)
        self.write_failed = False
        """Whether a write to its standard input failed (it closed it or exited)."""
        _LIVE.add(self)
        self._writer = threading.Thread(target=self._write, name=f"proc-writer-{self.pid}", daemon=True)
        self._watchdog = threading.Thread(target=self._watch, name=f"proc-watchdog-{self.pid}", daemon=True)
        self._writer.start()
        self._watchdog.start()

    # -- input -------------------------------------------------------------------
    def send(self, data: bytes) -> None:
        """Queue bytes for standard input: never blocks (dropped when 1000 writes behind).

        A writer thread does the writing, so a program that stops reading can never
        block the harness.
        """
        with contextlib.suppress(queue.Full):
            self._out.put_nowait(data)

    def _write(self) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        while True:
            data = self._out.get()
            if data is None:
                break
            try:
                view = memoryview(data)
                while view:
                    n = os.write(stdin.fileno(), view)
                    view = view[n:]
            except (OSError, ValueError):
                self.write_failed = True
                if self._on_write_error is not None and not self._killed:
                    self._on_write_error()
                break

    def flush_input(self, timeout_s: float) -> None:
        """Wait up to ``timeout_s`` for queued input to be written (e.g. a last line)."""
        deadline = time.monotonic() + timeout_s
        while not self._out.empty() and self._writer.is_alive() and time.monotonic() < deadline:
            time.sleep(0.002)

    # -- the tree ----------------------------------------------------------------
    def _sample(self) -> dict[int, _Stat]:
        """Find the live tree and update CPU, memory and process figures (caller holds the lock)."""
        self._reap()
        found: dict[int, _Stat] = {}
        stack = list(self._members)
        if self.cgroup is not None:
            stack.extend(self.cgroup.procs())  # exact, where the tree has a cgroup
        me = os.getpid()
        # Orphans re-parented to the harness before a sample saw them: ours if marked.
        for child in _children(me):
            if child in self._members:
                continue
            st = _read_stat(child)
            if st is None or (child, st.start) in self._not_ours:
                continue
            if child != self.pid and _has_marker(child, self._marker):
                stack.append(child)
            else:
                self._not_ours.add((child, st.start))
        while stack:
            pid = stack.pop()
            if pid in found:
                continue
            st = _read_stat(pid)
            known = self._members.get(pid)
            if st is None or (known is not None and known not in (-1, st.start)):
                self._members.pop(pid, None)  # gone, or its pid recycled by another process
                continue
            self._members[pid] = st.start
            found[pid] = st
            stack.extend(c for c in _children(pid) if c not in found)
        for pid in [p for p in self._members if p not in found]:
            if pid != self.pid or self.returncode is not None:
                del self._members[pid]
        live = {p: s for p, s in found.items() if s.state not in ("Z", "X")}
        # The program's own entry, once reaped, is in _dead_s (its wait4 usage).
        ticks = sum(s.ticks for p, s in found.items() if p != self.pid or self.returncode is None)
        cpu = self._dead_s + ticks / _CLK_TCK
        self.cpu_s = max(self.cpu_s, cpu)  # monotone across the moment a process is reaped
        mem = sum(s.rss_pages for s in live.values()) * _PAGE
        self.peak_memory_mb = max(self.peak_memory_mb, mem / (1 << 20))
        self.peak_processes = max(self.peak_processes, len(live))
        return live

    def _reap(self) -> None:
        """Reap the program and any dead orphan of its tree, keeping their CPU time."""
        if self.returncode is None:
            self._wait4(self.pid, main=True)
        me = os.getpid()
        for pid in list(self._members):
            if pid == self.pid:
                continue
            st = _read_stat(pid)
            if st is not None and st.state in ("Z", "X") and st.ppid == me:
                self._wait4(pid, main=False)

    def _wait4(self, pid: int, *, main: bool) -> None:
        try:
            got, status, ru = os.wait4(pid, os.WNOHANG)
        except ChildProcessError:
            if main and self.returncode is None:
                self.returncode = self.proc.returncode if self.proc.returncode is not None else 0
            return
        if got == 0:
            return
        self._dead_s += ru.ru_utime + ru.ru_stime
        if main:
            self.returncode = os.waitstatus_to_exitcode(status)
            self.proc.returncode = self.returncode  # so Popen never waits for it again

    def _watch(self) -> None:
        limits = self.limits
        while not self._closed.wait(self.poll_s):
            with self._lock:
                if self._killed:
                    self._reap()
                    continue
                live = self._sample()
                fault: tuple[str, str] | None = None
                if limits.cpu_s is not None and self.cpu_s > limits.cpu_s:
                    fault = ("cpu", f"used more than {limits.cpu_s:g} s of CPU time (its processes together)")
                elif self._tree_mem_bytes is not None and sum(s.rss_pages for s in live.values()) * _PAGE > (
                    self._tree_mem_bytes
                ):
                    fault = (
                        "memory",
                        f"used more than {self._tree_mem_bytes >> 20} MiB of memory (its processes together)",
                    )
                elif limits.max_processes is not None and len(live) > limits.max_processes:
                    fault = ("processes", f"ran more than {limits.max_processes} processes at once")
                if fault is not None:
                    self.fault_kind, self.fault = fault
                    self._kill_tree()

    def cpu_seconds(self) -> float:
        """CPU seconds of the whole tree so far (a fresh sample)."""
        with self._lock:
            self._sample()
            return self.cpu_s

    def members(self) -> list[int]:
        """Pids of the live processes of the tree (a fresh sample)."""
        with self._lock:
            return sorted(self._sample())

    # -- exit --------------------------------------------------------------------
    def poll(self) -> int | None:
        """The program's exit code (negative: killed by that signal), None while it runs."""
        if self.returncode is None:
            with self._lock:
                self._wait4(self.pid, main=True)
        return self.returncode

    def wait(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for the program (not its tree) to exit; whether it did."""
        deadline = time.monotonic() + max(0.0, timeout_s)
        while self.poll() is None:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(0.005, left))
        return True

    def exit_reason(self) -> str:
        """Why the program stopped: a limit it broke, or how it exited."""
        if self.fault is not None:
            return self.fault
        code = self.poll()
        if code is None:
            self.wait(0.5)  # its output closes a moment before its exit status is there
            code = self.returncode
        if code is None:
            return "closed its standard output"
        if code == -signal.SIGKILL and self.cgroup is not None and self.cgroup.oom_killed():
            return f"used more than {self.limits.memory_mb} MiB of memory (its processes together)"
        return describe_exit(code)

    def _kill_tree(self) -> None:
        """Stop, then kill, every live process of the tree until none is left (lock held)."""
        self._killed = True
        if self.cgroup is not None:
            self.cgroup.kill()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        deadline = time.monotonic() + 5.0
        while True:
            live = self._sample()
            if not live or time.monotonic() > deadline:
                break
            # Freeze first, so nothing forks between the sample and the kill; the next
            # sample then finds any child born just before.
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                for pid in live:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, sig)
            time.sleep(0.002)
        self._reap()

    def kill(self) -> None:
        """Kill the whole tree now (safe to call twice, from any thread)."""
        with self._lock:
            self._kill_tree()

    def close(self, grace_s: float = 0.0) -> None:
        """Wait ``grace_s`` for the program to exit, kill the tree, release everything.

        When it returns, no process of the tree is alive and the program is reaped.
        """
        if grace_s > 0 and self.returncode is None:
            self.wait(grace_s)
        with contextlib.suppress(queue.Full):
            self._out.put_nowait(None)
        with self._lock:
            self._kill_tree()
            if self.returncode is None:
                # SIGKILL is delivered asynchronously: wait for the status to be there.
                end = time.monotonic() + 5.0
                while self.returncode is None and time.monotonic() < end:
                    self._wait4(self.pid, main=True)
                    if self.returncode is None:
                        time.sleep(0.002)
            self._sample()  # the final CPU figure, with everything reaped
            if self.cgroup is not None:
                self.cgroup.remove()
        self._closed.set()
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        self._writer.join(timeout=1)
        self._watchdog.join(timeout=1)
        if self._err is not None:
            self._err.close()
        _LIVE.discard(self)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed.is_set()


def kill_all_processes() -> None:
    """Kill the tree of every external program this harness started that is still alive."""
    for p in list(_LIVE):
        with contextlib.suppress(Exception):
            p.kill()


atexit.register(kill_all_processes)

__all__ = [
    "ExternalProcess",
    "ProcessLimits",
    "describe_exit",
    "is_alive",
    "kill_all_processes",
    "make_subreaper",
    "processes_in_group",
    "wall_guard_s",
]

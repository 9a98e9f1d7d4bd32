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

**The tree.** The harness process is a *child subreaper*
(``prctl(PR_SET_CHILD_SUBREAPER)``, Linux ≥ 3.4) while it runs programs. A
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

Why one module over 400 lines: starting a program, limiting its tree and stopping it are
one lifetime; the Linux primitives under it are :mod:`.proctree`.
"""

from __future__ import annotations

import atexit
import contextlib
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
from typing import IO

from snakelab.core.errors import BotError
from snakelab.harness.proctree import (
    CLK_TCK,
    LIBC,
    PAGE,
    PR_SET_PDEATHSIG,
    Cgroup,
    Stat,
    children,
    has_marker,
    hold_subreaper,
    is_alive,
    is_subreaper,
    processes_in_group,
    read_stat,
    release_subreaper,
    user_tasks,
)

POLL_S = 0.05
"""Seconds between two samples of a program's tree by its watchdog."""

NPROC_HEADROOM = 1024
"""Tasks a program may add to its user's count before ``RLIMIT_NPROC`` refuses a fork."""

JAVA_OVERHEAD_MB = 512
"""MiB a JVM may hold beyond its heap (``-Xmx``) before the tree's memory bound applies."""

WALL_GUARD_MULTIPLE = 10.0
"""Default wall-clock guard, in multiples of the CPU limit (see :func:`wall_guard_s`)."""

MARKER_ENV = "SNAKELAB_PROCESS_TREE"
"""The environment variable that marks every process of a program's tree."""

_LIVE: weakref.WeakSet[ExternalProcess] = weakref.WeakSet()


def wall_guard_s(cpu_limit_s: float | None, wall_s: float | None = None) -> float | None:
    """The wall-clock guard: ``wall_s`` if given, else :data:`WALL_GUARD_MULTIPLE` × the CPU limit.

    None (no guard) when neither is given.
    """
    if wall_s is not None:
        return wall_s
    return None if cpu_limit_s is None else WALL_GUARD_MULTIPLE * cpu_limit_s


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


def _preexec(
    cpu_s: float | None, mem_bytes: int | None, nproc: int | None, cgroup_procs: bytes | None
) -> Callable[[], None]:
    libc = LIBC

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
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

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
        self._err: IO[bytes] | None = None
        if err_path is not None:
            try:
                Path(err_path).parent.mkdir(parents=True, exist_ok=True)
                self._err = Path(err_path).open("wb")  # noqa: SIM115 - open for the program's life, closed by close()
            except OSError as exc:
                raise BotError(f"cannot write the error file {err_path}: {exc.strerror or exc}") from None
        self._subreaper = hold_subreaper()
        self._token = secrets.token_hex(8)
        self.cgroup = Cgroup.make(self._token) if use_cgroup else None
        """The tree's cgroup, where one could be made (None otherwise)."""
        if self.cgroup is not None:
            self.cgroup.limit(self._tree_mem_bytes, self.limits.max_processes)
        self._marker = f"{MARKER_ENV}={self._token}".encode()
        env = dict(os.environ)
        env[MARKER_ENV] = self._token
        nproc = None if self.limits.max_processes is None else user_tasks() + NPROC_HEADROOM
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
            if self._subreaper:
                release_subreaper()
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
    def _sample(self) -> dict[int, Stat]:
        """Find the live tree and update CPU, memory and process figures (caller holds the lock)."""
        self._reap()
        found: dict[int, Stat] = {}
        stack = list(self._members)
        if self.cgroup is not None:
            stack.extend(self.cgroup.procs())  # exact, where the tree has a cgroup
        me = os.getpid()
        # Orphans re-parented to the harness before a sample saw them: ours if marked.
        for child in children(me):
            if child in self._members:
                continue
            st = read_stat(child)
            if st is None or (child, st.start) in self._not_ours:
                continue
            if child != self.pid and has_marker(child, self._marker):
                stack.append(child)
            else:
                self._not_ours.add((child, st.start))
        while stack:
            pid = stack.pop()
            if pid in found:
                continue
            st = read_stat(pid)
            known = self._members.get(pid)
            if st is None or (known is not None and known not in (-1, st.start)):
                self._members.pop(pid, None)  # gone, or its pid recycled by another process
                continue
            self._members[pid] = st.start
            found[pid] = st
            stack.extend(c for c in children(pid) if c not in found)
        for pid in [p for p in self._members if p not in found]:
            if pid != self.pid or self.returncode is not None:
                del self._members[pid]
        live = {p: s for p, s in found.items() if s.state not in ("Z", "X")}
        # The program's own entry, once reaped, is in _dead_s (its wait4 usage).
        ticks = sum(s.ticks for p, s in found.items() if p != self.pid or self.returncode is None)
        cpu = self._dead_s + ticks / CLK_TCK
        self.cpu_s = max(self.cpu_s, cpu)  # monotone across the moment a process is reaped
        mem = sum(s.rss_pages for s in live.values()) * PAGE
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
            st = read_stat(pid)
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
                elif self._tree_mem_bytes is not None and sum(s.rss_pages for s in live.values()) * PAGE > (
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
            if self._subreaper and not self._closed.is_set():
                release_subreaper()
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
    "is_subreaper",
    "kill_all_processes",
    "processes_in_group",
    "wall_guard_s",
]

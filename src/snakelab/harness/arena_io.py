"""The snAIke protocol channel of an arena bot: its program over the process layer.

A :class:`BotProcess` runs one bot program (:func:`bot_command`: ``python3 -u FILE``
for ``.py`` files, ``java -jar FILE`` for ``.jar`` files, anything else as is) through
:class:`~snakelab.harness.process.ExternalProcess`, which limits, measures and kills
its whole process tree. A reader thread reads its standard output: lines starting
``log `` are appended to its own log file (up to ``log_limit`` bytes), every other line
is an answer; a line over 64 KiB, or more than ``output_limit`` bytes of answers not
yet read (or of log lines in one step), is a flood: the bot is killed. Timing rules
live in the seat, :mod:`snakelab.harness.arena_bot`.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from snakelab.core.errors import BotError, ConfigError
from snakelab.harness.process import ExternalProcess, ProcessLimits

_MAX_LINE = 65536
"""Longest line a bot may print (a move is one character; logs get plenty of room)."""


def bot_command(path: str, kind: str | None = None, python: str = "python3") -> list[str]:
    """The command that starts a bot.

    Args:
        path: A ``.py`` file, a ``.jar`` file or an executable (may contain
            arguments when ``kind`` is ``"exec"``, shell-quoted).
        kind: ``"python"``, ``"java"`` or ``"exec"``; None guesses from the suffix.
        python: The interpreter for Python bots.

    Raises:
        ConfigError: if the file does not exist, or ``kind`` is unknown.
    """
    if kind is None:
        kind = "python" if path.endswith(".py") else "java" if path.endswith(".jar") else "exec"
    if kind == "python":
        _must_exist(path)
        return [python, "-u", path]
    if kind == "java":
        _must_exist(path)
        return ["java", "-jar", path]
    if kind == "exec":
        argv = shlex.split(path)
        if not argv:
            raise ConfigError("empty bot command")
        _must_exist(argv[0], executable=True)
        return argv
    raise ConfigError(f"unknown bot kind {kind!r}: use python, java or exec")


def _must_exist(path: str, *, executable: bool = False) -> None:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"bot file {path!r} does not exist")
    if executable and not os.access(p, os.X_OK):
        raise ConfigError(f"bot {path!r} is not executable (chmod +x it, or pass it with -p or -j)")


@dataclass(frozen=True)
class BotLimits:
    """Limits of one bot: those of its process tree, and of its output.

    Attributes:
        cpu_s: CPU seconds of its process tree for the whole game, or None for no limit.
        memory_mb: Memory of its process tree in MiB (see
            :class:`~snakelab.harness.process.ProcessLimits`; for Java the heap).
        max_processes: Processes its tree may run at once.
        output_limit: Bytes of unread answers (or of log lines in one step) allowed
            before the bot is killed for flooding its output.
        log_limit: Bytes kept in the log file; later log lines are dropped.
    """

    cpu_s: float | None = None
    memory_mb: int | None = 2048
    max_processes: int | None = 64
    output_limit: int = 1 << 20
    log_limit: int = 2 << 20


class BotProcess:
    """One bot program with its log and error files, over the process layer.

    Args:
        command: The argv (see :func:`bot_command`).
        log_path: Its log file (``log `` lines, prefix removed).
        err_path: Its error file (standard error).
        limits: Limits.
        cwd: Working folder of the bot (default: the harness's).

    Raises:
        BotError: if the program cannot be started.
    """

    def __init__(
        self,
        command: Sequence[str],
        log_path: str | os.PathLike[str],
        err_path: str | os.PathLike[str],
        limits: BotLimits | None = None,
        cwd: str | None = None,
    ) -> None:
        self.command = list(command)
        self.limits = limits or BotLimits()
        self.log_path = Path(log_path)
        self.err_path = Path(err_path)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log: IO[bytes] = self.log_path.open("wb")
        self._log_bytes = 0
        self._cond = threading.Condition()
        self._answers: list[str] = []
        self._answer_base = 0  # answers received before those in _answers
        self._buffered = 0  # bytes of answers received and not yet consumed
        self._logged = 0  # bytes of log lines since the last consumption
        self.eof = False
        self.fault: str | None = None
        lim = self.limits
        try:
            self.ext = ExternalProcess(
                self.command,
                limits=ProcessLimits(cpu_s=lim.cpu_s, memory_mb=lim.memory_mb, max_processes=lim.max_processes),
                err_path=self.err_path,
                cwd=cwd,
                on_write_error=self._write_failed,
            )
        except BotError:
            self._log.close()
            raise
        self.pid = self.ext.pid
        self.started = self.ext.started
        # Opened here, not in the thread: a bot closed before the thread first runs would
        # otherwise leave it opening a closed descriptor.
        reader = open(self.ext.stdout_fd, "rb", closefd=False)  # noqa: SIM115 - buffered view of the pipe
        self._reader = threading.Thread(target=self._read, args=(reader,), name=f"bot-reader-{self.pid}", daemon=True)
        self._reader.start()

    def _read(self, reader: IO[bytes]) -> None:
        limit = self.limits.output_limit
        try:
            while True:
                try:
                    chunk = reader.readline(_MAX_LINE)
                except (OSError, ValueError):
                    break
                if not chunk:
                    break
                if len(chunk) == _MAX_LINE and not chunk.endswith(b"\n"):
                    self._set_fault(f"printed a line longer than {_MAX_LINE} bytes")
                    self.kill()
                    break
                line = chunk.decode("utf-8", "replace").rstrip("\r\n")
                is_log = line.startswith("log ")
                with self._cond:
                    if is_log:
                        self._logged += len(line) + 1
                    else:
                        self._answers.append(line)
                        self._buffered += len(line) + 1
                        self._cond.notify_all()
                    flood = self._buffered > limit or self._logged > limit
                if flood:
                    self._set_fault(f"printed more than {limit} bytes faster than the game reads them")
                    self.kill()
                    break
                if is_log:
                    self._write_log(line[4:])
        finally:
            reader.close()
            with self._cond:
                self.eof = True
                self._cond.notify_all()

    def _write_log(self, message: str) -> None:
        data = (message + "\n").encode("utf-8", "replace")
        if self._log_bytes + len(data) > self.limits.log_limit:
            return
        self._log_bytes += len(data)
        with contextlib.suppress(OSError, ValueError):
            self._log.write(data)
            self._log.flush()

    def _write_failed(self) -> None:
        # A write also fails once the bot has exited (a bot that never reads, say,
        # blocked on a full pipe until then): its exit status is the better reason.
        if not self.ext.wait(0.5):
            self._set_fault("closed its standard input")

    def _set_fault(self, reason: str) -> None:
        with self._cond:
            if self.fault is None:
                self.fault = reason
            self._cond.notify_all()

    # -- API ---------------------------------------------------------------------
    def send(self, lines: Sequence[str]) -> None:
        """Queue lines for the bot's standard input (never blocks; dropped if 1000 behind)."""
        self.ext.send(("\n".join(lines) + "\n").encode())

    def running(self) -> bool:
        """Whether the process is alive and no fault was seen."""
        return self.fault is None and self.ext.fault is None and not self.eof and self.ext.poll() is None

    def exit_reason(self) -> str:
        """Why the bot stopped running (for notices and events)."""
        if self.fault is not None:
            return self.fault
        return self.ext.exit_reason()

    def take_latest(self) -> str | None:
        """Real time: the last answer since the previous take (None if none), then forget them."""
        with self._cond:
            line = self._answers[-1] if self._answers else None
            self._answer_base += len(self._answers)
            self._answers.clear()
            self._buffered = 0
            self._logged = 0
            return line

    def wait_answer(self, k: int, timeout_s: float) -> str | None:
        """Lockstep: wait up to ``timeout_s`` for answer number ``k`` (1-based); None if none came."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            # Answers already consumed (a bot that printed extra lines) cannot be this one.
            k = max(k, self._answer_base + 1)
            while self._answer_base + len(self._answers) < k:
                if self.eof or self.fault is not None:
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(min(left, 0.1))  # 0.1: notice a limit the process layer enforced
                if self.ext.fault is not None:
                    return None
                if self.ext.returncode is not None and self._answer_base + len(self._answers) < k:
                    # It exited (its children may hold its output open): read what it left.
                    self._cond.wait(0.1)
                    if self._answer_base + len(self._answers) < k:
                        return None
            line = self._answers[k - 1 - self._answer_base]
            drop = k - self._answer_base
            self._buffered -= sum(len(a) + 1 for a in self._answers[:drop])
            del self._answers[:drop]
            self._answer_base = k
            self._logged = 0
            return line

    def wait_exit(self, timeout_s: float) -> bool:
        """Wait for the process to exit by itself; whether it did."""
        return self.ext.wait(timeout_s)

    def kill(self) -> None:
        """Kill the bot's whole process tree (safe to call twice, from any thread)."""
        self.ext.kill()

    def close(self, grace_s: float = 0.0) -> None:
        """Wait ``grace_s`` for a clean exit, then kill the tree and release everything."""
        self.ext.wait(grace_s)
        self.ext.kill()
        # The tree is dead, so the pipe is at end of file and the reader ends as soon as it
        # gets the CPU; the bound only guards against a writer outside the tree. It must end
        # before ``ext.close`` closes the pipe: lines the bot printed last (its log of
        # ``Game Over``) are still in the pipe when a loaded machine has not run the reader.
        self._reader.join(timeout=5)
        self.ext.close()
        self._log.close()


__all__ = ["BotLimits", "BotProcess", "bot_command"]

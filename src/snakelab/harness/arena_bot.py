"""External bots as subprocesses: the snAIke text protocol over stdin/stdout.

A :class:`BotProcess` is one program: ``python3 -u FILE`` for ``.py`` files,
``java -jar FILE`` for ``.jar`` files, anything else run as is. It runs in its own
process group (``start_new_session``) under CPU-time and memory rlimits and dies with
the harness (``PR_SET_PDEATHSIG``). A reader thread reads its standard output: lines
starting ``log `` are appended to its own log file, every other line is an answer;
its standard error goes straight to its own error file. A writer thread feeds its
standard input, so a bot that stops reading can never block the harness.

:class:`BotAgent` plays an arena seat through a :class:`BotProcess`:

* real time (default): each step the state is sent to every bot of the match at
  once, then each bot's answer is the last move line received since the previous
  step's deadline (``speed`` ms after its state was sent); none means
  :data:`~snakelab.games.arena.rules.TIMEOUT` (straight), so a late answer lands on
  the next step, as in the original engine;
* lockstep: the k-th answer belongs to the k-th state; the harness waits for it up
  to ``timeout_s`` (then TIMEOUT, and that late answer is skipped when it comes).

Faults: an unparseable answer is :data:`~snakelab.games.arena.rules.INVALID`
(straight). A bot whose process exits or is killed (CPU limit, memory), closes its
standard input, or floods its output (a line over 64 KiB, more than ``output_limit``
bytes of answers the game has not read yet, or of log lines in one step; it is then
killed) gets :data:`~snakelab.games.arena.rules.CRASH`: removed for the rest of the
game. The reason is kept in :attr:`BotAgent.faults` and the agent's ``notice``.

At the end every bot gets ``Game Over`` (all of a match's bots at once) and 500 ms
later its whole process group is killed, whatever happened; an ``atexit`` hook kills
any group still alive if the harness itself goes down.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import queue
import resource
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

from snakelab.core.errors import BotError, CodecError, ConfigError
from snakelab.core.game import BaseAgent, Budget, GameInfo

_MAX_LINE = 65536
"""Longest line a bot may print (a move is one character; logs get plenty of room)."""

GAME_OVER_GRACE_S = 0.5
"""Seconds a bot has to exit after ``Game Over`` before its process group is killed."""

_LIVE: weakref.WeakSet[BotProcess] = weakref.WeakSet()
_PR_SET_PDEATHSIG = 1
try:
    _LIBC: Any = ctypes.CDLL(None, use_errno=True)
except OSError:  # pragma: no cover - not Linux
    _LIBC = None


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
    """Resource limits of one bot process.

    Attributes:
        cpu_s: CPU seconds (RLIMIT_CPU) for the whole game, or None for no limit.
        memory_mb: Address space in MiB (RLIMIT_AS); for Java the heap (``-Xmx``)
            instead, as the JVM reserves far more address space than it uses.
        output_limit: Bytes of unread answers (or of log lines in one step) allowed
            before the bot is killed for flooding its output.
        log_limit: Bytes kept in the log file; later log lines are dropped.
    """

    cpu_s: float | None = None
    memory_mb: int | None = 2048
    output_limit: int = 1 << 20
    log_limit: int = 2 << 20


def _preexec(limits: BotLimits, java: bool) -> Callable[[], None]:
    cpu = limits.cpu_s
    mem = None if java or limits.memory_mb is None else limits.memory_mb << 20
    libc = _LIBC

    def setup() -> None:  # runs in the child between fork and exec: keep it tiny
        if cpu is not None:
            c = max(1, int(cpu + 0.999))
            resource.setrlimit(resource.RLIMIT_CPU, (c, c + 1))
        if mem is not None:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if libc is not None:
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)

    return setup


class BotProcess:
    """One bot program with its log and error files.

    Args:
        command: The argv (see :func:`bot_command`).
        log_path: Its log file (``log `` lines, prefix removed).
        err_path: Its error file (standard error).
        limits: Resource limits.
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
        argv = list(self.command)
        java = bool(argv) and Path(argv[0]).name == "java"
        if java and self.limits.memory_mb is not None:
            argv.insert(1, f"-Xmx{self.limits.memory_mb}m")
        self._err: IO[bytes] = self.err_path.open("wb")
        self._log: IO[bytes] = self.log_path.open("wb")
        self._log_bytes = 0
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._err,
                cwd=cwd,
                start_new_session=True,
                preexec_fn=_preexec(self.limits, java),  # noqa: PLW1509 - rlimits must be set in the child
                bufsize=0,
            )
        except OSError as exc:
            self._err.close()
            self._log.close()
            raise BotError(f"cannot start bot {shlex.join(self.command)}: {exc.strerror or exc}") from None
        self.pid = self.proc.pid
        self.started = time.monotonic()
        _LIVE.add(self)
        self._cond = threading.Condition()
        self._answers: list[str] = []
        self._answer_base = 0  # answers received before those in _answers
        self._buffered = 0  # bytes of answers received and not yet consumed
        self._logged = 0  # bytes of log lines since the last consumption
        self.eof = False
        self.fault: str | None = None
        self._out: queue.Queue[bytes | None] = queue.Queue(maxsize=1000)
        self._reader = threading.Thread(target=self._read, name=f"bot-reader-{self.pid}", daemon=True)
        self._writer = threading.Thread(target=self._write, name=f"bot-writer-{self.pid}", daemon=True)
        self._reader.start()
        self._writer.start()
        self._killed = False

    # -- threads ---------------------------------------------------------------
    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        reader = open(out.fileno(), "rb", closefd=False)  # noqa: SIM115 - buffered view of the pipe
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
            except (BrokenPipeError, OSError, ValueError):
                # A write also fails once the bot has exited (a bot that never reads, say,
                # blocked on a full pipe until then): its exit status is the better reason.
                if not self._killed and not self.wait_exit(0.5):
                    self._set_fault("closed its standard input")
                break

    def _set_fault(self, reason: str) -> None:
        with self._cond:
            if self.fault is None:
                self.fault = reason
            self._cond.notify_all()

    # -- API ---------------------------------------------------------------------
    def send(self, lines: Sequence[str]) -> None:
        """Queue lines for the bot's standard input (never blocks; dropped if 1000 behind)."""
        with contextlib.suppress(queue.Full):
            self._out.put_nowait(("\n".join(lines) + "\n").encode())

    def running(self) -> bool:
        """Whether the process is alive and no fault was seen."""
        return self.fault is None and not self.eof and self.proc.poll() is None

    def exit_reason(self) -> str:
        """Why the bot stopped running (for notices and events)."""
        if self.fault is not None:
            return self.fault
        code = self.proc.poll()
        if code is None and self.eof:
            # Output closes a moment before the exit status is there.
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.proc.wait(timeout=0.5)
        if code is None:
            return "closed its standard output"
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
            why = {"SIGXCPU": " (CPU-time limit)", "SIGKILL": " (killed)", "SIGSEGV": " (crash)"}.get(name, "")
            return f"was killed by {name}{why}"
        return f"exited with code {code}"

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
        """Lockstep: wait up to ``timeout_s`` for answer number ``k`` (1-based); None on timeout."""
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
                self._cond.wait(left)
            line = self._answers[k - 1 - self._answer_base]
            drop = k - self._answer_base
            self._buffered -= sum(len(a) + 1 for a in self._answers[:drop])
            del self._answers[:drop]
            self._answer_base = k
            self._logged = 0
            return line

    def wait_exit(self, timeout_s: float) -> bool:
        """Wait for the process to exit by itself; whether it did."""
        try:
            self.proc.wait(timeout=max(0.0, timeout_s))
        except subprocess.TimeoutExpired:
            return False
        return True

    def kill(self) -> None:
        """Kill the bot's whole process group (safe to call twice, from any thread)."""
        self._killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)

    def close(self, grace_s: float = 0.0) -> None:
        """Wait ``grace_s`` for a clean exit, then kill the group and release everything."""
        if grace_s > 0 and self.proc.poll() is None:
            self.wait_exit(grace_s)
        self.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        # SIGKILL is delivered asynchronously: the bot's own children (reparented to init)
        # may live a few more milliseconds. Wait until the group is really empty, so that
        # "no process outlives the game" holds the moment close() returns.
        deadline = time.monotonic() + 2.0
        while processes_in_group(self.pid) and time.monotonic() < deadline:
            self.kill()
            time.sleep(0.005)
        with contextlib.suppress(queue.Full):
            self._out.put_nowait(None)
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        self._reader.join(timeout=1)
        self._writer.join(timeout=1)
        self._err.close()
        self._log.close()
        _LIVE.discard(self)


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
        # Fields after the command (which may hold spaces) start after the last ')'.
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(entry))
    return out


@atexit.register
def _kill_all() -> None:
    for bot in list(_LIVE):
        bot.kill()


# -- arena seats ------------------------------------------------------------------


class _Team:
    """The bots of one match (keyed by the state they see): real-time states go out at once."""

    def __init__(self) -> None:
        self.members: list[BotAgent] = []
        self.step = -1
        self.game_over_at: float | None = None


_TEAMS: dict[int, _Team] = {}


class BotAgent(BaseAgent):
    """An arena seat played by an external program over the snAIke protocol.

    Args:
        path: The bot file (``.py``, ``.jar`` or an executable).
        kind: ``python``, ``java`` or ``exec``; None guesses from the suffix.
        lockstep: Wait for every answer (up to ``timeout_s``) instead of real time.
        timeout_s: Lockstep hard limit per answer, in seconds.
        run_dir: Folder for the log and error files (default ``arena_runs/bots``).
        name: Label used in file names and notices (default: the file's stem).
        cpu_s: CPU-time limit in seconds (default: the game's duration + 10 s, in
            lockstep 4 × duration + 60 s; 0: none).
        memory_mb: Memory limit in MiB (0: none).
        startup_s: Real time: grace after start before the first state is due.
        output_limit: Bytes of unread answers (or of log lines in one step) allowed.
        python: Interpreter for ``.py`` bots (default ``python3``).
    """

    def __init__(
        self,
        path: str,
        kind: str | None = None,
        lockstep: bool = False,
        timeout_s: float = 10.0,
        run_dir: str | None = None,
        name: str | None = None,
        cpu_s: float | None = None,
        memory_mb: int = 2048,
        startup_s: float = 1.0,
        output_limit: int = 1 << 20,
        python: str = "python3",
    ) -> None:
        self.path = path
        self.command = bot_command(path, kind, python)
        self.lockstep = lockstep
        self.timeout_s = timeout_s
        self.run_dir = Path(run_dir or "arena_runs/bots")
        self.name = name or Path(shlex.split(path)[0]).stem
        self.cpu_s = cpu_s
        self.memory_mb = memory_mb
        self.startup_s = startup_s
        self.output_limit = output_limit
        self.proc: BotProcess | None = None
        self.pid: int | None = None
        self.faults: list[dict[str, Any]] = []
        self._speed_s = 0.05
        self._sent = 0  # states sent
        self._sent_step = -1
        self._deadline = 0.0
        self._waiting = False  # a state was sent this step and is not collected yet
        self._init_sent = False
        self._crash_reported = False
        self._team: _Team | None = None
        self._team_key = 0

    @property
    def log_path(self) -> Path:
        """The bot's log file."""
        return self.run_dir / f"p{self.player}-{self.name}.log"

    @property
    def err_path(self) -> Path:
        """The bot's error file (its standard error)."""
        return self.run_dir / f"p{self.player}-{self.name}.err"

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Start the program for a new game as ``player``."""
        super().reset(info, player, seed)
        cfg = info.config
        self._speed_s = cfg.speed / 1000.0
        if self.cpu_s is not None:
            cpu = self.cpu_s
        else:
            # Real time: a bot cannot use more CPU than the game lasts; lockstep games
            # wait for answers, so they get a wider margin.
            cpu = cfg.duration + 10.0 if not self.lockstep else 4.0 * cfg.duration + 60.0
        limits = BotLimits(
            cpu_s=cpu or None, memory_mb=self.memory_mb or None, output_limit=self.output_limit, log_limit=2 << 20
        )
        self.close()
        self.faults = []
        self.notice = None
        self._sent = 0
        self._sent_step = -1
        self._init_sent = False
        self._crash_reported = False
        self._waiting = False
        self.proc = BotProcess(self.command, self.log_path, self.err_path, limits)
        self.pid = self.proc.pid

    # -- one step ------------------------------------------------------------------
    def _join(self, state: Any) -> _Team:
        if self._team is None:
            key = id(state)
            team = _TEAMS.setdefault(key, _Team())
            team.members.append(self)
            self._team, self._team_key = team, key
        return self._team

    def _send_state(self, state: Any) -> None:
        """Send this step's state (if the snake is alive and the bot runs)."""
        from snakelab.games.arena.codec import format_state, init_lines, state_message

        if self._sent_step == state.steps or self.proc is None:
            return
        self._sent_step = state.steps
        if not self._init_sent:
            self._init_sent = True
            if not self.lockstep:
                # Give a starting program (a JVM, say) its grace before the first state.
                left = self.proc.started + self.startup_s - time.monotonic()
                if left > 0:
                    time.sleep(left)
            self.proc.send(init_lines(state))
        if not state.alive[self.player] or not self.proc.running():
            self._waiting = False
            return
        self.proc.send(format_state(state_message(state, self.player)))
        self._sent += 1
        self._waiting = True
        self._deadline = time.monotonic() + self._speed_s

    def act(self, observation: Any, budget: Budget | None) -> int:
        """Send the state (all of the match's bots at once) and read the answer."""
        from snakelab.games.arena.codec import parse_move
        from snakelab.games.arena.rules import INVALID, STRAIGHT, TIMEOUT

        state = observation
        proc = self.proc
        if proc is None:
            raise BotError("BotAgent.act before reset")
        team = self._join(state)
        if team.step != state.steps:
            team.step = state.steps
            for m in team.members:
                m._send_state(state)
        self._send_state(state)  # joined late (first step) or a lone bot
        if not self._waiting:
            if not proc.running():
                return self._crash(state)
            if not self.lockstep:
                proc.take_latest()  # real time: lines before this step's deadline are spent
            return STRAIGHT
        self._waiting = False
        if self.lockstep:
            line = proc.wait_answer(self._sent, self.timeout_s)
        else:
            left = self._deadline - time.monotonic()
            if left > 0:
                time.sleep(left)
            line = proc.take_latest()
        if line is None:
            if not proc.running():
                return self._crash(state)
            self.faults.append({"step": state.steps + 1, "kind": "timeout"})
            return TIMEOUT
        try:
            return parse_move(line)
        except CodecError:
            self.faults.append({"step": state.steps + 1, "kind": "invalid", "line": line[:80]})
            return INVALID

    def _crash(self, state: Any) -> int:
        from snakelab.games.arena.rules import CRASH

        assert self.proc is not None
        reason = self.proc.exit_reason()
        self.faults.append({"step": state.steps + 1, "kind": "crash", "reason": reason})
        self.notice = f"player {self.player} ({self.name}) {reason} at step {state.steps + 1}; see {self.err_path}"
        self.proc.kill()
        self._crash_reported = True
        return CRASH

    def close(self) -> None:
        """Send ``Game Over`` (to all of the match's bots at once), wait 500 ms, kill the group."""
        from snakelab.games.arena.codec import GAME_OVER

        proc = self.proc
        if proc is None:
            return
        self.proc = None
        team = self._team
        try:
            if team is not None and team.game_over_at is None:
                team.game_over_at = time.monotonic()
                for m in [self, *team.members]:
                    p = proc if m is self else m.proc
                    if p is not None and p.running() and m._init_sent:
                        p.send([GAME_OVER])
            elif team is None and proc.running() and self._init_sent:
                proc.send([GAME_OVER])
            start = team.game_over_at if team is not None and team.game_over_at is not None else time.monotonic()
            grace = start + GAME_OVER_GRACE_S - time.monotonic() if self._init_sent else 0.0
            proc.close(grace_s=grace)
        finally:
            proc.kill()
            if team is not None:
                team.members = [m for m in team.members if m is not self]
                if not team.members:
                    _TEAMS.pop(self._team_key, None)
            self._team = None


def kill_all_bots() -> None:
    """Kill every bot process group this harness started that is still alive."""
    _kill_all()


__all__ = [
    "BotAgent",
    "BotLimits",
    "BotProcess",
    "bot_command",
    "kill_all_bots",
    "processes_in_group",
]

"""An arena seat played by an external program over the snAIke text protocol.

The program runs through the one process layer, :mod:`snakelab.harness.process` (its
own session, limits on its whole process tree, its error file, the tree killed at
the end). This module adds the arena's protocol and timing on top.

Its channel, a :class:`~snakelab.harness.arena_io.BotProcess` (the program, its
answers and its log lines), is in :mod:`snakelab.harness.arena_io`; its names are
importable from here too. :class:`BotAgent` plays an arena seat through a :class:`BotProcess`:

* real time (default): each step the state is sent to every bot of the match at
  once, then each bot's answer is the last move line received since the previous
  step's deadline (``speed`` ms after its state was sent); none means
  :data:`~snakelab.games.arena.rules.TIMEOUT` (straight), so a late answer lands on
  the next step, as in the original engine;
* lockstep: the k-th answer belongs to the k-th state; the harness waits for it up
  to the lockstep limit (then TIMEOUT, and that late answer is skipped when it
  comes). The limit is ``timeout_s`` when given, else :data:`LOCKSTEP_SPEED_MULTIPLE`
  × the game's ``speed``, at least :data:`LOCKSTEP_MIN_S` (1 s for the default 50 ms);
  the first answer gets ``startup_s`` more, for a program that starts slowly. A bot
  that misses :data:`UNRESPONSIVE_MISSES` answers in a row is *unresponsive*: it is
  stopped and removed like a crashed bot (:data:`~snakelab.games.arena.rules.CRASH`),
  with a notice naming the step and the seconds waited. While a lockstep game has
  waited more than :data:`WAIT_NOTICE_S` on a bot, listeners registered with
  :func:`watch_waits` hear which bot it is (the CLI shows it).

Faults: an unparseable answer is :data:`~snakelab.games.arena.rules.INVALID`
(straight). A bot whose process exits or is stopped (a limit of the process layer:
CPU time, memory or processes of its tree), closes its standard input, floods its
output (a line over 64 KiB, more than ``output_limit`` bytes of answers the game has
not read yet, or of log lines in one step; it is then killed) or is unresponsive gets
:data:`~snakelab.games.arena.rules.CRASH`: removed for the rest of the game. The
reason is kept in :attr:`BotAgent.faults` and the agent's ``notice``.

At the end every bot gets ``Game Over`` (all of a match's bots at once) and 500 ms
later its whole process tree is killed, whatever happened.

Why one module over 400 lines: one seat's timing rules (real time, lockstep, the
unresponsive rule) and its faults are one protocol state machine; the channel beneath it
is :mod:`.arena_io`.
"""

from __future__ import annotations

import contextlib
import shlex
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from snakelab.core.errors import BotError, CodecError, ConfigError
from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.harness.arena_io import BotLimits, BotProcess, bot_command
from snakelab.harness.process import (
    describe_exit,
    kill_all_processes,
    processes_in_group,
)

GAME_OVER_GRACE_S = 0.5
"""Seconds a bot has to exit after ``Game Over`` before its process tree is killed."""

LOCKSTEP_SPEED_MULTIPLE = 20
"""Default lockstep limit per answer, in multiples of the game's ``speed``."""

LOCKSTEP_MIN_S = 1.0
"""The default lockstep limit is never below this many seconds."""

UNRESPONSIVE_MISSES = 3
"""Lockstep answers missed in a row after which a bot is stopped as unresponsive."""

WAIT_NOTICE_S = 1.0
"""Seconds of waiting on one lockstep answer after which listeners hear of it."""

# -- who a lockstep game waits for -------------------------------------------------


@dataclass(frozen=True)
class WaitStatus:
    """A lockstep game is waiting on one bot.

    Attributes:
        player: The bot's seat.
        name: The bot's name.
        step: The step whose answer is awaited.
        waited_s: Seconds waited so far.
        limit_s: The limit for this answer.
    """

    player: int
    name: str
    step: int
    waited_s: float
    limit_s: float

    def describe(self) -> str:
        """One line for a status bar."""
        return (
            f"waiting for player {self.player} ({self.name}) at step {self.step}: "
            f"{self.waited_s:.0f} s of {self.limit_s:g} s"
        )


WaitListener = Callable[[WaitStatus | None], None]
_WAIT_LISTENERS: list[WaitListener] = []


@contextlib.contextmanager
def watch_waits(listener: WaitListener) -> Iterator[None]:
    """Call ``listener`` while a lockstep game in this process waits long on a bot.

    It gets a :class:`WaitStatus` about every half second once the wait passes
    :data:`WAIT_NOTICE_S`, and None when that answer came (or did not) in the end.
    """
    _WAIT_LISTENERS.append(listener)
    try:
        yield
    finally:
        _WAIT_LISTENERS.remove(listener)


def _tell(status: WaitStatus | None) -> None:
    for listener in list(_WAIT_LISTENERS):
        listener(status)


# -- arena seats ------------------------------------------------------------------


class _Team:
    """The bots of one match (keyed by the state they see): real-time states go out at once."""

    def __init__(self) -> None:
        self.members: list[BotAgent] = []
        self.step = -1
        self.game_over_at: float | None = None


_TEAMS: dict[int, _Team] = {}


@dataclass(frozen=True)
class BotOptions:
    """How a :class:`BotAgent` runs its program (``arena.bot(path=bot.py,lockstep=true)`` sets them).

    Attributes:
        kind: ``python``, ``java`` or ``exec``; None guesses from the suffix.
        lockstep: Wait for every answer (up to the lockstep limit) instead of real time.
        timeout_s: Lockstep limit per answer in seconds (None: :data:`LOCKSTEP_SPEED_MULTIPLE`
            × the game's speed, at least :data:`LOCKSTEP_MIN_S`).
        run_dir: Folder for the log and error files (default ``arena_runs/bots``).
        name: Label used in file names and notices (default: the file's stem).
        cpu_s: CPU-time limit of its process tree in seconds (default: the game's
            duration + 10 s, in lockstep 4 × duration + 60 s; 0: none).
        memory_mb: Memory limit of its process tree in MiB (0: none).
        startup_s: Grace after start before the first state is due (real time), or
            added to the first answer's limit (lockstep).
        output_limit: Bytes of unread answers (or of log lines in one step) allowed.
        python: Interpreter for ``.py`` bots (default ``python3``).
        max_misses: Lockstep answers missed in a row before the bot is stopped as
            unresponsive (0: never).
    """

    kind: str | None = None
    lockstep: bool = False
    timeout_s: float | None = None
    run_dir: str | None = None
    name: str | None = None
    cpu_s: float | None = None
    memory_mb: int = 2048
    startup_s: float = 1.0
    output_limit: int = 1 << 20
    python: str = "python3"
    max_misses: int = UNRESPONSIVE_MISSES


class BotAgent(BaseAgent):
    """An arena seat played by an external program over the snAIke protocol.

    Args:
        path: The bot file (``.py``, ``.jar`` or an executable).
        options: How it runs (:class:`BotOptions`; the defaults when None).
    """

    def __init__(self, path: str, options: BotOptions | None = None) -> None:
        o = options if options is not None else BotOptions()
        kind, lockstep, timeout_s, run_dir, name = o.kind, o.lockstep, o.timeout_s, o.run_dir, o.name
        cpu_s, memory_mb, startup_s, output_limit, python = o.cpu_s, o.memory_mb, o.startup_s, o.output_limit, o.python
        max_misses = o.max_misses
        if timeout_s is not None and timeout_s <= 0:
            raise ConfigError(f"the lockstep limit must be > 0 seconds, not {timeout_s:g}")
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
        self.max_misses = max_misses
        self.proc: BotProcess | None = None
        self.pid: int | None = None
        self.faults: list[dict[str, Any]] = []
        self.limit_s = timeout_s if timeout_s is not None else LOCKSTEP_MIN_S
        """The lockstep limit per answer of the current game (set by :meth:`reset`)."""
        self._speed_s = 0.05
        self._sent = 0  # states sent
        self._sent_step = -1
        self._deadline = 0.0
        self._waiting = False  # a state was sent this step and is not collected yet
        self._init_sent = False
        self._crash_reported = False
        self._misses: list[tuple[int, float]] = []  # (step, seconds waited) of the misses in a row
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
        if self.timeout_s is not None:
            self.limit_s = self.timeout_s
        else:
            self.limit_s = max(LOCKSTEP_MIN_S, LOCKSTEP_SPEED_MULTIPLE * self._speed_s)
        if self.cpu_s is not None:
            cpu = self.cpu_s
        else:
            # Real time: a bot cannot use more CPU than the game lasts; lockstep games
            # wait for answers, so they get a wider margin.
            cpu = cfg.duration + 10.0 if not self.lockstep else 4.0 * cfg.duration + 60.0
        limits = BotLimits(cpu_s=cpu or None, memory_mb=self.memory_mb or None, output_limit=self.output_limit)
        self.close()
        self.faults = []
        self.notice = None
        self._sent = 0
        self._sent_step = -1
        self._init_sent = False
        self._crash_reported = False
        self._waiting = False
        self._misses = []
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
        waited = 0.0
        if self.lockstep:
            limit = self.limit_s + (self.startup_s if self._sent == 1 else 0.0)
            line, waited = self._wait_lockstep(proc, state.steps + 1, limit)
        else:
            left = self._deadline - time.monotonic()
            if left > 0:
                time.sleep(left)
            line = proc.take_latest()
        if line is None:
            if not proc.running():
                return self._crash(state)
            self.faults.append({"step": state.steps + 1, "kind": "timeout"})
            if self.lockstep:
                self._misses.append((state.steps + 1, waited))
                if self.max_misses and len(self._misses) >= self.max_misses:
                    return self._unresponsive(state)
            return TIMEOUT
        self._misses = []
        try:
            return parse_move(line)
        except CodecError:
            self.faults.append({"step": state.steps + 1, "kind": "invalid", "line": line[:80]})
            return INVALID

    def _wait_lockstep(self, proc: BotProcess, step: int, limit: float) -> tuple[str | None, float]:
        """Answer number ``self._sent`` within ``limit`` seconds, telling listeners of long waits."""
        t0 = time.monotonic()
        deadline = t0 + limit
        told = False
        try:
            while True:
                now = time.monotonic()
                until = min(deadline, now + 0.5 if told else t0 + WAIT_NOTICE_S)
                line = proc.wait_answer(self._sent, max(0.0, until - now))
                now = time.monotonic()
                if line is not None or not proc.running() or now >= deadline:
                    return line, now - t0
                if now - t0 >= WAIT_NOTICE_S and _WAIT_LISTENERS:
                    told = True
                    _tell(WaitStatus(self.player, self.name, step, now - t0, limit))
        finally:
            if told:
                _tell(None)

    def _unresponsive(self, state: Any) -> int:
        from snakelab.games.arena.rules import CRASH

        assert self.proc is not None
        steps = [s for s, _ in self._misses]
        waited = " + ".join(f"{w:.1f}" for _, w in self._misses)
        reason = (
            f"was unresponsive: no answer at steps {steps[0]}–{steps[-1]} ({len(steps)} in a row; waited {waited} s)"
        )
        self.faults.append({"step": state.steps + 1, "kind": "unresponsive", "reason": reason})
        self.notice = (
            f"player {self.player} ({self.name}) {reason}; stopped and removed at step {state.steps + 1}; "
            f"see {self.err_path}"
        )
        self.proc.kill()
        self._crash_reported = True
        return CRASH

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
        """Send ``Game Over`` (to all of the match's bots at once), wait 500 ms, kill the tree."""
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
    """Kill every bot's process tree this harness started that is still alive."""
    kill_all_processes()


__all__ = [
    "GAME_OVER_GRACE_S",
    "LOCKSTEP_MIN_S",
    "LOCKSTEP_SPEED_MULTIPLE",
    "UNRESPONSIVE_MISSES",
    "WAIT_NOTICE_S",
    "BotAgent",
    "BotLimits",
    "BotProcess",
    "WaitStatus",
    "bot_command",
    "describe_exit",
    "kill_all_bots",
    "processes_in_group",
    "watch_waits",
]

"""The snakgame judge: run any contest program against Chef over stdin/stdout.

The program gets the judge's header (``n m K`` and the blocked cells), then the
dialogue of :mod:`snakelab.games.snakgame.codec`. The judge's state is the same
:class:`~snakelab.games.snakgame.rules.State` the in-process game uses, with the same
seed, so a judged program and an in-process agent playing the same moves get the same
replies, and a judged game can be written as an ordinary, verifiable replay.

The game is driven by the harness's one match driver, :class:`~snakelab.harness.match.Match`:
the program is its one external seat (each move it prints is fed to the match) and Chef
is the game itself (``State.apply`` plays your move, then his reply, which the judge
reads from the step's ``chef`` event and sends back). So the replay a judged game
writes is the replay :func:`~snakelab.harness.match.play` writes for an agent making
the same moves. The statement's scripted examples (``replies``) go through the judge's
own step function instead, which plays the scripted Chef lines; they write no replay.

The program runs through the harness's one process layer,
:mod:`snakelab.harness.process`: its own session, its whole process tree measured,
limited and killed at the end whatever happened (an end of the game, a crash, a
time-out, an exception or Ctrl-C in the judge), so no process it started outlives
the judge.

Time, as on CodeChef: ``time_limit`` is **CPU seconds** of the program (user +
system, of all its processes together) for the whole file. Time spent waiting in
pipes or sleeping does not count, so a dialogue of 10^5 lines is not decided by pipe
latency. The CPU figure is sampled every :data:`~snakelab.harness.process.POLL_S`
seconds while the program runs (the tree is stopped within one sample of passing the
limit) and is exact at the end, from the resource usage of the reaped processes. A
separate wall-clock guard (``wall_limit``; by default
:data:`~snakelab.harness.process.WALL_GUARD_MULTIPLE` × ``time_limit``) bounds the
total time the judge waits for the program's lines, for a program that sleeps or
blocks without using CPU. Without ``time_limit`` and ``wall_limit`` nothing is timed.

Verdicts: ``OK`` (the grid filled or the program played EXIT), ``ILLEGAL`` (an
unparseable or illegal move: the message names the move number, the line and why),
``TIMEOUT`` (the program used more than ``time_limit`` CPU seconds, or the judge
waited longer than the wall-clock guard; the message says which, in seconds),
``CRASH`` (it ended or closed its output mid-game, or broke the memory or process
limit). Only ``OK`` scores; the others score 0, as the contest's Wrong Answer or Time
Limit did.

Benches judge files through :func:`judge_match` (a worker's task for the one parallel
map), which runs a built-in agent's contest program and returns an ordinary match result.

Why this module is over 400 lines and still one idea: it is the judge of one contest, the
dialogue with a program (its reader, CPU and wall-clock limits, verdicts) and the task that
judges one bench file with it.
"""

from __future__ import annotations

import os
import selectors
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from snakelab.core.errors import CodecError, IllegalActionError
from snakelab.core.game import JSON, Event, Outcome
from snakelab.core.game import State as AnyState
from snakelab.games.snakgame.codec import format_header
from snakelab.games.snakgame.rules import EXIT, Game, State, parse_move
from snakelab.harness.match import Match, MatchResult, MatchSpec, OwnRules
from snakelab.harness.process import WALL_GUARD_MULTIPLE, ExternalProcess, ProcessLimits, wall_guard_s

#: Longest line accepted from a program (a move is under 40 characters).
MAX_LINE = 4096


@dataclass
class JudgeReport:
    """What one judged file gave.

    Attributes:
        verdict: ``OK``, ``ILLEGAL``, ``TIMEOUT`` or ``CRASH``.
        score: The file's score (0 unless the verdict is OK).
        score_so_far: The score the moves up to the end would have made.
        message: Why the file ended early (None for OK).
        moves: Moves the program made (accepted ones).
        player_s: Wall-clock seconds spent waiting for the program's lines (pipe
            latency included; the wall-clock guard applies to this).
        cpu_s: CPU seconds (user + system) of the program's processes together: the
            time limit applies to this.
        wall_s: Wall-clock seconds for the whole dialogue.
        rows: Grid rows.
        cols: Grid columns.
        outcome: The game's outcome when it ended normally.
        transcript: The dialogue, ``"J: ..."`` and ``"Y: ..."`` lines (when asked for;
            the header is left out).
        state: The final state of the judge's game.
        cpu_limit_s: The CPU-time limit (None: none).
        wall_limit_s: The wall-clock guard on waiting for the program (None: none).
    """

    verdict: str
    score: int
    score_so_far: int
    message: str | None
    moves: int
    player_s: float
    cpu_s: float
    wall_s: float
    rows: int
    cols: int
    outcome: Outcome | None = None
    transcript: list[str] = field(default_factory=list)
    state: State | None = None
    cpu_limit_s: float | None = None
    wall_limit_s: float | None = None

    def to_json(self) -> dict[str, JSON]:
        """A JSON summary (the transcript left out)."""
        return {
            "verdict": self.verdict,
            "score": self.score,
            "score_so_far": self.score_so_far,
            "message": self.message,
            "moves": self.moves,
            "cpu_s": self.cpu_s,
            "wall_s": self.wall_s,
            "player_s": self.player_s,
            "cpu_limit_s": self.cpu_limit_s,
            "wall_limit_s": self.wall_limit_s,
            "rows": self.rows,
            "cols": self.cols,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }


class _TimeoutError(Exception):
    """No line before the deadline."""


class _Reader:
    """Lines from a pipe with a deadline, without blocking past it."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = b""
        self.eof = False
        self.sel = selectors.DefaultSelector()
        self.sel.register(fd, selectors.EVENT_READ)

    def readline(self, timeout: float | None) -> str | None:
        """The next line without its newline, None at end of file; raises _TimeoutError."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buf:
            if len(self.buf) > MAX_LINE:
                raise CodecError(f"a line longer than {MAX_LINE} characters ({self.buf[:40]!r}...)")
            if self.eof:
                if self.buf:
                    line, self.buf = self.buf, b""
                    return line.decode(errors="replace").rstrip("\r")
                return None
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise _TimeoutError
            if not self.sel.select(left):
                raise _TimeoutError
            chunk = os.read(self.fd, 65536)
            if not chunk:
                self.eof = True
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode(errors="replace").rstrip("\r")

    def close(self) -> None:
        self.sel.close()


_SLICE_S = 0.1
"""Seconds between two looks at the program's state while waiting for a line."""


@dataclass(frozen=True)
class Script:
    """A scripted file for :func:`run_judge`: a fixed start and Chef's lines (the statement's examples).

    Attributes:
        state: A starting state to use instead of ``game.new_state(seed)`` (a fixed grid).
        replies: Scripted Chef lines to play instead of Chef's own choices; each is
            checked against the rules.
    """

    state: State | None = None
    replies: Sequence[str] | None = None


class _CpuLimitError(Exception):
    """The program's processes used more CPU time than the limit."""


def run_judge(
    game: Game,
    seed: int,
    command: Sequence[str],
    *,
    time_limit: float | None = None,
    wall_limit: float | None = None,
    memory_mb: int | None = None,
    script: Script | None = None,
    transcript: bool = False,
    replay: str | os.PathLike[str] | None = None,
    agent_name: str = "program",
) -> JudgeReport:
    """Judge one file: run ``command`` and play the dialogue to the end.

    Args:
        game: The configured game (``snakgame(type=1)`` for a type-1 file).
        seed: The file seed: it draws the grid and drives Chef.
        command: The program and its arguments.
        time_limit: CPU seconds of the program's processes together (None: no limit).
        wall_limit: Wall-clock seconds the judge waits for the program's lines in all
            (None: :data:`~snakelab.harness.process.WALL_GUARD_MULTIPLE` × ``time_limit``,
            or no guard without a time limit).
        memory_mb: Memory of the program's processes together, in MiB (None: no limit).
        script: A fixed start and scripted Chef lines (:class:`Script`; the statement's
            examples) instead of ``game.new_state(seed)`` and Chef's own choices.
        transcript: Record the dialogue in the report.
        replay: Write a replay of the game here (only with Chef's own replies).
        agent_name: The name recorded in the replay.

    Raises:
        BotError: if the program cannot be started.
    """
    state, replies = (script.state, script.replies) if script is not None else (None, None)
    st = state if state is not None else game.new_state(seed)
    guard = wall_guard_s(time_limit, wall_limit)
    t0 = time.perf_counter()
    log: list[str] = []
    waited = 0.0
    verdict, message = "OK", None
    scripted = list(replies) if replies is not None else None
    ran_out = False
    cpu_at_end = 0.0

    def scripted_step(_state: AnyState, actions: list[Any]) -> Sequence[Event]:
        """Your move, then the next scripted Chef line instead of Chef's own choice (on ``st``)."""
        nonlocal ran_out
        assert scripted is not None
        events = st.play_mine(actions[0])  # refused: IllegalActionError, nothing changed
        if st.is_over():
            return events
        if not scripted:
            ran_out = True  # your move stands; the judge ends the file after it
            return events
        line = scripted.pop(0)
        try:
            events += st.chef_reply(parse_move(line))[1]
        except IllegalActionError as exc:
            # Your move was applied already: this must not look like a refusal of it.
            raise CodecError(f"the scripted judge reply {line!r} is not legal here ({exc})") from None
        return events

    # The program is the one external seat; Chef is the game (``State.apply`` plays your
    # move, then his reply). Scripted replies come in through the judge's own step function
    # and are no game of Chef's, so they are not recorded.
    match = Match(
        game,
        [None],
        seed,
        agent_names=[agent_name],
        replay=replay if replies is None else None,
        own=OwnRules(st, None if scripted is None else scripted_step),
    )

    proc = ExternalProcess(command, limits=ProcessLimits(cpu_s=time_limit, memory_mb=memory_mb))
    reader = _Reader(proc.stdout_fd)

    def moves() -> int:
        """Moves accepted so far (EXIT included)."""
        return match.steps

    def send(lines: Sequence[str]) -> None:
        proc.send(("\n".join(lines) + "\n").encode())

    def next_line() -> str | None:
        """The program's next line (None at its end), within the CPU and wall limits."""
        nonlocal waited
        while True:
            if time_limit is not None and proc.cpu_s > time_limit:
                raise _CpuLimitError
            left = None if guard is None else guard - waited
            # Short slices: a program that exited while its children hold its output
            # open ends here too, not at the guard.
            step = _SLICE_S if left is None else min(left, _SLICE_S)
            ts = time.perf_counter()
            try:
                line = reader.readline(step)
            except _TimeoutError:
                if left is not None and left <= _SLICE_S:
                    raise
                if proc.poll() is None and proc.fault is None:
                    continue
                line = None
            finally:
                waited += time.perf_counter() - ts
            if line is None and proc.fault_kind == "cpu":
                raise _CpuLimitError  # the process layer stopped it at the limit
            return line

    try:
        match.start()
        send(format_header(st))
        while True:
            line = next_line()
            if line is None:
                verdict = "CRASH"
                proc.wait(0.5)
                how = proc.exit_reason() if proc.fault is not None or proc.poll() is not None else None
                message = f"the program {how or 'closed its output'} before move {moves() + 1}" + (
                    "" if not match.over else " (the grid was full: it should print EXIT)"
                )
                if match.over and proc.fault is None:
                    verdict, message = "OK", None  # the grid was full; a silent exit is fine
                break
            if transcript:
                log.append(f"Y: {line}")
            try:
                move = parse_move(line)
            except CodecError as exc:
                verdict, message = "ILLEGAL", f"move {moves() + 1}: {exc}"
                break
            if match.over:
                # Chef filled the grid: the program's last word must be EXIT (not a move of the game).
                if move != EXIT:
                    verdict = "ILLEGAL"
                    message = f"move {moves() + 1}: {line.strip()!r}: the grid is full, the only move left is EXIT"
                break
            match.feed(0, move)
            try:
                events = match.step()
            except IllegalActionError as exc:  # the state is unchanged
                verdict, message = "ILLEGAL", f"move {moves() + 1}: {exc}"
                break
            if move == EXIT:
                break
            if ran_out:
                verdict, message = "ILLEGAL", f"move {moves()}: the scripted judge replies ran out"
                break
            reply = next((str(e.data["move"]) for e in events if e.kind == "chef"), None)
            if reply is None:  # your move filled the grid: Chef has no turn
                send(["EXIT"])
                if transcript:
                    log.append("J: EXIT")
                break
            if transcript:
                log.append(f"J: {reply}")
            send([reply])
    except _CpuLimitError:
        verdict, message = "TIMEOUT", None  # the message, with the final CPU figure, below
    except _TimeoutError:
        verdict = "TIMEOUT"
        why = f"{WALL_GUARD_MULTIPLE:g} × the {time_limit:g} s CPU limit" if wall_limit is None else "--wall-limit"
        message = (
            f"no answer for move {moves() + 1} after {guard:g} s of wall-clock time waiting for the program "
            f"(the wall-clock guard: {why}); it had used {proc.cpu_seconds():.2f} s of CPU time"
        )
    except CodecError as exc:
        verdict, message = "ILLEGAL", f"move {moves() + 1}: {exc}"
    finally:
        cpu_at_end = proc.cpu_seconds()
        proc.flush_input(0.5)  # let a last EXIT reach the program
        reader.close()
        proc.close(grace_s=0.5)
        # A finished game gets its outcome line; one cut short leaves a truncated replay.
        if match.over:
            match.finish()
        else:
            match.close()
    cpu = max(proc.cpu_s, cpu_at_end)
    if time_limit is not None and verdict != "ILLEGAL" and (proc.fault_kind == "cpu" or cpu > time_limit):
        # Over the limit also when the program finished between two samples: the exact
        # figure at the end decides, as a contest judge's would; it is the program's whole
        # CPU time, what it spent after its last line (exiting) included, as reported.
        verdict = "TIMEOUT"
        message = (
            f"the program used {cpu:.2f} s of CPU time, over the {time_limit:g} s CPU limit (at move {moves() + 1})"
        )
    so_far = st.score
    return JudgeReport(
        verdict=verdict,
        score=so_far if verdict == "OK" else 0,
        score_so_far=so_far,
        message=message,
        moves=match.steps,
        player_s=waited,
        cpu_s=cpu,
        wall_s=time.perf_counter() - t0,
        rows=st.n,
        cols=st.m,
        outcome=st.outcome() if st.is_over() else None,
        transcript=log,
        state=st,
        cpu_limit_s=time_limit,
        wall_limit_s=guard,
    )


#: Agent strings of judged seats start with this: ``judged:snakgame.champion(time_limit=4)``.
JUDGED_PREFIX = "judged:"


def judged_seat(agent: str, time_limit: float) -> str:
    """The agent string of ``agent``'s contest program judged with a ``time_limit`` CPU limit."""
    return f"{JUDGED_PREFIX}{agent}(time_limit={time_limit:g})"


def contest_command(agent: str, time_limit: float) -> list[str]:
    """The contest program of a built-in agent: ``snakelab snakgame client``, as its own process."""
    import sys

    name = agent.removeprefix("snakgame.")
    return [
        sys.executable,
        "-m",
        "snakelab.games.snakgame.contest",
        "--agent",
        name,
        "--time-limit",
        f"{time_limit:g}",
    ]


def judge_match(spec: MatchSpec) -> MatchResult:
    """Play one bench file through the judge (a worker's task; see :func:`judged_seat`).

    The seat ``judged:<agent>(time_limit=T)`` runs ``agent``'s contest program
    (:func:`contest_command`) under a CPU limit of T seconds. The result is an ordinary
    match result whose details add ``verdict``, ``cpu_s`` and ``message`` to the game's,
    with ``score`` 0 unless the verdict is OK, so benches and the results store treat
    judged files like played ones.
    """
    from snakelab.core.registry import make, parse_spec

    seat = spec.agents[0]
    if not seat.startswith(JUDGED_PREFIX):
        raise CodecError(f"{seat!r} is not a judged seat ({JUDGED_PREFIX}<agent>(time_limit=T))")
    agent, params = parse_spec(seat.removeprefix(JUDGED_PREFIX))
    limit = float(params.get("time_limit", 4))
    game = make(spec.game)
    if not isinstance(game, Game):
        raise CodecError(f"{spec.game} is not a snakgame")
    rep = run_judge(game, spec.seed, contest_command(agent, limit), time_limit=limit, agent_name=agent)
    st = rep.state
    assert st is not None
    lengths = [*st.done, st.length] if st.length else list(st.done)
    details: dict[str, JSON] = dict(rep.outcome.details) if rep.outcome is not None else {}
    details.update(
        score=rep.score,
        score_so_far=rep.score_so_far,
        verdict=rep.verdict,
        cpu_s=round(rep.cpu_s, 3),
        message=rep.message,
        snakes=len(lengths),
        first=lengths[0] if lengths else 0,
        longest=max(lengths, default=0),
        rows=rep.rows,
        cols=rep.cols,
    )
    outcome = Outcome(termination=rep.verdict, scores=(float(rep.score),), winner=None, details=details)
    return MatchResult(
        game=game.info.name,
        agents=tuple(spec.agents),
        seed=spec.seed,
        outcome=outcome,
        steps=rep.moves,
        wall_s=rep.wall_s,
        index=spec.index,
    )


def play_bench_match(spec: MatchSpec) -> MatchResult:
    """A worker's task for ``snakgame bench``: a judged seat through the judge, anything else in-process."""
    from snakelab.harness.match import run_match

    if spec.agents and spec.agents[0].startswith(JUDGED_PREFIX):
        return judge_match(spec)
    return run_match(spec)

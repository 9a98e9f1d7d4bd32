"""The snakgame judge: run any contest program against Chef over stdin/stdout.

The program gets the judge's header (``n m K`` and the blocked cells), then the
dialogue of :mod:`snakelab.games.snakgame.codec`. The judge's state is the same
:class:`~snakelab.games.snakgame.rules.State` the in-process game uses, with the same
seed, so a judged program and an in-process agent playing the same moves get the same
replies, and a judged game can be written as an ordinary, verifiable replay.

Verdicts: ``OK`` (the grid filled or the program played EXIT), ``ILLEGAL`` (an
unparseable or illegal move: the message names the move number, the line and why),
``TIMEOUT`` (the program used more than ``time_limit`` seconds of thinking time, which
is the time the judge spent waiting for its lines), ``CRASH`` (it ended or closed its
output mid-game). Only ``OK`` scores; the others score 0, as the contest's Wrong
Answer or Time Limit did. The program is killed at the end whatever happened.
"""

from __future__ import annotations

import os
import queue
import selectors
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from snakelab.core.errors import BotError, CodecError, IllegalActionError
from snakelab.core.game import JSON, Outcome
from snakelab.core.replay import ReplayWriter
from snakelab.games.snakgame.codec import format_header
from snakelab.games.snakgame.rules import EXIT, Game, Move, State, format_move, parse_move

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
        player_s: Seconds spent waiting for the program's lines (pipe latency included:
            the time limit applies to this).
        cpu_s: The program's own CPU seconds (user + system), when known.
        wall_s: Seconds for the whole dialogue.
        rows: Grid rows.
        cols: Grid columns.
        outcome: The game's outcome when it ended normally.
        transcript: The dialogue, ``"J: ..."`` and ``"Y: ..."`` lines (when asked for;
            the header is left out).
        state: The final state of the judge's game.
    """

    verdict: str
    score: int
    score_so_far: int
    message: str | None
    moves: int
    player_s: float
    cpu_s: float | None
    wall_s: float
    rows: int
    cols: int
    outcome: Outcome | None = None
    transcript: list[str] = field(default_factory=list)
    state: State | None = None

    def to_json(self) -> dict[str, JSON]:
        """A JSON summary (the transcript left out)."""
        return {
            "verdict": self.verdict,
            "score": self.score,
            "score_so_far": self.score_so_far,
            "message": self.message,
            "moves": self.moves,
            "player_s": self.player_s,
            "cpu_s": self.cpu_s,
            "wall_s": self.wall_s,
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


def run_judge(
    game: Game,
    seed: int,
    command: Sequence[str],
    *,
    time_limit: float | None = None,
    state: State | None = None,
    replies: Sequence[str] | None = None,
    transcript: bool = False,
    replay: str | os.PathLike[str] | None = None,
    agent_name: str = "program",
) -> JudgeReport:
    """Judge one file: run ``command`` and play the dialogue to the end.

    Args:
        game: The configured game (``snakgame(type=1)`` for a type-1 file).
        seed: The file seed: it draws the grid and drives Chef.
        command: The program and its arguments.
        time_limit: Thinking-time limit in seconds (None: no limit).
        state: A starting state to use instead of ``game.new_state(seed)`` (a fixed grid).
        replies: Scripted Chef lines to play instead of Chef's own choices (tests of the
            statement's examples); each is checked against the rules.
        transcript: Record the dialogue in the report.
        replay: Write a replay of the game here (only with Chef's own replies).
        agent_name: The name recorded in the replay.

    Raises:
        BotError: if the program cannot be started.
    """
    st = state if state is not None else game.new_state(seed)
    t0 = time.perf_counter()
    try:
        proc = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
    except OSError as exc:
        raise BotError(f"cannot start {' '.join(command)!r}: {exc.strerror or exc}") from None
    assert proc.stdin is not None and proc.stdout is not None
    reader = _Reader(proc.stdout.fileno())
    writer = ReplayWriter(replay, game, seed, [agent_name]) if replay is not None and replies is None else None
    log: list[str] = []
    waited = 0.0
    moves = 0
    verdict, message = "OK", None
    scripted = list(replies) if replies is not None else None
    usage: list[float] = []  # the program's CPU seconds, once it has been reaped

    # A writer thread, so a program that stops reading (its input pipe full) cannot block
    # the judge: the judge keeps reading, and the time limit still applies.
    outbox: queue.Queue[bytes | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdin is not None
        try:
            while (data := outbox.get()) is not None:
                proc.stdin.write(data)
                proc.stdin.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError, OSError):
            pass  # the program is gone; the reading side reports it

    writer_thread = threading.Thread(target=pump, name="snakgame-judge-writer", daemon=True)
    writer_thread.start()

    def send(lines: Sequence[str]) -> None:
        outbox.put(("\n".join(lines) + "\n").encode())

    try:
        if writer is not None:
            writer.start(st)
        send(format_header(st))
        while True:
            left = None if time_limit is None else time_limit - waited
            ts = time.perf_counter()
            try:
                line = reader.readline(left)
            finally:
                waited += time.perf_counter() - ts
            if line is None:
                verdict = "CRASH"
                code = _reap(proc, 0.5, usage)
                how = f"exited with code {code}" if code is not None else "closed its output"
                message = f"the program {how} before move {moves + 1}" + (
                    "" if not st.is_over() else " (the grid was full: it should print EXIT)"
                )
                if st.is_over():
                    verdict, message = "OK", None  # the grid was full; a silent exit is fine
                break
            if transcript:
                log.append(f"Y: {line}")
            try:
                move = parse_move(line)
            except CodecError as exc:
                verdict, message = "ILLEGAL", f"move {moves + 1}: {exc}"
                break
            if st.is_over():
                if move != EXIT:
                    verdict = "ILLEGAL"
                    message = f"move {moves + 1}: {line.strip()!r}: the grid is full, the only move left is EXIT"
                break
            try:
                events = st.play_mine(move)
            except IllegalActionError as exc:
                verdict, message = "ILLEGAL", f"move {moves + 1}: {exc}"
                break
            moves += 1
            if move == EXIT:
                if writer is not None:
                    writer.step([move], events, st)
                break
            if st.is_over():
                if writer is not None:
                    writer.step([move], events, st)
                send(["EXIT"])
                if transcript:
                    log.append("J: EXIT")
                break
            reply: Move | None = None
            if scripted is not None:
                if not scripted:
                    verdict, message = "ILLEGAL", f"move {moves}: the scripted judge replies ran out"
                    break
                reply = parse_move(scripted.pop(0))
            reply, more = st.chef_reply(reply)
            events += more
            if writer is not None:
                writer.step([move], events, st)
            text = format_move(reply)
            if transcript:
                log.append(f"J: {text}")
            send([text])
    except _TimeoutError:
        verdict = "TIMEOUT"
        message = f"the program used more than {time_limit:g} s (no answer for move {moves + 1})"
    except CodecError as exc:
        verdict, message = "ILLEGAL", f"move {moves + 1}: {exc}"
    except (BrokenPipeError, ConnectionResetError):
        verdict, message = "CRASH", f"the program stopped reading its input before move {moves + 1}"
    finally:
        outbox.put(None)
        writer_thread.join(timeout=0.5)  # let a last EXIT reach the program
        reader.close()
        _stop(proc, usage)
        writer_thread.join(timeout=1.0)
        if writer is not None:
            if st.is_over():
                writer.finish(st.outcome())
            else:
                writer.close()
    so_far = st.score
    return JudgeReport(
        verdict=verdict,
        score=so_far if verdict == "OK" else 0,
        score_so_far=so_far,
        message=message,
        moves=moves,
        player_s=waited,
        cpu_s=usage[0] if usage else None,
        wall_s=time.perf_counter() - t0,
        rows=st.n,
        cols=st.m,
        outcome=st.outcome() if st.is_over() else None,
        transcript=log,
        state=st,
    )


def _reap(proc: subprocess.Popen[bytes], timeout: float, usage: list[float]) -> int | None:
    """Wait up to ``timeout`` s for the program to end; its exit code (None if still running).

    Reaps it with ``wait4`` so its CPU time can be reported (appended to ``usage``).
    """
    if proc.returncode is not None:
        return proc.returncode
    deadline = time.monotonic() + timeout
    while True:
        try:
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG if timeout > 0 else 0)
        except ChildProcessError:  # reaped elsewhere
            return proc.poll()
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            usage.append(ru.ru_utime + ru.ru_stime)
            return proc.returncode
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.005)


def _stop(proc: subprocess.Popen[bytes], usage: list[float]) -> None:
    """Close the pipes, give the program a moment to exit, then kill it."""
    for pipe in (proc.stdin, proc.stdout):
        try:
            if pipe is not None:
                pipe.close()
        except OSError:
            pass
    if _reap(proc, 0.5, usage) is None:
        proc.kill()
        _reap(proc, 0, usage)

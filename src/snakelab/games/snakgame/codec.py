"""The contest protocol of snakgame: the judge's header and the stdio client loop.

The judge prints ``n m K`` and K lines ``x y`` (blocked cells, 1-based); then the
player and the judge alternate, the player first, one move per line
(:func:`~snakelab.games.snakgame.rules.parse_move` / ``format_move``). If the grid is
full after the player's move the judge prints ``EXIT``; if it is full after the
judge's move the player prints ``EXIT``. A client stops on reading ``EXIT``.

Nothing here starts processes: :func:`run_client` works on any pair of text streams,
and the judge that runs a program lives in the harness (its ``snakgame_judge`` module).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

import numpy as np

from snakelab.core.errors import CodecError
from snakelab.core.game import Agent
from snakelab.games.snakgame.rules import BLOCKED, EXIT, Config, Game, State, format_move, parse_move


def format_header(state: State) -> list[str]:
    """The judge's opening lines for ``state``'s grid: ``n m K`` then the K blocked cells."""
    arr = np.frombuffer(state.occ, dtype=np.uint8)
    blocked = np.flatnonzero(arr == BLOCKED)
    lines = [f"{state.n} {state.m} {len(blocked)}"]
    m = state.m
    lines += [f"{c // m + 1} {c % m + 1}" for c in blocked.tolist()]
    return lines


def _next_line(lines: Iterator[str], what: str) -> str:
    try:
        return next(lines)
    except StopIteration:
        raise CodecError(f"the judge's input ended while reading {what}") from None


def read_header(lines: Iterator[str]) -> tuple[int, int, list[tuple[int, int]]]:
    """Read ``n m K`` and the K blocked cells.

    Raises:
        CodecError: naming the line that cannot be read.
    """
    first = _next_line(lines, "the grid size")
    try:
        n, m, k = (int(v) for v in first.split())
    except ValueError:
        raise CodecError(f"cannot read the grid line {first.strip()!r}: expected 'n m K'") from None
    cells = []
    for i in range(k):
        line = _next_line(lines, f"blocked cell {i + 1} of {k}")
        try:
            x, y = (int(v) for v in line.split())
        except ValueError:
            raise CodecError(f"cannot read blocked cell line {line.strip()!r}: expected 'x y'") from None
        cells.append((x, y))
    return n, m, cells


def run_client(agent: Agent, agent_name: str, infile: IO[str], outfile: IO[str], *, seed: int = 0) -> State:
    """Play one game as a contest program: read the judge on ``infile``, answer on ``outfile``.

    The agent sees a mirror of the game built from the judge's lines (Chef's moves are
    applied as read), so in-process agents work unchanged.

    Returns:
        The final mirrored state.

    Raises:
        CodecError: for an unreadable judge line.
        IllegalActionError: if the judge's move is impossible on the mirror, or the agent
            chose an illegal move.
    """
    del agent_name  # kept for error messages by callers
    lines = iter(infile.readline, "")
    n, m, blocked = read_header(lines)
    game = Game(Config(type=0, rows=n, cols=m))
    state = game.state_with_grid(n, m, blocked)
    agent.reset(game.info, 0, seed)

    def say(text: str) -> None:
        outfile.write(text + "\n")
        outfile.flush()

    try:
        while True:
            if state.free == 0:
                say("EXIT")
                return state
            move = agent.act(state, None)
            state.play_mine(move)
            say(format_move(move))
            if move == EXIT:
                return state
            line = infile.readline()
            if not line:
                return state  # the judge hung up
            reply = parse_move(line)
            if reply == EXIT:
                return state
            state.play_chef(reply)
    finally:
        agent.close()

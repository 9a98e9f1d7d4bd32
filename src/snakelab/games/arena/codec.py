"""The snAIke text protocol (stdin/stdout lines), as ``parse_x`` / ``format_x`` pairs.

Dialogue with one agent:

* Init: ``num_snakes width height mode`` (mode is 1), then one line per obstacle
  (a coordinate chain).
* Each step the agent's snake is alive: one ``x y`` line per apple (``-1 -1`` for a
  slot that is empty), one coordinate chain per zombie, the agent's own index, then
  one line per snake: ``alive length kills chain`` or ``dead 0 kills``.
* The agent answers one line with a move 0–6. Lines starting with ``log `` are log
  lines, not moves.
* At the end: ``Game Over``.

A coordinate chain is ``x,y x,y …``: the head, every kink, then the tail, so a
straight snake is two points (one point for a single cell).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from snakelab.core.errors import CodecError
from snakelab.games.arena.rules import State

GAME_OVER = "Game Over"
MODE = 1
LOG_PREFIX = "log "

Point = tuple[int, int]


@dataclass(frozen=True)
class Init:
    """The init line: ``num_snakes width height mode``."""

    num_snakes: int
    width: int
    height: int
    mode: int = MODE


@dataclass(frozen=True)
class SnakeLine:
    """One snake's line. ``cells`` lists every cell head first (empty when dead)."""

    alive: bool
    length: int
    kills: int
    cells: tuple[Point, ...] = ()


@dataclass(frozen=True)
class StateMessage:
    """One step's state as an agent receives it."""

    apples: tuple[Point | None, ...]
    zombies: tuple[tuple[Point, ...], ...]
    me: int
    snakes: tuple[SnakeLine, ...]


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise CodecError(f"{what}: {text!r} is not an integer") from None


def format_init(init: Init) -> str:
    """``num_snakes width height mode``."""
    return f"{init.num_snakes} {init.width} {init.height} {init.mode}"


def parse_init(line: str) -> Init:
    """Inverse of :func:`format_init`.

    Raises:
        CodecError: unless the line holds four integers.
    """
    parts = line.split()
    if len(parts) != 4:
        raise CodecError(f"init line {line!r}: expected 'num_snakes width height mode'")
    n, w, h, m = (_int(p, "init line") for p in parts)
    return Init(n, w, h, m)


def format_chain(cells: Sequence[Point]) -> str:
    """Compress a path of adjacent cells (head first) to head, kinks and tail."""
    if not cells:
        raise CodecError("a coordinate chain needs at least one cell")
    pts = [cells[0]]
    for k in range(1, len(cells) - 1):
        (ax, ay), (bx, by), (cx, cy) = cells[k - 1], cells[k], cells[k + 1]
        if (bx - ax, by - ay) != (cx - bx, cy - by):
            pts.append(cells[k])
    if len(cells) > 1:
        pts.append(cells[-1])
    return " ".join(f"{x},{y}" for x, y in pts)


def parse_chain(text: str) -> tuple[Point, ...]:
    """Expand ``x,y x,y …`` into every cell, head first.

    Raises:
        CodecError: for a malformed point or two consecutive points not on one line.
    """
    pts: list[Point] = []
    for tok in text.split():
        xs, comma, ys = tok.partition(",")
        if not comma:
            raise CodecError(f"coordinate {tok!r}: expected x,y")
        pts.append((_int(xs, "coordinate"), _int(ys, "coordinate")))
    if not pts:
        raise CodecError("empty coordinate chain")
    cells = [pts[0]]
    for (ax, ay), (bx, by) in itertools.pairwise(pts):
        if ax != bx and ay != by:
            raise CodecError(f"chain points {ax},{ay} and {bx},{by} are not on one row or column")
        dx = (bx > ax) - (bx < ax)
        dy = (by > ay) - (by < ay)
        x, y = ax, ay
        while (x, y) != (bx, by):
            x, y = x + dx, y + dy
            cells.append((x, y))
    return tuple(cells)


def format_apple(apple: Point | None) -> str:
    """``x y``, or ``-1 -1`` for an empty slot."""
    return "-1 -1" if apple is None else f"{apple[0]} {apple[1]}"


def parse_apple(line: str) -> Point | None:
    """Inverse of :func:`format_apple`."""
    parts = line.split()
    if len(parts) != 2:
        raise CodecError(f"apple line {line!r}: expected 'x y'")
    x, y = _int(parts[0], "apple line"), _int(parts[1], "apple line")
    return None if (x, y) == (-1, -1) else (x, y)


def format_snake_line(s: SnakeLine) -> str:
    """``alive length kills chain`` or ``dead 0 kills``."""
    if not s.alive:
        return f"dead 0 {s.kills}"
    return f"alive {s.length} {s.kills} {format_chain(s.cells)}"


def parse_snake_line(line: str) -> SnakeLine:
    """Inverse of :func:`format_snake_line`.

    Raises:
        CodecError: for an unknown status, missing fields or a bad chain.
    """
    parts = line.split(None, 3)
    if len(parts) < 3 or parts[0] not in ("alive", "dead"):
        raise CodecError(f"snake line {line!r}: expected 'alive|dead length kills x,y ...'")
    length, kills = _int(parts[1], "snake length"), _int(parts[2], "snake kills")
    if parts[0] == "dead":
        cells = parse_chain(parts[3]) if len(parts) > 3 else ()
        return SnakeLine(False, length, kills, cells)
    if len(parts) < 4:
        raise CodecError(f"snake line {line!r}: an alive snake needs its coordinates")
    return SnakeLine(True, length, kills, parse_chain(parts[3]))


def state_message(state: State, player: int) -> StateMessage:
    """What ``player`` is sent this step."""
    g = state.grid
    xy = g.xy
    snakes = []
    for i, body in enumerate(state.bodies):
        if body:
            snakes.append(SnakeLine(True, len(body), state.kills[i], tuple(xy(c) for c in reversed(body))))
        else:
            snakes.append(SnakeLine(False, 0, state.kills[i]))
    return StateMessage(
        apples=tuple(xy(a) if a >= 0 else None for a in state.apples),
        zombies=tuple(tuple(xy(c) for c in reversed(z)) for z in state.zombies),
        me=player,
        snakes=tuple(snakes),
    )


def format_state(msg: StateMessage) -> list[str]:
    """The lines of one step's state."""
    lines = [format_apple(a) for a in msg.apples]
    lines += [format_chain(z) for z in msg.zombies]
    lines.append(str(msg.me))
    lines += [format_snake_line(s) for s in msg.snakes]
    return lines


def parse_state(lines: Sequence[str], num_snakes: int, num_zombies: int, num_apples: int = 2) -> StateMessage:
    """Inverse of :func:`format_state`, given the counts the agent knows.

    Raises:
        CodecError: for a wrong number of lines or any malformed line.
    """
    want = num_apples + num_zombies + 1 + num_snakes
    if len(lines) != want:
        raise CodecError(f"a state has {want} lines, got {len(lines)}")
    apples = tuple(parse_apple(line) for line in lines[:num_apples])
    zombies = tuple(parse_chain(line) for line in lines[num_apples : num_apples + num_zombies])
    me = _int(lines[num_apples + num_zombies].strip(), "own index")
    snakes = tuple(parse_snake_line(line) for line in lines[num_apples + num_zombies + 1 :])
    return StateMessage(apples, zombies, me, snakes)


def format_move(move: int) -> str:
    """A move line: the digit 0–6."""
    if not 0 <= move <= 6:
        raise CodecError(f"move {move} is not 0-6")
    return str(move)


def parse_move(line: str) -> int:
    """Inverse of :func:`format_move` (surrounding blanks and a CR allowed).

    Raises:
        CodecError: for anything but one integer 0–6 (the engine then goes straight).
    """
    t = line.strip()
    if len(t) != 1 or t not in "0123456":
        raise CodecError(f"move line {line[:40]!r}: expected one digit 0-6")
    return int(t)


def parse_log(line: str) -> str | None:
    """The message of a ``log `` line, or None if it is not one."""
    return line[len(LOG_PREFIX) :] if line.startswith(LOG_PREFIX) else None


def format_log(message: str) -> str:
    """Inverse of :func:`parse_log`."""
    return LOG_PREFIX + message


def init_lines(state: State) -> list[str]:
    """The init line and one chain per obstacle, as sent before the first state."""
    g = state.grid
    lines = [format_init(Init(len(state.bodies), g.width, g.height))]
    lines += [format_chain([g.xy(c) for c in o]) for o in state.obstacles]
    return lines

"""A snakgame move and its protocol line: ``NEW x y``, ``MOVE fx fy tx ty``, ``EXIT``, ``FREEZE t``.

This is the text both sides of the contest dialogue speak, one move per line, and the
form moves take in events and state JSON. The judge's header and the client loop are in
:mod:`~snakelab.games.snakgame.codec`; the move type lives here, apart from it, because
the rules need it and the codec needs the rules.
"""

from __future__ import annotations

from typing import NamedTuple

from snakelab.core.errors import CodecError


class Move(NamedTuple):
    """One move in protocol form, 1-based.

    ``NEW x y``, ``MOVE fx fy tx ty``, ``EXIT`` or Chef's ``FREEZE t`` (``x`` holds t).

    Attributes:
        kind: ``"NEW"``, ``"MOVE"``, ``"EXIT"`` or ``"FREEZE"``.
        x: Row (NEW), from-row (MOVE) or the freeze count (FREEZE).
        y: Column (NEW) or from-column (MOVE).
        tx: Target row (MOVE).
        ty: Target column (MOVE).
    """

    kind: str
    x: int = 0
    y: int = 0
    tx: int = 0
    ty: int = 0

    def __str__(self) -> str:
        return format_move(self)


Action = Move
"""Your moves are :class:`Move` values."""

EXIT = Move("EXIT")


def format_move(move: Move) -> str:
    """The protocol line of a move (no newline)."""
    k = move.kind
    if k == "MOVE":
        return f"MOVE {move.x} {move.y} {move.tx} {move.ty}"
    if k == "NEW":
        return f"NEW {move.x} {move.y}"
    if k == "FREEZE":
        return f"FREEZE {move.x}"
    return k


_ARITY = {"NEW": 2, "MOVE": 4, "EXIT": 0, "FREEZE": 1}


def parse_move(text: str) -> Move:
    """Parse one protocol line into a :class:`Move`.

    Raises:
        CodecError: naming the line and what is wrong with it.
    """
    parts = text.split()
    if not parts:
        raise CodecError("empty line where a move was expected (NEW x y, MOVE fx fy tx ty or EXIT)")
    kind = parts[0]
    if kind not in _ARITY:
        raise CodecError(f"cannot read move {text.strip()!r}: it must start with NEW, MOVE or EXIT")
    if len(parts) != 1 + _ARITY[kind]:
        raise CodecError(f"cannot read move {text.strip()!r}: {kind} takes {_ARITY[kind]} numbers")
    try:
        nums = [int(p) for p in parts[1:]]
    except ValueError:
        raise CodecError(f"cannot read move {text.strip()!r}: the coordinates must be integers") from None
    return Move(kind, *nums)

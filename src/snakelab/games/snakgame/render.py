"""Terminal drawings of a snakgame state: every cell on small grids, a reduced picture on large ones."""

from __future__ import annotations

import numpy as np
from rich.text import Text

from snakelab.games.snakgame.rules import BLOCKED, CHEF, EMPTY, MINE, State

#: Grids with more columns or rows than this are drawn reduced, one character per block of cells.
MAX_COLS = 60
MAX_ROWS = 40

_STYLE = {EMPTY: ("·", "grey30"), BLOCKED: ("#", "grey50"), MINE: ("o", "green"), CHEF: ("x", "red")}


def to_text(state: State) -> str:
    """A plain-text picture (see :func:`to_rich`)."""
    return to_rich(state).plain


def to_rich(state: State) -> Text:
    """A colour picture with a status line.

    Small grids show every cell: ``#`` blocked, ``o`` yours (``@`` your snake's ends),
    ``x`` Chef's (``X`` his ends), ``·`` empty. Larger grids show one character per
    block of cells, the block's most common content.
    """
    n, m = state.n, state.m
    arr = np.frombuffer(state.occ, dtype=np.uint8).reshape(n, m)
    out = Text()
    if n <= MAX_ROWS and m <= MAX_COLS:
        ends = {state.head, state.tail} - {-1}
        chef_ends = {state.chef_head, state.chef_tail} - {-1}
        for r in range(n):
            for c in range(m):
                cell = r * m + c
                v = int(arr[r, c])
                ch, style = _STYLE[v]
                if cell in ends:
                    ch, style = "@", "bold bright_yellow"
                elif cell in chef_ends:
                    ch, style = "X", "bold bright_red"
                out.append(ch + " ", style=style)
            out.append("\n")
    else:
        k = max(-(-n // MAX_ROWS), -(-m // MAX_COLS))
        rows, cols = -(-n // k), -(-m // k)
        padded = np.full((rows * k, cols * k), EMPTY, dtype=np.uint8)
        padded[:n, :m] = arr
        blocks = padded.reshape(rows, k, cols, k).transpose(0, 2, 1, 3).reshape(rows, cols, k * k)
        counts = np.stack([(blocks == v).sum(axis=2) for v in (EMPTY, BLOCKED, MINE, CHEF)], axis=2)
        # Blocked cells are everywhere at 1/25; show a block's players, then emptiness.
        counts[:, :, BLOCKED] //= 4
        best = counts.argmax(axis=2)
        for r in range(rows):
            for c in range(cols):
                ch, style = _STYLE[int(best[r, c])]
                out.append(ch + " ", style=style)
            out.append("\n")
        out.append(f"(one character per {k}×{k} block of cells)\n", style="grey50")
    lengths = [*state.done, state.length] if state.length else state.done
    status = (
        f"{n}×{m}  move {state.steps}  score {state.score}  snakes {len(lengths)}  current {state.length}"
        f"  longest {max(lengths, default=0)}  free {state.free}"
    )
    if state.last_chef is not None:
        status += f"  Chef: {state.last_chef}"
    if state.termination is not None:
        status += f"  [{state.termination.name}]"
    out.append(status)
    return out

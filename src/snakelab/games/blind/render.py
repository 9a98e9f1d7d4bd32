"""Terminal drawings for the blind game: a state, and the trace of a whole walk.

The trace view is the seed's verbose mode: every cell of a small torus coloured by
the move at which the walk first visits it (dark early, bright late), with the start
and the last cell marked.
"""

from __future__ import annotations

import numpy as np
from rich.text import Text

from snakelab.core.errors import ConfigError
from snakelab.games.blind.rules import State
from snakelab.games.blind.strategies import D, L, R, Strategy, U

TRACE_MAX_AREA = 10_000
"""Largest torus the trace view draws (the seed's visualisation threshold)."""
DRAW_MAX_AREA = 4_000
"""Largest torus :func:`to_rich` draws cell by cell; above it only the status line."""

# From dark blue through green and yellow to red: early to late.
_PALETTE = ("#1d2b64", "#1f5fa8", "#1e9bb0", "#2bb673", "#8cc63f", "#f6d32d", "#f39c12", "#e4572e", "#c0152f")


def to_rich(state: State) -> Text:
    """A picture of a state: ``@`` the head, ``*`` the apple (the player sees neither)."""
    cfg = state.config
    out = Text()
    if cfg.area <= DRAW_MAX_AREA:
        for y in range(cfg.height):
            for x in range(cfg.width):
                if (x, y) == (state.x, state.y):
                    out.append("@ ", style="bold bright_yellow")
                elif (x, y) == (state.apple_x, state.apple_y):
                    out.append("* ", style="bold red")
                else:
                    out.append(". ", style="grey35")
            out.append("\n")
    status = f"{cfg.width}×{cfg.height} torus  step {state.steps}  head ({state.x}, {state.y})"
    if state.termination is not None:
        status += f"  [{state.termination.name}]"
    out.append(status)
    return out


def first_visits(strategy: Strategy, width: int, height: int, max_moves: int) -> np.ndarray:
    """Move at which each cell is first visited (-1 if not within ``max_moves``), as [y, x]."""
    codes = strategy.moves_array(max_moves)
    x = np.concatenate(([0], np.cumsum((codes == R).astype(np.int64) - (codes == L)))) % width
    y = np.concatenate(([0], np.cumsum((codes == D).astype(np.int64) - (codes == U)))) % height
    first = np.full(height * width, -1, np.int64)
    cells, times = np.unique(y * width + x, return_index=True)  # index of each cell's first visit
    first[cells] = times
    return first.reshape(height, width)


def trace(strategy: Strategy, width: int, height: int, *, max_ratio: float = 35.0) -> Text:
    """The trace view of ``strategy`` on a ``width``×``height`` torus.

    Raises:
        ConfigError: for a torus with no cells or above :data:`TRACE_MAX_AREA` cells.
    """
    if width < 1 or height < 1:
        raise ConfigError(f"a {width}×{height} torus has no cells: width and height must be ≥ 1")
    area = width * height
    if area > TRACE_MAX_AREA:
        raise ConfigError(
            f"a {width}×{height} torus has {area:,} cells; the trace view draws at most "
            f"{TRACE_MAX_AREA:,} (use 'snakelab blind cover' for the figures)"
        )
    first = first_visits(strategy, width, height, int(max_ratio * area) + 1)
    cover = int(first.max()) if (first >= 0).all() else -1
    last = max(1, int(first.max()))
    out = Text()
    for y in range(height):
        for x in range(width):
            t = int(first[y, x])
            if t < 0:
                out.append("  ", style="on grey11")
            elif t == 0:
                out.append("S ", style="bold black on white")
            else:
                shade = _PALETTE[min(len(_PALETTE) - 1, t * len(_PALETTE) // (last + 1))]
                mark = "E " if t == cover else "  "
                out.append(mark, style=f"bold white on {shade}")
        out.append("\n")
    if cover >= 0:
        out.append(f"{strategy.spec} on {width}×{height}: covered after {cover:,} moves = {cover / area:.3f}·S")
    else:
        missing = int((first < 0).sum())
        out.append(f"{strategy.spec} on {width}×{height}: {missing} cells unvisited after {max_ratio:g}·S moves")
    out.append("\ncolours: first visit, early (blue) to late (red); S start, E the last cell covered")
    return out

"""Numba kernels for the hextris solvers, by idea.

- :mod:`.placement`: placement codes, moves, fitting, the BFS over reachable locks, locking.
- :mod:`.evaluation`: the heuristic board value and the lost-cell count.
- :mod:`.phrases`: spelling a path to a lock with phrases of power (greedy and exact).

Every kernel is compiled by :func:`snakelab.core.jit.jit` (``numba.njit(cache=True)`` with
the Python signature kept for mypy); the names are re-exported here so callers write
``kernels.bfs_locks``.
"""

from __future__ import annotations

from snakelab.games.hextris.kernels.evaluation import (
    DEAD,
    N_WEIGHTS,
    W_CLEAR,
    W_DEPTH,
    W_FILL,
    W_HOLE,
    W_SINGLE,
    W_TOP,
    W_TRANS,
    W_WELL,
    board_rows,
    evaluate_locks,
    lost_cells,
    row_score,
)
from snakelab.games.hextris.kernels.phrases import (
    ARRIVED,
    PhraseTable,
    Piece,
    allowed_path,
    embed_unit,
    embed_unit_dp,
    sim_phrase,
)
from snakelab.games.hextris.kernels.placement import (
    bfs_locks,
    decode,
    encode,
    fits,
    lock_board,
    lock_points,
    reach_to,
    step,
)

__all__ = [
    "ARRIVED",
    "DEAD",
    "N_WEIGHTS",
    "W_CLEAR",
    "W_DEPTH",
    "W_FILL",
    "W_HOLE",
    "W_SINGLE",
    "W_TOP",
    "W_TRANS",
    "W_WELL",
    "PhraseTable",
    "Piece",
    "allowed_path",
    "bfs_locks",
    "board_rows",
    "decode",
    "embed_unit",
    "embed_unit_dp",
    "encode",
    "evaluate_locks",
    "fits",
    "lock_board",
    "lock_points",
    "lost_cells",
    "reach_to",
    "row_score",
    "sim_phrase",
    "step",
]

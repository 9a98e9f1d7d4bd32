"""The cell-tree scheme: Hamiltonian cycles of an even×even board as outlines of spanning trees.

Cut a board with both sides even into 2×2 *blocks*. Inside every block the snake "drives
on the right": each square allows exactly two moves, one that stays in the block (going
round it anticlockwise) and one that leaves it through a fixed side. For any spanning tree
``T`` of the half-resolution block grid, "leave the block when that side's block edge is in
``T``, else stay" is a Hamiltonian cycle: the outline of ``T``.

A body ``b0 (tail) … bL-1 (head)`` lies contiguously on the outline of ``T`` exactly when
every body move agrees with ``T``: a move that leaves a block says "this block edge is in
``T``" (a *plus* edge), a move that stays at a square whose exit side leads to another
block says "this edge is not in ``T``" (a *minus* edge). So the body fits some cycle iff

* no edge is both plus and minus,
* the plus edges form a forest, and
* the block grid without the minus edges is connected

(matroid exchange: a forest inside a connected graph extends to a spanning tree).
:func:`feasible` checks this exactly, from scratch, in ``O(n)`` (union-find over the
block edges). The tables of one board are a :class:`CellTables`; the kernels here and in
:mod:`~snakelab.games.classic.planner` read them by name.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from snakelab.core.jit import jit

#: Values of the per-edge ``mark`` scratch array written by :func:`feasible`.
UNKNOWN, PLUS, MINUS = 0, 1, 2


# Per sub-square ``(x % 2, y % 2)`` of a block: (stay-in-block move, leave-block move),
# as directions 0 up, 1 down, 2 left, 3 right.
_RULE = {(1, 0): (2, 0), (0, 0): (1, 2), (0, 1): (3, 1), (1, 1): (0, 3)}


class CellTables(NamedTuple):
    """The move and block-edge tables of the cell-tree scheme on one board (read-only).

    Attributes:
        in_to: Per square, the square the stay-in-block move reaches (int32).
        ex_to: Per square, the square the leave-block move reaches (-1 past a wall).
        ex_edge: Per square, the block edge the leave move crosses (-1 past a wall).
        eu: Per block edge, one of its two blocks.
        ev: Per block edge, the other block.
        blockof: Per square, its block.
        nblocks: Number of blocks.
        nedges: Number of block edges (``eu``/``ev`` have at least one entry).
        width: Board width in squares.
    """

    in_to: np.ndarray
    ex_to: np.ndarray
    ex_edge: np.ndarray
    eu: np.ndarray
    ev: np.ndarray
    blockof: np.ndarray
    nblocks: int
    nedges: int
    width: int


def block_tables(width: int, height: int) -> CellTables:
    """The cell-tree tables of an even×even board.

    Sub-squares of a block, by ``(x % 2, y % 2)``: (1, 0) stays LEFT or leaves UP;
    (0, 0) stays DOWN or leaves LEFT; (0, 1) stays RIGHT or leaves DOWN; (1, 1) stays
    UP or leaves RIGHT.

    Raises:
        ValueError: if a side is odd.
    """
    if width % 2 or height % 2:
        raise ValueError("the cell-tree scheme needs both sides even")
    n = width * height
    bw, bh = width // 2, height // 2
    nh = bh * (bw - 1)
    ne = nh + (bh - 1) * bw
    eu = np.zeros(max(ne, 1), np.int32)
    ev = np.zeros(max(ne, 1), np.int32)
    for by in range(bh):
        for bx in range(bw - 1):
            e = by * (bw - 1) + bx
            eu[e], ev[e] = by * bw + bx, by * bw + bx + 1
    for by in range(bh - 1):
        for bx in range(bw):
            e = nh + by * bw + bx
            eu[e], ev[e] = by * bw + bx, (by + 1) * bw + bx
    up, down, left = 0, 1, 2
    dxy = ((0, -1), (0, 1), (-1, 0), (1, 0))
    in_to = np.full(n, -1, np.int32)
    ex_to = np.full(n, -1, np.int32)
    ex_edge = np.full(n, -1, np.int32)
    for y in range(height):
        for x in range(width):
            s = y * width + x
            stay, leave = _RULE[(x % 2, y % 2)]
            in_to[s] = (y + dxy[stay][1]) * width + x + dxy[stay][0]
            nx, ny = x + dxy[leave][0], y + dxy[leave][1]
            if 0 <= nx < width and 0 <= ny < height:
                ex_to[s] = ny * width + nx
                bx, by = x // 2, y // 2
                if leave == up:
                    ex_edge[s] = nh + (by - 1) * bw + bx
                elif leave == down:
                    ex_edge[s] = nh + by * bw + bx
                elif leave == left:
                    ex_edge[s] = by * (bw - 1) + bx - 1
                else:
                    ex_edge[s] = by * (bw - 1) + bx
    blockof = np.array([(s // width // 2) * bw + (s % width) // 2 for s in range(n)], np.int32)
    return CellTables(in_to, ex_to, ex_edge, eu, ev, blockof, bw * bh, ne, width)


def move_directions(width: int, height: int) -> tuple[list[int], list[int]]:
    """Per square, the direction of its stay-in-block move and of its leave-block move."""
    stay = [_RULE[(s % width % 2, s // width % 2)][0] for s in range(width * height)]
    leave = [_RULE[(s % width % 2, s // width % 2)][1] for s in range(width * height)]
    return stay, leave


@jit
def find(parent: np.ndarray, a: int) -> int:
    """Union-find root of ``a``, halving the path on the way."""
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@jit
def feasible(seq: np.ndarray, m: int, tb: CellTables, mark: np.ndarray, parent: np.ndarray) -> bool:
    """Whether the body ``seq[0..m-1]`` (tail first) lies on the outline of some spanning tree.

    Leaves in ``mark`` the :data:`PLUS` / :data:`MINUS` / :data:`UNKNOWN` verdict on every
    block edge (complete only when the answer is true); ``parent`` is scratch.
    """
    in_to, ex_to, ex_edge, eu, ev = tb.in_to, tb.ex_to, tb.ex_edge, tb.eu, tb.ev
    nblocks, nedges = tb.nblocks, tb.nedges
    for e in range(nedges):
        mark[e] = UNKNOWN
    for i in range(m - 1):
        s = seq[i]
        t = seq[i + 1]
        e = ex_edge[s]
        if t == ex_to[s]:
            if mark[e] == MINUS:
                return False
            mark[e] = PLUS
        elif t == in_to[s]:
            if e >= 0:
                if mark[e] == PLUS:
                    return False
                mark[e] = MINUS
        else:
            return False
    for b in range(nblocks):
        parent[b] = b
    comps = nblocks
    for e in range(nedges):
        if mark[e] == PLUS:
            a = find(parent, eu[e])
            b = find(parent, ev[e])
            if a == b:
                return False
            parent[a] = b
            comps -= 1
    for e in range(nedges):
        if mark[e] == UNKNOWN:
            a = find(parent, eu[e])
            b = find(parent, ev[e])
            if a != b:
                parent[a] = b
                comps -= 1
    return comps == 1


@jit
def spanning_tree(
    seq: np.ndarray, m: int, tb: CellTables, mark: np.ndarray, parent: np.ndarray, tree: np.ndarray
) -> None:
    """A spanning tree agreeing with a feasible body: ``tree[e] = 1`` for its edges."""
    feasible(seq, m, tb, mark, parent)
    eu, ev = tb.eu, tb.ev
    for b in range(tb.nblocks):
        parent[b] = b
    for e in range(tb.nedges):
        tree[e] = 0
    for e in range(tb.nedges):
        if mark[e] == PLUS:
            a = find(parent, eu[e])
            b = find(parent, ev[e])
            parent[a] = b
            tree[e] = 1
    for e in range(tb.nedges):
        if mark[e] == UNKNOWN:
            a = find(parent, eu[e])
            b = find(parent, ev[e])
            if a != b:
                parent[a] = b
                tree[e] = 1


@jit
def end_feasible(
    path: np.ndarray,
    k: int,
    ring: np.ndarray,
    tail_seq: int,
    head_seq: int,
    seq: np.ndarray,
    tb: CellTables,
    mark: np.ndarray,
    parent: np.ndarray,
) -> int:
    """Build in ``seq`` the body after following ``path[:k]`` and eating at its end.

    Returns its length, negated when that position is not feasible. The tail moves
    ``k - 1`` times, so the end body is the last ``length + 1`` squares of body + path.
    """
    n = ring.shape[0]
    m = 0
    start = tail_seq + k - 1
    for q in range(start, head_seq + 1):
        seq[m] = ring[q % n]
        m += 1
    first = 0 if start <= head_seq else start - head_seq - 1
    for i in range(first, k):
        seq[m] = path[i]
        m += 1
    if feasible(seq, m, tb, mark, parent):
        return m
    return -m

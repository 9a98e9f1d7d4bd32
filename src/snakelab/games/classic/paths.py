"""Paths for the classic champion: the snake as the kernels see it and the time-aware searches over its moves.

The cell-tree scheme (:mod:`~snakelab.games.classic.celltree`) allows two moves per
square. Here are the searches over them that :mod:`~snakelab.games.classic.planner`
builds its plans from: :func:`bfs` (shortest paths, optionally the one hugging walls and
body most), :func:`hug_path` (paths that trade length for hugging), :func:`candidate`
(one candidate path to the apple) and :func:`plan_length` (the shortest verified
candidate, what the lookahead asks of every sampled next apple). Every search is
*time-aware*: a body square may be entered once the tail will have left it, under the
strict or lenient tail rule, so a path found here never collides.
"""

from __future__ import annotations

import heapq
from typing import NamedTuple

import numpy as np

from snakelab.core.jit import jit
from snakelab.games.classic.celltree import CellTables, end_feasible

FAR = 1 << 30
"""Longer than any path."""


class Scratch(NamedTuple):
    """Work arrays of :func:`decide`, allocated once per board.

    Attributes:
        dist: Per square, BFS distance (int64, n).
        prev: Per square, BFS parent (int64, n).
        queue: BFS queue (int64, n + 1).
        seq: A body being tested (int64, n + 1).
        path: A candidate path (int64, n + 1).
        fseq: The end body of the shortest candidate that failed (int64, n + 1).
        vocc: Occupancy with a first leg added as virtual body (uint8, n).
        vseq: Move numbers of that virtual body (int64, n).
        bpar: Per block, the block the body entered it from (int64, blocks).
        pen: Per square, the hugging cost of the BFS path (int64, n).
        mark: Per block edge, the feasibility verdict (int8).
        parent: Per block, union-find parent (int64, blocks).
        tree: Per block edge, 1 if in the frozen spanning tree (int8).
    """

    dist: np.ndarray
    prev: np.ndarray
    queue: np.ndarray
    seq: np.ndarray
    path: np.ndarray
    fseq: np.ndarray
    vocc: np.ndarray
    vseq: np.ndarray
    bpar: np.ndarray
    pen: np.ndarray
    mark: np.ndarray
    parent: np.ndarray
    tree: np.ndarray

    @classmethod
    def allocate(cls, n: int, nblocks: int, nedges: int) -> Scratch:
        """Work arrays for a board of ``n`` squares, ``nblocks`` blocks and ``nedges`` block edges."""
        return cls(
            dist=np.zeros(n, np.int64),
            prev=np.zeros(n, np.int64),
            queue=np.zeros(n + 1, np.int64),
            seq=np.zeros(n + 1, np.int64),
            path=np.zeros(n + 1, np.int64),
            fseq=np.zeros(n + 1, np.int64),
            vocc=np.zeros(n, np.uint8),
            vseq=np.zeros(n, np.int64),
            bpar=np.zeros(nblocks, np.int64),
            pen=np.zeros(n, np.int64),
            mark=np.zeros(max(nedges, 1), np.int8),
            parent=np.zeros(nblocks, np.int64),
            tree=np.zeros(max(nedges, 1), np.int8),
        )


class Body(NamedTuple):
    """The snake as the kernels read it (built inside compiled code, never passed in from Python).

    Attributes:
        ring: ``ring[seq % n]`` is the square entered at move number ``seq``.
        seqno: Per square, the move number at which the body entered it.
        occ: Per square, nonzero if the body holds it (uint8).
        head_seq: The head's move number; the body is ``head_seq - length + 1 .. head_seq``.
        length: Body length.
        strict: The strict tail rule (the head may not enter the square the tail leaves).
    """

    ring: np.ndarray
    seqno: np.ndarray
    occ: np.ndarray
    head_seq: int
    length: int
    strict: bool


@jit
def bfs(
    start: int, t0: int, goal: int, order: int, avoid: int, hug: bool, bd: Body, tb: CellTables, sc: Scratch
) -> int:
    """Time-aware BFS over the allowed moves; the number of moves from ``start`` to ``goal``.

    ``start`` is reached after ``t0`` moves from now. A body square with index ``i``
    from the tail may be entered on move ``k`` (counted from now) once the tail has
    left it: ``i <= k - 2`` (strict) or ``i <= k - 1`` (lenient). ``order & 1`` picks
    which move is tried first; ``order >= 2`` adds twanvl's rule (leave a block only for
    its parent or a fresh block, by ``sc.bpar``). ``avoid`` is never entered. Paths are
    left in ``sc.prev`` and distances in ``sc.dist``; ``goal = -1`` labels every square.
    Returns -1 if the goal is not reached.

    With ``hug``, among the shortest paths the one that hugs walls and body most: entering
    a square costs its number of free neighbours (body squares count as free once the
    tail will have left them), and each square keeps the parent with the least total cost
    (its layer is complete before it is expanded). Hugging keeps the free region compact,
    so fewer later plans cut a region off (twanvl's idea).
    """
    in_to, ex_to, blockof = tb.in_to, tb.ex_to, tb.blockof
    dist, prev, queue, bpar, pen = sc.dist, sc.prev, sc.queue, sc.bpar, sc.pen
    occ, seqno = bd.occ, bd.seqno
    tail_seq = bd.head_seq - bd.length + 1
    n = dist.shape[0]
    w = tb.width
    h = n // w
    for i in range(n):
        dist[i] = -1
    dist[start] = 0
    pen[start] = 0
    prev[start] = -1
    if start == goal:
        return 0
    slack = 2 if bd.strict else 1
    qh = 0
    qt = 1
    queue[0] = start
    found = -1
    while qh < qt:
        s = queue[qh]
        qh += 1
        if found >= 0 and dist[s] >= found:
            break
        k = t0 + dist[s] + 1
        for j in range(2):
            t = in_to[s] if j == (order & 1) else ex_to[s]
            if t < 0 or t == avoid:
                continue
            if dist[t] >= 0 and (not hug or dist[t] != dist[s] + 1):
                continue
            if order >= 2 and j != (order & 1):
                # twanvl's tree rule: leave a block only for its parent or a fresh block.
                bt = blockof[t]
                if bpar[bt] != -1 and bpar[blockof[s]] != bt:
                    continue
            if occ[t] and seqno[t] - tail_seq > k - slack:
                continue
            p = 0
            if hug:
                x = t % w
                y = t // w
                lim = k + 1 - slack
                if x > 0 and not (occ[t - 1] and seqno[t - 1] - tail_seq > lim):
                    p += 1
                if x < w - 1 and not (occ[t + 1] and seqno[t + 1] - tail_seq > lim):
                    p += 1
                if y > 0 and not (occ[t - w] and seqno[t - w] - tail_seq > lim):
                    p += 1
                if y < h - 1 and not (occ[t + w] and seqno[t + w] - tail_seq > lim):
                    p += 1
                p += pen[s]
                if dist[t] >= 0:
                    if p < pen[t]:
                        pen[t] = p
                        prev[t] = s
                    continue
            dist[t] = dist[s] + 1
            pen[t] = p
            prev[t] = s
            if t == goal:
                if not hug:
                    return dist[t]
                found = dist[t]
            queue[qt] = t
            qt += 1
    return found


@jit
def hug_path(start: int, t0: int, goal: int, alpha: int, bd: Body, tb: CellTables, sc: Scratch) -> int:
    """A path that trades length for hugging: Dijkstra with step cost ``4 + alpha * free neighbours``.

    The same moves and time-aware body rule as :func:`bfs` (each square is entered at the
    move count of its own path, which is final once the square is settled). With
    ``alpha = 0`` it is a shortest path; larger ``alpha`` prefers paths along walls and
    body even when they are longer, which leaves the free region more compact: a different
    re-shaping for the lookahead to weigh. Steps in ``sc.dist``, parents in ``sc.prev``.
    Returns the number of moves to ``goal``, -1 if unreachable.
    """
    in_to, ex_to = tb.in_to, tb.ex_to
    dist, prev, pen, queue = sc.dist, sc.prev, sc.pen, sc.queue
    occ, seqno = bd.occ, bd.seqno
    tail_seq = bd.head_seq - bd.length + 1
    n = dist.shape[0]
    w = tb.width
    h = n // w
    big = 1 << 40
    for i in range(n):
        dist[i] = -1
        pen[i] = big
        queue[i] = 0  # settled flag
    pen[start] = 0
    dist[start] = 0
    prev[start] = -1
    slack = 2 if bd.strict else 1
    heap = [(np.int64(0), np.int64(start))]
    while len(heap) > 0:
        p, s = heapq.heappop(heap)
        if queue[s] == 1 or p > pen[s]:
            continue
        queue[s] = 1
        if s == goal:
            return dist[s]
        k = t0 + dist[s] + 1
        for j in range(2):
            t = in_to[s] if j == 0 else ex_to[s]
            if t < 0 or queue[t] == 1:
                continue
            if occ[t] and seqno[t] - tail_seq > k - slack:
                continue
            x = t % w
            y = t // w
            lim = k + 1 - slack
            free = 0
            if x > 0 and not (occ[t - 1] and seqno[t - 1] - tail_seq > lim):
                free += 1
            if x < w - 1 and not (occ[t + 1] and seqno[t + 1] - tail_seq > lim):
                free += 1
            if y > 0 and not (occ[t - w] and seqno[t - w] - tail_seq > lim):
                free += 1
            if y < h - 1 and not (occ[t + w] and seqno[t + w] - tail_seq > lim):
                free += 1
            q = p + 4 + alpha * free
            if q < pen[t]:
                pen[t] = q
                dist[t] = dist[s] + 1
                prev[t] = s
                heapq.heappush(heap, (q, np.int64(t)))
    return -1


@jit
def body_copy(bd: Body, seq: np.ndarray) -> int:
    """Copy the body, tail first, into ``seq``; its length."""
    ring = bd.ring
    n = ring.shape[0]
    m = 0
    for q in range(bd.head_seq - bd.length + 1, bd.head_seq + 1):
        seq[m] = ring[q % n]
        m += 1
    return m


@jit
def first_squares(bd: Body, apple: int, tb: CellTables, sc: Scratch) -> tuple[int, int, int]:
    """The unrestricted time-aware distance to the apple and the two first squares (-1: not enterable).

    Also fills ``sc.bpar`` (the block tree of the body), which the BFS variants use.
    """
    ring, occ, seqno, blockof, bpar = bd.ring, bd.occ, bd.seqno, tb.blockof, sc.bpar
    n = ring.shape[0]
    tail_seq = bd.head_seq - bd.length + 1
    head = ring[bd.head_seq % n]
    d0 = bfs(head, 0, apple, 0, -1, False, bd, tb, sc)
    for b in range(tb.nblocks):
        bpar[b] = -1
    pb = -2
    for q in range(tail_seq, bd.head_seq + 1):
        b = blockof[ring[q % n]]
        if bpar[b] == -1:
            bpar[b] = pb
        pb = b
    c0 = tb.in_to[head]
    c1 = tb.ex_to[head]
    lim = -1 if bd.strict else 0
    if occ[c0] and seqno[c0] - tail_seq > lim:
        c0 = -1
    if c1 >= 0 and occ[c1] and seqno[c1] - tail_seq > lim:
        c1 = -1
    return d0, c0, c1


@jit
def candidate(bd: Body, apple: int, c: int, order: int, tb: CellTables, sc: Scratch) -> int:
    """Candidate path to the apple through first square ``c``, BFS variant ``order``, into ``sc.path``.

    Variants 0-3 hug walls and body (``order & 3`` as in :func:`bfs`), 4-7 are the plain
    BFS of the same orders, 8 and up trade length for hugging (:func:`hug_path` with
    ``alpha = order - 7``).

    Returns its length, or -1 when the apple cannot be reached that way.
    """
    path, prev = sc.path, sc.prev
    if c == apple:
        path[0] = c
        return 1
    if order < 8:
        k1 = bfs(c, 1, apple, order & 3, -1, order < 4, bd, tb, sc)
    else:
        k1 = hug_path(c, 1, apple, order - 7, bd, tb, sc)
    if k1 < 0:
        return -1
    k = k1 + 1
    s = apple
    for i in range(k - 1, 0, -1):
        path[i] = s
        s = prev[s]
    path[0] = c
    return k


@jit
def plan_length(bd: Body, apple: int, tb: CellTables, sc: Scratch) -> tuple[int, int]:
    """The length of the shortest verified candidate plan to ``apple`` (-1: none) and the unrestricted distance.

    The same candidates as :func:`shortest_plan` with weight 0, without writing a plan.
    """
    ring = bd.ring
    tail_seq = bd.head_seq - bd.length + 1
    d0, c0, c1 = first_squares(bd, apple, tb, sc)
    if d0 < 0:
        return -1, d0
    best = FAR
    for j in range(2):
        c = c0 if j == 0 else c1
        if c < 0:
            continue
        for order in range(4):
            if (c == apple and order > 0) or best == d0:
                continue
            k = candidate(bd, apple, c, order, tb, sc)
            if k < 0 or k >= best:
                continue
            if end_feasible(sc.path, k, ring, tail_seq, bd.head_seq, sc.seq, tb, sc.mark, sc.parent) > 0:
                best = k
    return (best if best < FAR else -1), d0

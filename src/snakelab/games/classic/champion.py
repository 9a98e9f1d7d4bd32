"""The classic champion: a snake that re-shapes its Hamiltonian cycle around every apple.

The idea (twanvl's *cell tree*, made exact). Cut a board with both sides even into
2×2 *blocks*. Inside every block the snake "drives on the right": each square allows
exactly two moves, one that stays in the block (going round it anticlockwise) and one
that leaves it through a fixed side. For any spanning tree ``T`` of the half-resolution
block grid, "leave the block when that side's block edge is in ``T``, else stay" is a
Hamiltonian cycle: the outline of ``T``.

A body ``b0 (tail) … bL-1 (head)`` lies contiguously on the outline of ``T`` exactly
when every body move agrees with ``T``: a move that leaves a block says "this block
edge is in ``T``" (a *plus* edge), a move that stays at a square whose exit side leads
to another block says "this edge is not in ``T``" (a *minus* edge). So the body fits
some cycle iff

* no edge is both plus and minus,
* the plus edges form a forest, and
* the block grid without the minus edges is connected

(matroid exchange: a forest inside a connected graph extends to a spanning tree). This
is checked exactly, from scratch, in ``O(n)`` (union-find over the block edges).

Safety argument. Call a position *feasible* when the test above passes. From a feasible
position the successor of the head on that cycle is free (the body is a proper arc of
a Hamiltonian cycle), so following the cycle never dies under either tail rule, and
it keeps the position feasible. The agent therefore only ever:

1. takes the first step of a *verified plan*: a collision-free path to the apple,
   simulated with the tail moving (strict or lenient rule as configured), whose final
   position (apple eaten) is feasible. Positions *during* the plan may be infeasible
   (a region is temporarily cut off) — the tail frees it in time, which the simulation
   proves. Nothing random happens before the apple is eaten, so the simulation is exact;
2. keeps following the verified plan it already has if no better plan verifies;
3. otherwise (the position is then feasible) takes a move after which the position is
   still feasible; one always exists (the cycle's own move).

Progress: a plan ends at the apple and is only replaced by a shorter verified one;
without a plan, after ``n`` steps without an apple the agent freezes one spanning tree
and follows its outline, which reaches the apple in fewer than ``n`` steps. So the
stall limit (``4·n``) is never hit, no move ever collides, and every game on a board
with both sides even is won under both tail rules.

Choosing among plans: candidates come from both first moves and four BFS variants
(which move is tried first; twanvl's "only into the parent block or a fresh block"
rule on or off). Each BFS keeps, among the shortest paths, the one that hugs walls and
body most; the shortest verified candidate wins. When none verifies and no plan is in
hand, the agent heads for the region the shortest candidate would have cut off (first
trying a verified two-leg plan through it), else for the apple.

Other boards: one side even — the perturbed-cycle agent (``hamilton-shortcut``), which
is also certain to win; both sides odd — see :class:`OddBoardAgent`.

Speed. All per-move work (a time-aware BFS over the two allowed moves per square, the
plan simulation, the feasibility test) runs in numba kernels on flat arrays; the agent
keeps its own ring buffer of the body, updated in O(1) per move.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.games.classic.rules import Config, State

# ``_in_to[s]`` / ``_ex_to[s]``: the square reached by the stay-in-block / leave-block
# move from ``s`` (-1 past a wall); ``_ex_edge[s]`` the block edge the leave move
# crosses (-1 past a wall).


def block_tables(width: int, height: int) -> dict[str, np.ndarray]:
    """Move and block-edge tables of the cell-tree scheme for an even×even board.

    Sub-squares of a block, by ``(x % 2, y % 2)``: (1, 0) stays LEFT or leaves UP;
    (0, 0) stays DOWN or leaves LEFT; (0, 1) stays RIGHT or leaves DOWN; (1, 1) stays
    UP or leaves RIGHT.

    Returns:
        ``in_to, in_dir, ex_to, ex_dir, ex_edge`` per square, ``eu, ev`` (the two
        blocks of each block edge) and ``dims = [blocks, edges]``.
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
    up, down, left, right = 0, 1, 2, 3
    dxy = ((0, -1), (0, 1), (-1, 0), (1, 0))
    rule = {(1, 0): (left, up), (0, 0): (down, left), (0, 1): (right, down), (1, 1): (up, right)}
    in_to = np.full(n, -1, np.int32)
    in_dir = np.zeros(n, np.int32)
    ex_to = np.full(n, -1, np.int32)
    ex_dir = np.zeros(n, np.int32)
    ex_edge = np.full(n, -1, np.int32)
    for y in range(height):
        for x in range(width):
            s = y * width + x
            stay, leave = rule[(x % 2, y % 2)]
            in_dir[s], ex_dir[s] = stay, leave
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
    return {
        "in_to": in_to,
        "in_dir": in_dir,
        "ex_to": ex_to,
        "ex_dir": ex_dir,
        "ex_edge": ex_edge,
        "eu": eu,
        "ev": ev,
        "dims": np.array([bw * bh, ne], np.int32),
        "blockof": np.array([(s // width // 2) * bw + (s % width) // 2 for s in range(n)], np.int32),
    }


@njit(cache=True)
def _find(parent: np.ndarray, a: int) -> int:
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@njit(cache=True)
def _feasible(
    seq: np.ndarray,
    m: int,
    in_to: np.ndarray,
    ex_to: np.ndarray,
    ex_edge: np.ndarray,
    eu: np.ndarray,
    ev: np.ndarray,
    nblocks: int,
    nedges: int,
    mark: np.ndarray,
    parent: np.ndarray,
) -> bool:
    """Whether the body ``seq[0..m-1]`` (tail first) lies on the outline of some spanning tree."""
    for e in range(nedges):
        mark[e] = 0
    for i in range(m - 1):
        s = seq[i]
        t = seq[i + 1]
        e = ex_edge[s]
        if t == ex_to[s]:
            if mark[e] == 2:
                return False
            mark[e] = 1
        elif t == in_to[s]:
            if e >= 0:
                if mark[e] == 1:
                    return False
                mark[e] = 2
        else:
            return False
    for b in range(nblocks):
        parent[b] = b
    comps = nblocks
    for e in range(nedges):
        if mark[e] == 1:
            a = _find(parent, eu[e])
            b = _find(parent, ev[e])
            if a == b:
                return False
            parent[a] = b
            comps -= 1
    for e in range(nedges):
        if mark[e] == 0:
            a = _find(parent, eu[e])
            b = _find(parent, ev[e])
            if a != b:
                parent[a] = b
                comps -= 1
    return comps == 1


@njit(cache=True)
def _spanning_tree(
    seq: np.ndarray,
    m: int,
    in_to: np.ndarray,
    ex_to: np.ndarray,
    ex_edge: np.ndarray,
    eu: np.ndarray,
    ev: np.ndarray,
    nblocks: int,
    nedges: int,
    mark: np.ndarray,
    parent: np.ndarray,
    tree: np.ndarray,
) -> None:
    """A spanning tree agreeing with a feasible body: ``tree[e] = 1`` for its edges."""
    _feasible(seq, m, in_to, ex_to, ex_edge, eu, ev, nblocks, nedges, mark, parent)
    for b in range(nblocks):
        parent[b] = b
    for e in range(nedges):
        tree[e] = 0
    for e in range(nedges):
        if mark[e] == 1:
            a = _find(parent, eu[e])
            b = _find(parent, ev[e])
            parent[a] = b
            tree[e] = 1
    for e in range(nedges):
        if mark[e] == 0:
            a = _find(parent, eu[e])
            b = _find(parent, ev[e])
            if a != b:
                parent[a] = b
                tree[e] = 1


@njit(cache=True)
def _bfs(
    start: int,
    t0: int,
    goal: int,
    tail_seq: int,
    strict: bool,
    occ: np.ndarray,
    seqno: np.ndarray,
    in_to: np.ndarray,
    ex_to: np.ndarray,
    dist: np.ndarray,
    prev: np.ndarray,
    queue: np.ndarray,
    order: int,
    bpar: np.ndarray,
    blockof: np.ndarray,
    avoid: int,
) -> int:
    """Time-aware BFS over the allowed moves; the number of moves from ``start`` to ``goal``.

    ``start`` is reached after ``t0`` moves from now. A body square with index ``i``
    from the tail may be entered on move ``k`` (counted from now) once the tail has
    left it: ``i <= k - 2`` (strict) or ``i <= k - 1`` (lenient). Returns -1 if the
    goal is not reached.
    """
    n = dist.shape[0]
    for i in range(n):
        dist[i] = -1
    dist[start] = 0
    prev[start] = -1
    if start == goal:
        return 0
    slack = 2 if strict else 1
    qh = 0
    qt = 1
    queue[0] = start
    while qh < qt:
        s = queue[qh]
        qh += 1
        k = t0 + dist[s] + 1
        for j in range(2):
            t = in_to[s] if j == (order & 1) else ex_to[s]
            if t < 0 or dist[t] >= 0 or t == avoid:
                continue
            if order >= 2 and j != (order & 1):
                # twanvl's tree rule: leave a block only for its parent or a fresh block.
                bt = blockof[t]
                if bpar[bt] != -1 and bpar[blockof[s]] != bt:
                    continue
            if occ[t] and seqno[t] - tail_seq > k - slack:
                continue
            dist[t] = dist[s] + 1
            prev[t] = s
            if t == goal:
                return dist[t]
            queue[qt] = t
            qt += 1
    return -1


@njit(cache=True)
def _bfs_pen(
    start: int,
    t0: int,
    goal: int,
    tail_seq: int,
    strict: bool,
    occ: np.ndarray,
    seqno: np.ndarray,
    in_to: np.ndarray,
    ex_to: np.ndarray,
    dist: np.ndarray,
    prev: np.ndarray,
    queue: np.ndarray,
    order: int,
    bpar: np.ndarray,
    blockof: np.ndarray,
    avoid: int,
    width: int,
    pen: np.ndarray,
) -> int:
    """Like :func:`_bfs`, but among shortest paths the one that hugs walls and body most.

    Entering a square costs its number of free neighbours (body squares count as free
    once the tail will have left them); the BFS keeps, per square, the parent with
    the least total cost (its layer is complete before it is expanded). Hugging keeps
    the free region compact, so fewer later plans cut a region off (twanvl's idea).
    """
    n = dist.shape[0]
    w = width
    for i in range(n):
        dist[i] = -1
    dist[start] = 0
    pen[start] = 0
    prev[start] = -1
    if start == goal:
        return 0
    slack = 2 if strict else 1
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
            if dist[t] >= 0 and dist[t] != dist[s] + 1:
                continue
            if order >= 2 and j != (order & 1):
                bt = blockof[t]
                if bpar[bt] != -1 and bpar[blockof[s]] != bt:
                    continue
            if occ[t] and seqno[t] - tail_seq > k - slack:
                continue
            x = t % w
            y = t // w
            h = n // w
            free = 0
            lim = k + 1 - slack
            if x > 0 and not (occ[t - 1] and seqno[t - 1] - tail_seq > lim):
                free += 1
            if x < w - 1 and not (occ[t + 1] and seqno[t + 1] - tail_seq > lim):
                free += 1
            if y > 0 and not (occ[t - w] and seqno[t - w] - tail_seq > lim):
                free += 1
            if y < h - 1 and not (occ[t + w] and seqno[t + w] - tail_seq > lim):
                free += 1
            p = pen[s] + free
            if dist[t] >= 0:
                if p < pen[t]:
                    pen[t] = p
                    prev[t] = s
                continue
            dist[t] = dist[s] + 1
            pen[t] = p
            prev[t] = s
            if t == goal:
                found = dist[t]
            queue[qt] = t
            qt += 1
    return found


@njit(cache=True)
def _end_feasible(
    path: np.ndarray,
    k: int,
    ring: np.ndarray,
    tail_seq: int,
    head_seq: int,
    seq: np.ndarray,
    in_to: np.ndarray,
    ex_to: np.ndarray,
    ex_edge: np.ndarray,
    eu: np.ndarray,
    ev: np.ndarray,
    nblocks: int,
    nedges: int,
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
    if _feasible(seq, m, in_to, ex_to, ex_edge, eu, ev, nblocks, nedges, mark, parent):
        return m
    return -m


@njit(cache=True)
def _cut_off_square(
    fseq: np.ndarray,
    fm: int,
    head: int,
    apple: int,
    tail_seq: int,
    strict: bool,
    occ: np.ndarray,
    seqno: np.ndarray,
    in_to: np.ndarray,
    ex_to: np.ndarray,
    ex_edge: np.ndarray,
    eu: np.ndarray,
    ev: np.ndarray,
    nblocks: int,
    nedges: int,
    mark: np.ndarray,
    parent: np.ndarray,
    dist: np.ndarray,
    queue: np.ndarray,
    blockof: np.ndarray,
) -> int:
    """The nearest free square in a block that the failed plan's end position cuts off.

    Returns the apple when the failure is not a cut-off (or nothing is reachable).
    """
    _feasible(fseq, fm, in_to, ex_to, ex_edge, eu, ev, nblocks, nedges, mark, parent)
    for b in range(nblocks):
        parent[b] = b
    for e in range(nedges):
        if mark[e] != 2:
            a = _find(parent, eu[e])
            b = _find(parent, ev[e])
            if a != b:
                parent[a] = b
    ra = _find(parent, blockof[apple])
    n = dist.shape[0]
    for i in range(n):
        dist[i] = -1
    dist[head] = 0
    slack = 2 if strict else 1
    qh = 0
    qt = 1
    queue[0] = head
    while qh < qt:
        s = queue[qh]
        qh += 1
        k = dist[s] + 1
        for j in range(2):
            t = in_to[s] if j == 0 else ex_to[s]
            if t < 0 or dist[t] >= 0:
                continue
            if occ[t] and seqno[t] - tail_seq > k - slack:
                continue
            dist[t] = k
            if _find(parent, blockof[t]) != ra:
                return t
            queue[qt] = t
            qt += 1
    return apple


@njit(cache=True)
def decide(
    ring: np.ndarray,
    head_seq: int,
    length: int,
    seqno: np.ndarray,
    occ: np.ndarray,
    apple: int,
    strict: bool,
    since_apple: int,
    plan: np.ndarray,
    ctl: np.ndarray,
    in_to: np.ndarray,
    ex_to: np.ndarray,
    ex_edge: np.ndarray,
    eu: np.ndarray,
    ev: np.ndarray,
    nblocks: int,
    nedges: int,
    tree: np.ndarray,
    dist: np.ndarray,
    prev: np.ndarray,
    queue: np.ndarray,
    seq: np.ndarray,
    path: np.ndarray,
    fseq: np.ndarray,
    blockof: np.ndarray,
    vocc: np.ndarray,
    vseq: np.ndarray,
    bpar: np.ndarray,
    pen: np.ndarray,
    width: int,
    mark: np.ndarray,
    parent: np.ndarray,
) -> int:
    """The square the head should move to next (see the module docstring).

    ``ring[seq % n]`` holds the body square entered at move number ``seq``; the body
    is ``head_seq - length + 1 .. head_seq``. ``ctl = [plan_pos, plan_len, frozen, ...]``:
    the cached verified plan ``plan[plan_pos:plan_len]`` and whether the frozen tree
    in ``tree`` is being followed; ``ctl[3:7]`` count plans adopted, plan steps
    followed, fallback moves and two-leg plans (statistics only).
    """
    n = ring.shape[0]
    tail_seq = head_seq - length + 1
    head = ring[head_seq % n]
    # 1. Short paths to the apple (through either first move, two tie-break orders),
    # accepted only if the end position is feasible; the shortest such replaces the plan.
    best = ctl[1] - ctl[0] if ctl[1] > ctl[0] else 1 << 30
    found = False
    # The unrestricted time-aware distance bounds every candidate from below: when the
    # verified plan in hand is already that short, nothing can replace it.
    d0 = _bfs(head, 0, apple, tail_seq, strict, occ, seqno, in_to, ex_to, dist, prev, queue, 0, bpar, blockof, -1)
    if d0 < 0 or d0 >= best:
        j0 = 2
    else:
        j0 = 0
    for b in range(nblocks):
        bpar[b] = -1
    pb = -2
    for q in range(tail_seq, head_seq + 1):
        b = blockof[ring[q % n]]
        if bpar[b] == -1:
            bpar[b] = pb
        pb = b
    fail_k = 1 << 30
    fail_m = 0
    for j in range(j0, 2):
        c = in_to[head] if j == 0 else ex_to[head]
        if c < 0 or (occ[c] and seqno[c] - tail_seq > (-1 if strict else 0)):
            continue
        for order in range(4):
            if (c == apple and order > 0) or best == d0:
                continue
            if c == apple:
                k = 1
                path[0] = c
            else:
                k1 = _bfs_pen(
                    c,
                    1,
                    apple,
                    tail_seq,
                    strict,
                    occ,
                    seqno,
                    in_to,
                    ex_to,
                    dist,
                    prev,
                    queue,
                    order,
                    bpar,
                    blockof,
                    -1,
                    width,
                    pen,
                )
                if k1 < 0:
                    continue
                k = k1 + 1
                s = apple
                for i in range(k - 1, 0, -1):
                    path[i] = s
                    s = prev[s]
                path[0] = c
            if k >= best:
                continue
            m = _end_feasible(
                path, k, ring, tail_seq, head_seq, seq, in_to, ex_to, ex_edge, eu, ev, nblocks, nedges, mark, parent
            )
            if m > 0:
                for i in range(k):
                    plan[i] = path[i]
                best = k
                found = True
            elif k < fail_k:
                fail_k = k
                fail_m = -m
                for i in range(fail_m):
                    fseq[i] = seq[i]
    if found:
        ctl[0] = 1
        ctl[1] = best
        ctl[3] += 1
        return plan[0]
    # 2. The plan already verified.
    if ctl[1] - ctl[0] > 0:
        nxt = plan[ctl[0]]
        ctl[0] += 1
        ctl[4] += 1
        return nxt
    ctl[0] = 0
    ctl[1] = 0
    # 3. The position is feasible: keep it so.
    m = 0
    for q in range(tail_seq, head_seq + 1):
        seq[m] = ring[q % n]
        m += 1
    if ctl[2] == 0 and since_apple > n:
        # Guarantee progress: follow one fixed cycle until the apple is eaten.
        _spanning_tree(seq, m, in_to, ex_to, ex_edge, eu, ev, nblocks, nedges, mark, parent, tree)
        ctl[2] = 1
    if ctl[2] == 1:
        e = ex_edge[head]
        return ex_to[head] if e >= 0 and tree[e] == 1 else in_to[head]
    ctl[5] += 1
    # Aim first at the region the shortest path would cut off (twanvl's detour), else the apple.
    goal = apple
    if fail_m > 0:
        goal = _cut_off_square(
            fseq,
            fail_m,
            head,
            apple,
            tail_seq,
            strict,
            occ,
            seqno,
            in_to,
            ex_to,
            ex_edge,
            eu,
            ev,
            nblocks,
            nedges,
            mark,
            parent,
            dist,
            queue,
            blockof,
        )
    if goal != apple:
        # A plan through the cut-off square: head -> goal, then goal -> apple with the
        # first leg as (virtual) body.
        k1 = _bfs(head, 0, goal, tail_seq, strict, occ, seqno, in_to, ex_to, dist, prev, queue, 0, bpar, blockof, apple)
        if k1 > 0:
            s = goal
            for i in range(k1 - 1, -1, -1):
                path[i] = s
                s = prev[s]
            for i in range(n):
                vocc[i] = occ[i]
                vseq[i] = seqno[i]
            for i in range(k1):
                vocc[path[i]] = 1
                vseq[path[i]] = head_seq + i + 1
            k2 = _bfs(
                goal, k1, apple, tail_seq, strict, vocc, vseq, in_to, ex_to, dist, prev, queue, 0, bpar, blockof, -1
            )
            if k2 > 0 and k1 + k2 <= n:
                s = apple
                for i in range(k1 + k2 - 1, k1 - 1, -1):
                    path[i] = s
                    s = prev[s]
                k = k1 + k2
                if (
                    _end_feasible(
                        path,
                        k,
                        ring,
                        tail_seq,
                        head_seq,
                        seq,
                        in_to,
                        ex_to,
                        ex_edge,
                        eu,
                        ev,
                        nblocks,
                        nedges,
                        mark,
                        parent,
                    )
                    > 0
                ):
                    for i in range(k):
                        plan[i] = path[i]
                    ctl[0] = 1
                    ctl[1] = k
                    ctl[6] += 1
                    return plan[0]
        m = 0
        for q in range(tail_seq, head_seq + 1):
            seq[m] = ring[q % n]
            m += 1
    best = -1
    best_d = 1 << 30
    for j in range(2):
        t = in_to[head] if j == 0 else ex_to[head]
        if t < 0 or occ[t]:
            continue
        grow = t == apple
        if grow:
            seq[m] = t
            ok = _feasible(seq, m + 1, in_to, ex_to, ex_edge, eu, ev, nblocks, nedges, mark, parent)
        else:
            seq[m] = t
            ok = _feasible(seq[1:], m, in_to, ex_to, ex_edge, eu, ev, nblocks, nedges, mark, parent)
        if not ok:
            continue
        if grow:
            return t
        d = _bfs(t, 1, goal, tail_seq, strict, occ, seqno, in_to, ex_to, dist, prev, queue, 2, bpar, blockof, -1)
        if d < 0:
            d = 1 << 29
        if d < best_d:
            best, best_d = t, d
    return best


class OddBoardAgent(BaseAgent):
    """Both sides odd: no Hamiltonian cycle, but two that each miss one cell.

    ``C`` (from :func:`~snakelab.games.classic.cycles.corner_cycle`) covers all but
    the corner ``x = (0, 0)``; ``C'`` is ``C`` with ``y = (1, 1)`` swapped for ``x``.
    Both run ``b = (0, 1) → (y or x) → a = (1, 0)`` and agree everywhere else. The
    snake follows the current cycle; when the apple sits on the cell it misses, the
    head turns into it at ``b``: the body behind ``b`` is the same on both cycles, so
    it lies on the other cycle from then on.

    With the lenient tail rule this wins every game: below length ``n - 1`` the next
    cycle cell is free; at ``n - 1`` the body fills the current cycle, the head chases
    its own tail (legal under that rule) until it reaches ``b`` and eats the last apple.
    Under the strict rule chasing the tail is a death, so the last apple is won only
    when the head happens to be next to it; otherwise the agent plays ``safe``.
    Longer starts that lie on neither cycle are played by ``safe`` as well.
    """

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Build the two cycles."""
        super().reset(info, player, seed)
        from snakelab.core.grid import Grid
        from snakelab.games.classic.agents import SafeAgent
        from snakelab.games.classic.cycles import corner_cycle

        cfg: Config = info.config
        grid = Grid(cfg.width, cfg.height)
        self._safe = SafeAgent()
        self._safe.reset(info, player, seed)
        self.notice = (
            f"{cfg.width}×{cfg.height} has no Hamiltonian cycle (both sides odd): "
            "switching between two cycles that each miss one cell"
        )
        cyc = corner_cycle(grid)
        x, y = grid.index(0, 0), grid.index(1, 1)
        self._b = grid.index(0, 1)
        alt = [x if c == y else c for c in cyc]
        self._succ: list[list[int]] = []
        for order in (cyc, alt):
            succ = [-1] * grid.size
            for i, c in enumerate(order):
                succ[c] = order[(i + 1) % len(order)]
            self._succ.append(succ)
        self._missing = (x, y)
        self._cur = -1
        self._grid = grid

    def _on_cycle(self, s: State, k: int) -> bool:
        succ = self._succ[k]
        body = s.body
        return all(succ[body[i]] == body[i + 1] for i in range(len(body) - 1)) and succ[s.head] >= 0

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move."""
        s: State = observation
        if self._cur < 0 or not self._on_cycle(s, self._cur):
            fits = [k for k in (0, 1) if self._on_cycle(s, k)]
            if not fits:
                self._cur = -1
                return int(self._safe.act(s, budget))
            self._cur = fits[0]
        k = self._cur
        if s.head == self._b and s.apple == self._missing[k]:
            self._cur = 1 - k  # the body behind b is the same on both cycles
            return self._grid.direction_to(s.head, s.apple)
        nxt = self._succ[k][s.head]
        if s.occ[nxt] and (nxt != s.body[0] or s.config.tail_rule == "strict" or len(s.body) < 3):
            return int(self._safe.act(s, budget))
        return self._grid.direction_to(s.head, nxt)


class CellTreeAgent(BaseAgent):
    """The cell-tree snake (see the module docstring); boards with both sides even.

    On boards with an odd side it hands the game to ``fallback`` (by default
    :class:`OddBoardAgent` when both sides are odd, else a fresh
    :class:`~snakelab.games.classic.agents.ShortcutAgent`). While the body fits no
    cell-tree cycle (a longer start) the fallback moves, until it does.

    Args:
        fallback: The agent for boards (or bodies) the scheme does not cover.
    """

    def __init__(self, fallback: BaseAgent | None = None) -> None:
        self._fallback_agent = fallback

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Build the tables for this board."""
        super().reset(info, player, seed)
        from snakelab.games.classic.agents import ShortcutAgent

        cfg: Config = info.config
        odd = cfg.width % 2 == 1 and cfg.height % 2 == 1
        self._fb = (
            self._fallback_agent if self._fallback_agent is not None else OddBoardAgent() if odd else ShortcutAgent()
        )
        self._fb.reset(info, player, seed)
        self.notice = self._fb.notice
        self._use_fb = cfg.width % 2 == 1 or cfg.height % 2 == 1
        self._strict = cfg.tail_rule == "strict"
        if self._use_fb:
            return
        n = cfg.width * cfg.height
        t = block_tables(cfg.width, cfg.height)
        self._in_to, self._ex_to, self._ex_edge = t["in_to"], t["ex_to"], t["ex_edge"]
        self._eu, self._ev = t["eu"], t["ev"]
        self._nblocks, self._nedges = int(t["dims"][0]), int(t["dims"][1])
        self._in_dir = t["in_dir"].tolist()
        self._ex_dir = t["ex_dir"].tolist()
        self._in_list = t["in_to"].tolist()
        self._n = n
        self._ring = np.zeros(n, np.int64)
        self._seqno = np.zeros(n, np.int64)
        self._plan = np.zeros(n + 1, np.int64)
        self._ctl = np.zeros(8, np.int64)
        self._tree = np.zeros(max(self._nedges, 1), np.int8)
        self._dist = np.zeros(n, np.int64)
        self._prev = np.zeros(n, np.int64)
        self._queue = np.zeros(n + 1, np.int64)
        self._seq = np.zeros(n + 1, np.int64)
        self._path = np.zeros(n + 1, np.int64)
        self._fseq = np.zeros(n + 1, np.int64)
        self._blockof = t["blockof"]
        self._vocc = np.zeros(n, np.uint8)
        self._vseq = np.zeros(n, np.int64)
        self._bpar = np.zeros(self._nblocks, np.int64)
        self._pen = np.zeros(n, np.int64)
        self._width = cfg.width
        self._mark = np.zeros(max(self._nedges, 1), np.int8)
        self._parent = np.zeros(self._nblocks, np.int64)
        self._head_seq = -1
        self._last_steps = -2
        self._last_target = -1
        self._last_head = -1
        self._last_action = 0
        self._last_apples = -1

    def _sync(self, s: State) -> bool:
        """Bring the ring buffer up to date: O(1) after our own move, else rebuilt.

        Returns whether the cell-tree logic may move: after a rebuild (first move, or a
        state that does not continue our last move) only if the body fits some cycle.
        """
        n = self._n
        if s.steps == self._last_steps + 1 and s.head == self._last_target:
            self._head_seq += 1
            self._ring[self._head_seq % n] = s.head
            self._seqno[s.head] = self._head_seq
            if s.apples != self._last_apples:
                self._ctl[2] = 0  # a new apple: no frozen cycle any more
            self._last_apples = s.apples
            return True
        for i, c in enumerate(s.body):
            self._ring[i] = c
            self._seqno[c] = i
        self._head_seq = len(s.body) - 1
        self._ctl[:3] = 0
        self._last_apples = s.apples
        seq = np.array(list(s.body), np.int64)
        return bool(
            _feasible(
                seq,
                len(seq),
                self._in_to,
                self._ex_to,
                self._ex_edge,
                self._eu,
                self._ev,
                self._nblocks,
                self._nedges,
                self._mark,
                self._parent,
            )
        )

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move."""
        s: State = observation
        if self._use_fb:
            return int(self._fb.act(s, budget))
        if s.steps == self._last_steps and s.head == self._last_head:
            return self._last_action  # asked twice about the same position
        if not self._sync(s):
            # A body no cell-tree cycle contains (a longer start, or a position we did
            # not lead to): the fallback plays until the body fits one, then we take over.
            self._last_steps = -2
            return int(self._fb.act(s, budget))
        t = decide(
            self._ring,
            self._head_seq,
            len(s.body),
            self._seqno,
            np.frombuffer(s.occ, np.uint8),
            s.apple,
            self._strict,
            s.since_apple,
            self._plan,
            self._ctl,
            self._in_to,
            self._ex_to,
            self._ex_edge,
            self._eu,
            self._ev,
            self._nblocks,
            self._nedges,
            self._tree,
            self._dist,
            self._prev,
            self._queue,
            self._seq,
            self._path,
            self._fseq,
            self._blockof,
            self._vocc,
            self._vseq,
            self._bpar,
            self._pen,
            self._width,
            self._mark,
            self._parent,
        )
        self._last_steps = s.steps
        self._last_target = int(t)
        h = s.head
        self._last_head = h
        self._last_action = self._in_dir[h] if t == self._in_list[h] else self._ex_dir[h]
        return self._last_action

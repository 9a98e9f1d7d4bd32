"""Numba kernels for the snakgame agents: long paths, component labels, split races.

Grids are flat ``uint8`` arrays, row-major, ``n`` rows × ``m`` columns; a cell is free
for a search exactly when its value is 0. Directions in :func:`long_path` are clockwise,
0 up, 1 right, 2 down, 3 left, as in the editorial's left-hand rule. The layout of the
champion's memory (the ``P_*`` indices) is defined here, beside the searches that read it;
the champion's move itself is :mod:`~snakelab.games.snakgame.policy`.

Why this module is over 400 lines and still one idea: it is the grid searches the agents
stand on (the editorial's long path, component labels, and the three region measures of
the champion: the split race, the capped region worth and an end's options, which call
one another), written once and compiled together.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _step(c: int, d: int, n: int, m: int) -> int:
    """The neighbour of ``c`` in clockwise direction ``d`` (0 up, 1 right, 2 down, 3 left), or -1."""
    if d == 0:
        return c - m if c >= m else -1
    if d == 1:
        return c + 1 if c % m != m - 1 else -1
    if d == 2:
        return c + m if c + m < n * m else -1
    return c - 1 if c % m != 0 else -1


@njit(cache=True)
def long_path(occ: np.ndarray, n: int, m: int, start: int, start_dir: int, exclude: np.ndarray) -> np.ndarray:
    """The editorial's ``FindLongPath``: a left-hand-rule DFS, never unmarking cells.

    From ``(cell, dir)`` it tries directions ``dir, dir+1, dir+2, dir+3`` (clockwise) and
    enters a free neighbour facing ``(d − 1) mod 4`` (it turns left at once, to follow
    obstacles). The answer is the deepest root-to-leaf path of that DFS tree.

    Args:
        occ: Flat grid, 0 = free.
        n: Rows.
        m: Columns.
        start: The start cell (searched even if it is occupied: an end of a snake).
        start_dir: The direction faced at the start.
        exclude: Cells to treat as taken (e.g. the other end's planned path).

    Returns:
        The path as cell numbers, ``start`` first.
    """
    size = n * m
    visited = np.zeros(size, np.uint8)
    for c in exclude:
        visited[c] = 1
    parent = np.empty(size, np.int32)
    depth = np.empty(size, np.int32)
    st_cell = np.empty(size, np.int32)
    st_dir = np.empty(size, np.int8)
    st_d = np.empty(size, np.int8)
    visited[start] = 1
    depth[start] = 0
    parent[start] = -1
    st_cell[0] = start
    st_dir[0] = start_dir
    st_d[0] = 0
    sp = 1
    best = start
    bestd = 0
    while sp > 0:
        top = sp - 1
        d = st_d[top]
        if d == 4:
            sp -= 1
            continue
        st_d[top] = d + 1
        c = st_cell[top]
        nd = (st_dir[top] + d) % 4
        x = _step(c, nd, n, m)
        if x < 0 or visited[x] or occ[x] != 0:
            continue
        visited[x] = 1
        parent[x] = c
        depth[x] = depth[c] + 1
        if depth[x] > bestd:
            bestd = depth[x]
            best = x
        st_cell[sp] = x
        st_dir[sp] = (nd + 3) % 4
        st_d[sp] = 0
        sp += 1
    path = np.empty(bestd + 1, np.int32)
    x = best
    for i in range(bestd, -1, -1):
        path[i] = x
        x = parent[x]
    return path


@njit(cache=True)
def label_components(occ: np.ndarray, n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """4-connected components of the free cells.

    Returns:
        ``(labels, sizes)``: ``labels[c]`` is the component of free cell ``c`` (-1 for
        taken cells) and ``sizes[k]`` the size of component ``k``.
    """
    size = n * m
    labels = np.full(size, -1, np.int32)
    queue = np.empty(size, np.int32)
    sizes = np.zeros(size, np.int64)
    k = 0
    for s in range(size):
        if occ[s] != 0 or labels[s] >= 0:
            continue
        labels[s] = k
        queue[0] = s
        qh = 0
        qt = 1
        while qh < qt:
            c = queue[qh]
            qh += 1
            for d in range(4):
                x = _step(c, d, n, m)
                if x >= 0 and occ[x] == 0 and labels[x] < 0:
                    labels[x] = k
                    queue[qt] = x
                    qt += 1
        sizes[k] = qt
        k += 1
    return labels, sizes[:k]


@njit(cache=True)
def _find(parent: np.ndarray, g: int) -> int:
    while parent[g] != g:
        g = parent[g]
    return g


@njit(cache=True)
def split_race(
    occ: np.ndarray,
    n: int,
    m: int,
    removed: int,
    seeds: np.ndarray,
    mark: np.ndarray,
    base: int,
    queue: np.ndarray,
    budget: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Which of ``seeds`` stay connected once ``removed`` is taken, and how big the parts are.

    Breadth-first searches grow from every seed in lockstep, one cell each per round,
    merging when they meet; they stop as soon as at most one group is still growing.
    So the work is about (number of seeds) × (the smaller parts), not the grid.

    Args:
        occ: Flat grid, 0 = free.
        n: Rows.
        m: Columns.
        removed: A cell treated as taken (the cell a snake end is about to enter), or -1.
        seeds: Distinct free cells (at most 4).
        mark: Work array of ``n·m`` int64; entries in ``base .. base+3`` mean "seen in
            this call", so callers pass a new ``base`` (≥ 4 more) each time instead of clearing.
        base: This call's mark base.
        queue: Work array of at least ``4·n·m`` int32.
        budget: Stop after visiting this many cells in all (0: no limit); the parts
            still growing then count as open.

    Returns:
        ``(sizes, closed)`` per seed: the cells found in its part, and whether that part
        was searched to the end (``sizes`` exact) or was still growing (a lower bound,
        at least as large as every closed part).
    """
    k = seeds.shape[0]
    size = n * m
    parent = np.arange(k)
    qh = np.zeros(k, np.int64)
    qt = np.zeros(k, np.int64)
    for g in range(k):
        c = seeds[g]
        queue[g * size] = c
        qt[g] = 1
        mark[c] = base + g
    while True:
        grew = False
        for g in range(k):
            if qh[g] >= qt[g]:
                continue
            c = queue[g * size + qh[g]]
            qh[g] += 1
            grew = True
            for d in range(4):
                x = _step(c, d, n, m)
                if x < 0 or x == removed or occ[x] != 0:
                    continue
                mk = mark[x]
                if base <= mk < base + k:
                    rg = _find(parent, g)
                    rh = _find(parent, mk - base)
                    if rg != rh:
                        parent[rh] = rg
                    continue
                mark[x] = base + g
                queue[g * size + qt[g]] = x
                qt[g] += 1
        if not grew:
            break
        if budget > 0:
            seen = 0
            for g in range(k):
                seen += qt[g]
            if seen >= budget:
                break
        # Stop once every root but at most one is finished (or all have merged).
        roots = 0
        open_roots = 0
        for g in range(k):
            if parent[g] == g:
                roots += 1
                is_open = False
                for h in range(k):
                    if _find(parent, h) == g and qh[h] < qt[h]:
                        is_open = True
                if is_open:
                    open_roots += 1
        if roots == 1 or open_roots <= 1:
            break
    sizes = np.zeros(k, np.int64)
    closed = np.ones(k, np.bool_)
    for g in range(k):
        r = _find(parent, g)
        for h in range(k):
            if _find(parent, h) == r:
                sizes[g] += qt[h]
                if qh[h] < qt[h]:
                    closed[g] = False
    return sizes, closed


@njit(cache=True)
def region_worth(
    occ: np.ndarray,
    n: int,
    m: int,
    t: int,
    cap: int,
    mark: np.ndarray,
    base: int,
    queue: np.ndarray,
    early: bool = False,
) -> int:
    """How many free cells a snake end standing on ``t`` can still reach, up to ``cap``.

    ``t`` is taken; breadth-first searches start from each of its free neighbours in
    lockstep and merge where they meet, so each *side* of ``t`` is measured separately
    (an end on ``t`` commits to one side). The answer is the largest side's size, or
    ``cap`` if some side reaches ``cap`` cells (then it is "big" and the search stops).

    Args:
        occ: Flat grid, 0 = free.
        n: Rows.
        m: Columns.
        t: The cell the end would stand on.
        cap: Stop counting at this many cells.
        mark: Work array of ``n·m`` int64 (see :func:`split_race` for ``base``).
        base: This call's mark base.
        queue: Work array of at least ``4·n·m`` int32.
        early: Stop as soon as the answer cannot matter to a snake end that already
            knows its region is big: -1 when every side has joined (``t`` cuts nothing),
            ``cap`` when one side is still growing and none closed is larger.
    """
    size = n * m
    seeds = np.empty(4, np.int64)
    k = 0
    for d in range(4):
        x = _step(t, d, n, m)
        if x >= 0 and occ[x] == 0:
            seeds[k] = x
            k += 1
    if k == 0:
        return 0
    parent = np.arange(k)
    qh = np.zeros(k, np.int64)
    qt = np.zeros(k, np.int64)
    for g in range(k):
        queue[g * size] = seeds[g]
        qt[g] = 1
        mark[seeds[g]] = base + g
    best = 0
    while True:
        grew = False
        for g in range(k):
            if qh[g] >= qt[g]:
                continue
            c = queue[g * size + qh[g]]
            qh[g] += 1
            grew = True
            for d in range(4):
                x = _step(c, d, n, m)
                if x < 0 or x == t or occ[x] != 0:
                    continue
                mk = mark[x]
                if base <= mk < base + k:
                    rg = _find(parent, g)
                    rh = _find(parent, mk - base)
                    if rg != rh:
                        parent[rh] = rg
                    continue
                mark[x] = base + g
                queue[g * size + qt[g]] = x
                qt[g] += 1
        # Per root: size so far and whether it is still growing.
        pending = False
        roots = 0
        open_roots = 0
        open_tot = 0
        for g in range(k):
            if parent[g] != g:
                continue
            roots += 1
            tot = 0
            is_open = False
            for h in range(k):
                if _find(parent, h) == g:
                    tot += qt[h]
                    if qh[h] < qt[h]:
                        is_open = True
            if tot >= cap:
                return cap
            if not is_open:
                best = max(best, tot)
            else:
                pending = True
                open_roots += 1
                open_tot = tot
        if early:
            if roots == 1:
                return -1
            if open_roots == 1 and open_tot >= best:
                return cap
        if not pending or not grew:
            break
    return best


@njit(cache=True)
def _ring_sides(occ: np.ndarray, n: int, m: int, c: int, side: np.ndarray) -> int:
    """Group the free 4-neighbours of ``c`` that are joined through the 8 cells around it.

    Writes ``side[d]`` (clockwise d: 0 up, 1 right, 2 down, 3 left) = group number, or -1
    for a taken neighbour; returns the number of groups. Neighbours in one group are
    certainly connected without ``c``; different groups may or may not be.
    """
    r = c // m
    col = c % m
    free = np.zeros(4, np.bool_)
    parent = np.arange(4)
    for d in range(4):
        x = _step(c, d, n, m)
        free[d] = x >= 0 and occ[x] == 0
        side[d] = -1
    for d in range(4):
        nd = (d + 1) % 4
        if not (free[d] and free[nd]):
            continue
        # The diagonal between d and d+1: up-right, down-right, down-left, up-left.
        rr = r + (-1 if d in (0, 3) else 1)
        cc = col + (1 if d in (0, 1) else -1)
        if 0 <= rr < n and 0 <= cc < m and occ[rr * m + cc] == 0:
            a = _find(parent, d)
            b = _find(parent, nd)
            if a != b:
                parent[b] = a
    groups = 0
    label = np.full(4, -1, np.int64)
    for d in range(4):
        if not free[d]:
            continue
        root = _find(parent, d)
        if label[root] < 0:
            label[root] = groups
            groups += 1
        side[d] = label[root]
    return groups


@njit(cache=True)
def end_options(
    occ: np.ndarray,
    n: int,
    m: int,
    e: int,
    cap: int,
    mark: np.ndarray,
    base: int,
    queue: np.ndarray,
    big: int,
    race: int = 16,
) -> np.ndarray:
    """How much room each move of the snake end on ``e`` leaves it (clockwise, 0 up .. 3 left).

    -1 marks a taken neighbour; ``big`` means "plenty" (at least ``cap`` cells, or a
    part still growing when the others were measured). Two questions, asked only where
    the 8 cells around show they can matter: do the free neighbours of ``e`` lie in
    different regions (a lockstep :func:`split_race` between the groups), and does
    entering a neighbour split its region (:func:`region_worth` of the largest side)?

    Args:
        occ: Flat grid, 0 = free.
        n: Rows.
        m: Columns.
        e: The end's cell.
        cap: Sizes from this up count as ``big``.
        mark: Work array of ``n·m`` int64; this call uses marks ``base .. base+19``.
        base: This call's mark base.
        queue: Work array of at least ``4·n·m`` int32.
        big: The value meaning "plenty".
        race: A split race may visit ``race`` × ``cap`` cells in all.
    """
    out = np.full(4, -1, np.int64)
    side = np.empty(4, np.int64)
    groups = _ring_sides(occ, n, m, e, side)
    gworth = np.full(4, big, np.int64)
    if groups > 1:
        seeds = np.empty(groups, np.int64)
        for d in range(4):
            if side[d] >= 0:
                seeds[side[d]] = _step(e, d, n, m)
        sizes, closed = split_race(occ, n, m, -1, seeds, mark, base, queue, race * cap)
        for g in range(groups):
            if closed[g]:
                gworth[g] = sizes[g]
    tside = np.empty(4, np.int64)
    for d in range(4):
        if side[d] < 0:
            continue
        t = _step(e, d, n, m)
        w = gworth[side[d]]
        if _ring_sides(occ, n, m, t, tside) > 1:
            # Entering t may cut its region: the end keeps only the largest side. Where the
            # end's region is big, the search stops once its answer cannot lower w.
            sw = region_worth(occ, n, m, t, cap, mark, base + 4 + d * 4, queue, w >= big)
            if sw < 0:
                pass  # every side of t joined: it cuts nothing
            elif sw < cap and sw < w:
                w = sw
        out[d] = w
    return out


# The champion's memory (see :mod:`~snakelab.games.snakgame.policy`): indices into one int64 array.
P_N, P_M, P_HEAD, P_TAIL, P_LEN, P_FREE, P_STEPS = 0, 1, 2, 3, 4, 5, 6
P_HDIR0, P_HDIR1, P_CAP, P_BASE, P_STARTED, P_RNG = 7, 8, 9, 10, 11, 12
P_SAMPLES, P_HUG, P_MIDDLE, P_ALT, P_LEVEL, P_FIXCAP, P_RACE = 13, 14, 15, 16, 17, 18, 19
P_SIZE = 24

#: "Plenty of room": larger than any region.
BIG = 1 << 40

#: What the contest turn returns when the grid is full before its move (say EXIT).
FULL = -(1 << 62)

#: What the contest turn returns when the snake cannot move (a NEW comes next).
STUCK = -1

CELL_EMPTY, CELL_MINE, CELL_CHEF = 0, 2, 3
"""Grid values the champion's kernels write (those of ``rules``: empty, yours, Chef's)."""


@njit(cache=True)
def taken_around(occ: np.ndarray, n: int, m: int, t: int) -> int:
    """How many of the 4 neighbours of ``t`` are off the grid or not empty."""
    taken = 0
    for d in range(4):
        x = _step(t, d, n, m)
        if x < 0 or occ[x] != CELL_EMPTY:
            taken += 1
    return taken


neighbour = _step
"""The neighbour of a cell in a clockwise direction, or -1 (the kernels' ``_step``)."""

"""The searching agents' territory race on bitboards: every head at once, one row a word.

:func:`.evaluation.evaluate_w` splits the board among the heads by a breadth-first race
from every snake head and every zombie head (first to arrive owns a cell, a cell two
owners reach at the same step is nobody's, a body cell is free from the step its tail
has passed). A leaf's race visits some 2,000 cells of a 50×50 board one at a time, and
it was most of a search node's cost. Here each row of the board is one 64-bit word
and each owner (every snake, the zombies together, nobody) a stack of rows, so one
step of the race is a few word operations a row for each owner: the same race, level
by level, in a fraction of the time.

It is exact, not an approximation: for every position, the counts and the apples'
distances and owners it returns are those of the cell-by-cell race (a property test
compares the two on positions of played games). It covers the plain race only:
boards wider than :data:`MAX_WIDTH` columns, a snake head shared by two snakes, and
the champion's ``ties`` option (a timid opponent's meeting cell is ours, an order-
dependent rule) keep the cell-by-cell race, which :func:`race_bits` says by
returning ``False``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from numba import types
from numba.extending import intrinsic

from snakelab.games.arena.sim import (
    F_ALIVE,
    F_GROWTH,
    F_LEN,
    F_TAIL,
    L_APPLE,
    L_BODY,
    L_CAP,
    L_H,
    L_N,
    L_NA,
    L_NZ,
    L_OBST,
    L_OCC,
    L_SNK,
    L_W,
    L_ZBODY,
    L_ZCAP,
    L_ZHDR,
    NF,
    _jit,
    head_of,
    zombie_head,
)

I32 = npt.NDArray[np.int32]
U64 = npt.NDArray[np.uint64]

MAX_WIDTH = 63
"""The widest board the bitboard race takes: a row and the bit shifted out of it fit a word."""

ONE = np.uint64(1)


def _ctpop(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


popcount = cast(Callable[[np.uint64], np.uint64], intrinsic(_ctpop))
"""The number of set bits of a ``uint64`` in compiled code: LLVM's ``ctpop``, one instruction where the CPU has one."""


@_jit
def _owner_at(fr: U64, r: int, bit: np.uint64, n: int) -> int:  # pragma: no cover - jitted
    """The owner of the cell ``bit`` of row ``r`` in the frontiers ``fr``: a snake, -3 the zombies, -2 nobody."""
    for o in range(n + 2):
        if fr[o, r] & bit:
            return o if o < n else (-3 if o == n else -2)
    return -2


@_jit
def race_bits(
    st: I32, lay: I32, me: int, horizon: float, mlen: int, dist: I32, owner: I32
) -> tuple[bool, int, int, int, int]:  # pragma: no cover - jitted
    """Race every head over the board of ``st``; ``(False, ...)`` (nothing written) where it does not apply.

    The race runs level by level to ``horizon`` steps; if then our cells (less the head)
    are fewer than ``mlen + 2`` while some of them lie at the horizon, it goes on over
    the whole board, as :func:`.evaluation.evaluate_w` asks. It returns ``True`` and four
    counts: our cells within the horizon less the head (the territory), the other snakes'
    cells within it, our cells at the horizon itself, and our cells at the end of the race
    less the head (the trap test's room). For every apple on the board ``dist[apple]`` becomes the step
    the race reached it (-1: never) and ``owner[apple]`` its owner there (a snake's
    index, -2 nobody, -3 the zombies); no other cell of ``dist`` and ``owner`` is written.
    """
    w = lay[L_W]
    if w > MAX_WIDTH:
        return False, 0, 0, 0, 0
    hgt = lay[L_H]
    n = lay[L_N]
    snk = lay[L_SNK]
    occ0 = lay[L_OCC]
    zo = n  # the zombies' rows
    nb = n + 1  # nobody's rows: cells reached by two owners at once, and what they reach first
    no = n + 2
    full = (ONE << np.uint64(w)) - ONE
    # Rows 1..hgt hold the board; rows 0 and hgt + 1 stay empty so a row's neighbours always exist.
    buf = np.zeros((2 * no + 5, hgt + 2), np.uint64)  # one allocation: a leaf makes one race
    fr = buf[0:no]  # each owner's frontier: the cells it reached at the last step
    nx = buf[no : 2 * no]
    vis = buf[2 * no]
    blk = buf[2 * no + 1]
    avail = buf[2 * no + 2]
    once = buf[2 * no + 3]
    twice = buf[2 * no + 4]
    live = np.zeros(no, np.bool_)
    cap = lay[L_CAP]
    if lay[L_OBST] == 0:
        # Every occupied cell is a snake's or a zombie's: their cells are fewer than the board's.
        for i in range(n):
            f = snk + NF * i
            base = lay[L_BODY] + cap * i
            tail = st[f + F_TAIL]
            for k in range(st[f + F_LEN]):
                c = st[base + (tail + k) % cap]
                blk[c // w + 1] |= ONE << np.uint64(c % w)
        zcap = lay[L_ZCAP]
        for j in range(lay[L_NZ]):
            zl = st[lay[L_ZHDR] + 2 * j + 1]
            base = lay[L_ZBODY] + zcap * j
            for k in range(zl):
                c = st[base + k]
                blk[c // w + 1] |= ONE << np.uint64(c % w)
    else:
        for y in range(hgt):
            word = np.uint64(0)
            base = occ0 + y * w
            for x in range(w):
                word |= np.uint64(st[base + x] != 0) << np.uint64(x)
            blk[y + 1] = word
    mine = 0
    others = 0
    for i in range(n):
        if st[snk + NF * i + F_ALIVE] == 0:
            continue
        h = head_of(st, lay, i)
        r, bit = h // w + 1, ONE << np.uint64(h % w)
        if vis[r] & bit:
            return False, 0, 0, 0, 0  # two heads on one cell: the cell-by-cell race counts it twice
        vis[r] |= bit
        fr[i, r] |= bit
        live[i] = True
        if i == me:
            mine += 1
        else:
            others += 1
    for j in range(lay[L_NZ]):
        h = zombie_head(st, lay, j)
        r, bit = h // w + 1, ONE << np.uint64(h % w)
        if not vis[r] & bit:
            vis[r] |= bit
            fr[zo, r] |= bit
            live[zo] = True
    a0 = lay[L_APPLE]
    na = lay[L_NA]
    pending = 0
    for k in range(na):
        a = st[a0 + k]
        if a >= 0:
            dist[a] = -1
            owner[a] = -2
            pending += 1
            r, bit = a // w + 1, ONE << np.uint64(a % w)
            if vis[r] & bit:  # under a head: a zombie's, which does not eat
                dist[a] = 0
                owner[a] = _owner_at(fr, r, bit, n)
                pending -= 1
    # Body cells of live snakes free one a step from the tail: released[i] of snake i's are.
    released = np.zeros(n, np.int64)
    terr = -1
    edge = 0
    d = 0
    limit = horizon
    while True:
        d1 = d + 1
        if d1 > limit:
            # The near race ends here: a region still open at the horizon may close beyond
            # it, so a long snake whose near cells are fewer than its body races on.
            terr = mine - 1
            if mine - 1 >= mlen + 2 or edge == 0:
                break
            limit = 1.0e18
            continue
        for i in range(n):
            f = snk + NF * i
            if st[f + F_ALIVE] == 0:
                continue
            g = st[f + F_GROWTH]
            ln = st[f + F_LEN]
            base = lay[L_BODY] + cap * i
            tail = st[f + F_TAIL]
            while released[i] < ln and released[i] + 1 + g <= d1:
                c = st[base + (tail + released[i]) % cap]
                blk[c // w + 1] &= ~(ONE << np.uint64(c % w))
                released[i] += 1
        for r in range(1, hgt + 1):
            avail[r] = ~(vis[r] | blk[r]) & full
            once[r] = 0
            twice[r] = 0
        for o in range(no):
            if not live[o]:
                continue
            for r in range(1, hgt + 1):
                x = fr[o, r]
                e = ((x << ONE) | (x >> ONE) | fr[o, r - 1] | fr[o, r + 1]) & avail[r]
                nx[o, r] = e
                twice[r] |= once[r] & e
                once[r] |= e
        any_new = False
        for o in range(no):
            if o == nb:
                # Nobody's cells: those two owners reached at once, and those only nobody reached.
                keep = ONE if live[o] else np.uint64(0)
                grew = np.uint64(0)
                for r in range(1, hgt + 1):
                    e = (nx[o, r] & (np.uint64(0) - keep)) | twice[r]
                    fr[o, r] = e
                    grew |= e
                live[o] = grew != 0
                any_new = any_new or live[o]
                continue
            if not live[o]:
                continue
            grew = np.uint64(0)
            cnt = 0
            for r in range(1, hgt + 1):
                e = nx[o, r] & ~twice[r]
                fr[o, r] = e
                grew |= e
                cnt += int(popcount(e))
            live[o] = grew != 0
            any_new = any_new or live[o]
            if o == me:
                mine += cnt
                if d1 >= horizon and limit == horizon:
                    edge += cnt
            elif o < n and limit == horizon:
                others += cnt
        for r in range(1, hgt + 1):
            vis[r] |= once[r]
        if pending > 0:
            for k in range(na):
                a = st[a0 + k]
                if a < 0 or dist[a] >= 0:
                    continue
                r, bit = a // w + 1, ONE << np.uint64(a % w)
                if once[r] & bit:
                    dist[a] = d1
                    owner[a] = _owner_at(fr, r, bit, n)
                    pending -= 1
        d = d1
        if not any_new:
            if terr < 0:
                terr = mine - 1
            break
    return True, terr, others, edge, mine - 1

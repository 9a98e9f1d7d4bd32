"""Exact cover times: a plain reference simulator and a fast evaluator.

``cover(A, B)`` is the number of moves after which every cell of the A×B torus has
been visited, the start cell counting at move 0 (the rules in :mod:`.rules`). Every
function here returns ``-1`` when the moves given (or the cap) run out first.

* :func:`reference_cover` — the plain simulator: walk the moves one by one and count
  newly visited cells. Works for any move sequence; it is the oracle.
* :func:`reference_covers` — the same loop compiled, over many grids.
* :func:`fast_covers` — the fast exact evaluator. For walks made of R/D alternations it
  uses the diagonal-class method of ``background/blind.md`` §4.3: with g = gcd(A, B)
  and l = lcm(A, B) the torus is g circles ("classes") of l cells, a lifted point
  (x, y) with d = x − y sits in class ``d mod g`` at position ``(y − m·δ) mod l``
  (m = ⌊d/g⌋, δ ≡ 0 mod B, δ ≡ −g mod A), so each maximal R/D alternation of the walk
  sets two contiguous arcs of a class-major bitset with whole-word operations. A U/L
  alternation visits the cells of an R/D alternation in reverse order, so it sets the
  same kind of arcs, with visit times that decrease along them; single moves are runs of
  one. Walks that this cuts into too many runs (long straight runs, as in the spiral)
  are cut into straight runs instead: horizontal runs are word ranges of a row-major
  bitset, vertical runs are set cell by cell. Whenever a run might finish the cover, the
  cells it newly visits are timed exactly, so the result is exact.

Why one module: it computes one function, the cover time, in the two ways that must agree
(the tests hold the fast evaluator to the reference on every walk they try); the run
tables, the bitset helpers and the two cover kernels exist only for :func:`fast_covers`,
and share their conventions (run columns, visit times, the cap) within this file.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from snakelab.core.errors import ConfigError
from snakelab.games.blind._jit import jit, jit_inline, popcount, trailing_zeros
from snakelab.games.blind.strategies import CODE, L, Moves

I64 = npt.NDArray[np.int64]
_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_ONE = np.uint64(1)


def check_grid(width: int, height: int) -> None:
    """Raise ConfigError unless both sides are positive integers."""
    if width < 1 or height < 1:
        raise ConfigError(f"a {width}×{height} torus has no cells: width and height must be ≥ 1")


# -- the reference simulator ------------------------------------------------------------


def reference_cover(moves: Iterable[str], width: int, height: int, cap: int | None = None) -> int:
    """Exact cover time of a move sequence on one torus, one move at a time.

    Args:
        moves: Letters R, D, L, U (any iterable, e.g. a strategy's lazy generator).
        width: A, the number of columns.
        height: B, the number of rows.
        cap: Stop after this many moves (None: when the moves run out).

    Returns:
        The cover time, or -1 if the torus was not covered.
    """
    check_grid(width, height)
    size = width * height
    seen = bytearray(size)
    x = y = 0
    seen[0] = 1
    left = size - 1
    if left == 0:
        return 0
    dx = {"R": 1, "L": -1, "D": 0, "U": 0}
    dy = {"R": 0, "L": 0, "D": 1, "U": -1}
    for t, ch in enumerate(moves, start=1):
        if cap is not None and t > cap:
            break
        x = (x + dx[ch]) % width
        y = (y + dy[ch]) % height
        c = y * width + x
        if not seen[c]:
            seen[c] = 1
            left -= 1
            if left == 0:
                return t
    return -1


@jit_inline
def _torus_step(m: int, x: int, y: int, a: int, b: int) -> tuple[int, int]:
    """``(x, y)`` after move ``m`` (R, D, L, U) on the ``a``×``b`` torus."""
    if m == 0:
        return (x + 1 if x + 1 < a else 0), y
    if m == 1:
        return x, (y + 1 if y + 1 < b else 0)
    if m == 2:
        return (x - 1 if x > 0 else a - 1), y
    return x, (y - 1 if y > 0 else b - 1)


@jit
def _reference_one(moves: Moves, a: int, b: int, cap: int) -> int:
    size = a * b
    if size == 1:
        return 0
    seen = np.zeros(size, np.uint8)
    seen[0] = 1
    left = size - 1
    x = 0
    y = 0
    n = min(cap, moves.shape[0])
    for t in range(n):
        m = moves[t]
        x, y = _torus_step(m, x, y, a, b)
        c = y * a + x
        if seen[c] == 0:
            seen[c] = 1
            left -= 1
            if left == 0:
                return t + 1
    return -1


@jit
def _reference_many(moves: Moves, widths: I64, heights: I64, cap_ratio: float) -> I64:
    out = np.empty(widths.shape[0], np.int64)
    for i in range(widths.shape[0]):
        s = widths[i] * heights[i]
        out[i] = _reference_one(moves, widths[i], heights[i], int(cap_ratio * s))
    return out


def reference_covers(moves: Moves, widths: npt.ArrayLike, heights: npt.ArrayLike, cap_ratio: float = 35.0) -> I64:
    """Plain simulation of many grids (compiled); each grid capped at ``cap_ratio``·S moves.

    Returns:
        One cover time per grid, -1 where not covered within the cap or the moves.
    """
    return _reference_many(moves, np.asarray(widths, np.int64), np.asarray(heights, np.int64), float(cap_ratio))


# -- run decompositions -----------------------------------------------------------------

# A run table has one row per run: start x, start y, start time, first move code, length,
# and (diagonal runs only) whether the run is a reversed U/L alternation.
RUNS_COLS = 6


@jit
def _diagonal_step(m: int, p: int) -> bool:
    """Whether move m continues an alternation ending in move p (R/D or U/L)."""
    return m != p and (m <= 1) == (p <= 1)


@jit
def _count_diagonal_runs(moves: Moves) -> int:
    count = 0
    for i in range(moves.shape[0]):
        if i == 0 or not _diagonal_step(moves[i], moves[i - 1]):
            count += 1
    return count


@jit
def _count_straight_runs(moves: Moves) -> int:
    count = 0
    for i in range(moves.shape[0]):
        if i == 0 or moves[i] != moves[i - 1]:
            count += 1
    return count


@jit
def _diagonal_runs(moves: Moves) -> I64:
    """Maximal R/D and U/L alternations, each as an R/D run (see the module docstring).

    A row is (x, y, time, first move, length, reversed). An R/D run starts after the
    point (x, y) and its i-th cell is visited at time + i. A U/L run of n moves ending at
    p_n is stored as the R/D run that visits p_n, p_{n-1}, …, p_1: its first move (R or
    D) leads into p_n, and its i-th cell is visited at time + n + 1 − i.
    """
    n = moves.shape[0]
    out = np.empty((_count_diagonal_runs(moves), RUNS_COLS), np.int64)
    x = 0
    y = 0
    r = -1
    for i in range(n):
        m = moves[i]
        if i == 0 or not _diagonal_step(m, moves[i - 1]):
            if r >= 0 and out[r, 5] == 1:
                _close_reversed(out, r, x, y, moves[i - 1])
            r += 1
            out[r, 0] = x
            out[r, 1] = y
            out[r, 2] = i
            out[r, 3] = m
            out[r, 4] = 0
            out[r, 5] = 1 if m >= 2 else 0
        out[r, 4] += 1
        if m == 0:
            x += 1
        elif m == 1:
            y += 1
        elif m == 2:
            x -= 1
        else:
            y -= 1
    if r >= 0 and out[r, 5] == 1:
        _close_reversed(out, r, x, y, moves[n - 1])
    return out


@jit
def _close_reversed(out: I64, r: int, x: int, y: int, last: int) -> None:
    """Store the U/L run r, which ended at (x, y) with move ``last``, as its reverse."""
    # Walked backwards the run starts with the reverse of its last move (L→R, U→D); the
    # move before that in the alternation, the other of R and D, leads into (x, y).
    first = 1 if last == L else 0
    out[r, 0] = x - 1 if first == 0 else x
    out[r, 1] = y if first == 0 else y - 1
    out[r, 3] = first


@jit
def _straight_runs(moves: Moves) -> I64:
    """Maximal runs of one repeated move, for any walk."""
    n = moves.shape[0]
    out = np.zeros((_count_straight_runs(moves), RUNS_COLS), np.int64)
    x = 0
    y = 0
    r = -1
    for i in range(n):
        m = moves[i]
        if i == 0 or m != moves[i - 1]:
            r += 1
            out[r, 0] = x
            out[r, 1] = y
            out[r, 2] = i
            out[r, 3] = m
            out[r, 4] = 0
        out[r, 4] += 1
        if m == 0:
            x += 1
        elif m == 1:
            y += 1
        elif m == 2:
            x -= 1
        else:
            y -= 1
    return out


class RunTable:
    """A move sequence prepared for :func:`fast_covers` (build once, evaluate many grids).

    Args:
        moves: Move codes (see :mod:`.strategies`).
        diagonal: Force the decomposition into R/D and U/L alternations (True) or into
            straight runs (False); by default the one with fewer runs.

    Attributes:
        monotone: Whether the moves are only R and D.
        diagonal: Whether ``runs`` are alternations (else straight runs).
        runs: The run table.
        length: Number of moves.
    """

    def __init__(self, moves: Moves, diagonal: bool | None = None) -> None:
        moves = np.ascontiguousarray(moves, dtype=np.uint8)
        self.length = int(moves.shape[0])
        self.monotone = bool(self.length == 0 or int(moves.max()) <= CODE["D"])
        if diagonal is None:
            # Each run costs about the same, so fewer runs is faster: alternations for
            # zig-zags, straight runs for the spiral.
            diagonal = self.monotone or _count_diagonal_runs(moves) <= _count_straight_runs(moves)
        self.diagonal = bool(diagonal)
        self.runs: I64 = _diagonal_runs(moves) if self.diagonal else _straight_runs(moves)


# -- bit ranges ---------------------------------------------------------------------------


@jit_inline
def _or_range(bits: npt.NDArray[np.uint64], s: int, n: int) -> int:
    """Set bits s..s+n-1; return how many were newly set."""
    e = s + n - 1
    ws = s >> 6
    we = e >> 6
    lo = _ONES << np.uint64(s & 63)
    hi = _ONES >> np.uint64(63 - (e & 63))
    if ws == we:
        m = lo & hi
        old = bits[ws]
        bits[ws] = old | m
        return int(popcount(m & ~old))
    old = bits[ws]
    bits[ws] = old | lo
    new = popcount(lo & ~old)
    for w in range(ws + 1, we):
        old = bits[w]
        bits[w] = _ONES
        new += popcount(~old)
    old = bits[we]
    bits[we] = old | hi
    new += popcount(hi & ~old)
    return int(new)


@jit_inline
def _or_arc(bits: npt.NDArray[np.uint64], base: int, p: int, n: int, circle: int) -> int:
    """Set the arc of ``n`` cells from position ``p`` on a circle of ``circle`` cells at ``base``."""
    if n >= circle:
        return _or_range(bits, base, circle)
    if p + n <= circle:
        return _or_range(bits, base + p, n)
    return _or_range(bits, base + p, circle - p) + _or_range(bits, base, p + n - circle)


@jit_inline
def _test_set(bits: npt.NDArray[np.uint64], i: int) -> bool:
    """Set bit i; return True if it was clear."""
    w = i >> 6
    m = _ONE << np.uint64(i & 63)
    old = bits[w]
    if old & m:
        return False
    bits[w] = old | m
    return True


# -- the fast evaluators ------------------------------------------------------------------


@jit_inline
def _segments(base: int, p: int, n: int, circle: int) -> tuple[int, int, int, int]:
    """An arc of n ≤ circle cells from position p as up to two bit ranges (start, length)."""
    if p + n <= circle:
        return base + p, n, base, 0
    return base + p, circle - p, base, p + n - circle


@jit_inline
def _or_save(bits: npt.NDArray[np.uint64], s: int, n: int, buf: npt.NDArray[np.uint64], k: int) -> tuple[int, int]:
    """Set bits s..s+n-1, appending the old words to buf at k; return (newly set, new k)."""
    if n <= 0:
        return 0, k
    e = s + n - 1
    ws = s >> 6
    we = e >> 6
    new: int = 0
    for w in range(ws, we + 1):
        m = _ONES
        if w == ws:
            m &= _ONES << np.uint64(s & 63)
        if w == we:
            m &= _ONES >> np.uint64(63 - (e & 63))
        old = bits[w]
        buf[k] = old
        k += 1
        bits[w] = old | m
        new += int(popcount(m & ~old))
    return new, k


@jit_inline
def _last_visit(
    buf: npt.NDArray[np.uint64],
    k: int,
    s: int,
    n: int,
    j0: int,
    t0: int,
    sgn: int,
    overlap: bool,
    other: tuple[int, int, int, int],
) -> tuple[int, int]:
    """Latest first-visit time of the cells of a range that were unset in the saved words.

    Bit ``s + i`` of the range is visited at ``t0 + 2·sgn·(j0 + i)`` (sgn = −1 for a
    reversed run). With ``overlap``, a cell that the other arc ``other`` = ``(p_other,
    n_other, circle, t_other)`` (from ``p_other`` on the circle of ``circle`` cells,
    ``n_other`` cells, times ``t_other + 2·sgn·j``) also visits counts at the earlier
    time. Returns (latest time or -1, new k).
    """
    p_other, n_other, circle, t_other = other
    if n <= 0:
        return -1, k
    e = s + n - 1
    ws = s >> 6
    we = e >> 6
    best = -1
    for w in range(ws, we + 1):
        m = _ONES
        if w == ws:
            m &= _ONES << np.uint64(s & 63)
        if w == we:
            m &= _ONES >> np.uint64(63 - (e & 63))
        z = m & ~buf[k]
        k += 1
        while z:
            bit = (w << 6) + int(trailing_zeros(z))
            z &= z - _ONE
            t = t0 + 2 * sgn * (j0 + bit - s)
            if overlap:
                # With g = 1 there is one class, so the bit index is the position.
                jo = bit - p_other
                if jo < 0:
                    jo += circle
                if jo < n_other:
                    t = min(t, t_other + 2 * sgn * jo)
            best = max(best, t)
    return best, k


@jit
def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


@jit
def _inverse(a: int, m: int) -> int:
    """Inverse of a modulo m (a and m coprime, m ≥ 2)."""
    t0 = 0
    t1 = 1
    r0 = m
    r1 = a % m
    while r1:
        q = r0 // r1
        t0, t1 = t1, t0 - q * t1
        r0, r1 = r1, r0 - q * r1
    return t0 % m


@jit
def _cover_diagonal(
    runs: I64, a: int, b: int, cap: int, bits: npt.NDArray[np.uint64], buf: npt.NDArray[np.uint64]
) -> int:
    """Exact cover time of a walk cut into alternations (see the module docstring)."""
    size = a * b
    if size == 1:
        return 0
    g = _gcd(a, b)
    circle = size // g
    ag = a // g
    bg = b // g
    u = 0 if ag == 1 else (ag - _inverse(bg % ag, ag)) % ag
    delta = (b * u) % circle
    nwords = (size + 63) >> 6
    bits[:nwords] = 0
    bits[0] = 1  # the start: class 0, position 0
    left = size - 1
    # Class and offset (m·δ mod l) of diagonal dc, kept incrementally: no division per run.
    dc = 0
    cc = 0
    off = 0
    ylast = 0
    ymod = 0
    for r in range(runs.shape[0]):
        x0 = runs[r, 0]
        y0 = runs[r, 1]
        tau = runs[r, 2]
        if tau >= cap:
            break
        first = runs[r, 3]
        rev = runs[r, 5] == 1
        # A reversed run visits its last cells first, so the cap cannot shorten it; a run
        # that the cap cuts is timed exactly below, and too late is too late.
        length = runs[r, 4] if rev else min(runs[r, 4], cap - tau)
        cut = rev and tau + length > cap
        d0 = x0 - y0
        while dc < d0:
            dc += 1
            cc += 1
            if cc == g:
                cc = 0
                off += delta
                if off >= circle:
                    off -= circle
        while dc > d0:
            dc -= 1
            cc -= 1
            if cc < 0:
                cc = g - 1
                off -= delta
                if off < 0:
                    off += circle
        step = y0 - ylast  # negative after a U/L run
        if -circle < step < circle:
            ymod += step
            if ymod >= circle:
                ymod -= circle
            elif ymod < 0:
                ymod += circle
        else:
            ymod = y0 % circle
        ylast = y0
        # The odd-offset arc: diagonal d0+1 (R first) or d0-1 (D first).
        if first == 0:
            co = cc + 1
            oo = off
            if co == g:
                co = 0
                oo += delta
                if oo >= circle:
                    oo -= circle
            po = ymod - oo
        else:
            co = cc - 1
            oo = off
            if co < 0:
                co = g - 1
                oo -= delta
                if oo < 0:
                    oo += circle
            po = ymod + 1 - oo
        if po < 0:
            po += circle
        if po >= circle:
            po -= circle
        # The even-offset arc: diagonal d0, from y0 + 1.
        pe = ymod + 1 - off
        if pe < 0:
            pe += circle
        if pe >= circle:
            pe -= circle
        full_odd = (length + 1) // 2
        full_even = length // 2
        n_odd = min(full_odd, circle)
        n_even = min(full_even, circle)
        base_o = co * circle
        base_e = cc * circle
        if n_odd + n_even < left and not cut:
            # This run cannot finish the cover: just set its two arcs.
            left -= _or_arc(bits, base_o, po, n_odd, circle)
            if n_even > 0:
                left -= _or_arc(bits, base_e, pe, n_even, circle)
            continue
        # This run might finish the cover: set its arcs, keeping the old words so that
        # the exact finishing time can be read off the cells that were still unvisited.
        # Cell j of the odd arc is visited at tau + 2j + 1 and of the even arc at
        # tau + 2j + 2; reversed, at tau + length − 2j and tau + length − 1 − 2j. An arc
        # longer than the circle keeps the cells of its first visits only.
        if rev:
            po = (po + full_odd - n_odd) % circle
            pe = (pe + full_even - n_even) % circle
            t_odd = tau + length - 2 * (full_odd - n_odd)
            t_even = tau + length - 1 - 2 * (full_even - n_even)
            sgn = -1
        else:
            t_odd = tau + 1
            t_even = tau + 2
            sgn = 1
        k = 0
        new = 0
        so1, no1, so2, no2 = _segments(base_o, po, n_odd, circle)
        se1, ne1, se2, ne2 = _segments(base_e, pe, n_even, circle)
        got, k = _or_save(bits, so1, no1, buf, k)
        new += got
        got, k = _or_save(bits, so2, no2, buf, k)
        new += got
        got, k = _or_save(bits, se1, ne1, buf, k)
        new += got
        got, k = _or_save(bits, se2, ne2, buf, k)
        new += got
        if new < left:
            if cut:
                return -1
            left -= new
            continue
        # Every remaining cell lies on this run; a cell on both arcs (possible only when
        # g = 1) counts at the earlier of its two visits.
        overlap = g == 1
        k = 0
        even_arc = (pe, n_even, circle, t_even)
        none = (0, 0, circle, 0)
        t1, k = _last_visit(buf, k, so1, no1, 0, t_odd, sgn, overlap, even_arc)
        t2, k = _last_visit(buf, k, so2, no2, circle - po, t_odd, sgn, overlap, even_arc)
        t3, k = _last_visit(buf, k, se1, ne1, 0, t_even, sgn, False, none)
        t4, k = _last_visit(buf, k, se2, ne2, circle - pe, t_even, sgn, False, none)
        t = max(t1, t2, t3, t4)
        return t if t <= cap else -1
    return -1


@jit
def _cover_general(runs: I64, a: int, b: int, cap: int, bits: npt.NDArray[np.uint64]) -> int:
    """Exact cover time of any walk, by straight runs on a row-major bitset."""
    size = a * b
    if size == 1:
        return 0
    nwords = (size + 63) >> 6
    bits[:nwords] = 0
    bits[0] = 1
    left = size - 1
    for r in range(runs.shape[0]):
        tau = runs[r, 2]
        if tau >= cap:
            break
        x0 = runs[r, 0] % a
        y0 = runs[r, 1] % b
        m = runs[r, 3]
        length = min(runs[r, 4], cap - tau)
        horizontal = m in (0, 2)
        span = min(length, a) if horizontal else min(length, b)
        finish = span >= left
        if not finish:
            if horizontal:
                start = (x0 + 1) % a if m == 0 else (x0 - span) % a
                left -= _or_arc(bits, y0 * a, start, span, a)
            else:
                y = y0
                for _ in range(span):
                    if m == 1:
                        y += 1
                        if y == b:
                            y = 0
                    else:
                        y -= 1
                        if y < 0:
                            y = b - 1
                    if _test_set(bits, y * a + x0):
                        left -= 1
            continue
        x = x0
        y = y0
        for i in range(1, length + 1):
            x, y = _torus_step(m, x, y, a, b)
            if _test_set(bits, y * a + x):
                left -= 1
                if left == 0:
                    return tau + i
    return -1


@jit
def _fast_many(runs: I64, diagonal: bool, widths: I64, heights: I64, cap_ratio: float, max_moves: int) -> I64:
    out = np.empty(widths.shape[0], np.int64)
    biggest = 1
    for i in range(widths.shape[0]):
        biggest = max(biggest, widths[i] * heights[i])
    bits = np.zeros((biggest + 63) // 64 + 1, np.uint64)
    buf = np.zeros(2 * ((biggest + 63) // 64) + 16, np.uint64)
    for i in range(widths.shape[0]):
        a = widths[i]
        b = heights[i]
        cap = min(int(cap_ratio * a * b), max_moves)
        if diagonal:
            out[i] = _cover_diagonal(runs, a, b, cap, bits, buf)
        else:
            out[i] = _cover_general(runs, a, b, cap, bits)
    return out


def fast_covers(table: RunTable, widths: npt.ArrayLike, heights: npt.ArrayLike, cap_ratio: float = 35.0) -> I64:
    """Exact cover times of many grids with the fast evaluator.

    Args:
        table: The prepared move sequence.
        widths: A per grid.
        heights: B per grid.
        cap_ratio: Give up on a grid after ``cap_ratio``·S moves (-1 then).

    Returns:
        One cover time per grid, -1 where not covered within the cap or the moves.
    """
    w = np.asarray(widths, np.int64)
    h = np.asarray(heights, np.int64)
    if w.size and (w.min() < 1 or h.min() < 1):
        i = int(np.argmin(np.minimum(w, h)))
        check_grid(int(w[i]), int(h[i]))
    return _fast_many(table.runs, table.diagonal, w, h, float(cap_ratio), table.length)

"""Where the zig-zags' limits come from, and two more walks that lose (``docs/blind.md``, eleventh round).

``direct``: the least number of cells a walk must paint by move c·N if it covers every
torus S ≤ N *directly*, i.e. by g = gcd(A, B) consecutive diagonals that each hold a whole
class of l = lcm(A, B) cells. For every g ≤ √N the torus g × g·⌊N/g²⌋ needs g diagonals
of l_g = g·⌊N/g²⌋ cells; at least g diagonals then hold l_g cells or more, so the i-th
longest diagonal holds at least l_i and the walk paints at least Σ_g l_g cells, one per
move at best: c ≥ Σ_g l_g / N.

``tradeoff``: dynamic-zigzag with a fixed k, exact, on the two families that pull k apart
at 10^6: every square n×n with 100 ≤ n ≤ 1000 (they want a small k) and every thin grid
a×B and B×a with short side a = 3..17 and 10^5 < S ≤ 10^6 (they want a large k).

``phases``: tuned-zigzag's segment lengths held constant in blocks of segments
[j, ⌈ρ·j⌉) from segment 8 (each block takes the length of its middle segment), so that
each thin torus sees a fixed lap offset for a while instead of a drifting one.

``reversals``: tuned-zigzag with the diagonal's drift reversed in blocks: after u
segments with an extra R come β·u segments with an extra D, u growing by ρ per block.

``phases`` and ``reversals`` score every grid S ≤ 10^4, a sample of thin grids (short side
3..40, 120 random long sides each, 10^5 < S ≤ 10^6, both orientations) and the squares
100×100 … 996×996 (step 7), all exact.

    .venv/bin/python research/blind_limits.py direct
    .venv/bin/python research/blind_limits.py tradeoff --ks 10 12 14 16 18 20 24 32
    .venv/bin/python research/blind_limits.py phases
    .venv/bin/python research/blind_limits.py reversals
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from snakelab.games.blind import champion
from snakelab.games.blind.evaluate import RunTable, fast_covers
from snakelab.games.blind.strategies import D, Moves, R, make_strategy, zigzag_lengths_array
from snakelab.games.blind.sweep import grids_of

CAP = 16.0
MOVES = int(CAP * 10**6) + 1
POOL = ThreadPoolExecutor(2)


def worst(table: RunTable, w: np.ndarray, h: np.ndarray) -> str:
    """The worst exact ratio over the grids (two threads) and where; uncovered within CAP·S as such."""
    parts = [np.arange(i, w.size, 2) for i in range(2)]
    covers = np.empty(w.size, np.int64)
    for p, c in zip(parts, POOL.map(lambda p: fast_covers(table, w[p], h[p], CAP), parts), strict=True):
        covers[p] = c
    if (covers < 0).any():
        i = int(np.argmax(covers < 0))
        return f"{int((covers < 0).sum())} uncovered ({w[i]}×{h[i]})"
    ratio = covers / (w * h)
    i = int(np.argmax(ratio))
    return f"{ratio[i]:.2f} ({w[i]}×{h[i]})"


def thin(sides: range, per: int | None, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """a×B and B×a for each short side a and 10^5 < a·B ≤ 10^6: every B, or ``per`` random ones."""
    rng = np.random.default_rng(seed)
    ws, hs = [], []
    for a in sides:
        lo, hi = 10**5 // a + 1, 10**6 // a + 1
        b = np.arange(lo, hi) if per is None else rng.integers(lo, hi, per)
        ws += [np.full(b.size, a), b]
        hs += [b, np.full(b.size, a)]
    return np.concatenate(ws).astype(np.int64), np.concatenate(hs).astype(np.int64)


def squares(step: int) -> tuple[np.ndarray, np.ndarray]:
    """n×n for n = 100, 100 + step, … ≤ 1000."""
    n = np.arange(100, 1001, step, dtype=np.int64)
    return n, n


def zigzag_extras(n: int, lengths: np.ndarray, extras: np.ndarray) -> Moves:
    """Segment j: ``lengths[j]`` alternating R/D moves, then the move ``extras[j]`` instead of an R."""
    moves = zigzag_lengths_array(n, lengths)
    ends = np.cumsum(lengths + 1) - 1  # where each segment's extra R stands
    ends = ends[ends < moves.size]
    moves[ends] = extras[: ends.size]
    return moves


GridSets = dict[str, tuple[np.ndarray, np.ndarray]]


def score(name: str, lengths: np.ndarray, extras: np.ndarray, sets: GridSets) -> None:
    """One line: the walk's worst ratio on each grid set."""
    table = RunTable(zigzag_extras(MOVES, lengths, extras))
    print(f"{name:28} " + " | ".join(f"{k}: {worst(table, *v)}" for k, v in sets.items()), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=["direct", "tradeoff", "phases", "reversals"])
    ap.add_argument("--ks", type=int, nargs="+", default=[10, 12, 14, 16, 18, 20, 24, 32], help="k for tradeoff")
    args = ap.parse_args()
    if any(k < 1 for k in args.ks):
        raise SystemExit(f"--ks must be positive, got {args.ks}")
    lengths = champion.tuned_lengths(0, 8000)
    plain = np.full(lengths.size, R, np.uint8)
    sets: GridSets = {}
    if args.part in ("phases", "reversals"):
        sets = {"S ≤ 10^4": grids_of(1, 10**4, 10**4), "thin sample": thin(range(3, 41), 120), "squares": squares(7)}
    if args.part == "direct":
        for n in (10**4, 10**5, 10**6):
            cells = sum(g * (n // (g * g)) for g in range(1, math.isqrt(n) + 1))
            print(f"N = {n:>9,}: Σ l_g = {cells:>10,} cells, c ≥ {cells / n:.2f}")
    elif args.part == "tradeoff":
        all_squares, all_thin = squares(1), thin(range(3, 18), None)
        for k in args.ks:
            t0 = time.monotonic()
            table = RunTable(make_strategy(f"dynamic-zigzag(k={k})").moves_array(MOVES))
            sq, th = worst(table, *all_squares), worst(table, *all_thin)
            print(f"k = {k:2}: squares {sq} | thin {th} [{time.monotonic() - t0:.0f} s]", flush=True)
    elif args.part == "phases":
        score("tuned-zigzag", lengths, plain, sets)
        for rho in (1.05, 1.1, 1.2, 1.35, 1.6):
            held = lengths.copy()
            j = 8
            while j < held.size:
                k = max(j + 1, math.ceil(j * rho))
                held[j:k] = lengths[min((j + k) // 2, held.size - 1)]
                j = k
            score(f"blocks ρ = {rho}", held, plain, sets)
    else:
        score("tuned-zigzag", lengths, plain, sets)
        for u0, rho, beta in ((5, 1.2, 0.2), (10, 1.5, 0.3), (20, 1.3, 0.2), (20, 1.3, 0.4), (50, 1.2, 0.25)):
            extras = plain.copy()
            j, u = u0, float(u0)
            while j < extras.size:
                j += int(u)
                extras[j : j + int(beta * u)] = D
                j += int(beta * u)
                u *= rho
            score(f"u0 = {u0}, ρ = {rho}, β = {beta}", lengths, extras, sets)


if __name__ == "__main__":
    main()

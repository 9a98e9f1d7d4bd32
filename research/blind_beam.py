"""How far below the zig-zags a walk can go at a small horizon (``docs/blind.md``, eighth round).

A beam search over R/D walks that knows the horizon N: every torus A·B ≤ N (S ≥ 2) must be
covered by move ⌊c·S⌋. Each step extends every walk of the beam by R and by D, drops the
walks that can no longer meet a deadline (a torus with more unvisited cells than moves
left before its deadline), and keeps the ``--width`` walks with the least urgency
Σ unvisited / (moves left + 1), ties broken at random. A bisection on c finds the smallest
ratio the beam meets (to ``--tolerance``); beside it, the exact worst ratios of the
zig-zags at the same N. Then the witness: its extras (two equal moves in a row, ``+`` for
RR, ``−`` for DD) with the moves since the previous one.

    .venv/bin/python research/blind_beam.py --areas 50 100 200 --width 600
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from snakelab.games.blind.evaluate import RunTable, fast_covers
from snakelab.games.blind.strategies import make_strategy
from snakelab.games.blind.sweep import grids_of


def tori(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Widths and heights of every torus with 2 ≤ A·B ≤ n."""
    w, h = grids_of(1, n, n)
    keep = w * h >= 2
    return w[keep], h[keep]


@njit(cache=True)
def beam(widths, heights, ratio, width, seed):  # type: ignore[no-untyped-def]
    """The first walk found that meets every deadline, as move codes (R = 0, D = 1); empty if none."""
    np.random.seed(seed)
    count = widths.shape[0]
    words = (int((widths * heights).max()) + 63) // 64
    steps = int(ratio * (widths * heights).max()) + 1
    deadline = ratio * (widths * heights).astype(np.float64)
    px = np.zeros((width, count), np.int64)
    py = np.zeros((width, count), np.int64)
    bits = np.zeros((width, count, words), np.uint64)
    left = np.zeros((width, count), np.int64)
    left[0] = widths * heights - 1
    bits[0, :, 0] = 1
    walks = np.zeros((width, steps), np.uint8)
    alive = 1
    nx = np.zeros((2 * width, count), np.int64)
    ny = np.zeros((2 * width, count), np.int64)
    nbits = np.zeros((2 * width, count, words), np.uint64)
    nleft = np.zeros((2 * width, count), np.int64)
    parent = np.zeros(2 * width, np.int64)
    urgency = np.zeros(2 * width)
    for t in range(steps):
        m = 0
        for s in range(alive):
            for move in range(2):
                ok = True
                done = True
                u = 0.0
                for i in range(count):
                    x = px[s, i]
                    y = py[s, i]
                    if move == 0:
                        x = (x + 1) % widths[i]
                    else:
                        y = (y + 1) % heights[i]
                    nx[m, i] = x
                    ny[m, i] = y
                    nbits[m, i] = bits[s, i]
                    rest = left[s, i]
                    cell = y * widths[i] + x
                    bit = np.uint64(1) << np.uint64(cell & 63)
                    if rest > 0 and nbits[m, i, cell >> 6] & bit == 0:
                        nbits[m, i, cell >> 6] |= bit
                        rest -= 1
                    nleft[m, i] = rest
                    if rest > 0:
                        done = False
                        slack = deadline[i] - (t + 1)
                        if slack < rest:
                            ok = False
                            break
                        u += rest / (slack + 1.0)
                if done and ok:
                    out = np.empty(t + 1, np.uint8)
                    out[:t] = walks[s, :t]
                    out[t] = move
                    return out
                parent[m] = s * 2 + move if ok else -1
                urgency[m] = u + 1e-9 * np.random.random()
                m += 1
        order = np.argsort(urgency[:m])
        kept = 0
        new_walks = np.empty((width, steps), np.uint8)
        for j in order:
            if parent[j] < 0:
                continue
            s, move = parent[j] // 2, parent[j] % 2
            new_walks[kept, :t] = walks[s, :t]
            new_walks[kept, t] = move
            px[kept] = nx[j]
            py[kept] = ny[j]
            bits[kept] = nbits[j]
            left[kept] = nleft[j]
            kept += 1
            if kept == width:
                break
        walks = new_walks
        alive = kept
        if alive == 0:
            break
    return np.empty(0, np.uint8)


def extras(walk: np.ndarray) -> str:
    """``+n`` / ``-n`` for each RR / DD, n moves after the previous one."""
    out = []
    last = 0
    for t in range(1, walk.size):
        if walk[t] == walk[t - 1]:
            out.append(f"{'+' if walk[t] == 0 else '-'}{t - last}")
            last = t
    return " ".join(out)


def zigzag_worst(spec: str, n: int) -> float:
    """Exact worst ratio of a registered strategy over every grid A·B ≤ n."""
    w, h = grids_of(1, n, n)
    covers = fast_covers(RunTable(make_strategy(spec).moves_array(40 * n)), w, h, 35.0)
    return float((covers / (w * h)).max())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--areas", type=int, nargs="+", default=[50, 100, 200], help="horizons N")
    ap.add_argument("--width", type=int, default=600, help="walks kept per step")
    ap.add_argument("--tolerance", type=float, default=0.05, help="bisection stops at this gap")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for n in args.areas:
        w, h = tori(n)
        lo, hi = 2.0 - 2.0 / n, 12.0
        found = np.empty(0, np.uint8)
        t0 = time.monotonic()
        while hi - lo > args.tolerance:
            mid = (lo + hi) / 2
            walk = beam(w, h, mid, args.width, args.seed)
            if walk.size:
                hi, found = mid, walk
            else:
                lo = mid
        if not found.size:
            print(f"N = {n}: the beam (width {args.width}) meets no ratio up to {hi:.2f}")
            continue
        zz = ", ".join(f"{s} {zigzag_worst(s, n):.2f}" for s in ("tuned-zigzag", "ramp-zigzag"))
        print(f"N = {n}: beam (width {args.width}) {hi:.2f} in {time.monotonic() - t0:.0f} s; {zz}")
        print(f"  witness, {found.size} moves, extras: {extras(found)}")


if __name__ == "__main__":
    main()

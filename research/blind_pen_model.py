"""The pen model of a zig-zag's worst grids (``docs/blind.md``, "Fourth round").

On a torus A×B with B ≡ −1 (mod A) the lattice vector (B + 1, B) turns every diagonal
into the next one shifted by β = B, so a zig-zag that has crossed d(t) diagonals by
move t paints the circle of A diagonals at h(t) = d(t) − t/(2β). Consecutive turns of
the circle overlap, and so paint without gaps, only while the segments are at least
2β/3 long (each diagonal is covered by two segments: the brush is two diagonals wide).
The model takes a torus as covered once one gap-free stretch of h has spanned A
diagonals, and reports the worst ratio t/(A·B) over β and A ≤ N/β (1 ≤ B/A ≤ 200).

    .venv/bin/python research/blind_pen_model.py --strategy ramp-zigzag "dynamic-zigzag(k=11)"

It needs only the segment lengths (the strategy's R/D alternations), so it runs in
seconds and can be set beside the exact sweeps of ``snakelab blind sweep``.
"""

from __future__ import annotations

import argparse

import numpy as np

from snakelab.games.blind.evaluate import RunTable
from snakelab.games.blind.strategies import make_strategy


def segment_lengths(spec: str, moves: int) -> np.ndarray:
    """Lengths of the maximal R/D alternations of a monotone strategy's first moves."""
    table = RunTable(make_strategy(spec).moves_array(moves))
    if not table.monotone:
        raise SystemExit(f"{spec}: the pen model needs a walk of R and D moves only")
    return table.runs[:, 4].astype(float)


def pen_model(lengths: np.ndarray, betas: np.ndarray, max_area: int, amin: int = 10, mmax: int = 200) -> tuple:
    """Worst modelled ratio, with its β and A."""
    t = np.concatenate([[0.0], np.cumsum(lengths)])
    lo = np.full(len(betas), np.nan)
    hi = np.full(len(betas), np.nan)
    span = np.zeros(len(betas))
    worst = np.zeros(len(betas))
    where = np.zeros(len(betas))
    for j in range(len(lengths)):
        h0 = j - t[j] / (2 * betas)
        h1 = j + 1 - t[j + 1] / (2 * betas)
        a = np.minimum(h0, h1) - 1
        b = np.maximum(h0, h1) + 1
        gap_free = lengths[j] >= 2 * betas / 3
        # A torus of A diagonals just above the span so far is not covered before t[j+1].
        big_a = np.maximum(span, amin)
        ok = (big_a * betas <= max_area) & (big_a <= betas) & (big_a >= betas / mmax)
        ratio = np.where(ok, t[j + 1] / (big_a * betas), 0.0)
        better = ratio > worst
        worst = np.where(better, ratio, worst)
        where = np.where(better, big_a, where)
        joins = gap_free & ~np.isnan(lo) & (a <= hi) & (b >= lo)
        fresh = gap_free & ~joins
        lo = np.where(joins, np.minimum(lo, a), np.where(fresh, a, lo))
        hi = np.where(joins, np.maximum(hi, b), np.where(fresh, b, hi))
        span = np.where(gap_free, np.maximum(span, hi - lo), span)
        if np.all(span * betas >= max_area):
            break
    k = int(np.argmax(worst))
    return float(worst[k]), int(betas[k]), round(float(where[k]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", nargs="+", default=["ramp-zigzag", "dynamic-zigzag(k=11)"])
    ap.add_argument("--max-area", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    args = ap.parse_args()
    betas = np.unique(np.round(np.geomspace(50, 100_000, 200)))
    print("| strategy | N | modelled worst | β | A |")
    print("|---|---|---|---|---|")
    for spec in args.strategy:
        lengths = segment_lengths(spec, 36 * max(args.max_area))
        for n in args.max_area:
            w, beta, a = pen_model(lengths, betas, n)
            print(f"| {spec} | {n:,} | {w:.2f} | {beta} | {a} |")


if __name__ == "__main__":
    main()

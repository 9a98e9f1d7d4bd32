"""How a zig-zag covers a thin torus, against a coupon-collector model (``docs/blind.md``, ninth round).

On an a×B torus with a small short side a, the walk goes round the long side once per
lap of 2B moves and paints two neighbouring cells of each row (or column) per lap. If the
two cells sat at an independent, uniformly random offset in every lap, a row would still
miss a given cell after n laps with probability (1 − 2/a)^n, so after r·S moves (n = a·r/2
laps) about

    S · (1 − 2/a)^(a·r/2)  ≈  S · e^(−r)

cells would be unvisited. This script follows the first visit of every cell (the trace
view's ``first_visits``, exact) and prints the unvisited counts at r = 2, 4, 6, 8, 10
beside that model, then the last clump: the cells first visited at the very end, and
since when they have waited. With ``--sides`` it also prints, per short side a, the worst
exact ratio (fast evaluator) over every a×B and B×a grid per decade of S.

    .venv/bin/python research/blind_thin.py --sides 3 5 8 12 17 21 31
    .venv/bin/python research/blind_thin.py --strategy ramp-zigzag --grids 5x122425 21x46893
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

from snakelab.core.errors import ConfigError
from snakelab.games.blind.evaluate import RunTable, fast_covers
from snakelab.games.blind.render import first_visits
from snakelab.games.blind.strategies import make_strategy

GRIDS = ("5x122425", "46893x21", "8x87345", "31x31324", "12x82882", "53466x17")
"""Thin grids that tuned-zigzag covers late (its worst per short side in a full sweep at 10^6)."""

RATIOS = (2, 4, 6, 8, 10)
DECADES = (10**3, 10**4, 10**5, 10**6)


def parse_grid(text: str) -> tuple[int, int]:
    """``AxB`` → (A, B)."""
    try:
        a, b = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"a grid is written AxB (e.g. 5x122425), got {text!r}") from None
    if a < 1 or b < 1:
        raise SystemExit(f"grid sides must be positive, got {text!r}")
    return a, b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="champion")
    ap.add_argument("--grids", nargs="+", default=list(GRIDS), help="grids as AxB")
    ap.add_argument("--cap", type=float, default=14.0, help="moves simulated, as a multiple of S")
    ap.add_argument("--sides", type=int, nargs="*", default=[], help="short sides for the per-decade table")
    args = ap.parse_args()
    grids = [parse_grid(g) for g in args.grids]
    try:
        strategy = make_strategy(args.strategy)
    except ConfigError as err:
        raise SystemExit(str(err)) from None
    if any(a < 1 for a in args.sides):
        raise SystemExit(f"--sides must be positive, got {args.sides}")
    print(f"{args.strategy}: cells unvisited after r·S moves, exact / model S·(1 − 2/a)^(a·r/2)")
    print(f"{'grid':>12} {'ratio':>6}  " + "  ".join(f"{'r = ' + str(r):>17}" for r in RATIOS) + "   last clump")
    for a, b in grids:
        s = a * b
        first = first_visits(strategy, a, b, int(args.cap * s)).ravel()
        short = min(a, b)
        if (first < 0).any():
            print(f"{a}x{b}: not covered within {args.cap}·S")
            continue
        cover = int(first.max())
        cols = [f"{int((first > r * s).sum()):>8} / {round(s * (1 - 2 / short) ** (short * r / 2)):>6}" for r in RATIOS]
        # The last clump: the cells first visited within 0.01·S of the end, all waiting
        # since the visit before them.
        times = np.sort(first)
        clump = int((times > cover - 0.01 * s).sum())
        where = f"{clump} cells wait from {times[-clump - 1] / s:.2f}·S"
        print(f"{a:>5}x{b:<6} {cover / s:6.2f}  " + "  ".join(cols) + f"   {where}")
    if args.sides:
        decade_table(strategy.moves_array(int(args.cap * DECADES[-1]) + 1), args.sides, args.cap)


def decade_table(moves: np.ndarray, sides: list[int], cap: float) -> None:
    """Per short side a, the worst ratio over every a×B and B×a grid per decade of S."""
    table = RunTable(moves)
    spans = list(itertools.pairwise(DECADES))
    print("\nworst ratio over every a×B and B×a grid, per decade of S")
    print(f"{'a':>4}  " + "  ".join(f"{f'({lo:.0e}, {hi:.0e}]':>22}" for lo, hi in spans))
    for a in sides:
        cells = []
        for lo, hi in spans:
            b = np.arange(lo // a + 1, hi // a + 1, dtype=np.int64)
            side = np.full_like(b, a)
            w, h = np.concatenate([side, b]), np.concatenate([b, side])
            covers = fast_covers(table, w, h, cap)
            ratio = np.where(covers < 0, np.inf, covers / (w * h))
            i = int(np.argmax(ratio))
            cells.append(f"{ratio[i]:6.2f} ({w[i]}x{h[i]})")
        print(f"{a:>4}  " + "  ".join(f"{c:>22}" for c in cells), flush=True)


if __name__ == "__main__":
    main()

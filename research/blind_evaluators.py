"""Fast exact evaluator against the plain reference simulator on every grid A·B ≤ N.

    .venv/bin/python research/blind_evaluators.py [--max-area 10000]

Prints, per strategy, the seconds each evaluator needs (one core) and whether they agree.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from snakelab.games.blind.evaluate import RunTable, fast_covers, reference_covers
from snakelab.games.blind.strategies import make_strategy
from snakelab.games.blind.sweep import grids_of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-area", type=int, default=10_000)
    args = ap.parse_args()
    n = args.max_area
    w, h = grids_of(1, n, n)
    print("| strategy | grids | cap | reference s | fast s | speed-up | agree |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for spec, cap in (("dynamic-zigzag(k=11)", 35.0), ("champion", 35.0), ("sweeping-zigzag", 35.0), ("spiral", 4.0)):
        moves = make_strategy(spec).moves_array(int(cap * n) + 1)
        table = RunTable(moves)
        fast_covers(table, w[:10], h[:10], cap)  # load the compiled kernels first
        reference_covers(moves, w[:10], h[:10], cap)
        t0 = time.perf_counter()
        fast = fast_covers(table, w, h, cap)
        t1 = time.perf_counter()
        ref = reference_covers(moves, w, h, cap)
        t2 = time.perf_counter()
        agree = bool(np.array_equal(fast, ref))
        print(
            f"| {spec} | {len(w):,} | {cap:g} | {t2 - t1:.2f} | {t1 - t0:.2f} "
            f"| {(t2 - t1) / (t1 - t0):.1f}× | {agree} |"
        )


if __name__ == "__main__":
    main()

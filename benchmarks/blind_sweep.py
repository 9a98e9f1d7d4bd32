"""Exhaustive sweep of a blind strategy over every grid A·B ≤ N: worst ratio and wall time.

The headline figures of ``docs/benchmarks.md`` (section "blind") come from this script:

    .venv/bin/python benchmarks/blind_sweep.py --strategy "dynamic-zigzag(k=11)" --max-area 1000000
    .venv/bin/python benchmarks/blind_sweep.py --strategy champion --max-area 1000000

It uses the same ``run_sweep`` as ``snakelab blind sweep`` (all cores, no checkpoint so
the time is a full run) and prints one Markdown table row plus the worst grids.
"""

from __future__ import annotations

import argparse
import resource
import time

from snakelab.games.blind.sweep import run_sweep
from snakelab.harness.parallel import default_jobs, mapper


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="dynamic-zigzag(k=11)")
    ap.add_argument("--max-area", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--top", type=int, default=5)
    args = ap.parse_args()
    t0 = time.perf_counter()
    res = run_sweep(args.strategy, args.max_area, map_chunks=mapper(jobs=args.jobs))
    wall = time.perf_counter() - t0
    # CPU seconds of this process and its (finished) workers: the machine may be shared.
    cpu = sum(
        resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    print("| strategy | N | grids | worst ratio | worst grid | mean ratio | S-weighted mean | wall s | CPU s | jobs |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    worst = f"{res['worst_ratio']:.4f}" if res["worst_ratio"] is not None else f"uncovered: {res['uncovered']}"
    grid = "×".join(map(str, res["worst_grid"])) if res["worst_grid"] else "-"
    print(
        f"| {res['strategy']} | {args.max_area:,} | {res['grids']:,} | {worst} | {grid} | {res['mean_ratio']:.3f} "
        f"| {res['weighted_mean_ratio']:.3f} | {wall:.1f} | {cpu:.0f} | {args.jobs or default_jobs()} |"
    )
    print()
    for t in res["top"][: args.top]:
        print(f"  {t['grid'][0]}×{t['grid'][1]}: {t['ratio']:.4f} (cover {t['cover']:,})")


if __name__ == "__main__":
    main()

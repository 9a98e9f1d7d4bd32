"""Anneal every segment length of a zig-zag freely against exact cover ratios (``docs/blind.md``, sixth round).

The walk is the seed's (alternate R and D, one extra R after each segment); only the
segment lengths change, each on its own, starting from ramp-zigzag's or tuned-zigzag's.
A candidate's score is the exact worst ratio over every grid A·B ≤ ``--max-area`` (plus,
with ``--grids``, the grids of a text file of ``A B`` lines), with 0.02 × the mean of the
20 worst added so that plateaus still have a slope; a grid not covered within ``--cap``·S
counts as 99. A step rescales one segment (× e^N(0, 0.3)), rescales a run of up to 29
segments (× e^N(0, 0.1)) or swaps two neighbours, and is kept by the Metropolis rule at a
temperature falling linearly from 0.08 to 0.002.

    .venv/bin/python research/blind_freeform.py --max-area 10000 --steps 6000 --seed 3

Ctrl-C stops the climb; the best lengths so far are written to ``--out`` (``.npy``) and
``--resume`` starts from such a file. ``--moves-out`` also writes the best walk (its first
``--cap``·N moves) as a move file, which ``snakelab blind sweep --strategy "file(path=…)"``
sweeps exhaustively. ``--collect STRATEGY --above R`` instead sweeps every grid S ≤ 10^6
with a registered strategy (all cores) and writes the grids it leaves at R·S or more to the
``--grids`` file, e.g. the grids tuned-zigzag leaves at ≥ 10:

    .venv/bin/python research/blind_freeform.py --collect champion --above 10 --grids bad10.txt
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import numpy as np

from snakelab.core.errors import ConfigError
from snakelab.games.blind import champion
from snakelab.games.blind.evaluate import RunTable, fast_covers
from snakelab.games.blind.strategies import letters, zigzag_lengths_array
from snakelab.games.blind.sweep import chunk_covers, grids_of, make_chunks, read_grids, write_grids

STARTS = {"ramp-zigzag": champion.ramp_lengths, "tuned-zigzag": lambda n: champion.tuned_lengths(0, n)}


def load_grids(max_area: int, extra: Path | None) -> tuple[np.ndarray, np.ndarray]:
    """Every grid A·B ≤ max_area, then the grids listed in ``extra``."""
    w, h = grids_of(1, max_area, max_area)
    if extra is not None:
        ew, eh = read_grids(extra)
        w, h = np.concatenate([w, ew]), np.concatenate([h, eh])
    return w, h


def _above(above: float, task: tuple[str, int, float, int, int]) -> list[tuple[int, int]]:
    w, h, covers = chunk_covers(task)
    keep = (covers < 0) | (covers >= above * w * h)
    return list(zip(w[keep].tolist(), h[keep].tolist(), strict=True))


def collect(spec: str, max_area: int, above: float, path: Path) -> int:
    """Write every grid A·B ≤ max_area that ``spec`` leaves at ≥ above·S (or uncovered at 35·S)."""
    tasks = [(spec, max_area, 35.0, c.lo, c.hi) for c in make_chunks(max_area)]
    with ProcessPoolExecutor() as pool:
        grids = [g for part in pool.map(partial(_above, above), tasks) for g in part]
    write_grids(path, grids)
    return len(grids)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-area", type=int, default=10_000)
    ap.add_argument("--grids", type=Path, default=None, help="file of 'A B' lines scored as well")
    ap.add_argument("--start", choices=sorted(STARTS), default="ramp-zigzag")
    ap.add_argument("--resume", type=Path, default=None, help="lengths (.npy) written by an earlier run")
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cap", type=float, default=14.0)
    ap.add_argument("--out", type=Path, default=Path("freeform.npy"))
    ap.add_argument("--moves-out", type=Path, default=None, help="also write the best walk as a move file")
    ap.add_argument("--collect", default=None, help="strategy whose bad grids to write to --grids, then stop")
    ap.add_argument("--above", type=float, default=10.0, help="with --collect: the ratio that counts as bad")
    args = ap.parse_args()
    if args.collect is not None:
        if args.grids is None:
            ap.error("--collect needs --grids, the file to write")
        t0 = time.perf_counter()
        count = collect(args.collect, 1_000_000, args.above, args.grids)
        print(f"{count:,} grids at ≥ {args.above}·S -> {args.grids} ({time.perf_counter() - t0:.0f} s)")
        return
    try:
        w, h = load_grids(args.max_area, args.grids)
    except ConfigError as err:
        raise SystemExit(str(err)) from None
    area = w * h
    n_moves = int(args.cap * area.max()) + 1  # no grid is timed past cap·S
    if args.resume is not None:
        lengths = np.load(args.resume).astype(np.int64)
    else:
        lengths = STARTS[args.start](3000).astype(np.int64)
        # free every segment that starts within the seed's 35·S budget of the largest grid
        lengths = lengths[: int(np.searchsorted(np.cumsum(lengths + 1), 36 * area.max())) + 5].copy()
    count = lengths.size

    def score(candidate: np.ndarray) -> tuple[float, float, tuple[int, int]]:
        covers = fast_covers(RunTable(zigzag_lengths_array(n_moves, candidate)), w, h, args.cap)
        ratio = np.where(covers < 0, 99.0, covers / area)
        top = np.argsort(ratio)[-20:]
        worst = int(top[-1])
        return (
            float(ratio[worst]) + 0.02 * float(ratio[top].mean()),
            float(ratio[worst]),
            (int(w[worst]), int(h[worst])),
        )

    rng = np.random.default_rng(args.seed)
    current, worst, at = score(lengths)
    best = (current, worst, at, lengths.copy())
    print(f"{len(w):,} grids, {count} segments; start {worst:.4f} at {at[0]}×{at[1]}", flush=True)
    t0 = time.perf_counter()
    done = 0
    try:
        for step in range(args.steps):
            temperature = 0.08 * (1 - step / args.steps) + 0.002
            candidate = lengths.copy()
            kind = rng.integers(3)
            if kind == 0:
                j = rng.integers(count)
                candidate[j] = max(1, int(candidate[j] * math.exp(rng.normal(0, 0.3))))
            elif kind == 1:
                j = rng.integers(count)
                span = rng.integers(1, 30)
                factor = math.exp(rng.normal(0, 0.1))
                candidate[j : j + span] = np.maximum(1, (candidate[j : j + span] * factor).astype(np.int64))
            else:
                j = rng.integers(count - 1)
                candidate[j], candidate[j + 1] = candidate[j + 1], candidate[j]
            value, value_worst, value_at = score(candidate)
            if value < current or rng.random() < math.exp((current - value) / temperature):
                lengths, current = candidate, value
                if value < best[0]:
                    best = (value, value_worst, value_at, candidate.copy())
            done = step + 1
            if step % 200 == 0:
                print(
                    f"step {step}: best {best[1]:.4f} at {best[2][0]}×{best[2][1]}  ({time.perf_counter() - t0:.0f} s)",
                    flush=True,
                )
    except KeyboardInterrupt:
        print("interrupted")
    np.save(args.out, best[3])
    if args.moves_out is not None:
        args.moves_out.write_text(letters(zigzag_lengths_array(n_moves, best[3])) + "\n")
    where = f"{best[2][0]}×{best[2][1]}"
    print(f"{done} steps in {time.perf_counter() - t0:.0f} s; best {best[1]:.4f} at {where} -> {args.out}")


if __name__ == "__main__":
    main()

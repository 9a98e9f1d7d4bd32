"""Hill-climb the knots of ``tuned-zigzag`` against exact cover ratios (``docs/blind.md``, fifth round).

A candidate is a tuple of log-factors on ramp-zigzag's segment lengths (the form of
``TUNED_LOG_FACTORS``). Its score is the exact worst ratio, from the fast evaluator, over
a fixed set of about 250,000 grids: every grid with S ≤ 10^4 and, up to S ≤ 10^6, the
families that limit the zig-zag — resonant rectangles a·A − b·B = r (a, b ≤ 12, |r| ≤ 3,
both orientations), thin grids (one side ≤ 40), multiples (g·a)×(g·b) of small shapes and
the squares 100..1000 — plus, with ``--extra``, grids from earlier full sweeps (a text
file of ``A B`` lines, e.g. every grid a candidate left above 10.8) and, with
``--long-classes K``, K grids drawn from those with gcd ≥ 12 and 10^5 < S ≤ 10^6 (many long
diagonal classes, which the multiples of small shapes sample only thinly). Each step
perturbs a few knots and keeps the change when the score does not rise. A candidate is
scored on ``--threads`` threads (default 2), the grids worst-first, and rejected as soon
as the worst 3,000 of the last accepted candidate already score above it.

    .venv/bin/python research/blind_tune.py --seconds 1700 --seed 6
    .venv/bin/python research/blind_tune.py --seconds 660 --seed 10 --start "0.03,0.23,…" --extra bad.txt

With ``--sweeps M`` the walk also stops after the segments 16·1.4^i for a boustrophedon
sweep, as ``sweeping-zigzag`` does (segments become ⌊w/2⌉ R D pairs and an extra R), and
the candidate gains M more knots: the sweep's extra passes as a fraction η of the segment
index, piecewise linear in log j between segments 16 and 8000 (clipped to 0..0.2; the
ninth round of ``docs/blind.md``):

    .venv/bin/python research/blind_tune.py --seconds 1800 --seed 1 --sweeps 5 \
        --start "<TUNED_LOG_FACTORS>,0.03,0.03,0.03,0.03,0.03"

Every improvement is printed as a ``--start`` argument (write it ``--start=…`` when the
first knot is negative, or argparse takes it for an option; to 6 digits: rounded to 3
decimals, the best knots of one climb scored 0.3 worse), so an interrupted climb (Ctrl-C)
resumes from its last line. ``--moves-out FILE`` writes the best walk's first 14·10^6
moves as a move file, which ``snakelab blind sweep --strategy "file(path=FILE)"`` sweeps
over every grid (``--seconds 0`` only writes the ``--start`` walk). ``--collect R`` instead
writes every grid S ≤ 10^6 on which the ``--start`` walk's ratio is ≥ R (exact, minutes) to
``--collect-out``: the ``--extra`` file of the next round. The champion's knots
came from three such climbs with two rounds of ``--extra`` grids, each candidate then
checked by a full sweep.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numba
import numpy as np

from snakelab.core.errors import ConfigError
from snakelab.games.blind import champion
from snakelab.games.blind.champion import sweep_moves
from snakelab.games.blind.evaluate import RunTable, fast_covers
from snakelab.games.blind.strategies import D, R, letters, zigzag_lengths_array
from snakelab.games.blind.sweep import grids_of, make_chunks, read_grids, write_grids

N = 1_000_000
CAP = 12.8  # ratios above this count as uncovered (scored 99): far worse than any candidate
SWEEP_SPAN = (16, 8000)  # segments over which the sweep knots are spread (log-spaced)


def grid_set(seed: int, extra: Path | None, long_classes: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The fixed grids a candidate is scored on (see the module docstring)."""
    rng = np.random.default_rng(seed)
    small_w, small_h = grids_of(1, 10**4, 10**4)
    grids: list[tuple[int, int]] = []
    for b in range(2, 41):  # thin grids
        for a in rng.integers(10**4 // b, N // b + 1, 250).tolist():
            grids += [(a, b), (b, a)]
    for a in range(1, 13):
        for b in range(1, 13):
            if math.gcd(a, b) != 1:
                continue
            for r in (-3, -2, -1, 1, 2, 3):  # resonant rectangles a·A − b·B = r
                bmax = int(math.sqrt(N * a / b)) + 2
                for height in rng.integers(2, bmax, 400 if a * b > 1 else 1500).tolist():
                    width, rem = divmod(b * height + r, a)
                    if rem == 0 and width > 1 and 10**4 < width * height <= N:
                        grids += [(width, height), (height, width)]
            gmax = int(math.sqrt(N / (a * b)))  # multiples of a small shape: long classes
            grids += [(g * a, g * b) for g in rng.integers(2, gmax + 1, min(gmax - 1, 100)).tolist()]
    grids += [(n, n) for n in range(100, 1001)]
    grids += long_class_sample(rng, long_classes)
    ew, eh = read_grids(extra) if extra is not None else (np.zeros(0, np.int64), np.zeros(0, np.int64))
    w = np.concatenate([small_w, np.array([g[0] for g in grids], np.int64), ew])
    h = np.concatenate([small_h, np.array([g[1] for g in grids], np.int64), eh])
    return w, h


def long_class_sample(rng: np.random.Generator, count: int, min_gcd: int = 12) -> list[tuple[int, int]]:
    """``count`` grids drawn uniformly from those with gcd ≥ ``min_gcd`` and 10^5 < S ≤ 10^6.

    These are the tori of many long diagonal classes (mode 2 of ``docs/blind.md``); the
    multiples of shapes a, b ≤ 12 above miss most of them (135×6939 is 27·5 × 27·257).
    """
    if count <= 0:
        return []
    pool = [
        (g * a, g * b)
        for g in range(min_gcd, math.isqrt(N) + 1)
        for a in range(1, N // (g * g) + 1)
        for b in range(1, N // (g * g * a) + 1)
        if math.gcd(a, b) == 1 and g * g * a * b > 10**5
    ]
    picks = rng.choice(len(pool), min(count, len(pool)), replace=False)
    return [pool[i] for i in picks.tolist()]


def sweep_passes(eta_knots: np.ndarray, count: int) -> np.ndarray:
    """Passes after each segment: 1, or 2⌈η(j)·j/2⌉ + 1 after the segments 16·1.4^i."""
    passes = np.ones(count, np.int64)
    knots = np.linspace(math.log(SWEEP_SPAN[0]), math.log(SWEEP_SPAN[1]), eta_knots.size)
    nxt = float(SWEEP_SPAN[0])
    for j in range(1, count):
        if j >= nxt:
            while nxt <= j:
                nxt *= 1.4
            eta = float(np.clip(np.interp(math.log(j), knots, eta_knots), 0.0, 0.2))
            passes[j] = 2 * math.ceil(eta * j / 2) + 1
    return passes


@numba.njit(cache=True)
def _pairs(out, i, u, a, b):
    """Write u pairs a b from position i (as far as out goes); return the new position."""
    for _ in range(u):
        if i < out.shape[0]:
            out[i] = a
            i += 1
        if i < out.shape[0]:
            out[i] = b
            i += 1
    return i


@numba.njit(cache=True)
def _run(out, i, count, move):
    """Write ``count`` times ``move`` from position i (as far as out goes)."""
    for _ in range(count):
        if i < out.shape[0]:
            out[i] = move
            i += 1
    return i


@numba.njit(cache=True)
def sweeping_walk(n: int, pairs: np.ndarray, passes: np.ndarray) -> np.ndarray:
    """Segment j: ``pairs[j]`` R D pairs, then an extra R, or a sweep of ``passes[j]`` passes."""
    out = np.empty(n, np.uint8)
    i = 0
    for j in range(pairs.shape[0]):
        if i >= n:
            break
        i = _pairs(out, i, pairs[j], R, D)
        i = sweep_moves(out, i, pairs[j], passes[j]) if passes[j] > 1 else _run(out, i, 1, R)
    return out[:i]


def walk(knots: np.ndarray, sweeps: int, n: int) -> np.ndarray:
    """The candidate's first n moves: the length knots, then ``sweeps`` sweep knots."""
    if sweeps == 0:
        return zigzag_lengths_array(n, champion.scaled_lengths(knots, 0, champion.TUNED_SPAN))
    lengths = champion.scaled_lengths(knots[:-sweeps], 0, SWEEP_SPAN[1])
    pairs = np.maximum(1, np.round(lengths / 2)).astype(np.int64)
    return sweeping_walk(n, pairs, sweep_passes(knots[-sweeps:], pairs.size))


def ratios(covers: np.ndarray, w: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Cover ratios, grids not covered within the cap scored 99."""
    return np.where(covers < 0, 99.0, covers / (w * h))


class Scorer:
    """The worst exact ratio of a candidate over the grid set, on ``threads`` threads.

    The fast evaluator releases the GIL, so threads share one run table. Grids are
    scored worst-first (in the order of the last accepted candidate's ratios): once the
    first ``head`` of them exceed the bound, the candidate is rejected without the rest.
    """

    def __init__(self, w: np.ndarray, h: np.ndarray, sweeps: int, threads: int, head: int = 3000) -> None:
        self.w, self.h, self.sweeps, self.head = w, h, sweeps, head
        self.order = np.arange(w.size)
        self.pool = ThreadPoolExecutor(threads)
        self.threads = threads

    def __call__(self, knots: np.ndarray, bound: float = math.inf) -> tuple[float, tuple[int, int]]:
        """(worst ratio, grid), or a value above ``bound`` as soon as one is found."""
        table = RunTable(walk(knots, self.sweeps, int(CAP * N) + 1))
        head, rest = self.order[: self.head], self.order[self.head :]
        first = self._score(table, head)
        if first.max() > bound:
            i = int(head[int(np.argmax(first))])
            return float(first.max()), (int(self.w[i]), int(self.h[i]))
        ratio = np.empty(self.w.size)
        ratio[head] = first
        ratio[rest] = self._score(table, rest)
        i = int(np.argmax(ratio))
        if ratio[i] <= bound:
            self.order = np.argsort(-ratio, kind="stable")
        return float(ratio[i]), (int(self.w[i]), int(self.h[i]))

    def _score(self, table: RunTable, idx: np.ndarray) -> np.ndarray:
        parts = [np.arange(i, idx.size, self.threads) for i in range(self.threads)]
        out = np.empty(idx.size)

        def run(p: np.ndarray) -> np.ndarray:
            sel = idx[p]
            return fast_covers(table, self.w[sel], self.h[sel], CAP)

        for p, covers in zip(parts, self.pool.map(run, parts), strict=True):
            sel = idx[p]
            out[p] = ratios(covers, self.w[sel], self.h[sel])
        return out


def collect(knots: np.ndarray, sweeps: int, threshold: float, out: Path, threads: int) -> None:
    """Write every grid S ≤ 10^6 on which the walk's ratio is ≥ ``threshold`` (``A B`` lines).

    Exact, over all 13,970,034 grids (minutes): the ``--extra`` file for the next climb.
    """
    table = RunTable(walk(knots, sweeps, int(CAP * N) + 1))

    def run(chunk: tuple[int, int]) -> list[tuple[int, int, float]]:
        w, h = grids_of(chunk[0], chunk[1], N)
        ratio = ratios(fast_covers(table, w, h, CAP), w, h)
        keep = np.flatnonzero(ratio >= threshold)
        return [(int(w[i]), int(h[i]), float(ratio[i])) for i in keep]

    with ThreadPoolExecutor(threads) as pool:
        found = [g for part in pool.map(run, [(c.lo, c.hi) for c in make_chunks(N, 200)]) for g in part]
    found.sort(key=lambda g: -g[2])
    write_grids(out, [(a, b) for a, b, _ in found])
    top = ", ".join(f"{a}×{b} {r:.4f}" for a, b, r in found[:5])
    print(f"{len(found):,} grids ≥ {threshold} written to {out}; worst: {top}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--seed", type=int, default=1, help="seed of the perturbations")
    ap.add_argument("--set-seed", type=int, default=1, help="seed of the sampled grid families")
    ap.add_argument("--start", default="", help="comma-separated log-factors (default: all 0 = ramp-zigzag)")
    ap.add_argument("--knots", type=int, default=len(champion.TUNED_LOG_FACTORS))
    ap.add_argument("--extra", type=Path, default=None, help="file of 'A B' lines added to the set")
    ap.add_argument("--sweeps", type=int, default=0, help="knots of sweep strength η (0: no sweeps)")
    ap.add_argument("--moves-out", type=Path, default=None, help="write the best walk as a move file")
    ap.add_argument("--long-classes", type=int, default=0, help="add this many grids with gcd ≥ 12, S > 10^5")
    ap.add_argument("--threads", type=int, default=2, help="threads scoring each candidate")
    ap.add_argument("--collect", type=float, default=None, metavar="R", help="list the --start walk's grids ≥ R")
    ap.add_argument("--collect-out", type=Path, default=Path("extra.txt"), help="where --collect writes them")
    args = ap.parse_args()
    if args.long_classes < 0 or args.threads < 1:
        raise SystemExit("--long-classes must be ≥ 0 and --threads ≥ 1")
    if args.sweeps < 0:
        raise SystemExit(f"--sweeps must be 0 or more, got {args.sweeps}")
    knots = (
        np.array([float(v) for v in args.start.split(",")])
        if args.start
        else np.concatenate([np.zeros(args.knots), np.full(args.sweeps, 0.03)])
    )
    if knots.size <= args.sweeps:
        raise SystemExit(f"--start needs more than {args.sweeps} values, got {knots.size}")
    if args.collect is not None:
        collect(knots, args.sweeps, args.collect, args.collect_out, args.threads)
        return
    try:
        w, h = grid_set(args.set_seed, args.extra, args.long_classes)
    except ConfigError as err:
        raise SystemExit(str(err)) from None
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    score = Scorer(w, h, args.sweeps, args.threads)
    best, at = score(knots)
    print(f"{len(w):,} grids; start {best:.4f} at {at[0]}×{at[1]}", flush=True)
    tried = 0
    try:
        while time.perf_counter() - t0 < args.seconds:
            step = rng.normal(0.0, 0.06, knots.size) * (rng.random(knots.size) < 0.35)
            if args.sweeps:
                step[-args.sweeps :] *= 0.3  # η lives on a smaller scale than the log-factors
            value, where = score(knots + step, best)
            tried += 1
            if value <= best:
                knots, best, at = knots + step, value, where
                print(f"{best:.4f} at {at[0]}×{at[1]}  --start {','.join(f'{v:.6g}' for v in knots)}", flush=True)
    except KeyboardInterrupt:
        print("interrupted")
    print(f"{tried} candidates in {time.perf_counter() - t0:.0f} s; best {best:.4f} at {at[0]}×{at[1]}")
    print("--start " + ",".join(f"{v:.6g}" for v in knots))
    if args.moves_out is not None:
        args.moves_out.write_text(letters(walk(knots, args.sweeps, 14 * N + 1)) + "\n")
        print(f"wrote {args.moves_out}")


if __name__ == "__main__":
    main()

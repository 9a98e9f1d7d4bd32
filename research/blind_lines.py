"""Straight lines of irrational slope as blind-snake walks (``docs/blind.md``, seventh round).

A line of D-density ρ is the Sturmian word of R and D moves whose k-th move is D when
⌊(k + 1)ρ⌋ − ⌊kρ⌋ = 1: the discrete line of slope ρ/(1 − ρ). For ρ = ½ it is the seed's
zig-zag without extras. The script measures, exactly over every grid A·B ≤ ``--max-area``:

1. each line of ``--lines`` densities on its own (mean ratio, share of grids above 2, 3,
   5 and 10·S, grids left uncovered at 35·S) and, per grid, the k-th best of them;
2. the golden lines (ρ = 1/φ², 1 − 1/φ²) on the worst grids of the zig-zags at S ≤ 10^6;
3. block walks: line after line, the densities in turn, block lengths 4·r^i (each block
   a fresh line, i.e. a translate of the line from the start);
4. tilted zig-zags: ramp-zigzag's segments, segment j drawn as a line of density
   ½ ± ε (the sign alternating, so the diagonal does not drift), one extra R after each;
5. curved lines: the density itself varies, ρ(t) = ½ + a·sin(2π·ln(t + 10)/ln Λ), and
   move t is D when ⌊Σ_{s≤t} ρ(s)⌋ grows (a slope that never settles, at every scale);
6. for contrast, how tuned-zigzag's worst thin grid (46893×21) waits: its unvisited cells,
   move by move, at every half S.

    .venv/bin/python research/blind_lines.py --max-area 10000
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from numba import njit

from snakelab.games.blind import champion
from snakelab.games.blind.evaluate import RunTable, fast_covers
from snakelab.games.blind.render import first_visits
from snakelab.games.blind.strategies import D, R, make_strategy
from snakelab.games.blind.sweep import grids_of

PHI = (1 + math.sqrt(5)) / 2
CAP = 35.0
# The worst grids of tuned-zigzag and ramp-zigzag at S ≤ 10^6 and a few of their kin
# (docs/blind.md): resonant rectangles, thin grids, a square.
ZIGZAG_WORST = [
    (4779, 206),
    (288, 3415),
    (60, 1979),
    (245, 204),
    (12, 335),
    (139, 5976),
    (52, 1923),
    (685, 428),
    (16, 463),
    (19, 436),
    (46893, 21),
    (20830, 31),
    (40, 18506),
    (1000, 1000),
]


@njit(cache=True)
def sturmian_walk(n, densities, lengths, extra_r, keep_phase):  # type: ignore[no-untyped-def]
    """Blocks of Sturmian lines: block i has density densities[i] and lengths[i] moves.

    With ``extra_r`` one R follows every block; with ``keep_phase`` the word's index runs on
    across blocks (so density ½ throughout is exactly the seed's walk), else it restarts.
    """
    out = np.empty(n, np.uint8)
    i = 0
    k = 0
    for b in range(lengths.shape[0]):
        rho = densities[b]
        if not keep_phase:
            k = 0
        for _ in range(lengths[b]):
            if i == n:
                return out
            out[i] = D if math.floor((k + 1) * rho) - math.floor(k * rho) == 1 else R
            i += 1
            k += 1
        if extra_r and i < n:
            out[i] = R
            i += 1
    return out[:i]


@njit(cache=True)
def curved_line(n, amplitude, period, d_code, r_code):  # type: ignore[no-untyped-def]
    """A line whose density oscillates log-periodically: ½ + amplitude·sin(2π·ln(t + 10)/ln period)."""
    out = np.empty(n, np.uint8)
    acc = 0.0
    count = 0
    omega = 2 * math.pi / math.log(period)
    for t in range(n):
        acc += 0.5 + amplitude * math.sin(omega * math.log(t + 10.0))
        if math.floor(acc) > count:
            out[t] = d_code
            count += 1
        else:
            out[t] = r_code
    return out


def ratios(moves: np.ndarray, w: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Exact cover ratios, +inf where not covered within CAP·S."""
    covers = fast_covers(RunTable(moves), w, h, CAP)
    return np.where(covers < 0, np.inf, covers / (w * h))


def worst(r: np.ndarray, w: np.ndarray, h: np.ndarray) -> str:
    i = int(np.argmax(r))
    lost = int(np.isinf(r).sum())
    return f"{r[i]:.2f} ({w[i]}×{h[i]})" if not lost else f"{lost} grids uncovered (e.g. {w[i]}×{h[i]})"


def line(n: int, rho: float) -> np.ndarray:
    return sturmian_walk(n, np.array([rho]), np.array([n], np.int64), False, False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-area", type=int, default=10_000)
    ap.add_argument("--lines", type=int, default=8, help="densities 0.35 + 0.3·{0.31 + iφ⁻¹}, i < LINES")
    ap.add_argument("--ratios", type=float, nargs="*", default=[1.3, 1.6, 2.0, 3.0], help="block growth ratios")
    ap.add_argument("--tilts", type=float, nargs="*", default=[0.0, 0.005, 0.01, 0.02, 0.05, 0.1])
    ap.add_argument("--amplitudes", type=float, nargs="*", default=[0.05, 0.1, 0.2], help="curved lines' a")
    ap.add_argument("--periods", type=float, nargs="*", default=[2.0, 16.0, 256.0], help="curved lines' Λ")
    args = ap.parse_args()
    n_max = args.max_area
    n = int(CAP * n_max) + 1
    w, h = grids_of(1, n_max, n_max)
    rhos = [0.35 + 0.3 * ((0.31 + i / PHI) % 1) for i in range(args.lines)]

    print(f"1. single lines, {len(w):,} grids S ≤ {n_max:,}")
    print("   density | mean | >2·S | >3·S | >5·S | >10·S | worst")
    per_line = []
    for rho in rhos:
        t = time.perf_counter()
        r = ratios(line(n, rho), w, h)
        per_line.append(r)
        fin = r[np.isfinite(r)]
        shares = " | ".join(f"{(r > c).mean():.1%}" for c in (2, 3, 5, 10))
        print(f"   {rho:.4f} | {fin.mean():.2f} | {shares} | {worst(r, w, h)}  [{time.perf_counter() - t:.1f} s]")
    ranked = np.sort(np.array(per_line), axis=0)
    for k in range(1, min(4, len(rhos)) + 1):
        print(f"   k-th best line per grid, k = {k}: worst {worst(ranked[k - 1], w, h)}")

    print("2. the golden lines on the zig-zags' worst grids (ratio per grid)")
    zw = np.array([a for a, _ in ZIGZAG_WORST], np.int64)
    zh = np.array([b for _, b in ZIGZAG_WORST], np.int64)
    big = int(CAP * int((zw * zh).max())) + 1
    for rho in (1 / PHI**2, 1 - 1 / PHI**2):
        r = ratios(line(big, rho), zw, zh)
        print(f"   ρ = {rho:.3f}: " + ", ".join(f"{a}×{b} {x:.2f}" for a, b, x in zip(zw, zh, r, strict=True)))

    print(f"3. block walks over the {len(rhos)} densities, block i of 4·r^i moves")
    for ratio in args.ratios:
        count = math.ceil(math.log(n / 4) / math.log(ratio)) + 2
        lengths = np.maximum(1, np.round(4 * ratio ** np.arange(count))).astype(np.int64)
        lengths = lengths[: int(np.searchsorted(np.cumsum(lengths), n)) + 1]
        dens = np.array([rhos[i % len(rhos)] for i in range(len(lengths))])
        r = ratios(sturmian_walk(n, dens, lengths, False, False), w, h)
        print(f"   r = {ratio}: mean {r[np.isfinite(r)].mean():.2f}, worst {worst(r, w, h)}")

    print("4. tilted zig-zags (ramp-zigzag's segments at density ½ ± ε)")
    segs = champion.ramp_lengths(100_000)
    segs = segs[: int(np.searchsorted(np.cumsum(segs + 1), n)) + 1].astype(np.int64)
    for eps in args.tilts:
        dens = 0.5 + eps * np.where(np.arange(len(segs)) % 2 == 0, 1.0, -1.0)
        r = ratios(sturmian_walk(n, dens, segs, True, True), w, h)
        print(f"   ε = {eps}: worst {worst(r, w, h)}")

    print("5. curved lines, density ½ + a·sin(2π·ln(t + 10)/ln Λ)")
    for amplitude in args.amplitudes:
        cells = []
        for period in args.periods:
            r = ratios(curved_line(n, amplitude, period, D, R), w, h)
            cells.append(f"Λ = {period:g}: mean {r[np.isfinite(r)].mean():.2f}, worst {worst(r, w, h)}")
        print(f"   a = {amplitude}: " + "; ".join(cells))

    a, b = 46893, 21
    print(f"6. tuned-zigzag on {a}×{b}: unvisited cells at k·S/2")
    first = first_visits(make_strategy("tuned-zigzag"), a, b, 12 * a * b).ravel()
    marks = np.arange(1, 25) * (a * b // 2)
    left = a * b - np.searchsorted(np.sort(first[first >= 0]), marks, side="right")
    print("   " + ", ".join(f"{k / 2:g}: {n:,}" for k, n in zip(range(1, 25), left.tolist(), strict=True)))


if __name__ == "__main__":
    main()

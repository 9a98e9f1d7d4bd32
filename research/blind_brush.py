"""Two ways round the zig-zag's turn that lose (``docs/blind.md``, tenth round).

``band``: a brush W diagonals wide. Up-strokes R U R U … and down-strokes D L D L … of
W − 1 moves cover every lifted cell of W diagonals at two values of t; the move between
strokes is R at the top and D at the bottom (the band stays put) except after every
m_j = round(1 + q·j) stroke pairs, when the bottom one is R too (the band drifts by two
diagonals). Exact worst ratios with the reference simulator over every grid S ≤ N.

``dips``: ramp-zigzag with D extra segments of f times the current length inserted every
⌈c·√j⌉ segments from segment 8; exact worst ratios with the fast evaluator.

    .venv/bin/python research/blind_brush.py band --max-area 10000
    .venv/bin/python research/blind_brush.py dips --max-area 10000
"""

from __future__ import annotations

import argparse
import itertools
import math

import numba
import numpy as np

from snakelab.games.blind import champion
from snakelab.games.blind.evaluate import RunTable, fast_covers, reference_covers
from snakelab.games.blind.strategies import D, L, Moves, R, U, zigzag_lengths_array
from snakelab.games.blind.sweep import grids_of

CAP = 20.0


@numba.njit(cache=True)
def band_walk(n: int, width: int, drift_after: np.ndarray) -> Moves:
    """The first n moves of the band walk (see the module docstring)."""
    out = np.empty(n, np.uint8)
    i = 0
    j = 0
    count = 0
    while i < n:
        for s in range(width - 1):
            if i < n:
                out[i] = R if s % 2 == 0 else U
                i += 1
        if i < n:
            out[i] = R
            i += 1
        for s in range(width - 1):
            if i < n:
                out[i] = D if s % 2 == 0 else L
                i += 1
        if i >= n:
            break
        count += 1
        if count >= drift_after[j]:
            out[i] = R
            count = 0
            j += 1
        else:
            out[i] = D
        i += 1
    return out


def dipped(base: np.ndarray, c: float, dips: int, f: float) -> np.ndarray:
    """Segment lengths ``base`` with ``dips`` segments of f·w after every ⌈c·√j⌉-th segment."""
    out: list[int] = []
    nxt = 8
    for j, w in enumerate(base.tolist()):
        out.append(w)
        if j >= nxt:
            out += [max(1, round(f * w))] * dips
            nxt = j + max(1, math.ceil(c * math.sqrt(j)))
    return np.array(out, np.int64)


def report(label: str, covers: np.ndarray, w: np.ndarray, h: np.ndarray) -> None:
    """Print the worst ratio (uncovered grids count as 99), where, and the mean."""
    ratio = np.where(covers < 0, 99.0, covers / (w * h))
    i = int(np.argmax(ratio))
    mean = float(ratio[ratio < 99].mean())
    print(f"{label}: worst {ratio[i]:.2f} ({w[i]}×{h[i]}), mean {mean:.2f}, uncovered {(covers < 0).sum()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["band", "dips"])
    ap.add_argument("--max-area", type=int, default=10_000)
    args = ap.parse_args()
    if args.max_area < 1:
        raise SystemExit(f"--max-area must be ≥ 1, got {args.max_area}")
    n = args.max_area
    w, h = grids_of(1, n, n)
    length = int(CAP * n) + 10
    if args.what == "band":
        for width, q in itertools.product([4, 6], [0.15, 0.25, 0.5, 0.75]):
            drift = np.maximum(1, np.round(1 + q * np.arange(200_000))).astype(np.int64)
            report(f"W={width} q={q}", reference_covers(band_walk(length, width, drift), w, h, CAP), w, h)
        return
    base = champion.ramp_lengths(20_000)
    report("ramp-zigzag", fast_covers(RunTable(zigzag_lengths_array(length, base)), w, h, CAP), w, h)
    for c, dips, f in itertools.product([0.5, 1, 2, 4], [1, 2, 3], [0.3, 0.5, 0.7]):
        moves = zigzag_lengths_array(length, dipped(base, c, dips, f))
        report(f"c={c} D={dips} f={f}", fast_covers(RunTable(moves), w, h, CAP), w, h)


if __name__ == "__main__":
    main()

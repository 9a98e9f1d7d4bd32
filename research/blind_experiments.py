"""The seed's experiments: its test set, evaluation on it, and its four plots.

Run from the project root with the project's environment::

    .venv/bin/python research/blind_experiments.py generate --out tests.csv [--seed 0]
    .venv/bin/python research/blind_experiments.py run --strategy "dynamic-zigzag(k=11)" --tests tests.csv
    .venv/bin/python research/blind_experiments.py plot --out-dir docs   # the four PNGs of docs/blind.md

* :func:`generate_tests` — intervals of S of width 20,000 from 1 to 10^6; per interval
  ``(1, end)``, ``(⌊√end⌋, ⌊√end⌋)``, the special pairs ``(n, n²)`` (n = 5, 10, …) with
  n³ in the interval, then random divisor pairs ``(A, end/A)`` of the interval's end,
  10 rows per interval (a random 10 when there are more). CSV columns ``A, B, S_interval``.
* :func:`run_tests` — exact cover times of a strategy on a test set (capped at 35·S,
  as the seed's engine capped at 35 million moves).
* :func:`make_plots` — the four figures as PNG files (matplotlib, headless).
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from snakelab.core.errors import CodecError, ConfigError
from snakelab.core.rng import rng_for
from snakelab.games.blind.evaluate import RunTable, fast_covers
from snakelab.games.blind.strategies import DynamicZigzag, Strategy, make_strategy

S_MAX = 1_000_000
INTERVAL = 20_000
PER_INTERVAL = 10
CAP_RATIO = 35.0
SEED_MOVES = 35_000_000
"""Length of the seed's move files (the cap of its engine)."""


@dataclass(frozen=True)
class TestCase:
    """One row of a test set: a grid and the interval of S it stands for."""

    width: int
    height: int
    interval: str

    @property
    def area(self) -> int:
        """S = A·B."""
        return self.width * self.height

    @property
    def interval_end(self) -> int:
        """The upper end of the row's interval."""
        return int(self.interval.split("-")[1])


def generate_tests(
    seed: int = 0, s_max: int = S_MAX, interval: int = INTERVAL, per_interval: int = PER_INTERVAL
) -> list[TestCase]:
    """The seed's test set (see the module docstring); the same seed gives the same set."""
    if s_max < 2 or interval < 1 or per_interval < 2:
        raise ConfigError("the test set needs s_max ≥ 2, interval ≥ 1 and at least 2 rows per interval")
    rows: list[TestCase] = []
    n_special = 5
    starts = list(range(1, s_max + 1, interval))
    for i, start in enumerate(starts):
        end = min(start + interval - 1, s_max)
        label = f"{start}-{end}"
        root = math.isqrt(end)
        pairs: list[tuple[int, int]] = [(1, end), (root, root)]
        while n_special**3 <= end:
            if n_special**3 > start - 1:
                pairs.append((n_special, n_special * n_special))
            n_special += 5
        divisors = sorted({d for a in range(2, root + 1) if end % a == 0 for d in (a, end // a)} - {root, end})
        rng = rng_for(seed, "tests", i)
        rng.shuffle(divisors)
        for a in divisors:
            if len(pairs) >= per_interval:
                break
            pairs.append((a, end // a))
        if len(pairs) > per_interval:
            pairs = rng.sample(pairs, per_interval)
        rows.extend(TestCase(a, b, label) for a, b in pairs)
    return rows


def write_tests(path: str | Path, rows: list[TestCase]) -> None:
    """Write a test set as CSV (``A,B,S_interval``)."""
    with Path(path).open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["A", "B", "S_interval"])
        for r in rows:
            w.writerow([r.width, r.height, r.interval])


def read_tests(path: str | Path) -> list[TestCase]:
    """Read a test set written by :func:`write_tests` (or the seed's ``tests.csv``).

    Raises:
        CodecError: naming the line of a malformed row.
    """
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as exc:
        raise CodecError(f"cannot read test set {p}: {exc.strerror or exc}") from None
    rows: list[TestCase] = []
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if header is None or [h.strip() for h in header[:3]] != ["A", "B", "S_interval"]:
        raise CodecError(f"{p}: line 1 must be the header A,B,S_interval")
    for lineno, rec in enumerate(reader, start=2):
        if not rec:
            continue
        try:
            a, b, label = int(rec[0]), int(rec[1]), rec[2].strip()
            lo, hi = (int(v) for v in label.split("-"))
        except (ValueError, IndexError):
            raise CodecError(f"{p}: line {lineno}: expected A,B,start-end, got {','.join(rec)!r}") from None
        if a < 1 or b < 1 or lo > hi:
            raise CodecError(f"{p}: line {lineno}: {a}×{b} in {label} is not a grid in an interval")
        rows.append(TestCase(a, b, label))
    return rows


def run_tests(strategy: Strategy, rows: list[TestCase], cap_ratio: float = CAP_RATIO) -> np.ndarray:
    """Exact cover times on a test set; grids not covered within the cap get the cap (the seed's rule)."""
    if not rows:
        return np.zeros(0, np.int64)
    w = np.array([r.width for r in rows], np.int64)
    h = np.array([r.height for r in rows], np.int64)
    table = RunTable(strategy.moves_array(int(cap_ratio * int((w * h).max())) + 1))
    covers = fast_covers(table, w, h, cap_ratio)
    caps = (cap_ratio * w * h).astype(np.int64)
    return np.where(covers >= 0, covers, caps)


def per_interval(rows: list[TestCase], moves: np.ndarray) -> tuple[list[int], list[float], list[float]]:
    """Interval ends, and the max and mean moves per interval, in order."""
    ends: list[int] = []
    groups: dict[int, list[int]] = {}
    for r, m in zip(rows, moves.tolist(), strict=True):
        if r.interval_end not in groups:
            ends.append(r.interval_end)
            groups[r.interval_end] = []
        groups[r.interval_end].append(m)
    return ends, [max(groups[e]) for e in ends], [sum(groups[e]) / len(groups[e]) for e in ends]


def extra_steps(k: int, moves: int = SEED_MOVES) -> int:
    """How many extra R moves the dynamic zig-zag makes within its first ``moves`` moves."""
    used = 0
    j = 0
    while True:
        used += 1 + j * k  # the segment
        if used >= moves:
            return j
        used += 1  # the extra R
        j += 1


def make_plots(
    out_dir: str | Path,
    rows: list[TestCase],
    *,
    strategies: tuple[str, ...] = ("spiral", "zigzag", "dynamic-zigzag(k=11)", "champion"),
    ks: tuple[int, ...] = tuple(range(1, 51)),
    pair: tuple[int, int] = (11, 20),
    square: int = 1000,
    on_step: object = None,
) -> list[Path]:
    """Draw the seed's four figures into ``out_dir`` and return the PNG paths.

    1. ``blind_intervals.png`` — per interval, the max and mean moves of each strategy
       against 35·S (S the interval's end).
    2. ``blind_extra_steps.png`` — extra steps of the dynamic zig-zag within 35 M moves, by k.
    3. ``blind_max_by_k.png`` — max moves over the test set as a function of k, beside
       the largest square (``square``×``square``, 1000 for S ≤ 10^6).
    4. ``blind_k_pair.png`` — max and mean per interval for two k values side by side.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tick = on_step if callable(on_step) else (lambda: None)
    paths: list[Path] = []

    # 1. Per-interval max and mean against 35·S.
    fig, axes = plt.subplots(2, 2, figsize=(12, 8), sharex=True)
    for ax, spec in zip(axes.flat, strategies, strict=False):
        strat = make_strategy(spec)
        ends, mx, mean = per_interval(rows, run_tests(strat, rows))
        ax.plot(ends, mx, "o-", ms=3, label="max moves")
        ax.plot(ends, mean, "s-", ms=3, label="mean moves")
        ax.plot(ends, [CAP_RATIO * e for e in ends], "--", color="red", label="35·S")
        ax.set_title(strat.spec)
        ax.set_xlabel("S (interval end)")
        ax.set_ylabel("moves")
        ax.legend(fontsize=8)
        tick()
    fig.suptitle("Moves to cover every cell, per interval of S (seed test set)")
    fig.tight_layout()
    paths.append(out / "blind_intervals.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    # 2. Frequency of extra steps by k.
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar(list(ks), [extra_steps(k) for k in ks])
    ax.set_xlabel("k")
    ax.set_ylabel("extra R moves in 35,000,000 moves")
    ax.set_title("dynamic-zigzag: extra steps by k")
    fig.tight_layout()
    paths.append(out / "blind_extra_steps.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    tick()

    # 3. Max over the test set as a function of k, beside the largest square.
    w = np.array([r.width for r in rows] + [square], np.int64)
    h = np.array([r.height for r in rows] + [square], np.int64)
    length = int(CAP_RATIO * int((w * h).max())) + 1
    worst, on_square = [], []
    for k in ks:
        table = RunTable(DynamicZigzag(k).moves_array(length))
        covers = fast_covers(table, w, h, CAP_RATIO)
        covers = np.where(covers >= 0, covers, (CAP_RATIO * w * h).astype(np.int64))
        worst.append(int(covers[:-1].max()))
        on_square.append(int(covers[-1]))
        tick()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    ax1.plot(ks, worst, "o-", ms=3)
    ax1.set_title("max moves over the test set")
    ax2.plot(ks, on_square, "o-", ms=3, color="tab:orange")
    ax2.set_title(f"moves on the largest square, {square}×{square}")
    for ax in (ax1, ax2):
        ax.set_xlabel("k")
        ax.set_ylabel("moves")
    fig.suptitle("dynamic-zigzag as a function of k")
    fig.tight_layout()
    paths.append(out / "blind_max_by_k.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    # 4. Two k values side by side.
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for ax, k in zip(axes, pair, strict=True):
        ends, mx, mean = per_interval(rows, run_tests(DynamicZigzag(k), rows))
        top = max(m / e for m, e in zip(mx, ends, strict=True))
        ax.plot(ends, mx, "o-", ms=3, label="max moves")
        ax.plot(ends, mean, "s-", ms=3, label="mean moves")
        line = int(top) + 1
        ax.plot(ends, [line * e for e in ends], "--", color="goldenrod", label=f"{line}·S")
        ax.set_title(f"dynamic-zigzag k={k}")
        ax.set_xlabel("S (interval end)")
        ax.legend(fontsize=8)
        tick()
    axes[0].set_ylabel("moves")
    fig.tight_layout()
    paths.append(out / "blind_k_pair.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    return paths


def main(argv: list[str] | None = None) -> None:
    """The three steps of the seed's experiments from the command line (see the module docstring)."""
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = ap.add_subparsers(dest="verb", required=True)
    gen = sub.add_parser("generate", help="write the seed's test set (CSV: A,B,S_interval)")
    gen.add_argument("--out", "-o", type=Path, default=Path("tests.csv"))
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--s-max", type=int, default=S_MAX)
    run = sub.add_parser("run", help="exact moves of a strategy on a test set, per interval")
    run.add_argument("--strategy", "-s", default="dynamic-zigzag(k=11)")
    run.add_argument("--tests", "-t", type=Path, default=Path("tests.csv"))
    plot = sub.add_parser("plot", help="draw the four figures as PNG")
    plot.add_argument("--out-dir", "-o", type=Path, default=Path("docs"))
    plot.add_argument("--tests", "-t", type=Path, default=None, help="test set CSV (default: generate with --seed)")
    plot.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.verb == "generate":
        rows = generate_tests(args.seed, args.s_max)
        write_tests(args.out, rows)
        print(f"wrote {len(rows)} grids in {len({r.interval for r in rows})} intervals to {args.out}")
    elif args.verb == "run":
        strat = make_strategy(args.strategy)
        rows = read_tests(args.tests)
        moves = run_tests(strat, rows)
        ends, mx, mean = per_interval(rows, moves)
        print("| interval end | max moves | mean moves | max / end |\n|---:|---:|---:|---:|")
        for e, a, b in zip(ends, mx, mean, strict=True):
            print(f"| {e:,} | {a:,} | {b:,.0f} | {a / e:.3f} |")
    else:
        rows = read_tests(args.tests) if args.tests is not None else generate_tests(args.seed)
        for path in make_plots(args.out_dir, rows, on_step=lambda: print(".", end="", flush=True)):
            print(f"\nwrote {path}", end="")
        print()


if __name__ == "__main__":
    main()

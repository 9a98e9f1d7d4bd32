"""The exhaustive sweep: exact cover ratios of a strategy on every grid A·B ≤ N.

The grids are split into chunks of consecutive widths A of about equal work (the
work of one width is about N²/(2A) bit operations, so small widths get chunks of
their own). Chunks are independent tasks (:func:`sweep_chunk`) that :func:`run_sweep`
hands to a *chunk map*: in this process by default, or the harness's parallel map
(``harness.parallel.mapper``: local processes or Dask) when the caller passes
it; this module knows nothing of processes. Each finished chunk is appended to a
checkpoint file at once, so an interrupted sweep resumes where it stopped and never
loses finished work. Chunk results are small
mergeable summaries: counts, sums, the worst grids, a ratio histogram, the
maximum per band of S and a ratio map (the maximum per cell of a log-log grid of A
and B, which shows at a glance where a strategy is weak).

Why one module over 400 lines: the chunking, the chunk task, the checkpoint and the
merged report are one resumable computation.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from snakelab.core.errors import ConfigError, SnakelabError
from snakelab.games.blind.evaluate import RunTable, check_grid, fast_covers
from snakelab.games.blind.strategies import make_strategy

SweepTask = tuple[str, int, float, int, int]
"""One chunk's work: ``(strategy spec, N, cap ratio, lowest width, highest width)``."""

ChunkMap = Callable[[Callable[[SweepTask], dict[str, Any]], list[SweepTask]], Iterable[tuple[int, dict[str, Any]]]]
"""Applies the chunk function to every task, yielding ``(position, summary)`` as each
finishes, in any order; the harness's ``parallel.mapper(executor, jobs=...)`` makes one."""

CHECKPOINT_VERSION = 2
"""Version 2 added the ratio map to the chunk summaries."""
TOP = 30
"""Worst grids kept in a summary."""
BANDS_PER_DECADE = 4
"""Bands of S are ``[10^(i/4), 10^((i+1)/4))``."""
HIST_STEP = 0.25
"""Width of the ratio histogram bins."""
MAP_PER_DECADE = 8
"""Cells of the ratio map are ``10^(i/8) ≤ A < 10^((i+1)/8)`` by the same for B."""


def count_grids(max_area: int) -> int:
    """Number of ordered pairs (A, B) with A·B ≤ max_area."""
    return sum(max_area // a for a in range(1, max_area + 1))


def moves_needed(max_area: int, cap_ratio: float) -> int:
    """Moves a sweep needs: enough for the largest grid at the cap."""
    return math.floor(cap_ratio * max_area) + 1


@dataclass(frozen=True)
class Chunk:
    """Widths ``lo..hi`` (inclusive) of a sweep, each with every height ≤ N/A."""

    index: int
    lo: int
    hi: int


def make_chunks(max_area: int, target: int = 0) -> list[Chunk]:
    """Split widths 1..N into about ``target`` chunks of equal estimated work.

    Args:
        max_area: N.
        target: Number of chunks wanted (0: a default that grows with N).
    """
    if target <= 0:
        target = max(1, min(400, max_area // 2500 + 8))
    weights = [0.0] * (max_area + 1)
    for a in range(1, max_area + 1):
        f = max_area // a
        # Bit work grows with the area of the grids, plus a fixed cost per grid.
        weights[a] = a * f * (f + 1) / 128 + 400 * f
    total = sum(weights)
    chunks: list[Chunk] = []
    lo, acc = 1, 0.0
    for a in range(1, max_area + 1):
        acc += weights[a]
        if acc >= total / target or a == max_area:
            chunks.append(Chunk(len(chunks), lo, a))
            lo, acc = a + 1, 0.0
    return chunks


_TABLES: dict[tuple[str, int], RunTable] = {}


def _table(spec: str, length: int) -> RunTable:
    """The run table of a strategy, built once per process."""
    key = (spec, length)
    if key not in _TABLES:
        _TABLES.clear()
        _TABLES[key] = RunTable(make_strategy(spec).moves_array(length))
    return _TABLES[key]


def grids_of(lo: int, hi: int, max_area: int) -> tuple[np.ndarray, np.ndarray]:
    """Widths and heights of every grid with lo ≤ A ≤ hi and A·B ≤ max_area."""
    widths = np.arange(lo, hi + 1, dtype=np.int64)
    counts = max_area // widths
    w = np.repeat(widths, counts)
    starts = np.cumsum(counts) - counts
    h = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(starts, counts) + 1
    return w, h


def write_grids(path: Path, grids: Iterable[tuple[int, int]]) -> None:
    """Write grids as a text file of ``A B`` lines (the format :func:`read_grids` reads)."""
    path.write_text("".join(f"{a} {b}\n" for a, b in grids))


def read_grids(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Widths and heights from a text file of ``A B`` lines; blank lines and ``#`` comments are skipped.

    Raises:
        ConfigError: naming the file and line of anything that is not two positive integers.
    """
    widths: list[int] = []
    heights: list[int] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        try:
            a, b = map(int, fields)  # a wrong field count is a ValueError too
        except ValueError:
            raise ConfigError(f"{path}:{number}: expected 'A B' (two integers), got {line.strip()!r}") from None
        try:
            check_grid(a, b)
        except ConfigError as err:
            raise ConfigError(f"{path}:{number}: {err}") from None
        widths.append(a)
        heights.append(b)
    return np.array(widths, np.int64), np.array(heights, np.int64)


def summarise(widths: np.ndarray, heights: np.ndarray, covers: np.ndarray) -> dict[str, Any]:
    """The mergeable summary of some grids' cover times (see :func:`merge`)."""
    size = widths * heights
    ok = covers >= 0
    ratio = np.where(ok, covers / size, np.nan)
    r_ok = ratio[ok]
    out: dict[str, Any] = {
        "grids": int(size.size),
        "covered": int(ok.sum()),
        "sum_ratio": float(r_ok.sum()),
        "sum_cover": int(covers[ok].sum()),
        "sum_area": int(size[ok].sum()),
        "uncovered_examples": [[int(a), int(b)] for a, b in zip(widths[~ok][:TOP], heights[~ok][:TOP], strict=True)],
    }
    order = np.argsort(-np.where(ok, ratio, -1.0), kind="stable")[:TOP]
    out["top"] = [[float(ratio[i]), int(widths[i]), int(heights[i]), int(covers[i])] for i in order if ok[i]]
    bins = np.floor(r_ok / HIST_STEP).astype(np.int64)
    hist = np.bincount(bins) if bins.size else np.zeros(0, np.int64)
    out["hist"] = {str(i): int(c) for i, c in enumerate(hist) if c}
    band = _log_bin(size, BANDS_PER_DECADE)
    bands: dict[str, list[Any]] = {}
    for bi in np.unique(band):
        sel = band == bi
        sel_ok = sel & ok
        entry: list[Any] = [int(sel.sum()), int(sel_ok.sum()), 0.0, None, 0.0, 0]
        if sel_ok.any():
            rs = np.where(sel_ok, ratio, -1.0)
            j = int(np.argmax(rs))
            entry = [
                int(sel.sum()),
                int(sel_ok.sum()),
                float(rs[j]),
                [int(widths[j]), int(heights[j])],
                float(ratio[sel_ok].sum()),
                int((ratio[sel_ok] > 10).sum()),
            ]
        bands[str(int(bi))] = entry
    out["bands"] = bands
    out["map"] = _ratio_map(widths, heights, np.where(ok, ratio, -1.0))
    return out


def _log_bin(values: np.ndarray, per_decade: int) -> np.ndarray:
    # The epsilon keeps exact powers of ten in their own bin despite rounding in log10.
    return np.floor(per_decade * np.log10(values) + 1e-9).astype(np.int64)


def _ratio_map(widths: np.ndarray, heights: np.ndarray, ratio: np.ndarray) -> dict[str, list[Any]]:
    """Per cell ``"i,j"`` of the log-log map: [grids, max ratio (−1: none covered), uncovered]."""
    # One integer per cell for np.unique: bin indices stay far below 1024 (8 per decade).
    cell = _log_bin(widths, MAP_PER_DECADE) * 1024 + _log_bin(heights, MAP_PER_DECADE)
    keys, inverse, counts = np.unique(cell, return_inverse=True, return_counts=True)
    best = np.full(keys.size, -1.0)
    np.maximum.at(best, inverse, ratio)
    lost = np.bincount(inverse, weights=(ratio < 0), minlength=keys.size)
    return {
        f"{k // 1024},{k % 1024}": [int(c), float(m), int(u)]
        for k, c, m, u in zip(keys.tolist(), counts.tolist(), best.tolist(), lost.tolist(), strict=True)
    }


def merge(parts: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Merge chunk summaries into one."""
    total: dict[str, Any] = {
        "grids": 0,
        "covered": 0,
        "sum_ratio": 0.0,
        "sum_cover": 0,
        "sum_area": 0,
        "uncovered_examples": [],
        "top": [],
        "hist": {},
        "bands": {},
        "map": {},
    }
    for p in parts:
        for key in ("grids", "covered", "sum_ratio", "sum_cover", "sum_area"):
            total[key] += p[key]
        total["uncovered_examples"] = (total["uncovered_examples"] + p["uncovered_examples"])[:TOP]
        total["top"] = sorted(total["top"] + p["top"], key=lambda t: (-t[0], t[1], t[2]))[:TOP]
        for k, c in p["hist"].items():
            total["hist"][k] = total["hist"].get(k, 0) + c
        for k, e in p["bands"].items():
            cur = total["bands"].get(k)
            if cur is None:
                total["bands"][k] = list(e)
                continue
            better = e[2] > cur[2] or (e[2] == cur[2] and cur[3] is None)
            total["bands"][k] = [
                cur[0] + e[0],
                cur[1] + e[1],
                e[2] if better else cur[2],
                e[3] if better else cur[3],
                cur[4] + e[4],
                cur[5] + e[5],
            ]
        for k, e in p["map"].items():
            cur = total["map"].get(k)
            total["map"][k] = list(e) if cur is None else [cur[0] + e[0], max(cur[1], e[1]), cur[2] + e[2]]
    return total


def chunk_covers(task: SweepTask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Widths, heights and cover times (−1: not within the cap) of one chunk's grids.

    ``task`` is ``(spec, N, cap_ratio, lo, hi)``; the strategy's run table is built once
    per process.
    """
    spec, max_area, cap_ratio, lo, hi = task
    table = _table(spec, moves_needed(max_area, cap_ratio))
    w, h = grids_of(lo, hi, max_area)
    return w, h, fast_covers(table, w, h, cap_ratio)


def sweep_chunk(task: SweepTask) -> dict[str, Any]:
    """Evaluate one chunk (runs in a worker process): ``(spec, N, cap_ratio, lo, hi)``."""
    return summarise(*chunk_covers(task))


def map_in_process(
    fn: Callable[[SweepTask], dict[str, Any]], tasks: list[SweepTask]
) -> Iterable[tuple[int, dict[str, Any]]]:
    """The default chunk map: every chunk in this process, in order."""
    for i, task in enumerate(tasks):
        yield i, fn(task)


def default_checkpoint(spec: str, max_area: int, cap_ratio: float) -> Path:
    """Where a sweep keeps its finished chunks unless told otherwise."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "snakelab" / "blind"
    key = hashlib.blake2b(f"{spec}|{max_area}|{cap_ratio}|{CHECKPOINT_VERSION}".encode(), digest_size=6).hexdigest()
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in spec)
    return base / f"sweep-{safe}-{max_area}-{key}.jsonl"


def _read_checkpoint(path: Path, header: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Finished chunks of a checkpoint for this very sweep (a torn last line is ignored)."""
    if not path.exists():
        return {}
    done: dict[int, dict[str, Any]] = {}
    with path.open() as fh:
        lines = fh.read().splitlines()
    if not lines:
        return {}
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError:
        raise SnakelabError(f"checkpoint {path} is not a sweep checkpoint; delete it or choose another") from None
    if not isinstance(head, dict) or head.get("kind") != "blind-sweep":
        raise SnakelabError(f"checkpoint {path} is not a sweep checkpoint; delete it or choose another")
    if head.get("version") != header["version"]:
        raise SnakelabError(
            f"checkpoint {path} was written by another version of snakelab; delete it or start afresh (--fresh)"
        )
    if head != header:
        raise SnakelabError(
            f"checkpoint {path} belongs to another sweep ({head.get('strategy')}, N={head.get('max_area')}); "
            "delete it or choose another --checkpoint"
        )
    for line in lines[1:]:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line torn by an interrupt: that chunk is simply done again
        done[int(obj["chunk"])] = obj["result"]
    return done


def finalise(spec: str, max_area: int, cap_ratio: float, total: dict[str, Any]) -> dict[str, Any]:
    """The report of a finished sweep (the ``--json`` object plus details)."""
    top = total["top"]
    covered = total["covered"]
    uncovered = total["grids"] - covered
    worst = top[0] if top else None
    bands = []
    for k in sorted(total["bands"], key=int):
        e = total["bands"][k]
        bands.append(
            {
                "band": f"{int(k) / BANDS_PER_DECADE:.2f}",
                "s_from": math.ceil(10 ** (int(k) / BANDS_PER_DECADE) - 1e-9),
                "grids": e[0],
                "max_ratio": e[2] if e[1] else None,
                "at": e[3],
                "mean_ratio": e[4] / e[1] if e[1] else None,
                "over_10": e[5],
            }
        )
    hist = {f"{int(k) * HIST_STEP:.2f}": v for k, v in sorted(total["hist"].items(), key=lambda kv: int(kv[0]))}
    return {
        "strategy": spec,
        "max_area": max_area,
        "grids": total["grids"],
        # Uncovered grids exceed the cap, so the worst ratio is then only a lower bound.
        "worst_ratio": round(worst[0], 6) if worst and uncovered == 0 else None,
        "worst_grid": [worst[1], worst[2]] if worst and uncovered == 0 else None,
        "mean_ratio": total["sum_ratio"] / covered if covered else None,
        "weighted_mean_ratio": total["sum_cover"] / total["sum_area"] if total["sum_area"] else None,
        "cap_ratio": cap_ratio,
        "uncovered": uncovered,
        "uncovered_examples": total["uncovered_examples"],
        "worst_cover": worst[3] if worst else None,
        "worst_covered_ratio": worst[0] if worst else None,
        "top": [{"grid": [t[1], t[2]], "ratio": t[0], "cover": t[3]} for t in top],
        "bands": bands,
        "histogram": hist,
        "ratio_map": {
            "per_decade": MAP_PER_DECADE,
            # [i, j, grids, max ratio or None, uncovered]: widths 10^(i/per_decade) ≤ A < 10^((i+1)/per_decade),
            # heights likewise with j.
            "cells": [
                [*map(int, k.split(",")), e[0], e[1] if e[1] >= 0 else None, e[2]]
                for k, e in sorted(total["map"].items(), key=lambda kv: tuple(map(int, kv[0].split(","))))
            ],
        },
    }


def check_options(max_area: int, cap_ratio: float, chunks: int, jobs: int = 0) -> None:
    """Validate a sweep's numbers before any work (``jobs`` 0 means every core).

    Raises:
        ConfigError: naming the first option that is out of range.
    """
    if max_area < 1:
        raise ConfigError(f"--max-area must be ≥ 1, got {max_area}")
    if not cap_ratio > 0:
        raise ConfigError(f"the cap ratio must be > 0, got {cap_ratio}")
    if chunks < 0:
        raise ConfigError(f"--chunks must be ≥ 0 (0: the default), got {chunks}")
    if jobs < 0:
        raise ConfigError(f"--jobs must be ≥ 0 (0: every core), got {jobs}")


def run_sweep(
    spec: str,
    max_area: int,
    *,
    cap_ratio: float = 35.0,
    map_chunks: ChunkMap | None = None,
    checkpoint: Path | None = None,
    chunks: int = 0,
    on_start: Callable[[int, int], None] | None = None,
    on_chunk: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Exact cover ratios of a strategy over every grid A·B ≤ ``max_area``.

    Args:
        spec: Strategy string, e.g. ``"dynamic-zigzag(k=11)"``.
        max_area: N.
        cap_ratio: Give up on a grid after ``cap_ratio``·S moves (it then counts as
            uncovered and the worst ratio is reported as None).
        map_chunks: Runs the chunks (see :data:`ChunkMap`); None runs them in this process.
        checkpoint: File of finished chunks (created, appended, reused on resume);
            None for no checkpoint.
        chunks: Number of chunks (0: default).
        on_start: Called with (chunks in all, chunks already done) before work starts.
        on_chunk: Called after every newly finished chunk.

    Returns:
        The report (see :func:`finalise`).

    Raises:
        ConfigError: for a bad N, cap or chunk count; UnknownNameError for an unknown strategy.
    """
    check_options(max_area, cap_ratio, chunks)
    spec = make_strategy(spec).spec  # validate and canonicalise before any work
    plan = make_chunks(max_area, chunks)
    header = {
        "kind": "blind-sweep",
        "version": CHECKPOINT_VERSION,
        "strategy": spec,
        "max_area": max_area,
        "cap_ratio": cap_ratio,
        "chunks": [[c.lo, c.hi] for c in plan],
    }
    done: dict[int, dict[str, Any]] = {}
    if checkpoint is not None:
        done = _read_checkpoint(checkpoint, header)
        checkpoint.parent.mkdir(parents=True, exist_ok=True)
        if not checkpoint.exists() or checkpoint.stat().st_size == 0:
            checkpoint.write_text(json.dumps(header) + "\n")
    todo = [c for c in plan if c.index not in done]
    if on_start is not None:
        on_start(len(plan), len(plan) - len(todo))

    def record(index: int, result: dict[str, Any]) -> None:
        done[index] = result
        if checkpoint is not None:
            with checkpoint.open("a") as fh:
                fh.write(json.dumps({"chunk": index, "result": result}) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
        if on_chunk is not None:
            on_chunk()

    # Heavy chunks (small widths) first, so a pool ends evenly.
    keys = [c.index for c in todo]
    tasks: list[SweepTask] = [(spec, max_area, float(cap_ratio), c.lo, c.hi) for c in todo]
    if tasks:
        for pos, result in (map_chunks or map_in_process)(sweep_chunk, tasks):
            record(keys[pos], result)
    total = merge(done[c.index] for c in plan)
    return finalise(spec, max_area, cap_ratio, total)

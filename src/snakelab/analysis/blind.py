"""Plots of exhaustive blind sweeps: where a strategy is slow, band by band, and how often.

A sweep report is what :func:`snakelab.games.blind.sweep.run_sweep` returns, or the
``--json --details`` object of ``snakelab blind sweep`` saved to a file. One figure
shows one or several reports side by side:

* per report, the **ratio map**: the worst cover ratio in every cell of a log-log grid
  of widths A and heights B (eight cells per decade), on one colour scale for all
  reports, the worst grid marked; cells with grids left uncovered are black. The
  zig-zags' failure modes show as shapes here: resonant rectangles as ridges along
  B ≈ m·A, thin grids along the edges, squares on the diagonal;
* the **maximum and mean ratio per band of S** (four bands per decade), one colour per
  report: how the worst case grows with the size of the torus;
* the **ratio histogram** (steps of 0.25, log count): how much of the sweep sits near
  the worst.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from snakelab.core.errors import ConfigError
from snakelab.games.blind.sweep import HIST_STEP

REPORT_KEYS = ("strategy", "max_area", "grids", "worst_ratio", "worst_grid", "bands", "histogram", "ratio_map")
"""Keys a sweep report must have to be plotted (``--json --details`` writes them all)."""
TARGET = 10.0
"""The worst ratio a strategy should stay under; the colour scale and the band plot mark it."""


def load_report(path: Path) -> dict[str, Any]:
    """Read a saved sweep report.

    Raises:
        ConfigError: naming the file when it is missing, not JSON, or not a detailed sweep report.
    """
    try:
        obj = json.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: not a JSON sweep report ({exc})") from None
    return check_report(obj, str(path))


def check_report(obj: Any, source: str) -> dict[str, Any]:
    """Return ``obj`` if it is a detailed sweep report, else raise ConfigError naming ``source``."""
    if not isinstance(obj, dict):
        raise ConfigError(f"{source}: a sweep report is a JSON object, got {type(obj).__name__}")
    missing = [k for k in REPORT_KEYS if k not in obj]
    if missing:
        raise ConfigError(
            f"{source}: not a detailed sweep report (missing {', '.join(missing)}); "
            "write one with `snakelab blind sweep ... --json --details > FILE`"
        )
    rmap = obj["ratio_map"]
    cells = rmap.get("cells") if isinstance(rmap, dict) else None
    if (
        not isinstance(cells, list)
        or not cells
        or not isinstance(rmap.get("per_decade"), int)
        or not all(isinstance(c, list) and len(c) == 5 and all(isinstance(v, int) for v in c[:3]) for c in cells)
    ):
        raise ConfigError(
            f"{source}: ratio_map must hold per_decade and a non-empty list of cells "
            "[i, j, grids, max_ratio, uncovered]"
        )
    bands = obj["bands"]
    if not isinstance(bands, list) or not all(
        isinstance(b, dict) and {"s_from", "max_ratio", "mean_ratio"} <= b.keys() for b in bands
    ):
        raise ConfigError(f"{source}: bands must be a list of objects with s_from, max_ratio and mean_ratio")
    try:
        [float(k) for k in obj["histogram"]]
    except (TypeError, ValueError):
        raise ConfigError(f"{source}: histogram must map ratios (bin starts) to counts") from None
    return obj


def check_output(path: Path) -> None:
    """Refuse a plot path before any work: it must end in .png and its folder must exist.

    Raises:
        ConfigError: naming what is wrong with the path.
    """
    if path.suffix.lower() != ".png":
        raise ConfigError(f"the plot is a PNG file: give a path ending in .png, got {str(path)!r}")
    if not path.parent.is_dir():
        raise ConfigError(f"cannot write {path}: no folder {path.parent}")


def plot_sweeps(reports: list[dict[str, Any]], path: Path, title: str | None = None) -> None:
    """Save a PNG of one or more sweep reports: ratio maps, per-band curves, histograms.

    Raises:
        ConfigError: for a path that is not a writable .png, or no reports.
    """
    check_output(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import TwoSlopeNorm

    if not reports:
        raise ConfigError("no sweep report to plot")
    n = len(reports)
    top = max(_worst(r) for r in reports)
    # A diverging scale turning at 10 (the target of docs/blind.md): blue below, red above.
    norm = TwoSlopeNorm(vmin=1.0, vcenter=TARGET, vmax=max(TARGET + 1.0, math.ceil(top)))
    if n == 1:  # one map beside the two curves
        fig = plt.figure(figsize=(14.0, 4.8), layout="constrained")
        grid = fig.add_gridspec(1, 3)
        map_slots = [grid[0, 0]]
        band_slot, hist_slot = grid[0, 1], grid[0, 2]
    else:  # the maps in a row, the curves of all reports below them
        fig = plt.figure(figsize=(4.3 * n, 8.4), layout="constrained")
        grid = fig.add_gridspec(2, n, height_ratios=[1.15, 1])
        map_slots = [grid[0, i] for i in range(n)]
        half = (n + 1) // 2
        band_slot, hist_slot = grid[1, :half], grid[1, half:]
    colours = [f"C{i}" for i in range(n)]
    mesh = None
    for i, rep in enumerate(reports):
        ax = fig.add_subplot(map_slots[i])
        per = int(rep["ratio_map"]["per_decade"])
        cells = rep["ratio_map"]["cells"]
        size = max(max(c[0], c[1]) for c in cells) + 1
        values = np.full((size, size), np.nan)
        lost = np.zeros((size, size), bool)
        for a, b, _grids, best, uncovered in cells:
            values[b, a] = best if best is not None else np.nan
            lost[b, a] = uncovered > 0
        edges = 10.0 ** (np.arange(size + 1) / per)
        mesh = ax.pcolormesh(edges, edges, values, cmap="RdYlBu_r", norm=norm)
        if lost.any():
            # Cells with grids left uncovered: black (their true worst is unknown).
            ax.pcolormesh(edges, edges, np.where(lost, 1.0, np.nan), cmap="Greys", vmin=0, vmax=1)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("width A")
        if i == 0:
            ax.set_ylabel("height B")
        ax.set_aspect("equal")
        if rep["worst_grid"]:
            wa, wb = rep["worst_grid"]
            ax.plot([wa], [wb], marker="x", color="black", markersize=9, mew=2)
            label = f"worst {rep['worst_ratio']:.2f} at {wa}×{wb}"
        else:
            label = f"{rep.get('uncovered', 'some')} grids uncovered (black)"
        ax.set_title(f"{rep['strategy']}\n{label}", fontsize=9, color=colours[i])
    if mesh is not None:
        scale = f"worst cover / S in the cell (scale turns at {TARGET:g})"
        fig.colorbar(mesh, ax=fig.axes[:n], shrink=0.85, label=scale)
    bands = fig.add_subplot(band_slot)
    hist = fig.add_subplot(hist_slot)
    for rep, colour in zip(reports, colours, strict=True):
        rows = [b for b in rep["bands"] if b["max_ratio"] is not None]
        xs = [b["s_from"] for b in rows]
        bands.plot(xs, [b["max_ratio"] for b in rows], color=colour, marker="o", ms=3, label=rep["strategy"])
        bands.plot(xs, [b["mean_ratio"] for b in rows], color=colour, ls="--")
        counts = {round(float(k) / HIST_STEP): v for k, v in rep["histogram"].items()}
        if counts:
            last = max(counts)
            heights = [counts.get(b, 0) for b in range(last + 1)]
            hist.stairs(heights, np.arange(last + 2) * HIST_STEP, color=colour, label=rep["strategy"])
    bands.set_xscale("log")
    bands.set_xlabel("S = A·B (start of the band)")
    bands.set_ylabel("cover / S")
    bands.axhline(TARGET, color="grey", lw=0.8, ls=":")
    bands.grid(True, which="both", alpha=0.3)
    bands.legend(fontsize=7)
    bands.set_title("worst (solid) and mean (dashed) ratio of the covered grids per band of S", fontsize=9)
    hist.set_yscale("log")
    hist.set_xlabel("cover / S")
    hist.set_ylabel("grids")
    hist.grid(True, which="both", alpha=0.3)
    hist.legend(fontsize=7)
    hist.set_title("ratio histogram", fontsize=9)
    fig.suptitle(title or f"exhaustive sweeps, every grid A·B ≤ {max(r['max_area'] for r in reports):,}")
    try:
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def _worst(report: dict[str, Any]) -> float:
    """The worst covered ratio of a report, from its map (``worst_ratio`` is None when grids were left uncovered)."""
    values = [c[3] for c in report["ratio_map"]["cells"] if c[3] is not None]
    return max(values, default=0.0)

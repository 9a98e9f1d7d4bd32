"""Tables and plots of classic results: steps per apple by fill fraction.

Everything here reads finished :class:`~snakelab.harness.match.MatchResult` objects
(or stored ones); nothing plays a game.
"""

from __future__ import annotations

from pathlib import Path

from snakelab.harness.match import MatchResult


def fill_table(results: list[MatchResult], start_length: int, cells: int, bins: int = 10) -> list[dict[str, float]]:
    """Mean steps per apple by fill fraction (snake length / cells just before eating).

    Uses the ``eat_steps`` outcome detail of every game; an apple eaten at length
    ``L`` falls in bin ``floor(bins * L / cells)``.

    Returns:
        One row per bin: ``lo``, ``hi`` (the fill range), ``apples`` counted and
        ``steps_per_apple`` (NaN for an empty bin).
    """
    total = [0] * bins
    count = [0] * bins
    for r in results:
        last = 0
        for i, step in enumerate(r.outcome.details.get("eat_steps") or []):
            b = min(bins - 1, (start_length + i) * bins // cells)
            total[b] += step - last
            count[b] += 1
            last = step
    return [
        {
            "lo": b / bins,
            "hi": (b + 1) / bins,
            "apples": float(count[b]),
            "steps_per_apple": total[b] / count[b] if count[b] else float("nan"),
        }
        for b in range(bins)
    ]


def plot_fill(curves: dict[str, list[dict[str, float]]], title: str, path: Path) -> None:
    """Save a PNG of steps per apple against fill fraction, one line per agent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for name, rows in curves.items():
        xs = [(r["lo"] + r["hi"]) / 2 for r in rows if r["apples"]]
        ys = [r["steps_per_apple"] for r in rows if r["apples"]]
        ax.plot(xs, ys, marker="o", label=name)
    ax.set_xlabel("fill fraction (snake length / cells) when the apple is eaten")
    ax.set_ylabel("mean steps per apple")
    ax.set_yscale("log")
    ax.set_xlim(0, 1)
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)

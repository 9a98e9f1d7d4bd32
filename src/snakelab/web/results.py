"""The results page's data: stored runs, win rates with intervals, OpenSkill ratings.

The store (:mod:`snakelab.harness.store`) may be absent, turned off or not written
yet; the page then gets ``{"configured": false, "message": ...}`` and says so
instead of failing. Ratings come from :func:`snakelab.harness.ratings.rate`, the
same figures ``snakelab results ratings`` prints.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from snakelab.core.errors import SnakelabError
from snakelab.core.game import JSON
from snakelab.harness.match import MatchResult
from snakelab.harness.ratings import rate
from snakelab.harness.store import default_store_path, open_store

MAX_RUNS = 50
"""Newest runs shown on the page; older ones stay in the store (their results still count in the ratings)."""


def _not_configured(message: str) -> dict[str, JSON]:
    return {"configured": False, "message": message, "runs": [], "ratings": []}


def results_summary(path: Path | None) -> dict[str, JSON]:
    """Everything the results page shows.

    Args:
        path: The store file, or None for the store's default location.

    Returns:
        ``{"configured": true, "store", "runs": [...], "ratings": [...]}`` where each
        run carries its stored facts and its own ratings rows, and ``ratings`` covers
        every stored match; or ``{"configured": false, "message"}``.
    """
    if path is None:
        path = default_store_path()
        if path is None:
            return _not_configured("No results store is configured: storing is turned off ($SNAKELAB_STORE=off).")
    if not Path(path).is_file():
        return _not_configured(
            f"No results store is configured: {path} does not exist yet. "
            "Run a bench or tournament to fill it, or start the server with --results FILE."
        )
    try:
        with open_store(path) as store:
            runs = list(store.runs())
            by_run: dict[int, list[MatchResult]] = defaultdict(list)
            for run_id, _idx, result in store.iter_results():
                by_run[run_id].append(result)
    except (SnakelabError, OSError) as exc:
        return _not_configured(f"The results store {path} cannot be read: {exc}")
    shown = [
        {**info.to_json(), "ratings": [r.to_json() for r in rate(by_run.get(info.id, []))]}
        for info in reversed(runs[-MAX_RUNS:])
    ]
    everything = [r for results in by_run.values() for r in results]
    return {
        "configured": True,
        "store": str(path),
        "runs": shown,
        "ratings": [r.to_json() for r in rate(everything)],
    }

"""The results page's data: stored runs with per-agent win rates and intervals.

The results store (:mod:`snakelab.harness.store`) is optional at this layer: it is
imported by name, and when it is missing, disabled or has no file yet the page gets
``{"configured": false, "message": ...}`` and says so instead of failing.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from snakelab.core.errors import SnakelabError
from snakelab.core.game import JSON
from snakelab.harness.ratings import wilson_interval

MAX_RUNS = 50
"""Newest runs shown on the page; older ones stay in the store."""


def _store_module() -> Any:
    try:
        return importlib.import_module("snakelab.harness.store")
    except ImportError:
        return None


def _not_configured(message: str) -> dict[str, JSON]:
    return {"configured": False, "message": message, "runs": []}


def agent_table(results: Any) -> list[dict[str, JSON]]:
    """Per agent name (per seat name), games, wins, win rate with a 95 % Wilson interval, mean score.

    Args:
        results: Stored :class:`~snakelab.harness.match.MatchResult` objects.
    """
    rows: dict[str, dict[str, float]] = {}
    for res in results:
        winner = res.outcome.winner
        for seat, name in enumerate(res.agents):
            row = rows.setdefault(name, {"games": 0.0, "wins": 0.0, "score": 0.0})
            row["games"] += 1
            row["wins"] += 1.0 if winner == seat else 0.0
            scores = res.outcome.scores
            row["score"] += float(scores[seat]) if seat < len(scores) else 0.0
    out: list[dict[str, JSON]] = []
    for name, row in rows.items():
        n = int(row["games"])
        low, high = wilson_interval(row["wins"], n)
        out.append(
            {
                "agent": name,
                "games": n,
                "wins": int(row["wins"]),
                "win_rate": row["wins"] / n if n else 0.0,
                "ci95": [low, high],
                "mean_score": row["score"] / n if n else 0.0,
            }
        )
    out.sort(key=lambda r: (-float(r["win_rate"]), str(r["agent"])))
    return out


def results_summary(path: Path | None) -> dict[str, JSON]:
    """Everything the results page shows.

    Args:
        path: The store file, or None for the store's default location.

    Returns:
        ``{"configured": true, "store": path, "runs": [...]}`` where each run has its
        stored facts and an agent table, or ``{"configured": false, "message"}``.
    """
    store_mod = _store_module()
    if store_mod is None:
        return _not_configured("No results store is configured: this build has no snakelab.harness.store.")
    if path is None:
        path = store_mod.default_store_path()
        if path is None:
            return _not_configured("No results store is configured: storing is turned off ($SNAKELAB_STORE=off).")
    if not Path(path).is_file():
        return _not_configured(
            f"No results store is configured: {path} does not exist yet. "
            "Run a bench or tournament (or start the server with --results FILE)."
        )
    try:
        with store_mod.open_store(path) as store:
            runs = list(store.runs())[-MAX_RUNS:]
            shown: list[dict[str, JSON]] = []
            for info in reversed(runs):
                results = store.results(info.id)
                shown.append({**info.to_json(), "agents_table": agent_table(results.values())})
    except SnakelabError as exc:
        return _not_configured(f"The results store {path} cannot be read: {exc}")
    return {"configured": True, "store": str(path), "runs": shown}

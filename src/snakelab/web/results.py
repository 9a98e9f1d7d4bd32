"""The results page's data: stored runs, win rates with intervals, OpenSkill ratings.

The store (:mod:`snakelab.harness.store`) may be absent, turned off or not written
yet; the page then gets ``{"configured": false, "message": ...}`` and says so
instead of failing. Ratings come from :func:`snakelab.harness.ratings.rate`, the
same figures ``snakelab results ratings`` prints.

Win rates mean nothing in a one-player game nobody "wins" (a snakgame bench: the
score is the result). A game string whose stored matches all have one seat and
never a winner is marked ``"measure": "score"``: its rows carry ``ratio``, the
agent's mean score over the reference agent's (the game's ``editorial`` agent when
it was played, else the best mean score), and the page shows scores and ratios
instead of wins. Other rows are ``"measure": "wins"``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from snakelab.core.errors import SnakelabError
from snakelab.core.game import JSON
from snakelab.harness.match import MatchResult
from snakelab.harness.ratings import AgentRating, rate
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
    everything = [r for results in by_run.values() for r in results]
    scored = scored_games(everything)
    shown = [
        {**info.to_json(), "ratings": measured(rate(by_run.get(info.id, [])), scored)}
        for info in reversed(runs[-MAX_RUNS:])
    ]
    return {
        "configured": True,
        "store": str(path),
        "runs": shown,
        "ratings": measured(rate(everything), scored),
    }


def scored_games(results: list[MatchResult]) -> set[str]:
    """Game strings measured by score: every stored match has one seat and no winner."""
    seen: dict[str, bool] = {}
    for r in results:
        solo = len(r.agents) == 1 and r.outcome.winner is None
        seen[r.game] = seen.get(r.game, True) and solo
    return {game for game, solo in seen.items() if solo}


def measured(rows: list[AgentRating], scored: set[str]) -> list[dict[str, JSON]]:
    """Rating rows as JSON with the measure that applies (see the module docstring)."""
    by_game: dict[str, list[AgentRating]] = defaultdict(list)
    for row in rows:
        by_game[row.game].append(row)
    out: list[dict[str, JSON]] = []
    for row in rows:
        data = row.to_json()
        if row.game not in scored:
            data["measure"] = "wins"
            out.append(data)
            continue
        peers = by_game[row.game]
        editorial = [p for p in peers if p.agent.rpartition(".")[2] == "editorial"]
        reference = editorial[0] if editorial else max(peers, key=lambda p: p.mean_score)
        data["measure"] = "score"
        data["reference"] = reference.agent
        data["ratio"] = row.mean_score / reference.mean_score if reference.mean_score else None
        out.append(data)
    return out

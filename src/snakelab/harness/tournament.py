"""Tournaments: line-ups with rotating seats, and the table of what each entry did.

:func:`tournament_specs` plans the matches of a bench (fixed seats) or a tournament
(seats rotating between the entries) as :class:`~snakelab.harness.match.MatchSpec`
for the harness's parallel map; :func:`summarise` turns their results into one row per
entry: games, wins, the win rate with its Wilson interval (:mod:`.ratings`), mean longest
length and the 99th-percentile move time. The CLI (``snakelab arena bench``,
``tournament``) and the research scripts run line-ups through these two.
"""

from __future__ import annotations

from typing import Any

from snakelab.core.game import Budget
from snakelab.harness.match import MatchResult, MatchSpec
from snakelab.harness.ratings import wilson_interval
from snakelab.harness.run import match_seeds

FILLER = "arena.greedy"
"""The agent of a seat no entry sits in."""


def tournament_specs(
    refs: list[str],
    seats: int,
    games: int,
    seed: int,
    gstr: str,
    budget_ms: float,
    nodes: int | None = None,
    *,
    rotate: bool = True,
) -> tuple[list[MatchSpec], list[list[int]]]:
    """Matches with rotating seats, and per match the entry index of each seat (-1: greedy filler).

    Each move's budget is ``budget_ms`` in time (the game's ``speed`` unless the user
    set ``--budget-ms``) and, with ``nodes``, that many search nodes, which searching
    agents then use instead of the clock. Bot files are not given the budget: their
    pace is the game's and their limit ``--timeout``.

    Game k seats the entries rotated by k; with fewer entries than seats the rest
    are greedy fillers, with more the entries take turns sitting out. With
    ``rotate=False`` (a bench) every game seats entry i in seat i. ``{match}`` in an
    agent string becomes the match number (bots' log folders).
    """
    specs: list[MatchSpec] = []
    lineups: list[list[int]] = []
    n = len(refs)
    for k, s in enumerate(match_seeds(seed, games)):
        lineup = [-1] * seats
        if not rotate:
            lineup[:n] = range(n)
        elif n <= seats:
            for e in range(n):
                lineup[(e + k) % seats] = e
        else:
            for i in range(seats):
                lineup[i] = (k + i) % n
        agents = tuple(refs[e].replace("{match}", f"{k:04d}") if e >= 0 else FILLER for e in lineup)
        specs.append(
            MatchSpec(gstr, agents, s, budget=Budget(time_s=budget_ms / 1000, nodes=nodes), measure=True, index=k)
        )
        lineups.append(lineup)
    return specs, lineups


def summarise(labels: list[str], results: list[MatchResult], lineups: list[list[int]]) -> list[dict[str, Any]]:
    """Per entry label: games, wins, win rate with its 95% Wilson interval, mean longest, p99 move time."""
    stats: dict[str, dict[str, Any]] = {}
    for res in results:
        lineup = lineups[res.index]
        d = res.outcome.details
        for seat, entry in enumerate(lineup):
            label = labels[entry] if entry >= 0 else f"{FILLER} (filler)"
            st = stats.setdefault(label, {"games": 0, "wins": 0, "longest": 0, "times": []})
            st["games"] += 1
            st["wins"] += int(res.outcome.winner == seat)
            st["longest"] += d["longest"][seat]
            if res.move_times:
                st["times"].extend(res.move_times[seat])
    rows = []
    for label, st in stats.items():
        lo, hi = wilson_interval(st["wins"], st["games"])
        times = sorted(st["times"])
        p99 = 1e3 * times[min(len(times) - 1, int(0.99 * len(times)))] if times else None
        rows.append(
            {
                "bot": label,
                "games": st["games"],
                "wins": st["wins"],
                "win_rate": st["wins"] / st["games"],
                "ci95": [lo, hi],
                "mean_longest": st["longest"] / st["games"],
                "p99_move_ms": p99,
            }
        )
    rows.sort(key=lambda r: -r["win_rate"])
    return rows


__all__ = ["FILLER", "summarise", "tournament_specs"]

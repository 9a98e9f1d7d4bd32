"""Win rates with confidence intervals, and OpenSkill ratings across stored runs.

:func:`wilson_interval` is the score interval of Wilson (1927) for a binomial
proportion; unlike the normal ("Wald") interval it stays inside [0, 1] and behaves
at 0 and n wins, which is where short tournaments live.

:func:`rate` turns match results (from any number of runs) into one row per game
and agent: games, wins, win rate with its Wilson interval, mean score, and an
OpenSkill (Plackett-Luce) rating. Multi-player matches rate their agents by
placing. Single-player agents never meet, so their results are paired by seed,
duplicate-bridge style: agents that played the same game with the same match
seed (same apples, same start) are ranked against each other on it. Benches run
with the same ``--seed`` are therefore comparable; an agent with no paired
results has a win rate but no rating. Ratings are computed per canonical game
string, so a 12×12 and a 20×20 board are different ladders.

A multi-player game whose outcome details carry its own full ``ranking`` (seats,
best first — the arena's longest length, then kills, then seat) is placed by that
order; otherwise by (winner, score). An agent string is rated under its
:func:`entry_name`, which drops per-match bookkeeping (an arena bot's ``run_dir``,
a folder per match), so a bot file is one entry across a tournament.
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from snakelab.core.errors import ConfigError
from snakelab.core.game import JSON
from snakelab.core.registry import format_spec, parse_spec
from snakelab.harness.match import MatchResult


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate.

    Args:
        wins: Number of wins (a draw may count as half a win, so floats are allowed).
        n: Number of games.
        z: Standard-normal quantile; 1.96 gives a 95 % interval.

    Returns:
        ``(low, high)`` bounds of the win probability; ``(0.0, 1.0)`` when ``n == 0``.

    Raises:
        ConfigError: if ``wins`` is outside ``0..n`` or ``n`` or ``z`` is negative.
    """
    if n < 0 or z < 0:
        raise ConfigError(f"wilson_interval needs n ≥ 0 and z ≥ 0, got n={n}, z={z}")
    if not 0 <= wins <= n:
        raise ConfigError(f"wilson_interval: wins={wins} is outside 0..{n}")
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class AgentRating:
    """What one agent did in one game, across the results given.

    Attributes:
        game: The canonical game string.
        agent: The agent name.
        games: Seats played (an agent playing itself counts once per seat).
        wins: Seats won (``outcome.winner`` is that seat; draws are not wins).
        win_rate: ``wins / games``.
        ci_low: Lower bound of the 95 % Wilson interval of the win rate.
        ci_high: Upper bound of that interval.
        mean_score: Mean of the agent's own score.
        mu: OpenSkill (Plackett-Luce) mean skill, or None when never rated.
        sigma: OpenSkill uncertainty, or None.
        ordinal: ``mu - 3 sigma``, a conservative skill to sort by, or None.
        rated: Number of (real or paired) matches its rating came from.
        low: ``mu - 2 sigma``, the low end of the skill's interval, or None.
        high: ``mu + 2 sigma``, or None.
    """

    game: str
    agent: str
    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float
    mu: float | None = None
    sigma: float | None = None
    ordinal: float | None = None
    rated: int = 0
    low: float | None = None
    high: float | None = None

    def to_json(self) -> dict[str, JSON]:
        """The row as a JSON object."""
        return dataclasses.asdict(self)


def game_matches(game: str, query: str | None) -> bool:
    """Whether game string ``game`` is selected by ``query`` (its id or the exact string)."""
    if query is None:
        return True
    return game == query or game.partition("(")[0] == query.strip()


PER_MATCH_PARAMS = ("run_dir",)
"""Agent parameters that name where a match keeps its files, not who plays."""


def entry_name(agent: str) -> str:
    """The name an agent string is rated under: without per-match parameters (:data:`PER_MATCH_PARAMS`).

    ``arena.bot(path=/b/x.py,run_dir=runs/match0003)`` becomes ``arena.bot(path=/b/x.py)``;
    an unreadable string is kept as it is.
    """
    if "(" not in agent:
        return agent
    try:
        name, kwargs = parse_spec(agent)
    except ConfigError:
        return agent
    if not any(k in kwargs for k in PER_MATCH_PARAMS):
        return agent
    return format_spec(name, {k: v for k, v in kwargs.items() if k not in PER_MATCH_PARAMS})


def _ranked_placings(agents: Sequence[str], ranking: Sequence[int]) -> dict[str, int]:
    """Rank agents (1 = best) by the game's own seat ranking; an agent in several seats keeps its best."""
    best: dict[str, int] = {}
    for pos, seat in enumerate(ranking):
        best.setdefault(agents[seat], pos)
    order = sorted(best, key=best.__getitem__)
    return {agent: k + 1 for k, agent in enumerate(order)}


def _full_ranking(r: MatchResult) -> list[int] | None:
    """The seats best first when the outcome details carry a complete, valid ``ranking``."""
    ranking = r.outcome.details.get("ranking") if isinstance(r.outcome.details, dict) else None
    if not isinstance(ranking, list) or sorted(x for x in ranking if isinstance(x, int)) != list(range(len(r.agents))):
        return None
    return [int(x) for x in ranking]


def _placings(entries: Sequence[tuple[str, bool, float]]) -> dict[str, int]:
    """Rank agents (1 = best) from ``(agent, won, score)``; an agent in several seats keeps its best."""
    best: dict[str, tuple[bool, float]] = {}
    for agent, won, score in entries:
        key = (won, score)
        if agent not in best or key > best[agent]:
            best[agent] = key
    keys = sorted(set(best.values()), reverse=True)
    # Dense ranks: equal (won, score) share a rank, which OpenSkill treats as a tie.
    return {agent: keys.index(key) + 1 for agent, key in best.items()}


def rating_matches(results: Iterable[MatchResult]) -> dict[str, list[dict[str, int]]]:
    """The free-for-all "matches" ratings are computed from, per game string.

    Multi-player results are used as they are: each is one match ranking its
    distinct agents by the game's own ``ranking`` when its details carry one, else by
    (won, score); agents under their :func:`entry_name`. Single-player agents never meet, so results
    are paired duplicate-style: every (game, match seed) played by two or more
    different agents becomes one match ranking them by (won, mean score) on that
    seed, which is fair because the seed fixes the game's randomness. Matches come
    in the order their first result was given.

    Returns:
        For each game string, a list of ``{agent: rank}`` (1 = best) with ≥ 2 agents.
    """
    multi: dict[str, list[dict[str, int]]] = defaultdict(list)
    solo: dict[tuple[str, int], dict[str, list[tuple[bool, float]]]] = {}
    order: list[tuple[int, str, Any]] = []
    for r in results:
        if len(r.agents) > 1:
            names = [entry_name(a) for a in r.agents]
            ranking = _full_ranking(r)
            if ranking is not None:
                placing = _ranked_placings(names, ranking)
            else:
                entries = [(a, r.outcome.winner == seat, r.outcome.scores[seat]) for seat, a in enumerate(names)]
                placing = _placings(entries)
            if len(placing) > 1:
                order.append((len(order), r.game, placing))
            continue
        key = (r.game, r.seed)
        if key not in solo:
            solo[key] = defaultdict(list)
            order.append((len(order), r.game, key))
        solo[key][entry_name(r.agents[0])].append((r.outcome.winner == 0, r.outcome.scores[0]))
    for _, game, item in order:
        if isinstance(item, dict):
            multi[game].append(item)
            continue
        per_agent = solo[item]
        if len(per_agent) < 2:
            continue
        entries = [
            (agent, sum(w for w, _ in runs) * 2 > len(runs), sum(s for _, s in runs) / len(runs))
            for agent, runs in per_agent.items()
        ]
        multi[game].append(_placings(entries))
    return dict(multi)


def openskill_ratings(matches: Sequence[dict[str, int]]) -> dict[str, tuple[float, float, int]]:
    """Plackett-Luce OpenSkill ratings from ranked matches, updated in order.

    Args:
        matches: ``{agent: rank}`` per match (1 = best; equal ranks tie).

    Returns:
        ``{agent: (mu, sigma, matches rated)}``.

    Raises:
        ConfigError: if openskill is not installed.
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ConfigError("ratings need openskill, a dependency of snakelab: pip install openskill") from None
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    counts: dict[str, int] = defaultdict(int)
    for match in matches:
        agents = sorted(match)
        teams = [[ratings.setdefault(a, model.rating(name=a))] for a in agents]
        new = model.rate(teams, ranks=[match[a] for a in agents])
        for a, team in zip(agents, new, strict=True):
            ratings[a] = team[0]
            counts[a] += 1
    return {a: (float(r.mu), float(r.sigma), counts[a]) for a, r in ratings.items()}


def rate(results: Iterable[MatchResult], *, game: str | None = None, z: float = 1.96) -> list[AgentRating]:
    """Win rates with Wilson intervals and OpenSkill ratings, per game and agent.

    Args:
        results: Match results, e.g. from :meth:`Store.iter_results`.
        game: Only this game (an id such as ``"arena"`` or an exact game string).
        z: Quantile of the Wilson interval (1.96: 95 %).

    Returns:
        One row per (game string, agent), sorted by game, then by ordinal (rated
        agents first), then by win rate, best first.
    """
    chosen = [r for r in results if game_matches(r.game, game)]
    tally: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for r in chosen:
        for seat, agent in enumerate(r.agents):
            t = tally[(r.game, entry_name(agent))]
            t[0] += 1
            t[1] += r.outcome.winner == seat
            t[2] += r.outcome.scores[seat]
    skill: dict[tuple[str, str], tuple[float, float, int]] = {}
    for g, matches in rating_matches(chosen).items():
        for agent, value in openskill_ratings(matches).items():
            skill[(g, agent)] = value
    rows = []
    for (g, agent), (n, wins, score) in tally.items():
        lo, hi = wilson_interval(wins, int(n), z)
        mu, sigma, rated = skill.get((g, agent), (None, None, 0))
        rows.append(
            AgentRating(
                game=g,
                agent=agent,
                games=int(n),
                wins=int(wins),
                win_rate=wins / n,
                ci_low=lo,
                ci_high=hi,
                mean_score=score / n,
                mu=mu,
                sigma=sigma,
                ordinal=None if mu is None or sigma is None else mu - 3 * sigma,
                rated=rated,
                low=None if mu is None or sigma is None else mu - 2 * sigma,
                high=None if mu is None or sigma is None else mu + 2 * sigma,
            )
        )
    rows.sort(key=lambda r: (r.game, r.ordinal is None, -(r.ordinal or 0.0), -r.win_rate, r.agent))
    return rows

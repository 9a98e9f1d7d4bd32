"""The arena ladder: OpenSkill ratings from stored tournaments, placed by each game's own ranking."""

import json

from typer.testing import CliRunner

from snakelab.cli import app
from snakelab.core.game import Budget, Outcome
from snakelab.harness import MatchSpec, match_seeds
from snakelab.harness.match import MatchResult
from snakelab.harness.ratings import entry_name, rate, rating_matches
from snakelab.harness.store import Store, run_stored

runner = CliRunner()
SMALL = "arena(game_width=14,game_height=14,duration=3,num_zombies=1)"


def _arena_result(agents, longest, ranking, index=0):
    details = {"ranking": ranking, "longest": longest, "kills": [0] * len(agents)}
    outcome = Outcome("TIME", tuple(float(x) for x in longest), ranking[0], details)
    return MatchResult("arena", tuple(agents), index, outcome, 10, 0.0, index)


def test_the_games_own_ranking_places_the_agents():
    # b and c reach the same length; the game ranks c above b (more kills, say): the
    # rating must follow the game's ranking, not a tie on score.
    r = _arena_result(["a", "b", "c", "d"], [9, 6, 6, 5], [0, 2, 1, 3])
    (match,) = rating_matches([r])["arena"]
    assert match == {"a": 1, "c": 2, "b": 3, "d": 4}


def test_an_agent_in_several_seats_keeps_its_best_place():
    r = _arena_result(["g", "x", "g", "g"], [4, 9, 7, 5], [1, 2, 3, 0])
    (match,) = rating_matches([r])["arena"]
    assert match == {"x": 1, "g": 2}


def test_a_malformed_ranking_falls_back_to_winner_and_score():
    r = _arena_result(["a", "b"], [3, 8], [0, 0])  # not a permutation of the seats
    r = MatchResult(r.game, r.agents, r.seed, Outcome("TIME", (3.0, 8.0), 1, r.outcome.details), 10, 0.0, 0)
    (match,) = rating_matches([r])["arena"]
    assert match == {"b": 1, "a": 2}


def test_a_bot_file_is_one_entry_across_matches():
    a = "arena.bot(path=/x/bot.py,lockstep=true,run_dir=runs/match0000)"
    b = "arena.bot(path=/x/bot.py,lockstep=true,run_dir=runs/match0001)"
    assert entry_name(a) == entry_name(b) == "arena.bot(path=/x/bot.py,lockstep=true)"
    assert entry_name("arena.greedy") == "arena.greedy"
    assert entry_name("arena.mcts(c=0.5)") == "arena.mcts(c=0.5)"
    assert entry_name("not a (spec") == "not a (spec"
    rows = rate(
        [
            _arena_result([a, "arena.greedy"], [9, 4], [0, 1], 0),
            _arena_result(["arena.greedy", b], [4, 9], [1, 0], 1),
        ]
    )
    bot = next(row for row in rows if row.agent.startswith("arena.bot"))
    assert (bot.games, bot.wins, bot.rated) == (2, 2, 2)


def test_ratings_carry_an_interval_and_rank_by_ordinal():
    results = [_arena_result(["s", "w", "w2", "w3"], [9, 5, 4, 3], [0, 1, 2, 3], i) for i in range(12)]
    rows = rate(results)
    assert [r.agent for r in rows] == ["s", "w", "w2", "w3"]
    for r in rows:
        assert r.low is not None and r.high is not None and r.mu is not None and r.sigma is not None
        assert abs((r.high - r.low) - 4 * r.sigma) < 1e-9 and r.low < r.mu < r.high
    assert rows[0].low > rows[-1].high  # twelve straight wins separate first from last


def _tournament(path, agents, games, seed):
    specs = []
    for k, s in enumerate(match_seeds(seed, games)):
        seats = tuple(agents[(i - k) % len(agents)] for i in range(len(agents)))
        specs.append(MatchSpec(SMALL, seats, s, budget=Budget(nodes=60), index=k))
    with Store(path) as db:
        run_stored(specs, db, label="arena tournament", jobs=1)


def test_cli_ranks_stored_tournaments(tmp_path):
    path = tmp_path / "ladder.sqlite"
    _tournament(path, ["arena.champion", "arena.random", "arena.greedy", "arena.random"], 8, 1)
    _tournament(path, ["arena.greedy", "arena.random", "arena.random", "arena.random"], 4, 2)
    r = runner.invoke(app, ["results", "ratings", "1", "2", "--json", "--store", str(path)])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    assert {row["agent"] for row in rows} == {"arena.champion", "arena.greedy", "arena.random"}
    for row in rows:
        assert row["low"] < row["mu"] < row["high"] and row["rated"] > 0
    ordinals = [row["ordinal"] for row in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    # The second run alone has no champion.
    r = runner.invoke(app, ["results", "ratings", "2", "--json", "--store", str(path)])
    assert {row["agent"] for row in json.loads(r.stdout)} == {"arena.greedy", "arena.random"}
    r = runner.invoke(app, ["results", "ratings", "1", "--store", str(path)], env={"COLUMNS": "200"})
    assert r.exit_code == 0 and "μ ± 2σ" in r.stdout and "arena.champion" in r.stdout


def test_cli_unknown_run_is_one_line(tmp_path):
    path = tmp_path / "ladder.sqlite"
    Store(path).close()
    r = runner.invoke(app, ["results", "ratings", "7", "--store", str(path)])
    assert r.exit_code != 0 and "unknown run id 7" in r.output and "Traceback" not in r.output


def test_the_web_results_page_gets_the_ladder(tmp_path):
    from snakelab.web.results import results_summary

    path = tmp_path / "ladder.sqlite"
    _tournament(path, ["arena.champion", "arena.random", "arena.greedy", "arena.random"], 6, 3)
    data = results_summary(path)
    assert data["configured"] is True
    rows = data["ratings"]
    assert isinstance(rows, list) and {r["agent"] for r in rows} == {"arena.champion", "arena.greedy", "arena.random"}
    for r in rows:
        assert r["measure"] == "wins" and r["low"] < r["mu"] < r["high"]
    ordinals = [r["ordinal"] for r in rows]
    assert ordinals == sorted(ordinals, reverse=True)

import pytest

from snakelab.core.errors import ConfigError
from snakelab.core.game import Outcome
from snakelab.harness.match import MatchResult
from snakelab.harness.ratings import openskill_ratings, rate, rating_matches, wilson_interval


def test_wilson_interval__known_value():
    # Reference value: 8 wins of 10 at 95 % is (0.4902, 0.9433).
    lo, hi = wilson_interval(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)


def test_wilson_interval__edges_stay_in_unit_range():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(0, 20)
    assert lo == 0.0 and 0.0 < hi < 0.2
    lo, hi = wilson_interval(20, 20)
    assert hi == 1.0 and 0.8 < lo < 1.0


def test_wilson_interval__narrows_with_more_games():
    lo1, hi1 = wilson_interval(5, 10)
    lo2, hi2 = wilson_interval(500, 1000)
    assert hi2 - lo2 < hi1 - lo1
    assert lo2 < 0.5 < hi2


def test_wilson_interval__rejects_bad_counts():
    with pytest.raises(ConfigError, match="outside"):
        wilson_interval(11, 10)


def _result(game, agents, scores, winner, seed=1, index=0):
    return MatchResult(
        game, tuple(agents), seed, Outcome("END", tuple(scores), winner), steps=10, wall_s=0.0, index=index
    )


def test_rate__multiplayer_placings_order_the_ladder():
    results = []
    for i in range(30):
        # a beats b beats c, every time, in changing seats
        seats = [("a", 3.0), ("b", 2.0), ("c", 1.0)]
        seats = seats[i % 3 :] + seats[: i % 3]
        winner = [n for n, _ in seats].index("a")
        results.append(_result("arena", [n for n, _ in seats], [s for _, s in seats], winner, seed=i, index=i))
    rows = rate(results)
    assert [r.agent for r in rows] == ["a", "b", "c"]
    a, b, c = rows
    assert a.mu > b.mu > c.mu and a.rated == 30
    assert (a.wins, a.games, b.wins) == (30, 30, 0)
    assert a.ci_low > 0.85 and b.ci_high < 0.15


def test_rate__single_player_agents_are_paired_on_equal_seeds():
    results = []
    for seed in range(20):
        results.append(_result("classic", ["good"], [36.0], 0, seed=seed))
        results.append(_result("classic", ["bad"], [10.0], None, seed=seed))
    results.append(_result("classic", ["loner"], [36.0], 0, seed=999))  # no partner on this seed
    rows = {r.agent: r for r in rate(results)}
    assert rows["good"].mu > rows["bad"].mu and rows["good"].rated == 20
    assert rows["loner"].mu is None and rows["loner"].win_rate == 1.0
    assert [r.agent for r in rate(results)][-1] == "loner"


def test_rate__game_filter_by_id_or_exact_string():
    results = [
        _result("classic(width=6,height=6)", ["x"], [5.0], None),
        _result("arena", ["p", "q"], [1.0, 0.0], 0),
    ]
    assert {r.agent for r in rate(results, game="classic")} == {"x"}
    assert {r.agent for r in rate(results, game="classic(width=6,height=6)")} == {"x"}
    assert {r.agent for r in rate(results, game="arena")} == {"p", "q"}


def test_rating_matches__self_play_keeps_best_seat():
    (match,) = rating_matches([_result("arena", ["a", "a", "b"], [1.0, 3.0, 2.0], 1)])["arena"]
    assert match == {"a": 1, "b": 2}


def test_openskill_ratings__ties_share_a_rating():
    out = openskill_ratings([{"a": 1, "b": 1}])
    assert out["a"][0] == pytest.approx(out["b"][0])

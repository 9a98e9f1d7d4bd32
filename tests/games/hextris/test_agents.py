"""The solver ladder: valid, positively scored solutions on small problems, quickly."""

import time

import pytest

from snakelab import make, make_agent
from snakelab.core.game import Budget
from snakelab.games.hextris.scoring import PHRASES, score_seed
from snakelab.games.hextris.solver import (
    CHAMPION_WEIGHTS,
    LOST_WEIGHT,
    SEED_PHRASES,
    SEED_WEIGHTS,
    Solution,
    _random_passes,
    _RandomPasses,
    beam_plan,
    embed,
    prepare,
    solve_champion,
    solve_seed_method,
)
from snakelab.harness import play


@pytest.mark.parametrize("agent", ["hextris.seed", "hextris.champion"])
def test_agents_play_full_games_through_the_harness(agent):
    game = make("hextris(problem=21)")
    res = play(game, [make_agent(agent)], 0, agent_names=[agent], budget=Budget(time_s=1.0))
    d = res.outcome.details
    assert res.outcome.termination in ("SOURCE_EXHAUSTED", "SPAWN_BLOCKED")
    # The harness score equals the official scorer's on the same string.
    assert res.outcome.scores[0] == d["move_score"] + d["power_score"] > 0


def test_seed_solver_uses_only_its_phrases(problems):
    p = problems[6]
    sol = solve_seed_method(p, p.source_seeds[3])
    got = score_seed(p, p.source_seeds[3], sol.solution)
    assert got.error is None and got.score == sol.score > 0
    assert set(got.reps) <= set(SEED_PHRASES)
    assert got.units == p.source_length  # survives the whole game


def test_champion_valid_and_uses_many_phrases(problems):
    p = problems[11]
    seed = p.source_seeds[1]
    sol = solve_champion(p, seed, 1.0)
    got = score_seed(p, seed, sol.solution)
    assert got.error is None and got.score == sol.score > 0
    assert got.phrases >= 8


def test_champion_respects_phrase_restriction(problems):
    p = problems[0]
    sol = solve_champion(p, 0, 0.5, phrases=("Yuggoth",))
    got = score_seed(p, 0, sol.solution, PHRASES)
    assert got.error is None and set(got.reps) <= {"Yuggoth", "Ei!"}  # "ei!" could only appear by chance


def test_random_weight_passes_only_improve_and_their_scores_are_exact(problems):
    p = problems[15]
    seed = p.source_seeds[0]
    prep = prepare(p)
    # A weak start (the seed team's weights, width 1) that random draws beat within seconds.
    plan = beam_plan(prep, seed, 1, SEED_WEIGHTS)
    text = embed(prep, seed, plan, PHRASES, None, 1, overlaps=True)
    start = Solution(text, score_seed(p, seed, text).score, 1, 0.0)
    deadline = time.monotonic() + 3.0
    rp = _RandomPasses(CHAMPION_WEIGHTS, LOST_WEIGHT, deadline, PHRASES, 1)
    got = _random_passes(prep, seed, start, (len(plan.targets), plan.move_score), rp)
    assert time.monotonic() < deadline + 2.0  # the deadline holds, with slack for a loaded machine
    assert got.score > start.score and got.width == 8
    assert score_seed(p, seed, got.solution).score == got.score


def test_champion_under_a_node_budget_is_reproducible_whatever_the_clock(monkeypatch):
    import itertools

    from snakelab.games.hextris import solver
    from snakelab.games.hextris.agents import width_for_nodes

    # Widths 1, 2, 4 cost 1 + 2 + 4 = 7 beam nodes per unit.
    assert [width_for_nodes(n, 100) for n in (0, 299, 300, 699, 700)] == [1, 1, 2, 2, 4]
    game = "hextris(problem=21,seed_index=0)"
    calm = play(make(game), [make_agent("hextris.champion")], 0, budget=Budget(nodes=2000))
    # A clock that races ahead by a minute at every look: a time budget would be spent
    # at once; the node budget is not a clock.
    ticks = itertools.count()
    monkeypatch.setattr(solver.time, "monotonic", lambda: 60.0 * next(ticks))
    rushed = play(make(game), [make_agent("hextris.champion")], 0, budget=Budget(nodes=2000))
    assert calm.outcome.to_json() == rushed.outcome.to_json() and calm.steps == rushed.steps

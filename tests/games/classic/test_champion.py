"""The classic champion (cell-tree agent): its feasibility test, its safety, its speed-up."""

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakelab import make, make_agent
from snakelab.core.game import Budget
from snakelab.core.grid import Grid
from snakelab.games.classic.champion import CellTreeAgent, block_tables, feasible
from snakelab.games.classic.cycles import corner_cycle
from snakelab.games.classic.planner import N_PLANS, PLAN_LEN, PLAN_POS, SAMPLES
from snakelab.harness import MatchSpec, match_seeds, play, run_many


def _tree_cycles(w, h):
    """Every spanning tree of the block grid, as the successor map of its outline."""
    t = block_tables(w, h)
    nb, ne = t.nblocks, t.nedges
    out = []
    for edges in itertools.combinations(range(ne), nb - 1):
        parent = list(range(nb))

        def find(a, parent=parent):
            while parent[a] != a:
                a = parent[a]
            return a

        ok = True
        for e in edges:
            a, b = find(int(t.eu[e])), find(int(t.ev[e]))
            if a == b:
                ok = False
                break
            parent[a] = b
        if not ok:
            continue
        chosen = set(edges)
        succ = [
            int(t.ex_to[s]) if t.ex_edge[s] >= 0 and int(t.ex_edge[s]) in chosen else int(t.in_to[s])
            for s in range(w * h)
        ]
        out.append(succ)
    return out


def _random_body(w, h, rng):
    """A self-avoiding walk along the allowed moves (a candidate body, tail first)."""
    t = block_tables(w, h)
    body = [rng.randrange(w * h)]
    for _ in range(rng.randrange(1, w * h)):
        s = body[-1]
        options = [int(x) for x in (t.in_to[s], t.ex_to[s]) if x >= 0 and int(x) not in body]
        if not options:
            break
        body.append(rng.choice(options))
    return body


@pytest.mark.parametrize(("w", "h"), [(4, 4), (6, 4), (4, 6), (2, 6)])
def test_feasible__matches_brute_force_over_all_spanning_trees(w, h):
    cycles = _tree_cycles(w, h)
    for succ in cycles:  # every outline is a Hamiltonian cycle
        seen, s = set(), 0
        for _ in range(w * h):
            seen.add(s)
            s = succ[s]
        assert s == 0 and len(seen) == w * h
    t = block_tables(w, h)
    nb, ne = t.nblocks, t.nedges
    mark = np.zeros(max(ne, 1), np.int8)
    parent = np.zeros(nb, np.int64)
    rng = random.Random(w * 100 + h)
    verdicts = set()
    for _ in range(300):
        body = _random_body(w, h, rng)
        want = any(all(succ[a] == b for a, b in itertools.pairwise(body)) for succ in cycles)
        seq = np.array(body, np.int64)
        got = feasible(seq, len(body), t, mark, parent)
        assert got == want, body
        verdicts.add(want)
    assert verdicts == {True, False}  # both answers were exercised


@pytest.mark.parametrize("rule", ["lenient", "strict"])
@pytest.mark.parametrize(("w", "h"), [(2, 2), (2, 6), (4, 4), (6, 6), (8, 6), (4, 10), (10, 10), (5, 4), (6, 7)])
def test_champion__wins_every_game(rule, w, h):
    specs = [
        MatchSpec(f"classic(width={w},height={h},tail_rule={rule})", ("classic.champion",), s)
        for s in match_seeds(7, 12)
    ]
    results = run_many(specs, jobs=1)
    assert all(r.outcome.details["won"] for r in results), [r.outcome for r in results if r.outcome.winner != 0]


@pytest.mark.parametrize("rule", ["lenient", "strict"])
def test_champion__wins_on_larger_even_boards(rule):
    sizes = [(12, 12), (14, 14), (16, 16), (12, 18)]
    specs = [
        MatchSpec(f"classic(width={w},height={h},tail_rule={rule})", ("classic.champion",), s)
        for w, h in sizes
        for s in match_seeds(5, 2)
    ]
    results = run_many(specs, jobs=1)
    assert all(r.outcome.details["won"] for r in results), [r.outcome for r in results if r.outcome.winner != 0]


@pytest.mark.parametrize("rule", ["lenient", "strict"])
def test_champion__body_always_fits_a_cycle_or_a_verified_plan(rule):
    """The safety invariant, checked move by move: without a plan the position is feasible."""
    game = make(f"classic(width=8,height=8,tail_rule={rule})")
    t = block_tables(8, 8)
    nb, ne = t.nblocks, t.nedges
    mark, parent = np.zeros(ne, np.int8), np.zeros(nb, np.int64)
    for seed in range(3):
        state = game.new_state(seed)
        agent = CellTreeAgent()
        agent.reset(game.info, 0, seed)
        plans_used = 0
        while not state.is_over():
            holds_plan = agent._ctl[PLAN_LEN] > agent._ctl[PLAN_POS]
            plans_used += holds_plan
            body = np.array(list(state.body), np.int64)
            fits = feasible(body, len(body), t, mark, parent)
            assert holds_plan or fits, f"seed {seed} step {state.steps}: infeasible body without a plan"
            state.apply([agent.act(state, None)])
        assert state.outcome().details["won"]
        assert plans_used > 0


def test_champion__much_faster_than_the_perturbed_cycle():
    def steps(agent):
        specs = [MatchSpec("classic(width=10,height=10,tail_rule=strict)", (agent,), s) for s in match_seeds(9, 6)]
        return sum(r.steps for r in run_many(specs, jobs=1))

    assert steps("classic.champion") < 0.75 * steps("classic.hamilton-shortcut")


def test_champion__longer_start_and_odd_board_still_win():
    for game in (
        "classic(width=6,height=6,start_length=4)",
        "classic(width=6,height=6,start_length=2,tail_rule=strict)",
    ):
        for seed in range(4):
            res = play(make(game), [make_agent("classic.champion")], seed)
            assert res.outcome.details["won"], (game, seed)


def test_champion__is_registered_as_cell_tree_too():
    a, b = make_agent("classic.champion"), make_agent("classic.cell-tree")
    assert isinstance(a, CellTreeAgent) and isinstance(b, CellTreeAgent)


@pytest.mark.parametrize(("w", "h"), [(3, 3), (3, 5), (5, 3), (5, 7), (9, 9)])
def test_corner_cycle__covers_all_but_the_corner(w, h):
    g = Grid(w, h)
    cyc = corner_cycle(g)
    assert sorted(cyc) == list(range(1, w * h))
    assert all(g.direction_to(a, b) >= 0 for a, b in zip(cyc, cyc[1:] + cyc[:1], strict=True))


@pytest.mark.parametrize(("w", "h"), [(3, 3), (3, 5), (3, 7), (5, 5), (7, 5)])
def test_champion__odd_boards_lenient_always_won(w, h):
    specs = [MatchSpec(f"classic(width={w},height={h})", ("classic.champion",), s) for s in match_seeds(3, 15)]
    results = run_many(specs, jobs=1)
    assert all(r.outcome.details["won"] for r in results)
    assert "both sides odd" in results[0].notices[0]


def test_champion__odd_board_strict_plays_legal_games():
    specs = [MatchSpec("classic(width=5,height=5,tail_rule=strict)", ("classic.champion",), s) for s in range(20)]
    results = run_many(specs, jobs=1)
    assert all(r.outcome.details["length"] >= 20 for r in results)  # it fills the cycle before the last apple


def test_champion__asked_twice_answers_the_same_and_still_wins():
    game = make("classic(width=8,height=8,tail_rule=strict)")
    state = game.new_state(4)
    agent = CellTreeAgent()
    agent.reset(game.info, 0, 4)
    while not state.is_over():
        first = agent.act(state, None)
        assert agent.act(state, None) == first
        state.apply([first])
    assert state.outcome().details["won"]


def test_champion__takes_over_a_longer_start_once_the_body_fits_a_cycle():
    game = make("classic(width=8,height=8,start_length=4)")
    took_over = 0
    for seed in range(4):
        agent = CellTreeAgent()
        res = play(game, [agent], seed)
        assert res.outcome.details["won"]
        took_over += agent._ctl[N_PLANS] > 0  # verified plans were made by the cell-tree logic
    assert took_over == 4


SEARCH = {"lookahead": 1.0, "samples": 4, "huggers": 1, "variants": 8}
"""Every search option of the champion switched on (small, so the tests stay quick)."""


def _play_checking_the_invariant(w, h, rule, seed, **options):
    """Play one game, asserting move by move: the agent holds a verified plan or the body fits a cycle."""
    game = make(f"classic(width={w},height={h},tail_rule={rule})")
    t = block_tables(w, h)
    mark, parent = np.zeros(max(t.nedges, 1), np.int8), np.zeros(t.nblocks, np.int64)
    state = game.new_state(seed)
    agent = CellTreeAgent(**options)
    agent.reset(game.info, 0, seed)
    moves = []
    while not state.is_over():
        holds_plan = agent._ctl[PLAN_LEN] > agent._ctl[PLAN_POS]
        body = np.array(list(state.body), np.int64)
        fits = feasible(body, len(body), t, mark, parent)
        assert holds_plan or fits, f"{w}×{h} {rule} seed {seed} step {state.steps}: infeasible body without a plan"
        moves.append(agent.act(state, None))
        state.apply([moves[-1]])
    assert state.outcome().details["won"], (w, h, rule, seed, state.outcome().termination)
    return moves


EVEN_BOARDS = [(w, h) for w in range(2, 11, 2) for h in range(2, 11, 2)]


@pytest.mark.parametrize("rule", ["lenient", "strict"])
@pytest.mark.parametrize(("w", "h"), EVEN_BOARDS, ids=[f"{w}x{h}" for w, h in EVEN_BOARDS])
def test_champion_search__keeps_the_safety_invariant_on_every_board_size(w, h, rule):
    _play_checking_the_invariant(w, h, rule, w * 31 + h, **SEARCH)


@settings(max_examples=25, deadline=None)
@given(
    w=st.sampled_from([2, 4, 6, 8]),
    h=st.sampled_from([2, 4, 6, 8]),
    rule=st.sampled_from(["lenient", "strict"]),
    seed=st.integers(0, 10**6),
    lookahead=st.sampled_from([0.0, 0.5, 2.0]),
    samples=st.integers(1, 6),
    huggers=st.integers(0, 2),
    variants=st.sampled_from([4, 8]),
)
def test_champion_search__safety_property(w, h, rule, seed, lookahead, samples, huggers, variants):
    """Any mix of search settings on any small even board, either rule: the invariant holds and the game is won."""
    options = {"lookahead": lookahead, "samples": samples, "huggers": huggers, "variants": variants}
    _play_checking_the_invariant(w, h, rule, seed, **options)


def test_champion_search__is_deterministic_for_a_seed_and_plays_its_own_game():
    searched = _play_checking_the_invariant(8, 8, "strict", 11, **SEARCH)
    assert searched == _play_checking_the_invariant(8, 8, "strict", 11, **SEARCH)
    assert searched != _play_checking_the_invariant(8, 8, "strict", 11)  # the lookahead chose other plans


def test_champion_search__settings_reach_the_agent_by_name():
    agent = make_agent("classic.champion(lookahead=1.5,samples=3,huggers=2)")
    assert isinstance(agent, CellTreeAgent)
    assert (agent.lookahead, agent.samples, agent.huggers) == (1.5, 3, 2)


def test_champion_search__a_node_budget_sets_the_samples_per_move():
    game = make("classic(width=6,height=6)")
    state = game.new_state(2)
    agent = CellTreeAgent(lookahead=1.0, samples=5)
    agent.reset(game.info, 0, 2)
    agent.act(state, Budget(nodes=3))
    assert agent._ctl[SAMPLES] == 3
    state.apply([agent.act(state, None)])
    agent.act(state, None)
    assert agent._ctl[SAMPLES] == 5

import pytest

from snakelab import make, make_agent
from snakelab.core.grid import Grid
from snakelab.games.classic.cycles import has_cycle, successor_table, zigzag_cycle
from snakelab.harness import MatchSpec, match_seeds, play, run_many


@pytest.mark.parametrize(("w", "h"), [(2, 2), (2, 3), (3, 4), (4, 4), (5, 6), (7, 2), (12, 12)])
def test_zigzag_cycle__is_hamiltonian(w, h):
    g = Grid(w, h)
    cyc = zigzag_cycle(g)
    assert cyc is not None and sorted(cyc) == list(range(w * h))
    successor_table(g, cyc)  # raises if two consecutive cells are not adjacent


def test_odd_boards_have_no_cycle():
    assert not has_cycle(5, 5) and zigzag_cycle(Grid(3, 5)) is None


@pytest.mark.parametrize("rule", ["lenient", "strict"])
@pytest.mark.parametrize("agent", ["hamilton", "hamilton-shortcut", "champion"])
@pytest.mark.parametrize(("w", "h"), [(4, 4), (6, 5), (8, 8)])
def test_cycle_agents__always_win(agent, rule, w, h):
    specs = [
        MatchSpec(f"classic(width={w},height={h},tail_rule={rule})", (f"classic.{agent}",), s)
        for s in match_seeds(11, 15)
    ]
    results = run_many(specs, jobs=1)
    assert all(r.outcome.details["won"] for r in results), [r.outcome for r in results if r.outcome.winner != 0]


def test_shortcut__beats_plain_cycle():
    specs = lambda a: [MatchSpec("classic(width=8,height=8)", (a,), s) for s in match_seeds(3, 30)]  # noqa: E731
    plain = sum(r.steps for r in run_many(specs("classic.hamilton"), jobs=1))
    fast = sum(r.steps for r in run_many(specs("classic.hamilton-shortcut"), jobs=1))
    assert fast < 0.85 * plain


def test_hamilton__odd_board_says_so_and_falls_back():
    game = make("classic(width=5,height=5)")
    agent = make_agent("classic.hamilton")
    res = play(game, [agent], 1)
    assert res.notices and "no Hamiltonian cycle" in res.notices[0]
    assert res.outcome.details["length"] > 5


def test_greedy_and_random_play_legal_games():
    for name in ("greedy", "random", "safe"):
        res = play(make("classic(width=6,height=6)"), [make_agent(f"classic.{name}")], 2)
        assert res.steps > 0

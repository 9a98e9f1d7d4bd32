"""The searching agents (references and champion): forced moves, node-budget determinism, time budgets."""

import os
import signal
import threading
import time

import pytest

from snakelab import make, make_agent
from snakelab.core.game import Budget
from snakelab.games.arena.agents import greedy_move
from snakelab.games.arena.rules import DOWN, LEFT, RIGHT, STRAIGHT, TURN, UP

from .pictures import board

AGENTS = ("arena.voronoi", "arena.mcts", "arena.champion")
BUDGETS = (Budget(nodes=3000), Budget(time_s=0.05))


def _info(s):
    c = s.config
    return make(
        f"arena(game_width={c.game_width},game_height={c.game_height},num_snakes={c.num_snakes},"
        f"num_zombies={c.num_zombies},num_apples={c.num_apples},starting_length={c.starting_length})"
    ).info


def _move(name, s, budget, player=0, seed=1):
    a = make_agent(name)
    a.reset(_info(s), player, seed)
    m = a.act(s, budget)
    assert s.is_legal(player, m)
    return TURN[s.heading[player]][m]


def _survives(s, move, others=None):
    st = s.clone()
    acts = [move] + [greedy_move(s, i) if others is None else others for i in range(1, len(s.bodies))]
    st.apply(acts)
    return st.alive[0]


@pytest.mark.parametrize("name", AGENTS)
@pytest.mark.parametrize("budget", BUDGETS, ids=("nodes", "time"))
def test_turns_away_from_the_wall(name, budget):
    # Heading up from the top-right corner: up and right are walls, only left survives.
    s = board(
        """
        .......0
        .......a
        .......a
        ........
        1b......
        """
    )
    assert _move(name, s, budget) == LEFT


@pytest.mark.parametrize("name", AGENTS)
@pytest.mark.parametrize("budget", BUDGETS, ids=("nodes", "time"))
def test_avoids_a_dead_end_pocket(name, budget):
    s = board(
        """
        ..........
        aaaaaaa0..
        #######.##
        ######*.##
        ########..
        b1........
        """,
    )
    # Down leads to the apple but into a pocket of 2 cells, far too small for a snake of 8.
    assert greedy_move(s, 0) == DOWN
    assert _move(name, s, budget) in (UP, RIGHT)


@pytest.mark.parametrize("name", AGENTS)
@pytest.mark.parametrize("budget", BUDGETS, ids=("nodes", "time"))
def test_does_not_step_next_to_a_zombie_head(name, budget):
    s = board(
        """
        ..........
        ..........
        aaaa0.*...
        ......Z...
        ......zzzz
        ..........
        1b........
        """,
        zombies=1,
    )
    move = _move(name, s, budget)
    st = s.clone()
    st.apply([move, STRAIGHT])
    assert st.alive[0]
    st.apply([TURN[st.heading[0]][STRAIGHT], STRAIGHT])
    assert st.alive[0]


@pytest.mark.parametrize("name", AGENTS)
def test_takes_the_adjacent_apple(name):
    s = board(
        """
        ..........
        ..........
        aaaa0*....
        ..........
        ..........
        1b........
        """,
    )
    assert _move(name, s, Budget(nodes=3000)) == RIGHT


@pytest.mark.parametrize("name", AGENTS)
def test_avoids_a_head_on_cell(name):
    s = board(
        """
        ........
        ........
        aa0.1b..
        ........
        ........
        """,
        apples=0,
    )
    # (3,2) can be entered by both heads: a head-on kills both.
    assert _move(name, s, Budget(nodes=3000)) in (UP, DOWN)


@pytest.mark.parametrize("name", AGENTS)
def test_dead_snake_goes_straight(name):
    s = board(
        """
        ......
        a0....
        ......
        1b....
        """
    )
    s.bodies[0].clear()
    s.alive[0] = False
    a = make_agent(name)
    a.reset(_info(s), 0, 1)
    assert a.act(s, Budget(nodes=100)) == STRAIGHT


def _play(name, seed, budget, steps=40):
    game = make("arena(game_width=20,game_height=20,duration=10)")
    s = game.new_state(seed)
    agents = [make_agent(name), make_agent("arena.greedy"), make_agent(name), make_agent("arena.greedy")]
    for i, a in enumerate(agents):
        a.reset(game.info, i, 100 + i)
    moves = []
    for _ in range(steps):
        if s.is_over():
            break
        acts = [a.act(s, budget) for a in agents]
        moves.append(acts)
        s.apply(acts)
    return moves


@pytest.mark.parametrize("name", AGENTS)
def test_node_budget_is_deterministic(name):
    a = _play(name, 3, Budget(nodes=400))
    b = _play(name, 3, Budget(nodes=400))
    assert a == b
    assert len(a) == 40


@pytest.mark.parametrize("name", AGENTS)
def test_honours_a_tiny_time_budget(name):
    game = make("arena(duration=60)")
    s = game.new_state(4)
    a = make_agent(name)
    a.reset(game.info, 0, 1)
    a.act(s, Budget(time_s=0.001))  # compiles or loads the kernels
    worst = 0.0
    for _ in range(20):
        t0 = time.perf_counter()
        m = a.act(s, Budget(time_s=0.001))
        worst = max(worst, time.perf_counter() - t0)
        s.apply([m] + [greedy_move(s, i) for i in (1, 2, 3)])
    assert worst < 0.5  # generous: a loaded machine may deschedule us, but no runaway search


def test_search_reaches_depth_with_a_node_budget():
    from snakelab.games.arena.mcts import MctsAgent
    from snakelab.games.arena.voronoi import VoronoiAgent

    game = make("arena(duration=60)")
    s = game.new_state(2)
    v = VoronoiAgent()
    v.reset(game.info, 0, 1)
    v.act(s, Budget(nodes=20_000))
    assert v.last_depth >= 4
    m = MctsAgent()
    m.reset(game.info, 0, 1)
    m.act(s, Budget(nodes=500))
    assert m.last_iterations == 500


@pytest.mark.parametrize(
    "ref",
    [
        "arena.voronoi(max_depth=0)",
        "arena.voronoi(time_fraction=0)",
        "arena.mcts(greed=1.5)",
        "arena.mcts(max_nodes=0)",
        "arena.mcts(rollout=-1)",
        "arena.mcts(scale=0)",
        "arena.champion(horizon=0)",
        "arena.champion(second=2)",
        "arena.champion(zombie=-1)",
        "arena.champion(spawn=-1)",
        "arena.champion(spawn_paths=81)",
        "arena.champion(doom_ahead=-1)",
        "arena.champion(doom_ahead_len=-1)",
        "arena.champion(doom_zombies=3)",
    ],
)
def test_bad_options_are_one_line_errors(ref):
    from snakelab.core.errors import ConfigError

    with pytest.raises(ConfigError, match=ref.split("(")[1].split("=")[0]):
        make_agent(ref)


@pytest.mark.parametrize("name", AGENTS)
def test_a_node_budget_wins_over_the_clock(name, monkeypatch):
    # --nodes gives Budget(time_s=speed, nodes=N): the clock must then not matter.
    import itertools

    game = make("arena(game_width=20,game_height=20,duration=10)")
    s = game.new_state(5)
    calm = make_agent(name)
    calm.reset(game.info, 0, 1)
    want = calm.act(s, Budget(time_s=0.01, nodes=200))
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * 10.0)  # every reading 10 s later
    rushed = make_agent(name)
    rushed.reset(game.info, 0, 1)
    assert rushed.act(s, Budget(time_s=0.01, nodes=200)) == want


def test_a_starved_mcts_still_looks_at_every_root_move(monkeypatch):
    import itertools

    from snakelab.games.arena.mcts import MctsAgent

    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * 10.0)  # the deadline is gone at once
    game = make("arena(duration=60)")
    s = game.new_state(2)
    m = MctsAgent()
    m.reset(game.info, 0, 1)
    m.act(s, Budget(time_s=0.01))
    assert m.last_iterations == 3


def test_the_champion_race_horizon_cuts_the_evaluation():
    import numpy as np

    from snakelab.games.arena import sim
    from snakelab.games.arena.evaluation import NO_TIMID, W_HORIZON, WEIGHTS, evaluate, evaluate_w

    game = make("arena(duration=60)")
    s = game.new_state(3)
    lay = sim.layout(s)
    st = sim.encode(s, lay)
    nbr = sim.grid_nbr(s)
    work = np.empty(4 * 2500 + 1, np.int32)
    full = evaluate(st, lay, nbr, 0, 0, work)
    assert evaluate_w(st, lay, nbr, 0, 0, work, WEIGHTS, NO_TIMID) == full
    near = WEIGHTS.copy()
    near[W_HORIZON] = 3
    # Within 3 steps a snake owns at most 24 cells: far less territory than on the whole board.
    assert evaluate_w(st, lay, nbr, 0, 0, work, near, NO_TIMID) < full


def test_a_cut_off_iteration_keeps_a_finished_move_that_beat_the_first():
    import numpy as np

    from snakelab.games.arena.search import partial_order

    unfinished = -1.0e18
    assert partial_order([0, 2, 3], np.array([5.0, 7.0, unfinished])) == [2, 0, 3]
    assert partial_order([0, 2, 3], np.array([5.0, 6.0, 9.0])) == [3, 0, 2]
    # A later move below the first (an upper bound only), or the first move unfinished: nothing learnt.
    assert partial_order([0, 2, 3], np.array([5.0, 4.0, unfinished])) == [0, 2, 3]
    assert partial_order([0, 2, 3], np.array([unfinished, unfinished, unfinished])) == [0, 2, 3]


def test_killer_moves_change_the_work_not_the_value():
    import numpy as np

    from snakelab.games.arena import sim
    from snakelab.games.arena.evaluation import NO_TIMID, W_KILLERS, W_PATHS, W_ROOT_LEN
    from snakelab.games.arena.search import Frame, alphabeta

    game = make("arena(game_width=14,game_height=14,duration=10)")
    champion = make_agent("arena.champion")
    nodes = {0: 0, 1: 0}
    for seed in range(8):
        s = game.new_state(seed)
        lay = sim.layout(s, cap=40)
        root = sim.encode(s, lay)
        nbr = sim.grid_nbr(s)
        values = {}
        for k in (0, 1):
            wts = champion.weights.copy()
            # Pulls by Manhattan distance: the way round's maps need the agent's own scratch.
            wts[W_ROOT_LEN], wts[W_KILLERS], wts[W_PATHS] = len(s.bodies[0]), k, 0
            bufs = np.empty((8, root.shape[0]), np.int32)
            bufs[0] = root
            counter = np.array([0, 1 << 60, 0], np.int64)
            killer = np.full(24, -2, np.int32)
            order = np.asarray([d for d in range(4) if d != (s.heading[0] ^ 1)], np.int32)
            values[k] = [
                alphabeta(Frame(bufs, lay, nbr, 0, np.empty(4 * 196 + 1, np.int32), np.zeros((8, 4), np.int32),
                                counter, order, np.full(3, -1.0e18), 1.0e308, wts, NO_TIMID, killer),
                          0, depth, -1.0e18, 1.0e18)
                for depth in range(1, 5)
            ]  # fmt: skip
            nodes[k] += int(counter[0])
        assert values[0] == values[1]
    assert nodes[1] < nodes[0]


@pytest.mark.parametrize("name", AGENTS)
def test_an_interrupt_during_a_timed_search_stays_an_interrupt(name):
    # A Ctrl-C during a timed search must stop it as a KeyboardInterrupt (had it landed in
    # Python code a kernel runs, numba would report it as a SystemError, and the harness
    # would print a traceback instead of stopping the run with its resume hint).
    game = make("arena(duration=60)")
    s = game.new_state(4)
    a = make_agent(name)
    a.reset(game.info, 0, 1)
    a.act(s, Budget(time_s=0.001))  # compiles or loads the kernels
    # A worker started in the background (``make test &``) inherits SIGINT ignored, and
    # Python then keeps it ignored: set the handler a terminal's Ctrl-C would find.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT))
    try:
        with pytest.raises(KeyboardInterrupt):
            timer.start()
            for _ in range(1000):  # long timed searches until the interrupt arrives
                a.act(s, Budget(time_s=10.0))
    finally:
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGINT, previous)

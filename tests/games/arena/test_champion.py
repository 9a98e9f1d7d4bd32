"""The champion's own pieces: the contact model of opponents, timid replies, the clock-aware value."""

import numpy as np
import pytest

from snakelab import make, make_agent
from snakelab.core.errors import ConfigError
from snakelab.core.game import Budget
from snakelab.games.arena import sim
from snakelab.games.arena.champion import ChampionAgent, ChampionOptions, ContactModel
from snakelab.games.arena.evaluation import (
    W_CLOCK,
    W_HORIZON,
    W_LATE_C0,
    W_LATE_RATE,
    W_RIVAL,
    W_RIVAL_IDX,
    W_RIVAL_ROOT,
    W_ROOT_LEN,
    WEIGHTS,
    dead_value,
    evaluate_w,
)
from snakelab.games.arena.rules import LEFT, RIGHT, TURN, UP

from .pictures import board

# Snake 1's apple lies beyond the cell both heads can enter: the greedy filler steps there.
CONTACT = """
..........
..........
*..aa0.1b.
..........
"""


def _info(s):
    c = s.config
    return make(
        f"arena(game_width={c.game_width},game_height={c.game_height},num_snakes={c.num_snakes},"
        f"num_zombies={c.num_zombies},num_apples={c.num_apples},starting_length={c.starting_length})"
    ).info


def test_a_greedy_opponent_is_reckless_and_a_swerving_one_timid():
    for their_move, timid in ((LEFT, 0), (UP, 1)):
        s = board(CONTACT)
        model = ContactModel(2)
        assert model.update(s, 0) == [0, 0]  # nothing seen yet: reckless, the safe guess
        s.apply([UP, their_move])  # we swerve; they take the contested cell or swerve too
        assert model.update(s, 0) == [0, timid]
        assert (model.reckless_seen[1], model.timid_seen[1]) == (1 - timid, timid)


def test_one_reckless_step_outweighs_a_few_timid_ones():
    model = ContactModel(2, trust=2.0)
    model.timid_seen[1], model.reckless_seen[1] = 2, 1
    s = board(CONTACT)
    assert model.update(s, 0) == [0, 0]
    model.timid_seen[1] = 3
    assert model.update(s, 0) == [0, 1]
    # The champion's own trust: one reckless step outweighs a game's swerves.
    strict = ContactModel(2)
    strict.timid_seen[1], strict.reckless_seen[1] = 500, 1
    assert strict.update(s, 0) == [0, 0]
    strict.reckless_seen[1] = 0
    assert strict.update(s, 0) == [0, 1]


def _champion_move(s, timid_seen):
    a = make_agent("arena.champion")
    assert isinstance(a, ChampionAgent)
    a.reset(_info(s), 0, 1)
    a._contact.timid_seen[1] = timid_seen
    m = a.act(s, Budget(nodes=3000))
    return TURN[s.heading[0]][m], a.last_timid


def test_the_champion_takes_an_apple_a_timid_opponent_would_leave():
    # The apple is next to both heads. Against an opponent that may step there too it is
    # a head-on; an opponent seen to swerve leaves it.
    s = board(
        """
        ........
        ........
        aa0*1b..
        ........
        ........
        """
    )
    move, timid = _champion_move(s, 0)
    assert move != RIGHT and timid == [0, 0]
    move, timid = _champion_move(s, 5)
    assert move == RIGHT and timid == [0, 1]


def test_champion_sees_opponents_as_timid_only_with_timid_on():
    s = board(CONTACT)
    a = make_agent("arena.champion(timid=0)")
    a.reset(_info(s), 0, 1)
    a._contact.timid_seen[1] = 5
    a.act(s, Budget(nodes=200))
    assert a.last_timid == [0, 0]


def test_paranoid_references_are_seen_as_timid_and_greedy_as_reckless():
    game = make("arena(game_width=16,game_height=16,num_zombies=1,duration=4)")
    for other, want in (("arena.voronoi", 1), ("arena.greedy", 0)):
        s = game.new_state(3)
        agents = [make_agent("arena.champion")] + [make_agent(other) for _ in range(3)]
        for i, a in enumerate(agents):
            a.reset(game.info, i, 10 + i)
        champ = agents[0]
        assert isinstance(champ, ChampionAgent)
        ever = [0, 0, 0, 0]
        while not s.is_over():
            s.apply([a.act(s, Budget(nodes=300)) for a in agents])
            ever = [max(x, y) for x, y in zip(ever, champ.last_timid, strict=True)]
        if want:
            assert sum(ever) >= 1, "no voronoi opponent was ever seen to swerve"
        else:
            assert ever == [0, 0, 0, 0]
            assert sum(champ._contact.reckless_seen) >= 1


def _weights(root_len):
    w = WEIGHTS.copy()
    w[W_LATE_C0], w[W_LATE_RATE], w[W_ROOT_LEN], w[W_CLOCK] = 5000.0, 200.0, root_len, 1.0
    return w


def test_a_death_costs_the_growth_still_to_come():
    game = make("arena(duration=60)")
    gaps = []
    for left in (1000, 300, 30):
        s = game.new_state(3)
        s.steps = s.config.steps - left
        lay = sim.layout(s)
        st = sim.encode(s, lay)
        work = np.empty(4 * lay[sim.L_SIZE] + 1, np.int32)
        length = len(s.bodies[0])
        wts = _weights(length)
        dead = dead_value(st, lay, 0, 0, wts)
        assert dead == 1000.0 * length - 5000.0 - 200.0 * left
        gaps.append(evaluate_w(st, lay, sim.grid_nbr(s), 0, 0, work, wts, np.zeros(4, np.int32)) - dead)
    # Early a death is far worse than losing any apple race (an apple is 3,000 and a
    # few thousand of bonus); late it costs a few apples' worth.
    assert gaps[0] > 50 * 3000
    assert gaps[0] > gaps[1] > gaps[2] > 0
    assert gaps[2] < 8 * 3000


def test_the_last_step_counts_only_the_longest_length():
    game = make("arena(duration=60)")
    s = game.new_state(3)
    s.steps = s.config.steps
    s.longest[0] = 42
    lay = sim.layout(s)
    st = sim.encode(s, lay)
    work = np.empty(4 * lay[sim.L_SIZE] + 1, np.int32)
    assert evaluate_w(st, lay, sim.grid_nbr(s), 0, 0, work, _weights(5), np.zeros(4, np.int32)) == 42000.0


def _value(s, horizon):
    lay = sim.layout(s)
    st = sim.encode(s, lay)
    work = np.empty(4 * lay[sim.L_SIZE] + 1, np.int32)
    wts = _weights(len(s.bodies[0]))
    wts[W_HORIZON] = horizon
    return evaluate_w(st, lay, sim.grid_nbr(s), 0, 0, work, wts, np.zeros(len(s.bodies), np.int32))


def test_a_long_snake_in_the_open_is_not_trapped_by_a_near_horizon():
    # 20 cells long: within 3 steps it owns far fewer cells than its length, but its
    # region is open at the horizon, so no trap penalty (about 20,000) applies.
    s = board(
        """
        ..............................
        .aaaaaaaaaaaaaaaaaaa0.........
        ..............................
        ..............................
        ..............................
        ..............................
        1b............................
        """,
        apples=0,
    )
    full, near = _value(s, 1.0e9), _value(s, 3)
    assert abs(full - near) < 1000


def test_a_closed_pocket_is_a_trap_at_any_horizon():
    open_, closed = (
        board(
            f"""
            ..............
            #########{gap}....
            #aaaaaaa0.#...
            ##########....
            1b............
            """,
            apples=0,
        )
        for gap in (".", "#")
    )
    for horizon in (3, 1.0e9):
        assert _value(closed, horizon) < _value(open_, horizon) - 15000


def test_a_room_closed_beyond_the_horizon_is_a_trap():
    # A 33-cell snake has just entered a 27-cell dead end, closed 27 steps away: the
    # near race (3 steps) cannot tell, so the race goes on and finds the trap. With a
    # gap at the far end the room opens onto the cells the body is leaving.
    rows = [
        "a" * 30,
        "a" + "#" * 27 + "{gap}" + "#",
        "a0" + "." * 27 + "#",
        "#" * 30,
        "1b" + "." * 28,
    ]
    closed, open_ = (board("\n".join(rows).replace("{gap}", gap), apples=0) for gap in ("#", "."))
    assert len(closed.bodies[0]) == 33
    for horizon in (3, 1.0e9):
        assert _value(closed, horizon) < _value(open_, horizon) - 15000


def test_an_apple_is_ours_to_claim_when_the_snake_there_first_heads_for_another():
    from snakelab.games.arena.targets import apple_races, claims, race_table

    # Apple A (slot 0) is 12 steps from us and 5 from snake 1; apple B (slot 1) is 3 or
    # 6 from snake 1 and far from us. Snake 1 reaches both first and heads for the
    # nearer: with B at 3 steps it leaves A to us, with B at 6 it takes A and leaves B.
    for far_apple, mask in ((16, 0b01), (19, 0b10)):
        row = ["."] * 20
        row[10] = "*"
        row[far_apple] = "*"
        s = board("0a" + "." * 18 + "\n" + "." * 14 + "1b" + "." * 4 + "\n" + "".join(row))
        lay = sim.layout(s)
        st = sim.encode(s, lay)
        assert [st[lay[sim.L_APPLE] + k] for k in range(2)] == [s.grid.index(10, 2), s.grid.index(far_apple, 2)]
        work = np.empty(4 * lay[sim.L_SIZE] + 1, np.int32)
        for me, want in ((0, mask), (1, 0b11)):  # no one is there before snake 1
            ad = race_table(lay)
            apple_races(st, lay, sim.grid_nbr(s), me, work, ad)
            assert claims(st, lay, me, ad) == want


def test_a_trap_late_in_the_game_is_never_worse_than_dying():
    # The 33-cell snake in a 27-cell dead end. Early its shortfall costs about 24,000:
    # far less than a death. Ten steps before the end a death costs 7,000, less than
    # that shortfall; the trap, a death foretold, is then still valued above dying.
    rows = ["a" * 30, "a" + "#" * 29, "a0" + "." * 27 + "#", "#" * 30, "1b" + "." * 28]
    s = board("\n".join(rows), apples=0)
    length = len(s.bodies[0])
    for left, trap_cost in ((1000, 15000), (10, 0.8 * 7000)):
        s.steps = s.config.steps - left
        lay = sim.layout(s)
        st = sim.encode(s, lay)
        work = np.empty(4 * lay[sim.L_SIZE] + 1, np.int32)
        wts = _weights(length)
        trapped = evaluate_w(st, lay, sim.grid_nbr(s), 0, 0, work, wts, np.zeros(2, np.int32))
        assert dead_value(st, lay, 0, 0, wts) < trapped < 1000.0 * length - trap_cost


# Snake 1, the longest opponent, reaches the upper apple first (3 steps, we need 4); we
# reach the left one first.
RIVAL = """
....*.....
.0a.......
..........
*...1bbbb.
..........
.......2c.
"""


def test_the_rival_is_the_longest_opponent_its_pending_growth_counted():
    s = board(RIVAL, snakes=3)
    champ = ChampionAgent(ChampionOptions(rival=0.5, claim=0))
    champ.reset(_info(s), 0, 1)
    lay, nbr = sim.layout(s), sim.grid_nbr(s)

    def rival(growth):
        wts, _ = champ._model(s, growth)
        return champ._at_root(wts, sim.encode(s, lay, growth), lay, nbr)

    wts = rival([0, 0, 0])
    assert (wts[W_RIVAL], wts[W_RIVAL_IDX], wts[W_RIVAL_ROOT]) == (0.5, 1, 5)
    wts = rival([0, 0, 4])  # snake 2 will be 2 + 4 cells long
    assert (wts[W_RIVAL_IDX], wts[W_RIVAL_ROOT]) == (2, 6)
    assert ChampionAgent().weights[W_RIVAL] == 2.0  # the default


def test_the_rivals_apple_and_growth_cost_a_share_of_ours():
    s = board(RIVAL, snakes=3)
    lay = sim.layout(s)
    st = sim.encode(s, lay)
    nbr = sim.grid_nbr(s)
    work = np.empty(4 * lay[sim.L_SIZE] + 1, np.int32)
    timid = np.zeros(3, np.int32)

    def value(share, rival_root):
        wts = _weights(len(s.bodies[0]))
        wts[W_RIVAL], wts[W_RIVAL_IDX], wts[W_RIVAL_ROOT] = share, 1, rival_root
        return evaluate_w(st, lay, nbr, 0, 0, work, wts, timid), dead_value(st, lay, 0, 0, wts)

    alive0, dead0 = value(0.0, 5)
    # The rival's apple, 3 steps away, is worth 2,000 + 15 × (300 − 3) to it.
    alive, dead = value(0.5, 5)
    assert alive0 - alive == 0.5 * (2000 + 15 * 297) and dead == dead0
    # Two cells grown since the root cost 1,000 each, alive or dead.
    alive2, dead2 = value(0.5, 3)
    assert alive - alive2 == 0.5 * 2000 and dead - dead2 == 0.5 * 2000


def _spot(s, me=0, paths=0):
    from snakelab.games.arena.targets import apple_races, race_table, spawn_spot

    lay = sim.layout(s)
    st = sim.encode(s, lay)
    nbr = sim.grid_nbr(s)
    work = np.empty(4 * lay[sim.L_SIZE] + 1, np.int32)
    ad = race_table(lay)
    apple_races(st, lay, nbr, me, work, ad)
    return spawn_spot(st, lay, nbr, me, ad, work, paths)


def test_the_spawn_spot_is_where_the_next_apple_is_likeliest_ours():
    # Snake 1 eats the left apple in 3 steps; we are 7 steps behind it there. At that
    # moment it stands at the left edge and a new apple appears on any free cell: of
    # the cells we reach in 3 steps, the one nearest it on its open side is nearer than
    # it to most of the board.
    s = board(
        """
        ....................
        ....................
        ....................
        .*..1b.....0a.......
        ....................
        ....................
        ....................
        """
    )
    spot = _spot(s)
    x, y = spot % 20, spot // 20
    assert (x, y) == (8, 3)
    # Snake 1's own spot: it eats first, so it has none.
    assert _spot(s, 1) == -1


def test_the_spawn_spot_by_path_distance_sees_a_wall():
    # Snake 1 eats the left apple in 3 steps. Below the wall, snake 2 is nearer every
    # cell by path, but a cell of ours next to the wall is nearer many of them by
    # Manhattan distance: ranked by Manhattan the spot is there, ranked by path it is
    # where we split the upper room with the two opponents.
    s = board(
        """
        ....................
        .*..1b..............
        ....................
        ..........0a........
        ....................
        ###################.
        ....................
        ....................
        .................2c.
        ....................
        """,
        snakes=3,
    )
    manhattan, path = _spot(s), _spot(s, paths=8)
    assert manhattan // 20 == 4 and path // 20 < 4

    def owned(spot):
        # Free cells nearer the spot than either opponent (where they stand at t*) by path.
        g = s.grid
        free = [c for c in range(g.size) if s.occ[c] == 0]

        def steps(start):
            dist, todo = {start: 0}, [start]
            for c in todo:
                for d in range(4):
                    m = s._nbr[4 * c + d]
                    if m >= 0 and s.occ[m] == 0 and m not in dist:
                        dist[m] = dist[c] + 1
                        todo.append(m)
            return dist

        ours, theirs = steps(spot), [steps(g.index(1, 1)), steps(g.index(17, 8))]
        return sum(c in ours and all(ours[c] < t.get(c, 1 << 30) for t in theirs) for c in free)

    assert owned(path) > owned(manhattan)


def test_no_spawn_spot_while_an_apple_race_is_ours_to_run():
    # Level with snake 1 on the apple (4 steps each): we race for it, no spot.
    s = board(
        """
        .........
        1b..*..0a
        .........
        """
    )
    assert _spot(s) == -1


def test_the_spawn_weight_pulls_an_idle_snake_toward_the_spot():
    from snakelab.games.arena.evaluation import W_SPAWN, W_SPAWN_CELL

    s = board(
        """
        ....................
        .*..1b.....0a.......
        ....................
        """
    )
    lay = sim.layout(s)
    st = sim.encode(s, lay)
    work = np.empty(4 * lay[sim.L_SIZE] + 1, np.int32)
    wts = _weights(len(s.bodies[0]))
    values = []
    for cell in (s.grid.index(9, 1), s.grid.index(17, 1)):  # 2 and 6 steps from our head
        wts[W_SPAWN], wts[W_SPAWN_CELL] = 15.0, cell
        values.append(evaluate_w(st, lay, sim.grid_nbr(s), 0, 0, work, wts, np.zeros(2, np.int32)))
    assert values[0] - values[1] == 15.0 * 4


# Our head sits under its own neck, the apple 4 cells straight up beyond it: the body
# between them frees from its far end, too late, so the way is round its right end.
COIL = """
..........*.........
....................
aaaaaaaaaaa.........
..........a.........
..........0.........
....................
...................1
...................b
"""


def test_the_pull_maps_follow_the_way_round_a_body_still_in_the_way():
    from snakelab.games.arena.evaluation import W_PATHS, W_SPAWN
    from snakelab.games.arena.targets import apple_races, pull_maps, race_table

    s = board(COIL)
    lay = sim.layout(s)
    st = sim.encode(s, lay)
    nbr = sim.grid_nbr(s)
    size = int(lay[sim.L_SIZE])
    work = np.empty((5 + int(lay[sim.L_NA])) * size + 1, np.int32)
    ad = race_table(lay)
    apple_races(st, lay, nbr, 0, work, ad)
    pull_maps(st, lay, nbr, 0, work, -1)
    g = s.grid
    head = g.index(10, 4)
    pulls = work[4 * size + 1 : 5 * size + 1]  # apple slot 0's map
    # At the head, the map is the head's own race to the apple: round the body's right end.
    assert pulls[head] == ad[0, 0] == 6
    assert pulls[g.index(11, 4)] == 5 and pulls[g.index(10, 5)] == 7
    # The left way waits for the tail to clear the far end: longer still.
    assert pulls[g.index(9, 4)] > 7

    # With the apple beyond the race's horizon, the pull by path ranks the first moves
    # right, straight, left; by Manhattan distance (each 5 from the apple) it cannot.
    def value(cell, paths):
        wts = _weights(len(s.bodies[0]))
        wts[W_HORIZON], wts[W_SPAWN], wts[W_PATHS] = 2, 0.0, paths
        child = st.copy()
        move = g.direction_to(head, cell)
        moves = np.array([move, int(s.heading[1])], np.int32)
        sim.step(child, lay, nbr, moves)
        return evaluate_w(child, lay, nbr, 0, 1, work, wts, np.zeros(64, np.int32))

    right, straight, left = (g.index(11, 4), g.index(10, 5), g.index(9, 4))
    assert value(right, 1) > value(straight, 1) > value(left, 1)


def test_predicted_replies_are_the_moves_the_references_play_on_the_same_budget():
    # Given the references' own node budget, the prediction is their search exactly: every
    # live opponent's predicted reply is the move it then plays.
    game = make("arena(game_width=20,game_height=20,duration=10)")
    s = game.new_state(5)
    champ = ChampionAgent(ChampionOptions(predict=60))
    agents = [champ, *(make_agent("arena.voronoi") for _ in range(3))]
    for i, a in enumerate(agents):
        a.reset(game.info, i, 100 + i)
    checked = 0
    for _ in range(60):
        if s.is_over():
            break
        alive = list(s.alive)
        acts = [a.act(s, Budget(nodes=60)) for a in agents]
        if alive[0]:
            for j in range(1, 4):
                assert champ.last_predicted[j] == (acts[j] if alive[j] else -1)
                checked += alive[j]
        s.apply(acts)
    assert checked > 100


def test_a_negative_prediction_budget_is_refused():
    with pytest.raises(ConfigError, match="predict"):
        ChampionAgent(ChampionOptions(predict=-1))

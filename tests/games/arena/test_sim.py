"""The compiled simulator against the rules, step by step."""

import random

import numpy as np
import pytest

from snakelab import make
from snakelab.games.arena import sim
from snakelab.games.arena.rules import CRASH, INVALID, TIMEOUT

from .pictures import board


def _compare(s, st, lay, skip_snakes, where):
    """Every field the simulator keeps equals the rules', apart from respawns."""
    size = int(lay[sim.L_SIZE])
    occ = np.asarray(s.occ, dtype=np.int32)
    for i in skip_snakes:
        for c in s.bodies[i]:
            occ[c] = 0
    assert np.array_equal(st[:size], occ), f"{where}: occupancy differs"
    f0 = int(lay[sim.L_SNK])
    for i in range(len(s.bodies)):
        f = f0 + sim.NF * i
        assert int(st[f + sim.F_KILLS]) == s.kills[i], f"{where}: kills of {i}"
        assert int(st[f + sim.F_DEATHS]) == s.deaths[i], f"{where}: deaths of {i}"
        assert bool(st[f + sim.F_RUNNING]) == s.running[i], f"{where}: running of {i}"
        if i in skip_snakes:
            continue
        assert sim.snake_cells(st, lay, i) == list(s.bodies[i]), f"{where}: body of {i}"
        assert bool(st[f + sim.F_ALIVE]) == s.alive[i], f"{where}: alive of {i}"
        assert int(st[f + sim.F_GROWTH]) == s.growth[i], f"{where}: growth of {i}"
        assert int(st[f + sim.F_LONGEST]) == s.longest[i], f"{where}: longest of {i}"
        if s.alive[i]:
            assert int(st[f + sim.F_HEADING]) == s.heading[i], f"{where}: heading of {i}"
            assert sim.head_of(st, lay, i) == s.bodies[i][-1]
    for j, z in enumerate(s.zombies):
        assert sim.zombie_cells(st, lay, j) == list(z), f"{where}: zombie {j}"
        assert sim.zombie_head(st, lay, j) == z[-1]
    a0, g0 = int(lay[sim.L_APPLE]), int(lay[sim.L_AGE])
    for k, c in enumerate(s.apples):
        sc = int(st[a0 + k])
        if sc >= 0:
            assert c == sc and s.apple_age[k] == int(st[g0 + k]), f"{where}: apple {k}"
        else:  # the rules drew a new apple (or found no room) where the simulator leaves a gap
            assert c == -1 or s.apple_age[k] == 0, f"{where}: apple {k} should have respawned"
    assert int(st[int(lay[sim.L_STEP])]) == s.steps


def _replay(game_str, seed, steps, *, faults=False):
    game = make(game_str)
    s = game.new_state(seed)
    rng = random.Random(seed)
    lay = sim.layout(s)
    nbr = sim.grid_nbr(s)
    st = sim.encode(s, lay)
    checked = kills = bites = 0
    for t in range(steps):
        if s.is_over():
            break
        actions = []
        for i in range(len(s.bodies)):
            r = rng.random()
            if faults and r < 0.01:
                a = rng.choice((TIMEOUT, INVALID, CRASH))
            elif r < 0.6 and s.bodies[i]:
                # Mostly sensible moves so that games last and snakes grow: the greedy filler's.
                from snakelab.games.arena.agents import greedy_move

                a = greedy_move(s, i)
            else:
                a = rng.randrange(7)
            actions.append(a)
        if any(not s.running[i] for i in range(len(actions))):
            actions = [a if s.running[i] else 0 for i, a in enumerate(actions)]
        sim.step(st, lay, nbr, np.asarray(actions, dtype=np.int32))
        events = s.apply(actions)
        respawned = {e.player for e in events if e.kind == "respawn"}
        kills += sum(1 for e in events if e.kind == "death" and e.data.get("by") is not None)
        bites += sum(1 for e in events if e.kind == "death" and e.data.get("cause") == "zombie_bite")
        _compare(s, st, lay, respawned, f"{game_str} seed {seed} step {t + 1}")
        checked += 1
        if respawned or any(e.kind in ("respawn",) for e in events) or s.apple_draws != _draws(st, lay, s):
            st = sim.encode(s, lay)  # the random respawn stage: take the rules' result and go on
    return checked, kills, bites


def _draws(st, lay, s):
    # The simulator never draws apples: in sync exactly while no apple slot is empty in it.
    a0 = int(lay[sim.L_APPLE])
    gaps = sum(1 for k in range(len(s.apples)) if int(st[a0 + k]) < 0)
    return s.apple_draws if gaps == 0 else -1


@pytest.mark.parametrize("seed", range(12))
def test_sim__replays_random_games_exactly(seed):
    checked, _, _ = _replay("arena(game_width=16,game_height=16,num_snakes=4,num_zombies=3,duration=20)", seed, 400)
    assert checked >= 100


def test_sim__sees_kills_and_zombie_bites():
    """Over many small crowded games the comparison covers body kills and zombie bites."""
    kills = bites = 0
    for seed in range(30):
        _, k, b = _replay(
            "arena(game_width=12,game_height=12,num_snakes=4,num_zombies=3,starting_length=3,duration=10)", seed, 200
        )
        kills += k
        bites += b
    assert kills > 0 and bites > 0


@pytest.mark.parametrize("seed", range(4))
def test_sim__variants_and_faults(seed):
    checked, _, _ = _replay(
        "arena(game_width=14,game_height=10,num_snakes=3,num_zombies=2,num_obstacles=2,starting_length=3,"
        "own_tail_kills=true,zombie_speed=2,apple_limit=15,duration=10)",
        seed,
        200,
        faults=True,
    )
    # The comparison covered at least half of the 200 steps, faults and all.
    assert checked >= 100


def test_sim__default_board():
    checked, _, _ = _replay("arena(duration=30)", 3, 600)
    assert checked == 600


def test_sim__head_on_over_an_apple_consumes_it():
    s = board(
        """
        .....
        a0*1b
        .....
        """
    )
    lay, nbr = sim.layout(s), sim.grid_nbr(s)
    st = sim.encode(s, lay)
    sim.step(st, lay, nbr, np.asarray([3, 2], dtype=np.int32))
    s.apply([3, 2])
    _compare(s, st, lay, set(), "head-on")
    assert int(st[int(lay[sim.L_APPLE])]) == -1


def test_sim__greedy_dir_matches_the_greedy_filler():
    from snakelab.games.arena.agents import greedy_move

    game = make("arena(game_width=20,game_height=20,duration=10)")
    for seed in range(5):
        s = game.new_state(seed)
        lay, nbr = sim.layout(s), sim.grid_nbr(s)
        for _ in range(100):
            if s.is_over():
                break
            st = sim.encode(s, lay)
            moves = [greedy_move(s, i) for i in range(4)]
            assert [sim.greedy_dir(st, lay, nbr, i) for i in range(4)] == moves
            s.apply(moves)


def test_sim__respawn_stage_is_left_out_on_purpose():
    """A dead snake stays dead and an eaten apple leaves a gap: both are random in the rules."""
    s = board(
        """
        ......
        a0*...
        ......
        ......
        .....1
        .....b
        """
    )
    lay, nbr = sim.layout(s), sim.grid_nbr(s)
    st = sim.encode(s, lay)
    a0, f1 = int(lay[sim.L_APPLE]), int(lay[sim.L_SNK]) + sim.NF
    sim.step(st, lay, nbr, np.asarray([3, 5], dtype=np.int32))  # snake 0 eats
    assert int(st[a0]) == -1 and int(st[int(lay[sim.L_SNK]) + sim.F_GROWTH]) == 3
    for _ in range(6):
        sim.step(st, lay, nbr, np.asarray([5, 5], dtype=np.int32))
    assert int(st[f1 + sim.F_ALIVE]) == 0 and int(st[f1 + sim.F_DEATHS]) == 1  # it ran into the top wall
    assert int(st[a0]) == -1  # no new apple
    assert sim.snake_cells(st, lay, 1) == []

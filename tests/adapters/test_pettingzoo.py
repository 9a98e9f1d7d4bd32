import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from snakelab.adapters.pettingzoo import arena_parallel_env, snakgame_env
from snakelab.core.errors import ConfigError, IllegalActionError

ARENA = {
    "game_width": 12,
    "game_height": 12,
    "num_snakes": 3,
    "num_zombies": 1,
    "starting_length": 3,
    "duration": 1,
    "speed": 20,
}


def test_arena__passes_parallel_api_test():
    parallel_api_test(arena_parallel_env(**ARENA), num_cycles=60)


def test_arena__seeded_resets_repeat():
    parallel_seed_test(lambda: arena_parallel_env(**ARENA), num_cycles=20)


def test_arena__observation_is_the_agents_own_view():
    env = arena_parallel_env(**ARENA)
    obs, infos = env.reset(seed=4)
    s = env.state_
    for i, agent in enumerate(env.agents):
        planes = obs[agent]["observation"]
        assert planes.shape == (7, 12, 12)
        assert planes[0].sum() == len(s.bodies[i]) == infos[agent]["length"]
        assert planes[1].sum() == 1 and planes[3].sum() == 2  # own head; the two other heads
        assert planes[4].sum() == 3 and planes[5].sum() == 2  # one zombie of 3 cells; two apples
    total = {a: 0.0 for a in env.agents}
    while env.agents:
        _, rewards, _, _, _ = env.step({a: 5 for a in env.agents})
        for a, r in rewards.items():
            total[a] += r
    final = env.state_.outcome()
    assert [total[a] for a in env.possible_agents] == [sc - 3 for sc in final.scores]


# api_test's hints for plain-array observations do not apply: the observation is the dict
# with an action mask that PettingZoo's own masked environments use, and its planes are
# all zero at the start when no cell is blocked (no snake exists yet).
@pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")
def test_snakgame__passes_api_test():
    api_test(snakgame_env(rows=6, cols=6), num_cycles=200)


def test_snakgame__seeded_resets_repeat():
    seed_test(lambda: snakgame_env(rows=5, cols=5), num_cycles=30)


def test_snakgame__rewards_follow_the_score_and_illegal_moves_raise():
    env = snakgame_env(rows=4, cols=4, block_prob=0.0)
    env.reset(seed=1)
    env.step(9)  # player: NEW at (1, 1)
    mask = env.observe("chef_0")["action_mask"]
    assert mask[9] == 0 and mask[0] == 1 and mask[1:9].sum() == 0  # Chef has no snake yet
    with pytest.raises(IllegalActionError, match="chef_0: action 9"):
        env.step(9)
    env.step(9 + 15)  # chef: NEW at (4, 4)
    env.step(4)  # player: head right -> length 2, score (2-1)*1 = 1
    assert env.rewards == {"player_0": 1.0, "chef_0": -1.0}
    assert env.state_.score == 1
    obs = env.observe("chef_0")["observation"]
    assert obs[1].sum() == 1 and obs[2].sum() == 2 and np.all(obs[0] == 0)


def test_snakgame__needs_a_fixed_grid():
    with pytest.raises(ConfigError, match="type=0"):
        snakgame_env(type=1)

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import snakelab.adapters.gymnasium  # noqa: F401 - registers the ids
from snakelab.core.errors import IllegalActionError
from snakelab.core.registry import make, make_agent
from snakelab.core.rng import derive_seed
from snakelab.harness.match import play


def test_classic__passes_gymnasium_env_checker():
    env = gym.make("snakelab/Classic-v0", width=6, height=6, render_mode="ansi")
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_classic__observation_and_mask_describe_the_state():
    env = gym.make("snakelab/Classic-v0", width=5, height=4, start_length=3)
    obs, info = env.reset(seed=3)
    state = env.unwrapped.state
    assert obs.shape == (4, 4, 5) and obs.dtype == np.uint8
    assert obs[0].sum() == 3 and obs[1].sum() == obs[2].sum() == obs[3].sum() == 1
    assert list(info["action_mask"]) == [int(state.is_legal(0, a)) for a in range(4)]
    assert info["action_mask"].sum() == 3  # the reversal onto the neck is masked


def test_classic__same_game_as_the_harness_for_a_game_seed():
    # Follow the greedy agent's moves through the env; the result must equal the harness's.
    game = make("classic(width=6,height=6)")
    agent = make_agent("classic.greedy")
    result = play(game, [agent], 42)
    env = gym.make("snakelab/Classic-v0", width=6, height=6).unwrapped
    env.reset(options={"game_seed": 42})
    agent = make_agent("classic.greedy")
    agent.reset(game.info, 0, derive_seed(42, "agent", 0))
    total, done, steps = 0.0, False, 0
    while not done:
        _, reward, terminated, truncated, _ = env.step(int(agent.act(env.state, None)))
        total += reward
        steps += 1
        done = terminated or truncated
    assert steps == result.steps
    assert total == result.outcome.details["apples"] - (0 if result.outcome.details["won"] else 1)


def test_classic__illegal_action_loses_or_raises():
    env = gym.make("snakelab/Classic-v0", width=6, height=6, start_length=2).unwrapped
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    strict = gym.make("snakelab/Classic-v0", width=6, height=6, start_length=2, illegal="raise").unwrapped
    _, info = strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="reverses"):
        strict.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

import snakelab.adapters.gymnasium  # noqa: F401 - registers the ids
from snakelab.core.registry import make


def test_blind__passes_gymnasium_env_checker():
    env = gym.make("snakelab/Blind-v0", width=4, height=3, render_mode="ansi")
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_blind__sweeping_finds_the_apple_and_is_the_harness_game():
    # A row-by-row sweep of a 5x4 torus: RIGHT four times, then DOWN, repeated.
    env = gym.make("snakelab/Blind-v0", width=5, height=4).unwrapped
    obs, info = env.reset(options={"game_seed": 9})
    assert obs == 0 and list(info["action_mask"]) == [1, 1, 1, 1]
    state = make("blind(width=5,height=4)").new_state(9)
    moves = ([3] * 4 + [1]) * 4
    total, steps = 0.0, 0
    for a in moves:
        obs, reward, terminated, truncated, _ = env.step(a)
        state.apply((a,))
        total, steps = total + reward, steps + 1
        assert obs == steps and not truncated
        if terminated:
            break
    assert total == 1.0 and state.is_over() and state.outcome().details["found"]
    assert np.int64(steps) == state.steps

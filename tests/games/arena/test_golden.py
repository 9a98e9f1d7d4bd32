"""Golden playthroughs of the arena game (see :mod:`snakelab.harness.golden`).

Regenerate on purpose only: ``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/arena/test_golden.py``.
"""

from pathlib import Path

import pytest

from snakelab.harness.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "greedy4_20x20_s1": ("arena(duration=15,game_height=20,game_width=20,num_obstacles=2)", "arena.greedy", 4, 1),
    "random3_12x12_s2": (
        "arena(apple_limit=20,duration=8,game_height=12,game_width=12,num_snakes=3,num_zombies=2,zombie_speed=2)",
        "arena.random",
        3,
        2,
    ),
    "greedy2_10x10_owntail_s3": (
        "arena(duration=10,game_height=10,game_width=10,num_snakes=2,num_zombies=1,own_tail_kills=true)",
        "arena.greedy",
        2,
        3,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    game, agent, n, seed = CASES[name]
    check_golden(GOLDEN / f"{name}.jsonl", game, [agent] * n, seed, state_every=5)

"""Golden playthroughs of the snakgame game (see :mod:`snakelab.harness.golden`).

Regenerate on purpose only: ``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/snakgame/test_golden.py``.
"""

from pathlib import Path

import pytest

from snakelab.harness.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "greedy_8x10_s1": ("snakgame(type=0,rows=8,cols=10)", "snakgame.greedy", 1),
    "editorial_9x9_s3": ("snakgame(type=0,rows=9,cols=9)", "snakgame.editorial", 3),
    "champion_10x12_s2": ("snakgame(type=0,rows=10,cols=12)", "snakgame.champion", 2),
    "chef_6x7_blocked_s4": ("snakgame(type=0,rows=6,cols=7,blocked='2 2;3 5;5 1')", "snakgame.chef", 4),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    game, agent, seed = CASES[name]
    check_golden(GOLDEN / f"{name}.jsonl", game, [agent], seed)

"""Golden playthroughs of the blind game (see :mod:`snakelab.harness.golden`).

Regenerate on purpose only: ``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/blind/test_golden.py``.
"""

from pathlib import Path

import pytest

from snakelab.harness.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "dynamic-zigzag_9x6_s4": ("blind(height=6,width=9)", "blind.dynamic-zigzag(k=3)", 4),
    "spiral_4x6_s2": ("blind(height=6,width=4)", "blind.spiral", 2),
    "zigzag_4x4_limit_s3": ("blind(height=4,max_steps=30,width=4)", "blind.zigzag", 3),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    game, agent, seed = CASES[name]
    check_golden(GOLDEN / f"{name}.jsonl", game, [agent], seed)

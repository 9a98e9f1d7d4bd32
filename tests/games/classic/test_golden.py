"""Golden playthroughs of the classic game (see :mod:`snakelab.harness.golden`).

Regenerate on purpose only: ``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/classic/test_golden.py``.
"""

from pathlib import Path

import pytest

from snakelab.harness.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "hamilton-shortcut_6x6_s1": ("classic(width=6,height=6)", "classic.hamilton-shortcut", 1),
    "greedy_7x5_strict_s2": ("classic(height=5,tail_rule=strict,width=7)", "classic.greedy", 2),
    "random_5x5_len3_s3": ("classic(height=5,start_length=3,width=5)", "classic.random", 3),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    game, agent, seed = CASES[name]
    check_golden(GOLDEN / f"{name}.jsonl", game, [agent], seed)

"""Golden playthroughs of the hextris game (see :mod:`snakelab.harness.golden`).

Regenerate on purpose only: ``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/hextris/test_golden.py``.
"""

from pathlib import Path

import pytest

from snakelab.harness.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "seed_p21_s0": ("hextris(problem=21)", "hextris.seed", 0),
    "random_p6_len4_s5": ("hextris(problem=6,seed_index=none,source_length=4)", "hextris.random", 5),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    game, agent, seed = CASES[name]
    check_golden(GOLDEN / f"{name}.jsonl", game, [agent], seed, state_every=25)

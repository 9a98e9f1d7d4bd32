"""Every golden playthrough of every game, found on disk (see :mod:`snakelab.harness.golden`).

A golden file is a replay under ``tests/games/<id>/golden/``; its header names the game,
seed and agents, so adding a file is all a new case needs. Regenerate on purpose only:
``SNAKELAB_UPDATE_GOLDEN=1 pytest tests/games/test_golden.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from snakelab import make
from snakelab.core.registry import list_games
from snakelab.harness.golden import check_golden_file, golden_case, golden_files

HERE = Path(__file__).parent
FILES = golden_files(HERE)


def test_every_registered_game_has_golden_playthroughs():
    covered = {make(golden_case(f).game).info.id for f in FILES}
    missing = sorted(e.id for e in list_games() if e.id not in covered)
    assert not missing, f"no golden files for: {', '.join(missing)}"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.parent.name}/{p.stem}" for p in FILES])
def test_golden_playthrough(path):
    assert make(golden_case(path).game).info.id == path.parent.parent.name, f"{path} is under another game's folder"
    check_golden_file(path)

"""The conformance kit on every registered game, from each game's ``conformance.json``.

Each game keeps the configurations to check in ``tests/games/<id>/conformance.json``: a
list of ``{"game": GAME STRING, "playouts": n, "max_steps": n, "seed": n}`` (the last
three are :func:`snakelab.core.testing.check_game`'s options). A registered game
without that file, or with an empty list, fails here, so a new game cannot skip it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from snakelab import make
from snakelab.core.registry import list_games
from snakelab.core.testing import check_game

HERE = Path(__file__).parent


def _cases() -> list[tuple[str, str, int, int, int]]:
    out = []
    for path in sorted(HERE.glob("*/conformance.json")):
        for case in json.loads(path.read_text()):
            out.append((path.parent.name, case["game"], case["playouts"], case["max_steps"], case["seed"]))
    return out


CASES = _cases()


def test_every_registered_game_has_conformance_configs():
    covered = {game_id for game_id, *_ in CASES}
    missing = sorted(e.id for e in list_games() if e.id not in covered)
    assert not missing, f"no tests/games/<id>/conformance.json for: {', '.join(missing)}"


@pytest.mark.parametrize(
    ("game_id", "game", "playouts", "max_steps", "seed"), CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES]
)
def test_conformance(game_id, game, playouts, max_steps, seed):
    g = make(game)
    assert g.info.id == game_id, f"{game} is listed under tests/games/{game_id}"
    check_game(g, playouts=playouts, max_steps=max_steps, seed=seed)

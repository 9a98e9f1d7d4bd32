"""Shared fixtures: the problems ship in the package, the scored vectors in ``data/icfp2015``."""

from pathlib import Path

import pytest

from snakelab.games.hextris.codec import Problem, find_problems_dir, load_problem_id

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "data" / "icfp2015"
PROBLEMS = find_problems_dir()
VECTORS = DATA / "vectors"


@pytest.fixture(scope="session")
def problems() -> dict[int, Problem]:
    return {i: load_problem_id(i, PROBLEMS) for i in range(25)}

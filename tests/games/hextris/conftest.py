"""Shared fixtures: the contest data lives in ../shared/data relative to the project root."""

from pathlib import Path

import pytest

from snakelab.games.hextris.codec import Problem, load_problem_id

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT.parent / "shared" / "data" / "icfp2015"
PROBLEMS = DATA / "problems"
VECTORS = DATA / "vectors"


@pytest.fixture(scope="session")
def problems() -> dict[int, Problem]:
    return {i: load_problem_id(i, PROBLEMS) for i in range(25)}

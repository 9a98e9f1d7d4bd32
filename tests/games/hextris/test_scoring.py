"""The scorer reproduces every recorded vector exactly, and errors score 0."""

import csv
import json

import pytest

from snakelab.games.hextris.codec import load_solutions
from snakelab.games.hextris.rules import lcg_outputs, unit_sequence
from snakelab.games.hextris.scoring import count_overlapping, power_score, score_problem, score_seed

from .conftest import VECTORS


def _rows(name):
    with open(VECTORS / name, newline="") as fh:
        return list(csv.DictReader(fh))


SEED_ROWS = [r for r in _rows("expected_per_seed.csv") if r["expected_score"]]
PROBLEM_ROWS = _rows("expected_per_problem.csv")
_FILES = sorted({r["file"] for r in SEED_ROWS})


def test_lcg_seed_17():
    assert lcg_outputs(17, 10) == [0, 24107, 16552, 12125, 9427, 13152, 21440, 3383, 6873, 16117]


def test_vectors_present():
    # 18 tbd goldens + 1 organisers' sample + 2 × 174 Unagi seeds carry expected values.
    assert len(SEED_ROWS) == 367
    assert len(PROBLEM_ROWS) == 25


@pytest.mark.parametrize("file", _FILES)
def test_every_seed_vector(file, problems):
    entries = load_solutions(VECTORS / file)
    rows = [r for r in SEED_ROWS if r["file"] == file]
    for row in rows:
        pid, seed = int(row["problemId"]), int(row["seed"])
        entry = [e for e in entries if e.problem_id == pid and e.seed == seed][-1]
        got = score_seed(problems[pid], seed, entry.solution)
        assert got.error is None, (file, seed, got.error)
        assert got.score == int(row["expected_score"]), (file, seed)


@pytest.mark.parametrize("row", PROBLEM_ROWS, ids=[r["file"] for r in PROBLEM_ROWS])
def test_every_problem_vector(row, problems):
    pid = int(row["problemId"])
    got = score_problem(problems[pid], load_solutions(VECTORS / row["file"]))
    assert got.score == int(row["expected_problem_score"])
    assert got.phrases == int(row["expected_distinct_phrases"])


def test_power_counts_overlaps_and_breaks_on_ignored():
    assert count_overlapping("ia! ia! ia!", "ia! ia!") == 2
    assert power_score("ia! ia! ia!") == (2 * 7 * 2 + 300, 1)
    assert power_score("ei\n!")[0] == 0
    assert power_score("EI!") == (306, 1)


def _sample():
    return json.loads((VECTORS / "official_sample_problem_6_seed_0.json").read_text())[0]["solution"]


def test_error_cases_score_zero(problems):
    p6 = problems[6]
    ok = score_seed(p6, 0, _sample())
    assert ok.score == 3261 and ok.error is None
    # A repeat: E then W on the first unit.
    rep = score_seed(p6, 0, "bp")
    assert rep.score == 0 and "repeat" in rep.error
    # A command after the end of the game.
    after = score_seed(p6, 0, _sample() + "a")
    assert after.score == 0 and "after the end" in after.error
    # An unknown character, even with phrases before it.
    bad = score_seed(p6, 0, "ei!#")
    assert bad.score == 0 and "unknown character" in bad.error
    # A seed the problem does not list.
    unk = score_seed(p6, 12345, "ei!")
    assert unk.score == 0 and "not one of" in unk.error
    # Ignored characters are fine, and a short string just stops early.
    assert score_seed(p6, 0, "\t\n\r").error is None


def test_symmetric_turn_is_a_repeat(problems):
    # Problem 1: a one-cell unit whose pivot is that cell cannot turn at all.
    got = score_seed(problems[1], 0, "d")
    assert got.score == 0 and "repeat" in got.error


def test_problem_score_divides_by_listed_seeds(problems):
    p5 = problems[5]
    assert len(p5.source_seeds) == 10 and len(set(p5.source_seeds)) == 9
    entries = load_solutions(VECTORS / "svl_final" / "problem_5.json")
    scores = [score_seed(p5, e.seed, e.solution).score for e in entries]
    assert score_problem(p5, entries).score == sum(scores) // 10
    # Dropping one seed scores it 0 but keeps the divisor.
    assert score_problem(p5, entries[1:]).score == sum(scores[1:]) // 10


def test_unit_sequence_uses_lcg(problems):
    p = problems[2]
    seq = unit_sequence(p, 0)
    assert len(seq) == p.source_length
    assert seq[:5] == [v % len(p.units) for v in lcg_outputs(0, 5)]

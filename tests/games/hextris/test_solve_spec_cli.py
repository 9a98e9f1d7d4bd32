"""``snakelab hextris solve --spec / --spec-from``: recorded, reproducible solves, run as a user would."""

import json

import pytest

from snakelab.games.hextris.scoring import score_seed
from snakelab.games.hextris.solver_spec import parse_tag
from tests.cli_helpers import run_snakelab

from .conftest import PROBLEMS


def _errors(stderr):
    assert "Traceback" not in stderr
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert lines and all(ln.startswith("error: ") for ln in lines)
    return lines


def test_spec_solve_records_its_spec_and_spec_from_reproduces_the_string(tmp_path, problems):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    r = run_snakelab("hextris", "solve", "21", "11", "--spec", "champion(width=2,random=2)", "-o", one,
                     "--problems", PROBLEMS)  # fmt: skip
    assert r.returncode == 0, r.stderr
    first = json.loads(one.read_text())
    assert [(e["problemId"], e["seed"]) for e in first] == [(21, 0)] + [(11, s) for s in problems[11].source_seeds]
    for e in first:
        rec = parse_tag(e["tag"])
        assert (
            rec is not None
            and rec.spec.text()
            == "champion(width=2,random=2,rwidth=8,rseed=0,tries=3,opening=0,single=0,variants=1,guard=0)"
        )
        assert rec.score == score_seed(problems[e["problemId"]], e["seed"], e["solution"]).score
    r = run_snakelab("hextris", "solve", "21", "11", "--spec-from", one, "-o", two, "--problems", PROBLEMS)
    assert r.returncode == 0, r.stderr
    again = json.loads(two.read_text())
    assert [e["solution"] for e in again] == [e["solution"] for e in first]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--spec", "champion(widht=2)"], "unknown champion parameter 'widht'"),
        (["--spec", "champion(width=2)", "--seconds", "3"], "--seconds does not apply"),
        (["--spec", "champion(width=2)", "-a", "seed"], "--agent does not apply"),
        (["--spec", "seed", "--spec-from", "x.json"], "exclude each other"),
    ],
)
def test_bad_spec_options_are_one_line_errors(args, words):
    r = run_snakelab("hextris", "solve", "21", *args, "--problems", PROBLEMS)
    assert r.returncode == 2
    assert words in _errors(r.stderr)[0]


def test_spec_from_a_file_without_specs_names_the_games(tmp_path):
    legacy = tmp_path / "legacy.json"
    legacy.write_text(json.dumps([{"problemId": 21, "seed": 0, "tag": "snakelab best 1", "solution": ""}]))
    r = run_snakelab("hextris", "solve", "21", "--spec-from", legacy, "--problems", PROBLEMS)
    assert r.returncode == 2
    assert "records no solver spec for problem/seed 21/0" in _errors(r.stderr)[0]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = run_snakelab("hextris", "solve", "21", "--spec-from", bad, "--problems", PROBLEMS)
    assert r.returncode == 2 and "cannot read specs from" in _errors(r.stderr)[0]

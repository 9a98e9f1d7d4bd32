"""``snakelab hextris`` verbs and the ``play_icfp2015`` contest program, run as a user would."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from snakelab.cli import app

from .conftest import PROBLEMS, VECTORS

runner = CliRunner()

SEED_KEYS = {"seed", "move_score", "power_score", "score", "phrases", "error"}


def _run(*args, stdin=None, module="snakelab.cli"):
    code = "from snakelab.cli import main; main()" if module == "snakelab.cli" else f"from {module} import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=False, input=stdin, timeout=300
    )


def _one_line_error(stderr):
    assert "Traceback" not in stderr
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert lines and all(ln.startswith("error: ") for ln in lines)
    return lines


def test_score_json_keys_and_values():
    r = runner.invoke(
        app, ["hextris", "score", str(VECTORS / "svl_final" / "problem_5.json"), "--problems", str(PROBLEMS), "--json"]
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert [set(o) for o in out] == [{"problemId", "score", "seeds"}]
    assert out[0]["problemId"] == 5 and out[0]["score"] == 2945
    assert all(set(s) == SEED_KEYS for s in out[0]["seeds"])
    assert all(s["score"] == s["move_score"] + s["power_score"] for s in out[0]["seeds"])


def test_score_bad_entries_are_reported_and_the_rest_scored(tmp_path):
    good = json.loads((VECTORS / "official_sample_problem_6_seed_0.json").read_text())
    sols = tmp_path / "mixed.json"
    sols.write_text(
        json.dumps(
            [
                *good,
                {"problemId": 6, "seed": 4242, "solution": "ei!"},
                {"problemId": 77, "seed": 0, "solution": "ei!"},
                {"problemId": 3, "seed": 0, "solution": "ei!"},
            ]
        )
    )
    probs = tmp_path / "problems"
    probs.mkdir()
    (probs / "problem_6.json").write_text((PROBLEMS / "problem_6.json").read_text())
    (probs / "problem_3.json").write_text('{"id": 3, "width": 5}')  # malformed
    broken = tmp_path / "broken.json"
    broken.write_text("[{")
    r = _run("hextris", "score", str(sols), str(broken), "--problems", str(probs), "--json")
    assert r.returncode == 1
    lines = _one_line_error(r.stderr)
    text = "\n".join(lines)
    assert "broken.json" in text and "problem 77" in text and "problem 3" in text and "missing field" in text
    out = json.loads(r.stdout)
    assert [o["problemId"] for o in out] == [6]
    seeds = {s["seed"]: s for s in out[0]["seeds"]}
    assert seeds[0]["score"] == 3261
    assert seeds[4242]["score"] == 0 and "not one of" in seeds[4242]["error"]
    assert out[0]["score"] == 3261 // 50


def test_score_table_output():
    r = runner.invoke(
        app,
        [
            "hextris",
            "score",
            str(VECTORS / "tbd_golden" / "game22_several_triple_combo.json"),
            "--problems",
            str(PROBLEMS),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "problem 22" in r.stdout and "3430" in r.stdout


def test_show_board_and_replay():
    r = runner.invoke(app, ["hextris", "show", "21", "--problems", str(PROBLEMS)])
    assert r.exit_code == 0, r.output
    assert "10×8" in r.stdout and "⬢" in r.stdout
    sample = str(VECTORS / "official_sample_problem_6_seed_0.json")
    r = runner.invoke(app, ["hextris", "show", "6", "-s", sample, "--problems", str(PROBLEMS)])
    assert r.exit_code == 0, r.output
    assert "move 3261" in r.stdout


def test_show_unknown_problem_is_one_line():
    r = _run("hextris", "show", "99", "--problems", str(PROBLEMS))
    assert r.returncode == 2
    _one_line_error(r.stderr)


def test_play_with_piped_keys(tmp_path):
    out = tmp_path / "mine.json"
    r = runner.invoke(app, ["hextris", "play", "1", "--problems", str(PROBLEMS), "-o", str(out)], input="ei!#bp\n")
    assert r.exit_code == 0, r.output
    assert "not a command" in r.stdout and "back where it was" in r.stdout
    sol = json.loads(out.read_text())[0]
    # "#" is unknown and "b" (E) would undo the "!" (W): both skipped.
    assert sol["problemId"] == 1 and sol["solution"] == "ei!p"
    assert "score 306 (move 0, power 306, 1 phrases)" in r.stdout


@pytest.mark.slow
def test_contest_program(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = _run(
        "-f",
        str(PROBLEMS / "problem_21.json"),
        "-f",
        str(bad),
        "-t",
        "8",
        "-c",
        "1",
        "-p",
        "Ei!",
        "-p",
        "Ia! Ia!",
        module="snakelab.games.hextris.contest",
    )
    assert r.returncode == 1
    _one_line_error(r.stderr)
    out = json.loads(r.stdout)
    assert [(o["problemId"], o["seed"]) for o in out] == [(21, 0)]
    sols = tmp_path / "out.json"
    sols.write_text(r.stdout)
    s = _run("hextris", "score", str(sols), "--problems", str(PROBLEMS), "--json")
    got = json.loads(s.stdout)[0]["seeds"][0]
    assert got["error"] is None and got["score"] > 0
    # Only the phrases given with -p are used.
    assert got["phrases"] <= 2


def test_contest_budgets_fit_the_limit(problems):
    from snakelab.games.hextris.contest import plan_budgets

    games = [(problems[p], s) for p in (0, 4, 24) for s in dict.fromkeys(problems[p].source_seeds)]
    for seconds, workers in ((30.0, 1), (60.0, 2), (600.0, 4)):
        budgets = plan_budgets(games, seconds, workers)
        assert len(budgets) == len(games)
        assert sum(budgets) / workers < seconds - 3.0
        # Bigger games get more time.
        assert budgets[-1] > budgets[0]
    assert plan_budgets(games, None, 2) == [10.0] * len(games)

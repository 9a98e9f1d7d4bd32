"""The ``play_icfp2015`` contest program keeps its contract: time, memory, options, input."""

import json
import subprocess
import sys
import time

import pytest

from snakelab.games.hextris.contest import game_weight, partition, plan_budgets, tail_reserve

from .conftest import PROBLEMS


def _contest(*args, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "snakelab.cli.icfp2015", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def _files(*ids):
    return [a for i in ids for a in ("-f", str(PROBLEMS / f"problem_{i}.json"))]


def _warm_kernels():
    # The compiled kernels are cached on disk by the first run on a machine (the contest's
    # build step); a timing test starts after that build, as a contest run would.
    from snakelab.games.hextris.solver import warm_up

    warm_up()


def _timed(seconds, ids, cores=1):
    _warm_kernels()
    t0 = time.monotonic()
    r = _contest(*_files(*ids), "-t", str(seconds), "-c", str(cores))
    wall = time.monotonic() - t0
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    return wall, json.loads(r.stdout)


@pytest.mark.slow
@pytest.mark.xdist_group("contest-timing")
@pytest.mark.parametrize("cores", [1, 2])
def test_all_25_problems_finish_inside_the_limit(problems, cores):
    wall, out = _timed(10, range(25), cores)
    assert wall < 10.0
    # Every game of every problem is answered, in file order.
    expected = [(p, s) for p in range(25) for s in dict.fromkeys(problems[p].source_seeds)]
    assert [(o["problemId"], o["seed"]) for o in out] == expected
    assert len(out) == 174


@pytest.mark.slow
@pytest.mark.xdist_group("contest-timing")
def test_one_hundred_games_finish_inside_five_seconds():
    wall, out = _timed(5, (4, 6))
    assert wall < 5.0
    assert len(out) == 100


@pytest.mark.parametrize("value", ["0", "-5", "nan", "inf"])
def test_a_time_limit_that_is_not_positive_is_refused(value):
    r = _contest(*_files(21), "-t", value)
    assert r.returncode == 2
    assert r.stdout == ""
    assert "-t must be a positive number" in r.stderr and "Traceback" not in r.stderr


def test_a_memory_limit_below_one_process_is_refused_and_said_in_help():
    r = _contest(*_files(21), "-t", "3", "-m", "100")
    assert r.returncode == 2 and r.stdout == ""
    assert "-m 100" in r.stderr and "200" in r.stderr and "Traceback" not in r.stderr
    helptext = " ".join(_contest("--help").stdout.split())
    assert "values below 200 are refused" in helptext
    assert "fewer cores" in helptext


def test_a_negative_seed_is_one_line_and_the_other_files_are_solved(tmp_path):
    bad = json.loads((PROBLEMS / "problem_21.json").read_text())
    bad["sourceSeeds"] = [-3]
    path = tmp_path / "neg.json"
    path.write_text(json.dumps(bad))
    r = _contest("-f", str(path), *_files(21), "-t", "4")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    # (A loaded machine may add a "note:" line about games that got no time.)
    lines = [ln for ln in r.stderr.strip().splitlines() if not ln.startswith("note: ")]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "seed -3" in lines[0]
    assert [(o["problemId"], o["seed"]) for o in json.loads(r.stdout)] == [(21, 0)]


def test_a_bad_phrase_exits_non_zero_but_the_games_are_solved():
    r = _contest(*_files(21), "-t", "3", "-p", "Ei!", "-p", "no such phrase #")
    assert r.returncode == 1
    assert "'no such phrase #'" in r.stderr and "Traceback" not in r.stderr
    out = json.loads(r.stdout)
    # The game is still answered (how well depends on the machine's load).
    assert [(o["problemId"], o["seed"]) for o in out] == [(21, 0)]


def test_games_are_shared_out_by_weight(problems):
    games = [(problems[p], s) for p in (0, 4, 24) for s in dict.fromkeys(problems[p].source_seeds)]
    for workers in (1, 2, 4):
        parts = partition(games, workers)
        assert sorted(i for part in parts for i in part) == list(range(len(games)))
        for part in parts:
            weights = [game_weight(games[i]) for i in part]
            assert weights == sorted(weights, reverse=True)  # small games last
        budgets = plan_budgets(games, 30.0, workers)
        for part in parts:
            assert sum(budgets[i] for i in part) == pytest.approx(30.0)
        # Bigger games get more time.
        assert budgets[-1] > budgets[0]
    loads = [sum(game_weight(games[i]) for i in part) for part in partition(games, 2)]
    assert max(loads) <= sum(loads) / 2 + max(game_weight(g) for g in games)
    assert plan_budgets(games, None, 2) == [10.0] * len(games)
    assert 0 < tail_reserve(5) < tail_reserve(60) <= 2.0

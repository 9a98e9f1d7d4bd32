"""``snakelab hextris`` verbs and the ``play_icfp2015`` contest program, run as a user would."""

import json
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from snakelab.cli import app
from tests.cli_helpers import interrupt_snakelab, plain_env

from .conftest import PROBLEMS, VECTORS

runner = CliRunner()

SEED_KEYS = {"seed", "move_score", "power_score", "score", "phrases", "error"}


def _run(*args, stdin=None, module="snakelab.cli"):
    code = "from snakelab.cli import main; main()" if module == "snakelab.cli" else f"from {module} import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
        input=stdin,
        timeout=300,
        env=plain_env(),
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
    assert [set(o) for o in out] == [{"problemId", "score", "phrases", "seeds"}]
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
    assert r.returncode == 2  # bad input, as in every verb
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


@pytest.mark.parametrize("opt", [["--seed", "1"], ["--speed", "2"]])
def test_show_refuses_replay_options_without_a_solution(opt):
    r = _run("hextris", "show", "3", *opt, "--problems", str(PROBLEMS))
    assert r.returncode == 2 and "for replaying a --solution file only" in _one_line_error(r.stderr)[0]


def test_show_unknown_problem_is_one_line():
    r = _run("hextris", "show", "99", "--problems", str(PROBLEMS))
    assert r.returncode == 2
    _one_line_error(r.stderr)


def test_play_with_piped_keys(tmp_path):
    out = tmp_path / "mine.json"
    # In a subprocess at a fixed width: the messages are asserted as whole lines.
    r = _run("hextris", "play", "1", "-a", "human", "--problems", str(PROBLEMS), "-o", str(out), stdin="ei!#bp\n")
    assert r.returncode == 0, r.stderr
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
        module="snakelab.cli.icfp2015",
    )
    assert r.returncode == 1
    # On a loaded machine a "note:" line may say that a game got no time.
    _one_line_error("\n".join(ln for ln in r.stderr.splitlines() if not ln.startswith("note: ")))
    out = json.loads(r.stdout)
    assert [(o["problemId"], o["seed"]) for o in out] == [(21, 0)]
    sols = tmp_path / "out.json"
    sols.write_text(r.stdout)
    s = _run("hextris", "score", str(sols), "--problems", str(PROBLEMS), "--json")
    got = json.loads(s.stdout)[0]["seeds"][0]
    assert got["error"] is None
    # Only the phrases given with -p are used.
    assert got["phrases"] <= 2


def _games(path):
    return [(e["problemId"], e["seed"]) for e in json.loads(path.read_text())]


def test_solve_writes_every_seed_and_its_scores_are_exact(tmp_path, problems):
    one, two, three = tmp_path / "one.json", tmp_path / "two.json", tmp_path / "three.json"
    r1 = _run("hextris", "solve", "11", "9", "--agent", "seed", "--out", str(one), "--problems", str(PROBLEMS))
    r2 = _run("hextris", "solve", "11", "9", "-a", "seed", "-o", str(two), "--jobs", "2", "--problems", str(PROBLEMS))
    r3 = _run(
        *("hextris", "solve", "11", "9", "-a", "seed", "-o", str(three), "--executor", "dask-local", "--jobs", "2"),
        *("--problems", str(PROBLEMS)),
    )
    assert r1.returncode == 0 and r2.returncode == 0 and r3.returncode == 0, r1.stderr + r2.stderr + r3.stderr
    seeds = [(p, s) for p in (11, 9) for s in problems[p].source_seeds]
    # Games in order whatever order the workers finished them in; the seed solver is deterministic.
    assert _games(one) == seeds and one.read_text() == two.read_text() == three.read_text()
    scored = _run("hextris", "score", str(one), "--problems", str(PROBLEMS), "--json")
    for res in json.loads(scored.stdout):
        assert f"problem {res['problemId']}: {res['score']} (" in r1.stdout
        assert all(s["error"] is None for s in res["seeds"])


def test_solve_resume_keeps_what_is_written(tmp_path, problems):
    out = tmp_path / "sol.json"
    seeds = problems[11].source_seeds
    kept = [{"problemId": 11, "seed": seeds[1], "solution": "ei!", "tag": "mine"}]
    other = [{"problemId": 6, "seed": 0, "solution": "ia! ia!", "tag": "other problem"}]
    out.write_text(json.dumps(other + kept))
    r = _run("hextris", "solve", "11", "-a", "seed", "-o", str(out), "--resume", "--problems", str(PROBLEMS))
    assert r.returncode == 0, r.stderr
    assert "1 of 5 games already in" in r.stdout
    got = json.loads(out.read_text())
    assert got[0] == other[0] and got[2] == kept[0]
    assert _games(out) == [(6, 0), *[(11, s) for s in seeds]]
    before = out.read_text()
    again = _run("hextris", "solve", "11", "-a", "seed", "-o", str(out), "--resume", "--problems", str(PROBLEMS))
    assert again.returncode == 0 and "5 of 5 games already in" in again.stdout
    assert out.read_text() == before


def _plain(text):
    """The text without terminal control sequences, whitespace collapsed to single spaces."""
    return " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).split())


def _solved_11(out):
    return out.exists() and len(_games(out)) == 5  # problem 11's five games, written


def _kept(text):
    """The N of "N of 7 games are in" (the interrupted run's closing line)."""
    found = re.search(r"interrupted; (\d+) of 7 games are in", text)
    assert found, text
    return int(found.group(1))


def test_solve_ctrl_c_keeps_finished_games(tmp_path):
    out = tmp_path / "sol.json"
    # Problem 11's five games take milliseconds, problem 24's one game seconds: a Ctrl-C
    # once 11 is written lets the game in progress (24) finish and leaves problem 14
    # unsolved. On a busy machine the Ctrl-C can also land before 24 has started, which
    # then is not played: either way every finished game is kept, and only those.
    args = ["hextris", "solve", "11", "24", "14", "-a", "seed", "-o", out, "--problems", PROBLEMS]
    proc, err = interrupt_snakelab(*args, ready=lambda: _solved_11(out), what="problem 11 solved")
    assert proc.returncode == 130, err
    # The messages are looked for in the plain text, whitespace collapsed: the progress bar
    # on the same stream may redraw around them and a narrow terminal may wrap them.
    text = _plain(err)
    assert "stopping after the games in progress" in text and "Traceback" not in text
    kept = _kept(text)
    assert kept in (5, 6) and "--resume" in text
    assert [p for p, _ in _games(out)] == [11] * 5 + [24] * (kept - 5)
    assert not list(tmp_path.glob("*.part"))


def test_solve_ctrl_c_on_a_dask_cluster_keeps_finished_games_and_drops_the_rest(tmp_path):
    out = tmp_path / "sol.json"
    args = ["hextris", "solve", "11", "24", "14", "-a", "seed", "-o", out, "--problems", PROBLEMS]
    proc, err = interrupt_snakelab(
        *args, "--executor", "dask-local", ready=lambda: _solved_11(out), what="problem 11 solved"
    )
    assert proc.returncode == 130, err
    text = _plain(err)
    assert "games still on the cluster are dropped" in text and "Traceback" not in text
    assert _kept(text) == 5
    assert [p for p, _ in _games(out)] == [11] * 5


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-a", "greedy"], "unknown hextris solver"),
        (["--executor", "threads"], "unknown executor 'threads'"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--seconds", "-1"], "--seconds must be positive"),
        (["--resume"], "--resume needs --out"),
        (["77"], "problem"),
        (["-o", "/nonexistent/sol.json"], "there is no folder /nonexistent"),
    ],
)
def test_solve_bad_options_are_one_line_errors(args, words):
    r = _run("hextris", "solve", "11", *args, "--problems", str(PROBLEMS))
    assert r.returncode == 2
    assert words in _one_line_error(r.stderr)[0]


def test_play_by_an_agent_shows_the_end_and_writes_a_solution_that_scores_the_same(tmp_path):
    out = tmp_path / "seed.json"
    r = _run("hextris", "play", "11", "--seed-index", "1", "-a", "seed", "--speed", "0", "-o", str(out),
             "--problems", str(PROBLEMS))  # fmt: skip
    assert r.returncode == 0, r.stderr
    said = int(r.stdout.split("score ")[-1].split()[0])
    scored = json.loads(_run("hextris", "score", str(out), "--problems", str(PROBLEMS), "--json").stdout)
    assert scored[0]["seeds"][0]["score"] == said > 0 and "by seed" in r.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-a", "seed", "--seconds", "2"], "--seconds does not apply: only --agent champion"),
        (["-a", "human", "--speed", "3"], "--speed does not apply"),
        (["-a", "nobody"], "unknown hextris player"),
    ],
)
def test_play_refuses_options_that_do_not_apply(args, words):
    r = _run("hextris", "play", "1", *args, "--problems", str(PROBLEMS))
    assert r.returncode == 2 and words in _one_line_error(r.stderr)[0]


def test_bench_is_solve_with_a_total(tmp_path):
    one, two = tmp_path / "bench.json", tmp_path / "solve.json"
    b = _run("hextris", "bench", "11", "9", "-a", "seed", "-o", str(one), "--problems", str(PROBLEMS))
    s = _run("hextris", "solve", "11", "9", "-a", "seed", "-o", str(two), "--problems", str(PROBLEMS))
    assert b.returncode == 0 and s.returncode == 0, b.stderr + s.stderr
    assert one.read_text() == two.read_text()
    per = [int(ln.split(": ")[1].split()[0]) for ln in b.stdout.splitlines() if ln.startswith("problem ")]
    assert len(per) == 2 and f"total {sum(per)} over 2 problems (10 games)" in b.stdout
    refused = _run("hextris", "bench", "11", "-a", "seed", "--seconds", "3", "--problems", str(PROBLEMS))
    assert refused.returncode == 2 and "--seconds does not apply" in refused.stderr


def test_play_refuses_an_unwritable_solution_file_before_the_game():
    r = _run("hextris", "play", "1", "-a", "human", "-o", "/nonexistent/mine.json", "--problems", str(PROBLEMS),
             stdin="ei!\n")  # fmt: skip
    assert r.returncode == 2 and "there is no folder /nonexistent" in _one_line_error(r.stderr)[0]
    assert "score" not in r.stdout


def test_solve_refuses_to_resume_from_a_malformed_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"problemId": 11}]')
    r = _run("hextris", "solve", "11", "-a", "seed", "-o", str(bad), "--resume", "--problems", str(PROBLEMS))
    assert r.returncode == 2
    assert "cannot resume from" in _one_line_error(r.stderr)[0]
    assert bad.read_text() == '[{"problemId": 11}]'


def test_score_json_counts_distinct_phrases_per_problem(tmp_path):
    sols = tmp_path / "s.json"
    seeds = json.loads((PROBLEMS / "problem_11.json").read_text())["sourceSeeds"]
    # "ei!" on one seed and "ia! ia!" on another: two distinct phrases over the problem.
    sols.write_text(
        json.dumps(
            [
                {"problemId": 11, "seed": seeds[0], "solution": "ei!"},
                {"problemId": 11, "seed": seeds[1], "solution": "ia! ia!"},
            ]
        )
    )
    r = runner.invoke(app, ["hextris", "score", str(sols), "--problems", str(PROBLEMS), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)[0]["phrases"] == 2
    text = runner.invoke(app, ["hextris", "score", str(sols), "--problems", str(PROBLEMS)])
    assert "2 distinct phrases" in text.stdout


def test_score_warns_when_a_later_entry_replaces_an_earlier_one(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps([{"problemId": 21, "seed": 0, "solution": "ei!"}]))
    b.write_text(json.dumps([{"problemId": 21, "seed": 0, "solution": "p"}]))
    r = _run("hextris", "score", str(a), str(b), "--problems", str(PROBLEMS), "--json")
    assert r.returncode == 0, r.stderr
    # The later entry (b's) is the one scored, and the replacement is said.
    assert json.loads(r.stdout)[0]["seeds"][0]["power_score"] == 0
    warn = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(warn) == 1 and warn[0].startswith("warning: problem 21 seed 0")
    assert f"{b} entry 0 replaces {a} entry 0" in warn[0]
    helptext = " ".join(_run("hextris", "score", "--help").stdout.replace("│", " ").split())
    assert "later entry for the same problem and seed replaces the earlier one" in helptext


def test_show_replays_the_first_entry_seed_as_its_help_says(tmp_path):
    seeds = json.loads((PROBLEMS / "problem_11.json").read_text())["sourceSeeds"]
    sols = tmp_path / "s.json"
    sols.write_text(
        json.dumps(
            [
                {"problemId": 11, "seed": seeds[0], "solution": "ei!"},
                {"problemId": 11, "seed": seeds[0], "solution": "ei!aaa"},
                {"problemId": 11, "seed": seeds[2], "solution": "ei!"},
            ]
        )
    )
    r = runner.invoke(app, ["hextris", "show", "11", "-s", str(sols), "--problems", str(PROBLEMS)])
    assert r.exit_code == 0, r.output
    # The first entry's seed, in its last version (the one scoring counts).
    assert f"seed {seeds[0]} " in r.stdout and "commands 6" in r.stdout
    r = runner.invoke(
        app, ["hextris", "show", "11", "-s", str(sols), "--seed", str(seeds[2]), "--problems", str(PROBLEMS)]
    )
    assert f"seed {seeds[2]} " in r.stdout and "commands 3" in r.stdout


@pytest.mark.parametrize("verb", ["show", "score"])
def test_a_non_utf8_file_is_one_line(tmp_path, verb):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'[{"problemId": 1, "\xff\xfe": 0}]')
    r = _run("hextris", verb, str(bad), "--problems", str(PROBLEMS))
    assert r.returncode != 0
    assert "not a UTF-8 text file" in _one_line_error(r.stderr)[0]


def test_a_board_far_beyond_the_contest_is_refused_before_allocating(tmp_path):
    prob = json.loads((PROBLEMS / "problem_21.json").read_text())
    prob["width"] = prob["height"] = 10**6
    prob["filled"] = []
    big = tmp_path / "big.json"
    big.write_text(json.dumps(prob))
    # A 10^12-cell board would take terabytes: refused at once, within a small memory cap.
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({2**31}, {2**31})); "
            "from snakelab.cli import main; main()",
            "hextris",
            "show",
            str(big),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert r.returncode != 0
    assert "too big" in _one_line_error(r.stderr)[0]


@pytest.mark.parametrize(
    ("solution", "seed", "what"),
    [
        ("ei!", 4242, "not one of"),  # a seed the problem lacks
        ("ei!~", 0, ""),  # a character outside the alphabet
    ],
)
def test_score_exits_1_when_a_solution_stops_with_an_error(tmp_path, solution, seed, what):
    sols = tmp_path / "s.json"
    sols.write_text(json.dumps([{"problemId": 6, "seed": seed, "solution": solution}]))
    r = _run("hextris", "score", str(sols), "--problems", str(PROBLEMS), "--json")
    assert r.returncode == 1, r.stderr  # the run finished, the check failed
    lines = _one_line_error(r.stderr)
    assert "1 solution(s) stop with an error" in lines[-1] and f"problem 6 seed {seed}" in lines[-1]
    out = json.loads(r.stdout)
    bad = next(s for s in out[0]["seeds"] if s["seed"] == seed)
    assert bad["error"] and what in bad["error"]
    ok = _run("hextris", "score", str(VECTORS / "official_sample_problem_6_seed_0.json"), "--problems", str(PROBLEMS))
    assert ok.returncode == 0, ok.stderr


def test_the_contest_program_says_an_empty_phrase_is_empty():
    r = _run("-p", "", "-p", "Ei!", module="snakelab.cli.icfp2015")  # no problem file: nothing to solve
    assert r.returncode == 1
    assert _one_line_error(r.stderr) == ["error: phrase '' is empty; not used"]
    assert json.loads(r.stdout) == []

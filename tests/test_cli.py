"""The CLI as a whole: one grammar, complete help, one exit-code table, the compile notice."""

import re

import pytest
import typer
from typer.testing import CliRunner

from snakelab.cli import app
from snakelab.cli._grammar import EXIT_CODES
from snakelab.core.errors import ConfigError
from snakelab.core.registry import list_games, make
from tests.cli_helpers import run_snakelab

runner = CliRunner()
GAMES = sorted(g.id for g in list_games())
SEVERAL_SEATS = {"arena"}  # games with several agent seats (snakgame's Chef is the game's)


def _commands(group, path=()):
    """Every leaf command under ``group`` (hidden ones too), as (path, click command).

    Through ``list_commands`` and ``get_command``: the root loads a command's module on use.
    """
    ctx = typer.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if hasattr(cmd, "commands"):
            yield from _commands(cmd, (*path, name))
        else:
            yield (*path, name), cmd


ALL = sorted(_commands(typer.main.get_command(app)), key=lambda pc: pc[0])


def _help(*args, columns="200"):
    r = runner.invoke(app, [*args, "--help"], env={"COLUMNS": columns, "NO_COLOR": "1", "TERM": "dumb"})
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_play_and_bench_and_multiplayer_games_a_tournament(game):
    verbs = {path[1] for path, cmd in ALL if path[0] == game and not cmd.hidden}
    assert {"play", "bench"} <= verbs
    assert ("tournament" in verbs) == (game in SEVERAL_SEATS)


def test_top_level_help_shows_the_grammar_as_one_table_and_the_exit_codes():
    text = _help()
    rows = {}
    for line in text.splitlines():
        cells = line.split()
        if cells and cells[0] in GAMES and len(cells) >= 4:
            rows[cells[0]] = cells[1:4]
    assert set(rows) == set(GAMES), text
    for game, marks in rows.items():
        assert marks == ["✓", "✓", "✓" if game in SEVERAL_SEATS else "-"], (game, marks)
    for code, _ in EXIT_CODES:
        assert re.search(rf"^\s*{code}\s+\S", text, re.MULTILINE), code
    assert "run" not in rows["arena"]  # the old name is hidden


@pytest.mark.parametrize(("path", "cmd"), ALL, ids=[" ".join(p) for p, _ in ALL])
def test_help_lists_every_option_and_no_flag_shows_a_type(path, cmd):
    text = _help(*path)
    for param in cmd.params:
        for opt in [*param.opts, *param.secondary_opts]:
            if opt.startswith("--"):
                assert opt in text, f"{opt} missing from snakelab {' '.join(path)} --help"
    assert "<bool>" not in text


@pytest.mark.parametrize("args", [(), ("arena",), ("arena", "play"), ("hextris", "bench")])
def test_help_survives_a_narrow_terminal(args):
    text = _help(*args, columns="30")
    assert "Usage" in text


def test_arena_play_help_lists_the_seat_options():
    text = _help("arena", "play")
    for short, long in (("-p", "--python-bot"), ("-j", "--jar"), ("-e", "--exec"), ("-b", "--builtin")):
        line = next(ln for ln in text.splitlines() if long in ln)
        assert short in line


def test_usage_errors_are_one_line_with_exit_code_2():
    r = run_snakelab("classic", "bench", "--bogus")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "error: No such option: --bogus (Possible options: --jobs) (see snakelab classic bench --help)"
    ]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        # One fault, one code: bad input exits 2 in every verb.
        (["classic", "play", "-W", "0", "-H", "5", "--speed", "0"], "0×5"),
        (["snakgame", "judge", "--game", "snakgame(rows=20,cols=20)", "--", "true"], "'rows' does not apply"),
        (["snakgame", "play", "--game", "classic(width=5)"], "is a classic game"),
        (["hextris", "show", "99"], "problem"),
        (["results", "show", "1", "--store", "/nonexistent/s.sqlite"], "no results store"),
        (["blind", "bench", "-W", "5"], "give both --width and --height"),
    ],
)
def test_bad_input_exits_2_in_one_line(args, needle):
    r = run_snakelab(*args)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], r.stderr


def test_a_closed_pipe_exits_141_without_a_traceback():
    import subprocess
    import sys

    from tests.cli_helpers import plain_env

    code = "from snakelab.cli import main; main()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "games"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=plain_env()
    )
    assert proc.stdout is not None
    proc.stdout.close()  # the reader goes away before the first line
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 141, err
    assert b"Traceback" not in err


def test_game_parameters_that_do_not_apply_are_refused():
    with pytest.raises(ConfigError, match="rows and cols apply to type=0"):
        make("snakgame(rows=20,cols=20)")
    with pytest.raises(ConfigError, match="'rows' does not apply"):
        make("snakgame(type=1,rows=6)")  # the default value, given: still refused
    with pytest.raises(ConfigError, match="block_prob applies to random blocking only"):
        make("snakgame(type=0,rows=3,cols=3,blocked='1 1',block_prob=0.1)")
    with pytest.raises(ConfigError, match="problem_file names the problem"):
        make("hextris(problem=3,problem_file=p.json)")
    assert make("snakgame(type=0,rows=20,cols=20)").info.config.rows == 20


def test_warm_compiles_every_game_and_says_so():
    from snakelab.cli.warm import _PARTS

    assert {name for name, _ in _PARTS} == set(GAMES)
    r = run_snakelab("warm", timeout=900)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert "kernels ready" in lines[-1]
    # Progress per game: which game is compiling as it starts (no terminal here, so a
    # line), then its seconds.
    for game in GAMES:
        start = lines.index(f"{game}…")
        after = [ln for ln in lines[start + 1 :] if ln != "compiling kernels, first run only"]
        assert re.fullmatch(rf"{game}: \d+\.\d s", after[0])


@pytest.mark.slow
def test_a_run_that_compiles_says_so_once_and_a_warm_one_does_not(tmp_path):
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "numba"), "SNAKELAB_STORE": "off"}
    args = ("classic", "bench", "-a", "champion", "-W", "6", "-H", "6", "-n", "4", "-j", "2")
    cold = run_snakelab(*args, env=env, timeout=900)
    assert cold.returncode == 0, cold.stderr
    # Two workers compile at once; the line appears once.
    assert cold.stderr.count("compiling kernels, first run only") == 1, cold.stderr
    warm = run_snakelab(*args, env=env, timeout=900)
    assert warm.returncode == 0 and "compiling" not in warm.stderr, warm.stderr


def test_the_readme_states_the_same_exit_codes():
    from pathlib import Path

    from snakelab.cli._grammar import exit_codes_markdown

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert exit_codes_markdown() in readme


def test_progress_without_a_terminal_writes_a_plain_line_now_and_then(monkeypatch, capsys):
    # Rich draws no live bar without a terminal; a long run writes plain lines instead,
    # at most every PLAIN_EVERY_S seconds, and none for the finishing update.
    from snakelab.cli import common

    monkeypatch.setattr(common, "PLAIN_EVERY_S", 0.0)
    with common.progress_bar(3, "games") as prog:
        for _ in range(3):
            common.advance(prog)
    err = capsys.readouterr().err
    assert re.search(r"^games: 1/3 \(0:00:\d\d elapsed", err, re.M)
    assert re.search(r"^games: 2/3 \(", err, re.M)
    assert not re.search(r"^games: 3/3 \(", err, re.M)
    monkeypatch.setattr(common, "PLAIN_EVERY_S", 3600.0)
    with common.progress_bar(3, "games") as prog:
        common.advance(prog)
    assert "1/3 (" not in capsys.readouterr().err
    monkeypatch.setattr(common, "PLAIN_EVERY_S", 0.0)
    with common.progress_bar(3, "games", enabled=False) as prog:
        common.advance(prog)
    assert capsys.readouterr().err == ""


def test_the_store_option_may_follow_the_verb(tmp_path):
    store = tmp_path / "after.sqlite"
    bench = ("classic", "bench", "-a", "greedy", "-W", "6", "-H", "6", "-n", "2", "-j", "1")
    r = run_snakelab(*bench, "--store", store)
    assert r.returncode == 0, r.stderr
    assert f"stored in {store}" in " ".join(r.stderr.split()) and store.exists()
    equals = tmp_path / "equals.sqlite"
    r = run_snakelab(
        "classic", "bench", "-a", "greedy", "-W", "6", "-H", "6", "-n", "2", "-j", "1", f"--store={equals}"
    )
    assert r.returncode == 0, r.stderr
    assert equals.exists()
    # A verb's own --store stays its own: results list reads the store it names.
    listed = run_snakelab("results", "list", "--store", store)
    assert listed.returncode == 0 and "classic" in listed.stdout, listed.stderr


def test_the_results_help_names_the_store_variable_the_store_reads():
    from snakelab.cli import results
    from snakelab.harness.store import STORE_ENV

    assert results.STORE_ENV == STORE_ENV


HELP_LOADS = """
import sys
sys.argv = ["snakelab", *sys.argv[1:]]
from snakelab.cli import main
try:
    main()
except SystemExit:
    pass
print(" ".join(m for m in ("numpy", "numba", "snakelab.core.registry", "snakelab.harness.store") if m in sys.modules))
"""


@pytest.mark.parametrize(
    "args", [(), ("arena", "play"), ("classic", "bench"), ("hextris", "score"), ("results", "list"), ("serve",)]
)
def test_help_loads_no_game_code(args):
    # Each verb imports what it uses when it runs: its help (and every other verb's) loads
    # neither numpy nor numba, nor the registry of games, so it starts at once.
    import subprocess
    import sys

    r = subprocess.run(
        [sys.executable, "-c", HELP_LOADS, *args, "--help"], capture_output=True, text=True, timeout=120, check=False
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "", r.stdout.splitlines()[-1]


def test_the_contest_program_starts_without_the_kernels():
    # play_icfp2015 checks its clock before loading numba (its solver loads it).
    import subprocess
    import sys

    code = "import sys, snakelab.cli.icfp2015; print('numba' in sys.modules, 'numpy' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert r.stdout.split() == ["False", "False"], r.stderr

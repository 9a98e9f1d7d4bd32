"""Scripted dialogues through the real judge (a child process) and the stdio client."""

import io
import os
import sys
import textwrap
import time

import pytest

from snakelab import make, make_agent
from snakelab.core.replay import verify
from snakelab.games.snakgame.codec import format_header, read_header, run_client
from snakelab.harness import play
from snakelab.harness.snakgame_judge import Script, run_judge

EXAMPLES = {
    "ex1": (
        (2, 2, []),
        ["Y NEW 1 1", "J NEW 1 2", "Y MOVE 1 1 2 1", "J MOVE 1 2 2 2", "Y EXIT"],
        1,
    ),
    "ex2": (
        (3, 3, []),
        [
            "Y NEW 2 2", "J FREEZE 2", "Y MOVE 2 2 3 2", "J FREEZE 1", "Y MOVE 3 2 3 3", "J NEW 2 3",
            "Y MOVE 2 2 1 2", "J FREEZE 1", "Y MOVE 1 2 1 1", "J MOVE 2 3 1 3", "Y MOVE 1 1 2 1",
            "J NEW 3 1", "Y EXIT",
        ],
        10,
    ),
    "ex3": (
        (3, 4, [(1, 1), (3, 4)]),
        [
            "Y NEW 1 2", "J NEW 2 4", "Y MOVE 1 2 1 3", "J MOVE 2 4 2 3", "Y MOVE 1 3 1 4", "J MOVE 2 3 3 3",
            "Y NEW 3 2", "J NEW 2 1", "Y MOVE 3 2 2 2", "J MOVE 2 1 3 1", "Y EXIT",
        ],
        3,
    ),
}  # fmt: skip

# A contest program that plays its script and checks every judge line against the script.
SCRIPTED = textwrap.dedent(
    """
    import sys
    script = sys.argv[1].split("|")
    n, m, k = map(int, sys.stdin.readline().split())
    blocked = [sys.stdin.readline().split() for _ in range(k)]
    for line in script:
        who, text = line.split(" ", 1)
        if who == "Y":
            print(text, flush=True)
        else:
            got = sys.stdin.readline().strip()
            if got != text:
                print("EXPECTED", text.replace(" ", "_"), "GOT", got.replace(" ", "_"), flush=True)
                sys.exit(1)
    """
)


def _program(tmp_path, body):
    path = tmp_path / "prog.py"
    path.write_text(body)
    return path


def _state(game, n, m, blocked):
    return game.state_with_grid(n, m, blocked)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_judge_reproduces_statement_examples_move_for_move(name, tmp_path):
    (n, m, blocked), script, score = EXAMPLES[name]
    game = make(f"snakgame(type=0,rows={n},cols={m},block_prob=0)")
    prog = _program(tmp_path, SCRIPTED)
    replies = [line[2:] for line in script if line.startswith("J ")]
    rep = run_judge(
        game,
        0,
        [sys.executable, str(prog), "|".join(script)],
        script=Script(_state(game, n, m, blocked), replies),
        transcript=True,
    )
    assert rep.verdict == "OK", rep.message
    assert rep.transcript == [line.replace("Y ", "Y: ", 1).replace("J ", "J: ", 1) for line in script]
    assert rep.score == score and rep.outcome is not None and rep.outcome.termination == "FULL"


def test_header_round_trip():
    game = make("snakgame(type=0,rows=7,cols=5,block_prob=0.3)")
    s = game.new_state(3)
    lines = format_header(s)
    n, m, cells = read_header(iter(lines))
    assert (n, m) == (7, 5) and len(cells) == int(lines[0].split()[2]) > 0
    t = game.state_with_grid(n, m, cells)
    assert t.occ == s.occ


@pytest.mark.parametrize(
    ("body", "verdict", "needles"),
    [
        ("print('MOVE 1 1 1 2', flush=True)", "ILLEGAL", ["move 1", "MOVE 1 1 1 2", "no snake yet"]),
        ("print('HELLO', flush=True)", "ILLEGAL", ["move 1", "cannot read move 'HELLO'"]),
        ("print('NEW 1 1', flush=True); print('NEW 1 1', flush=True)", "ILLEGAL", ["move 2", "not empty"]),
        ("print('NEW 99 1', flush=True)", "ILLEGAL", ["move 1", "off the 4×5 grid"]),
        ("import sys; sys.exit(3)", "CRASH", ["exited with code 3", "move 1"]),
    ],
)
def test_judge__bad_programs_end_the_file_with_a_reason(tmp_path, body, verdict, needles):
    game = make("snakgame(type=0,rows=4,cols=5,block_prob=0)")
    prog = _program(tmp_path, "import sys\nsys.stdin.readline()\n" + body + "\nimport time; time.sleep(0.2)\n")
    rep = run_judge(game, 1, [sys.executable, str(prog)])
    assert rep.verdict == verdict and rep.score == 0
    for needle in needles:
        assert needle in rep.message


def test_judge__time_out_is_reported_and_the_program_killed(tmp_path):
    game = make("snakgame(type=0,rows=4,cols=5)")
    pidfile = tmp_path / "pid"
    prog = _program(tmp_path, f"import os, time\nopen({str(pidfile)!r}, 'w').write(str(os.getpid()))\ntime.sleep(60)\n")
    t0 = time.monotonic()
    rep = run_judge(game, 1, [sys.executable, str(prog)], time_limit=0.5)
    assert rep.verdict == "TIMEOUT" and "0.5 s" in rep.message and "move 1" in rep.message
    assert time.monotonic() - t0 < 30
    pid = int(pidfile.read_text())
    with pytest.raises(ProcessLookupError):
        for _ in range(50):  # reaped by the judge; allow the kernel a moment
            os.kill(pid, 0)
            time.sleep(0.05)


CLIENT = [sys.executable, "-c", "from snakelab.cli import main; main()", "snakgame", "client", "--agent"]


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["greedy", "champion"])
def test_client_through_judge_matches_in_process_play(agent, tmp_path):
    game = make("snakgame(type=0,rows=9,cols=11)")
    path = tmp_path / "judged.jsonl"
    rep = run_judge(game, 4, [*CLIENT, agent], replay=path, agent_name=f"snakgame.{agent}")
    assert rep.verdict == "OK", rep.message
    local = play(game, [make_agent(f"snakgame.{agent}")], 4)
    assert rep.score == local.outcome.details["score"] > 0
    assert rep.moves == local.steps
    assert verify(path) == rep.moves  # a judged game is an ordinary, verifiable replay


def test_client_stops_on_exit_and_prints_exit_when_full():
    # Grid 1×2: you NEW 1 1, the judge NEW 1 2 fills it, you print EXIT.
    out = io.StringIO()
    state = run_client(make_agent("snakgame.greedy"), "greedy", io.StringIO("1 2 0\nNEW 1 2\n"), out)
    assert out.getvalue().splitlines() == ["NEW 1 1", "EXIT"] and state.free == 0
    # The judge says EXIT after your move filled the grid: the client stops quietly.
    out = io.StringIO()
    run_client(make_agent("snakgame.greedy"), "greedy", io.StringIO("1 3 1\n1 3\nFREEZE 1\nEXIT\n"), out)
    assert out.getvalue().splitlines() == ["NEW 1 1", "MOVE 1 1 1 2"]


def test_judge__a_program_that_never_reads_cannot_block_it(tmp_path):
    # A type-1 header is far larger than a pipe buffer; this program never reads it.
    game = make("snakgame(type=1)")
    prog = _program(tmp_path, "import time\ntime.sleep(60)\n")
    t0 = time.monotonic()
    rep = run_judge(game, 1, [sys.executable, str(prog)], time_limit=0.5)
    assert rep.verdict == "TIMEOUT" and time.monotonic() - t0 < 30


@pytest.mark.slow
def test_champion_contest_program_is_judged_ok_on_the_largest_grid():
    # The contest's largest grid (600 × 600, blocked at 1/25 as in type 2) under its 4 s
    # CPU limit: the program's own CPU time is what counts, so machine load cannot fail it.
    from snakelab.harness.snakgame_judge import contest_command

    client = contest_command("champion", 4)
    # A small game first: loads (or compiles and caches) the kernels outside the limit.
    warm = run_judge(make("snakgame(type=0,rows=12,cols=14)"), 1, client)
    assert warm.verdict == "OK", warm.message
    rep = run_judge(make("snakgame(type=0,rows=600,cols=600)"), 2, client, time_limit=4)
    assert (rep.rows, rep.cols) == (600, 600)
    assert rep.verdict == "OK", rep.message
    assert rep.cpu_s <= 4 and rep.score > 0 and rep.moves > 1000

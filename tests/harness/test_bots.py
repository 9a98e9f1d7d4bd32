"""Fault tests for external arena bots: crashes, hangs, floods, stubbornness, limits."""

import json
import os
import sys
from pathlib import Path

import pytest

from snakelab import make, make_agent
from snakelab.core.errors import ConfigError
from snakelab.core.game import BaseAgent
from snakelab.games.arena.agents import greedy_move
from snakelab.harness import play
from snakelab.harness.arena_bot import BotAgent, BotOptions, BotProcess, bot_command, processes_in_group

BOTS = Path(__file__).parents[1] / "games" / "arena" / "bots"
GAME = "arena(game_width=16,game_height=16,duration=1,speed=20)"  # 50 steps


def bot(name, tmp_path, **kw):
    kw.setdefault("lockstep", True)
    kw.setdefault("timeout_s", 2.0)
    kw.setdefault("startup_s", 0.2)
    return BotAgent(str(BOTS / name), BotOptions(run_dir=str(tmp_path), python=sys.executable, **kw))


def run(agents, tmp_path, game=GAME, seed=1):
    path = tmp_path / "replay.jsonl"
    n = make(game).info.num_players
    agents = agents + [make_agent("arena.greedy") for _ in range(n - len(agents))]
    res = play(make(game), agents, seed, replay=path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    events = [(step["t"], e) for step in lines[1:-1] for e in step["events"]]
    return res, events


def assert_gone(*agents):
    for a in agents:
        assert a.pid is not None
        assert processes_in_group(a.pid) == []
        with pytest.raises(ProcessLookupError):
            os.kill(a.pid, 0)


def is_live(pid):
    """Whether a process exists and is not a zombie (a killed orphan waits for init to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def kinds(events, player, kind):
    return [t for t, e in events if e["kind"] == kind and e.get("player") == player]


def test_crash_at_step_10__removed_others_play_on(tmp_path):
    crash, steady = bot("crash_bot.py", tmp_path), bot("steady_bot.py", tmp_path)
    res, events = run([crash, steady], tmp_path)
    assert res.outcome.termination == "TIME_UP" and res.steps == 50
    (t,) = kinds(events, 0, "crash")
    # Its 10th state comes on step 10 or later (a dead snake gets no state).
    assert t >= 10 and res.outcome.details["crashes"] == [1, 0, 0, 0]
    assert "RuntimeError: boom at step 10" in crash.err_path.read_text()
    assert "exited with code 1" in " ".join(res.notices)
    assert kinds(events, 1, "crash") == [] and "step 1" in steady.log_path.read_text()
    assert_gone(crash, steady)


def test_sleeping_bot__times_out_every_step_game_ends_on_time(tmp_path):
    sleeper = bot("sleep_bot.py", tmp_path, lockstep=False)
    steady = bot("steady_bot.py", tmp_path, lockstep=False)
    res, events = run([sleeper, steady], tmp_path)
    assert res.outcome.termination == "TIME_UP" and res.steps == 50
    timeouts = kinds(events, 0, "timeout")
    assert len(timeouts) == res.outcome.details["timeouts"][0] and len(timeouts) >= 25
    assert res.outcome.details["crashes"] == [0, 0, 0, 0]
    assert_gone(sleeper, steady)


def test_sleeping_bot__lockstep_limit_then_removed_as_unresponsive(tmp_path):
    sleeper = bot("sleep_bot.py", tmp_path, timeout_s=0.02)
    game = "arena(game_width=16,game_height=16,duration=1,speed=100)"  # 10 steps
    res, events = run([sleeper], tmp_path, game)
    # Two missed answers are timeouts (straight on); the third in a row removes it.
    timeouts, (crash,) = kinds(events, 0, "timeout"), kinds(events, 0, "crash")
    assert res.steps == 10 and len(timeouts) == 2 and crash > timeouts[-1]
    assert res.outcome.details["crashes"][0] == 1
    (notice,) = res.notices
    assert "unresponsive" in notice and f"removed at step {crash}" in notice
    assert [f["kind"] for f in sleeper.faults] == ["timeout", "timeout", "timeout", "unresponsive"]
    assert_gone(sleeper)


def test_flood_of_garbage__killed_and_removed(tmp_path):
    flood, steady = bot("flood_bot.py", tmp_path), bot("steady_bot.py", tmp_path)
    res, events = run([flood, steady], tmp_path)
    assert len(kinds(events, 0, "crash")) == 1 and res.steps == 50
    assert any("printed a line longer than 65536 bytes" in f.get("reason", "") for f in flood.faults)
    assert kinds(events, 1, "crash") == []
    assert_gone(flood, steady)


def test_bot_ignoring_game_over_is_killed(tmp_path):
    stubborn = bot("stubborn_bot.py", tmp_path)
    res, events = run([stubborn], tmp_path)
    assert res.steps == 50 and kinds(events, 0, "crash") == []
    assert_gone(stubborn)


def test_closed_stdin_counts_as_a_crash(tmp_path):
    closer = bot("close_stdin_bot.py", tmp_path)
    res, events = run([closer], tmp_path)
    assert len(kinds(events, 0, "crash")) == 1 and res.steps == 50
    assert any("standard input" in f.get("reason", "") for f in closer.faults)
    assert_gone(closer)


def test_bot_that_exits_unread_is_reported_by_its_exit_status(tmp_path):
    # It never reads: the writer blocks on a full pipe, and its write fails when the bot exits.
    proc = BotProcess([sys.executable, "-c", "import time; time.sleep(0.5)"], tmp_path / "l", tmp_path / "e")
    try:
        for _ in range(300):
            proc.send(["x" * 1000])
        assert proc.wait_exit(10)
        proc.ext._writer.join(timeout=5)
        assert not proc.ext._writer.is_alive()
        assert proc.exit_reason() == "exited with code 0"
    finally:
        proc.close()


def test_log_lines_printed_just_before_exit_are_all_kept(tmp_path):
    # ~120 KB of log lines, then exit at once: the last of them are still in the pipe when
    # the program is gone, and closing must read them before it closes the pipe.
    n = 3000
    code = f"import sys\nfor i in range({n}): sys.stdout.write(f'log line {{i:05d}} ' + 'x' * 24 + '\\n')\n"
    proc = BotProcess([sys.executable, "-c", code], tmp_path / "l", tmp_path / "e")
    try:
        assert proc.wait_exit(10)
    finally:
        proc.close()
    lines = (tmp_path / "l").read_text().splitlines()
    assert len(lines) == n
    assert lines[-1].startswith(f"line {n - 1:05d} ")


def test_garbage_answers_are_invalid_moves(tmp_path):
    garbage = bot("garbage_bot.py", tmp_path)
    res, events = run([garbage], tmp_path)
    invalid = kinds(events, 0, "invalid")
    assert invalid and len(invalid) == res.outcome.details["invalid"][0]
    assert_gone(garbage)


def test_children_of_a_bot_are_killed_too(tmp_path):
    spawner = bot("spawner_bot.py", tmp_path)
    run([spawner], tmp_path)
    child = int(spawner.log_path.read_text().split()[1])
    assert_gone(spawner)
    assert not is_live(child)


@pytest.mark.slow
def test_cpu_limit_kills_a_spinning_bot(tmp_path):
    # max_misses=0: never removed as unresponsive, so the CPU limit is what stops it.
    hog = bot("cpu_hog_bot.py", tmp_path, cpu_s=1, timeout_s=0.05, max_misses=0)
    game = "arena(game_width=16,game_height=16,duration=30,speed=20,num_snakes=2)"  # up to 1500 steps
    res, events = run([hog, make_agent("arena.greedy")], tmp_path, game)
    assert len(kinds(events, 0, "crash")) == 1
    assert any("more than 1 s of CPU time" in f.get("reason", "") for f in hog.faults)
    assert res.outcome.termination == "FORFEIT"  # one running agent left
    assert_gone(hog)


def test_memory_limit_stops_a_hungry_bot(tmp_path):
    hog = bot("memory_hog_bot.py", tmp_path, memory_mb=200)
    _res, events = run([hog], tmp_path)
    assert len(kinds(events, 0, "crash")) == 1 and "MemoryError" in hog.err_path.read_text()
    assert_gone(hog)


class Exploding(BaseAgent):
    def act(self, observation, budget):
        if observation.steps == 5:
            raise RuntimeError("agent bug")
        return greedy_move(observation, self.player)


def test_an_exception_mid_game_leaves_no_process(tmp_path):
    steady, stubborn = bot("steady_bot.py", tmp_path), bot("stubborn_bot.py", tmp_path)
    with pytest.raises(RuntimeError, match="agent bug"):
        run([steady, stubborn, Exploding()], tmp_path)
    assert_gone(steady, stubborn)


def test_lockstep_games_are_reproducible(tmp_path):
    outs = []
    for k in range(2):
        d = tmp_path / str(k)
        d.mkdir()
        res, events = run([bot("steady_bot.py", d), bot("garbage_bot.py", d)], d, seed=5)
        outs.append((res.outcome.to_json(), events))
    assert outs[0] == outs[1]


def test_bot_command_kinds(tmp_path):
    py = tmp_path / "b.py"
    py.write_text("print(5)\n")
    assert bot_command(str(py)) == ["python3", "-u", str(py)]
    assert bot_command("x.jar", "java")[:2] == ["java", "-jar"] if Path("x.jar").exists() else True
    with pytest.raises(ConfigError, match="does not exist"):
        bot_command(str(tmp_path / "missing.py"))
    with pytest.raises(ConfigError, match="not executable"):
        bot_command(str(py), "exec")
    with pytest.raises(ConfigError, match="unknown bot kind"):
        bot_command(str(py), "ruby")


class CtrlC(BaseAgent):
    def act(self, observation, budget):
        if observation.steps == 3:
            raise KeyboardInterrupt
        return greedy_move(observation, self.player)


def test_ctrl_c_mid_game_leaves_no_process(tmp_path):
    sleeper, steady = bot("sleep_bot.py", tmp_path, timeout_s=0.05), bot("steady_bot.py", tmp_path)
    with pytest.raises(KeyboardInterrupt):
        run([sleeper, steady, CtrlC()], tmp_path)
    assert_gone(sleeper, steady)


HARNESS = """
import sys, time
from snakelab import make
from snakelab.harness.arena_bot import BotAgent, BotOptions
bot = BotAgent(sys.argv[1], BotOptions(run_dir=sys.argv[2], python=sys.executable))
bot.reset(make("arena(game_width=16,game_height=16)").info, 0, 0)
print(bot.pid, flush=True)
time.sleep(60)
"""


@pytest.mark.slow
def test_bots_die_with_a_killed_harness(tmp_path):
    import signal
    import subprocess
    import time

    harness = subprocess.Popen(
        [sys.executable, "-c", HARNESS, str(BOTS / "sleep_bot.py"), str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    pid = int(harness.stdout.readline())
    assert is_live(pid)
    harness.send_signal(signal.SIGKILL)
    harness.wait()
    for _ in range(100):  # the kernel delivers the parent-death signal asynchronously
        if not is_live(pid):
            break
        time.sleep(0.05)
    assert not is_live(pid)


@pytest.mark.slow
def test_java_jar_bot(tmp_path):
    """A jar runs as ``java -jar FILE`` (heap limited with -Xmx) and logs like any bot."""
    import subprocess

    build = tmp_path / "build"
    build.mkdir()
    subprocess.run(["javac", "-d", str(build), str(BOTS / "JavaBot.java")], check=True)
    (build / "manifest.txt").write_text("Main-Class: JavaBot\n")
    jar = tmp_path / "bot.jar"
    subprocess.run(["jar", "cfm", str(jar), "manifest.txt", "JavaBot.class"], check=True, cwd=build)
    java = BotAgent(str(jar), BotOptions(lockstep=True, timeout_s=10, run_dir=str(tmp_path)))
    assert java.command[:2] == ["java", "-jar"]
    res, _events = run([java], tmp_path)
    assert res.steps == 50 and res.outcome.details["crashes"][0] == 0
    assert res.outcome.details["timeouts"][0] == 0
    assert "java step 1" in java.log_path.read_text()
    assert_gone(java)


def test_real_time_uses_the_last_line_since_the_previous_deadline(tmp_path):
    double = bot("double_bot.py", tmp_path, lockstep=False)
    game = "arena(game_width=16,game_height=16,duration=2,speed=100)"  # 20 steps
    path = tmp_path / "replay.jsonl"
    agents = [double] + [make_agent("arena.greedy") for _ in range(3)]
    play(make(game), agents, 2, replay=path)
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:-1]]
    mine = [step["actions"][0] for step in lines]
    assert mine.count(3) >= len(mine) // 2 and 0 not in mine
    assert_gone(double)


def test_unread_output_over_the_limit_is_a_flood(tmp_path):
    chatty = bot("chatty_bot.py", tmp_path, output_limit=1000)
    res, events = run([chatty], tmp_path)
    assert len(kinds(events, 0, "crash")) == 1 and res.steps == 50
    assert any("faster than the game reads them" in f.get("reason", "") for f in chatty.faults)
    assert_gone(chatty)


# -- unresponsive lockstep bots ----------------------------------------------------

SILENT = """
import os, time
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pid"), "w").write(str(os.getpid()))
time.sleep(10**6)
"""


@pytest.mark.slow
def test_silent_bot_in_a_default_lockstep_game__removed_as_unresponsive_game_ends_soon(tmp_path):
    import time

    from tests.cli_helpers import run_snakelab

    (tmp_path / "hang.py").write_text(SILENT)
    t0 = time.monotonic()
    r = run_snakelab(
        *("arena", "run", "-p", "hang.py", "-b", "greedy", "-b", "greedy", "-b", "greedy"),
        *("--seed", "5", "--lockstep", "--no-view", "--json", "--run-dir", "run"),
        cwd=tmp_path,
        timeout=120,
    )
    elapsed = time.monotonic() - t0
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["steps"] == 6000 and out["termination"] == "TIME_UP"  # the others play on to the end
    (row,) = [row for row in out["ranking"] if row["player"] == 0]
    assert row["crashes"] == 1 and row["timeouts"] == 2
    (notice,) = out["notices"]
    assert "player 0 (hang) was unresponsive: no answer at steps 1–3" in notice
    assert "removed at step 3" in notice and "waited" in notice
    assert "waiting for player 0 (hang) at step 1" in r.stderr  # said while waiting
    assert elapsed < 50  # 6000 steps of 1 s each without the rule
    pid = int((tmp_path / "pid").read_text())
    assert not is_live(pid)


LATE = """
import sys, time
n = int(sys.stdin.readline().split()[0])
k = 0
for line in sys.stdin:
    line = line.strip()
    if line == "Game Over":
        break
    if "," not in line and " " not in line:  # the own-index line, then n snake lines
        for _ in range(n):
            sys.stdin.readline()
        k += 1
        if k == 3:
            time.sleep(1.4)  # past the 1 s limit on this one answer...
            print(6, flush=True)  # ...which is then skipped
        else:
            print(5, flush=True)  # prompt: straight on
"""


def test_bot_late_once__stays_in_its_late_answer_skipped(tmp_path):
    (tmp_path / "late.py").write_text(LATE)
    late = BotAgent(str(tmp_path / "late.py"), BotOptions(lockstep=True, run_dir=str(tmp_path), python=sys.executable))
    game = "arena(game_width=30,game_height=30,duration=2)"  # 40 steps of the default 50 ms: limit 1 s
    res, events = run([late], tmp_path, game, seed=3)
    assert late.limit_s == 1.0
    assert res.steps == 40 and kinds(events, 0, "crash") == [] and res.notices == []
    timeouts = kinds(events, 0, "timeout")
    assert 1 <= len(timeouts) <= 2  # the late answer; a loaded machine may make the next one late too
    lines = [json.loads(line) for line in (tmp_path / "replay.jsonl").read_text().splitlines()[1:-1]]
    mine = {step["t"]: step["actions"][0] for step in lines}
    from snakelab.games.arena.rules import TIMEOUT

    assert mine[timeouts[0]] == TIMEOUT  # straight on that step, counted
    assert 6 not in mine.values()  # the late answer belongs to its own step, so it is never played
    assert_gone(late)


def test_lockstep_limit_defaults_to_a_multiple_of_the_speed(tmp_path):
    from snakelab.harness.arena_bot import LOCKSTEP_MIN_S, LOCKSTEP_SPEED_MULTIPLE

    for speed, want in ((50, 1.0), (200, 4.0), (10, 1.0)):
        b = bot("steady_bot.py", tmp_path, timeout_s=None)
        b.reset(make(f"arena(game_width=16,game_height=16,speed={speed})").info, 0, 0)
        b.close()
        assert b.limit_s == want == max(LOCKSTEP_MIN_S, LOCKSTEP_SPEED_MULTIPLE * speed / 1000)
    b = bot("steady_bot.py", tmp_path, timeout_s=30)
    b.reset(make("arena(game_width=16,game_height=16)").info, 0, 0)
    b.close()
    assert b.limit_s == 30  # --timeout raises it, for a bot under a debugger


def test_listeners_hear_which_bot_a_lockstep_game_waits_for(tmp_path):
    from snakelab.harness.arena_bot import watch_waits

    heard = []
    sleeper = bot("sleep_bot.py", tmp_path, timeout_s=1.6, startup_s=0.0, max_misses=1)
    game = "arena(game_width=16,game_height=16,duration=1,speed=100)"
    with watch_waits(heard.append):
        res, _events = run([sleeper], tmp_path, game)
    assert res.outcome.details["crashes"][0] == 1
    statuses = [h for h in heard if h is not None]
    assert statuses and all(s.player == 0 and s.name == "sleep_bot" and s.step == 1 for s in statuses)
    assert statuses[0].waited_s >= 1.0 and "waiting for player 0 (sleep_bot) at step 1" in statuses[0].describe()
    assert heard[-1] is None  # told when the wait is over
    assert_gone(sleeper)

"""``play_icfp2015``'s processes: shares over the parallel map, a stalled share, interrupts."""

import multiprocessing
import os
import signal
import subprocess
import sys
import time

import pytest

from snakelab.cli import icfp2015
from snakelab.games.hextris.contest import partition, solve_part
from snakelab.games.hextris.solver import warm_up

from .conftest import PROBLEMS

STALL_S = 60.0


def stall_the_first_share(task):
    """A worker that never answers for the share holding game 0 (a stalled or stuck process)."""
    indexed, _phrases, _end = task
    if any(i == 0 for i, _ in indexed):
        time.sleep(STALL_S)
    return solve_part(task)


def test_a_stalled_share_is_answered_empty_at_the_end_and_its_worker_stopped(problems, monkeypatch):
    games = [(problems[p], s) for p in (21, 23) for s in dict.fromkeys(problems[p].source_seeds)][:4]
    parts = partition(games, 2)
    assert len(parts) == 2
    stalled = next(part for part in parts if 0 in part)
    monkeypatch.setattr(icfp2015, "solve_part", stall_the_first_share)
    # The grace is not what is tested here: a generous one keeps a loaded machine from
    # cutting the healthy share too.
    monkeypatch.setattr(icfp2015, "WORKER_GRACE_S", 5.0)
    warm_up()
    t0 = time.monotonic()
    results = icfp2015.solve(games, ("Ei!",), t0 + 3.0, 2)
    waited = time.monotonic() - t0
    # The parent stopped waiting a moment after the end, far sooner than the stall...
    assert waited < STALL_S / 2
    # ... keeping the healthy share's answers; the stalled one's games are missing (the
    # program answers them with the empty solution).
    assert set(results) == set(range(len(games))) - set(stalled)
    # No worker of the map is left running.
    for _ in range(100):
        if not multiprocessing.active_children():
            break
        time.sleep(0.1)
    assert multiprocessing.active_children() == []


def test_one_share_is_solved_in_this_process(problems, monkeypatch):
    def no_map(*_args, **_kwargs):
        raise AssertionError("one share needs no process map")

    import snakelab.harness.parallel

    monkeypatch.setattr(snakelab.harness.parallel, "parallel_map", no_map)
    warm_up()
    results = icfp2015.solve([(problems[21], 0)], ("Ei!",), time.monotonic() + 3.0, 4)
    assert list(results) == [0] and (results[0].problem_id, results[0].seed) == (21, 0)


def _catches(pid, signum):
    """Whether process ``pid`` has a handler for ``signum`` (Linux ``/proc``)."""
    with open(f"/proc/{pid}/status") as fh:
        mask = next(int(line.split()[1], 16) for line in fh if line.startswith("SigCgt:"))
    return bool(mask >> (signum - 1) & 1)


@pytest.mark.parametrize("cores", ["1", "2"])
def test_sigterm_stops_the_program_with_one_line_and_no_process_left(cores):
    files = [a for i in range(25) for a in ("-f", str(PROBLEMS / f"problem_{i}.json"))]
    proc = subprocess.Popen(
        [sys.executable, "-m", "snakelab.cli.icfp2015", *files, "-t", "120", "-c", cores],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        # Once the program catches SIGTERM (its start-up is over, however long a loaded
        # machine makes it), let it get into the solving, then stop it.
        deadline = time.monotonic() + 120
        while not _catches(proc.pid, signal.SIGTERM) and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        time.sleep(2.0)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 143, err  # 128 + SIGTERM, as every snakelab verb
    assert err.strip().splitlines()[-1] == "play_icfp2015: interrupted"
    assert "Traceback" not in err and out == ""
    # The whole session (the program and any worker) is gone.
    for _ in range(100):
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("a process of the program outlived it")

"""The parallel map: results, stops, workers that die with their parent, one player per stored run."""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from snakelab.core.errors import ConfigError
from snakelab.harness import MatchSpec, match_seeds
from snakelab.harness.parallel import mapper, parallel_map
from snakelab.harness.runlock import RunBusyError, RunLock
from snakelab.harness.store import Store, run_stored

SNAKELAB = [sys.executable, "-c", "from snakelab.cli import main; main()"]


def _square(x: int) -> int:
    return x * x


def _slow_square(x: int) -> int:
    time.sleep(0.2)
    return x * x


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_item_once_with_its_position(jobs):
    got = dict(parallel_map(_square, range(7), jobs=jobs))
    assert got == {i: i * i for i in range(7)}
    assert dict(mapper(jobs=jobs)(_square, [3, 4])) == {0: 9, 1: 16}


def test_negative_jobs_refused_at_once():
    with pytest.raises(ConfigError, match="--jobs must be ≥ 0"):
        mapper(jobs=-1)


def test_stop_lets_running_tasks_finish_and_starts_no_more():
    stop = threading.Event()
    seen = []
    for pos, value in parallel_map(_slow_square, range(40), jobs=2, stop=stop):
        seen.append((pos, value))
        stop.set()
    assert 1 <= len(seen) < 40 and all(v == p * p for p, v in seen)
    stop = threading.Event()
    stop.set()
    assert list(parallel_map(_square, range(3), jobs=1, stop=stop)) == []


def test_a_stopped_pool_whose_workers_die_first_leaves_no_thread_error(monkeypatch):
    # The pool's manager thread marks every future it still holds broken when it sees a
    # worker die; one already cancelled made it raise InvalidStateError, printed to stderr
    # as a thread's traceback. Workers that die before the manager hears of the shutdown
    # (a loaded machine) must not do that.
    from snakelab.harness import parallel

    errors: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", errors.append)
    kill = parallel._terminate_new_children

    def kill_and_let_the_manager_see_it(before: set[int | None]) -> None:
        kids = [p for p in parallel.multiprocessing.active_children() if p.pid not in before]
        kill(before)
        for proc in kids:
            proc.join(10)
        time.sleep(0.2)  # the manager thread wakes on the dead workers' sentinels

    monkeypatch.setattr(parallel, "_terminate_new_children", kill_and_let_the_manager_see_it)
    results = parallel_map(_slow_square, range(40), jobs=2)
    assert next(results)[1] >= 0
    results.close()  # the consumer stops early: the pool is stopped at once
    assert [e.exc_type for e in errors] == []


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_ctrl_c_whose_exception_was_lost_still_stops_the_map():
    # A signal handler raises in whatever runs next; in a garbage-collector callback (Dask
    # installs one) the KeyboardInterrupt is printed as "Exception ignored" and lost. The
    # map must still stop instead of waiting for tasks that never finish.
    release = threading.Event()

    def swallowing(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            signal.raise_signal(signal.SIGINT)  # the handler runs here; its exception is discarded

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with ThreadPoolExecutor(3) as pool:
            results = parallel_map(release.wait, [60.0, 60.0, 0.0], pool)
            assert next(results)[0] == 2  # the quick task
            gc.callbacks.append(swallowing)
            try:
                gc.collect()  # the Ctrl-C, lost
            finally:
                gc.callbacks.remove(swallowing)
            t0 = time.monotonic()
            with pytest.raises(KeyboardInterrupt):
                next(results)
            assert time.monotonic() - t0 < 30  # not the tasks' 60 s
            release.set()
    finally:
        signal.signal(signal.SIGINT, previous)
        release.set()


def test_signals_during_a_map_reach_their_handler_from_the_map_one_by_one():
    # While a pool is in use a signal is only noted (raised inside concurrent.futures it
    # could leave a future's lock held and hang the shutdown); the map calls the handler
    # at its next check, once per signal: a first Ctrl-C that asks to stop gently and a
    # second that stops at once both arrive.
    release = threading.Event()
    calls = []

    def handler(signum: int, _frame: object) -> None:
        calls.append(signum)
        if len(calls) == 2:
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    try:
        with ThreadPoolExecutor(2) as pool:
            results = parallel_map(release.wait, [60.0, 0.0], pool)
            assert next(results)[0] == 1
            signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGINT)
            assert calls == []  # noted, not yet handled
            with pytest.raises(KeyboardInterrupt):
                next(results)
            assert calls == [signal.SIGINT, signal.SIGINT]
            release.set()
        assert signal.getsignal(signal.SIGINT) is handler  # the map's own handler is gone
    finally:
        signal.signal(signal.SIGINT, previous)
        release.set()


# -- processes of an interrupted run ---------------------------------------------------


def _children(pid: int) -> set[int]:
    """Live (not zombie) processes whose parent is ``pid``."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start_bench(store: Path, *extra: str) -> subprocess.Popen[str]:
    env = dict(os.environ, SNAKELAB_STORE=str(store))
    return subprocess.Popen(
        [*SNAKELAB, "classic", "bench", "-a", "champion", "-n", "1500", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )


def _wait_for_workers(proc: subprocess.Popen[str], count: int) -> set[int]:
    deadline = time.monotonic() + 120
    while len(kids := _children(proc.pid)) < count:
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "the pool's workers did not start within 120 s"
        time.sleep(0.05)
    return kids


def _assert_gone(pids: set[int], within: float = 15.0) -> None:
    deadline = time.monotonic() + within
    while any(_alive(p) for p in pids):
        assert time.monotonic() < deadline, f"workers still alive: {sorted(p for p in pids if _alive(p))}"
        time.sleep(0.1)


@pytest.mark.xdist_group("processes")
def test_workers_die_when_their_parent_is_killed(tmp_path):
    proc = _start_bench(tmp_path / "s.sqlite", "-j", "2")
    try:
        workers = _wait_for_workers(proc, 2)
        os.kill(proc.pid, signal.SIGKILL)  # no cleanup at all in the parent
        proc.communicate(timeout=30)
        _assert_gone(workers)
    finally:
        with_group_killed(proc)


@pytest.mark.xdist_group("processes")
def test_sigterm_stops_a_run_like_ctrl_c_with_the_resume_hint(tmp_path):
    proc = _start_bench(tmp_path / "s.sqlite", "-j", "2")
    try:
        workers = _wait_for_workers(proc, 2)
        os.kill(proc.pid, signal.SIGTERM)  # the parent only, as `kill PID` does
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 143, err  # 128 + SIGTERM, the code of every verb
        assert "repeat the command with --resume 1" in " ".join(err.split()) and "Traceback" not in err
        _assert_gone(workers)
    finally:
        with_group_killed(proc)


@pytest.mark.xdist_group("processes")
def test_a_run_being_played_cannot_be_resumed_twice(tmp_path):
    store = tmp_path / "s.sqlite"
    first = _start_bench(store, "-j", "1")
    try:
        deadline = time.monotonic() + 120
        while not (store.exists() and any(r.done for r in Store(store).runs())):
            assert first.poll() is None, first.communicate()[1]
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # A stored match means the lock is held; stopped, the first player cannot finish
        # the run while the second starts up, however slow a loaded machine makes that.
        os.killpg(first.pid, signal.SIGSTOP)
        second = subprocess.run(
            [*SNAKELAB, "classic", "bench", "-a", "champion", "-n", "1500", "-j", "1", "--resume", "1"],
            check=False,
            capture_output=True,
            text=True,
            env=dict(os.environ, SNAKELAB_STORE=str(store)),
            timeout=120,
        )
        assert second.returncode != 0
        lines = second.stderr.strip().splitlines()
        assert "run 1 is being played by another process" in lines[-1] and "Traceback" not in second.stderr
        os.kill(first.pid, signal.SIGKILL)
        first.communicate(timeout=30)
        with RunLock(store, 1):  # a killed player leaves no stale lock
            pass
    finally:
        with_group_killed(first)


def test_run_lock_refuses_a_second_process_and_names_the_run(tmp_path):
    store = tmp_path / "s.sqlite"
    specs = [MatchSpec("classic(width=5,height=5)", ("classic.greedy",), s) for s in match_seeds(1, 3)]
    with Store(store) as db:
        rid, _ = run_stored(specs, db, label="t", jobs=1)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys,time; from snakelab.harness.runlock import RunLock; "
            f"lock = RunLock({str(store)!r}, {rid}); print('locked', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with Store(store) as db, pytest.raises(RunBusyError, match=f"run {rid} is being played"):
            run_stored(specs, db, resume=rid, jobs=1)
        with RunLock(store, rid + 1):  # other runs of the same store are free
            pass
    finally:
        holder.kill()
        holder.wait()
    with Store(store) as db:
        again_id, results = run_stored(specs, db, resume=rid, jobs=1)
    assert again_id == rid and len(results) == 3


def with_group_killed(proc: subprocess.Popen[str]) -> None:
    """Kill whatever is left of a test's process group."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    if proc.poll() is None:
        proc.wait(timeout=10)

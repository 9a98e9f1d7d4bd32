import os
import signal
import time

import pytest

from snakelab.cli.common import run_matches
from snakelab.core.errors import ConfigError, SnakelabError
from snakelab.harness import MatchSpec, match_seeds, run_many
from snakelab.harness.executors import DaskExecutor, ExecutorError, dask_executor, make_executor
from tests.cli_helpers import interrupt_snakelab


def _specs(n):
    return [
        MatchSpec("classic(width=8,height=8)", (agent,), s, index=i)
        for i, (agent, s) in enumerate(zip(["classic.greedy", "classic.hamilton"] * n, match_seeds(5, n), strict=False))
    ]


def _key(results):
    return [(r.index, r.agents, r.seed, r.steps, r.outcome.to_json()) for r in results]


def test_dask_local_and_scheduler_address_match_the_process_pool(tmp_path, monkeypatch):
    monkeypatch.setenv("SNAKELAB_STORE", str(tmp_path / "s.sqlite"))
    specs = _specs(12)
    pooled = run_many(specs, jobs=2)
    ex = make_executor("dask-local", 2)
    assert isinstance(ex, DaskExecutor) and ex.address.startswith("tcp://127.0.0.1:")
    try:
        on_dask = run_many(specs, ex)
        # The same cluster reached as an existing scheduler, through the CLI path.
        via_address = run_matches(specs, "dask", executor=f"dask://{ex.address.removeprefix('tcp://')}", jobs=2)
    finally:
        ex.shutdown()
    assert _key(on_dask) == _key(pooled) == _key(via_address)
    assert ex.client.status == "closed"


def test_unreachable_scheduler_is_a_clear_error():
    with pytest.raises(ExecutorError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"):
        dask_executor("127.0.0.1:9", timeout_s=0.5)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("threads", "unknown executor 'threads'"),
        ("dask://nohost", "expected dask://HOST:PORT"),
        ("dask://localhost:99999", "ports run from 1 to 65535"),
        ("dask://localhost:0", "ports run from 1 to 65535"),
    ],
)
def test_bad_executor_strings(spec, message):
    with pytest.raises(ConfigError, match=message):
        make_executor(spec, 1)
    assert issubclass(ExecutorError, SnakelabError)


def test_local_is_the_default():
    assert make_executor(None, 4) is None and make_executor("local", 4) is None


def test_ctrl_c_on_a_dask_local_run_stops_it_and_leaves_no_process(tmp_path):
    # Ctrl-C at a terminal reaches the whole process group, the cluster's workers too. They
    # ignore it; the parent cancels the work and closes the cluster instead of waiting for
    # tasks whose workers are gone (which used to hang).
    ck = tmp_path / "ck.jsonl"
    args = ["blind", "sweep", "--strategy", "dynamic-zigzag", "--max-area", "300000", "--jobs", "2", "--chunks", "400"]
    proc, err = interrupt_snakelab(
        *args,
        *("--executor", "dask-local", "--checkpoint", ck),
        ready=lambda: ck.exists() and ck.read_text().count("\n") >= 2,
        what="two chunks finished",
    )
    assert proc.returncode == 130, err
    assert "interrupted; finished chunks are kept" in err and "Traceback" not in err
    # Every process of the group (the workers, their nannies) is gone as well.
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("processes of the interrupted run are still alive")


def test_a_refused_scheduler_port_is_reported_at_once_with_its_reason():
    # Nothing listens on port 1 of loopback: the plain connection is refused at once, so
    # the message says so rather than waiting out the Dask client's timeout.
    with pytest.raises(ExecutorError, match=r"tcp://127\.0\.0\.1:1 \(Connection refused\)"):
        make_executor("dask://127.0.0.1:1", 1)


def test_the_cli_reports_a_refused_scheduler_in_one_line(tmp_path):
    from tests.cli_helpers import run_snakelab

    r = run_snakelab(
        "--store", "off", "classic", "bench", "-a", "greedy", "-W", "6", "-H", "6", "-n", "2",
        "--executor", "dask://127.0.0.1:1",
    )  # fmt: skip
    assert r.returncode == 2, r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:1 (Connection refused)")

"""A results store damaged behind snakelab's back gives one-line errors naming the file."""

import os
import subprocess
import sys

import pytest

from snakelab.harness.store import Store, StoreError


def _snakelab(store, *args):
    env = {**os.environ, "SNAKELAB_STORE": str(store)}
    return subprocess.run(
        [sys.executable, "-c", "from snakelab.cli import main; main()", *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=300,
    )


BENCH = ("classic", "bench", "-a", "greedy", "-n", "40", "-W", "6", "-H", "6", "-j", "1")


@pytest.fixture(scope="module")
def damaged(tmp_path_factory):
    store = tmp_path_factory.mktemp("store") / "s.sqlite"
    assert _snakelab(store, *BENCH).returncode == 0
    with Store(store) as st:
        assert st.run(1).done == 40
    size = store.stat().st_size
    assert size > 4 * 4096  # several pages, so the middle ones hold the matches
    with store.open("r+b") as fh:
        fh.seek(size // 2)
        fh.write(bytes((i * 167 + 13) % 256 for i in range(8192)))  # fixed "random" bytes
    return store


@pytest.mark.parametrize(
    "args",
    [
        ("results", "show", "1"),
        ("results", "export", "1"),
        ("results", "ratings"),
        (*BENCH, "--resume", "1"),
    ],
    ids=["show", "export", "ratings", "resume"],
)
def test_a_damaged_store_is_a_one_line_error_naming_the_file(damaged, args):
    r = _snakelab(damaged, *args)
    assert r.returncode != 0
    assert "Traceback" not in r.stderr and "DatabaseError" not in r.stderr
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("error: ")]
    assert len(errors) == 1 and str(damaged) in errors[0] and "damaged" in errors[0]


def test_the_store_api_raises_store_error(damaged):
    with Store(damaged) as st, pytest.raises(StoreError, match="damaged"):
        list(st.iter_results())

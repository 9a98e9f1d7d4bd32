"""Where the results store lives: the user's data folder, never the current one."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from snakelab.harness.store import Store, StoreError, default_store_file, default_store_path


def run_snakelab(*args, cwd, env):
    return subprocess.run(
        [sys.executable, "-c", "from snakelab.cli import main; main()", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=env,
        timeout=300,
    )


def _env(tmp_path, **extra):
    env = {k: v for k, v in os.environ.items() if k != "SNAKELAB_STORE"}
    return {**env, "XDG_DATA_HOME": str(tmp_path / "data"), **extra}


def test_the_default_store_is_in_the_users_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("SNAKELAB_STORE")
    assert default_store_path() == default_store_file() == tmp_path / "data" / "snakelab" / "results.sqlite"
    monkeypatch.setenv("SNAKELAB_STORE", "~/elsewhere.sqlite")
    assert default_store_path() == Path.home() / "elsewhere.sqlite"


def test_the_default_stores_folder_is_created_on_first_use(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with Store(default_store_file()) as db:
        assert db.runs() == []
    assert (tmp_path / "data" / "snakelab" / "results.sqlite").is_file()


@pytest.mark.parametrize("folder", ["missing", "missing/deeper", "a_file"])
def test_a_store_in_a_folder_that_does_not_exist_is_refused_not_created(tmp_path, folder):
    (tmp_path / "a_file").write_text("")
    with pytest.raises(StoreError, match=r"the folder .* (does not exist|is not a folder)"):
        Store(tmp_path / folder / "s.sqlite")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file"]


def test_bench_with_a_store_in_a_missing_folder_is_a_one_line_error(tmp_path):
    store = tmp_path / "missing" / "dir" / "s.sqlite"
    r = run_snakelab(
        *("classic", "bench", "-a", "greedy", "-n", "2", "-W", "6", "-H", "6"),
        cwd=tmp_path,
        env=_env(tmp_path, SNAKELAB_STORE=str(store)),
    )
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "does not exist" in lines[0], r.stderr
    assert str(store) in lines[0]
    assert not (tmp_path / "missing").exists()


def test_a_bench_in_an_empty_folder_leaves_no_file_there_and_results_list_says_where(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    env = _env(tmp_path)
    r = run_snakelab("classic", "bench", "-a", "greedy", "-n", "2", "-W", "6", "-H", "6", cwd=work, env=env)
    assert r.returncode == 0, r.stderr
    assert list(work.iterdir()) == []
    store = tmp_path / "data" / "snakelab" / "results.sqlite"
    assert store.is_file()
    listed = run_snakelab("results", "list", cwd=work, env=env)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[0] == f"results store: {store}"
    as_json = run_snakelab("results", "list", "--json", cwd=work, env=env)
    assert f"results store: {store}" in as_json.stderr
    assert [run["planned"] for run in json.loads(as_json.stdout)] == [2]
    assert list(work.iterdir()) == []


def test_the_store_option_picks_the_file_for_a_bench_and_results_and_off_stores_nothing(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    env = _env(tmp_path)
    mine = tmp_path / "mine.sqlite"
    bench = ("classic", "bench", "-a", "greedy", "-n", "2", "-W", "6", "-H", "6")
    r = run_snakelab("--store", mine, *bench, cwd=work, env=env)
    assert r.returncode == 0, r.stderr
    assert mine.is_file() and not (tmp_path / "data" / "snakelab").exists()
    listed = run_snakelab("--store", mine, "results", "list", "--json", cwd=work, env=env)
    assert [run["planned"] for run in json.loads(listed.stdout)] == [2], listed.stderr
    off = run_snakelab("--store", "off", *bench, cwd=work, env=env)
    assert off.returncode == 0, off.stderr
    assert not (tmp_path / "data" / "snakelab").exists()
    assert list(work.iterdir()) == []

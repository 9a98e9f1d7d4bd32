import json
import sqlite3
from dataclasses import replace

import numpy as np
import pytest
from typer.testing import CliRunner

from snakelab.cli import app
from snakelab.cli.common import run_matches
from snakelab.core.errors import SnakelabError
from snakelab.core.game import Budget
from snakelab.harness import MatchSpec, match_seeds, run_many
from snakelab.harness.run import RunHooks
from snakelab.harness.store import (
    ResumeMismatchError,
    Store,
    StoreError,
    UnknownRunError,
    default_store_file,
    default_store_path,
    parse_run_id,
    result_from_json,
    result_to_json,
    run_stored,
    spec_from_json,
    spec_to_json,
)

runner = CliRunner()
GAME = "classic(width=6,height=6)"


def _specs(n, seed=3, agent="classic.greedy"):
    return [MatchSpec(GAME, (agent,), s, index=i) for i, s in enumerate(match_seeds(seed, n))]


def _key(results):
    return [(r.index, r.seed, r.steps, r.outcome.to_json(), r.agents) for r in results]


def test_json_forms__round_trip_exactly_except_time_resolution():
    spec = MatchSpec(GAME, ("classic.greedy",), 12, budget=Budget(time_s=0.5), measure=True, index=4)
    assert spec_from_json(json.loads(json.dumps(spec_to_json(spec)))) == spec
    (res,) = run_many([spec], jobs=1)
    back = result_from_json(json.loads(json.dumps(result_to_json(res))))
    assert len(back.move_times) == 1 and len(back.move_times[0]) == res.steps
    assert np.allclose(back.move_times[0], res.move_times[0], rtol=0, atol=1e-7)
    back.move_times = res.move_times
    assert back == res and back.agents == ("classic.greedy",)


def test_result_json__move_times_are_compact():
    res = run_many([MatchSpec(GAME, ("classic.greedy",), 3, measure=True)], jobs=1)[0]
    res.move_times = [[1e-6 * (i % 7) for i in range(6000)] for _ in range(4)]  # a measured arena game
    text = json.dumps(result_to_json(res))
    assert len(text) < 6000  # raw JSON floats would take ~100 KB
    assert np.allclose(result_from_json(json.loads(text)).move_times, res.move_times, rtol=0, atol=1e-7)


def test_default_store_path__env_and_off(monkeypatch, tmp_path):
    monkeypatch.setenv("SNAKELAB_STORE", str(tmp_path / "x.sqlite"))
    assert default_store_path() == tmp_path / "x.sqlite"
    monkeypatch.setenv("SNAKELAB_STORE", "off")
    assert default_store_path() is None
    monkeypatch.delenv("SNAKELAB_STORE")
    assert default_store_path() == default_store_file()


def test_run_stored__every_match_stored_in_wal_mode(tmp_path):
    with Store(tmp_path / "s.sqlite") as db:
        rid, results = run_stored(_specs(5), db, label="five", run_seed=3, command="snakelab x")
        info = db.run(rid)
        assert (info.planned, info.done, info.run_seed, info.label) == (5, 5, 3, "five")
        assert info.finished is not None and info.agents == ("classic.greedy",) and info.game == GAME
        assert _key(db.results(rid).values()) == _key(results)
    mode = sqlite3.connect(tmp_path / "s.sqlite").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_run_stored__resume_plays_only_missing_and_merges_in_order(tmp_path):
    specs = _specs(8)
    full = run_many(specs, jobs=1)
    with Store(tmp_path / "s.sqlite") as db:
        rid = db.create_run(specs, "eight")
        for i in (0, 3, 4, 7):  # as if killed after these arrived
            db.add_match(rid, i, specs[i], full[i])
        assert db.run(rid).finished is None
        played = []
        rid2, merged = run_stored(
            specs, db, resume=str(rid), jobs=1, hooks=RunHooks(on_result=lambda r: played.append(r.index))
        )
        assert rid2 == rid
        assert sorted(played) == [1, 2, 5, 6]
        assert _key(merged) == _key(full)
        assert db.run(rid).done == 8 and db.run(rid).finished is not None


def test_resume__other_options_or_unknown_id_are_errors(tmp_path):
    with Store(tmp_path / "s.sqlite") as db:
        rid = db.create_run(_specs(3), "three", command="snakelab classic bench -n 3")
        with pytest.raises(ResumeMismatchError, match="snakelab classic bench -n 3"):
            db.resume(rid, _specs(4))
        with pytest.raises(UnknownRunError, match="unknown run id 99"):
            db.resume(99, _specs(3))
    with pytest.raises(UnknownRunError, match="not a run id"):
        parse_run_id("abc")


def test_store__unopenable_file_is_a_store_error(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_text("this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open results store"):
        Store(bad)


def test_run_matches__stores_prints_id_and_resumes(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SNAKELAB_STORE", str(tmp_path / "r.sqlite"))
    specs = _specs(4)
    first = run_matches(specs, "four", jobs=1, show_progress=False, run_seed=3)
    assert "run 1 stored in" in capsys.readouterr().err
    again = run_matches(specs, "four", jobs=1, resume="1", show_progress=False)
    assert "4 of 4 matches already stored" in capsys.readouterr().err
    assert _key(again) == _key(first)
    with Store(tmp_path / "r.sqlite") as db:
        assert [r.id for r in db.runs()] == [1] and db.run(1).run_seed == 3


def test_run_matches__store_off(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SNAKELAB_STORE", "off")
    assert len(run_matches(_specs(2), "two", jobs=1, show_progress=False)) == 2
    assert not list(tmp_path.iterdir())
    with pytest.raises(StoreError, match="disabled"):
        run_matches(_specs(2), "two", jobs=1, resume="1", show_progress=False)


def test_cli__results_list_show_export(tmp_path):
    path = tmp_path / "c.sqlite"
    with Store(path) as db:
        rid, results = run_stored(_specs(3), db, label="three greedy", jobs=1)
    store = ["--store", str(path)]
    r = runner.invoke(app, ["results", "list", "--json", *store])
    assert r.exit_code == 0, r.output
    (run,) = json.loads(r.stdout)
    assert run["id"] == rid and run["done"] == 3 and run["label"] == "three greedy"
    r = runner.invoke(app, ["results", "show", str(rid), "--json", *store])
    assert r.exit_code == 0, r.output
    shown = json.loads(r.stdout)
    assert shown["agents"][0]["games"] == 3 and sum(shown["terminations"].values()) == 3
    r = runner.invoke(app, ["results", "export", str(rid), "--csv", *store])
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith("index,seed,game,agent_0,score_0,winner,termination")
    assert len(lines) == 4 and lines[1].startswith(f"0,{results[0].seed},")
    r = runner.invoke(app, ["results", "export", str(rid), "--jsonl", *store])
    assert [json.loads(x)["steps"] for x in r.stdout.splitlines()] == [x.steps for x in results]


def test_cli__unknown_run_is_a_one_line_error(tmp_path):
    path = tmp_path / "c.sqlite"
    Store(path).close()
    r = runner.invoke(app, ["results", "show", "5", "--store", str(path)])
    assert r.exit_code == 2 and "unknown run id 5" in r.output


def test_snakelab_error_hierarchy():
    assert issubclass(UnknownRunError, SnakelabError) and issubclass(ResumeMismatchError, SnakelabError)


def test_cli__ratings_across_runs(tmp_path):
    path = tmp_path / "c.sqlite"
    game = "classic(width=8,height=8)"
    with Store(path) as db:
        for agent in ("classic.hamilton", "classic.greedy"):
            specs = [MatchSpec(game, (agent,), s, index=i) for i, s in enumerate(match_seeds(1, 6))]
            run_stored(specs, db, label=agent, jobs=1)
    r = runner.invoke(app, ["results", "ratings", "--game", "classic", "--json", "--store", str(path)])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    assert [row["agent"] for row in rows] == ["classic.hamilton", "classic.greedy"]
    assert rows[0]["wins"] == 6 and rows[0]["rated"] == 6 and rows[0]["mu"] > rows[1]["mu"]
    r = runner.invoke(app, ["results", "ratings", "--run", "2", "--store", str(path)])
    assert r.exit_code == 0 and "classic.greedy" in r.stdout and "classic.hamilton" not in r.stdout


def test_resume__continues_the_stored_plan_when_only_parameters_differ(tmp_path):
    specs = _specs(4)
    with Store(tmp_path / "s.sqlite") as db:
        rid = db.create_run(specs, "four")
        full = run_many(specs, jobs=1)
        db.add_match(rid, 0, specs[0], full[0])
        # e.g. a bot's log folder or a replay path that changes with every invocation
        changed = [replace(s, replay=str(tmp_path / f"r{i}.jsonl")) for i, s in enumerate(specs)]
        notes = []
        _, merged = run_stored(changed, db, resume=rid, jobs=1, hooks=RunHooks(on_note=notes.append))
        assert _key(merged) == _key(full)
        assert any("replay differs" in n for n in notes) and not list(tmp_path.glob("r*.jsonl"))
        with pytest.raises(ResumeMismatchError, match="match 0 has seed"):
            db.resume(rid, [replace(specs[0], seed=1), *specs[1:]])
        with pytest.raises(ResumeMismatchError, match=r"is played by classic\.greedy"):
            db.resume(rid, _specs(4, agent="classic.hamilton"))


def test_cli__reading_never_creates_a_store(tmp_path, monkeypatch):
    monkeypatch.setenv("SNAKELAB_STORE", str(tmp_path / "none.sqlite"))
    r = runner.invoke(app, ["results", "list"])
    assert r.exit_code == 2 and "no results store at" in r.output
    assert not (tmp_path / "none.sqlite").exists()


def test_cli__delete_removes_a_run_and_its_matches(tmp_path):
    path = tmp_path / "d.sqlite"
    with Store(path) as db:
        first, _ = run_stored(_specs(2), db, label="a", jobs=1)
        second, _ = run_stored(_specs(3), db, label="b", jobs=1)
    r = runner.invoke(app, ["results", "delete", str(first), "--store", str(path)])
    assert r.exit_code == 0, r.output
    with Store(path) as db:
        assert [run.id for run in db.runs()] == [second]
        assert [rid for rid, _, _ in db.iter_results()] == [second] * 3
    r = runner.invoke(app, ["results", "delete", str(first), "--store", str(path)])
    assert r.exit_code == 2 and f"unknown run id {first}" in r.output

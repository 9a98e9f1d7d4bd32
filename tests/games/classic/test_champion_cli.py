"""``snakelab classic bench``: several agents, the steps-per-apple-by-fill table, ``--plot``."""

import json

import pytest
from typer.testing import CliRunner

from snakelab.analysis.classic import fill_table
from snakelab.cli import app
from snakelab.harness import MatchSpec, match_seeds, run_many

runner = CliRunner()


def test_fill_table__counts_every_apple_once_and_sums_the_steps():
    specs = [MatchSpec("classic(width=6,height=6,start_length=3)", ("classic.hamilton",), s) for s in match_seeds(2, 4)]
    results = run_many(specs, jobs=1)
    rows = fill_table(results, 3, 36)
    assert sum(r["apples"] for r in rows) == sum(r.outcome.details["apples"] for r in results)
    total = sum(r["apples"] * r["steps_per_apple"] for r in rows if r["apples"])
    assert abs(total - sum(r.outcome.details["eat_steps"][-1] for r in results)) < 1e-6
    assert rows[0]["lo"] == 0.0 and rows[-1]["hi"] == 1.0


@pytest.mark.slow
def test_bench__several_agents_json_and_plot(tmp_path, monkeypatch):
    monkeypatch.setenv("SNAKELAB_STORE", "off")
    png = tmp_path / "fill.png"
    args = ["classic", "bench", "-a", "champion,hamilton", "-W", "6", "-H", "6", "-n", "3", "-j", "1"]
    r = runner.invoke(app, [*args, "--json", "--plot", str(png)])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout[r.stdout.index("[") :])
    assert [o["agent"] for o in out] == ["classic.champion", "classic.hamilton"]
    for o in out:
        assert o["win_rate"] == 1.0 and len(o["steps_per_apple_by_fill"]) == 10
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench__table_shows_fill_rows(monkeypatch):
    monkeypatch.setenv("SNAKELAB_STORE", "off")
    r = runner.invoke(app, ["classic", "bench", "-a", "hamilton", "-W", "4", "-H", "4", "-n", "2", "-j", "1"])
    assert r.exit_code == 0, r.output
    assert "steps per apple" in r.output and "90%–100%" in r.output

import itertools
import json

import numpy as np
import pytest

from snakelab.core.errors import ConfigError, SnakelabError
from snakelab.games.blind.evaluate import RunTable, fast_covers
from snakelab.games.blind.strategies import make_strategy
from snakelab.games.blind.sweep import count_grids, grids_of, make_chunks, read_grids, run_sweep, write_grids
from snakelab.harness.parallel import mapper


def test_grid_counts_match_the_spec():
    assert count_grids(10_000) == 93_668
    w, h = grids_of(1, 10_000, 10_000)
    assert len(w) == 93_668 and (w * h).max() == 10_000 and len(set(zip(w.tolist(), h.tolist(), strict=True))) == 93_668


def test_grid_files_round_trip_and_name_bad_lines(tmp_path):
    path = tmp_path / "grids.txt"
    write_grids(path, [(19, 436), (1, 1), (4779, 206)])
    w, h = read_grids(path)
    assert w.tolist() == [19, 1, 4779] and h.tolist() == [436, 1, 206]
    path.write_text("# worst grids\n19 436  # mode 1\n\n3 5\n")
    assert read_grids(path)[0].tolist() == [19, 3]
    for text, words in (("19 436\n3 x\n", ":2: expected 'A B'"), ("7\n", ":1: expected"), ("4 0\n", "no cells")):
        path.write_text(text)
        with pytest.raises(ConfigError, match=words):
            read_grids(path)


def test_chunks_partition_the_widths():
    chunks = make_chunks(5000, 17)
    assert chunks[0].lo == 1 and chunks[-1].hi == 5000
    assert all(a.hi + 1 == b.lo for a, b in itertools.pairwise(chunks))


def test_sweep_figures_match_a_direct_evaluation():
    n = 3000
    res = run_sweep("dynamic-zigzag(k=11)", n)
    w, h = grids_of(1, n, n)
    covers = fast_covers(RunTable(make_strategy("dynamic-zigzag(k=11)").moves_array(35 * n + 1)), w, h)
    ratios = covers / (w * h)
    i = int(np.argmax(ratios))
    assert res["grids"] == len(w) and res["uncovered"] == 0
    assert res["worst_grid"] == [int(w[i]), int(h[i])] and res["worst_ratio"] == pytest.approx(ratios[i])
    assert res["mean_ratio"] == pytest.approx(ratios.mean())
    assert sum(b["grids"] for b in res["bands"]) == len(w)
    assert sum(res["histogram"].values()) == len(w)
    assert res["top"][0]["ratio"] == pytest.approx(ratios.max())
    # The ratio map: every grid in exactly one cell, each cell's maximum that of its grids.
    per = res["ratio_map"]["per_decade"]
    cells = {(c[0], c[1]): c for c in res["ratio_map"]["cells"]}
    ia = np.floor(per * np.log10(w) + 1e-9).astype(int)
    ib = np.floor(per * np.log10(h) + 1e-9).astype(int)
    assert sum(c[2] for c in cells.values()) == len(w)
    for (a, b), (_, _, grids, best, lost) in cells.items():
        sel = (ia == a) & (ib == b)
        assert grids == sel.sum() and lost == 0 and best == pytest.approx(ratios[sel].max())
    assert (ia[i], ib[i]) in cells and cells[ia[i], ib[i]][3] == pytest.approx(ratios[i])


@pytest.mark.slow
def test_dynamic_zigzag_k11_worst_at_1e4():
    res = run_sweep("dynamic-zigzag(k=11)", 10_000, map_chunks=mapper(jobs=2))
    assert res["grids"] == 93_668
    assert res["worst_grid"] == [19, 436] and round(res["worst_ratio"], 2) == 11.47


def test_uncovered_grids_make_the_worst_ratio_unknown():
    res = run_sweep("zigzag", 200)
    assert res["uncovered"] > 0 and res["worst_ratio"] is None and [3, 3] in res["uncovered_examples"]
    assert sum(c[4] for c in res["ratio_map"]["cells"]) == res["uncovered"]


def test_resume_from_a_checkpoint_gives_the_same_result(tmp_path):
    path = tmp_path / "ck.jsonl"
    full = run_sweep("dynamic-zigzag(k=5)", 2000, checkpoint=path, chunks=6)
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 6
    # Keep the header and two finished chunks, plus a line torn by an interrupt.
    path.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])
    started = []
    again = run_sweep(
        "dynamic-zigzag(k=5)", 2000, checkpoint=path, chunks=6, on_start=lambda t, d: started.append((t, d))
    )
    assert started == [(6, 2)]
    assert again == full
    assert json.loads(path.read_text().splitlines()[0])["strategy"] == "dynamic-zigzag(k=5)"


def test_checkpoint_of_another_sweep_is_refused(tmp_path):
    path = tmp_path / "ck.jsonl"
    run_sweep("spiral", 50, checkpoint=path, cap_ratio=8.0)
    with pytest.raises(SnakelabError, match="belongs to another sweep"):
        run_sweep("dynamic-zigzag", 50, checkpoint=path)


def test_checkpoint_of_an_older_version_is_refused_by_name(tmp_path):
    path = tmp_path / "ck.jsonl"
    run_sweep("spiral", 50, checkpoint=path)
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head["version"] = 1  # chunk summaries of version 1 had no ratio map
    path.write_text(json.dumps(head) + "\n" + "\n".join(lines[1:]) + "\n")
    with pytest.raises(SnakelabError, match="another version of snakelab"):
        run_sweep("spiral", 50, checkpoint=path)
    path.write_text("[1, 2]\n")
    with pytest.raises(SnakelabError, match="not a sweep checkpoint"):
        run_sweep("spiral", 50, checkpoint=path)


def test_bad_arguments():
    with pytest.raises(ConfigError, match="max-area"):
        run_sweep("spiral", 0)
    with pytest.raises(ConfigError, match="cap ratio"):
        run_sweep("spiral", 10, cap_ratio=0)


def test_plots_refuse_malformed_reports(tmp_path):
    from snakelab.analysis.blind import check_report, plot_sweeps

    good = run_sweep("dynamic-zigzag(k=5)", 300)
    assert check_report(good, "r") is good
    bad_cases = (
        ({"ratio_map": {"per_decade": 8, "cells": []}}, "non-empty list of cells"),
        ({"ratio_map": {"per_decade": 8, "cells": [[0, 0, "x", 1.0, 0]]}}, "non-empty list of cells"),
        ({"bands": [{"s_from": 1}]}, "bands must be a list"),
        ({"histogram": {"two": 3}}, "histogram must map ratios"),
        ({"bands": None}, "bands must be a list"),
    )
    for change, words in bad_cases:
        with pytest.raises(ConfigError, match=words):
            check_report({**good, **change}, "r.json")
    with pytest.raises(ConfigError, match=r"ending in \.png"):
        plot_sweeps([good], tmp_path / "x.svg")
    with pytest.raises(ConfigError, match="no sweep report"):
        plot_sweeps([], tmp_path / "x.png")

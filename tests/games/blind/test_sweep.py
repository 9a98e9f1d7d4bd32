import itertools
import json

import numpy as np
import pytest

from snakelab.core.errors import ConfigError, SnakelabError
from snakelab.games.blind.evaluate import RunTable, fast_covers
from snakelab.games.blind.strategies import make_strategy
from snakelab.games.blind.sweep import count_grids, grids_of, make_chunks, read_grids, run_sweep, write_grids


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
    res = run_sweep("dynamic-zigzag(k=11)", n, jobs=1)
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


@pytest.mark.slow
def test_dynamic_zigzag_k11_worst_at_1e4():
    res = run_sweep("dynamic-zigzag(k=11)", 10_000, jobs=2)
    assert res["grids"] == 93_668
    assert res["worst_grid"] == [19, 436] and round(res["worst_ratio"], 2) == 11.47


def test_uncovered_grids_make_the_worst_ratio_unknown():
    res = run_sweep("zigzag", 200, jobs=1)
    assert res["uncovered"] > 0 and res["worst_ratio"] is None and [3, 3] in res["uncovered_examples"]


def test_resume_from_a_checkpoint_gives_the_same_result(tmp_path):
    path = tmp_path / "ck.jsonl"
    full = run_sweep("dynamic-zigzag(k=5)", 2000, jobs=1, checkpoint=path, chunks=6)
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 6
    # Keep the header and two finished chunks, plus a line torn by an interrupt.
    path.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])
    started = []
    again = run_sweep(
        "dynamic-zigzag(k=5)", 2000, jobs=1, checkpoint=path, chunks=6, on_start=lambda t, d: started.append((t, d))
    )
    assert started == [(6, 2)]
    assert again == full
    assert json.loads(path.read_text().splitlines()[0])["strategy"] == "dynamic-zigzag(k=5)"


def test_checkpoint_of_another_sweep_is_refused(tmp_path):
    path = tmp_path / "ck.jsonl"
    run_sweep("spiral", 50, jobs=1, checkpoint=path, cap_ratio=8.0)
    with pytest.raises(SnakelabError, match="belongs to another sweep"):
        run_sweep("dynamic-zigzag", 50, jobs=1, checkpoint=path)


def test_bad_arguments():
    with pytest.raises(ConfigError, match="max-area"):
        run_sweep("spiral", 0)
    with pytest.raises(ConfigError, match="cap ratio"):
        run_sweep("spiral", 10, cap_ratio=0)

"""Phrase embedding: overlap continuations and the exact programme for units that cannot turn."""

from functools import cache

import numpy as np
import pytest

from snakelab.games.hextris import kernels as kn
from snakelab.games.hextris.codec import Problem, Unit
from snakelab.games.hextris.embedding import _phrase_orders
from snakelab.games.hextris.rules import CANONICAL
from snakelab.games.hextris.scoring import PHRASES, phrase_reps, score_seed
from snakelab.games.hextris.solver import Plan, Tokens, embed, prepare


def test_continuations_are_the_overlaps_the_scorer_counts():
    tokens = Tokens.build(PHRASES)
    found = {
        (tokens.texts[i], PHRASES[tokens.after[i]], PHRASES[tokens.done[i]])
        for i in range(len(PHRASES), len(tokens.texts))
    }
    assert (" Ia!", "Ia! Ia!", "Ia! Ia!") in found
    assert ("i!", "Yoyodyne", "Ei!") in found
    for text, after, done in found:
        reps = phrase_reps(after + text)
        assert reps[done] == (2 if done == after else 1)  # the continuation completes one more
        assert tokens.values[tokens.texts.index(text)] == 2 * len(done)
    assert Tokens.build(PHRASES, overlaps=False).texts == PHRASES
    # A chain of continuations: every " ia!" after the first "Ia! Ia!" is one more occurrence.
    assert phrase_reps("Ia! Ia!" + " ia!" * 5)["Ia! Ia!"] == 6


def _spell(tokens, out, n):
    """The text and points of ``out[:n]`` (entry runs marked by their index)."""
    text, value, j = [], 0, 0
    while j < n:
        p = int(out[j, 1])
        if p >= 0:
            text.append(tokens.texts[p])
            value += int(tokens.values[p])
            j += len(tokens.texts[p])
        else:
            text.append(CANONICAL[int(out[j, 0])])
            j += 1
    return "".join(text), value


def _python_best(board, tokens, start, target):
    """The best points to ``target`` by plain recursion over (x, y, row moves, last phrase)."""
    one = np.zeros((6, 2, 1, 2), np.int64)

    def free(x, y):
        return kn.fits(board, one, 1, x, y, 0)

    def run(x, y, mode, cmds):
        for c in cmds:
            if c >= 4 or (c == 1 and mode == 2) or (c == 0 and mode == 1):
                return None
            mode = 1 if c == 1 else 2 if c == 0 else 0
            x, y, _ = kn.step(x, y, 0, c)
            if not free(x, y):
                return None
        return x, y, mode

    @cache
    def best(x, y, mode, last):
        if (x, y) == target:
            return 0
        value = -1
        for c in range(4):
            nxt = run(x, y, mode, [c])
            if nxt and best(*nxt, -1) > value:
                value = best(*nxt, -1)
        for p, text in enumerate(tokens.texts):
            if tokens.after[p] >= 0 and tokens.after[p] != last:
                continue
            cmds = [int(c) for c in tokens.cmds[p, : len(text)]]
            head = run(x, y, mode, cmds[:-1])
            if head is None:
                continue
            if head[:2] == target:
                lx, ly, _ = kn.step(head[0], head[1], 0, cmds[-1])
                if cmds[-1] < 4 and not free(lx, ly):
                    value = max(value, int(tokens.values[p]))
                continue
            nxt = run(*head, cmds[-1:])
            if nxt and nxt[1] > y and best(*nxt, int(tokens.done[p])) >= 0:
                value = max(value, best(*nxt, int(tokens.done[p])) + int(tokens.values[p]))
        return value

    return best(*start, 0, -1)


@pytest.mark.parametrize("seed", range(6))
def test_exact_programme_matches_recursion_and_plays_legally(seed):
    rng = np.random.default_rng(seed)
    w, h = 9, 12
    filled = tuple((x, y) for y in range(5, h) for x in range(w) if rng.random() < 0.2)
    prob = Problem(-1, w, h, (Unit(((0, 0),), (0, 0)),), filled, 1, (0,))
    prep = prepare(prob)
    tokens = Tokens.build(PHRASES)
    e = prep.e
    nx, ny = prep.dims
    dl, size, canon = prep.dl[0], int(prep.sizes[0]), prep.canon[0]
    px, py, rot = prep.shapes[0].spawn
    _p, _c, locks, lockcmd, nlocks = kn.bfs_locks(prep.board, dl, size, canon, px, py, rot, e)
    assert nlocks > 3
    out = np.empty((5000, 2), np.int64)
    greedy_out = np.empty_like(out)
    order = _phrase_orders(tokens, len(PHRASES), set(range(len(PHRASES))), 1)[0]
    for k in range(nlocks):
        target, lcmd = int(locks[k]), int(lockcmd[k])
        piece = kn.Piece(prep.board, dl, size, canon, e)
        n = kn.embed_unit_dp(piece, prep.spawn_code(0), target, lcmd, tokens.table, out)
        assert n > 0
        text, value = _spell(tokens, out, n)
        tx, ty, _ = kn.decode(target, e, nx, ny)
        assert value == _python_best(prep.board, tokens, (px, py), (tx, ty))
        # The string is legal, locks exactly one unit, and the scorer finds the points.
        result = score_seed(prob, 0, text)
        assert result.error is None and result.units == 1
        bonus = 300 * sum(1 for r in result.reps.values() if r)
        assert result.power_score - bonus == value
        # Never below the greedy spelling of the same placement.
        g = kn.embed_unit(piece, prep.spawn_code(0), target, lcmd, tokens.table, order, greedy_out)
        assert value >= _spell(tokens, greedy_out, g)[1]


def test_embed_uses_the_programme_for_turnless_units(problems):
    """Problem 1 has only one-cell units: the exact spelling beats the greedy one."""
    prob = problems[1]
    prep = prepare(prob)
    from snakelab.games.hextris.solver import CHAMPION_WEIGHTS, LOST_WEIGHT, beam_plan

    plan: Plan = beam_plan(prep, 0, 1, CHAMPION_WEIGHTS, lost_weight=LOST_WEIGHT)
    plain = score_seed(prob, 0, embed(prep, 0, plan, PHRASES))
    exact = score_seed(prob, 0, embed(prep, 0, plan, PHRASES, overlaps=True))
    assert plain.error is None and exact.error is None
    assert exact.units == plain.units == prob.source_length
    assert exact.power_score > 1.1 * plain.power_score


def test_warm_up_loads_every_kernel_the_solvers_call():
    """Compiling or loading a kernel inside a timed search would eat its time budget."""
    import re
    import subprocess
    import sys
    from pathlib import Path

    from snakelab.games.hextris import embedding, search, solver

    sources = "".join(Path(m.__file__).read_text() for m in (solver, search, embedding))
    # Lower-case names: the kernels (``kn.Piece(`` and ``kn.PhraseTable(`` build their arguments).
    called = set(re.findall(r"\bkn\.([a-z_]\w*)\(", sources))
    assert {"embed_unit", "embed_unit_dp", "bfs_locks", "evaluate_locks", "lost_cells"} <= called
    # A fresh interpreter: in this one other tests may already have run the kernels.
    code = (
        "from snakelab.games.hextris import kernels as kn, solver; solver.warm_up(); "
        f"print(sorted(n for n in {sorted(called)!r} if not getattr(kn, n).signatures))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600)
    assert out.stdout.strip() == "[]"

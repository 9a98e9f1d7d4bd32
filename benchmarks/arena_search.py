"""Speed of the arena search: a leaf's evaluation by either territory race, and a move at a node budget.

Plays one game of four ``greedy`` snakes (``arena(duration=60)``: 50×50, 1,200 steps), then
on positions of it times :func:`snakelab.games.arena.evaluation.evaluate_w` for the champion
and the reference weights, once by the bitboard race (:mod:`snakelab.games.arena.territory`)
and once by the cell-by-cell race (the same value: ``ties`` with no timid opponent takes the
cell race and changes nothing else), side by side in one run. Then plays two 200-step games
of each searching agent against three ``voronoi`` at 400 nodes a move and prints its CPU
time a move (the root's work included). Run it on an idle core:

    .venv/bin/python benchmarks/arena_search.py
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numba
import numpy as np

from snakelab import make, make_agent
from snakelab.core.game import Budget
from snakelab.games.arena import evaluation, sim
from snakelab.harness import match_seeds
from snakelab.harness.match import play


@numba.njit(nogil=True)
def _evaluate_many(
    st: Any, lay: Any, nbr: Any, me: int, work: Any, wts: Any, timid: Any, reps: int
) -> float:  # pragma: no cover - jitted
    total = 0.0
    for _ in range(reps):
        total += evaluation.evaluate_w(st, lay, nbr, me, 3, work, wts, timid)
    return total


def _leaf_us(st: Any, lay: Any, nbr: Any, wts: Any, reps: int) -> float:
    work = np.empty(4 * int(lay[sim.L_SIZE]) + 1, np.int32)
    timid = np.zeros(64, np.int32)
    _evaluate_many(st, lay, nbr, 0, work, wts, timid, 10)
    t0 = time.perf_counter()
    _evaluate_many(st, lay, nbr, 0, work, wts, timid, reps)
    return (time.perf_counter() - t0) / reps * 1e6


def leaves(seed: int, reps: int) -> None:
    """Print the leaf table: µs an evaluation by each race at four moments of a game."""
    agents = [make_agent("arena.greedy") for _ in range(4)]
    seen: list[Any] = []
    play(
        make("arena(duration=60)"),
        agents,
        match_seeds(seed, 1)[0],
        budget=Budget(nodes=50),
        on_step=lambda state, events: seen.append(state.clone()),
    )
    print("| step | lengths | champion: bitboards | cells | ratio | references: bitboards | cells | ratio |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for idx in (100, 300, 600, 900):
        s = seen[min(idx, len(seen) - 1)]
        lay = sim.layout(s, cap=300)
        st = sim.encode(s, lay, [0] * len(s.bodies))
        nbr = sim.grid_nbr(s)
        champion = make_agent("arena.champion").weights.copy()  # type: ignore[attr-defined]
        champion[evaluation.W_ROOT_LEN] = len(s.bodies[0])
        row = []
        for wts in (champion, evaluation.WEIGHTS):
            cells = wts.copy()
            cells[evaluation.W_TIES] = 1.0
            bits_us, cells_us = _leaf_us(st, lay, nbr, wts, reps), _leaf_us(st, lay, nbr, cells, reps)
            row += [f"{bits_us:.2f}", f"{cells_us:.2f}", f"{cells_us / bits_us:.2f}"]
        print(f"| {idx} | {[len(b) for b in s.bodies]} | " + " | ".join(row) + " |")


def moves(name: str) -> tuple[float, int]:
    """``name``'s mean CPU ms a move and its moves over two 200-step games at 400 nodes a move."""
    spent = [0.0, 0]
    for seed in (1, 2):
        agent = make_agent(name)
        inner = agent.act

        def timed(obs: Any, budget: Budget | None, inner: Any = inner) -> int:
            t0 = time.process_time()
            move = int(inner(obs, budget))
            spent[0] += time.process_time() - t0
            spent[1] += 1
            return move

        agent.act = timed  # type: ignore[method-assign,assignment]
        agents = [agent] + [make_agent("arena.voronoi") for _ in range(3)]
        play(make("arena(duration=10)"), agents, seed, budget=Budget(time_s=1.0, nodes=400))
    return 1000 * spent[0] / spent[1], int(spent[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=3, help="run seed of the greedy game whose positions are timed")
    ap.add_argument("--reps", type=int, default=20_000, help="evaluations timed per position and race")
    args = ap.parse_args()
    leaves(args.seed, args.reps)
    print()
    print("| agent | moves | CPU ms a move at 400 nodes |")
    print("|---|---:|---:|")
    for name in ("arena.voronoi", "arena.champion"):
        moves(name)  # the first games compile and warm up
        ms, n = moves(name)
        print(f"| {name} | {n} | {ms:.2f} |")


if __name__ == "__main__":
    main()

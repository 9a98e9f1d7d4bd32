"""The champion's compiled policy in-process, with its memory overridden: per-file scores.

Plays ``policy.play_turn`` / ``policy.start_snake`` (the contest program's own kernels)
against the rules engine's Chef on the bench's seeded files, without a time limit, and
prints per file: index, score, first snake, kernel CPU seconds, moves. The figures of the
"contest program" paragraph of ``research/benchmarks_history.md`` (snakgame) came from:

    .venv/bin/python research/snakgame_policy.py 10                      # full policy
    .venv/bin/python research/snakgame_policy.py 10 --set cap=236         # a smaller cap
    .venv/bin/python research/snakgame_policy.py 10 --set race=4          # a shorter split race
    .venv/bin/python research/snakgame_policy.py 0,1,2,3,4,5,6,7,8,9 --set middle=1
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from snakelab.games.snakgame.kernels import P_ALT, P_CAP, P_HUG, P_MIDDLE, P_RACE
from snakelab.games.snakgame.policy import FULL, ChampionParams, new_memory, play_turn, start_snake
from snakelab.games.snakgame.rules import Config, Game, Move
from snakelab.harness.run import match_seeds

FIELDS = {"cap": P_CAP, "hug": P_HUG, "middle": P_MIDDLE, "alternate": P_ALT, "race": P_RACE}


def play_file(file_type: int, seed: int, overrides: dict[int, int]) -> tuple[int, int, float, int]:
    """(score, first snake, kernel CPU seconds, moves) of one file."""
    s = Game(Config(type=file_type)).new_state(seed)
    occ = np.frombuffer(s.occ, np.uint8).copy()
    size, m = s.n * s.m, s.m
    p = new_memory(s.n, s.m, s.free, 0, ChampionParams())
    for k, v in overrides.items():
        p[k] = v
    mark, queue = np.zeros(size, np.int64), np.empty(4 * size, np.int32)
    chef, kernel_s, moves = -1, 0.0, 0
    while True:
        t0 = time.process_time()
        code = play_turn(occ, p, mark, queue, chef)
        if code == FULL:
            break
        if code >= 0:
            e, t = divmod(code, size)
            move = Move("MOVE", e // m + 1, e % m + 1, t // m + 1, t % m + 1)
        else:
            c = start_snake(occ, p, mark, queue)
            move = Move("NEW", c // m + 1, c % m + 1)
        kernel_s += time.process_time() - t0
        s.play_mine(move)
        moves += 1
        if s.is_over():
            break
        reply = s.chef_turn()
        chef = s.last_chef_cell if reply.kind != "FREEZE" else -1
        if s.is_over():
            break
    d = s.outcome().details
    return int(d["score"]), int(d["first"]), kernel_s, moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", help="bench file indices, e.g. 0,1,2 (0-9 type 1, 10-19 type 2)")
    ap.add_argument("--seed", type=int, default=1, help="the bench's run seed")
    ap.add_argument("--set", action="append", default=[], help="memory field=value (cap, hug, middle, alternate, race)")
    args = ap.parse_args()
    overrides = {FIELDS[k]: int(v) for k, v in (item.split("=") for item in args.set)}
    seeds = match_seeds(args.seed, 20)
    total = 0
    for i in (int(x) for x in args.files.split(",")):
        score, first, kernel_s, moves = play_file(1 if i < 10 else 2, seeds[i], overrides)
        total += score
        print(i, score, first, round(kernel_s, 2), moves, flush=True)
    print("total", total)


if __name__ == "__main__":
    main()

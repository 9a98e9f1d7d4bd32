"""Where the champion's move time goes, and whether its head walks off the pull maps.

Plays the champion (any agent string, first argument) against three ``arena.voronoi``
with seats as in ``snakelab arena tournament`` for the first game of each rotation (the
champion in seat 0) and prints, after each game:

* ``split``: the mean milliseconds of a move before the search (trackers, layout,
  encoding), in the root's races (``_at_root``: claims, spawn spot, pull maps), in the
  search, and in ``_settle`` (the survival proofs), and the mean depth;
* ``off-map``: with ``paths=1``, how many moves took the head into a cell where a pull
  map (:func:`snakelab.games.arena.targets.pull_maps`) has no way to its target while the
  root's head had one: the leaves that the maps' Manhattan fallback would value wrongly,
  seen at the root.

    python research/arena/split.py arena.champion --seed 96 --games 2
    python research/arena/split.py 'arena.champion(paths=1)' --seed 95 --games 3

Thirtieth round of ``champion.md``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from snakelab.core.game import Budget
from snakelab.core.registry import make, make_agent
from snakelab.games.arena.champion import ChampionAgent
from snakelab.harness import match_seeds
from snakelab.harness.match import play

_rec: list[tuple[float, ...]] = []
_cur: dict[str, float] = {}


def _timed(cls: Any) -> None:
    """Wrap the champion's hooks to note when each part of a move starts and ends."""
    at_root, settle, act = cls._at_root, cls._settle, cls.act

    def _at_root(self: Any, *a: Any) -> Any:
        _cur["r0"] = time.perf_counter()
        out = at_root(self, *a)
        _cur["r1"] = time.perf_counter()
        return out

    def _settle(self: Any, *a: Any) -> Any:
        _cur["s0"] = time.perf_counter()
        out = settle(self, *a)
        _cur["s1"] = time.perf_counter()
        return out

    def _act(self: Any, obs: Any, budget: Any) -> Any:
        _cur.clear()
        t0 = time.perf_counter()
        out = act(self, obs, budget)
        if "s1" in _cur:
            c = _cur
            _rec.append((c["r0"] - t0, c["r1"] - c["r0"], c["s0"] - c["r1"], c["s1"] - c["s0"], self.last_depth))
        return out

    cls._at_root, cls._settle, cls.act = _at_root, _settle, _act


def main() -> None:
    """Play the games and print the split and the off-map count after each."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("champion", nargs="?", default="arena.champion")
    p.add_argument("--seed", type=int, default=96)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--budget-ms", type=float, default=10.0)
    p.add_argument("--game", default="arena(duration=60)")
    args = p.parse_args()
    _timed(ChampionAgent)
    moves = off = 0
    for k, seed in enumerate(match_seeds(args.seed, args.games)):
        names = [args.champion, "arena.voronoi", "arena.voronoi", "arena.voronoi"]
        agents = [make_agent(n) for n in names]
        a = agents[0]
        prev: dict[str, int] = {}

        def hook(st: Any, events: Any, a: Any = a, prev: dict[str, int] = prev) -> None:
            nonlocal moves, off
            if not st.alive[0] or not st.bodies[0]:
                prev.clear()
                return
            head = st.bodies[0][-1]
            if "h" in prev:
                size = a._size
                pm0 = 4 * size + 1
                if len(a._work) > pm0:  # the maps exist (paths=1)
                    maps = (len(a._work) - 1) // size - 5 + 1
                    moves += 1
                    off += any(
                        a._work[pm0 + t * size + prev["h"]] >= 0 > a._work[pm0 + t * size + head] for t in range(maps)
                    )
            prev["h"] = head

        r = play(
            make(args.game), agents, seed, agent_names=names, budget=Budget(time_s=args.budget_ms / 1000), on_step=hook
        )
        m = np.array(_rec)
        pre, root, search, settle = (1000 * m[:, i].mean() for i in range(4))
        print(
            f"game {k}: longest {r.outcome.details['longest']}; ms a move: before {pre:.3f}, root {root:.3f}, "
            f"search {search:.3f}, settle {settle:.3f}; depth {m[:, 4].mean():.2f}; off-map moves {off} of {moves}",
            flush=True,
        )


if __name__ == "__main__":
    main()

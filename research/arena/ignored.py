"""Apples the champion was alone nearest to and did not walk toward, and what other versions would play there.

``collect`` plays a line-up with seats rotating (the games of ``snakelab arena
tournament`` on the same run seed). For every new apple the champion was alone nearest
to by path, at least 6 steps away and 5 ahead of every other head (paths as
``intake.path_dists`` counts them), it checks 6 steps later whether the champion's path
to it had shortened by 3; if not, it saves the position as the apple appeared:

    python research/arena/ignored.py collect ignored.pkl --seed 81 --games 6 --budget-ms 10

``show`` replays the first move from each saved position with each agent string given
(a fresh agent, 400 search nodes) and prints the path to the apple after it, so a
version that walks toward it stands out:

    python research/arena/ignored.py show ignored.pkl arena.champion 'arena.champion(paths=1)'

(``paths`` is the option of ``round25_paths.patch``.)

The champion must be the first entry of ``collect``; the others default to three
``arena.voronoi``.
"""

from __future__ import annotations

import argparse
import collections
import copy
import pickle
from typing import Any

from intake import lineup, path_dists, play_spec, steps_from

from snakelab.core.game import Budget
from snakelab.core.registry import make, make_agent

LEAD, NEAR, AFTER, CLOSER = 5, 6, 6, 3


def collect(args: argparse.Namespace) -> None:
    """Play the games and save the positions where the champion ignored an apple it was nearest to."""
    n = len(args.agents)
    found: list[dict[str, Any]] = []
    c: collections.Counter[str] = collections.Counter()
    for k, (spec, me) in enumerate(lineup(args.agents, args.seed, args.games, args.game, args.budget_ms)):
        track: dict[int, dict[str, Any]] = {}
        before: list[list[int] | None] = [None]

        def hook(st: Any, events: Any, me: int = me, track: Any = track, before: Any = before, k: int = k) -> None:
            for slot, cell in enumerate(st.apples):
                new = before[0] is None or before[0][slot] != cell
                if cell >= 0 and new and st.alive[me]:
                    d = path_dists(st, cell)
                    rest = [d[i] for i in range(n) if i != me and d[i] is not None]
                    if d[me] is not None and d[me] >= NEAR and d[me] + LEAD <= min(rest, default=1 << 30):
                        track[slot] = {"cell": cell, "d0": d[me], "step": st.steps, "snap": copy.deepcopy(st)}
                        c["alone nearest"] += 1
            for slot, t in list(track.items()):
                if st.apples[slot] != t["cell"] or not st.alive[me]:
                    del track[slot]
                elif st.steps - t["step"] >= AFTER:
                    del track[slot]
                    now = steps_from(st, st.bodies[me][-1], t["cell"])
                    if now is None or now > t["d0"] - CLOSER:
                        c["not walked toward"] += 1
                        found.append({"game": k, "me": me, **t, "after": now})
            before[0] = list(st.apples)

        play_spec(spec, hook)
        with open(args.out, "wb") as f:
            pickle.dump(found, f)
        print(f"game {k}: {dict(c)}", flush=True)


def show(args: argparse.Namespace) -> None:
    """Each saved position's first move by every agent given, and the path to the apple after it."""
    with open(args.file, "rb") as f:
        found = pickle.load(f)
    game = make(args.game)
    for t in found:
        st, me = t["snap"], t["me"]
        w = st.config.game_width
        head = st.bodies[me][-1]
        cols = []
        for name in args.agents:
            agent = make_agent(name)
            agent.reset(game.info, me, 0)
            move = agent.act(copy.deepcopy(st), Budget(nodes=args.nodes))
            cell = st.grid.nbr[4 * head + move]
            cols.append(f"{'UDLR'[move]} {steps_from(st, cell, t['cell']) if cell >= 0 else None}")
        where = f"game {t['game']} step {t['step']} apple {(t['cell'] % w, t['cell'] // w)} path {t['d0']}"
        print(f"{where}: " + ", ".join(cols))


def main() -> None:
    """``collect`` or ``show``."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("out")
    c.add_argument("agents", nargs="*", default=["arena.champion"] + ["arena.voronoi"] * 3)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--games", type=int, default=6)
    c.add_argument("--budget-ms", type=float, default=10.0)
    c.add_argument("--game", default="arena(duration=60)")
    s = sub.add_parser("show")
    s.add_argument("file")
    s.add_argument("agents", nargs="+")
    s.add_argument("--nodes", type=int, default=400)
    s.add_argument("--game", default="arena(duration=60)")
    args = p.parse_args()
    collect(args) if args.cmd == "collect" else show(args)


if __name__ == "__main__":
    main()

"""How deep the searches go, and whom the zombies chase, in games at the bar's settings.

Plays the champion (any agent string, first argument) against three ``arena.voronoi``
with seats rotating (the games of ``snakelab arena tournament`` on the same run seed) and
prints, after each game, two counts over every step so far:

* ``depth``: the depth of the last finished (or cut-off) iteration of every move, the
  champion's and the references' apart (``last_depth`` of the search);
* ``chased``: for every zombie, the live snake head nearest to it by Manhattan distance
  (the one it steps toward; a tie is shared), as the share of zombie-steps chasing the
  champion, and how often a zombie stood within 4 cells of its head (of each reference's).

    python research/arena/probe.py arena.champion --games 2 --seed 5
    python research/arena/probe.py 'arena.champion(paths=1)' --games 2 --seed 5   # with round25_paths.patch

Twenty-ninth round of ``champion.md``.
"""

from __future__ import annotations

import argparse
import collections
from typing import Any

from intake import lineup, play_spec

from snakelab.core.registry import make_agent


def main() -> None:
    """Play the games and print the counts after each."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("champion", nargs="?", default="arena.champion")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--budget-ms", type=float, default=10.0)
    p.add_argument("--game", default="arena(duration=60)")
    args = p.parse_args()
    depth: dict[str, collections.Counter[int]] = {"champion": collections.Counter(), "refs": collections.Counter()}
    chase: collections.Counter[str] = collections.Counter()
    spec_agents = [args.champion] + ["arena.voronoi"] * 3
    for k, (spec, me) in enumerate(lineup(spec_agents, args.seed, args.games, args.game, args.budget_ms)):
        agents = [make_agent(a) for a in spec.agents]

        def hook(st: Any, events: Any, agents: Any = agents, me: int = me) -> None:
            for i, a in enumerate(agents):
                d = getattr(a, "last_depth", None)
                if d is not None:
                    depth["champion" if i == me else "refs"][d] += 1
            w = st.config.game_width
            heads = {i: b[-1] for i, b in enumerate(st.bodies) if st.alive[i] and b}
            for z in st.zombies:
                dist = {i: abs(h % w - z[-1] % w) + abs(h // w - z[-1] // w) for i, h in heads.items()}
                if not dist:
                    continue
                near = [i for i, d in dist.items() if d == min(dist.values())]
                chase["zombie-steps"] += 1
                chase["chasing the champion"] += near.count(me) / len(near)
                chase["within 4 of the champion"] += dist.get(me, 99) <= 4
                chase["within 4 of a reference"] += sum(d <= 4 for i, d in dist.items() if i != me) / 3

        r = play_spec(spec, hook, agents)
        zs = max(chase["zombie-steps"], 1)
        shares = {key: round(v / zs, 3) for key, v in chase.items() if key != "zombie-steps"}
        means = {who: round(sum(d * n for d, n in c.items()) / max(c.total(), 1), 2) for who, c in depth.items()}
        print(f"game {k}: longest {r.outcome.details['longest']}; mean depth {means}; chased {shares}", flush=True)
    for who, c in depth.items():
        print(who, "depths", sorted(c.items()))


if __name__ == "__main__":
    main()

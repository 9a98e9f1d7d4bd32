"""Does the champion stand at its spawn spot when an apple appears, and how often is the spot nearest?

Plays a line-up with seats rotating (the games of ``snakelab arena tournament`` on the
same run seed) and, for every new apple that appears while the champion was waiting (its
last move's :func:`snakelab.games.arena.targets.spawn_spot` was a cell, not a race of its
own), records how far its head stood from that spot (Manhattan), whether its head was
alone nearest to the new apple by path, and whether the spot itself would have been
(paths as ``intake.path_dists`` counts them: bodies free once their tail has passed,
zombies in the way). It also counts the share of the champion's moves spent waiting:

    python research/arena/spot.py --seed 91 --games 6 --budget-ms 10

With ``round24_spot_probe.patch`` applied, ``spawn_spot`` also leaves the share of the free
cells its spot is alone nearest to (by path, per mille) in the race table, and the counts
add its sum over the apples that appeared while waiting (``predicted per mille``): the
spot's own forecast, to set beside how often it was alone nearest.

The champion must be the first entry; the others default to three ``arena.voronoi``.
"""

from __future__ import annotations

import argparse
import collections
from typing import Any

from intake import lineup, path_dists, play_spec, steps_from

from snakelab.core.registry import make_agent
from snakelab.games.arena import champion as ch
from snakelab.games.arena.evaluation import W_SPAWN, W_SPAWN_CELL

_at_root = ch.ChampionAgent._at_root


def _recording_at_root(self: Any, wts: Any, root: Any, lay: Any, nbr: Any) -> Any:
    """The champion's own root step, keeping each move's spawn spot (-1: a race of its own)."""
    out = _at_root(self, wts, root, lay, nbr)
    self.spots.append(int(out[W_SPAWN_CELL]) if out[W_SPAWN] != 0.0 else -1)
    self.forecasts.append(getattr(self, "probe", None))  # set only with round24_spot_probe.patch
    return out


def main() -> None:
    """Play the games and print the counts after each."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("agents", nargs="*", default=["arena.champion"] + ["arena.voronoi"] * 3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--budget-ms", type=float, default=10.0)
    p.add_argument("--game", default="arena(duration=60)")
    args = p.parse_args()
    ch.ChampionAgent._at_root = _recording_at_root  # type: ignore[method-assign]
    n = len(args.agents)
    c: collections.Counter[str] = collections.Counter()
    gaps: list[int] = []
    for k, (spec, me) in enumerate(lineup(args.agents, args.seed, args.games, args.game, args.budget_ms)):
        agents = [make_agent(a) for a in spec.agents]
        agents[me].spots = []  # type: ignore[attr-defined]
        agents[me].forecasts = []  # type: ignore[attr-defined]
        before: list[list[int] | None] = [None]

        def hook(st: Any, events: Any, agents: Any = agents, me: int = me, before: Any = before) -> None:
            spots = agents[me].spots
            if spots:
                c["moves"] += 1
                c["moves waiting"] += spots[-1] >= 0
            now = list(st.apples)
            w = st.config.game_width
            if before[0] is not None and spots and spots[-1] >= 0 and st.alive[me]:
                spot, head = spots[-1], st.bodies[me][-1]
                for slot, cell in enumerate(now):
                    if cell < 0 or cell == before[0][slot]:
                        continue
                    d = path_dists(st, cell)
                    rest = [d[i] for i in range(n) if i != me and d[i] is not None]
                    best = min(rest, default=1 << 30)
                    gap = abs(head % w - spot % w) + abs(head // w - spot // w)
                    from_spot = steps_from(st, spot, cell)
                    gaps.append(gap)
                    c["apples while waiting"] += 1
                    if agents[me].forecasts[-1] is not None:
                        c["predicted per mille"] += agents[me].forecasts[-1]
                    c["head alone nearest"] += d[me] is not None and d[me] < best
                    c["spot alone nearest"] += from_spot is not None and from_spot < best
                    c["head within 2 of the spot"] += gap <= 2
            before[0] = now

        r = play_spec(spec, hook, agents)
        gaps.sort()
        median = gaps[len(gaps) // 2] if gaps else None
        print(f"game {k}: longest {r.outcome.details['longest']}; so far {dict(c)}; median gap {median}", flush=True)


if __name__ == "__main__":
    main()

"""Who wins the apple races: per agent, apples eaten and whether it was nearest when each appeared.

Plays the screening line-up (same seeds and seats as ``screen.py``) and, for every apple
that appears, notes each live snake's path length from its head through the cells free
at that moment (bodies as walls); when the apple is eaten, notes who ate it. Prints per
agent: apples eaten a game, appearances it was strictly nearest to and how often it then
ate that apple, apples it ate without being nearest (races won from behind), the mean
distance to a new apple, deaths, the apples lost although nearest (and of those, how
many while it ate another), and how many of the appearances it was nearest to found it
idle (strictly nearest no other apple) or busy; then, per agent, how often it ate an apple
by its race margin when the apple appeared (its steps minus the nearest rival's), and its
deaths by cause and the steps a game a zombie head was within 4 cells of its head.
``--show`` prints each death of the first agent (step and cause) and every apple it lost
although nearest and ate nothing meanwhile, drawn as the board was when the apple
appeared with the agent's head cells until it was eaten as ``.``.

    python research/arena/races.py arena.champion arena.voronoi arena.voronoi arena.voronoi --games 4
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from typing import Any

from snakelab.core.game import Budget
from snakelab.core.registry import make, make_agent
from snakelab.games.arena.render import to_text
from snakelab.harness import match_seeds
from snakelab.harness.match import play

MARGIN = 8
"""Race margins (our steps minus the nearest rival's) are clipped to ±MARGIN in the table."""

FAR = 10**6
"""The distance of a head that cannot reach the apple through today's free cells."""


def bfs(s: Any, heads: dict[int, int], target: int) -> dict[int, int]:
    """Steps from each head to ``target`` through cells free now (bodies are walls; :data:`FAR` if none)."""
    nbr, occ = s.grid.nbr, s.occ
    dist = {target: 0}
    frontier = [target]
    while frontier:
        nxt = []
        for c in frontier:
            for k in range(4):
                m = nbr[4 * c + k]
                if m >= 0 and m not in dist and (occ[m] == 0 or m in heads.values()):
                    dist[m] = dist[c] + 1
                    if occ[m] == 0:
                        nxt.append(m)
        frontier = nxt
    return {i: dist.get(h, FAR) for i, h in heads.items()}


class Races:
    """The race counts of one game, added into ``tot`` (per agent name) as the game goes."""

    def __init__(self, names: list[str], tot: dict[str, dict[str, float]], show: str, game: int) -> None:
        self.names, self.tot, self.show, self.game = names, tot, show, game
        self.seen: dict[int, tuple[int, list[int], dict[int, int], int]] = {}
        """Apple cell -> nearest seat (-1 on a tie), apples each seat had eaten, distances, step."""
        self.ate = [0] * len(names)
        self.boards: dict[int, str] = {}
        """Apple cell -> the board when it appeared (with ``--show``)."""
        self.last_board = ""
        """The board one step back (with ``--show``): printed when the shown agent dies."""
        self.trail: list[int] = []
        """The shown agent's head cell at every step (with ``--show``)."""

    def on_step(self, s: Any, events: Any) -> None:
        """Count this step's eats and deaths, then note the apples that appeared."""
        w = s.config.game_width
        tot, names = self.tot, self.names
        for e in events:
            if e.kind == "death":
                tot[names[e.player]]["deaths"] += 1
                tot[names[e.player]][f"death:{e.data['cause']}"] += 1
                if self.show and names[e.player] == self.show:
                    print(f"  game {self.game} step {s.steps}: seat {e.player} died ({e.data['cause']})", flush=True)
                    print(self.last_board, flush=True)
            if e.kind != "eat":
                continue
            x, y = e.data["cell"]
            c = y * w + x
            near, before, dists, t0 = self.seen.pop(c, (-2, [], {}, 0))
            board = self.boards.pop(c, "")
            for i, di in dists.items():
                rest = [v for j, v in dists.items() if j != i]
                if di < FAR and rest:
                    m = max(-MARGIN, min(MARGIN, di - min(rest)))
                    tot[names[i]][f"m{m}"] += 1
                    tot[names[i]][f"m{m}:ate"] += e.player == i
            self.ate[e.player] += 1
            t = tot[names[e.player]]
            t["eaten"] += 1
            if near == e.player:
                t["won_nearest"] += 1
            elif near >= 0:
                t["won_behind"] += 1
                lt = tot[names[near]]
                lt["lost_nearest"] += 1
                lt["lost_ate_other"] += self.ate[near] > before[near]
                if names[near] == self.show and self.ate[near] == before[near]:
                    print(
                        f"  game {self.game} step {t0}->{s.steps}: apple {c % w},{c // w} lost by seat {near} "
                        f"(distances {dists}) to seat {e.player}",
                        flush=True,
                    )
                    self.draw(board, t0, s.steps, w)
        heads = {i: b[-1] for i, b in enumerate(s.bodies) if s.alive[i] and b}
        zheads = [z[-1] for z in s.zombies if z]
        for i, h in heads.items():
            near_z = min((abs(h % w - z % w) + abs(h // w - z // w) for z in zheads), default=99)
            tot[names[i]]["zombie4"] += near_z <= 4
        if self.show:
            self.last_board = to_text(s)
            self.trail.append(heads.get(self.names.index(self.show), -1))
        new = [c for c in s.apples if c >= 0 and c not in self.seen]
        # A snake is busy when it is strictly nearest an apple already on the board.
        busy = {near for c, (near, *_rest) in self.seen.items() if near >= 0 and c in s.apples}
        for c in new:
            d = bfs(s, heads, c)
            best = min(d.values(), default=0)
            who = [i for i, v in d.items() if v == best]
            near = who[0] if len(who) == 1 else -1
            self.seen[c] = (near, list(self.ate), d, s.steps)
            if self.show:
                self.boards[c] = to_text(s)
            if near >= 0:
                tot[names[near]]["nearest"] += 1
                tot[names[near]]["nearest_busy" if near in busy else "nearest_idle"] += 1
            for i, v in d.items():
                if v < FAR:
                    tot[names[i]]["dist"] += v
                    tot[names[i]]["appear"] += 1

    def draw(self, board: str, t0: int, t1: int, w: int) -> None:
        """Print ``board`` with the shown agent's later head cells (steps ``t0``..``t1``) as ``.``."""
        rows = [list(r) for r in board.splitlines()]
        for c in self.trail[t0:t1]:
            if c >= 0:
                y, x = divmod(c, w)
                if rows[y + 1][x + 1] == " ":
                    rows[y + 1][x + 1] = "."
        print("\n".join("".join(r) for r in rows), flush=True)


def main() -> None:
    """Play the line-up and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("agents", nargs="+")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--budget-ms", type=float, default=10.0)
    ap.add_argument("--game", default="arena(duration=60)")
    ap.add_argument("--show", action="store_true", help="print each apple the first agent lost when nearest")
    args = ap.parse_args()
    refs = args.agents
    n = len(refs)
    tot: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for k, seed in enumerate(match_seeds(1, args.first + args.games)):
        if k < args.first:
            continue
        names = [refs[(i - k) % n] for i in range(n)]
        races = Races(names, tot, refs[0] if args.show else "", k)
        r = play(
            make(args.game),
            [make_agent(a) for a in names],
            seed,
            agent_names=names,
            budget=Budget(time_s=args.budget_ms / 1000),
            on_step=races.on_step,
        )
        longest = r.outcome.details["longest"]
        for i, a in enumerate(names):
            tot[a]["seats"] += 1
            tot[a]["longest"] += longest[i]
            tot[a]["wins"] += r.outcome.winner == i
        winner = "nobody" if r.outcome.winner is None else names[r.outcome.winner]
        print(f"game {k}: {winner} won, longest {longest}", flush=True)
    print(
        f"{'agent':<28} seats wins longest eaten/g nearest/g won-nearest% won-behind/g mean-dist deaths/g "
        "lost-near/g of-which-ate-other near-idle/g near-busy/g"
    )
    for a, t in tot.items():
        g = t["seats"]
        print(
            f"{a:<28} {g:5.0f} {t['wins']:4.0f} {t['longest'] / g:7.1f} {t['eaten'] / g:7.1f} {t['nearest'] / g:9.1f} "
            f"{100 * t['won_nearest'] / max(1, t['nearest']):12.1f} {t['won_behind'] / g:12.1f} "
            f"{t['dist'] / max(1, t['appear']):9.1f} {t['deaths'] / g:7.2f} "
            f"{t['lost_nearest'] / g:10.1f} {t['lost_ate_other'] / g:10.1f} "
            f"{t['nearest_idle'] / g:9.1f} {t['nearest_busy'] / g:9.1f}"
        )
    print("P(eat | margin at appearance): margin = own steps - nearest rival's, clipped; count in brackets")
    for a, t in tot.items():
        cells = [
            f"{m:+d}:{t[f'm{m}:ate'] / t[f'm{m}']:.2f}({t[f'm{m}']:.0f})"
            for m in range(-MARGIN, MARGIN + 1)
            if t[f"m{m}"]
        ]
        print(f"{a:<28} " + " ".join(cells))
    for a, t in tot.items():
        causes = {k.split(":", 1)[1]: int(v) for k, v in sorted(t.items()) if k.startswith("death:")}
        near_z = t["zombie4"] / t["seats"]
        print(f"{a:<28} deaths by cause: {causes}; steps a game with a zombie head within 4: {near_z:.0f}")


if __name__ == "__main__":
    main()

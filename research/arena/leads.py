"""Why the champion leaves apples it leads to: its root values on every move where it leads one by 8+.

Plays the screening line-up (the champion against three ``voronoi``, seats rotating as in
``races.py``) and, on each move where the champion's path to some apple is at least 8
steps shorter than every other snake's, prints the move it played, the search's order,
the moves the survival proof passed over, the spawn spot and claimed apples, every
apple's path lengths (bodies as walls, as ``races.py`` counts them), and for each root
move the one-step value (the opponents on their default moves) with the trap
penalty's and the rival term's share of it (the trap column is the clock's part: for a
move that dies at once it is the death's cost). With ``--boards`` the board is drawn at the
start of every run of such moves.

    python research/arena/leads.py --first 204 --games 1 --boards
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from snakelab.core.game import Budget
from snakelab.core.registry import make, make_agent
from snakelab.games.arena import sim
from snakelab.games.arena.champion import ChampionAgent
from snakelab.games.arena.evaluation import (
    W_CLAIM,
    W_LATE_C0,
    W_LATE_RATE,
    W_RIVAL,
    W_SPAWN_CELL,
    evaluate_w,
    timid_dir,
)
from snakelab.games.arena.render import to_text
from snakelab.games.arena.sim import greedy_dir
from snakelab.harness import match_seeds
from snakelab.harness.match import play

sys.path.insert(0, str(Path(__file__).parent))
from races import FAR, bfs

LEAD = 8
"""A lead of this many steps on every other snake makes the apple the champion's to lose."""


class Traced(ChampionAgent):
    """The champion, printing its root values on the moves where it leads an apple by :data:`LEAD`."""

    def __init__(self, boards: bool, **kw: Any) -> None:
        super().__init__(**kw)
        self.boards = boards
        self.lines: list[str] = []
        self._last_logged = -2

    def act(self, observation: Any, budget: Budget | None) -> int:
        self._obs = observation
        return super().act(observation, budget)

    def _model(self, s: Any, growth: list[int]) -> Any:
        wts, timid = super()._model(s, growth)
        self._timid = timid
        return wts, timid

    def _at_root(self, wts: Any, root: Any, lay: Any, nbr: Any) -> Any:
        self._wts = super()._at_root(wts, root, lay, nbr)
        return self._wts

    def _settle(self, order: list[int], root: Any, lay: Any, nbr: Any, until: float) -> int:
        move = super()._settle(order, root, lay, nbr, until)
        s, me = self._obs, self.player
        w = s.config.game_width
        heads = {i: b[-1] for i, b in enumerate(s.bodies) if s.alive[i] and b}
        apples, lead = [], False
        for a in s.apples:
            if a < 0:
                continue
            d = bfs(s, heads, a)
            rest = [v for j, v in d.items() if j != me]
            lead |= d.get(me, FAR) + LEAD <= min(rest, default=FAR)
            apples.append(f"apple ({a % w},{a // w}) {d}")
        if not lead:
            return move
        wts, timid = self._wts, self._timid
        no_trap = wts.copy()
        no_trap[W_LATE_C0] = no_trap[W_LATE_RATE] = 0.0  # a trap costs at most 0.9 of a death: now nothing
        no_rival = wts.copy()
        no_rival[W_RIVAL] = 0.0
        parts = []
        n = lay[sim.L_N]
        for d in order:
            st = root.copy()
            moves = np.zeros(n, np.int32)
            for j in range(n):
                if j == me:
                    moves[j] = d
                else:
                    moves[j] = timid_dir(st, lay, nbr, j) if timid[j] else greedy_dir(st, lay, nbr, j)
            sim.step(st, lay, nbr, moves)
            v = evaluate_w(st, lay, nbr, me, 1, self._work, wts, timid)
            trap = evaluate_w(st, lay, nbr, me, 1, self._work, no_trap, timid) - v
            rival = evaluate_w(st, lay, nbr, me, 1, self._work, no_rival, timid) - v
            parts.append(f"{'UDLR'[d]} {v:.0f} (trap {trap:.0f}, rival {rival:.0f})")
        if self.boards and self._last_logged != s.steps - 1:
            self.lines.append(to_text(s))
        self._last_logged = s.steps
        h = heads[me]
        self.lines.append(
            f"step {s.steps} head ({h % w},{h // w}) length {len(s.bodies[me])} played {'UDLR'[move]} "
            f"order {''.join('UDLR'[o] for o in order)} doomed {self.last_doomed} spot {int(wts[W_SPAWN_CELL])} "
            f"claims {int(wts[W_CLAIM])} | {'; '.join(apples)} | {' | '.join(parts)}"
        )
        return move


def main() -> None:
    """Play the games and print each one's trace."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--budget-ms", type=float, default=10.0)
    ap.add_argument("--boards", action="store_true", help="draw the board where each run of traced moves starts")
    args = ap.parse_args()
    for k, seed in enumerate(match_seeds(1, args.first + args.games)):
        if k < args.first:
            continue
        names = ["champion", "voronoi", "voronoi", "voronoi"]
        names = [names[(i - k) % 4] for i in range(4)]
        traced = Traced(args.boards)
        agents = [traced if a == "champion" else make_agent("arena.voronoi") for a in names]
        budget = Budget(time_s=args.budget_ms / 1000)
        r = play(make("arena(duration=60)"), agents, seed, agent_names=names, budget=budget)
        print(f"game {k}: longest {r.outcome.details['longest']}, the champion in seat {names.index('champion')}")
        for line in traced.lines:
            print("  " + line, flush=True)


if __name__ == "__main__":
    main()

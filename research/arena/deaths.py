"""Collect the positions a few dozen steps before each of an agent's deaths, and replay them.

``collect`` plays a line-up with seats rotating (the games of ``snakelab arena
tournament`` on the same run seed) and, whenever the first agent dies, saves the
position ``--before`` steps earlier with every agent's trackers (pending growth, the
champion's contact model) to a pickle, so a replay starts where the game stood:

    python research/arena/deaths.py collect arena.champion arena.voronoi arena.voronoi arena.voronoi \
        --seed 6 --games 10 --budget-ms 50 --game 'arena(duration=150)' --out deaths_s6.pkl

``replay`` plays each saved position again, with any agent in the dead agent's seat,
``--reps`` times for ``--steps`` steps, and says when it died and how (``--show`` draws
the boards of the last steps before each death); ``doomed`` says, for each saved
position, which first moves :func:`snakelab.games.arena.survival.alone_moves` proves
doomed for the snake alone; ``trace`` replays one position and prints, step by step,
which first moves have a walk alone and a walk ahead of the other heads, and the move
played:

    python research/arena/deaths.py replay arena.champion deaths_s6.pkl --reps 2 --steps 45 --budget-ms 50
    python research/arena/deaths.py doomed deaths_s6.pkl
    python research/arena/deaths.py trace arena.champion deaths_s6.pkl 3 --steps 45
"""

from __future__ import annotations

import argparse
import copy
import pickle
from collections import deque
from typing import Any

import numpy as np

from snakelab.core.game import Budget
from snakelab.core.registry import make, make_agent
from snakelab.games.arena import sim
from snakelab.games.arena.render import to_text
from snakelab.games.arena.survival import SHUT_NEVER, Ask, alone_moves, opponent_reach, work_size
from snakelab.harness import match_seeds
from snakelab.harness.match import Match, OwnRules, play


def _trackers(agents: list[Any]) -> list[tuple[Any, Any]]:
    return [(copy.deepcopy(getattr(a, "_growth", None)), copy.deepcopy(getattr(a, "_contact", None))) for a in agents]


def _causes(events: Any, me: int) -> list[Any]:
    """The death events of player ``me`` among one step's events, as JSON."""
    return [e.to_json() for e in events if e.kind == "death" and e.player == me]


class _Collector:
    """The ``on_step`` hook of one game: a ring of recent positions, saved when the agent dies."""

    def __init__(self, agents: list[Any], meta: dict[str, Any], before: int, saved: list[dict[str, Any]], out: str):
        self.agents, self.meta, self.saved, self.out = agents, meta, saved, out
        self.ring: deque[tuple[Any, list[tuple[Any, Any]]]] = deque(maxlen=before + 1)
        self.seen = 0

    def __call__(self, st: Any, events: Any) -> None:
        me = self.meta["me"]
        self.ring.append((st.clone(), _trackers(self.agents)))
        if st.deaths[me] > self.seen:
            self.seen = st.deaths[me]
            old, trackers = self.ring[0]
            rec = dict(self.meta, death_step=st.steps, state=old, trackers=trackers, length=len(old.bodies[me]))
            cause = _causes(events, me)
            cells = len(self.ring[-2][0].bodies[me])
            print(f"  game {self.meta['game']}: died at step {st.steps} ({cells} cells): {cause}", flush=True)
            self.saved.append(rec)
            with open(self.out, "wb") as f:
                pickle.dump(self.saved, f)


def _load(path: str) -> list[dict[str, Any]]:
    with open(path, "rb") as f:
        recs: list[dict[str, Any]] = pickle.load(f)
    return recs


def collect(args: argparse.Namespace) -> None:
    """Play the line-up; save the position ``--before`` steps before each death of the first agent."""
    saved: list[dict[str, Any]] = []
    n = len(args.agents)
    for k, seed in enumerate(match_seeds(args.seed, args.games)):
        names = tuple(args.agents[(i - k) % n] for i in range(n))
        me = names.index(args.agents[0])
        agents = [make_agent(a) for a in names]
        hook = _Collector(agents, {"game": k, "seed": seed, "me": me, "names": names}, args.before, saved, args.out)
        budget = Budget(time_s=args.budget_ms / 1000)
        r = play(make(args.game), agents, seed, agent_names=names, budget=budget, on_step=hook)
        d = r.outcome.details
        print(f"game {k}: seat {me} winner {r.outcome.winner} longest {d['longest']} deaths {d['deaths']}", flush=True)


def _restart(rec: dict[str, Any], agent: str, game: Any, seed: int, budget_ms: float) -> Match:
    """A started match from a saved position, ``agent`` in the dead agent's seat, trackers restored."""
    names = list(rec["names"])
    names[rec["me"]] = agent
    agents = [make_agent(n) for n in names]
    m = Match(
        game,
        agents,
        seed,
        agent_names=names,
        budget=Budget(time_s=budget_ms / 1000),
        own=OwnRules(rec["state"].clone()),
    )
    m.start()
    for a, (g, c) in zip(agents, rec["trackers"], strict=True):
        if g is not None:
            a._growth = copy.deepcopy(g)
        if c is not None and hasattr(a, "_contact"):
            a._contact = copy.deepcopy(c)
    return m


def replay(args: argparse.Namespace) -> None:
    """Play every saved position again with ``args.agent`` in the dead agent's seat."""
    recs = [r for f in args.files for r in _load(f)]
    died_in = 0
    for pi, rec in enumerate(recs):
        me = rec["me"]
        game = make(args.game)
        when = []
        for rep in range(args.reps):
            m = _restart(rec, args.agent, game, rec["seed"] + 1000 * rep, args.budget_ms)
            d0, died = m.state.deaths[me], 0
            boards: deque[str] = deque(maxlen=12)
            for k in range(args.steps):
                if m.over:
                    break
                boards.append(to_text(m.state))
                events = m.step()
                if m.state.deaths[me] > d0:
                    died = k + 1
                    cause = _causes(events, me)
                    print(f"  puzzle {pi} rep {rep}: died at step {m.state.steps}: {cause}")
                    if args.show:
                        print("\n".join(list(boards)[::4]))
                    break
            m.close()
            when.append(died)
            died_in += died > 0
        print(f"puzzle {pi} (game {rec['game']}, death at step {rec['death_step']}, {rec['length']} cells): "
              f"died after {when} steps (0: survived)", flush=True)  # fmt: skip
    print(f"{args.agent}: died in {died_in} of {len(recs) * args.reps} replays")


def _walks(s: Any, me: int, cap: int, ahead: int = 0, zombies: int = 0) -> tuple[int, list[int], list[int]]:
    """The walk's length, and per first move the lone proof's answer and, with ``ahead``, the walk-ahead's.

    Answers are 1 (a walk), 0 (none) or -1 (undecided after ``cap`` nodes); without
    ``ahead`` the second list is empty.
    """
    lay = sim.layout(s, cap=max(len(b) for b in s.bodies) + 64)
    st = sim.encode(s, lay, None)
    size = int(lay[sim.L_SIZE])
    need = min(len(s.bodies[me]) + s.growth[me], size)
    work = np.zeros(work_size(size, size), np.int32)
    shut = np.full(size, SHUT_NEVER, np.int32)
    nbr = sim.grid_nbr(s)
    alone = [int(alone_moves(st, lay, nbr, me, Ask(d, need, shut), cap, work, 1.0e308)) for d in range(4)]
    if not ahead:
        return need, alone, []
    opponent_reach(st, lay, nbr, me, ahead, work, shut, zombies)
    return need, alone, [int(alone_moves(st, lay, nbr, me, Ask(d, need, shut), cap, work, 1.0e308)) for d in range(4)]


def trace(args: argparse.Namespace) -> None:
    """Replay one saved position; print each step's lone and walk-ahead answers and the move played."""
    rec = _load(args.file)[args.index]
    me = rec["me"]
    m = _restart(rec, args.agent, make(args.game), rec["seed"], args.budget_ms)
    d0 = m.state.deaths[me]
    nbr = sim.grid_nbr(m.state)
    states = []
    for _ in range(args.steps):
        if m.over:
            break
        s = m.state.clone()  # the match steps its state in place
        h = s.bodies[me][-1]
        _, alone, walk = _walks(s, me, args.cap, args.ahead, args.zombies)
        board = to_text(s)
        states.append(s)
        m.step()
        h2 = m.state.bodies[me][-1] if m.state.bodies[me] else -1
        played = next((d for d in range(4) if nbr[4 * h + d] == h2), -1)  # -1: it died
        print(f"step {s.steps} len {len(s.bodies[me])}+{s.growth[me]} alone {alone} ahead {walk} played {played}")
        if args.show and (max(walk) < 1 or m.state.deaths[me] > d0):
            print(board)  # the position the line above is about
        if m.state.deaths[me] > d0:
            print("died")
            break
    m.close()
    if args.dump:
        with open(args.dump, "wb") as f:
            pickle.dump(states, f)


def doomed(args: argparse.Namespace) -> None:
    """For each saved position, the first moves the lone-snake proof finds doomed (0), open (1) or undecided (-1)."""
    for f in args.files:
        for ri, rec in enumerate(_load(f)):
            s, me = rec["state"], rec["me"]
            if not s.alive[me]:
                continue
            need, res, _ = _walks(s, me, 20_000)
            print(f"{f} #{ri}: death at step {rec['death_step']}, {need} cells; up, down, left, right: {res}")


def main() -> None:
    """Parse the command line and run one of the four commands."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("agents", nargs="+")
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--games", type=int, default=10)
    c.add_argument("--budget-ms", type=float, default=50.0)
    c.add_argument("--game", default="arena(duration=150)")
    c.add_argument("--before", type=int, default=40)
    c.add_argument("--out", required=True)
    replaying = argparse.ArgumentParser(add_help=False)  # what replay and trace share
    replaying.add_argument("agent")
    replaying.add_argument("--steps", type=int, default=45)
    replaying.add_argument("--budget-ms", type=float, default=50.0)
    replaying.add_argument("--game", default="arena(duration=150)")
    replaying.add_argument("--show", action="store_true")
    r = sub.add_parser("replay", parents=[replaying])
    r.add_argument("files", nargs="+")
    r.add_argument("--reps", type=int, default=2)
    d = sub.add_parser("doomed")
    d.add_argument("files", nargs="+")
    t = sub.add_parser("trace", parents=[replaying])
    t.add_argument("file")
    t.add_argument("index", type=int)
    t.add_argument("--ahead", type=int, default=8)
    t.add_argument("--zombies", type=int, default=1)
    t.add_argument("--cap", type=int, default=5000)
    t.add_argument("--dump", help="save the positions replayed to this pickle")
    args = ap.parse_args()
    {"collect": collect, "replay": replay, "doomed": doomed, "trace": trace}[args.cmd](args)


if __name__ == "__main__":
    main()

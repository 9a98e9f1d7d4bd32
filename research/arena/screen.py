"""Screen arena agents: one line-up, seats rotating, a fixed move budget, one process.

The same matches as ``snakelab arena tournament`` (lockstep, seats rotated by the game
index, seeds from ``match_seeds``), but with the move budget given apart from the game's
``speed``, so ``arena(duration=60)`` (1,200 steps) can be played at 10 ms a move:

    nice -n 19 python research/arena/screen.py arena.mcts arena.greedy arena.greedy arena.greedy \
        --games 100 --budget-ms 10 --game 'arena(duration=60)'

Prints per agent: seats, wins, win rate, 95 % Wilson interval, mean longest, p99 and
maximum move time (wall clock, as the harness measures it), and the p99 of each move's
CPU time (the thread's own, so a loaded machine's preemption is left out), then one
line per game the first agent lost; ``--json`` appends the raw table. The matches are
those of :func:`snakelab.harness.match.run_match` (same seeds, so the same games under a
node budget), with every agent wrapped to read its CPU clock as well.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.core.registry import make, make_agent
from snakelab.harness import MatchResult, MatchSpec, match_seeds
from snakelab.harness.match import play
from snakelab.harness.ratings import wilson_interval

CPU: dict[str, list[float]] = {}
TRACE = 0
FIRST = ""
"""With ``--trace N``: every N steps the first agent prints each seat's length, longest and deaths."""


class Timed(BaseAgent):
    """An agent that also records the CPU time of each ``act`` under its name."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.inner = make_agent(name)
        self.trace = False
        self.player = 0

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        self.player = player
        self.inner.reset(info, player, seed)

    def act(self, observation: Any, budget: Budget | None) -> Any:
        if TRACE and self.trace and observation.steps % TRACE == 0:
            s = observation
            print(
                f"  step {s.steps}: me {self.player} len {[len(b) for b in s.bodies]} "
                f"longest {list(s.longest)} deaths {list(s.deaths)}",
                flush=True,
            )
        c0 = time.thread_time()
        a = self.inner.act(observation, budget)
        CPU.setdefault(self.name, []).append(time.thread_time() - c0)
        return a


def run_one(spec: MatchSpec) -> MatchResult:
    """``run_match`` with timed agents."""
    agents = [Timed(a) for a in spec.agents]
    agents[spec.agents.index(FIRST)].trace = True
    r = play(
        make(spec.game),
        agents,
        spec.seed,
        agent_names=spec.agents,
        budget=spec.budget,
        measure=True,
    )
    r.index = spec.index
    return r


def specs(refs: list[str], games: int, seed: int, game: str, budget: Budget, first: int) -> list[MatchSpec]:
    """Game k seats the line-up rotated by k (every agent sits in every seat equally often)."""
    n = len(refs)
    out = []
    for k, s in enumerate(match_seeds(seed, first + games)):
        if k < first:
            continue
        agents = tuple(refs[(i - k) % n] for i in range(n))
        out.append(MatchSpec(game, agents, s, budget=budget, measure=True, index=k))
    return out


def summarise(results: list[MatchResult]) -> list[dict[str, object]]:
    """Per agent: seats, wins, Wilson interval, mean longest, p99 and max move time (ms)."""
    stats: dict[str, dict[str, list[float]]] = {}
    for res in results:
        for seat, agent in enumerate(res.agents):
            st = stats.setdefault(agent, {"wins": [], "longest": [], "times": []})
            st["wins"].append(float(res.outcome.winner == seat))
            st["longest"].append(res.outcome.details["longest"][seat])
            if res.move_times:
                st["times"].extend(res.move_times[seat])
    rows: list[dict[str, object]] = []
    for agent, st in stats.items():
        games, wins = len(st["wins"]), int(sum(st["wins"]))
        times = sorted(st["times"])
        rows.append(
            {
                "bot": agent,
                "games": games,
                "wins": wins,
                "win_rate": wins / games,
                "ci95": wilson_interval(wins, games),
                "mean_longest": sum(st["longest"]) / games,
                "p99_ms": 1e3 * times[min(len(times) - 1, int(0.99 * len(times)))] if times else float("nan"),
                "max_ms": 1e3 * times[-1] if times else float("nan"),
            }
        )
    return sorted(rows, key=lambda r: -float(r["win_rate"]))  # type: ignore[arg-type]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("agents", nargs="+")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first", type=int, default=0, help="skip the first K games of the seed sequence")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget-ms", type=float, default=10.0)
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--game", default="arena(duration=60)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--trace", type=int, default=0, help="print the first agent's view every N steps")
    args = ap.parse_args()
    global TRACE, FIRST
    TRACE, FIRST = args.trace, args.agents[0]
    budget = Budget(time_s=args.budget_ms / 1000, nodes=args.nodes)
    todo = specs(args.agents, args.games, args.seed, args.game, budget, args.first)
    t0 = time.perf_counter()
    done: list[MatchResult] = []

    def progress(r: MatchResult) -> None:
        # One line a game, so that a run cut short still tells what it had played.
        done.append(r)
        row = next(x for x in summarise(done) if x["bot"] == args.agents[0])
        spent = time.perf_counter() - t0
        seat = r.agents.index(args.agents[0])
        longest = r.outcome.details["longest"]
        print(
            f"# {len(done)}/{args.games} games, {spent:.0f} s, {args.agents[0]} {row['wins']} wins; "
            f"game {r.index}: seat {seat}, longest {longest}",
            flush=True,
        )

    results = []
    for sp in todo:
        r = run_one(sp)
        results.append(r)
        progress(r)
    wall = time.perf_counter() - t0
    print(f"{args.game}, budget {args.budget_ms} ms, {len(results)} games, seed {args.seed}, first {args.first}")
    print(f"wall {wall:.0f} s")
    for r in summarise(results):
        lo, hi = r["ci95"]  # type: ignore[misc]
        print(
            f"{r['bot']:<40} {r['games']:>4} {r['wins']:>4} {100 * float(r['win_rate']):5.1f}% "  # type: ignore[arg-type]
            f"[{100 * lo:.1f}–{100 * hi:.1f}] longest {float(r['mean_longest']):.1f} "  # type: ignore[arg-type]
            f"p99 {float(r['p99_ms']):.2f} ms max {float(r['max_ms']):.1f} ms"  # type: ignore[arg-type]
        )
    for name, ts in CPU.items():
        ts = sorted(ts)
        print(f"{name:<40} CPU p99 {1e3 * ts[int(0.99 * len(ts))]:.2f} ms, max {1e3 * ts[-1]:.1f} ms")
    for r in results:
        seat = r.agents.index(args.agents[0])
        if r.outcome.winner != seat:
            d = r.outcome.details
            print(f"lost game {r.index}: seat {seat}, longest {d['longest']}, deaths {d['deaths']}, kills {d['kills']}")
    if args.json:
        print(json.dumps(summarise(results)))


if __name__ == "__main__":
    main()

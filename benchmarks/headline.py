"""The quick headline set (``make bench``): one short run per game, printed as one table.

    .venv/bin/python benchmarks/headline.py [--jobs 2]

Each row is a cut-down version of a headline benchmark of ``docs/benchmarks.md``, beside
the figure the full run gives there (column "full run"), so a change that costs strength
or speed shows at a glance. The runs are seeded and every agent except the time-budgeted
ones (arena's champion, hextris's solver) is deterministic, so those rows repeat to the
digit; the time-budgeted rows vary a little with machine load. On 2 cores the whole set
takes about 5 minutes, most of it the first compilation of the kernels.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable
from pathlib import Path
from statistics import mean

from snakelab.core.game import Budget
from snakelab.core.registry import format_spec
from snakelab.games.blind.sweep import run_sweep
from snakelab.games.hextris.codec import Problem, load_problem_id, load_solutions
from snakelab.games.hextris.scoring import score_seed
from snakelab.harness import MatchResult, MatchSpec, match_seeds, run_many
from snakelab.harness.parallel import mapper, parallel_map

Row = tuple[str, str, str, str]
STORE = Path(__file__).resolve().parent / "results" / "hextris"


def classic(jobs: int) -> list[Row]:
    """The champion and hamilton-shortcut on 12×12, 100 games each (docs: 500 and 200)."""
    game = "classic(width=12,height=12,tail_rule=strict)"
    rows = []
    for agent, full in (("classic.champion", "1,829.2 (500 games)"), ("classic.hamilton-shortcut", "3,422.9 (200)")):
        res = run_many([MatchSpec(game, (agent,), s, index=i) for i, s in enumerate(match_seeds(1, 100))], jobs=jobs)
        won = sum(r.outcome.winner == 0 for r in res)
        steps = mean(r.outcome.details["steps"] for r in res)
        rows.append(("classic", f"{agent} 12×12 strict: mean steps, won", f"{steps:,.1f}, {won}/100", full))
    return rows


def blind(jobs: int) -> list[Row]:
    """The champion's exact worst ratio over every grid A·B ≤ 10^4."""
    res = run_sweep("champion", 10_000, map_chunks=mapper(jobs=jobs))
    grid = "×".join(map(str, res["worst_grid"]))
    return [
        ("blind", "champion: worst cover / S, every A·B ≤ 10^4", f"{res['worst_ratio']:.2f} ({grid})", "11.42 (12×335)")
    ]


def arena(jobs: int) -> list[Row]:
    """Engine speed with four greedy snakes, and the champion against three greedy in short games."""
    t0 = time.perf_counter()
    greedy = ("arena.greedy",) * 4
    done = run_many([MatchSpec("arena", greedy, s, index=i) for i, s in enumerate(match_seeds(1, 4))], jobs=jobs)
    per_game = (time.perf_counter() - t0) * min(jobs, 4) / len(done)
    refs = ["arena.champion", "arena.greedy", "arena.greedy", "arena.greedy"]
    # The line-up of docs/benchmarks.md at its settings (1,200 steps, 10 ms a move), 8 games
    # instead of 100 to keep the set short; seats rotate.
    specs = [
        MatchSpec(
            "arena(duration=60)",
            tuple(refs[(i - k) % 4] for i in range(4)),
            s,
            budget=Budget(time_s=0.01),
            measure=True,
            index=k,
        )
        for k, s in enumerate(match_seeds(1, 8))
    ]
    res = run_many(specs, jobs=jobs)
    wins = sum(r.agents[r.outcome.winner] == "arena.champion" for r in res if r.outcome.winner is not None)
    times = sorted(
        t for r in res for seat, a in enumerate(r.agents) if a == "arena.champion" for t in r.move_times[seat]
    )
    p99 = 1e3 * times[int(0.99 * (len(times) - 1))]
    return [
        ("arena", "4 × greedy, default game: seconds per game", f"{per_game:.2f}", "1.38 (bar: 2)"),
        (
            "arena",
            "champion vs 3 greedy, 8 games of 1200 steps at 10 ms: wins, p99 ms",
            f"{wins}/8, {p99:.1f}",
            "100/100 (96.3–100 %), 8.33 ms",
        ),
    ]


def snakgame(jobs: int) -> list[Row]:
    """The champion against the editorial on the first four type-1 files of the bench."""
    seeds = match_seeds(1, 4)
    game = format_spec("snakgame", {"type": 1})
    totals = {}
    for agent in ("snakgame.champion", "snakgame.editorial"):
        res: list[MatchResult] = run_many(
            [MatchSpec(game, (agent,), s, index=i) for i, s in enumerate(seeds)], jobs=jobs
        )
        totals[agent] = sum(r.outcome.details["score"] for r in res)
    ratio = totals["snakgame.champion"] / totals["snakgame.editorial"]
    return [("snakgame", "champion / editorial, 4 type-1 files", f"{ratio:.3f}", "1.307 (these files)")]


def _solve(job: tuple[Problem, float]) -> int:
    from snakelab.games.hextris.scoring import PHRASES
    from snakelab.games.hextris.solver import solve_champion

    prob, seconds = job
    return solve_champion(prob, prob.source_seeds[0], seconds, PHRASES).score


def hextris(jobs: int) -> list[Row]:
    """The champion on the first seed of problems 0–24, 2 seconds a game."""
    from snakelab.games.hextris.solver import warm_up

    probs = [load_problem_id(p) for p in range(25)]
    scores = [sc for _, sc in parallel_map(_solve, [(p, 2.0) for p in probs], jobs=jobs, initializer=warm_up)]
    # The reference: the same games in the keep-best store of hextris_leaderboard.py.
    best = 0
    for p in probs:
        path = STORE / f"problem_{p.id}.json"
        entries = [e for e in load_solutions(path) if e.seed == p.source_seeds[0]] if path.is_file() else []
        best += max((score_seed(p, e.seed, e.solution).score for e in entries), default=0)
    label = "champion, first seed of 25 problems, 2 s each: total"
    return [("hextris", label, f"{sum(scores):,}", f"{best:,} (keep-best store)")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = ap.parse_args()
    parts: list[Callable[[int], list[Row]]] = [classic, blind, arena, snakgame, hextris]
    t_all, cpu_all = time.perf_counter(), _cpu()
    table: list[tuple[str, ...]] = []
    for part in parts:
        t0, cpu0 = time.perf_counter(), _cpu()
        rows = part(args.jobs)
        wall, cpu = f"{time.perf_counter() - t0:.0f}", f"{_cpu() - cpu0:.0f}"
        table.extend((*row, wall, cpu) if i == 0 else (*row, "", "") for i, row in enumerate(rows))
        print(f"# {part.__name__} done: {wall} s wall, {cpu} CPU s", flush=True)
    print()
    print("| game | measure | this run | full run (docs/benchmarks.md) | wall s | CPU s |")
    print("|---|---|---:|---:|---:|---:|")
    for row in table:
        print("| " + " | ".join(row) + " |")
    print(f"\n{time.perf_counter() - t_all:.0f} s wall, {_cpu() - cpu_all:.0f} CPU s, {args.jobs} workers")


def _cpu() -> float:
    """CPU seconds of this process and its finished workers (wall time depends on the machine's load)."""
    return sum(
        resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )


if __name__ == "__main__":
    main()

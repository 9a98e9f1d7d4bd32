"""Every snakgame agent on the seeded contest files: totals and the ratio to `editorial`.

The same files and seeds as ``snakelab snakgame bench --files N --seed S`` (the first half
type 1, the rest type 2), played through ``harness.run.run_many`` on a process pool.

    .venv/bin/python benchmarks/snakgame_agents.py [--files 20] [--seed 1] [--jobs 2] [--agents a,b,...]
"""

from __future__ import annotations

import argparse
import time

from snakelab.core.registry import format_spec
from snakelab.harness import MatchSpec, match_seeds, run_many


def bench_specs(agent: str, files: int, seed: int) -> list[MatchSpec]:
    """File i has seed ``match_seeds(seed, files)[i]``; the first half are type 1, the rest type 2."""
    return [
        MatchSpec(format_spec("snakgame", {"type": 1 if i < files // 2 else 2}), (agent,), s, index=i)
        for i, s in enumerate(match_seeds(seed, files))
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--agents", default="exit,random,chef,greedy,editorial,champion")
    args = ap.parse_args()
    agents = [a if a.startswith("snakgame.") else f"snakgame.{a}" for a in args.agents.split(",")]
    if "snakgame.editorial" not in agents:
        agents.append("snakgame.editorial")
    specs = []
    for k, agent in enumerate(agents):
        for spec in bench_specs(agent, args.files, args.seed):
            specs.append(spec.__class__(spec.game, spec.agents, spec.seed, index=k * args.files + spec.index))
    t0 = time.perf_counter()
    results = run_many(specs, jobs=args.jobs)
    wall = time.perf_counter() - t0
    totals = {a: 0 for a in agents}
    type1 = {a: 0 for a in agents}
    secs = {a: 0.0 for a in agents}
    firsts = {a: [] for a in agents}
    for r in results:
        a = r.agents[0]
        totals[a] += r.outcome.details["score"]
        if "type=2" not in r.game:
            type1[a] += r.outcome.details["score"]
        secs[a] += r.wall_s
        firsts[a].append(r.outcome.details["first"] / max(1, r.outcome.details["mine"]))
    base = totals["snakgame.editorial"]
    print(f"{args.files} files, seed {args.seed}, {wall:.0f} s wall on {args.jobs} workers")
    print("| agent | total | type-1 part | ratio to editorial | first snake / your cells | seconds (sum) |")
    print("|---|---:|---:|---:|---:|---:|")
    for a in agents:
        share = sum(firsts[a]) / len(firsts[a])
        print(f"| {a} | {totals[a]:,} | {type1[a]:,} | {totals[a] / base:.3f} | {share:.1%} | {secs[a]:.0f} |")


if __name__ == "__main__":
    main()

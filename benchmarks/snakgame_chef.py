"""Chef's behaviour in a seeded simulation: share of frozen turns, length of his snakes.

Chef plays alone (nobody else takes cells) on 250×250 grids with cells blocked at 1/25,
for 30,000 turns (about half the free cells), as in the research notes' simulation.
Expected: frozen 25.5 / 524.5 ≈ 4.9% of turns; snakes of about 38-40 cells.

    .venv/bin/python benchmarks/snakgame_chef.py [--seeds 5] [--turns 30000]
"""

from __future__ import annotations

import argparse
import statistics

from snakelab import make


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--turns", type=int, default=30_000)
    args = ap.parse_args()
    game = make("snakgame(type=0,rows=250,cols=250)")
    print("| seed | turns | frozen | snakes | mean length | median | longest |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    all_frozen = all_turns = 0
    all_lengths: list[int] = []
    for seed in range(1, args.seeds + 1):
        s = game.new_state(seed)
        lengths: list[int] = []
        cur = 0
        for _ in range(args.turns):
            mv = s.chef_turn()
            if mv.kind == "NEW":
                if cur:
                    lengths.append(cur)
                cur = 1
            elif mv.kind == "MOVE":
                cur += 1
        all_frozen += s.chef_frozen
        all_turns += s.chef_turns
        all_lengths += lengths
        print(
            f"| {seed} | {s.chef_turns:,} | {s.chef_frozen / s.chef_turns:.2%} | {len(lengths):,} "
            f"| {statistics.mean(lengths):.1f} | {statistics.median(lengths):.0f} | {max(lengths)} |"
        )
    print(
        f"| all | {all_turns:,} | {all_frozen / all_turns:.2%} | {len(all_lengths):,} "
        f"| {statistics.mean(all_lengths):.1f} | {statistics.median(all_lengths):.0f} | {max(all_lengths)} |"
    )


if __name__ == "__main__":
    main()

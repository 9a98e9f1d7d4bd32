"""A starter bot for the snakelab arena (snAIke protocol). Copy it and make it smarter.

It needs only the Python standard library. Run it in a game with

    snakelab arena run -p examples/arena_bot.py

Each step it reads the state, finds the shortest path to an apple (breadth-first
search, avoiding snakes, zombies and cells next to a zombie's head) and prints the
first move of it; with no path it takes any free neighbour. Lines starting with
``log `` go to this bot's log file, and anything printed to standard error (a crash's
traceback, say) goes to its error file, both in the run folder.
"""

from __future__ import annotations

import itertools
import sys
from collections import deque

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
STEPS = {UP: (0, -1), DOWN: (0, 1), LEFT: (-1, 0), RIGHT: (1, 0)}


def cells_of(chain: list[str]) -> list[tuple[int, int]]:
    """Expand a coordinate chain ``x,y x,y ...`` (head, kinks, tail) into every cell."""
    pts = [tuple(int(v) for v in p.split(",")) for p in chain]
    cells = [pts[0]]
    for (ax, ay), (bx, by) in itertools.pairwise(pts):
        dx, dy = (bx > ax) - (bx < ax), (by > ay) - (by < ay)
        x, y = ax, ay
        while (x, y) != (bx, by):
            x, y = x + dx, y + dy
            cells.append((x, y))
    return cells


def read_state(num_snakes: int, obstacles: set[tuple[int, int]]) -> dict | None:
    """One state from standard input, or None at ``Game Over`` or end of input.

    Chains before the first apple line are obstacles (sent once, after the init line).
    """
    apples: list[tuple[int, int]] = []
    zombies: list[list[tuple[int, int]]] = []
    seen_apple = False
    while True:
        line = sys.stdin.readline()
        if not line or line.startswith("Game Over"):
            return None
        line = line.strip()
        if "," in line:  # a zombie (or, before any apple, an obstacle): x,y x,y ...
            (zombies.append(cells_of(line.split())) if seen_apple else obstacles.update(cells_of(line.split())))
        elif " " in line:  # an apple: x y
            seen_apple = True
            x, y = map(int, line.split())
            if x >= 0:
                apples.append((x, y))
        else:  # our own index, then one line per snake
            me = int(line)
            snakes = []
            for _ in range(num_snakes):
                parts = sys.stdin.readline().split()
                snakes.append(cells_of(parts[3:]) if parts[0] == "alive" else [])
            return {"apples": apples, "zombies": zombies, "me": me, "snakes": snakes, "obstacles": obstacles}


def choose(state: dict, width: int, height: int) -> int:
    """The first move of a shortest safe path to an apple, else any free move."""
    me = state["snakes"][state["me"]]
    head = me[0]
    blocked = {c for body in state["snakes"] for c in body} | state["obstacles"]
    for z in state["zombies"]:
        blocked.update(z)
        zx, zy = z[0]
        blocked.update((zx + dx, zy + dy) for dx, dy in STEPS.values())  # a zombie bites there next
    blocked.discard(head)

    def free(c: tuple[int, int]) -> bool:
        return 0 <= c[0] < width and 0 <= c[1] < height and c not in blocked

    first: dict[tuple[int, int], int] = {}
    queue = deque()
    for move, (dx, dy) in STEPS.items():
        c = (head[0] + dx, head[1] + dy)
        if free(c):
            first[c] = move
            queue.append(c)
    goals = set(state["apples"])
    while queue:
        c = queue.popleft()
        if c in goals:
            return first[c]
        for dx, dy in STEPS.values():
            n = (c[0] + dx, c[1] + dy)
            if free(n) and n not in first:
                first[n] = first[c]
                queue.append(n)
    return next(iter(first.values()), 5)  # any free neighbour, else straight on


def main() -> None:
    """Read the init line, then answer every state until ``Game Over``."""
    num_snakes, width, height, _mode = map(int, sys.stdin.readline().split())
    obstacles: set[tuple[int, int]] = set()
    step = 0
    while True:
        state = read_state(num_snakes, obstacles)
        if state is None:
            break
        step += 1
        move = choose(state, width, height)
        if step % 100 == 0:
            print(f"log step {step}: move {move}")
        print(move, flush=True)


if __name__ == "__main__":
    main()

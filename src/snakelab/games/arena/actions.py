"""Actions, directions and board codes of the arena, shared by the rules, the stages and the agents."""

from __future__ import annotations

from snakelab.core.grid import OPPOSITE

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
REL_LEFT, STRAIGHT, REL_RIGHT = 4, 5, 6
TIMEOUT = 7
"""No answer arrived in time: the snake goes straight; counted as a timeout."""
INVALID = 8
"""The answer did not parse as a move: the snake goes straight; counted."""
CRASH = 9
"""The agent's process exited, was killed or broke the protocol: removed for good."""
ACTIONS = tuple(range(10))
MOVES = tuple(range(7))

Action = int
"""A move 0–6 or one of :data:`TIMEOUT`, :data:`INVALID`, :data:`CRASH`."""

# Relative turns: LEFT_OF[heading] and RIGHT_OF[heading] (screen coordinates, y down).
LEFT_OF = (LEFT, RIGHT, DOWN, UP)
RIGHT_OF = (RIGHT, LEFT, UP, DOWN)
# Zombie neighbour order LEFT, RIGHT, UP, DOWN.
ZOMBIE_ORDER = (LEFT, RIGHT, UP, DOWN)

OBSTACLE = -1
"""Board code of an obstacle cell; zombie ``j`` is ``-2 - j``, snake ``i`` is ``i + 1``."""


def _turn(heading: int, move: int) -> int:
    """The absolute direction a move leads to from ``heading``."""
    if move < 4:
        return heading if move == OPPOSITE[heading] else move
    if move == REL_LEFT:
        return LEFT_OF[heading]
    if move == REL_RIGHT:
        return RIGHT_OF[heading]
    return heading


TURN = tuple(tuple(_turn(h, m) if m < 7 else h for m in ACTIONS) for h in range(4))
"""``TURN[heading][action]``: the direction taken (non-moves go straight)."""

"""Text pictures of hextris boards: a hex layout with odd rows shifted right."""

from __future__ import annotations

from collections.abc import Iterable

from snakelab.games.hextris.rules import State

EMPTY = "·"
FULL = "⬢"
UNIT = "◆"
PIVOT_EMPTY = "+"


def board_text(
    rows: list[bytearray] | list[list[int]],
    unit: Iterable[tuple[int, int]] = (),
    pivot: tuple[int, int] | None = None,
) -> str:
    """Draw board rows (1 = full), the current unit's cells and its pivot.

    Every cell is two characters wide; odd rows start one character to the right, so
    each cell sits between its two neighbours of the row above, as on the contest board.
    """
    cells = set(unit)
    lines = []
    for y, row in enumerate(rows):
        out = []
        for x, v in enumerate(row):
            if (x, y) in cells:
                out.append(UNIT)
            elif pivot == (x, y):
                out.append(PIVOT_EMPTY)
            else:
                out.append(FULL if v else EMPTY)
        lines.append((" " if y % 2 else "") + " ".join(out))
    return "\n".join(lines)


def to_text(state: State) -> str:
    """The state as text: a header line and the board with the falling unit."""
    sim = state.sim
    head = (
        f"problem {state.problem.id} seed {state.seed}  unit {sim.index}/{len(sim.sequence)}  "
        f"move score {sim.move_score}  commands {len(state.commands)}"
    )
    if sim.termination is None:
        pivot = (sim.pos[0], sim.pos[1])
        return head + "\n" + board_text(sim.board.rows, sim.cells(), pivot)
    return head + f"  [{sim.termination.value}]\n" + board_text(sim.board.rows)

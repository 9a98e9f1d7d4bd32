"""Hamiltonian cycles on walled grids.

A W×H grid graph has a Hamiltonian cycle exactly when both sides are ≥ 2 and at
least one is even: it is bipartite, so a cycle through every cell needs an even cell
count, and a boustrophedon construction exists whenever a side is even.
"""

from __future__ import annotations

from snakelab.core.grid import Grid


def has_cycle(width: int, height: int) -> bool:
    """Whether a ``width`` × ``height`` board has a Hamiltonian cycle."""
    return width >= 2 and height >= 2 and (width % 2 == 0 or height % 2 == 0)


def zigzag_cycle(grid: Grid) -> list[int] | None:
    """A Hamiltonian cycle as a list of cells in order, or None on odd×odd boards.

    With an even number of rows: row 0 left to right from column 1, the rows snake
    back and forth over columns 1..W-1, and column 0 is the way back up. With an odd
    number of rows (so an even number of columns) the same is done transposed.
    """
    w, h = grid.width, grid.height
    if not has_cycle(w, h):
        return None
    transpose = h % 2 == 1
    fw, fh = (h, w) if transpose else (w, h)
    order: list[tuple[int, int]] = [(0, 0)]
    for y in range(fh):
        xs = range(1, fw) if y % 2 == 0 else range(fw - 1, 0, -1)
        order.extend((x, y) for x in xs)
    order.extend((0, y) for y in range(fh - 1, 0, -1))
    if transpose:
        order = [(y, x) for x, y in order]
    return [grid.index(x, y) for x, y in order]


def successor_table(grid: Grid, cycle: list[int]) -> tuple[list[int], list[int]]:
    """Per cell, its position on the cycle and the direction to its successor."""
    pos = [0] * grid.size
    for i, c in enumerate(cycle):
        pos[c] = i
    direction = [0] * grid.size
    n = len(cycle)
    for i, c in enumerate(cycle):
        d = grid.direction_to(c, cycle[(i + 1) % n])
        if d < 0:
            raise ValueError("not a cycle: consecutive cells are not adjacent")
        direction[c] = d
    return pos, direction


def corner_cycle(grid: Grid) -> list[int]:
    """A Hamiltonian cycle of an odd×odd board without its corner (0, 0).

    Construction (both sides odd, ≥ 3): in columns 1..W-1 (an even number of them)
    go right along row 0 from column 2, down and up the columns W-1 .. 3 in turn,
    down column 2 from row 1, then up column 1; finally splice the cells of column 0
    in pairs (rows 2i+1, 2i+2) into the column-1 edges beside them.

    In every such cycle the cell (1, 1) lies between (0, 1) and (1, 0) — both have
    only those two neighbours left — so swapping (1, 1) for the corner gives a second
    cycle that differs in that one cell (:class:`OddBoardAgent` switches between them).

    Raises:
        ValueError: unless both sides are odd and at least 3.
    """
    w, h = grid.width, grid.height
    if w % 2 == 0 or h % 2 == 0 or w < 3 or h < 3:
        raise ValueError("corner_cycle needs an odd×odd board of at least 3×3")
    order: list[tuple[int, int]] = [(x, 0) for x in range(2, w)]
    for i, x in enumerate(range(w - 1, 2, -1)):
        ys = range(1, h) if i % 2 == 0 else range(h - 1, 0, -1)
        order.extend((x, y) for y in ys)
    order.extend((2, y) for y in range(1, h))
    for y in range(h - 1, -1, -1):
        order.append((1, y))
        if y % 2 == 0 and y > 0:
            order.extend([(0, y), (0, y - 1)])
    return [grid.index(x, y) for x, y in order]

"""Build arena positions from ASCII pictures.

Cells: ``.`` empty, ``#`` obstacle, ``*`` apple; snake i has its head drawn as the
digit ``i`` and its body as the i-th lower-case letter (``a`` for snake 0); zombie j
has its head as the j-th capital from ``Z`` backwards (``Z``, ``Y``...) and its body
as the same letter in lower case. Bodies are followed from the head through
adjacent cells of the same letter, so draw them without touching themselves.
"""

from snakelab import make

ZLETTERS = "ZYXW"


def board(picture, *, snakes=2, zombies=0, apples=None, growth=None, **params):
    rows = [r.split() if " " in r.strip() else list(r.strip()) for r in picture.strip().splitlines()]
    h, w = len(rows), len(rows[0])
    apple_cells = [(x, y) for y in range(h) for x in range(w) if rows[y][x] == "*"]
    n_apples = len(apple_cells) if apples is None else apples
    params.setdefault("starting_length", 2)
    spec = ",".join(f"{k}={v}" for k, v in params.items())
    game = make(
        f"arena(game_width={w},game_height={h},num_snakes={snakes},num_zombies={zombies},"
        f"num_apples={n_apples}{',' + spec if spec else ''})"
    )
    s = game.blank_state(7)
    g = s.grid

    def trace(head_char, body_char):
        head = next((x, y) for y in range(h) for x in range(w) if rows[y][x] == head_char)
        cells = [head]
        while True:
            x, y = cells[-1]
            nxt = [
                (x + dx, y + dy)
                for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= x + dx < w
                and 0 <= y + dy < h
                and rows[y + dy][x + dx] == body_char
                and (x + dx, y + dy) not in cells
            ]
            if not nxt:
                return [g.index(cx, cy) for cx, cy in cells]
            cells.append(nxt[0])

    for i in range(snakes):
        cells = trace(str(i), "abcdefghij"[i])
        s.bodies[i].extend(reversed(cells))
        for c in cells:
            s.occ[c] = i + 1
        s.heading[i] = g.direction_to(cells[1], cells[0]) if len(cells) > 1 else 0
        s.alive[i] = True
        s.longest[i] = len(cells)
        if growth:
            s.growth[i] = growth.get(i, 0)
    for j in range(zombies):
        cells = trace(ZLETTERS[j], ZLETTERS[j].lower())
        from collections import deque

        s.zombies.append(deque(reversed(cells)))
        for c in cells:
            s.occ[c] = -2 - j
    for y in range(h):
        for x in range(w):
            if rows[y][x] == "#":
                s.occ[g.index(x, y)] = -1
    s.obstacles = []
    for k, (x, y) in enumerate(apple_cells):
        s.apples[k] = g.index(x, y)
    return s


def picture(s):
    """The state drawn back in the same notation (apples included)."""
    g = s.grid
    rows = [["."] * g.width for _ in range(g.height)]
    for c in range(g.size):
        v = s.occ[c]
        x, y = g.xy(c)
        if v > 0:
            rows[y][x] = "abcdefghij"[v - 1]
        elif v == -1:
            rows[y][x] = "#"
        elif v < -1:
            rows[y][x] = ZLETTERS[-2 - v].lower()
    for i, b in enumerate(s.bodies):
        if b:
            x, y = g.xy(b[-1])
            rows[y][x] = str(i)
    for j, z in enumerate(s.zombies):
        x, y = g.xy(z[-1])
        rows[y][x] = ZLETTERS[j]
    for a in s.apples:
        if a >= 0:
            x, y = g.xy(a)
            rows[y][x] = "*"
    return "\n".join("".join(r) for r in rows)

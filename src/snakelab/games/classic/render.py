"""Terminal drawings of a classic state (plain text and colour)."""

from __future__ import annotations

from rich.text import Text

from snakelab.games.classic.rules import State

_HEAD = {0: "^", 1: "v", 2: "<", 3: ">", -1: "@"}


def to_text(state: State) -> str:
    """A plain-text picture: ``#`` walls, ``o`` body, a head arrow, ``*`` the apple."""
    return to_rich(state).plain


def to_rich(state: State) -> Text:
    """A colour picture for rich consoles, with a status line below the board."""
    g = state.grid
    out = Text()
    out.append("+" + "--" * g.width + "+\n", style="grey50")
    order = {c: i for i, c in enumerate(state.body)}
    n = max(1, len(state.body) - 1)
    for y in range(g.height):
        out.append("|", style="grey50")
        for x in range(g.width):
            c = g.index(x, y)
            if c == state.head:
                out.append(_HEAD[state.heading] + " ", style="bold bright_yellow")
            elif c in order:
                # Shade the body from tail (dark) to neck (bright) so its order reads at a glance.
                shade = "green" if order[c] * 2 < n else "bright_green"
                out.append("o ", style=shade)
            elif c == state.apple:
                out.append("* ", style="bold red")
            else:
                out.append(". ", style="grey23")
        out.append("|\n", style="grey50")
    out.append("+" + "--" * g.width + "+\n", style="grey50")
    status = f"step {state.steps}  length {len(state.body)}/{g.size}  apples {state.apples}"
    if state.termination is not None:
        status += f"  [{state.termination.name}]"
    out.append(status)
    return out

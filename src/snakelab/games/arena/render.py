"""Terminal drawings of an arena state (plain text and colour)."""

from __future__ import annotations

from rich.text import Text

from snakelab.games.arena.rules import OBSTACLE, State

SNAKE_STYLES = ("bright_green", "bright_cyan", "bright_yellow", "bright_magenta", "bright_blue", "orange1")
_HEAD = "^v<>"


def to_text(state: State) -> str:
    """A plain-text picture: digits for heads, letters for bodies, ``Z`` zombies, ``*`` apples."""
    return to_rich(state).plain


def to_rich(state: State) -> Text:
    """A colour picture for rich consoles, with one status line per snake below the board."""
    g = state.grid
    occ, bodies = state.occ, state.bodies
    heads = {b[-1]: i for i, b in enumerate(bodies) if b}
    zheads = {z[-1] for z in state.zombies}
    apples = set(state.apples)
    out = Text()
    out.append("+" + "-" * g.width + "+\n", style="grey50")
    for y in range(g.height):
        out.append("|", style="grey50")
        for x in range(g.width):
            c = y * g.width + x
            v = occ[c]
            if v > 0:
                i = v - 1
                style = SNAKE_STYLES[i % len(SNAKE_STYLES)]
                if heads.get(c) == i:
                    out.append(str(i % 10), style="bold reverse " + style)
                else:
                    out.append("abcdefghijklmnopqrstuvwxyz"[i % 26], style=style)
            elif v == OBSTACLE:
                out.append("#", style="white")
            elif v < 0:
                out.append("Z" if c in zheads else "z", style="bold red" if c in zheads else "red")
            elif c in apples:
                out.append("*", style="bold bright_red")
            else:
                out.append(" ")
        out.append("|\n", style="grey50")
    out.append("+" + "-" * g.width + "+\n", style="grey50")
    out.append(f"step {state.steps}/{state.config.steps}")
    if state.termination is not None:
        out.append(f"  [{state.termination.name}]", style="bold")
    for i in range(len(bodies)):
        status = "alive" if state.alive[i] else ("crashed" if not state.running[i] else "dead")
        out.append(
            f"\n{i} {status:7} length {len(bodies[i]):3}  longest {state.longest[i]:3}  "
            f"kills {state.kills[i]:2}  deaths {state.deaths[i]:2}",
            style=SNAKE_STYLES[i % len(SNAKE_STYLES)],
        )
    return out

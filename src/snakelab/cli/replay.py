"""``snakelab replay``: show and verify replay files of any game."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from snakelab.cli.common import console, err_console, fail
from snakelab.core.errors import IllegalActionError, ReplayMismatchError, SnakelabError

NAME = "replay"
app = typer.Typer(help="Show or verify replay files (JSON lines) of any game.", no_args_is_help=True)


@app.command("verify")
def verify_cmd(file: Path = typer.Argument(..., help="Replay file to re-simulate.")) -> None:
    """Re-simulate a replay and check every step.

    Exit status: 0 when every step matches; 1 on a mismatch (a step, event, state or
    outcome that differs, or a recorded action the rules refuse); 2 when the file cannot
    be read as a replay (missing, unreadable, malformed, truncated, or of a game this
    snakelab does not know), so a script can tell a bad replay from a missing file.
    """
    from snakelab.core.replay import verify

    try:
        n = verify(file)
    except (ReplayMismatchError, IllegalActionError) as exc:
        fail(f"{file}: {exc}" if str(file) not in str(exc) else str(exc), code=1)
    except SnakelabError as exc:
        fail(f"{file}: {exc}" if str(file) not in str(exc) else str(exc), code=2)
    console.print(f"{file}: OK, {n} steps verified")


@app.command("show")
def show_cmd(
    file: Path = typer.Argument(..., help="Replay file."),
    step: int | None = typer.Option(None, "--step", "-s", help="Show only this step and exit."),
    play: bool = typer.Option(False, "--play", help="Animate the whole replay instead of stepping."),
    speed: float = typer.Option(10.0, "--speed", min=0.0, help="Frames per second for --play; 0 shows only the end."),
) -> None:
    """Step through a replay in the terminal.

    Interactive keys (then Enter): nothing or ``n`` next, ``b`` back, a number jumps to
    that step, ``e`` the end, ``q`` quits. Without a terminal the final state is shown.
    A truncated file (a crashed or killed run) is shown up to its last complete step.
    """
    from snakelab.core.registry import game_entry
    from snakelab.core.replay import read_replay, states

    try:
        rep = read_replay(file, allow_truncated=True)
        entry = game_entry(rep.game)
        if entry.render is None:
            fail(f"{rep.game} has no terminal renderer")
        frames = [(s.clone(), list(ev)) for s, ev in states(rep)]
    except SnakelabError as exc:
        fail(str(exc))
    render = entry.render
    last = len(frames) - 1
    if rep.truncated:
        err_console.print(
            f"[yellow]note:[/] {file} is truncated (no outcome line): showing its {last} complete step(s)"
        )

    def show(i: int) -> None:
        state, events = frames[i]
        console.print(render(state))
        ev = ", ".join(e.kind for e in events)
        cut = " (truncated here)" if rep.truncated and i == last else ""
        console.print(f"[bold]step {i}/{last}{cut}[/]" + (f"  events: {ev}" if ev else ""))

    if step is not None:
        if not 0 <= step <= last:
            fail(f"step {step} is out of range 0..{last}")
        show(step)
        return
    if not console.is_terminal or (play and speed == 0):
        show(last)
        return
    if play:
        for i in range(len(frames)):
            console.clear()
            show(i)
            time.sleep(1.0 / speed)
        return
    i = 0
    while True:
        console.clear()
        show(i)
        try:
            key = input("[Enter/n] next  [b] back  [NUMBER] jump  [e] end  [q] quit > ").strip().lower()
        except EOFError:
            return
        if key == "q":
            return
        if key == "b":
            i = max(0, i - 1)
        elif key == "e":
            i = last
        elif key.isdigit():
            i = min(last, int(key))
        else:
            i = min(last, i + 1)

"""The conformance kit every registered game passes: :func:`check_game`.

It plays random games and checks, at every step, that:

* ``to_move`` is empty exactly when the game is over, and legal action lists are
  non-empty for every mover;
* every candidate action outside the legal list is rejected with
  ``IllegalActionError`` and leaves the state unchanged (JSON equal);
* a clone is independent of the original in both directions;
* the state's JSON round-trips through ``Game.state_from_json`` and the restored
  state plays on identically (randomness included);
* the same seed and actions reproduce the same game exactly;
* a recorded replay verifies, and a tampered one does not.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from snakelab.core.errors import IllegalActionError, ReplayMismatchError
from snakelab.core.game import Game, State
from snakelab.core.replay import ReplayWriter, read_replay, verify


class ConformanceError(AssertionError):
    """A game broke one of the contracts checked by :func:`check_game`."""


def _random_actions(game: Game, state: State, rng: random.Random) -> list[Any]:
    n = game.info.num_players
    acts: list[Any] = [None] * n
    for p in state.to_move():
        legal = state.legal_actions(p)
        if len(legal) == 0:
            raise ConformanceError(f"player {p} is to move but has no legal action")
        acts[p] = legal[rng.randrange(len(legal))]
    return acts


def _snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _playout(game: Game, seed: int, action_seed: int, max_steps: int) -> tuple[list[list[Any]], list[str]]:
    rng = random.Random(action_seed)
    state = game.new_state(seed)
    history: list[list[Any]] = []
    snaps = [_snapshot(state)]
    while not state.is_over() and len(history) < max_steps:
        acts = _random_actions(game, state, rng)
        state.apply(acts)
        history.append(acts)
        snaps.append(_snapshot(state))
    return history, snaps


def check_game(game: Game, *, playouts: int = 5, max_steps: int = 300, seed: int = 0) -> None:
    """Run the conformance checks on ``game``; raise :class:`ConformanceError` on failure.

    Args:
        game: The configured game under test.
        playouts: Number of random games to play.
        max_steps: Steps per random game at most (long games are cut short).
        seed: Seeds the game seeds and the random players.
    """
    rng = random.Random(seed)
    info = game.info
    for k in range(playouts):
        gseed = rng.randrange(2**31)
        aseed = rng.randrange(2**31)
        history, snaps = _playout(game, gseed, aseed, max_steps)
        # Determinism: the same seed and actions give the same states.
        again = game.new_state(gseed)
        if _snapshot(again) != snaps[0]:
            raise ConformanceError(f"{info.name}: seed {gseed} gives two different initial states")
        for t, acts in enumerate(history):
            _check_step(game, again, acts, t, gseed)
            again.apply(acts)
            if _snapshot(again) != snaps[t + 1]:
                raise ConformanceError(f"{info.name}: seed {gseed}, step {t + 1}: replaying the actions diverges")
        if again.is_over():
            if again.to_move():
                raise ConformanceError(f"{info.name}: game over but to_move() = {again.to_move()}")
            out = again.outcome()
            if len(out.scores) != info.num_players:
                raise ConformanceError(f"{info.name}: outcome has {len(out.scores)} scores for {info.num_players}")
            json.dumps(out.to_json())
        elif not again.to_move():
            raise ConformanceError(f"{info.name}: nobody to move but the game is not over")
        if k == 0:
            _check_replay(game, gseed, history)


def _check_step(game: Game, state: State, acts: Sequence[Any], t: int, gseed: int) -> None:
    name = game.info.name
    where = f"{name}: seed {gseed}, step {t + 1}"
    before = _snapshot(state)
    # Illegal actions are rejected and leave the state untouched.
    for p in state.to_move():
        legal = list(state.legal_actions(p))
        for cand in game.candidate_actions(state, p):
            is_legal = cand in legal
            if state.is_legal(p, cand) != is_legal:
                raise ConformanceError(f"{where}: is_legal({cand!r}) disagrees with legal_actions")
            if is_legal:
                continue
            trial = list(acts)
            trial[p] = cand
            try:
                state.apply(trial)
            except IllegalActionError:
                pass
            else:
                raise ConformanceError(f"{where}: illegal action {cand!r} for player {p} was accepted")
            if _snapshot(state) != before:
                raise ConformanceError(f"{where}: a rejected action {cand!r} changed the state")
    # Clones are independent both ways.
    twin = state.clone()
    twin.apply(list(acts))
    if _snapshot(state) != before:
        raise ConformanceError(f"{where}: applying to a clone changed the original")
    twin2 = state.clone()
    state_copy_json = _snapshot(twin2)
    # JSON round trip, and the restored state plays on identically.
    restored = game.state_from_json(json.loads(json.dumps(state.to_json())))
    if _snapshot(restored) != before:
        raise ConformanceError(f"{where}: state JSON does not round-trip")
    ev_a = [e.to_json() for e in restored.apply(list(acts))]
    ev_b = [e.to_json() for e in twin2.apply(list(acts))]
    if ev_a != ev_b or _snapshot(restored) != _snapshot(twin2):
        raise ConformanceError(f"{where}: a state restored from JSON plays on differently")
    if _snapshot(state) != before or state_copy_json != before:
        raise ConformanceError(f"{where}: the original changed while its clone played")


def _check_replay(game: Game, gseed: int, history: list[list[Any]]) -> None:
    name = game.info.name
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.jsonl"
        state = game.new_state(gseed)
        w = ReplayWriter(path, game, gseed, ["random"] * game.info.num_players, state_every=1)
        w.start(state)
        for acts in history:
            ev = state.apply(acts)
            w.step(acts, ev, state)
        if not state.is_over():
            w.close()
            return  # a cut-short playout has no outcome to record
        w.finish(state.outcome())
        verify(path)
        rep = read_replay(path)
        if rep.steps and rep.steps[-1].state is not None:
            tampered = dict(rep.steps[-1].state)
            key = next(iter(tampered))
            tampered[key] = "tampered"
            rep.steps[-1].state = tampered
            try:
                verify(rep)
            except ReplayMismatchError:
                return
            raise ConformanceError(f"{name}: a tampered replay still verifies")

"""The one match loop for every game.

``play`` asks the state who moves, collects one action per mover (all alive players
at once for simultaneous games), applies them and records. Games never run their
own loops and agents never see this one.

The loop is kept lean on purpose: the single-player path without recording costs
one ``observe``, one ``act`` and one ``apply`` per step, which is what lets a fast
engine plus a table-driven agent run at several hundred thousand steps per second.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from snakelab.core.errors import IllegalActionError, SnakelabError
from snakelab.core.game import JSON, Agent, Budget, Event, Game, Outcome, State
from snakelab.core.registry import make, make_agent
from snakelab.core.replay import ReplayWriter
from snakelab.core.rng import derive_seed


@dataclass(frozen=True)
class MatchSpec:
    """A picklable description of one match; workers rebuild everything from it.

    Attributes:
        game: Game string, e.g. ``"classic(width=12,height=12)"``.
        agents: Agent names, one per player, e.g. ``("classic.hamilton",)``.
        seed: The match seed (games and agents derive their randomness from it).
        budget: Per-decision budget handed to every agent.
        replay: Path of a replay file to write, or None.
        state_every: Replay state frequency (see :class:`ReplayWriter`).
        measure: Record per-agent decision times (costs two clock reads per move).
        index: Position of this match in its run (for ordering results).
    """

    game: str
    agents: tuple[str, ...]
    seed: int
    budget: Budget | None = None
    replay: str | None = None
    state_every: int = 1
    measure: bool = False
    index: int = 0


@dataclass
class MatchResult:
    """What a match produced.

    Attributes:
        game: Canonical game string.
        agents: Agent names, one per player.
        seed: The match seed.
        outcome: How the game ended.
        steps: Steps played.
        wall_s: Wall-clock seconds for the whole match.
        move_times: Per player, the decision times in seconds (when measured).
        notices: Remarks from agents (e.g. a fallback policy was used).
        index: Position in the run.
    """

    game: str
    agents: tuple[str, ...]
    seed: int
    outcome: Outcome
    steps: int
    wall_s: float
    move_times: list[list[float]] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    index: int = 0

    def to_json(self) -> dict[str, JSON]:
        """A JSON summary (move times reduced to mean, p99 and max in ms)."""
        timing: list[dict[str, float] | None] = []
        for times in self.move_times:
            if times:
                s = sorted(times)
                timing.append(
                    {
                        "mean_ms": 1e3 * sum(s) / len(s),
                        "p99_ms": 1e3 * s[min(len(s) - 1, int(0.99 * len(s)))],
                        "max_ms": 1e3 * s[-1],
                    }
                )
            else:
                timing.append(None)
        return {
            "game": self.game,
            "agents": list(self.agents),
            "seed": self.seed,
            "outcome": self.outcome.to_json(),
            "steps": self.steps,
            "wall_s": self.wall_s,
            "move_timing": timing,
            "notices": self.notices,
            "index": self.index,
        }


def play(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    *,
    agent_names: Sequence[str] | None = None,
    budget: Budget | None = None,
    replay: str | os.PathLike[str] | None = None,
    state_every: int = 1,
    measure: bool = False,
    max_steps: int | None = None,
    on_step: Callable[[State, Sequence[Event]], None] | None = None,
) -> MatchResult:
    """Play one match to the end.

    Args:
        game: The configured game.
        agents: One agent per player, in seat order.
        seed: Match seed; agent ``i`` is reset with ``derive_seed(seed, "agent", i)``.
        agent_names: Names recorded in the result and replay (defaults to class names).
        budget: Handed to every ``act`` call.
        replay: Write a replay to this path.
        state_every: Replay state frequency.
        measure: Record every decision's wall time per player.
        max_steps: Stop after this many steps even if the game is not over (the
            result's outcome then is the state's outcome if over, else an
            ``"UNFINISHED"`` outcome).
        on_step: Called with the state and events after every step (live views);
            also called once with the initial state and no events.

    Raises:
        SnakelabError: if an agent returns an illegal action (naming the agent,
            player and step) or the game raises; agents are closed either way.
    """
    info = game.info
    if len(agents) != info.num_players:
        raise SnakelabError(f"{info.name} needs {info.num_players} agent(s), got {len(agents)}")
    names = tuple(agent_names or [type(a).__name__ for a in agents])
    t0 = time.perf_counter()
    state = game.new_state(seed)
    writer = ReplayWriter(replay, game, seed, names, state_every=state_every) if replay is not None else None
    move_times: list[list[float]] = [[] for _ in agents]
    steps = 0
    try:
        for i, agent in enumerate(agents):
            agent.reset(info, i, derive_seed(seed, "agent", i))
        if writer is not None:
            writer.start(state)
        limit = max_steps if max_steps is not None else -1
        if on_step is not None:
            on_step(state, ())
        if info.num_players == 1 and writer is None and not measure and on_step is None:
            # Fast path: nothing to record, one player.
            act = agents[0].act
            observe = state.observe
            apply = state.apply
            is_over = state.is_over
            while not is_over() and steps != limit:
                apply((act(observe(0), budget),))
                steps += 1
        else:
            n = info.num_players
            clock = time.perf_counter
            while steps != limit:
                movers = state.to_move()
                if not movers:
                    break
                actions: list[Any] = [None] * n
                for p in movers:
                    if measure:
                        ts = clock()
                        actions[p] = agents[p].act(state.observe(p), budget)
                        move_times[p].append(clock() - ts)
                    else:
                        actions[p] = agents[p].act(state.observe(p), budget)
                events = state.apply(actions)
                steps += 1
                if writer is not None:
                    writer.step(actions, events, state)
                if on_step is not None:
                    on_step(state, events)
        if state.is_over():
            outcome = state.outcome()
        else:
            outcome = Outcome("UNFINISHED", tuple(0.0 for _ in agents), None, {"steps": steps})
        if writer is not None:
            writer.finish(outcome)
    except IllegalActionError as exc:
        who = ", ".join(f"player {p} ({names[p]})" for p in range(len(names)))
        raise SnakelabError(f"{info.name}, seed {seed}, step {steps + 1}: {exc} [agents: {who}]") from exc
    finally:
        if writer is not None:
            writer.close()
        for agent in agents:
            agent.close()
    del info  # unused after this point
    notices = [n for n in (getattr(a, "notice", None) for a in agents) if n]
    return MatchResult(
        game=game.info.name,
        agents=names,
        seed=seed,
        outcome=outcome,
        steps=steps,
        wall_s=time.perf_counter() - t0,
        move_times=move_times if measure else [],
        notices=notices,
    )


def run_match(spec: MatchSpec) -> MatchResult:
    """Build the game and agents named by ``spec`` and play the match (for workers)."""
    game = make(spec.game)
    agents = [make_agent(a) for a in spec.agents]
    result = play(
        game,
        agents,
        spec.seed,
        agent_names=spec.agents,
        budget=spec.budget,
        replay=spec.replay,
        state_every=spec.state_every,
        measure=spec.measure,
    )
    result.index = spec.index
    return result

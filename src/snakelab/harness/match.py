"""The one match driver for every game: :class:`Match`, and :func:`play` that runs it.

A :class:`Match` owns one game in progress: it resets the agents (agent ``i`` with
``derive_seed(seed, "agent", i)``), asks the state who moves, gets one action per mover
(from the seat's agent, or fed from outside for a human seat or an external program),
applies them, times the decisions, records the replay and calls ``on_step``. Games
never run their own loops and agents never see this one. Every caller that plays a
game goes through it:

* **Batch** (:func:`play`, benches, tournaments, golden files): ``Match(...).run()``
  plays to the end. With one player, an agent in the seat and nothing to record,
  measure or report, :meth:`Match.run` takes a fast path that costs one ``observe``,
  one ``act`` and one ``apply`` per step, which is what lets a fast engine plus a
  table-driven agent run at about a million steps per second.

* **The live web view** (``web/live.py``: async, human seats, pause and single-step,
  agents in a worker thread) drives it one step at a time. Human seats are ``None`` in
  ``agents``; after :meth:`Match.start` the session loops::

      while not match.over:
          await pace()                      # pause / step / speed are the caller's
          for p in match.waiting():         # movers without an action yet
              if match.external(p):         # a human seat: wait for a legal key
                  match.feed(p, await human_action(match.state, p))
              else:                         # an agent: think off the event loop
                  await asyncio.to_thread(match.decide, p)
          try:
              events = match.step()
          except IllegalActionError as exc:  # humans were checked with is_legal,
              raise match.blame(exc, agents_only=True) from exc  # so an agent erred
          send(frame(match.state, events, match.last_actions))
      result = match.finish()               # outcome line, agents closed, notices

  A stopped game calls :meth:`Match.close` instead (the replay is left truncated;
  the session may delete it: :attr:`Match.replay_path`). Pausing is simply not
  calling :meth:`~Match.step`: a Match does nothing between calls, holds no thread
  and never blocks except inside an agent's ``act``.

* **The snakgame judge** (``harness/snakgame_judge.py``) plays a program over a pipe
  as the one external seat; Chef is the game (``State.apply`` plays your move, then his
  reply). It passes its own state (the file's grid) and, for the statement's scripted
  examples, its own step function::

      match = Match(game, [None], seed, agent_names=[name], replay=None if replies else replay,
                    own=OwnRules(st, None if replies is None else scripted_step))
      match.start()
      while True:
          move = read_move()                # parse errors -> ILLEGAL
          if match.over:                    # Chef filled the grid: only EXIT may follow
              break
          match.feed(0, move)
          try:
              events = match.step()         # your move, then Chef's
          except IllegalActionError as exc: # state unchanged -> ILLEGAL verdict
              ...
          send(chef_move_from(events) or "EXIT")
      match.finish() if match.over else match.close()

  where ``scripted_step(st, actions)`` is ``st.play_mine(actions[0])`` plus
  ``st.chef_reply(next_scripted_reply)``. Because the same driver records the replay,
  a judged game, a live game and a batch game with the same game, seed and moves
  write the same replay (``tests/harness/test_replay_equality.py``).

The driver is kept lean on purpose (see the fast path above); everything a step-wise
caller needs beyond it (pacing, input, verdicts) stays with that caller.

Why one module over 400 lines: it is the one game loop; its batch runner, its step-wise
driver for the live view and the judge, and the result they share are one contract, and
every caller must see the same one.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from snakelab.core.errors import GameOverError, IllegalActionError, SnakelabError
from snakelab.core.game import JSON, Agent, Budget, Event, Game, Outcome, State
from snakelab.core.registry import make, make_agent
from snakelab.core.replay import ReplayWriter
from snakelab.core.rng import derive_seed

OnStep = Callable[[State, Sequence[Event]], None]
"""A per-step hook: the state after the step and the step's events."""

StepFunction = Callable[[State, list[Any]], Sequence[Event]]
"""Applies one step's actions to a state (``State.apply`` unless a caller imposes its own)."""


@dataclass(frozen=True)
class OwnRules:
    """A start and a step function of the caller's own, for a :class:`Match` that judges a program.

    Attributes:
        state: Start from this state instead of ``game.new_state(seed)`` (a judge's
            fixed grid); the replay header still names ``seed``.
        apply: Apply a step's actions with this function instead of ``State.apply``
            (a judge imposing scripted replies). It must raise ``IllegalActionError``
            with the state unchanged, as ``apply`` does.
    """

    state: State | None = None
    apply: StepFunction | None = None


_UNSET: Any = object()  # "no action yet" (None is a valid action slot: a player not acting)


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


class Match:
    """One game in progress, driven step by step (see the module docstring for the callers).

    Args:
        game: The configured game.
        agents: One per player, in seat order; ``None`` marks an external seat whose
            actions are fed with :meth:`feed` (a person, a program over a pipe).
        seed: Match seed; the state is ``game.new_state(seed)`` and agent ``i`` is
            reset with ``derive_seed(seed, "agent", i)``.
        agent_names: Names recorded in the result and replay (defaults to class names,
            ``"external"`` for external seats).
        budget: Handed to every ``act`` call.
        replay: Write a replay to this path.
        state_every: Replay state frequency (see :class:`ReplayWriter`).
        measure: Record every decision's time per player (agents' ``act`` wall time;
            for external seats, what :meth:`feed` is told).
        on_step: Called with the state and events after every step; also once with
            the initial state and no events, by :meth:`start`.
        own: A start or a step function of the caller's own (:class:`OwnRules`).

    Raises:
        SnakelabError: if the number of agents is not the game's number of players.

    Attributes:
        state: The state being played (agents and callers treat it as read-only).
        steps: Steps applied so far.
        last_actions: The actions of the last :meth:`step`, indexed by player.
        move_times: Per player, the decision times in seconds (when measured).
    """

    def __init__(
        self,
        game: Game,
        agents: Sequence[Agent | None],
        seed: int,
        *,
        agent_names: Sequence[str] | None = None,
        budget: Budget | None = None,
        replay: str | os.PathLike[str] | None = None,
        state_every: int = 1,
        measure: bool = False,
        on_step: OnStep | None = None,
        own: OwnRules = OwnRules(),
    ) -> None:
        info = game.info
        if len(agents) != info.num_players:
            raise SnakelabError(f"{info.name} needs {info.num_players} agent(s), got {len(agents)}")
        self._t0 = time.perf_counter()
        self.game = game
        self.info = info
        self.agents = list(agents)
        self.seed = seed
        self.names: tuple[str, ...] = tuple(
            agent_names or ["external" if a is None else type(a).__name__ for a in agents]
        )
        self.budget = budget
        self.measure = measure
        self.on_step = on_step
        self.state: State = own.state if own.state is not None else game.new_state(seed)
        self._apply = own.apply
        self.replay_path = None if replay is None else os.fspath(replay)
        self._state_every = state_every
        self._writer: ReplayWriter | None = None
        self.steps = 0
        self.last_actions: list[Any] = []
        self.move_times: list[list[float]] = [[] for _ in agents]
        self._pending: list[Any] = [_UNSET] * info.num_players
        self._movers: tuple[int, ...] | None = None
        self._started = False
        self._closed = False

    # -- life cycle -----------------------------------------------------------------
    def start(self) -> None:
        """Reset the agents, write the replay header and call ``on_step`` once (idempotent).

        :meth:`step` and :meth:`run` start the match themselves when needed.
        """
        if self._started:
            return
        if self._closed:
            raise SnakelabError("this match is closed")
        self._started = True
        if self.replay_path is not None:
            self._writer = ReplayWriter(
                self.replay_path, self.game, self.seed, self.names, state_every=self._state_every
            )
        for i, agent in enumerate(self.agents):
            if agent is not None:
                agent.reset(self.info, i, derive_seed(self.seed, "agent", i))
        if self._writer is not None:
            self._writer.start(self.state)
        if self.on_step is not None:
            self.on_step(self.state, ())

    def finish(self) -> MatchResult:
        """End the match: write the replay's outcome line, close the agents, return the result.

        A game stopped before its end (``max_steps``) gets an ``"UNFINISHED"`` outcome.
        """
        self.start()
        if self.state.is_over():
            outcome = self.state.outcome()
        else:
            outcome = Outcome("UNFINISHED", tuple(0.0 for _ in self.agents), None, {"steps": self.steps})
        if self._writer is not None:
            self._writer.finish(outcome)
        self.close()
        return MatchResult(
            game=self.info.name,
            agents=self.names,
            seed=self.seed,
            outcome=outcome,
            steps=self.steps,
            wall_s=time.perf_counter() - self._t0,
            move_times=self.move_times if self.measure else [],
            notices=self.notices(),
        )

    def close(self) -> None:
        """Close the replay (left truncated unless :meth:`finish` ran) and every agent; idempotent.

        Every agent is closed even if closing one raises (an external program's seat
        must not outlive a neighbour's failure); the first error is raised afterwards.
        """
        if self._closed:
            return
        self._closed = True
        error: BaseException | None = None
        if self._writer is not None:
            try:
                self._writer.close()
            except Exception as exc:
                error = exc
        for agent in self.agents:
            if agent is not None:
                try:
                    agent.close()
                except Exception as exc:
                    error = error or exc
        if error is not None:
            raise error

    def __enter__(self) -> Match:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def notices(self) -> list[str]:
        """Remarks from the agents (e.g. a fallback policy was used)."""
        return [str(n) for n in (getattr(a, "notice", None) for a in self.agents if a is not None) if n]

    # -- one step ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.state.is_over()

    def movers(self) -> tuple[int, ...]:
        """The players acting in the coming step (empty once the game is over)."""
        if self._movers is None:
            self._movers = tuple(self.state.to_move())
        return self._movers

    def waiting(self) -> list[int]:
        """The movers of the coming step that have no action yet."""
        return [p for p in self.movers() if self._pending[p] is _UNSET]

    def external(self, player: int) -> bool:
        """Whether ``player``'s actions come from outside (:meth:`feed`) rather than an agent."""
        return self.agents[player] is None

    def _check_mover(self, player: int) -> None:
        if player not in self.movers():
            if not self.movers():
                raise GameOverError(f"{self.info.name}: the game is over; no more actions")
            raise SnakelabError(f"player {player} does not move in step {self.steps + 1}")

    def decide(self, player: int) -> Any:
        """Ask ``player``'s agent for its action in the coming step, keep it and return it.

        Safe to call from a worker thread while the caller waits (nothing else may use
        the match meanwhile).

        Raises:
            SnakelabError: if the seat is external or the player does not move now.
        """
        self.start()
        self._check_mover(player)
        agent = self.agents[player]
        if agent is None:
            raise SnakelabError(f"player {player} ({self.names[player]}) is an external seat: feed its action")
        if self.measure:
            ts = time.perf_counter()
            action = agent.act(self.state.observe(player), self.budget)
            self.move_times[player].append(time.perf_counter() - ts)
        else:
            action = agent.act(self.state.observe(player), self.budget)
        self._pending[player] = action
        return action

    def feed(self, player: int, action: Any, *, seconds: float | None = None) -> None:
        """Set ``player``'s action for the coming step (an external seat, or overriding an agent).

        The action is not checked here: :meth:`step` applies it under the rules.

        Args:
            player: A mover of the coming step.
            action: The action.
            seconds: The time the decision took, recorded when measuring.
        """
        self.start()
        self._check_mover(player)
        self._pending[player] = action
        if self.measure and seconds is not None:
            self.move_times[player].append(seconds)

    def step(self) -> Sequence[Event]:
        """Apply one step: agents without an action decide now, then the actions apply.

        Returns:
            The step's events.

        Raises:
            SnakelabError: if an external mover has not been fed, or the game is over.
            IllegalActionError: if the rules refuse the actions; the state is unchanged
                and the actions stay set, so a caller may feed a corrected one
                (:meth:`blame` makes the usual message naming match, step and agents).
        """
        self.start()
        movers = self.movers()
        if not movers:
            raise GameOverError(f"{self.info.name}: the game is over; no more steps")
        pending = self._pending
        for p in movers:
            if pending[p] is _UNSET:
                if self.agents[p] is None:
                    raise SnakelabError(
                        f"player {p} ({self.names[p]}) is an external seat and has no action for step {self.steps + 1}"
                    )
                self.decide(p)
        actions: list[Any] = [None] * self.info.num_players
        for p in movers:
            actions[p] = pending[p]
        events = self.state.apply(actions) if self._apply is None else self._apply(self.state, actions)
        self.steps += 1
        self.last_actions = actions
        self._pending = [_UNSET] * self.info.num_players
        self._movers = None
        if self._writer is not None:
            self._writer.step(actions, events, self.state)
        if self.on_step is not None:
            self.on_step(self.state, events)
        return events

    def blame(self, exc: IllegalActionError, *, agents_only: bool = False) -> SnakelabError:
        """The error to report for refused actions: match, seed, step, why, and who played.

        Args:
            exc: What the rules said.
            agents_only: Name only the movers played by agents (external actions were
                checked by their caller).
        """
        if agents_only:
            seats = [p for p in (self._movers or range(len(self.names))) if self.agents[p] is not None]
        else:
            seats = list(range(len(self.names)))
        who = ", ".join(f"player {p} ({self.names[p]})" for p in seats)
        return SnakelabError(f"{self.info.name}, seed {self.seed}, step {self.steps + 1}: {exc} [agents: {who}]")

    # -- to the end -------------------------------------------------------------------
    def run(self, max_steps: int | None = None) -> int:
        """Play until the game ends or ``max_steps`` more steps are played; return the steps played.

        Every seat that moves must have an agent (external seats are driven with
        :meth:`step`). Calling ``run(k)`` repeatedly plays a game in slices.
        """
        self.start()
        limit = max_steps if max_steps is not None else -1
        agent = self.agents[0]
        if (
            self.info.num_players == 1
            and agent is not None
            and self._writer is None
            and not self.measure
            and self.on_step is None
            and self._apply is None
            and self._pending[0] is _UNSET
        ):
            # Fast path: one player, nothing to record, measure or report.
            act = agent.act
            budget = self.budget
            state = self.state
            observe = state.observe
            apply = state.apply
            is_over = state.is_over
            steps = 0
            try:
                while not is_over() and steps != limit:
                    apply((act(observe(0), budget),))
                    steps += 1
            finally:
                self.steps += steps
                self._movers = None
            return steps
        steps = 0
        step = self.step
        movers = self.movers
        while steps != limit and movers():
            step()
            steps += 1
        return steps


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
    on_step: OnStep | None = None,
) -> MatchResult:
    """Play one match to the end (a :class:`Match` run in one go).

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
    match = Match(
        game,
        agents,
        seed,
        agent_names=agent_names,
        budget=budget,
        replay=replay,
        state_every=state_every,
        measure=measure,
        on_step=on_step,
    )
    try:
        match.run(max_steps)
        return match.finish()
    except IllegalActionError as exc:
        raise match.blame(exc) from exc
    finally:
        match.close()


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

"""hextris agents: each plans a whole command string for the game, then plays it out.

The harness asks for one command character per step; a planning agent solves the game at
its first decision (the unit sequence is known from the seed) and replays the string.
"""

from __future__ import annotations

import random
from typing import Any

from snakelab.core.errors import IllegalActionError
from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.games.hextris.rules import State
from snakelab.games.hextris.scoring import PHRASES


class RandomAgent(BaseAgent):
    """A uniformly random legal command character (a baseline for tests)."""

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Seed the generator."""
        super().reset(info, player, seed)
        self._rng = random.Random(seed)

    def act(self, observation: Any, budget: Budget | None) -> Any:
        """A random legal character."""
        legal = observation.legal_actions(0)
        return legal[self._rng.randrange(len(legal))]


class _PlanningAgent(BaseAgent):
    """Plans the whole game at the first decision, then returns one character per step."""

    def __init__(self) -> None:
        self._plan = ""
        self._key: tuple[int, int] | None = None

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Forget any previous plan."""
        super().reset(info, player, seed)
        self._plan = ""
        self._key = None

    def _solve(self, state: State, budget: Budget | None) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def act(self, observation: Any, budget: Budget | None) -> Any:
        """The next character of the plan (planned on the first call of a game)."""
        state: State = observation
        key = (state.problem.id, state.seed)
        if self._key != key:
            if state.step_count != 0:
                raise IllegalActionError("hextris planning agents must start at the beginning of a game")
            self._plan = self._solve(state, budget)
            self._key = key
        i = state.step_count
        if i < len(self._plan):
            return self._plan[i]
        # The plan ran out before the end (never expected): lock the unit at once.
        legal = state.legal_actions(0)
        return legal[0]


class SeedAgent(_PlanningAgent):
    """The seed team's approach: greedy lock search by features, phrase-first paths (5 phrases)."""

    def _solve(self, state: State, budget: Budget | None) -> str:
        from snakelab.games.hextris.solver import SEED_PHRASES, solve_seed_method

        return solve_seed_method(state.problem, state.seed, SEED_PHRASES).solution


def width_for_nodes(nodes: int, units: int) -> int:
    """The widest beam a budget of ``nodes`` beam nodes pays for on a game of ``units`` units.

    The passes widen 1, 2, 4, … ``W``, which costs ``(2W - 1)`` nodes per unit in all.
    """
    width = 1
    while (4 * width - 1) * max(1, units) <= nodes:
        width *= 2
    return width


class ChampionAgent(_PlanningAgent):
    """Anytime beam search over placements with phrase embedding (all 18 phrases).

    Under a time budget (``Budget(time_s=...)``, else ``time_limit``) the search runs on
    the clock, so its answer depends on the machine and its load. Under a node budget
    (``Budget(nodes=N)``, which wins when both are given) it is exactly reproducible: the
    widening stops at the widest beam whose passes fit ``N`` beam nodes (see
    :func:`width_for_nodes`), with no clock and no random-weight passes.

    Args:
        time_limit: Seconds to plan a game when the budget gives neither time nor nodes.
    """

    def __init__(self, time_limit: float = 5.0) -> None:
        super().__init__()
        self.time_limit = time_limit

    def _solve(self, state: State, budget: Budget | None) -> str:
        # Imported here: the solver loads numba, which registering the game (and the
        # contest program's start, before its clock says there is time) must not.
        from snakelab.games.hextris.solver import ChampionSearch, solve_champion

        if budget is not None and budget.nodes is not None:
            width = width_for_nodes(budget.nodes, state.problem.source_length)
            # No deadline that could bind: the passes, not the clock, end the search.
            search = ChampionSearch(max_width=width, random_passes=False)
            return solve_champion(state.problem, state.seed, 1e9, PHRASES, search).solution
        t = budget.time_s if budget is not None and budget.time_s is not None else self.time_limit
        return solve_champion(state.problem, state.seed, t, PHRASES).solution

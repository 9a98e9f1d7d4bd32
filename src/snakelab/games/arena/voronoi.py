"""``arena.voronoi``: paranoid best-reply alpha-beta with a Voronoi evaluation.

The agent drives the search of :mod:`.search` (best-reply alpha-beta over simultaneous
steps, iterative deepening) with the reference weights of :mod:`.evaluation`
(:data:`.evaluation.WEIGHTS`): a Voronoi split of the board by a race from every snake
and zombie head, length, the apple reached first, traps and zombie heads nearby. Pending
growth is inferred as a bot would (:class:`.sim.GrowthTracker`). The champion
(:mod:`.champion`) is this agent with other weights and hooks, so the references and the
champion run one kernel and cannot drift apart.

Budget: ``Budget(nodes=N)`` caps the nodes (simulated steps) of all iterations together
and makes the agent deterministic (a node budget wins over ``time_s`` when both are given,
as with ``--nodes``): the same position, seed and node budget give the same move.
``Budget(time_s=T)`` searches deeper while the predicted cost of the next depth fits in
``time_fraction × T`` (the rest is left for the harness and a busy machine); a depth that
runs over is cut off at the deadline, and its result dropped. Time-budgeted play depends
on the machine's speed and load, so it is not reproducible. With no budget the agent uses
``Budget(nodes=default_nodes)``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from snakelab.core.errors import ConfigError
from snakelab.core.game import BaseAgent, Budget, GameInfo
from snakelab.core.registry import config_from_kwargs
from snakelab.games.arena import sim
from snakelab.games.arena.evaluation import NO_TIMID, WEIGHTS
from snakelab.games.arena.rules import STRAIGHT, State
from snakelab.games.arena.search import Limits, SearchOptions, deepen

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class VoronoiOptions(SearchOptions):
    """``arena.voronoi``'s options (``arena.voronoi(max_depth=12)``).

    Attributes:
        max_depth: Deepest iteration (plies of simultaneous steps).
        time_fraction: Share of ``Budget.time_s`` the search may plan to use.
        default_nodes: Node budget when the agent is given no budget at all.
    """

    agent: ClassVar[str] = "arena.voronoi"
    max_depth: int = 24
    time_fraction: float = 0.4
    default_nodes: int = 20_000

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 1 <= self.max_depth <= 200:
            raise ConfigError(f"{self.agent}: max_depth {self.max_depth} must be between 1 and 200")


class VoronoiAgent(BaseAgent):
    """Paranoid best-reply alpha-beta over simultaneous moves (see the module docstring)."""

    def __init__(self, options: VoronoiOptions | None = None) -> None:
        opts = options if options is not None else VoronoiOptions()
        self.options = opts
        self.max_depth = opts.max_depth
        self.time_fraction = opts.time_fraction
        self.default_nodes = opts.default_nodes
        self.last_depth = 0
        """Depth of the last completed iteration (for tests and benchmarks)."""
        self.weights: F64 = WEIGHTS
        """The evaluation's weights (:data:`.evaluation.WEIGHTS`; a subclass may set others)."""
        self.partial = False
        """Search on to the deadline and keep what a cut-off iteration decided (see :meth:`act`).

        Off for the references: they stop before a depth their measured branching says will
        not finish, which leaves on average a third of their planned time unused."""

    @classmethod
    def from_params(cls, **params: Any) -> VoronoiAgent:
        """The agent of an agent string's parameters (``arena.voronoi(max_depth=12)``), checked."""
        return cls(config_from_kwargs(VoronoiOptions, VoronoiOptions.agent, params))

    def reset(self, info: GameInfo, player: int, seed: int) -> None:
        """Prepare scratch space for this board."""
        super().reset(info, player, seed)
        cfg = info.config
        self._size = cfg.game_width * cfg.game_height
        self._growth = sim.GrowthTracker(cfg.num_snakes, cfg.apple_growth)
        self._work = np.empty(4 * self._size + 1, np.int32)
        self._moves = np.zeros((self.max_depth + 2, cfg.num_snakes), np.int32)
        self._nbr: I32 | None = None

    def _model(self, s: State, growth: list[int]) -> tuple[F64, I32]:
        """The weights and the per-snake timid flags this move searches with (a subclass's hook)."""
        del s, growth
        return self.weights, NO_TIMID

    def _at_root(self, wts: F64, root: I32, lay: I32, nbr: I32) -> F64:
        """The weights after a look at the encoded root position (a subclass's hook)."""
        del root, lay, nbr
        return wts

    def _settle(self, order: list[int], root: I32, lay: I32, nbr: I32, until: float) -> int:
        """The move to play, given the root moves ranked best first (a subclass's hook).

        ``until`` is the ``time.perf_counter()`` by which it must be back (``1e308``
        under a node budget, so that the move does not depend on the machine).
        """
        del root, lay, nbr, until
        return order[0]

    def _deepen(self, bufs: I32, lay: I32, nbr: I32, me: int, wts: F64, timid: I32, limits: Limits) -> list[int]:
        """Iterative deepening (:func:`.search.deepen`) for snake ``me``; sets :attr:`last_depth`."""
        order, self.last_depth = deepen(bufs, lay, nbr, me, wts, timid, self._work, self._moves, limits)
        return order

    def act(self, observation: Any, budget: Budget | None) -> int:
        """One move: an absolute direction."""
        t0 = time.perf_counter()
        s: State = observation
        growth = self._growth.update(s)
        wts, timid = self._model(s, growth)
        me = self.player
        if not s.alive[me]:
            return STRAIGHT
        if self._nbr is None:
            self._nbr = sim.grid_nbr(s)
        nbr = self._nbr
        longest = max((len(b) + growth[i] for i, b in enumerate(s.bodies)), default=0)
        lay = sim.layout(s, cap=longest + self.max_depth + 4)
        root = sim.encode(s, lay, growth)
        bufs = np.empty((self.max_depth + 2, root.shape[0]), np.int32)
        bufs[0] = root
        wts = self._at_root(wts, root, lay, nbr)
        plan = self.options.plan(t0, budget)
        node_cap = plan.nodes if plan.nodes is not None else 1 << 60
        limits = Limits(self.max_depth, node_cap, plan.deadline, plan.timed and not self.partial, self.partial)
        order = self._deepen(bufs, lay, nbr, me, wts, timid, limits)
        return self._settle(order, root, lay, nbr, plan.until)


__all__ = ["VoronoiAgent", "VoronoiOptions"]

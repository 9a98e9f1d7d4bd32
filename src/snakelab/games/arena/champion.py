"""``arena.champion``: the Voronoi search of :mod:`.voronoi` with a positional evaluation.

The search is :class:`~snakelab.games.arena.voronoi.VoronoiAgent`'s unchanged:
paranoid best-reply alpha-beta over simultaneous steps on the compiled simulator,
iterative deepening within the budget, zombies exact. What differs is what a
position is worth, and it is tuned for a field of searching opponents rather than
for ``greedy``:

* **territory share** — besides the capped territory count of the reference
  evaluation, ``share × terr / (terr + theirs + 1)``: the fraction of the cells the
  snakes reach first that are ours. Apples respawn uniformly at random, so this is
  our chance of winning the next race; against opponents that also race for apples,
  being central pays more than a step toward an apple we may not get;
* **second apple** — ``second ×`` the value of the second-best apple, so that of two
  lines reaching the best apple equally, the one also closer to the other wins;
* the other weights (territory per cell and its cap, a step toward an apple, an
  apple reached strictly first, zombie heads near ours) are parameters too.

Every weight is an agent parameter (``arena.champion(share=3000)``), so variants
can be screened from the command line; ``docs/arena.md`` records the measured ones.
Budgets are as :class:`~.voronoi.VoronoiAgent`'s.
"""

from __future__ import annotations

import numpy as np

from snakelab.core.errors import ConfigError
from snakelab.games.arena.voronoi import (
    N_WEIGHTS,
    W_APPLE_OWN,
    W_APPLE_SECOND,
    W_APPLE_STEP,
    W_HORIZON,
    W_SHARE,
    W_TERR,
    W_TERR_CAP,
    W_ZOMBIE,
    WEIGHTS,
    VoronoiAgent,
)


class ChampionAgent(VoronoiAgent):
    """Voronoi best-reply search with the territory-share evaluation (see the module docstring).

    Args:
        share: Weight of our share of the snakes' territory (0..1).
        second: Weight of the second-best apple relative to the best.
        terr: Weight of a territory cell (counted up to ``terr_cap`` cells).
        terr_cap: Territory cells that count per cell.
        apple_step: Value of a step nearer the best apple.
        apple_own: Bonus for an apple we reach strictly first.
        zombie: Penalty scale for a zombie head within four cells.
        horizon: The territory race stops at this distance (a cheaper evaluation,
            so a deeper search in the same time).
        max_depth: Deepest iteration.
        time_fraction: Share of ``Budget.time_s`` the search may plan to use.
        default_nodes: Node budget when given no budget (300: about what a 10 ms move
            searches, and what the golden playthrough records).
    """

    def __init__(
        self,
        share: float = 0.0,
        second: float = 0.0,
        terr: float = 0.5,
        terr_cap: int = 400,
        apple_step: float = 15.0,
        apple_own: float = 2000.0,
        zombie: float = 100.0,
        horizon: int = 16,
        max_depth: int = 24,
        time_fraction: float = 0.55,
        default_nodes: int = 300,
    ) -> None:
        super().__init__(max_depth=max_depth, time_fraction=time_fraction, default_nodes=default_nodes)
        checks = (
            ("share", share, share >= 0.0),
            ("second", second, 0.0 <= second <= 1.0),
            ("terr", terr, terr >= 0.0),
            ("terr_cap", terr_cap, terr_cap >= 0),
            ("apple_step", apple_step, apple_step >= 0.0),
            ("apple_own", apple_own, apple_own >= 0.0),
            ("zombie", zombie, zombie >= 0.0),
            ("horizon", horizon, horizon >= 1),
        )
        for key, value, ok in checks:
            if not ok:
                what = {"second": "in [0, 1]", "horizon": "≥ 1"}.get(key, "≥ 0")
                raise ConfigError(f"arena.champion: {key} {value} must be {what}")
        w = np.array(WEIGHTS, dtype=np.float64)
        assert w.shape[0] == N_WEIGHTS
        w[W_SHARE], w[W_APPLE_SECOND], w[W_TERR], w[W_TERR_CAP] = share, second, terr, terr_cap
        w[W_APPLE_STEP], w[W_APPLE_OWN], w[W_ZOMBIE], w[W_HORIZON] = apple_step, apple_own, zombie, horizon
        self.weights = w


__all__ = ["ChampionAgent"]

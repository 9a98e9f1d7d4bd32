"""blind — the blind snake on a torus of unknown size (see :mod:`.rules`).

Strategies live in :mod:`.strategies` (and :mod:`.champion`), the exact evaluators in
:mod:`.evaluate`, the exhaustive sweep in :mod:`.sweep` (the seed's experiments are
``research/blind_experiments.py``). Every strategy is also an agent ``blind.<name>``.
"""

from snakelab.core.registry import register_agent, register_game
from snakelab.games.blind import champion as _champion  # noqa: F401  (registers its strategy)
from snakelab.games.blind.agents import StrategyAgent, agent_factory
from snakelab.games.blind.render import to_rich
from snakelab.games.blind.rules import Action, Config, Game, State, Termination, make_game
from snakelab.games.blind.strategies import STRATEGIES, Strategy, make_strategy

register_game(
    "blind", make_game, "a blind snake on an unknown torus: find the apple, i.e. cover every cell", render=to_rich
)
for _name, _entry in STRATEGIES.items():
    if _entry.alias_of is None:
        _aliases = tuple(e.name for e in STRATEGIES.values() if e.alias_of == _name)
        register_agent("blind", _name, agent_factory(_name), f"plays the strategy: {_entry.summary}", aliases=_aliases)

__all__ = ["Action", "Config", "Game", "State", "Strategy", "StrategyAgent", "Termination", "make_strategy"]

"""Runs games: one match driver, one parallel map, the process layer, the results store.

The names below are imported on first use, so that importing one module of the harness
(the CLI's verbs do) does not load the others.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from snakelab.harness.match import Match, MatchResult, MatchSpec, play, run_match
    from snakelab.harness.parallel import mapper, parallel_map
    from snakelab.harness.run import match_seeds, run_many

_WHERE = {
    "Match": "match",
    "MatchResult": "match",
    "MatchSpec": "match",
    "play": "match",
    "run_match": "match",
    "mapper": "parallel",
    "parallel_map": "parallel",
    "match_seeds": "run",
    "run_many": "run",
}

__all__ = [
    "Match",
    "MatchResult",
    "MatchSpec",
    "mapper",
    "match_seeds",
    "parallel_map",
    "play",
    "run_many",
    "run_match",
]


def __getattr__(name: str) -> Any:
    """One of :data:`__all__`, from its module."""
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

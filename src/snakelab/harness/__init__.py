"""Runs games: one match driver, one parallel map, the process layer, the results store."""

from snakelab.harness.match import Match, MatchResult, MatchSpec, play, run_match
from snakelab.harness.parallel import mapper, parallel_map
from snakelab.harness.run import match_seeds, run_many

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

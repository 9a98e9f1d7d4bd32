"""Runs games: one match loop for all games, and many matches over any executor."""

from snakelab.harness.match import MatchResult, MatchSpec, play, run_match
from snakelab.harness.run import match_seeds, run_many

__all__ = ["MatchResult", "MatchSpec", "match_seeds", "play", "run_many", "run_match"]

r"""The official ICFP 2015 scorer: move score, power score, per-seed and per-problem scores.

* Power: for each phrase ``p``, ``reps_p`` counts every start position of ``p`` in the
  lower-cased raw command string (overlapping occurrences and occurrences across unit
  locks included; an ignored ``\t\n\r`` inside breaks a phrase);
  ``power_p = 2·len_p·reps_p + (300 if reps_p > 0 else 0)``.
* Seed score = move score + Σ power, or 0 on any error: an unknown character, a repeat
  placement, a command after the end, or a seed the problem does not list.
* Problem score = ``floor(Σ seed scores / len(sourceSeeds))``; a missing or failed seed
  counts 0 (a seed listed twice still holds one solution but counts in the divisor).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from snakelab.core.errors import IllegalActionError
from snakelab.games.hextris.codec import Problem, SolutionEntry
from snakelab.games.hextris.power import PHRASES, count_overlapping, phrase_reps, power_score
from snakelab.games.hextris.rules import CHAR_TO_COMMAND, IGNORED_CHARS, Sim, UnitShape, compile_shapes

__all__ = [
    "PHRASES",
    "ProblemScore",
    "SeedScore",
    "count_overlapping",
    "phrase_reps",
    "play_solution",
    "power_score",
    "score_problem",
    "score_seed",
]


@dataclass
class SeedScore:
    """The score of one game.

    Attributes:
        seed: The game's seed.
        move_score: Points from locks (0 on an error).
        power_score: Points from phrases (0 on an error).
        score: ``move_score + power_score``, or 0 on an error.
        phrases: Distinct phrases used (0 on an error).
        error: What made the game score 0, or None.
        units: Units locked.
        reps: Repetitions per phrase used.
    """

    seed: int
    move_score: int = 0
    power_score: int = 0
    score: int = 0
    phrases: int = 0
    error: str | None = None
    units: int = 0
    reps: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object: ``seed, move_score, power_score, score, phrases, error``."""
        return {
            "seed": self.seed,
            "move_score": self.move_score,
            "power_score": self.power_score,
            "score": self.score,
            "phrases": self.phrases,
            "error": self.error,
        }


def play_solution(problem: Problem, seed: int, solution: str, shapes: Sequence[UnitShape] | None = None) -> Sim:
    """Play ``solution`` on a fresh game and return the engine.

    Raises:
        IllegalActionError: (or its subclass GameOverError) on the first error, with the
            character position in the message.
    """
    sim = Sim(problem, seed, shapes)
    command = sim.command
    table = CHAR_TO_COMMAND
    for i, ch in enumerate(solution):
        cmd = table.get(ch.lower())
        if cmd is None:
            if ch in IGNORED_CHARS:
                continue
            raise IllegalActionError(f"unknown character {ch!r} at position {i}")
        try:
            command(cmd)
        except IllegalActionError as exc:
            raise type(exc)(f"{exc} at position {i}") from None
    return sim


def score_seed(
    problem: Problem,
    seed: int,
    solution: str,
    phrases: Sequence[str] = PHRASES,
    shapes: Sequence[UnitShape] | None = None,
) -> SeedScore:
    """Score one game exactly as the official scorer does (errors score 0)."""
    if seed not in problem.source_seeds:
        return SeedScore(seed, error=f"seed {seed} is not one of problem {problem.id}'s seeds")
    try:
        sim = play_solution(problem, seed, solution, shapes)
    except IllegalActionError as exc:
        return SeedScore(seed, error=str(exc))
    power, distinct = power_score(solution, phrases)
    reps = {p: n for p, n in phrase_reps(solution, phrases).items() if n}
    return SeedScore(
        seed,
        move_score=sim.move_score,
        power_score=power,
        score=sim.move_score + power,
        phrases=distinct,
        units=sim.index,
        reps=reps,
    )


@dataclass
class ProblemScore:
    """The score of one problem.

    Attributes:
        problem_id: The problem.
        score: ``floor(Σ seed scores / len(sourceSeeds))``.
        seeds: The scored games (the last solution given for each seed wins).
        phrases: Distinct phrases used across the problem's games.
    """

    problem_id: int
    score: int
    seeds: list[SeedScore]
    phrases: int

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object: ``problemId, score, phrases, seeds``."""
        return {
            "problemId": self.problem_id,
            "score": self.score,
            "phrases": self.phrases,
            "seeds": [s.to_json() for s in self.seeds],
        }


def score_problem(problem: Problem, entries: Iterable[SolutionEntry], phrases: Sequence[str] = PHRASES) -> ProblemScore:
    """Score every entry of one problem (later entries for a seed replace earlier ones)."""
    shapes = compile_shapes(problem)
    by_seed: dict[int, SeedScore] = {}
    for e in entries:
        by_seed[e.seed] = score_seed(problem, e.seed, e.solution, phrases, shapes)
    valid = [s for s in by_seed.values() if s.seed in problem.source_seeds]
    total = sum(s.score for s in valid)
    used = {p for s in valid if s.error is None for p in s.reps}
    return ProblemScore(problem.id, total // len(problem.source_seeds), list(by_seed.values()), len(used))

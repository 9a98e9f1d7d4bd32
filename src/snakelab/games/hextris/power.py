"""The phrases of power and the power score of a command string.

Both the rule engine (a finished game's outcome) and the official scorer count phrases,
so they live here, below both.
"""

from __future__ import annotations

from collections.abc import Sequence

#: The 18 phrases of power (official list), as written.
PHRASES: tuple[str, ...] = (
    "Ei!",
    "Ia! Ia!",
    "R'lyeh",
    "Yuggoth",
    "Tsathoggua",
    "YogSothoth",
    "Necronomicon",
    "vigintillion",
    "Cthulhu fhtagn!",
    "Ph'nglui mglw'nafh Cthulhu R'lyeh wgah'nagl fhtagn.",
    "In his house at R'lyeh dead Cthulhu waits dreaming.",
    "The Laundry",
    "Planet 10",
    "Yoyodyne",
    "monkeyboy",
    "John Bigboote",
    "BLUE HADES",
    "CASE NIGHTMARE GREEN",
)


def count_overlapping(text: str, phrase: str) -> int:
    """Number of start positions of ``phrase`` in ``text`` (overlaps included)."""
    n = 0
    i = text.find(phrase)
    while i >= 0:
        n += 1
        i = text.find(phrase, i + 1)
    return n


def phrase_reps(solution: str, phrases: Sequence[str] = PHRASES) -> dict[str, int]:
    """Repetitions of each phrase (lower-cased matching) in a raw command string."""
    low = solution.lower()
    return {p: count_overlapping(low, p.lower()) for p in phrases}


def power_score(solution: str, phrases: Sequence[str] = PHRASES) -> tuple[int, int]:
    """The power score of a command string and the number of distinct phrases used."""
    total = 0
    distinct = 0
    for p, reps in phrase_reps(solution, phrases).items():
        if reps:
            total += 2 * len(p) * reps + 300
            distinct += 1
    return total, distinct

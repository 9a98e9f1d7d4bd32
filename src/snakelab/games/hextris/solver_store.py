"""A keep-best store of recorded hextris solutions: one solution file per problem.

``DIR/problem_K.json`` is an ordinary solution file (the official scorer reads it as it
is) holding the best string found per seed, each tagged with how it was found
(:mod:`.solver_spec`: the solver spec, the CPU seconds, the score). The rules:

* On load every entry is re-scored with the official scorer; the tag's score is not
  trusted.
* A new entry replaces a stored one only if it scores strictly more, or as much when the
  stored one is *legacy* (its tag records no spec): so repeated runs only improve the
  store, and a recorded string takes the place of an unrecorded one of the same quality.
* ``--replace-legacy`` (``offer(replace_legacy=True)``) lets a recorded entry replace a
  legacy one even when it scores less: the way to a store whose every string can be
  found again, at a price the leaderboard script prints.
* An entry that took more than :data:`MAX_SECONDS` CPU seconds is not stored: a stored
  string must be one that its recorded spec finds in that time.
* Files are replaced atomically, so a killed run never leaves half a file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from snakelab.games.hextris.codec import Problem, SolutionEntry, format_solutions, load_solutions
from snakelab.games.hextris.scoring import score_seed
from snakelab.games.hextris.solver_spec import Recorded, parse_tag

#: Most CPU seconds (one core) a stored string may have taken.
MAX_SECONDS = 600.0


@dataclass(frozen=True)
class StoredEntry:
    """One stored string: its official score, the string and its record (None: legacy)."""

    score: int
    solution: str
    record: Recorded | None

    @property
    def tag(self) -> str:
        """The tag written to the file."""
        if self.record is None:
            return f"snakelab legacy {self.score}"
        return Recorded(self.record.spec, self.record.seconds, self.score).tag()


def store_path(store: Path, problem_id: int) -> Path:
    """The store file of one problem."""
    return store / f"problem_{problem_id}.json"


def load_store(problem: Problem, store: Path) -> dict[int, StoredEntry]:
    """The best stored entry per seed, each re-scored with the official scorer."""
    path = store_path(store, problem.id)
    out: dict[int, StoredEntry] = {}
    if not path.is_file():
        return out
    for e in load_solutions(path):
        entry = StoredEntry(score_seed(problem, e.seed, e.solution).score, e.solution, parse_tag(e.tag))
        offer(out, e.seed, entry)
    return out


def offer(best: dict[int, StoredEntry], seed: int, entry: StoredEntry, *, replace_legacy: bool = False) -> bool:
    """Put ``entry`` in ``best`` if it beats the entry there (see the module rules); whether it did.

    With ``replace_legacy`` a recorded entry also replaces a legacy one that scores more
    (the price of a store in which every string can be found again).
    """
    if entry.record is not None and entry.record.seconds > MAX_SECONDS:
        return False
    old = best.get(seed)
    if old is None or entry.score > old.score:
        best[seed] = entry
        return True
    if old.record is None and entry.record is not None and (entry.score == old.score or replace_legacy):
        best[seed] = entry
        return True
    return False


def save_store(problem: Problem, store: Path, best: dict[int, StoredEntry]) -> None:
    """Write one problem's store file atomically, seeds in increasing order."""
    store.mkdir(parents=True, exist_ok=True)
    path = store_path(store, problem.id)
    entries = [SolutionEntry(problem.id, s, e.solution, e.tag) for s, e in sorted(best.items())]
    tmp = path.with_suffix(".tmp")
    tmp.write_text(format_solutions(entries) + "\n")
    os.replace(tmp, path)

"""Recorded solver runs: a solver and its parameters as one string, and the tag that stores it.

A timed search depends on the machine and its load, so a stored string found by one cannot
be found again. A :class:`SolverSpec` fixes everything instead: the solver, the widest beam
of its widening, how many random-weight passes it runs and from which seed, and how many
phrase orders it spells each unit with. :func:`solve_spec` runs it with no clock, so the
same spec, problem and seed give the same string on any machine (for the same solver
code).

Every string in the keep-best store carries its spec, the CPU seconds it took and its score
in the solution's ``tag`` field, which the official format keeps as free text::

    snakelab champion(width=8,random=40,rwidth=8,rseed=0,tries=3) 412.3s 229722

The seconds are the solving process's CPU time (``time.process_time``): the cost in
seconds of one core, which a loaded machine does not inflate. ``snakelab hextris solve
--spec 'champion(width=8,random=40)'`` solves with a spec; ``--spec stored`` re-solves
each game with the spec recorded in an entry of ``--out`` (see ``docs/hextris.md``).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, replace

import numpy as np

from snakelab.core.errors import ConfigError
from snakelab.core.registry import format_spec, parse_spec
from snakelab.games.hextris.codec import Problem
from snakelab.games.hextris.scoring import PHRASES, score_seed
from snakelab.games.hextris.solver import (
    CHAMPION_WEIGHTS,
    CHAMPION_WEIGHTS_BIG,
    EMBED_TRIES_MAX_CELLS,
    LOST_MAX_CELLS,
    RANDOM_WIDTH,
    SEED_PHRASES,
    ChampionSearch,
    Solution,
    solve_champion,
    solve_seed_method,
    warm_up,
)
from snakelab.games.hextris.solver_opening import play_opening, rest_problem

#: The solvers a spec may name.
METHODS = ("champion", "seed")

_TAG_RE = re.compile(r"^snakelab (?P<spec>\S+) (?P<secs>\d+(?:\.\d+)?)s (?P<score>\d+)$")


@dataclass(frozen=True)
class SolverSpec:
    """A deterministic solver run.

    Attributes:
        method: ``champion`` (beam search, phrase embedding) or ``seed`` (greedy, five
            phrases; it takes no parameters).
        width: Widest beam of the champion's widening (passes 1, 2, 4, ... up to it; on
            boards over 1000 cells first the weight-variant passes of widths 1 and 2).
        random: Random-weight passes after the widening (each weight the default times a
            log-uniform factor in [1/5, 5]).
        rwidth: Beam width of those passes.
        rseed: Seed of their weights (0: the draws the timed champion makes first).
        tries: Phrase orders per unit in the embedding; 0 means the solver's choice by
            board size (3, or 1 over 3000 cells), resolved by :meth:`resolved`.
        opening: Spell up to this many phrases that a width-1 pass does not spell in a
            phrase opening first, then solve the rest (:mod:`.solver_opening`); the
            width-1 pass's string when that scores more. 0: no opening.
        single: Penalty on a lock that clears exactly one row (the evaluation's optional
            eighth weight, ``kernels.W_SINGLE``), so the beam stacks rows to clear together
            for the multi-line points; 0: none. With it, big boards skip their weight
            variants (the default big-board weights plus this one are used).
        variants: 1: on boards over 1000 cells the widening begins with the weight-variant
            passes of widths 1 and 2 (about 12 passes, 8 minutes of CPU on problem 24);
            0: widths 1, 2, 4, ... with the default weights only, leaving the time to the
            random passes (which there also scale the rows-fallen value and choose the
            plans to spell by units, move score and 5 points a row fallen).
        guard: Penalty per empty cell the largest unit type could no longer reach
            (``beam_plan(guard_weight=)``, in the lost-cell re-ranking); 0: none.
    """

    method: str = "champion"
    width: int = 8
    random: int = 0
    rwidth: int = RANDOM_WIDTH
    rseed: int = 0
    tries: int = 0
    opening: int = 0
    single: int = 0
    variants: int = 1
    guard: int = 0

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ConfigError(f"unknown hextris solver {self.method!r}: use {' or '.join(METHODS)}")
        for name, low in (
            ("width", 1),
            ("random", 0),
            ("rwidth", 1),
            ("rseed", 0),
            ("tries", 0),
            ("opening", 0),
            ("single", 0),
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ConfigError(f"solver parameter {name} must be an integer >= {low}, got {value!r}")
        if self.variants > 1:
            raise ConfigError(f"solver parameter variants must be 0 or 1, got {self.variants}")
        if self.width > 4096 or self.rwidth > 4096:
            raise ConfigError("solver beam widths above 4096 are refused (memory grows with the width)")

    @classmethod
    def parse(cls, text: str) -> SolverSpec:
        """Read ``champion(width=8,random=40)`` or ``seed``; unnamed parameters take defaults.

        Raises:
            ConfigError: for a malformed text, an unknown solver or parameter, or a bad value.
        """
        name, kwargs = parse_spec(text)
        if name not in METHODS:
            raise ConfigError(f"unknown hextris solver {name!r} in {text!r}: use {' or '.join(METHODS)}")
        if name == "seed":
            if kwargs:
                raise ConfigError(f"the seed solver takes no parameters, got {', '.join(kwargs)}")
            return cls(method="seed")
        known = ("width", "random", "rwidth", "rseed", "tries", "opening", "single", "variants", "guard")
        unknown = [k for k in kwargs if k not in known]
        if unknown:
            raise ConfigError(f"unknown champion parameter {unknown[0]!r} in {text!r}: known are {', '.join(known)}")
        return cls(method=name, **kwargs)

    def resolved(self, problem: Problem) -> SolverSpec:
        """The spec with ``tries`` fixed for ``problem`` (what a tag records)."""
        if self.method != "champion" or self.tries:
            return self
        tries = 3 if problem.width * problem.height <= EMBED_TRIES_MAX_CELLS else 1
        return replace(self, tries=tries)

    def text(self) -> str:
        """The spec as text, every parameter named (so a changed default cannot alter it)."""
        if self.method == "seed":
            return "seed"
        return format_spec(
            self.method,
            {
                "width": self.width,
                "random": self.random,
                "rwidth": self.rwidth,
                "rseed": self.rseed,
                "tries": self.tries,
                "opening": self.opening,
                "single": self.single,
                "variants": self.variants,
                "guard": self.guard,
            },
        )


@dataclass(frozen=True)
class Recorded:
    """What a store tag records: the spec, the CPU seconds and the score."""

    spec: SolverSpec
    seconds: float
    score: int

    def tag(self) -> str:
        """The tag text, e.g. ``snakelab champion(width=8,...) 41.3s 12345``."""
        return f"snakelab {self.spec.text()} {self.seconds:.1f}s {self.score}"


def parse_tag(tag: str | None) -> Recorded | None:
    """The record in a store tag, or None for a tag that records no spec (a legacy entry)."""
    if not tag:
        return None
    m = _TAG_RE.match(tag.strip())
    if not m:
        return None
    try:
        spec = SolverSpec.parse(m.group("spec"))
    except ConfigError:
        return None
    return Recorded(spec, float(m.group("secs")), int(m.group("score")))


def solve_spec(problem: Problem, seed: int, spec: SolverSpec) -> tuple[Solution, Recorded]:
    """Solve one game with ``spec``, with no clock; the solution and its record.

    The record's seconds are this process's CPU time for the solve (kernel loading, which
    happens once per process, excluded).
    """
    warm_up()
    spec = spec.resolved(problem)
    c0 = time.process_time()
    if spec.method == "seed":
        sol = solve_seed_method(problem, seed, SEED_PHRASES)
    elif spec.opening:
        sol = _solve_with_opening(problem, seed, spec)
    else:
        sol = _champion(problem, seed, spec)
    secs = time.process_time() - c0
    return sol, Recorded(spec, secs, sol.score)


def _champion(problem: Problem, seed: int, spec: SolverSpec, spelled: tuple[str, ...] = ()) -> Solution:
    weights = None
    if spec.single:
        small = problem.width * problem.height <= LOST_MAX_CELLS
        weights = np.append(CHAMPION_WEIGHTS if small else CHAMPION_WEIGHTS_BIG, float(spec.single))
    search = ChampionSearch(
        max_width=spec.width,
        weights=weights,
        random_passes=False,
        random_count=spec.random,
        rseed=spec.rseed,
        random_width=spec.rwidth,
        tries=spec.tries,
        spelled=spelled,
        variants=bool(spec.variants),
        guard_weight=float(spec.guard),
    )
    return solve_champion(problem, seed, math.inf, PHRASES, search)


def _solve_with_opening(problem: Problem, seed: int, spec: SolverSpec) -> Solution:
    """A phrase opening for the phrases a width-1 pass leaves out, then the champion on the rest."""
    probe_search = ChampionSearch(max_width=1, random_passes=False, tries=spec.tries)
    probe = solve_champion(problem, seed, math.inf, PHRASES, probe_search)
    reps = score_seed(problem, seed, probe.solution).reps
    targets = [p for p in PHRASES if not reps.get(p)]
    small = problem.width * problem.height <= LOST_MAX_CELLS
    opening = play_opening(problem, seed, targets, CHAMPION_WEIGHTS if small else CHAMPION_WEIGHTS_BIG, spec.opening)
    text = opening.text
    if opening.sim.index < problem.source_length:
        rest, rest_seed = rest_problem(problem, seed, opening)
        text += _champion(rest, rest_seed, spec, opening.spelled).solution
    score = score_seed(problem, seed, text).score
    # An opening that wrecks the board (a trap board can end the game) loses to the probe.
    if score < probe.score:
        return probe
    return Solution(text, score, spec.width, 0.0)

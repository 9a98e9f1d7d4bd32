"""Many matches through the one parallel map (:mod:`snakelab.harness.parallel`).

Work items are small picklable :class:`MatchSpec` objects; workers rebuild games and
agents from the registry. Per-match seeds derive from one run seed
(:func:`match_seeds`), so results never depend on scheduling or on the executor.
Interrupts and resumes are those of :mod:`snakelab.harness.parallel` (a run kept in
the results store resumes with ``--resume RUN_ID``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass

from snakelab.core.rng import derive_seed
from snakelab.harness.match import MatchResult, MatchSpec, run_match
from snakelab.harness.parallel import default_jobs, parallel_map, worker_count

__all__ = ["RunHooks", "default_jobs", "match_seeds", "run_many", "worker_count"]


@dataclass(frozen=True)
class RunHooks:
    """What :func:`~snakelab.harness.store.run_stored` tells its caller as a run goes.

    Attributes:
        on_start: Called once with ``(run_id, matches already stored)`` before play.
        on_result: Called with every newly played result as it arrives.
        on_note: Called with remarks for the user (e.g. that a resumed run continues
            with its stored plan although some agent parameters differ).
        play: What plays one match, passed to :func:`run_many` (None: its default,
            an in-process match).
    """

    on_start: Callable[[int, int], None] | None = None
    on_result: Callable[[MatchResult], None] | None = None
    on_note: Callable[[str], None] | None = None
    play: Callable[[MatchSpec], MatchResult] | None = None


def match_seeds(run_seed: int, count: int) -> list[int]:
    """The seeds of matches ``0..count-1`` of a run with seed ``run_seed``."""
    return [derive_seed(run_seed, "match", i) for i in range(count)]


def run_many(
    specs: Iterable[MatchSpec],
    executor: Executor | None = None,
    *,
    jobs: int | None = None,
    on_result: Callable[[MatchResult], None] | None = None,
    play: Callable[[MatchSpec], MatchResult] = run_match,
) -> list[MatchResult]:
    """Play every match and return the results in spec order.

    Args:
        specs: The matches.
        executor: Any ``concurrent.futures.Executor`` (a Dask client's executor
            works too); by default a local process pool of ``jobs`` workers.
        jobs: Worker count for the default pool (1 runs in this process).
        on_result: Called in this process as each result arrives (progress bars).
        play: What plays one match in a worker: :func:`~snakelab.harness.match.run_match`,
            or another picklable function of a spec (a judged contest program:
            :func:`~snakelab.harness.snakgame_judge.judge_match`).
    """
    spec_list = [s if s.index else _with_index(s, i) for i, s in enumerate(specs)]
    out: list[MatchResult | None] = [None] * len(spec_list)
    for i, res in parallel_map(play, spec_list, executor, jobs=jobs):
        out[i] = res
        if on_result is not None:
            on_result(res)
    return [r for r in out if r is not None]


def _with_index(spec: MatchSpec, i: int) -> MatchSpec:
    from dataclasses import replace

    return replace(spec, index=i)

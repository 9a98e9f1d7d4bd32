from concurrent.futures import ThreadPoolExecutor

import pytest

from snakelab.core.errors import ConfigError
from snakelab.harness import MatchSpec, match_seeds, run_many
from snakelab.harness.run import default_jobs, worker_count


def _specs(n):
    return [MatchSpec("classic(width=6,height=6)", ("classic.greedy",), s) for s in match_seeds(7, n)]


def _key(results):
    return [(r.index, r.seed, r.steps, r.outcome.to_json()) for r in results]


def test_run_many__same_results_whatever_the_executor():
    serial = run_many(_specs(6), jobs=1)
    pooled = run_many(_specs(6), jobs=2)
    with ThreadPoolExecutor(3) as ex:
        threaded = run_many(_specs(6), ex)
    assert _key(serial) == _key(pooled) == _key(threaded)
    assert [r.index for r in serial] == list(range(6))


def test_match_seeds__distinct_and_stable():
    a = match_seeds(1, 100)
    assert len(set(a)) == 100 and a == match_seeds(1, 100) and a != match_seeds(2, 100)


def test_worker_count__zero_means_every_core_and_negative_is_refused():
    assert worker_count(0) == worker_count(None) == default_jobs() >= 1
    assert worker_count(3) == 3
    with pytest.raises(ConfigError, match="--jobs must be ≥ 0"):
        worker_count(-1)
    with pytest.raises(ConfigError, match="--jobs"):
        run_many(_specs(2), jobs=-2)

from concurrent.futures import ThreadPoolExecutor

from snakelab.harness import MatchSpec, match_seeds, run_many


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

import pytest

from snakelab.core.errors import ConfigError
from snakelab.harness.ratings import wilson_interval


def test_wilson_interval__known_value():
    # Reference value: 8 wins of 10 at 95 % is (0.4902, 0.9433).
    lo, hi = wilson_interval(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)


def test_wilson_interval__edges_stay_in_unit_range():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(0, 20)
    assert lo == 0.0 and 0.0 < hi < 0.2
    lo, hi = wilson_interval(20, 20)
    assert hi == 1.0 and 0.8 < lo < 1.0


def test_wilson_interval__narrows_with_more_games():
    lo1, hi1 = wilson_interval(5, 10)
    lo2, hi2 = wilson_interval(500, 1000)
    assert hi2 - lo2 < hi1 - lo1
    assert lo2 < 0.5 < hi2


def test_wilson_interval__rejects_bad_counts():
    with pytest.raises(ConfigError, match="outside"):
        wilson_interval(11, 10)

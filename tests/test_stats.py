"""The interval estimates of analysis/stats.py against scipy.stats (an implementation nobody here wrote)."""

import numpy as np
import pytest
from scipy import stats

from wiezen_sim.analysis.stats import mean_interval, prob_greater, wilson


@pytest.mark.parametrize("n", [1, 2, 7, 32, 385, 1000])
def test_wilson_matches_scipy_binomtest(n):
    for successes in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        for confidence in (0.9, 0.95, 0.99):
            ci = stats.binomtest(successes, n).proportion_ci(confidence_level=confidence, method="wilson")
            assert wilson(successes, n, confidence) == pytest.approx((ci.low, ci.high), abs=1e-12)
    assert all(np.isnan(wilson(0, 0)))


@pytest.mark.parametrize("n", range(1, 400))
def test_wilson_holds_its_estimate_exactly_at_the_ends(n):
    """0 of n starts at exactly 0 and n of n ends at exactly 1 (rounding left 0 < low, which a chart's error bar
    refused as a negative length)."""
    assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0
    for successes in (0, 1, n // 2, n):
        low, high = wilson(successes, n)
        assert low <= successes / n <= high


def test_mean_interval_matches_scipy_t():
    rng = np.random.default_rng(3)
    for n in (2, 5, 40):
        values = rng.normal(1.0, 2.0, n)
        low, high = stats.t.interval(0.95, n - 1, loc=values.mean(), scale=stats.sem(values))
        assert mean_interval(values) == pytest.approx((values.mean(), low, high), abs=1e-12)


def test_prob_greater_matches_scipy_norm():
    rng = np.random.default_rng(4)
    diff = rng.normal(0.1, 1.0, 50)
    expected = stats.norm.cdf(diff.mean() / (diff.std(ddof=1) / np.sqrt(50)))
    assert prob_greater(diff) == pytest.approx(expected, abs=1e-12)
    assert prob_greater(np.ones(4)) == 1.0 and prob_greater(-np.ones(4)) == 0.0 and prob_greater(np.zeros(4)) == 0.5
    assert prob_greater(np.array([5.0])) == 0.5  # one deal: too few to tell (it said 1.000, session 21)

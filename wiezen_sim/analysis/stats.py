"""Interval estimates used by every table (DESIGN.md: probabilities come with n and a Wilson interval)."""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import binomtest, norm, t

__all__ = ["CONFIDENCE", "mean_interval", "prob_greater", "wilson"]

CONFIDENCE = 0.95


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a success probability (``scipy.stats.binomtest``).

    Returns ``(low, high)`` probabilities; ``(nan, nan)`` when ``n == 0``.
    """
    if n == 0:
        return math.nan, math.nan
    ci = binomtest(int(successes), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def prob_greater(diff: np.ndarray) -> float:
    """Probability that the mean of paired differences ``diff`` (float[n]) is positive.

    Normal approximation to the sampling distribution of the mean, as used to say
    how sure a recommendation is (common random numbers make the pairs). With no
    spread the answer is 1, 0 or 0.5 by the sign of the mean.
    """
    n = len(diff)
    mean = float(np.mean(diff))
    sd = float(np.std(diff, ddof=1)) if n > 1 else 0.0
    if sd == 0.0:
        return 1.0 if mean > 0 else 0.0 if mean < 0 else 0.5
    return float(norm.cdf(mean / (sd / math.sqrt(n))))


def mean_interval(values: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """Mean of ``values`` (float[n]) with its Student-t interval: ``(mean, low, high)``.

    ``(nan, nan, nan)`` for no values; the interval is ``(nan, nan)`` for one value.
    """
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    if n == 1:
        return mean, math.nan, math.nan
    half = float(t.ppf(0.5 + confidence / 2, n - 1) * values.std(ddof=1) / math.sqrt(n))
    return mean, mean - half, mean + half

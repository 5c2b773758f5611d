"""Interval estimates used by every table (DESIGN.md: probabilities come with n and a Wilson interval).

The distributions come from :mod:`scipy.special` (``ndtr``, ``ndtri``, ``stdtr``, ``stdtrit``), not
:mod:`scipy.stats`, whose import costs the advisor's start-up 0.5-1 s; ``tests/test_stats.py`` checks
every function against :mod:`scipy.stats`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtr, ndtri, stdtrit

__all__ = ["CONFIDENCE", "mean_interval", "paired_difference", "prob_greater", "wilson"]

CONFIDENCE = 0.95


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a success probability (Wilson 1927; as ``scipy.stats.binomtest``'s
    ``proportion_ci(method="wilson")``).

    Returns ``(low, high)`` probabilities; ``(nan, nan)`` when ``n == 0``.
    """
    if n == 0:
        return math.nan, math.nan
    z = float(ndtri(0.5 + confidence / 2))
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if successes == 0 else max(centre - half, 0.0)  # exact ends: rounding must not leave p outside
    high = 1.0 if successes == n else min(centre + half, 1.0)
    return low, high


def prob_greater(diff: np.ndarray) -> float:
    """Probability that the mean of paired differences ``diff`` (float[n]) is positive.

    Normal approximation to the sampling distribution of the mean, as used to say
    how sure a recommendation is (common random numbers make the pairs). With no
    spread the answer is 1, 0 or 0.5 by the sign of the mean; with fewer than two
    pairs it is 0.5 (one pair shows no spread: it cannot tell).
    """
    n = len(diff)
    if n < 2:
        return 0.5
    mean = float(np.mean(diff))
    sd = float(np.std(diff, ddof=1))
    if sd == 0.0:
        return 1.0 if mean > 0 else 0.0 if mean < 0 else 0.5
    return float(ndtr(mean / (sd / math.sqrt(n))))


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
    half = float(stdtrit(n - 1, 0.5 + confidence / 2) * values.std(ddof=1) / math.sqrt(n))
    return mean, mean - half, mean + half


def paired_difference(
    first: np.ndarray, second: np.ndarray, confidence: float = CONFIDENCE
) -> tuple[float, float, float]:
    """Difference of two success probabilities measured on the same trials, ``P(second) - P(first)``, with
    Newcombe's hybrid score interval for paired proportions (Newcombe 1998, *Statistics in Medicine* 17:2635,
    method 10): the two Wilson intervals combined with the correlation of the pairs.

    Unlike the normal (Wald) interval of the mean paired difference, it does not shrink to a point
    when no pair is discordant (``first`` and ``second`` agree on every trial): with 6 trials made
    by both, ``(0.0, -0.39, 0.39)``.

    Args:
        first, second: ``bool[n]`` success per trial (the same trials, in the same order).
        confidence: the interval's level.

    Returns:
        ``(difference, low, high)``, within [-1, 1]; ``(nan, nan, nan)`` when ``n == 0``.

    Raises:
        ValueError: ``first`` and ``second`` of different lengths.
    """
    first, second = np.asarray(first, dtype=bool), np.asarray(second, dtype=bool)
    if first.shape != second.shape:
        raise ValueError(f"paired successes need the same trials, got {len(first)} and {len(second)}")
    n = len(first)
    if n == 0:
        return math.nan, math.nan, math.nan
    both, only_first = int(np.sum(first & second)), int(np.sum(first & ~second))
    only_second, neither = int(np.sum(~first & second)), int(np.sum(~first & ~second))
    p1, p2 = (both + only_second) / n, (both + only_first) / n  # p1: second's rate, p2: first's
    (l1, u1), (l2, u2) = wilson(both + only_second, n, confidence), wilson(both + only_first, n, confidence)
    margins = (both + only_first) * (only_second + neither) * (both + only_second) * (only_first + neither)
    phi = (both * neither - only_first * only_second) / math.sqrt(margins) if margins else 0.0
    below = math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    above = math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    diff = p1 - p2
    return diff, max(diff - below, -1.0), min(diff + above, 1.0)

"""Uncertainty and association for every reported rate.

Benchmark sets are small (150–250 tasks per intent), so a rate without an interval invites over-reading a few points'
difference. Every rate gets a percentile bootstrap interval with a fixed, recorded seed (reruns print the same
bounds); runs with several epochs also get pass^k (tau-bench's consistency estimator); trajectory statistics get
Pearson's r with its n and p-value (the paper's App. F analysis).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel

BOOTSTRAP_SEED = 0
BOOTSTRAP_RESAMPLES = 10_000
CONFIDENCE = 0.95


class Interval(BaseModel):
    """A mean with its percentile bootstrap interval, and everything needed to reproduce the interval."""

    value: float | None
    """The observed mean; None when there were no observations."""
    low: float | None
    high: float | None
    n: int
    confidence: float = CONFIDENCE
    resamples: int = BOOTSTRAP_RESAMPLES
    seed: int = BOOTSTRAP_SEED
    method: str = "percentile bootstrap"

    def text(self, digits: int = 3) -> str:
        """"0.480 [0.420, 0.540]", or "–" when empty."""
        if self.value is None:
            return "–"
        if self.low is None or self.high is None:
            return f"{self.value:.{digits}f}"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def bootstrap_ci(
    values: Sequence[float],
    *,
    confidence: float = CONFIDENCE,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> Interval:
    """Percentile bootstrap interval of the mean of `values` (resampling the values with replacement)."""
    return stratified_bootstrap_ci([values], confidence=confidence, resamples=resamples, seed=seed)


def stratified_bootstrap_ci(
    groups: Sequence[Sequence[float]],
    *,
    confidence: float = CONFIDENCE,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> Interval:
    """Interval of the unweighted mean of group means, resampling within each group.

    This is how the paper's "average over intents" is formed (each intent counts once, whatever its size), so its
    interval must keep each intent's size fixed too. With one group it is the plain bootstrap of the mean.
    """
    arrays = [np.asarray(group, dtype=float) for group in groups if len(group) > 0]
    n = sum(len(a) for a in arrays)
    settings = dict(confidence=confidence, resamples=resamples, seed=seed)
    if not arrays:
        return Interval(value=None, low=None, high=None, n=0, **settings)
    value = float(np.mean([a.mean() for a in arrays]))
    rng = np.random.default_rng(seed)
    resampled_means = np.zeros(resamples)
    for array in arrays:
        picks = rng.integers(0, len(array), size=(resamples, len(array)))
        resampled_means += array[picks].mean(axis=1)
    resampled_means /= len(arrays)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(resampled_means, [tail, 100.0 - tail])
    return Interval(value=value, low=float(low), high=float(high), n=n, **settings)


def pass_hat_k(trials: Sequence[tuple[int, int]], k: int) -> float | None:
    """tau-bench's pass^k: the chance that k i.i.d. tries of a task ALL succeed, averaged over tasks.

    `trials` holds (n, c) per task: n tries, c successes. The unbiased per-task estimate is C(c, k) / C(n, k); tasks
    with fewer than k tries cannot inform it and are left out. None when no task has k tries.
    """
    if k < 1:
        raise ValueError("k must be at least 1")
    estimates = [math.comb(c, k) / math.comb(n, k) for n, c in trials if n >= k]
    if not estimates:
        return None
    return float(np.mean(estimates))


class Correlation(BaseModel):
    """Pearson's r between two paired samples, with what a reader needs to judge it."""

    r: float | None
    """None when undefined: fewer than 3 pairs or a constant sample."""
    p: float | None
    n: int


def pearson(x: Sequence[float], y: Sequence[float]) -> Correlation:
    """Pearson correlation (scipy) of paired samples; undefined cases give r = None instead of a warning and NaN."""
    from scipy.stats import pearsonr

    if len(x) != len(y):
        raise ValueError(f"paired samples differ in length ({len(x)} vs {len(y)})")
    n = len(x)
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if n < 3 or np.ptp(xs) == 0 or np.ptp(ys) == 0:
        return Correlation(r=None, p=None, n=n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = pearsonr(xs, ys)
    return Correlation(r=float(result.statistic), p=float(result.pvalue), n=n)

"""Uncertainty and association for every reported rate.

Benchmark sets are small (150–250 tasks per intent), so a rate without an interval invites over-reading a few points'
difference. Every rate gets a percentile bootstrap interval with a fixed, recorded seed (reruns print the same
bounds); runs with several epochs also get pass^k (tau-bench's consistency estimator); trajectory statistics get
Pearson's r with its n and p-value (the paper's App. F analysis). Binary rates also get a Wilson score interval,
which stays honest at 0/n and n/n where the bootstrap collapses to a point.

Comparing two runs on the same tasks is a paired question: `paired_difference_ci` resamples task pairs, and
`mcnemar_exact` tests binary success on the discordant pairs (tasks one run solved and the other did not).
"""

from __future__ import annotations

import math
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
    if not arrays:
        return Interval(value=None, low=None, high=None, n=0, confidence=confidence, resamples=resamples, seed=seed)
    value = float(np.mean([a.mean() for a in arrays]))
    rng = np.random.default_rng(seed)
    resampled_means = np.zeros(resamples)
    for array in arrays:
        picks = rng.integers(0, len(array), size=(resamples, len(array)))
        resampled_means += array[picks].mean(axis=1)
    resampled_means /= len(arrays)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(resampled_means, [tail, 100.0 - tail])
    return Interval(
        value=value, low=float(low), high=float(high), n=n, confidence=confidence, resamples=resamples, seed=seed
    )


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


def pass_hat_curve(trials: Sequence[tuple[int, int]]) -> dict[int, float | None]:
    """pass^k for every k that some task has tries for (k = 1 .. the most tries of one task); empty when no task was
    tried twice. Bounded by the tries that exist, not by the epoch numbers they carry: one episode recorded as epoch
    10^9 is one try, not a billion values of k to compute."""
    most = max((n for n, _ in trials), default=0)
    return {k: pass_hat_k(trials, k) for k in range(1, most + 1)} if most > 1 else {}


class Correlation(BaseModel):
    """Pearson's r between two paired samples, with what a reader needs to judge it."""

    r: float | None
    """None when undefined: fewer than 3 pairs or a constant sample."""
    p: float | None
    n: int
    undefined: str | None = None
    """Why r is None: "fewer than 3 pairs", "y is constant" (e.g. every episode succeeded), "x is constant"."""


def pearson(x: Sequence[float], y: Sequence[float]) -> Correlation:
    """Pearson correlation of paired samples, computed as scipy.stats.pearsonr computes it (its steps, and its
    p-value from the same incomplete beta function) without importing scipy.stats, which costs a cold `shopbench
    score` about a second; undefined cases give r = None instead of a warning and NaN."""
    from scipy.special import betaincc

    if len(x) != len(y):
        raise ValueError(f"paired samples differ in length ({len(x)} vs {len(y)})")
    n = len(x)
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if n < 3:
        return Correlation(r=None, p=None, n=n, undefined="fewer than 3 pairs")
    if np.ptp(ys) == 0:
        return Correlation(r=None, p=None, n=n, undefined="y is constant")
    if np.ptp(xs) == 0:
        return Correlation(r=None, p=None, n=n, undefined="x is constant")
    xm, ym = xs - xs.mean(), ys - ys.mean()
    xmax, ymax = np.abs(xm).max(), np.abs(ym).max()
    normxm, normym = xmax * np.linalg.vector_norm(xm / xmax), ymax * np.linalg.vector_norm(ym / ymax)
    r = float(np.clip(np.vecdot(xm / normxm, ym / normym), -1.0, 1.0))
    ab = n / 2 - 1  # r is Beta(ab, ab) on [-1, 1] under independence; two-sided p
    return Correlation(r=r, p=float(2 * betaincc(ab, ab, (abs(r) + 1) / 2)), n=n)


def wilson_ci(successes: int, n: int, *, confidence: float = CONFIDENCE) -> Interval:
    """Wilson score interval of a binomial rate (scipy's, no continuity correction).

    Unlike the bootstrap, it does not collapse to a zero-width interval at 0/n or n/n (a human who solved 1 of 1
    tasks gets [0.21, 1.00], not [1.00, 1.00]), so it is printed next to the bootstrap interval for every rate."""
    from scipy.stats import binomtest

    if n <= 0:
        return Interval(value=None, low=None, high=None, n=0, confidence=confidence, resamples=0, seed=0,
                        method="Wilson score")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in [0, n]; got {successes} of {n}")
    interval = binomtest(successes, n).proportion_ci(confidence_level=confidence, method="wilson")
    return Interval(value=successes / n, low=float(interval.low), high=float(interval.high), n=n,
                    confidence=confidence, resamples=0, seed=0, method="Wilson score")


def paired_difference_ci(
    a: Sequence[float],
    b: Sequence[float],
    *,
    confidence: float = CONFIDENCE,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> Interval:
    """Mean of a − b over paired observations, with a paired percentile bootstrap interval (pairs are resampled
    together, so the task-to-task variation both runs share cancels out)."""
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length ({len(a)} vs {len(b)})")
    interval = bootstrap_ci([x - y for x, y in zip(a, b, strict=True)], confidence=confidence, resamples=resamples,
                            seed=seed)
    return interval.model_copy(update={"method": "paired percentile bootstrap"})


def stratified_paired_difference_ci(
    groups: Sequence[tuple[Sequence[float], Sequence[float]]],
    *,
    confidence: float = CONFIDENCE,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> Interval:
    """Unweighted mean over groups of the per-group mean difference (a "mean over intents" difference), resampling
    pairs within each group."""
    differences = []
    for a, b in groups:
        if len(a) != len(b):
            raise ValueError(f"paired samples differ in length ({len(a)} vs {len(b)})")
        differences.append([x - y for x, y in zip(a, b, strict=True)])
    interval = stratified_bootstrap_ci(differences, confidence=confidence, resamples=resamples, seed=seed)
    return interval.model_copy(update={"method": "paired percentile bootstrap, stratified by group"})


class McNemar(BaseModel):
    """The exact McNemar test on paired binary outcomes: only the discordant pairs inform it."""

    a_only: int
    """Pairs where A succeeded and B failed."""
    b_only: int
    """Pairs where B succeeded and A failed."""
    both: int
    neither: int
    p: float
    """Two-sided exact p-value: a binomial test of a_only out of a_only + b_only at 1/2 (1.0 with no discordant
    pair)."""
    method: str = "exact McNemar (two-sided binomial test on the discordant pairs)"

    @property
    def n(self) -> int:
        return self.a_only + self.b_only + self.both + self.neither

    def text(self) -> str:
        shown = format_p(self.p)
        return f"{self.a_only} vs {self.b_only} discordant, p {shown if shown.startswith('<') else '= ' + shown}"


def mcnemar_exact(a: Sequence[bool | float], b: Sequence[bool | float]) -> McNemar:
    """Exact McNemar test of paired successes (values must be 0/1 or booleans)."""
    from scipy.stats import binomtest

    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length ({len(a)} vs {len(b)})")
    cells = {(True, False): 0, (False, True): 0, (True, True): 0, (False, False): 0}
    for x, y in zip(a, b, strict=True):
        if x not in (0, 1) or y not in (0, 1):
            raise ValueError(f"McNemar needs binary outcomes; got {x!r} and {y!r}")
        cells[(bool(x), bool(y))] += 1
    a_only, b_only = cells[(True, False)], cells[(False, True)]
    discordant = a_only + b_only
    p = 1.0 if discordant == 0 else float(binomtest(a_only, discordant, 0.5, alternative="two-sided").pvalue)
    return McNemar(a_only=a_only, b_only=b_only, both=cells[(True, True)], neither=cells[(False, False)], p=min(p, 1.0))


def format_p(p: float | None) -> str:
    """p-values as a reader wants them: three significant digits, "< 0.0001" below that."""
    if p is None:
        return "–"
    if p < 1e-4:
        return "< 0.0001"
    return f"{p:.4f}" if p < 0.01 else f"{p:.3f}"

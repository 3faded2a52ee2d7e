"""Significance tests between runs, bootstrap confidence intervals and the comparison of a campaign.

Every test takes a ``runs × topics`` matrix of one metric's per-topic
values (:meth:`axiometer.scoring.ScoreResult.matrix`) and a list of pairs of
rows ``(i, j)`` (default: every ``i < j`` in row order), and returns one
two-sided p-value per pair, in the order of the pairs. Each tests the null
hypothesis that the two runs are equally good on the metric, on the
per-topic differences ``d_t = x_it - x_jt`` (the topics are the matched
samples; Smucker, Allan & Carterette, CIKM 2007, compare the three tests on
TREC runs).

**Ties are exact.** Before any test the values are put on a decimal grid:
12 significant digits of the matrix's largest ``|value|``, as integers
(:func:`_integers`). A metric value computed along two paths differs in its
16th digit (``0.7 - 0.4`` is not ``0.5 - 0.2`` in floats), which would
break the ties that decide the Wilcoxon ranks, its choice of method and the
randomization count; on the grid they are ties again, and float64 holds
every sum and difference of grid values exactly.

- :func:`randomization_test` — Fisher's randomization (permutation) test,
  written here and vectorised over pairs: under the null hypothesis each
  topic's two values are exchangeable, so each ``d_t`` keeps or flips its
  sign with probability 1/2. The statistic is ``|sum_t d_t|`` (the absolute
  mean difference times the number of topics). ``permutations`` sign
  patterns are drawn from ``numpy.random.default_rng(seed)``, the same
  patterns for every pair, and ``p = (c + 1) / (permutations + 1)`` where
  ``c`` counts the patterns whose ``|sum|`` is at least the observed one
  (equal sums count): the observed pattern counts as one of the
  permutations, so p is never 0 (Phipson & Smyth, 2010). With few topics
  (``2**T <= permutations``: 13 topics or fewer for 10,000) every pattern
  is enumerated instead and ``p = c / 2**T`` is exact (scipy's
  ``permutation_test`` does both the same way). The count is integer arithmetic on
  the grid, so it is the same whatever order BLAS adds in: the same
  p-values on every machine for a given numpy.
- :func:`paired_t_test` — ``scipy.stats.ttest_rel``: the t statistic of
  the mean difference with ``T - 1`` degrees of freedom.
- :func:`wilcoxon_test` — ``scipy.stats.wilcoxon`` with its defaults:
  ``zero_method="wilcox"`` (topics where the runs tie are dropped before
  ranking, Wilcoxon's own rule), tied ``|d_t|`` get their average rank, no
  continuity correction; the method is decided for each pair alone, as R's
  ``wilcox.test`` decides it: the exact null distribution for at most 50
  topics with no zero and no tie (where it is exact), else the normal
  approximation with the tie-corrected variance. That is scipy's
  ``method="auto"`` for a single pair except that, for at most 13 topics
  with ties or zeros, ``auto`` enumerates a permutation distribution
  instead (about 80 ms a pair: minutes for a campaign); and ``auto`` on a
  batch decides once for all pairs, so one pair with a tie would change
  every other pair's method.

Conventions where the tests are undefined: a pair whose differences are
all 0 (the runs score the same on every topic) has p = 1 in all three tests
(scipy's t-test returns nan there; the other two give 1 anyway).
Differences that are all equal and non-zero give the t-test an infinite
statistic and ``p = 0``, as scipy returns it. The tests need at least two
topics (:class:`~axiometer.core.ValidationError` otherwise).

:func:`holm` adjusts a family of p-values (Holm, 1979): the k-th smallest
is multiplied by ``m - k + 1``, made non-decreasing, capped at 1.
:func:`bootstrap_ci` gives each run's percentile interval of the mean over
resampled topics (Efron & Tibshirani, 1993, ch. 13); :func:`effect_size` is
Cohen's ``d_z`` for paired samples, ``mean(d) / sd(d)``.

:func:`compare` runs all of it on a scored campaign and returns a
:class:`RunComparison` (reports format it: :mod:`axiometer.reports.compare`).
A verdict compares the p-value with ``alpha`` as computed (``p <= alpha``),
never rounded; a run is *significantly better* than another on a metric when
its mean is higher and the chosen test's p-value (Holm-adjusted across the
pairs of that metric, by default) is at most ``alpha``.
"""

from __future__ import annotations

import contextlib
import math
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from axiometer.core import ProgressCallback, ValidationError, in_phase
from axiometer.views import Rows, Tabular

if TYPE_CHECKING:
    from axiometer.scoring import ScoreResult

__all__ = ["TESTS", "TEST_NAMES", "CORRECTIONS", "all_pairs", "enumerates", "smallest_p_value", "topics_to_reach",
           "randomization_test", "paired_t_test",
           "wilcoxon_test", "holm", "bootstrap_ci", "effect_size", "RunSummary", "PairComparison",
           "MetricComparison", "RunComparison", "compare", "compare_matrices", "run_labels"]

#: The tests, by the name ``--test`` takes.
TESTS = ("randomization", "t", "wilcoxon")

#: How reports name each test.
TEST_NAMES = {"randomization": "Fisher's randomization test", "t": "paired t-test",
              "wilcoxon": "Wilcoxon signed-rank test"}

#: Multiple-comparison corrections across the pairs of one metric.
CORRECTIONS = ("holm", "none")

#: Significant digits of the largest value that the tests see (:func:`_integers`).
DIGITS = 12

#: Every signed sum of a run's grid values stays below this (differences below 2**51 < 2**53,
#: where float64 holds every integer exactly).
_GRID_BOUND = 2.0 ** 50

#: Sign patterns drawn at a time: blocks of this many rows, in order, from one generator.
_PERMUTATION_BLOCK = 10_000

#: Float64 cells of one ``permutations × pairs`` slab (about 32 MB).
_SLAB = 4_000_000


# -- input ---------------------------------------------------------------------------------

def _matrix(matrix: np.ndarray) -> np.ndarray:
    values = np.asarray(matrix, dtype=np.float64)
    if values.ndim != 2:
        raise ValidationError(f"expected a runs × topics matrix, got an array of shape {values.shape}")
    if values.shape[1] < 2:
        raise ValidationError(f"the tests need at least 2 topics, got {values.shape[1]}")
    if not np.all(np.isfinite(values)):
        raise ValidationError("the matrix holds a value that is not finite")
    return values


def all_pairs(runs: int) -> list[tuple[int, int]]:
    """Every pair ``(i, j)`` with ``i < j`` of ``runs`` rows, in row order: (0, 1), (0, 2), ..., (1, 2), ..."""
    return [(i, j) for i in range(runs) for j in range(i + 1, runs)]


def _pairs(runs: int, pairs: Sequence[tuple[int, int]] | None) -> np.ndarray:
    chosen = all_pairs(runs) if pairs is None else list(pairs)
    index = np.asarray(chosen, dtype=np.intp).reshape(-1, 2)
    if index.size and (index.min() < 0 or index.max() >= runs):
        raise ValidationError(f"a pair names a row outside 0..{runs - 1}")
    if np.any(index[:, 0] == index[:, 1]):
        raise ValidationError("a pair compares a run with itself")
    return index


def _differences(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    return values[index[:, 0]] - values[index[:, 1]]


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """scipy warns on undefined cases (0/0, catastrophic cancellation) that the conventions handle."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


# -- the tests -----------------------------------------------------------------------------

def _integers(values: np.ndarray) -> np.ndarray:
    """``values`` on the decimal grid the tests compare them on: ``rint(values * 10**m)``, as
    float64 integers, with ``m`` keeping :data:`DIGITS` significant digits of the largest
    ``|value|`` (fewer when that many topics could make a sum reach :data:`_GRID_BOUND`).

    The same value computed along two paths (``0.7 - 0.4`` and ``0.5 - 0.2``, or ``3/10`` and
    ``0.1 + 0.1 + 0.1``) differs in the 16th digit, which the grid drops; sums and differences
    of grid values are exact, so a tie stays a tie in every test."""
    largest = float(np.max(np.abs(values))) if values.size else 0.0
    if largest == 0.0:
        return np.zeros_like(values)
    topics = values.shape[1]
    m = min(DIGITS - math.ceil(math.log10(largest)),
            math.floor(math.log10(_GRID_BOUND / (topics * largest))))
    return np.rint(values * 10.0 ** m)


def enumerates(topics: int, permutations: int) -> bool:
    """Whether :func:`randomization_test` enumerates every sign pattern of ``topics`` topics instead
    of drawing ``permutations`` of them: when there are at most that many (``2**topics <=
    permutations``; 13 topics or fewer for 10,000)."""
    return topics < 63 and 2 ** topics <= permutations


def smallest_p_value(comparison: "RunComparison") -> float | None:
    """The smallest adjusted p-value the comparison's test could give on its topics, whatever the
    scores; ``None`` for a test without such a floor (the t test; Wilcoxon's normal approximation).

    The randomization test's two-sided p-value is at least ``2 / 2**T`` on ``T`` topics (the
    observed sign pattern and its mirror) when it enumerates, and ``1 / (permutations + 1)`` when
    it draws; Holm's correction multiplies the smallest of a metric's ``m`` p-values by ``m``. Three
    topics give at least 0.25: no pair can be significant at alpha = 0.05 (issue 27).
    """
    if comparison.test != "randomization":
        return None
    topics = len(comparison.topics)
    floor = (2 / 2 ** topics if enumerates(topics, comparison.permutations)
             else 1 / (comparison.permutations + 1))
    return min(1.0, floor * _corrected_family(comparison))


def topics_to_reach(comparison: "RunComparison") -> int:
    """The fewest topics on which the randomization test (enumerating, with the comparison's
    correction) can give an adjusted p-value at most ``comparison.alpha``."""
    return max(1, math.ceil(math.log2(2 * _corrected_family(comparison) / comparison.alpha)))


def _corrected_family(comparison: "RunComparison") -> int:
    """What Holm's correction multiplies a metric's smallest p-value by: its number of pairs (1
    without the correction)."""
    return len(all_pairs(len(comparison.runs))) if comparison.correction == "holm" else 1


def _sign_blocks(topics: int, permutations: int, seed: int | None,
                 exhaustive: bool) -> Iterator[np.ndarray]:
    """The sign patterns, ``+1``/``-1`` float rows, in blocks of at most :data:`_PERMUTATION_BLOCK`:
    every pattern of ``topics`` signs in binary order, or ``permutations`` drawn from
    ``default_rng(seed)`` block after block."""
    if exhaustive:
        bits = np.arange(topics, dtype=np.int64)
        for start in range(0, 2 ** topics, _PERMUTATION_BLOCK):
            codes = np.arange(start, min(start + _PERMUTATION_BLOCK, 2 ** topics), dtype=np.int64)
            yield 1.0 - 2.0 * ((codes[:, None] >> bits) & 1)
        return
    generator = np.random.default_rng(seed)
    for start in range(0, permutations, _PERMUTATION_BLOCK):
        size = min(_PERMUTATION_BLOCK, permutations - start)
        yield 1.0 - 2.0 * generator.integers(0, 2, size=(size, topics), dtype=np.int8)


def randomization_test(matrix: np.ndarray, pairs: Sequence[tuple[int, int]] | None = None,
                       permutations: int = 10_000, seed: int = 0, *, exact: bool | None = None,
                       progress: ProgressCallback | None = None) -> np.ndarray:
    """Fisher's randomization test (two-sided, sign flips of the differences) for each pair of rows.

    ``matrix``: runs × topics values of one metric; ``pairs``: row pairs
    (default :func:`all_pairs`). ``permutations`` random sign patterns of
    the ``T`` topics are drawn from ``numpy.random.default_rng(seed)`` in
    blocks of 10,000, the same for every pair (so a pair's p-value does not
    depend on which other pairs of the matrix are tested with it), and each
    pair gets ``(c + 1) / (permutations + 1)``, ``c`` the number of patterns
    whose ``|sum of signed differences|`` is at least the observed one,
    counted exactly (see the module docstring). When ``2**T <=
    permutations`` (:func:`enumerates`) every pattern is enumerated instead
    and ``p = c / 2**T`` is the exact p-value (the observed pattern is among
    them), whatever the seed; ``exact=True`` always enumerates (up to 24
    topics), ``exact=False`` always draws. ``progress``
    (:class:`~axiometer.core.ProgressCallback`) gets one phase, ``"randomization test"``,
    reported as pairs are counted: ``total`` is the number of pairs times the number of
    blocks of patterns, ``done`` the pairs counted so far over the blocks so far.

    Vectorised: the signed sums of run ``i`` are ``S @ x_i`` for the
    ``patterns × topics`` sign matrix ``S``, and a pair's are the
    difference of its two runs' (exact on the grid), so the work is one
    ``patterns × topics × runs`` product and one comparison per pattern
    and pair.
    """
    values = _matrix(matrix)
    index = _pairs(values.shape[0], pairs)
    if isinstance(permutations, bool) or not isinstance(permutations, (int, np.integer)) or permutations < 1:
        raise ValidationError(f"permutations must be a positive integer, got {permutations!r}")
    permutations = int(permutations)
    topics = values.shape[1]
    exhaustive = enumerates(topics, permutations) if exact is None else bool(exact)
    if exhaustive and topics > 24:
        raise ValidationError(f"exact enumeration of 2^{topics} sign patterns is too much; "
                              "give exact=False or None")
    counts = np.zeros(len(index), dtype=np.int64)
    if len(index) == 0:
        return counts.astype(np.float64)
    used = np.unique(index)
    row = np.full(values.shape[0], -1, dtype=np.intp)
    row[used] = np.arange(len(used))
    grid = _integers(values)[used]                    # runs used × topics, integers
    first, second = row[index[:, 0]], row[index[:, 1]]
    totals = grid.sum(axis=1)
    observed = np.abs(totals[first] - totals[second])
    patterns = 2 ** topics if exhaustive else permutations
    chunk = max(1, _SLAB // min(patterns, _PERMUTATION_BLOCK))
    blocks = -(-patterns // _PERMUTATION_BLOCK)
    total, done = blocks * len(index), 0
    for signs in _sign_blocks(topics, permutations, seed, exhaustive):
        sums = signs @ grid.T                         # patterns × runs used, exact integers
        for start in range(0, len(index), chunk):
            stop = min(start + chunk, len(index))
            slab = sums[:, first[start:stop]] - sums[:, second[start:stop]]
            np.abs(slab, out=slab)
            counts[start:stop] += np.count_nonzero(slab >= observed[start:stop], axis=0)
            done += stop - start
            if progress is not None:
                progress("randomization test", done, total)
    if exhaustive:
        return counts / patterns
    return (counts + 1) / (permutations + 1)


def paired_t_test(matrix: np.ndarray, pairs: Sequence[tuple[int, int]] | None = None) -> np.ndarray:
    """The paired t-test (``scipy.stats.ttest_rel``, two-sided) for each pair of rows; 1 where
    every difference is 0, 0 where every difference is the same non-zero value."""
    from scipy import stats

    values = _integers(_matrix(matrix))
    index = _pairs(values.shape[0], pairs)
    if len(index) == 0:
        return np.zeros(0)
    first, second = values[index[:, 0]], values[index[:, 1]]
    with _quiet():
        p = np.asarray(stats.ttest_rel(first, second, axis=1).pvalue, dtype=np.float64).reshape(-1)
    p[np.all(first == second, axis=1)] = 1.0
    return p


def _wilcoxon_methods(differences: np.ndarray) -> np.ndarray:
    """Each row's method: ``exact`` for at most 50 topics with no zero and no tied ``|d|``, else
    ``asymptotic``."""
    if differences.shape[1] > 50:
        return np.full(len(differences), "asymptotic", dtype=object)
    magnitudes = np.sort(np.abs(differences), axis=1)
    zeros = magnitudes[:, 0] == 0
    ties = np.any(magnitudes[:, 1:] == magnitudes[:, :-1], axis=1)
    return np.where(zeros | ties, "asymptotic", "exact").astype(object)


def wilcoxon_test(matrix: np.ndarray, pairs: Sequence[tuple[int, int]] | None = None) -> np.ndarray:
    """The Wilcoxon signed-rank test (``scipy.stats.wilcoxon``, two-sided, zeros dropped) for each
    pair of rows: the exact distribution for at most 50 topics with no zero and no tie, else the
    normal approximation, decided for each pair alone; 1 where every difference is 0."""
    from scipy import stats

    values = _integers(_matrix(matrix))
    index = _pairs(values.shape[0], pairs)
    p = np.ones(len(index))
    if len(index) == 0:
        return p
    differences = _differences(values, index)
    tied = np.all(differences == 0, axis=1)
    methods = _wilcoxon_methods(differences)
    with _quiet():
        for method in ("exact", "asymptotic"):
            rows = np.flatnonzero((methods == method) & ~tied)
            if rows.size:
                result = stats.wilcoxon(differences[rows], axis=1, method=method)
                p[rows] = np.asarray(result.pvalue, dtype=np.float64).reshape(-1)
    return p


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment (Holm, 1979) of one family of p-values, in their order.

    The k-th smallest of m p-values becomes ``max over i <= k of min(1, (m - i + 1) p_(i))``;
    rejecting where the adjusted value is at most alpha controls the family-wise error at alpha.
    """
    p = np.asarray(p_values, dtype=np.float64).reshape(-1)
    if np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise ValidationError("p-values must lie in [0, 1]")
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = (m - np.arange(m)) * p[order]
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled)) if m else scaled
    return adjusted


def effect_size(matrix: np.ndarray, pairs: Sequence[tuple[int, int]] | None = None) -> np.ndarray:
    """Cohen's ``d_z`` for paired samples per pair: ``mean(d) / sd(d)`` of the per-topic
    differences (``sd`` with ``T - 1``); 0 where every difference is 0, nan where the differences
    are all equal and non-zero (``sd = 0``: undefined)."""
    values = _integers(_matrix(matrix))
    index = _pairs(values.shape[0], pairs)
    differences = _differences(values, index)
    mean = differences.mean(axis=1)
    sd = differences.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = np.where(sd > 0, mean / np.where(sd > 0, sd, 1.0), np.nan)
    d[np.all(differences == 0, axis=1)] = 0.0
    return d


def bootstrap_ci(matrix: np.ndarray, resamples: int = 10_000, confidence: float = 0.95,
                 seed: int = 0) -> np.ndarray:
    """Each row's bootstrap percentile confidence interval of the mean, as a ``runs × 2`` array.

    ``resamples`` resamples of the topics (``T`` topics drawn with
    replacement from ``numpy.random.default_rng(seed)``, the same resamples
    for every row); the interval is the ``(1 - confidence)/2`` and ``(1 +
    confidence)/2`` quantiles of the resampled means (linear interpolation,
    as ``scipy.stats.bootstrap(..., method="percentile")``), clipped to the
    row's smallest and largest value (where every resampled mean lies).
    """
    values = _matrix(matrix)
    if isinstance(resamples, bool) or not isinstance(resamples, (int, np.integer)) or resamples < 1:
        raise ValidationError(f"resamples must be a positive integer, got {resamples!r}")
    if not 0 < confidence < 1:
        raise ValidationError(f"confidence must lie strictly between 0 and 1, got {confidence!r}")
    runs, topics = values.shape
    generator = np.random.default_rng(seed)
    means = np.empty((int(resamples), runs))
    block = max(1, _SLAB // topics)
    for start in range(0, int(resamples), block):
        size = min(block, int(resamples) - start)
        drawn = generator.integers(0, topics, size=(size, topics))
        # How often each topic was drawn in each resample: one bincount over offset indices.
        counts = np.bincount((drawn + topics * np.arange(size)[:, None]).ravel(),
                             minlength=size * topics).reshape(size, topics)
        means[start:start + size] = counts @ values.T / topics
    tail = (1 - confidence) / 2
    interval = np.quantile(means, [tail, 1 - tail], axis=0).T
    return np.clip(interval, values.min(axis=1)[:, None], values.max(axis=1)[:, None])


# -- a comparison ------------------------------------------------------------------------

@dataclass(frozen=True)
class RunSummary:
    """One run on one metric: its mean over the topics and the bootstrap interval of the mean;
    ``better_than`` names the runs it is significantly better than (the report's marks)."""

    run: str
    label: str
    mean: float
    ci_low: float
    ci_high: float
    better_than: tuple[str, ...] = ()


@dataclass(frozen=True)
class PairComparison:
    """Runs ``a`` and ``b`` on one metric.

    ``mean_difference`` is mean(a) − mean(b); ``effect_size`` Cohen's d_z
    (``None`` where undefined); ``p_values[test]`` each test's two-sided
    p-value and ``adjusted[test]`` the same after the comparison's
    correction (Holm across the pairs of the metric, or none);
    ``significant``: the chosen test's adjusted p-value is at most alpha;
    ``better``: the run with the higher mean when significant, else ``None``.
    """

    a: str
    b: str
    mean_difference: float
    effect_size: float | None
    p_values: Mapping[str, float]
    adjusted: Mapping[str, float]
    significant: bool
    better: str | None


@dataclass(frozen=True)
class MetricComparison:
    """One metric: a :class:`RunSummary` per run (in the comparison's run order) and a
    :class:`PairComparison` per pair (every ``i < j`` in that order)."""

    metric: str
    runs: tuple[RunSummary, ...]
    pairs: tuple[PairComparison, ...]

    def summary(self, run: str) -> RunSummary:
        for summary in self.runs:
            if summary.run == run:
                return summary
        raise KeyError(run)

    def pair(self, a: str, b: str) -> PairComparison:
        """The comparison of ``a`` and ``b`` (in either order, as stored)."""
        for pair in self.pairs:
            if {pair.a, pair.b} == {a, b} and a != b:
                return pair
        raise KeyError((a, b))


@dataclass(frozen=True)
class RunComparison(Tabular):
    """Every run against every other on each metric, with the settings that produced it.

    ``runs`` and ``labels`` (``a``, ``b``, ... as the marks name them)
    give the row order; ``topics`` the topics the means are over;
    ``missing`` each run's topics it lacks (scored 0). ``test`` names the
    test whose p-values decide the marks, ``correction`` how they are
    adjusted across the pairs of a metric.
    """

    runs: tuple[str, ...]
    labels: tuple[str, ...]
    topics: tuple[str, ...]
    metrics: tuple[MetricComparison, ...]
    test: str = "randomization"
    alpha: float = 0.05
    correction: str = "holm"
    permutations: int = 10_000
    resamples: int = 10_000
    confidence: float = 0.95
    seed: int = 0
    missing: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def metric(self, name: str) -> MetricComparison:
        for metric in self.metrics:
            if metric.metric == name:
                return metric
        raise KeyError(name)

    def to_rows(self) -> Rows:
        """One row per metric x pair of runs: both means, the difference, the effect size, each
        test's p-value (``p_TEST``) and adjusted p-value (``adjusted_TEST``), and the verdict."""
        rows = []
        for metric in self.metrics:
            means = {summary.run: summary.mean for summary in metric.runs}
            for pair in metric.pairs:
                rows.append({"metric": metric.metric, "a": pair.a, "b": pair.b, "mean_a": means.get(pair.a),
                             "mean_b": means.get(pair.b), "mean_difference": pair.mean_difference,
                             "effect_size": pair.effect_size,
                             **{f"p_{test}": p for test, p in pair.p_values.items()},
                             **{f"adjusted_{test}": p for test, p in pair.adjusted.items()},
                             "significant": pair.significant, "better": pair.better})
        return rows


#: Labels of the runs, in order: the letters with a superscript form in Unicode (no ``q``).
LETTERS = "abcdefghijklmnoprstuvwxyz"


def run_labels(count: int) -> tuple[str, ...]:
    """``a``, ``b``, ... (``q`` skipped: Unicode has no superscript q) for up to 25 runs, else
    ``1``, ``2``, ..."""
    if count <= len(LETTERS):
        return tuple(LETTERS[:count])
    return tuple(str(i) for i in range(1, count + 1))


def _number(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


def compare_matrices(matrices: Mapping[str, np.ndarray], runs: Sequence[str], topics: Sequence[str],
                     *, test: str = "randomization", alpha: float = 0.05, correction: str = "holm",
                     permutations: int = 10_000, resamples: int = 10_000, confidence: float = 0.95,
                     seed: int = 0, missing: Mapping[str, tuple[str, ...]] | None = None,
                     progress: ProgressCallback | None = None) -> RunComparison:
    """Compare ``runs`` on each metric of ``matrices`` (metric name -> runs × topics array).

    Each metric gets the same seed, so its p-values and intervals do not
    depend on which other metrics are compared. ``progress``
    (:class:`~axiometer.core.ProgressCallback`) gets a phase per metric, ``"testing NAME (n/N)"``,
    counted as :func:`randomization_test` counts (whichever ``test`` decides, every test runs).
    """
    if test not in TESTS:
        raise ValidationError(f"unknown test {test!r}; known: {', '.join(TESTS)}")
    if correction not in CORRECTIONS:
        raise ValidationError(f"unknown correction {correction!r}; known: {', '.join(CORRECTIONS)}")
    if not 0 < alpha < 1:
        raise ValidationError(f"alpha must lie strictly between 0 and 1, got {alpha!r}")
    runs, topics = tuple(runs), tuple(topics)
    if len(runs) < 2:
        raise ValidationError(f"a comparison needs at least 2 runs, got {len(runs)}")
    if len(set(runs)) != len(runs):
        raise ValidationError("a run is named twice")
    labels = run_labels(len(runs))
    index = all_pairs(len(runs))
    compared = []
    for number, (metric, matrix) in enumerate(matrices.items(), 1):
        values = _matrix(matrix)
        if values.shape != (len(runs), len(topics)):
            raise ValidationError(f"{metric}: expected a {len(runs)} × {len(topics)} matrix, "
                                  f"got {values.shape[0]} × {values.shape[1]}")
        report = in_phase(progress, f"testing {metric} ({number}/{len(matrices)})")
        p = {"randomization": randomization_test(values, index, permutations, seed, progress=report),
             "t": paired_t_test(values, index), "wilcoxon": wilcoxon_test(values, index)}
        adjusted = {name: holm(p[name]) if correction == "holm" else p[name] for name in TESTS}
        means = values.mean(axis=1)
        totals = _integers(values).sum(axis=1)  # the direction of a difference, on the tests' grid
        interval = bootstrap_ci(values, resamples, confidence, seed)
        effect = effect_size(values, index)
        pairs: list[PairComparison] = []
        better: dict[str, list[str]] = {run: [] for run in runs}
        for k, (i, j) in enumerate(index):
            significant = bool(adjusted[test][k] <= alpha)
            winner = None
            if significant and totals[i] != totals[j]:
                winner, loser = (runs[i], runs[j]) if totals[i] > totals[j] else (runs[j], runs[i])
                better[winner].append(loser)
            pairs.append(PairComparison(
                a=runs[i], b=runs[j], mean_difference=float(means[i] - means[j]),
                effect_size=_number(effect[k]), p_values={name: float(p[name][k]) for name in TESTS},
                adjusted={name: float(adjusted[name][k]) for name in TESTS}, significant=significant,
                better=winner))
        order = {run: n for n, run in enumerate(runs)}
        summaries = tuple(
            RunSummary(run=run, label=labels[n], mean=float(means[n]), ci_low=float(interval[n, 0]),
                       ci_high=float(interval[n, 1]),
                       better_than=tuple(sorted(better[run], key=order.__getitem__)))
            for n, run in enumerate(runs))
        compared.append(MetricComparison(metric=metric, runs=summaries, pairs=tuple(pairs)))
    return RunComparison(runs=runs, labels=labels, topics=topics, metrics=tuple(compared), test=test,
                      alpha=alpha, correction=correction, permutations=permutations, resamples=resamples,
                      confidence=confidence, seed=seed, missing=dict(missing or {}))


def compare(result: ScoreResult, **options) -> RunComparison:
    """Compare the runs of a scored campaign (``score_runs(..., per_topic=True)``) on each of its
    metrics; ``options`` as :func:`compare_matrices` takes them."""
    matrices = {metric: result.matrix(metric) for metric in result.metrics}
    missing = {run: tuple(topics) for run, topics in result.missing.items() if topics}
    return compare_matrices(matrices, result.runs, result.topics, missing=missing, **options)

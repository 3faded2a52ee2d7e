"""Discriminative power: how many pairs of runs a metric tells apart (Türkmen et al. 2023, section 4.3).

Following Zhou et al. as Türkmen et al. do (their Table 1), a metric's
discriminative power is the number of run pairs whose difference is
statistically significant, at the 95 % and 99 % levels, and here also that
number's share of all ``n(n-1)/2`` pairs.

Every pair is tested on its per-topic values (a topic a run lacks scores 0)
with one paired test of :mod:`axiometer.significance`: Fisher's
randomization test (the default; 10,000 random sign flips of the per-topic
differences, two-sided, seeded; every sign pattern, exactly, when there
are no more patterns than permutations: 13 topics or fewer for 10,000), the
paired t-test or the Wilcoxon signed-rank test. A pair counts as significant at level ``alpha`` when its
p-value is ``<= alpha`` (compared as computed). Türkmen et al. use Tukey's
HSD, which controls the family-wise error over all pairs; here each pair is
tested on its own (``correction="none"``, as Sakai's discriminative power
does) unless ``correction="holm"`` adjusts the p-values of one metric's
pairs with Holm–Bonferroni first. Either way the count compares metrics on
one campaign: the same test, the same pairs and (for the randomization
test) the same seed for every metric.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from axiometer.core import ValidationError
from axiometer.meta.stability import all_pairs

__all__ = ["DiscriminativePower", "discriminative_power", "count_significant", "TESTS", "CORRECTIONS",
           "LEVELS", "DEFAULT_PERMUTATIONS"]

#: The significance levels reported (95 % and 99 %).
LEVELS = (0.05, 0.01)

#: The paired tests, by the name ``--test`` takes (as ``axiometer compare`` names them).
TESTS = ("randomization", "t", "wilcoxon")

#: What may adjust one metric's p-values across its pairs.
CORRECTIONS = ("none", "holm")

#: Permutations of the randomization test.
DEFAULT_PERMUTATIONS = 10_000

#: A paired test: ``(matrix, pairs) -> p-value per pair``.
PairedTest = Callable[[np.ndarray, list[tuple[int, int]]], np.ndarray]


@dataclass(frozen=True)
class DiscriminativePower:
    """How many of a metric's ``pairs`` run pairs ``test`` finds significant at each of ``levels``.

    ``significant[k]`` counts the pairs with p ``<= levels[k]``; ``p_values``
    (after ``correction``) are in :func:`~axiometer.meta.stability.all_pairs` order.
    ``exhaustive``: the randomization test enumerated every sign pattern (exact p-values, the
    seed unused) instead of drawing ``permutations`` of them.
    """

    metric: str
    test: str
    correction: str
    permutations: int | None
    seed: int | None
    runs: int
    topics: int
    pairs: int
    levels: tuple[float, ...]
    significant: tuple[int, ...]
    p_values: tuple[float, ...]
    exhaustive: bool = False

    def count(self, level: float) -> int:
        """The number of pairs significant at ``level`` (one of :attr:`levels`)."""
        return self.significant[self.levels.index(level)]

    def share(self, level: float) -> float | None:
        """:meth:`count` over the number of pairs (``None`` without pairs)."""
        return self.count(level) / self.pairs if self.pairs else None


def count_significant(p_values: Sequence[float] | np.ndarray, levels: Sequence[float] = LEVELS
                      ) -> tuple[int, ...]:
    """Per level, the number of p-values ``<= level``."""
    p = np.asarray(p_values, dtype=np.float64)
    if np.any(np.isnan(p)):
        raise ValidationError("a p-value is NaN")
    return tuple(int(np.count_nonzero(p <= level)) for level in levels)


def _named_test(test: str, permutations: int, seed: int) -> PairedTest:
    import axiometer.significance as significance  # the module, not the package root (no cycle through it)

    if test == "randomization":
        return lambda matrix, pairs: significance.randomization_test(matrix, pairs, permutations=permutations,
                                                                      seed=seed)
    if test == "t":
        return significance.paired_t_test
    if test == "wilcoxon":
        return significance.wilcoxon_test
    raise ValidationError(f"unknown test {test!r}; known: {', '.join(TESTS)}")


def discriminative_power(matrix: np.ndarray, metric: str = "", *, test: str | PairedTest = "randomization",
                         permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0, correction: str = "none",
                         levels: Sequence[float] = LEVELS) -> DiscriminativePower:
    """The discriminative power of the metric whose per-topic values are ``matrix`` (runs × topics).

    ``test`` names a test of :data:`TESTS` (``permutations`` and ``seed`` are
    the randomization test's), or is a function ``(matrix, pairs) -> p-values``.
    """
    values = np.asarray(matrix, dtype=np.float64)
    if values.ndim != 2:
        raise ValidationError(f"discriminative power needs a runs × topics matrix, got {values.ndim} dimensions")
    if correction not in CORRECTIONS:
        raise ValidationError(f"unknown correction {correction!r}; known: {', '.join(CORRECTIONS)}")
    n_runs, n_topics = values.shape
    pairs = [tuple(pair) for pair in all_pairs(n_runs).tolist()]
    name = test if isinstance(test, str) else getattr(test, "__name__", "custom")
    randomization = name == "randomization"
    if pairs:
        run_test = _named_test(test, permutations, seed) if isinstance(test, str) else test
        p = np.asarray(run_test(values, pairs), dtype=np.float64)
        if p.shape != (len(pairs),):
            raise ValidationError(f"the {name} test gave {p.shape} p-values for {len(pairs)} pairs")
        if correction == "holm":
            from axiometer.significance import holm

            p = np.asarray(holm(p), dtype=np.float64)
    else:
        p = np.zeros(0)
    exhaustive = False
    if randomization and isinstance(test, str):
        from axiometer.significance import enumerates

        exhaustive = enumerates(n_topics, permutations)
    return DiscriminativePower(metric, name, correction, permutations if randomization else None,
                               seed if randomization and not exhaustive else None, n_runs, n_topics, len(pairs),
                               tuple(levels), count_significant(p, levels), tuple(p.tolist()), exhaustive)

"""Normalised recall Rnorm and normalised precision Pnorm (Rocchio).

    Rnorm(d) = 1 - (sum_j r_j - sum_j j) / (R (N - R))
    Pnorm(d) = 1 - (sum_j log r_j - sum_j log j) / log(N! / ((N - R)! R!))

over a full ranking of the collection's ``N`` documents, with ``r_1 < ... <
r_R`` the ranks of the topic's ``R`` relevant documents (``rel(d) = [r(d) >
0]``) and ``j = 1..R`` (the ideal ranks). Both are 1 for a ranking with every
relevant document on top and 0 for one with every relevant document at the
bottom. The logarithm's base cancels (``log2`` here).

Conventions (definitions §4 leaves them to us):

- ``N`` is a parameter (the collection size), not read from the topic.
- A ranking is the head of the full ranking: the collection's remaining
  ``N - n`` documents follow it, and relevant documents the ranking misses
  are placed **at the very end** (ranks ``N - m + 1 .. N`` for ``m`` missing
  ones), the pessimistic completion. A ranking too long for this (``n + m >
  N``) contradicts ``N`` and raises :class:`~axiometer.core.ValidationError`.
- ``R = 0`` gives 0 (definitions §2's zero-normaliser rule); ``R = N`` gives 1
  (every ranking puts every relevant document on top; the normaliser is 0).

Source: Rocchio, "Performance indices for document retrieval systems", in
Salton (ed.), *Information Storage and Retrieval*, report ISR-8, 1964;
formulas as in van Rijsbergen, *Information Retrieval* (2nd ed., 1979,
chapter 7) and definitions §4 (Giner's Table 3). Pnorm's exact value is a
sympy expression of logarithms of integers.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from axiometer.core import Topic, ValidationError
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import REL_PARAM, Needs, Param, RankingBatch, RelevantNormalisedMetric
from axiometer.metrics.registry import register

#: The collection size. Declared with a default only so that every family
#: parses bare (``parse("Rnorm")``); always give it: ``Rnorm(N=1000)``.
COLLECTION_SIZE = Param("N", int, 20, "collection size: the full ranking has N documents",
                        low=1, grid=(20,))


def relevant_ranks(ranking: Sequence[str], topic: Topic, N: int, name: str, level: int = 1) -> list[int]:
    """Ranks of the R relevant documents (relevant at ``level``) in the ranking completed to ``N``
    documents, missing relevant documents placed at the end (the module's convention)."""
    found = [i for i, d in enumerate(ranking, 1) if topic.relevant_at(d, level)]
    R = topic.count_at(level)
    missing = R - len(found)
    if R > N or len(ranking) + missing > N:
        raise ValidationError(
            f"{name}: a ranking of {len(ranking)} documents missing {missing} of the topic's "
            f"{R} relevant ones does not fit a collection of N={N} documents")
    return found + list(range(N - missing + 1, N + 1))


def _batch_counts(batch: RankingBatch, N: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Per ranking: the relevant mask over positions and the number of missing relevant documents."""
    R = batch.topic.R
    relevant = batch.single > 0
    missing = R - relevant.sum(axis=1)
    if R > N or np.any(batch.lengths + missing > N):
        raise ValidationError(f"{name}: some ranking does not fit a collection of N={N} documents "
                              f"with the topic's {R} relevant ones")
    return relevant, missing


class _NormalisedByRanks(RelevantNormalisedMetric):
    """What Rnorm and Pnorm share: the parameter ``N``, the zero and full cases, the ranks.

    Subclasses give the value from the relevant ranks (``_from_ranks``) and,
    vectorised, from the relevant mask and missing counts (``_from_counts``).
    """

    param_info = (COLLECTION_SIZE, REL_PARAM)
    cutoff_rule = "none"
    needs = Needs(aspects=False, graded=False)
    normalised = True

    N: int
    rel: int

    def compute_relevant(self, ranking: Sequence[str], topic: Topic, A: Arithmetic, R: int) -> Value:
        N = self.N
        return self._from_ranks(relevant_ranks(ranking, topic, N, self.name, self.rel), R, N, A)

    def score_batch_relevant(self, batch: RankingBatch, R: int) -> np.ndarray:
        N = self.N
        relevant, missing = _batch_counts(batch, N, self.name)
        if R == N:
            return np.ones(len(batch.lengths))
        return self._from_counts(relevant, missing, R, N, batch.depth)

    def _from_ranks(self, ranks: list[int], R: int, N: int, A: Arithmetic) -> Value:
        raise NotImplementedError

    def _from_counts(self, relevant: np.ndarray, missing: np.ndarray, R: int, N: int,
                     depth: int) -> np.ndarray:
        raise NotImplementedError


class Rnorm(_NormalisedByRanks):
    """Rnorm = 1 - (sum_j r_j - sum_j j) / (R (N - R)); 0 if R = 0, 1 if R = N.

    ``r_j``: ranks of the relevant documents in the ranking completed to
    ``N`` documents, missing relevant ones at the end. No cutoff.
    Source: Rocchio 1964; van Rijsbergen 1979; definitions §4.
    """

    family = "Rnorm"
    title = "Rnorm"

    def _from_ranks(self, ranks: list[int], R: int, N: int, A: Arithmetic) -> Value:
        excess = sum(ranks) - R * (R + 1) // 2
        return A.one - A.ratio(A.num(excess), A.num(R * (N - R)))

    def _from_counts(self, relevant: np.ndarray, missing: np.ndarray, R: int, N: int,
                     depth: int) -> np.ndarray:
        found = relevant @ np.arange(1, depth + 1, dtype=np.float64)
        # ranks N - m + 1 .. N sum to m N - m (m - 1) / 2
        tail = missing * N - missing * (missing - 1) / 2
        excess = found + tail - R * (R + 1) / 2
        return 1.0 - excess / (R * (N - R))


class Pnorm(_NormalisedByRanks):
    """Pnorm = 1 - (sum_j log r_j - sum_j log j) / log(N! / ((N-R)! R!)); 0 if R = 0, 1 if R = N.

    ``r_j`` as for Rnorm (missing relevant documents at the end). Exact
    values are sympy expressions: ``log2(prod r_j) - log2(R!)`` over
    ``log2(C(N, R))``. No cutoff. Source: Rocchio 1964; van Rijsbergen 1979;
    definitions §4.
    """

    family = "Pnorm"
    title = "Pnorm"

    def _from_ranks(self, ranks: list[int], R: int, N: int, A: Arithmetic) -> Value:
        # Integers go to A.log2 unconverted: math.log2 takes big ints exactly,
        # where float() of a product of ranks could overflow.
        excess = A.log2(math.prod(ranks)) - A.log2(math.factorial(R))
        return A.one - A.ratio(excess, A.log2(math.comb(N, R)))

    def _from_counts(self, relevant: np.ndarray, missing: np.ndarray, R: int, N: int,
                     depth: int) -> np.ndarray:
        # cumulative[t] = log2(t!) for t = 0..N
        cumulative = np.concatenate(([0.0], np.cumsum(np.log2(np.arange(1, N + 1, dtype=np.float64)))))
        found = relevant @ np.log2(np.arange(1, depth + 1, dtype=np.float64))
        tail = cumulative[N] - cumulative[N - missing]  # log2 of ranks N - m + 1 .. N
        excess = found + tail - cumulative[R]
        return 1.0 - excess / (cumulative[N] - cumulative[N - R] - cumulative[R])


register(Rnorm, Pnorm)

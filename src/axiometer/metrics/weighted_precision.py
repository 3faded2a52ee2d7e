"""Weighted R-precision wRprec and average weighted precision AWP.

    wRprec(d) = cg(R) / cg*(R)
    AWP(d)    = (1/R) sum_i I(i) cg(i) / cg*(i)

``I(i) = [r(d_i) > 0]``, ``cg(i) = sum_{j<=i} g_j`` with gain ``g_j = r(d_j)``
(single-aspect view, zero past the ranking's end), ``cg*`` the ideal's (the
topic's judged values sorted descending,
:func:`axiometer.metrics.dcg.ideal_gains`), flat once the ideal runs out of
relevant documents. ``R`` is the topic's number of relevant documents; both
measures are 0 when ``R = 0`` (definitions §2: a normaliser of 0 gives 0).
On binary judgments wRprec is R-precision; AWP is AP within the first R
ranks, but divides ``C(i)`` by ``cg*(i) = min(i, R)`` rather than ``i``.

Source: Kishida, "Property of average precision and its generalization: an
examination of evaluation indicator for information retrieval experiments",
NII Technical Report, 2005 (average weighted precision; weighted R-precision
as its R-cutoff analogue), both as restated in definitions §4 (Giner's
Table 3; the extraction of Giner's paper lost the formulas, so the restatement in
definitions §4 is what this module follows).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Topic
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import Needs, RankingBatch, RelevantNormalisedMetric, batch_cutoff
from axiometer.metrics.dcg import ideal_gains
from axiometer.metrics.registry import register
from axiometer.metrics.sakai import ideal_cumulative
from axiometer.metrics.sliding_ratio import SlidingRatio

__all__ = ["WeightedRPrecision", "AverageWeightedPrecision"]


class WeightedRPrecision(RelevantNormalisedMetric):
    """wRprec = cg(R) / cg*(R) = sum_{i<=R} r(d_i) / sum_{i<=R} g*_i; 0 if R = 0.

    Gain ``r(d)`` (single-aspect view), ideal from the topic's judged values.
    No cutoff (R is the cutoff). Source: Kishida 2005; definitions §4.
    """

    family = "wRprec"
    title = "weighted R-precision"
    cutoff_rule = "none"
    needs = Needs(aspects=False, graded=True)
    normalised = True

    # wRprec is the sliding ratio at cutoff R (the topic's relevant count).
    def compute_relevant(self, ranking: Sequence[str], topic: Topic, A: Arithmetic, R: int) -> Value:
        return SlidingRatio(R).compute(ranking, topic, A)

    def score_batch_relevant(self, batch: RankingBatch, R: int) -> np.ndarray:
        return SlidingRatio(R).score_batch(batch)


class AverageWeightedPrecision(RelevantNormalisedMetric):
    """AWP = (1/R) sum_{i<=k} I(i) cg(i) / cg*(i); 0 if R = 0.

    ``I(i) = [r(d_i) > 0]``; ``cg``/``cg*`` cumulative gain of the ranking
    and of the ideal. The optional cutoff stops the sum at ``k`` and keeps
    the divisor ``R`` (as AP@k). Source: Kishida 2005; definitions §4.
    """

    family = "AWP"
    title = "average weighted precision"
    needs = Needs(aspects=False, graded=True)
    normalised = True

    def compute_relevant(self, ranking: Sequence[str], topic: Topic, A: Arithmetic, R: int) -> Value:
        ideal = ideal_gains([A.num(v) for v in topic.relevance_values()], None)
        gained, ideal_gained, total = A.zero, A.zero, A.zero
        for i, d in enumerate(self.window(ranking), 1):
            if i <= len(ideal):
                ideal_gained = ideal_gained + ideal[i - 1]
            r = A.r(topic, d)
            if r:
                gained = gained + r
                total = total + gained / ideal_gained
        return total / A.num(R)

    def score_batch_relevant(self, batch: RankingBatch, R: int) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        gains = batch.single[:, :k]
        relevant = gains > 0
        terms = np.cumsum(gains, axis=1) / ideal_cumulative(batch, k)
        return np.where(relevant, terms, 0.0).sum(axis=1) / R


register(WeightedRPrecision, AverageWeightedPrecision)

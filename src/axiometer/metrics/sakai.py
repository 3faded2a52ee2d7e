"""Sakai's R-measure and Q-measure.

    R-measure(d) = (C(R) + beta cg(R)) / (R + beta cg*(R))
    Q-measure(d) = (1/R) sum_i I(i) (C(i) + beta cg(i)) / (i + beta cg*(i))

``I(i) = [r(d_i) > 0]``, ``C(i) = sum_{j<=i} I(j)``, ``cg(i) = sum_{j<=i}
g_j`` with gain ``g_j = r(d_j)`` (single-aspect view, zero past the
ranking's end); ``cg*`` is the ideal's (the topic's judged values sorted
descending, :func:`axiometer.metrics.dcg.ideal_gains`), constant once the
ideal runs out of relevant documents. ``R`` is the topic's number of relevant
documents; both measures are 0 when ``R = 0``. ``beta`` >= 0 weighs graded
gain against binary precision (``beta = 0``: R-precision and AP).

Source: Sakai, "New performance metrics based on multigrade relevance: their
application to question answering", NTCIR-4, 2004 (Q-measure and
R-measure), as restated in definitions §4 (Giner's Table 3).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Topic
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import Needs, Param, RankingBatch, RelevantNormalisedMetric, batch_cutoff
from axiometer.metrics.dcg import batch_ideal_gains, ideal_gains
from axiometer.metrics.registry import register

#: Sakai's beta, the weight of cumulative gain against the relevant count.
BETA = Param("beta", float, 1, "weight of cumulative gain against the relevant-document count",
             low=0, grid=(1,))


def ideal_cumulative(batch: RankingBatch, depth: int) -> np.ndarray:
    """``cg*(i)`` for ``i = 1..depth`` as floats (flat once the ideal is exhausted)."""
    ideal = batch_ideal_gains(batch, depth)
    padded = np.zeros(depth)
    padded[: len(ideal)] = ideal
    return np.cumsum(padded)


class RMeasure(RelevantNormalisedMetric):
    """R-measure = (C(R) + beta cg(R)) / (R + beta cg*(R)); 0 if R = 0.

    ``C`` counts relevant documents, ``cg`` sums gains ``r(d)``, both over
    the first R positions; ``cg*`` is the ideal's. No cutoff (R is the cutoff).
    Source: Sakai, NTCIR-4 2004; definitions §4.
    """

    family = "R_measure"
    title = "R-measure"
    param_info = (BETA,)
    cutoff_rule = "none"
    needs = Needs(aspects=False, graded=True)
    normalised = True

    beta: float

    def compute_relevant(self, ranking: Sequence[str], topic: Topic, A: Arithmetic, R: int) -> Value:
        beta = A.num(self.beta)
        hits, gained = A.zero, A.zero
        for d in ranking[:R]:
            r = A.r(topic, d)
            if r:
                hits = hits + A.one
                gained = gained + r
        ideal = A.zero
        for g in ideal_gains([A.num(v) for v in topic.relevance_values()], R):
            ideal = ideal + g
        return (hits + beta * gained) / (A.num(R) + beta * ideal)

    def score_batch_relevant(self, batch: RankingBatch, R: int) -> np.ndarray:
        beta = float(self.beta)
        window = batch.single[:, :R]
        ideal = float(ideal_cumulative(batch, R)[-1])
        return ((window > 0).sum(axis=1) + beta * window.sum(axis=1)) / (R + beta * ideal)


class QMeasure(RelevantNormalisedMetric):
    """Q-measure = (1/R) sum_{i<=k} I(i) (C(i) + beta cg(i)) / (i + beta cg*(i)); 0 if R = 0.

    ``I(i) = [r(d_i) > 0]``, ``C``/``cg``/``cg*`` as for the R-measure. The
    optional cutoff stops the sum at ``k`` and keeps the divisor ``R`` (as AP@k).
    Source: Sakai, NTCIR-4 2004; definitions §4.
    """

    family = "Q_measure"
    title = "Q-measure"
    param_info = (BETA,)
    needs = Needs(aspects=False, graded=True)
    normalised = True

    beta: float

    def compute_relevant(self, ranking: Sequence[str], topic: Topic, A: Arithmetic, R: int) -> Value:
        beta = A.num(self.beta)
        ideal = ideal_gains([A.num(v) for v in topic.relevance_values()], None)
        hits, gained, ideal_gained = A.zero, A.zero, A.zero
        total = A.zero
        for i, d in enumerate(self.window(ranking), 1):
            if i <= len(ideal):
                ideal_gained = ideal_gained + ideal[i - 1]
            r = A.r(topic, d)
            if r:
                hits = hits + A.one
                gained = gained + r
                total = total + (hits + beta * gained) / (A.num(i) + beta * ideal_gained)
        return total / A.num(R)

    def score_batch_relevant(self, batch: RankingBatch, R: int) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        beta = float(self.beta)
        gains = batch.single[:, :k]
        relevant = gains > 0
        hits = np.cumsum(relevant, axis=1, dtype=np.float64)
        gained = np.cumsum(gains, axis=1)
        ranks = np.arange(1, k + 1, dtype=np.float64)
        terms = (hits + beta * gained) / (ranks + beta * ideal_cumulative(batch, k))
        return np.where(relevant, terms, 0.0).sum(axis=1) / R


register(RMeasure, QMeasure)

"""R-precision, Rprec.

    Rprec(d) = C(R) / R,   0 if R = 0

with ``C(i)`` the number of relevant documents (``rel(d) = [r(d) > 0]``) in
the first ``i`` positions and ``R`` the topic's number of relevant documents.
A ranking shorter than ``R`` counts only the positions it has (the divisor
stays ``R``): trec_eval's ``Rprec``.

Source: Buckley & Voorhees, "Retrieval System Evaluation", chapter 3 of
*TREC: Experiment and Evaluation in Information Retrieval*, MIT Press 2005
(trec_eval ``m_Rprec.c``); listed as a rank-based measure in Giner's
Table 3 (SPEC section 4).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.metrics.arithmetic import Arithmetic
from axiometer.metrics.base import BuiltinMetric, Needs, RankingBatch


class RPrecision(BuiltinMetric):
    """Rprec = C(R) / R: precision at rank R, R = the topic's relevant documents; 0 if R = 0.

    Binary relevance ``rel(d) = [r(d) > 0]``; no cutoff (R is the cutoff).
    Source: Buckley & Voorhees 2005; trec_eval ``Rprec``.
    """

    family = "Rprec"
    title = "R-precision"
    cutoff_rule = "none"
    needs = Needs(aspects=False, graded=False)
    normalised = True

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Any:
        R = topic.R
        hits = sum(1 for d in ranking[:R] if topic.rel(d))
        return A.ratio(A.num(hits), A.num(R))

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        R = batch.topic.R
        if R == 0:
            return np.zeros(len(batch.lengths))
        return (batch.single[:, :R] > 0).sum(axis=1) / R

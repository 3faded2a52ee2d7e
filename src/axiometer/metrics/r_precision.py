"""R-precision, Rprec.

    Rprec(d) = C(R) / R,   0 if R = 0

with ``C(i)`` the number of relevant documents (``rel(d) = [r(d) > 0]``) in
the first ``i`` positions and ``R`` the topic's number of relevant documents.
A ranking shorter than ``R`` counts only the positions it has (the divisor
stays ``R``): trec_eval's ``Rprec``.

Source: Buckley & Voorhees, "Retrieval System Evaluation", chapter 3 of
*TREC: Experiment and Evaluation in Information Retrieval*, MIT Press 2005
(trec_eval ``m_Rprec.c``); listed as a rank-based measure in Giner's
Table 3 (definitions §4).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Topic
from axiometer.grades import TREC_EVAL
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import REL_PARAM, Needs, RankingBatch, RelevantNormalisedMetric
from axiometer.metrics.registry import register


class RPrecision(RelevantNormalisedMetric):
    """Rprec = C(R) / R: precision at rank R, R = the topic's relevant documents; 0 if R = 0.

    Binary relevance ``rel(d) = [r(d) > 0]``; no cutoff (R is the cutoff).
    Source: Buckley & Voorhees 2005; trec_eval ``Rprec``.
    """

    family = "Rprec"
    grades_convention = TREC_EVAL
    title = "R-precision"
    cutoff_rule = "none"
    needs = Needs(aspects=False, graded=False)
    normalised = True
    param_info = (REL_PARAM,)

    rel: int

    def compute_relevant(self, ranking: Sequence[str], topic: Topic, A: Arithmetic, R: int) -> Value:
        hits = sum(1 for d in ranking[:R] if topic.relevant_at(d, self.rel))
        return A.num(hits) / A.num(R)

    def score_batch_relevant(self, batch: RankingBatch, R: int) -> np.ndarray:
        return (batch.single[:, :R] > 0).sum(axis=1) / R


register(RPrecision)

"""Average precision, AP (and AP@k).

    AP(d) = (1/R) * sum_{i <= min(k, n)} rel(d_i) * P@i(d),   0 if R = 0

with ``rel(d) = [r(d) > 0]``, ``P@i`` the precision at rank ``i`` and ``R``
the number of relevant documents of the topic (a property of the topic, not
of the ranking). With a cutoff the sum stops at ``k`` but the denominator
stays ``R`` (not ``min(R, k)``): trec_eval's ``map`` and ``map_cut_k``.

Source: Buckley & Voorhees, "Evaluating evaluation measure stability",
SIGIR 2000 (non-interpolated AP as in trec_eval); the SIGIR 2018 table's
third row (Amigó, Spina & Carrillo-de-Albornoz 2018, section 4).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Topic
from axiometer.grades import TREC_EVAL
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import REL_PARAM, Needs, RankingBatch, RelevantNormalisedMetric, batch_cutoff
from axiometer.metrics.registry import register


class AveragePrecision(RelevantNormalisedMetric):
    """AP = (1/R) sum_{i<=k} rel(d_i) P@i; 0 when the topic has no relevant document.

    Binary relevance ``rel(d) = [r(d) > 0]``; ``R`` = the topic's relevant
    documents. Source: trec_eval ``map`` / ``map_cut_k``; Buckley & Voorhees,
    SIGIR 2000; Amigó et al., SIGIR 2018, Table 1.
    """

    family = "AP"
    grades_convention = TREC_EVAL
    title = "AP"
    needs = Needs(aspects=False, graded=False)
    param_info = (REL_PARAM,)

    rel: int

    def compute_relevant(self, ranking: Sequence[str], topic: Topic, A: Arithmetic, R: int) -> Value:
        hits = 0
        total = A.zero
        for i, d in enumerate(self.window(ranking), 1):
            if topic.relevant_at(d, self.rel):
                hits += 1
                total = total + A.num(hits) / A.num(i)
        return total / A.num(R)

    def score_batch_relevant(self, batch: RankingBatch, R: int) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        relevant = batch.single[:, :k] > 0
        hits = np.cumsum(relevant, axis=1, dtype=np.float64)
        precision_at = hits / np.arange(1, k + 1, dtype=np.float64)
        return np.where(relevant, precision_at, 0.0).sum(axis=1) / R


register(AveragePrecision)

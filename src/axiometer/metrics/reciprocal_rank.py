"""Reciprocal rank, RR.

    RR(d) = 1 / min{i <= min(k, n) : rel(d_i)},  0 if no such i

with ``rel(d) = [r(d) > 0]`` the binary view; an optional cutoff ``k`` only
looks at the first ``k`` positions. This is trec_eval's ``recip_rank``.

Source: Voorhees, "The TREC-8 Question Answering Track Report", TREC 1999
(mean reciprocal rank); the SIGIR 2018 table's second row (Amigó, Spina &
Carrillo-de-Albornoz 2018, section 4).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.grades import TREC_EVAL
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import (REL_PARAM, BuiltinMetric, Needs, RankingBatch, batch_cutoff,
                                    batch_needs_level_one)
from axiometer.metrics.registry import register


class ReciprocalRank(BuiltinMetric):
    """RR: one over the rank of the first relevant document, 0 if there is none.

    ``RR = 1 / min{i <= k : rel(d_i)}``; binary relevance ``rel(d) = [r(d) > 0]``.
    Source: trec_eval ``recip_rank``; Voorhees, TREC 1999; Amigó et al.,
    SIGIR 2018, Table 1.
    """

    family = "RR"
    grades_convention = TREC_EVAL
    title = "RR"
    needs = Needs(aspects=False, graded=False)
    param_info = (REL_PARAM,)

    rel: int

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        for i, d in enumerate(self.window(ranking), 1):
            if topic.relevant_at(d, self.rel):
                return A.one / A.num(i)
        return A.zero

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        batch_needs_level_one(self)
        k = batch_cutoff(batch, self.cutoff)
        if k == 0:
            return np.zeros(len(batch.lengths))
        relevant = batch.single[:, :k] > 0
        first = relevant.argmax(axis=1) + 1  # argmax finds the first True
        return np.where(relevant.any(axis=1), 1.0 / first, 0.0)


register(ReciprocalRank)

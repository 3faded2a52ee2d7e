"""Binary preference, bpref.

    bpref(d) = (1/R) sum_{relevant d_i} (1 - min(n_i, R) / min(Nn, R)),   0 if R = 0

where the sum runs over the relevant documents of the ranking
(``rel(d) = [r(d) > 0]``), ``n_i`` is the number of *judged* non-relevant
documents ranked above ``d_i``, ``Nn`` the topic's number of judged
non-relevant documents and ``R`` its number of relevant documents. A term
with ``n_i = 0`` is 1 (so ``Nn = 0`` never divides by zero). Unjudged
documents are skipped: they neither count in ``n_i`` nor score.

Source: Buckley & Voorhees, "Retrieval evaluation with incomplete
information", SIGIR 2004, as implemented by trec_eval ``bpref``
(``m_bpref.c``: the ``min(n_i, R) / min(Nn, R)`` form); definitions §4.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Topic
from axiometer.grades import TREC_EVAL
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import REL_PARAM, Needs, RankingBatch, RelevantNormalisedMetric
from axiometer.metrics.registry import register


def judged_nonrelevant(topic: Topic, level: int = 1) -> int:
    """``Nn``: the topic's judged documents not relevant at ``level`` (``r(d) = 0`` at level 1)."""
    return sum(1 for d in topic.documents if not topic.relevant_at(d, level))


class Bpref(RelevantNormalisedMetric):
    """bpref = (1/R) sum_{relevant d_i} (1 - min(n_i, R) / min(Nn, R)); 0 if R = 0.

    ``n_i``: judged non-relevant documents above ``d_i``; ``Nn``: the topic's
    judged non-relevant documents; unjudged documents are ignored. No cutoff.
    Source: Buckley & Voorhees, SIGIR 2004; trec_eval ``bpref``.
    """

    family = "bpref"
    grades_convention = TREC_EVAL
    title = "bpref"
    cutoff_rule = "none"
    needs = Needs(aspects=False, graded=False)
    normalised = True
    param_info = (REL_PARAM,)

    rel: int

    def compute_relevant(self, ranking: Sequence[str], topic: Topic, A: Arithmetic, R: int) -> Value:
        divisor = A.num(min(judged_nonrelevant(topic, self.rel), R))
        above = 0
        total = A.zero
        for d in ranking:
            if topic.relevant_at(d, self.rel):
                total = total + (A.one - A.num(min(above, R)) / divisor if above else A.one)
            elif topic.is_judged(d):
                above += 1
        return total / A.num(R)

    def score_batch_relevant(self, batch: RankingBatch, R: int) -> np.ndarray:
        values = batch.judged_single
        divisor = float(min(int((values <= 0).sum()), R))
        relevant = batch.single > 0
        # Batches made by from_rankings/from_rows always know which documents are judged.
        assert batch.judged is not None, "bpref needs a batch that records judged documents"
        nonrelevant = batch.judged & ~relevant & batch.positions_valid()
        above = np.cumsum(nonrelevant, axis=1) - nonrelevant  # judged non-relevant strictly above
        penalty = np.minimum(above, R) / divisor if divisor else np.zeros(above.shape)
        return np.where(relevant, 1.0 - penalty, 0.0).sum(axis=1) / R


register(Bpref)

"""Recall at k, R@k.

    R@k(d) = C(k) / R,   0 if R = 0

with ``C(k)`` the number of relevant documents (``rel(d) = [r(d) > 0]``, or
``grade >= rel``) in the first ``k`` positions and ``R`` the topic's number
of relevant documents. Relevant documents the ranking never retrieves count
in ``R``: trec_eval's ``recall_k`` (ir_measures' ``R@k``).

Source: the standard recall (van Rijsbergen, *Information Retrieval*, 1979,
ch. 7) of the set of the first ``k`` documents; trec_eval ``recall_k``.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Topic
from axiometer.grades import TREC_EVAL
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import REL_PARAM, Needs, RankingBatch, RelevantNormalisedMetric, batch_cutoff
from axiometer.metrics.registry import register


class RecallAtK(RelevantNormalisedMetric):
    """R@k = C(k) / R: the fraction of the topic's relevant documents in the first k positions.

    Binary relevance ``rel(d) = [r(d) > 0]``; 0 if the topic has no relevant document.
    A cutoff is required (``R`` alone means ``R@10``).
    Source: van Rijsbergen 1979, ch. 7; trec_eval ``recall_k``.
    """

    family = "R"
    grades_convention = TREC_EVAL
    title = "R@k"
    cutoff_rule = "required"
    default_cutoff = 10
    needs = Needs(aspects=False, graded=False)
    normalised = True
    param_info = (REL_PARAM,)

    rel: int
    cutoff: int

    def compute_relevant(self, ranking: Sequence[str], topic: Topic, A: Arithmetic, R: int) -> Value:
        hits = sum(1 for d in self.window(ranking) if topic.relevant_at(d, self.rel))
        return A.num(hits) / A.num(R)

    def score_batch_relevant(self, batch: RankingBatch, R: int) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        return (batch.single[:, :k] > 0).sum(axis=1) / R


register(RecallAtK)

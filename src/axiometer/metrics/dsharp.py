"""D#-nDCG@k: a mixture of subtopic recall and D-nDCG.

    D#-nDCG@k(d) = gamma * S-Recall@k(d) + (1 - gamma) * D-nDCG@k(d)
    D-nDCG@k(d)  = DCG@k of the global gains / DCG@k of the ideal global gains
    GG(d)        = sum_t w(t) r(d, t)

The global gain weighs each aspect's relevance by the aspect's weight (the
intent probability); the ideal ranking sorts the topic's judged documents by
``GG`` descending (a plain sort, no greedy search: D-nDCG has no redundancy
term). S-Recall@k is :class:`~axiometer.metrics.subtopic_recall.SubtopicRecall`
(coverable aspects only, as ndeval's ``strec``). A zero ideal gives
D-nDCG = 0.

Source: Sakai & Song, "Evaluating diversified search results using
per-intent graded relevance", SIGIR 2011 (D#-measures, gamma = 0.5); Sakai,
Craswell, Song, Robertson, Dou & Lin, EVIA 2010 (D-measures).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.metrics.arithmetic import FLOAT, Arithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, Param, RankingBatch, batch_cutoff
from axiometer.metrics.dcg import dcg, discounts, ideal_gains
from axiometer.metrics.registry import register
from axiometer.metrics.subtopic_recall import SubtopicRecall

__all__ = ["global_gain", "DSharpNDCG"]


def global_gain(vector: Iterable[Value], weights: Iterable[Value], A: Arithmetic) -> Value:
    """``GG(d) = sum_t w(t) r(d, t)`` (values already read by the arithmetic)."""
    total = A.zero
    for w, r in zip(weights, vector):
        if r:
            total = total + w * r
    return total


class DSharpNDCG(BuiltinMetric):
    """D#-nDCG@k = gamma * S-Recall@k + (1-gamma) * D-nDCG@k.

    D-nDCG uses the global gain ``GG(d) = sum_t w(t) r(d,t)`` and its own ideal
    (judged documents sorted by ``GG``). Cutoff required (default 10).
    Source: Sakai & Song, SIGIR 2011.
    """

    family = "DSharp_nDCG"
    title = "D#-nDCG@k"
    param_info = (
        Param("gamma", float, 0.5, "weight of S-Recall@k against D-nDCG@k",
              low=0, high=1, grid=(0.5,)),
    )
    cutoff_rule = "required"
    default_cutoff = 10
    needs = Needs(aspects=True, graded=True)
    normalised = True

    gamma: float

    def _recall(self) -> SubtopicRecall:
        return SubtopicRecall(self.cutoff)

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        weights = list(A.weights(topic))
        gains = [global_gain(list(A.vector(topic, d)), weights, A)
                 for d in self.window(ranking)]
        judged = [global_gain(list(A.vector(topic, d)), weights, A)
                  for d in topic.documents]
        d_ndcg = A.ratio(dcg(gains, A), dcg(ideal_gains(judged, self.cutoff), A))
        gamma = A.num(self.gamma)
        recall = self._recall().compute(ranking, topic, A)
        return gamma * recall + (A.one - gamma) * d_ndcg

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        topic = batch.topic
        judged = [global_gain([float(r) for r in topic.vector(d)], batch.weights, FLOAT)
                  for d in topic.documents]
        ideal = np.array(ideal_gains(judged, self.cutoff), dtype=float)
        ideal_dcg = float(ideal @ discounts(len(ideal))) if len(ideal) else 0.0
        if ideal_dcg == 0.0:
            d_ndcg = np.zeros(len(batch.lengths))
        else:
            d_ndcg = ((batch.gains[:, :k, :] @ batch.weights) @ discounts(k)) / ideal_dcg
        gamma = float(self.gamma)
        return gamma * self._recall().score_batch(batch) + (1.0 - gamma) * d_ndcg


register(DSharpNDCG)

"""Discounted cumulative gain, DCG@k and nDCG@k.

    DCG@k(d)  = sum_{i <= min(k, n)} r(d_i) / log2(i + 1)
    nDCG@k(d) = DCG@k(d) / DCG@k(ideal)

The gain is the topic's relevance ``r(d)`` (single-aspect view); the ideal
ranking sorts the topic's judged documents by ``r`` descending. A zero ideal
gives 0 (trec_eval). Source: Järvelin & Kekäläinen, "Cumulated gain-based
evaluation of IR techniques", TOIS 2002; trec_eval ``ndcg_cut``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.grades import TREC_EVAL
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, RankingBatch, batch_cutoff
from axiometer.metrics.browsing import BrowsingModel, constant_factor, log_discount, relevance_gain
from axiometer.metrics.registry import register


def dcg(gains: Sequence[Value], A: Arithmetic) -> Value:
    """``sum_i g_i / log2(i + 1)`` over the given gains (positions from 1)."""
    total = A.zero
    for i, g in enumerate(gains, 1):
        if g:
            total = total + g / A.log2(A.num(i + 1))
    return total


def ideal_gains(values: Sequence[Any], k: int | None) -> list[Any]:
    """The topic's positive gains, best first, truncated at ``k``."""
    ordered = sorted((v for v in values if v > 0), reverse=True)
    return ordered if k is None else ordered[:k]


def batch_ideal_gains(batch: RankingBatch, k: int | None) -> np.ndarray:
    """:func:`ideal_gains` of the batch's topic as floats, from the batch's cached values
    (no Fraction conversions per metric)."""
    values = batch.judged_single
    return -np.sort(-values[values > 0])[:k]


def discounts(depth: int) -> np.ndarray:
    """``1 / log2(i + 1)`` for ``i = 1..depth``."""
    return 1.0 / np.log2(np.arange(2, depth + 2))


class DCG(BuiltinMetric):
    """DCG@k = sum_{i<=k} r(d_i) / log2(i+1), gain = r(d) (single-aspect view).

    Source: Järvelin & Kekäläinen, TOIS 2002.
    """

    family = "DCG"
    grades_convention = TREC_EVAL
    title = "DCG@k"
    needs = Needs(aspects=False, graded=True)

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        return dcg(A.rs(topic, self.window(ranking)), A)

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        return batch.single[:, :k] @ discounts(k)

    def browsing_model(self) -> BrowsingModel:
        """NRG eq. 1 with ``G = r(d)``, ``seen(i) = 1/log2(i+1)`` to depth k, ``N = 1``."""
        return BrowsingModel(self.name, relevance_gain, log_discount(self.cutoff), self.cutoff,
                             constant_factor(1), unit_range=False)


class NDCG(BuiltinMetric):
    """nDCG@k = DCG@k(d) / DCG@k(ideal); 0 when the topic has no relevant document.

    Gain = r(d) (single-aspect view): with the ``linear`` grade mapping this is
    trec_eval's ``ndcg_cut.k`` (gain = grade; the ratio is scale-free).
    Source: Järvelin & Kekäläinen, TOIS 2002; Amigó et al., SIGIR 2018, Table 1.
    """

    family = "nDCG"
    grades_convention = TREC_EVAL
    title = "nDCG@k"
    needs = Needs(aspects=False, graded=True)
    normalised = True

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        gains = A.rs(topic, self.window(ranking))
        ideal = ideal_gains([A.num(v) for v in topic.relevance_values()], self.cutoff)
        return A.ratio(dcg(gains, A), dcg(ideal, A))

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        ideal = batch_ideal_gains(batch, self.cutoff)
        ideal_dcg = float(ideal @ discounts(len(ideal)))
        if ideal_dcg == 0.0:
            return np.zeros(len(batch.lengths))
        return (batch.single[:, :k] @ discounts(k)) / ideal_dcg

    def browsing_model(self) -> BrowsingModel:
        """NRG eq. 1-2 with ``G = r(d)``, ``seen(i) = 1/log2(i+1)`` to depth k, ``N`` = the ideal's DCG."""
        return BrowsingModel(self.name, relevance_gain, log_discount(self.cutoff), self.cutoff, "ideal")


register(DCG, NDCG)

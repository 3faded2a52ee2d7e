"""Novelty- and Rank-Biased Precision, NRBP and nNRBP.

    NRBP(d)  = sum_{i <= min(k, n)} beta^(i-1) sum_t r(d_i, t) (1 - alpha)^c(i, t)
    nNRBP(d) = NRBP(d) / NRBP(greedy ideal)

``c(i, t) = |{j < i : r(d_j, t) > 0}|``; ``beta`` is the patience (``p`` in the
paper, ``beta`` in ndeval), ``alpha`` the redundancy intolerance. Aspects are
unweighted. Without a cutoff the sum runs over the whole ranking (ndeval's
NRBP has no cutoff).

NRBP here is the unnormalised sum, which is all the constraint checks need.
ndeval's "NRBP" multiplies it by ``(1 - (1 - alpha) beta) / N``, ``N`` the
number of subtopics with a relevant document (the paper's normalisation,
bounding the score by 1 when every document covers every subtopic); the
constant cancels in nNRBP, which divides by the NRBP of ndeval's greedy ideal
(:func:`axiometer.metrics.alpha_ndcg.greedy_ideal_gains`, ties to the largest
document id). A zero ideal gives 0 (ndeval returns NaN there, 0/0).

Source: Clarke, Kolla & Vechtomova, "An effectiveness measure for ambiguous
and underspecified queries", ICTIR 2009; ndeval (TREC Web track).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Context, Topic, to_fraction
from axiometer.grades import NDEVAL
from axiometer.metrics.alpha_ndcg import (
    ALPHA_PARAM,
    batch_novelty_gains,
    greedy_ideal_gains,
    ideal_gains,
    novelty_gains,
)
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, Param, RankingBatch, batch_cutoff
from axiometer.metrics.registry import register

__all__ = ["BETA_PARAM", "NRBP", "NNRBP"]

#: The patience; default 0.5 is ndeval's, the grid the values SIGIR 2018 tested.
BETA_PARAM = Param("beta", float, 0.5, "patience: probability of looking at the next document",
                   low=0, high=1, low_open=True, high_open=True, grid=(0.8, 0.9, 0.99))


def _rank_biased_sum(gains: Sequence[Value], beta: Value, A: Arithmetic) -> Value:
    """``sum_i beta^(i-1) g_i``."""
    total, weight = A.zero, A.one
    for g in gains:
        total = total + weight * g
        weight = weight * beta
    return total


class NRBP(BuiltinMetric):
    """NRBP = sum_i beta^(i-1) sum_t r(d_i,t) (1-alpha)^c(i,t) (unnormalised).

    ndeval's NRBP is this times ``(1 - (1-alpha) beta) / N`` (``N`` subtopics
    with a relevant document). Optional cutoff; without one, the whole ranking.
    Source: Clarke, Kolla & Vechtomova, ICTIR 2009.
    """

    family = "NRBP"
    grades_convention = NDEVAL
    title = "NRBP"
    param_info = (ALPHA_PARAM, BETA_PARAM)
    cutoff_rule = "optional"
    needs = Needs(aspects=True, graded=True)

    alpha: float
    beta: float

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        vectors = A.vectors(topic, self.window(ranking))
        gains = novelty_gains(vectors, A.num(self.alpha), A)
        return _rank_biased_sum(gains, A.num(self.beta), A)

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        gains = batch_novelty_gains(batch.gains[:, :k, :], float(self.alpha))
        return gains @ float(self.beta) ** np.arange(k)


class NNRBP(BuiltinMetric):
    """nNRBP = NRBP(d) / NRBP(greedy ideal); 0 when the topic has no relevant document.

    The ideal is ndeval's greedy ranking (ties to the largest document id),
    truncated at the cutoff if one is given. Equals ndeval's ``nNRBP`` on
    binary judgments. Source: Clarke, Kolla & Vechtomova, ICTIR 2009; ndeval.
    """

    family = "nNRBP"
    grades_convention = NDEVAL
    title = "nNRBP"
    param_info = (ALPHA_PARAM, BETA_PARAM)
    cutoff_rule = "optional"
    needs = Needs(aspects=True, graded=True)
    normalised = True

    alpha: float
    beta: float

    def _ideal(self, topic: Topic) -> tuple:
        ideal = greedy_ideal_gains(topic, to_fraction(self.alpha))
        return ideal if self.cutoff is None else ideal[: self.cutoff]

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        alpha, beta = A.num(self.alpha), A.num(self.beta)
        vectors = A.vectors(topic, self.window(ranking))
        run = _rank_biased_sum(novelty_gains(vectors, alpha, A), beta, A)
        ideal = _rank_biased_sum(ideal_gains(topic, alpha, self.cutoff, A), beta, A)
        return A.ratio(run, ideal)

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        beta = float(self.beta)
        ideal = np.array([float(g) for g in self._ideal(batch.topic)])
        ideal_nrbp = float(ideal @ beta ** np.arange(len(ideal))) if len(ideal) else 0.0
        if ideal_nrbp == 0.0:
            return np.zeros(len(batch.lengths))
        gains = batch_novelty_gains(batch.gains[:, :k, :], float(self.alpha))
        return (gains @ beta ** np.arange(k)) / ideal_nrbp


register(NRBP, NNRBP)

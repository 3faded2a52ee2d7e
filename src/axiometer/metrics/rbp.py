"""Rank-biased precision, RBP(p).

    RBP(d) = (1 - p) * sum_{i <= min(k, n)} p^(i-1) * r(d_i)

A user reads the first document and moves on from each document to the next
with probability ``p`` (persistence, "patience"); RBP is the expected gain
per document read. The gain is the topic's relevance ``r(d)`` (single-aspect
view), so graded relevance is used as is (Moffat & Zobel define RBP on
binary relevance; graded gains are the usual generalisation, and what the
SIGIR 2018 paper analyses). The optional cutoff truncates the sum; RBP is
never renormalised, so a cutoff only removes the tail's contribution.

Source: Moffat & Zobel, "Rank-biased precision for measurement of retrieval
effectiveness", ACM TOIS 27(1), 2008, equation (3); the SIGIR 2018 table's
sixth row (Amigó, Spina & Carrillo-de-Albornoz 2018, section 4).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.grades import IR_MEASURES_RBP
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, Param, RankingBatch, batch_cutoff
from axiometer.metrics.browsing import BrowsingModel, geometric, relevance_gain
from axiometer.metrics.registry import register

#: RBP's persistence parameter, shared with RBP-IA.
PERSISTENCE = Param(
    "p", float, 0.8, "persistence: probability of reading on to the next document",
    low=0, high=1, low_open=True, high_open=True, grid=(0.8, 0.9, 0.99))


class RBP(BuiltinMetric):
    """RBP(p) = (1 - p) sum_i p^(i-1) r(d_i), graded gain r(d) (single-aspect view).

    ``p`` in the open interval (0, 1), default 0.8; the paper's grid is
    0.8, 0.9, 0.99. Source: Moffat & Zobel, TOIS 2008; Amigó et al.,
    SIGIR 2018, Table 1.
    """

    family = "RBP"
    grades_convention = IR_MEASURES_RBP
    title = "RBP"
    param_info = (PERSISTENCE,)
    needs = Needs(aspects=False, graded=True)

    p: float

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        p = A.num(self.p)
        total = A.zero
        weight = A.one  # p^(i-1)
        for d in self.window(ranking):
            r = A.r(topic, d)
            if r:
                total = total + weight * r
            weight = weight * p
        return (A.one - p) * total

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        p = float(self.p)
        return (1.0 - p) * (batch.single[:, :k] @ p ** np.arange(k, dtype=np.float64))

    def browsing_model(self) -> BrowsingModel:
        """NRG eq. 1 with ``G = r(d)``, ``seen(i) = p^(i-1)`` (to depth k, if any), ``N = 1/(1-p)``."""
        return BrowsingModel(self.name, relevance_gain, geometric(self.p, self.cutoff), self.cutoff,
                             lambda A: A.one - A.num(self.p))


register(RBP)

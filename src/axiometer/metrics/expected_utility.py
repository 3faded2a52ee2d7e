"""Expected Utility, EU(alpha, e).

    EU(d) = sum_{i <= min(k, n)} disc(i) (sum_t w(t) r(d_i, t) (1 - alpha)^c(i, t) - e),
    disc(i) = 1 / (1 + log2 i)

``c(i, t) = |{j < i : r(d_j, t) > 0}|``. Every inspected document costs the
effort ``e``, relevant or not, so appending a useless document lowers the
score (the Conf constraint); the sum runs over the positions the ranking
actually has (an empty ranking scores 0), never over padding. Without a
cutoff it runs to the end of the ranking.

Source: Yang & Lad, "Modeling expected utility of multi-session information
distillation", ICTIR 2009; the form here is Amigó, Spina &
Carrillo-de-Albornoz, SIGIR 2018, section 4 (definitions §2).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.metrics.alpha_ndcg import ALPHA_PARAM, batch_novelty_gains, novelty_gains
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, Param, RankingBatch, batch_cutoff
from axiometer.metrics.registry import register

__all__ = ["EFFORT_PARAM", "ExpectedUtility"]

#: The cost of inspecting one document (values tested in SIGIR 2018); shared with RBU.
EFFORT_PARAM = Param("e", float, 0.05, "effort: the cost of inspecting one document",
                     low=0, grid=(0.001, 0.05, 0.1, 0.5))


def eu_discounts(depth: int) -> np.ndarray:
    """``1 / (1 + log2 i)`` for ``i = 1..depth``."""
    return 1.0 / (1.0 + np.log2(np.arange(1, depth + 1)))


class ExpectedUtility(BuiltinMetric):
    """EU = sum_{i<=n} (sum_t w(t) r(d_i,t) (1-alpha)^c(i,t) - e) / (1 + log2 i).

    Weighted, redundancy-discounted gain minus the effort ``e`` per inspected
    document; optional cutoff. Source: Yang & Lad, ICTIR 2009; Amigó et al.,
    SIGIR 2018.
    """

    family = "EU"
    title = "EU"
    param_info = (ALPHA_PARAM, EFFORT_PARAM)
    cutoff_rule = "optional"
    needs = Needs(aspects=True, graded=True)

    alpha: float
    e: float

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        weights = list(A.weights(topic))
        vectors = A.vectors(topic, self.window(ranking))
        gains = novelty_gains(vectors, A.num(self.alpha), A, weights)
        effort = A.num(self.e)
        total = A.zero
        for i, gain in enumerate(gains, 1):
            total = total + (gain - effort) / (A.one + A.log2(A.num(i)))
        return total

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        gains = batch_novelty_gains(batch.gains[:, :k, :], float(self.alpha), batch.weights)
        inspected = batch.positions_valid()[:, :k]
        return ((gains - float(self.e)) * inspected) @ eu_discounts(k)


register(ExpectedUtility)

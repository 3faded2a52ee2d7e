"""Precision at k.

    P@k(d) = (1/k) * sum_{i <= min(k, n)} rel(d_i)

with ``rel(d) = [r(d) > 0]`` the binary view. Dividing by ``k`` even when the
ranking is shorter is trec_eval's ``P_k`` convention.

Source: the classic set-based precision evaluated at a rank cutoff; the SIGIR
2018 table's first row (Amigó, Spina & Carrillo-de-Albornoz 2018, section 4).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.grades import TREC_EVAL
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import (REL_PARAM, BuiltinMetric, Needs, RankingBatch, batch_cutoff,
                                    batch_needs_level_one)
from axiometer.metrics.browsing import BrowsingModel, binary_gain, constant_factor, flat
from axiometer.metrics.registry import register


class PrecisionAtK(BuiltinMetric):
    """P@k: the fraction of the first k positions holding a relevant document.

    ``P@k = (1/k) sum_{i<=k} rel(d_i)``; binary relevance ``rel(d) = [r(d) > 0]``.
    A cutoff is required (``P`` alone means ``P@10``).
    Source: trec_eval ``P_k``; Amigó et al., SIGIR 2018, Table 1.
    """

    family = "P"
    grades_convention = TREC_EVAL
    title = "P@k"
    cutoff_rule = "required"
    default_cutoff = 10
    needs = Needs(aspects=False, graded=False)
    param_info = (REL_PARAM,)

    rel: int
    cutoff: int  # cutoff_rule 'required': BuiltinMetric sets the default cutoff when none is given

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        hits = sum(1 for d in self.window(ranking) if topic.relevant_at(d, self.rel))
        return A.num(hits) / A.num(self.cutoff)

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        batch_needs_level_one(self)
        k = batch_cutoff(batch, self.cutoff)
        return (batch.single[:, :k] > 0).sum(axis=1) / self.cutoff

    def browsing_model(self) -> BrowsingModel:
        """NRG eq. 1 with ``G = rel(d)``, ``seen(i) = 1`` for ``i <= k``, ``N = k``."""
        return BrowsingModel(self.name, binary_gain, flat(self.cutoff), self.cutoff,
                             constant_factor(1, self.cutoff), graded=False)


register(PrecisionAtK)

"""Expected reciprocal rank, ERR (and ERR@k).

    ERR@k(d) = sum_{i <= min(k, n)} (1/i) * r(d_i) * prod_{j < i} (1 - r(d_j))

A cascade user scans down the ranking and stops at document ``d_i`` with
probability ``r(d_i)`` (the topic's relevance, single-aspect view
``r(d) = max_t r(d, t)``); ERR is the expected reciprocal of the stopping
rank. Chapelle et al. map a grade ``g`` to ``r = (2^g - 1) / 2^gmax``, which
is axiometer's default grade mapping (the mapping belongs to the reader).

Source: Chapelle, Metzler, Zhang & Grinspan, "Expected reciprocal rank for
graded relevance", CIKM 2009, equation (4); the SIGIR 2018 table's fifth row
(Amigó, Spina & Carrillo-de-Albornoz 2018, section 4).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.grades import ERR_MAPPING
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, RankingBatch, batch_cutoff
from axiometer.metrics.registry import register


def err(relevances: Sequence[Value], A: Arithmetic) -> Value:
    """``sum_i (1/i) r_i prod_{j<i} (1 - r_j)`` over the given stopping probabilities."""
    total = A.zero
    not_stopped = A.one  # prod_{j<i} (1 - r_j)
    for i, r in enumerate(relevances, 1):
        if r:
            total = total + not_stopped * r / A.num(i)
            not_stopped = not_stopped * (A.one - r)
    return total


def err_batch(relevances: np.ndarray) -> np.ndarray:
    """Row-wise :func:`err` of a ``(rankings, depth)`` array (zero padding adds nothing)."""
    rankings, depth = relevances.shape
    not_stopped = np.ones((rankings, depth))
    if depth > 1:
        np.cumprod(1.0 - relevances[:, :-1], axis=1, out=not_stopped[:, 1:])
    return (relevances * not_stopped) @ (1.0 / np.arange(1, depth + 1))


class ERR(BuiltinMetric):
    """ERR@k = sum_{i<=k} (1/i) r(d_i) prod_{j<i} (1 - r(d_j)), graded, single-aspect view.

    ``r(d) = max_t r(d, t)`` is the probability that the user stops at ``d``.
    Source: Chapelle et al., CIKM 2009; Amigó et al., SIGIR 2018, Table 1.
    """

    family = "ERR"
    grades_convention = ERR_MAPPING
    title = "ERR@k"
    needs = Needs(aspects=False, graded=True)

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        return err(A.rs(topic, self.window(ranking)), A)

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        return err_batch(batch.single[:, :k])


register(ERR)

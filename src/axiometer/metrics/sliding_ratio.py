"""Sliding ratio SR@k and modified sliding ratio MSR@k.

    SR@k(d)  = cg(k) / cg*(k)
    MSR@k(d) = (sum_{i <= k} g_i / i) / (sum_{i <= k} g*_i / i)

with ``g_i = r(d_i)`` the gain at rank ``i`` (single-aspect view, zero past
the ranking's end), ``cg(k) = sum_{i<=k} g_i`` and ``g*``/``cg*`` the same
for the ideal ranking (the topic's judged relevance values sorted
descending, :func:`axiometer.metrics.dcg.ideal_gains`). A zero ideal gives 0
(definitions §2).

Source: the sliding ratio of Pollock, "Measures for the comparison of
information retrieval systems", American Documentation 19(4), 1968, and the
modified sliding ratio of Sagara, "Performance measures for ranked output
retrieval systems", Journal of Japan Society of Information and Knowledge
12(2), 2002 (Giner's references [70] and [77]), both as restated in
definitions §4 (Giner's Table 3; the extraction of Giner's paper
lost the formulas, so that restatement is what this module follows).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, RankingBatch, batch_cutoff
from axiometer.metrics.dcg import batch_ideal_gains, ideal_gains
from axiometer.metrics.registry import register


class SlidingRatio(BuiltinMetric):
    """SR@k = cg(k) / cg*(k) = sum_{i<=k} r(d_i) / sum_{i<=k} g*_i; 0 if the ideal is 0.

    Gain ``r(d)`` (single-aspect view), ideal from the topic's judged values.
    A cutoff is required (``SR`` alone means ``SR@10``).
    Source: Pollock 1968; definitions §4 (Giner, Table 3).
    """

    family = "SR"
    title = "sliding ratio"
    cutoff_rule = "required"
    default_cutoff = 10
    needs = Needs(aspects=False, graded=True)
    normalised = True

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        gained = A.zero
        for d in self.window(ranking):
            gained = gained + A.r(topic, d)
        ideal = A.zero
        for g in ideal_gains([A.num(v) for v in topic.relevance_values()], self.cutoff):
            ideal = ideal + g
        return A.ratio(gained, ideal)

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        ideal = float(batch_ideal_gains(batch, self.cutoff).sum())
        if ideal == 0.0:
            return np.zeros(len(batch.lengths))
        return batch.single[:, :k].sum(axis=1) / ideal


class ModifiedSlidingRatio(BuiltinMetric):
    """MSR@k = (sum_{i<=k} r(d_i) / i) / (sum_{i<=k} g*_i / i); 0 if the ideal is 0.

    Gain ``r(d)`` (single-aspect view), ideal from the topic's judged values.
    A cutoff is required (``MSR`` alone means ``MSR@10``).
    Source: Sagara 2002; definitions §4 (Giner, Table 3).
    """

    family = "MSR"
    title = "modified sliding ratio"
    cutoff_rule = "required"
    default_cutoff = 10
    needs = Needs(aspects=False, graded=True)
    normalised = True

    @staticmethod
    def _harmonic(gains: Sequence[Value], A: Arithmetic) -> Value:
        total = A.zero
        for i, g in enumerate(gains, 1):
            if g:
                total = total + g / A.num(i)
        return total

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        gains = A.rs(topic, self.window(ranking))
        ideal = ideal_gains([A.num(v) for v in topic.relevance_values()], self.cutoff)
        return A.ratio(self._harmonic(gains, A), self._harmonic(ideal, A))

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        ideal = batch_ideal_gains(batch, self.cutoff)
        ideal_value = float(ideal @ (1.0 / np.arange(1, len(ideal) + 1)))
        if ideal_value == 0.0:
            return np.zeros(len(batch.lengths))
        return (batch.single[:, :k] @ (1.0 / np.arange(1, k + 1))) / ideal_value


register(SlidingRatio, ModifiedSlidingRatio)

"""Rank-Biased Utility, RBU@k(p, e), in the paper's form and the reference code's form.

Paper form (``form='paper'``, the default; SIGIR 2018, eq. 11)::

    RBU@k(d) = sum_{i <= min(k, n)} p^i (sum_t w(t) r(d_i, t) prod_{j<i} (1 - r(d_j, t)) - e)

Reference form (``form='reference'``, what the authors' Java code computes)::

    RBU_ref(d) = (1-p) sum_t w(t) sum_{i <= n} p^(i-1) r(d_i, t) prod_{j<i} (1 - r(d_j, t))
                 - e (1-p) sum_{i <= n} p^(i-1)

The two differ by the constant factor ``(1-p)/p`` (``RBU_ref = RBU * (1-p)/p``
over the same positions), which never changes which of two rankings scores
higher: the constraint verdicts are the same. Use ``form='reference'`` to
match the reference's printed values (it uses e = 0.03 in its README).

A user has patience ``p`` (probability of looking at the next document) and
is satisfied on aspect ``t`` by document ``d`` with probability ``r(d, t)``
(ERR-IA's cascade); every inspected document costs the effort ``e``. Without
a cutoff the sum runs to the end of the ranking (``n``), as the reference
does; effort is only paid for positions the ranking has.

Source: Amigó, Spina & Carrillo-de-Albornoz, "An axiomatic analysis of
diversity evaluation metrics: introducing the rank-biased utility metric",
SIGIR 2018, section 5; reference code https://github.com/jCarrilloDeAlbornoz/RBU.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.grades import RBU_REFERENCE
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, Param, RankingBatch, batch_cutoff
from axiometer.metrics.expected_utility import EFFORT_PARAM
from axiometer.metrics.registry import register

__all__ = ["RBU"]


class RBU(BuiltinMetric):
    """RBU@k = sum_{i<=k} p^i (sum_t w(t) r(d_i,t) prod_{j<i}(1 - r(d_j,t)) - e).

    ``form='paper'`` (default) is the formula above (Amigó et al., SIGIR 2018,
    eq. 11); ``form='reference'`` is the authors' Java code,
    ``(1-p) sum_t w(t) sum_i p^(i-1) r(d_i,t) prod_{j<i}(1-r(d_j,t)) - e (1-p) sum_{i<=n} p^(i-1)``,
    which is the paper form times ``(1-p)/p``. Optional cutoff; without one,
    the whole ranking. Source: Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018.
    """

    family = "RBU"
    grades_convention = RBU_REFERENCE
    title = "RBU@k"
    param_info = (
        Param("p", float, 0.8, "patience: probability of looking at the next document",
              low=0, high=1, low_open=True, high_open=True, grid=(0.8, 0.9, 0.99)),
        EFFORT_PARAM,
        Param("form", str, "paper", "'paper': weights p^i (SIGIR 2018, eq. 11); "
              "'reference': weights (1-p) p^(i-1), as the authors' code",
              choices=("paper", "reference")),
    )
    cutoff_rule = "optional"
    needs = Needs(aspects=True, graded=True)

    p: float
    e: float
    form: str

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        window = self.window(ranking)
        p, effort = A.num(self.p), A.num(self.e)
        weights = list(A.weights(topic))
        vectors = A.vectors(topic, window)
        if self.form == "reference":
            return self._reference(vectors, weights, p, effort, A)
        unsatisfied = [A.one] * len(weights)  # prod_{j<i} (1 - r(d_j, t))
        total, patience = A.zero, p
        for vector in vectors:
            gain = A.zero
            for t, r in enumerate(vector):
                if r:
                    gain = gain + weights[t] * r * unsatisfied[t]
                    unsatisfied[t] = unsatisfied[t] * (A.one - r)
            total = total + patience * (gain - effort)
            patience = patience * p
        return total

    @staticmethod
    def _reference(vectors: Sequence[Sequence[Value]], weights: Sequence[Value], p: Value,
                   effort: Value, A: Arithmetic) -> Value:
        """The reference's loop order: per aspect, the cascade down the ranking; then the effort."""
        gain = A.zero
        for t, w in enumerate(weights):
            aspect_gain, unsatisfied, patience = A.zero, A.one, A.one
            for vector in vectors:
                r = vector[t]
                aspect_gain = aspect_gain + patience * r * unsatisfied
                unsatisfied = unsatisfied * (A.one - r)
                patience = patience * p
            gain = gain + w * aspect_gain
        inspected, patience = A.zero, A.one
        for _ in vectors:
            inspected = inspected + patience
            patience = patience * p
        return (A.one - p) * gain - effort * (A.one - p) * inspected

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        p, effort = float(self.p), float(self.e)
        gains = batch.gains[:, :k, :]
        survive = np.cumprod(1.0 - gains, axis=1)
        unsatisfied = np.concatenate([np.ones_like(gains[:, :1, :]), survive[:, :-1, :]], axis=1)
        cascade = (gains * unsatisfied) @ batch.weights           # (rankings, k)
        inspected = batch.positions_valid()[:, :k].astype(float)  # effort only where a document is
        if self.form == "reference":
            decay = p ** np.arange(k)
            return (1.0 - p) * (cascade @ decay) - effort * (1.0 - p) * (inspected @ decay)
        return (cascade - effort * inspected) @ p ** np.arange(1, k + 1)


register(RBU)

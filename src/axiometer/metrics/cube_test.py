"""The Cube Test, CT@k, in its linear-time form with saturation level 1.

    CT@k(d) = sum_{i <= min(k, n)} (1/i) sum_t w(t) r(d_i, t) (1 - alpha)^c(i, t) f(i, t)
    f(i, t) = 1 if sum_{j < i} r(d_j, t) < 1 else 0

``c(i, t) = |{j < i : r(d_j, t) > 0}|`` (saturated documents still count as
repeats). ``f`` fills each aspect's "cube" up to the saturation level 1: once
the relevance already gathered for ``t`` reaches 1, later documents add
nothing for ``t``. The time spent is taken to grow linearly with the rank, so
gain/time becomes ``1/i`` (the paper's CT divides the gain by the time taken).

The saturation test is decided exactly (a float sum of ten ``0.1`` is below
1; the exact sum is not), so ``score``, ``exact`` and ``score_batch`` agree.

Source: Luo, Wing, Yang & Hearst, "The water filling model and the cube
test: multi-dimensional evaluation for professional search", CIKM 2013; the
form here is Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 4
(definitions §2).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from axiometer.core import Context, Topic, to_fraction
from axiometer.metrics.alpha_ndcg import ALPHA_PARAM
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, RankingBatch, batch_cutoff
from axiometer.metrics.registry import register

__all__ = ["SATURATION", "CubeTest"]

#: How much relevance fills an aspect (definitions §2: saturation level 1).
SATURATION = Fraction(1)

# Largest common denominator for which the batched saturation test runs in
# int64 (units * depth stays far below 2^63 and float * denominator rounds exactly).
_MAX_DENOMINATOR = 2 ** 40


@functools.lru_cache(maxsize=256)
def _exact_values(topic: Topic) -> tuple[dict[float, Fraction], int]:
    """The topic's relevance values (float -> exact) and their common denominator."""
    values = {to_fraction(r) for d in topic.documents for r in topic.vector(d)}
    denominator = math.lcm(*(v.denominator for v in values)) if values else 1
    return {float(v): v for v in values}, denominator


def _open_aspects(gains: np.ndarray, topic: Topic) -> np.ndarray:
    """``f(i, t)``: whether ``sum_{j<i} r(d_j, t) < 1``, decided exactly; shape of ``gains``."""
    lookup, denominator = _exact_values(topic)
    if denominator <= _MAX_DENOMINATOR:
        units = np.rint(gains * denominator).astype(np.int64)
        return np.cumsum(units, axis=1) - units < int(SATURATION * denominator)
    filled = np.zeros(gains.shape, dtype=bool)
    for s in range(gains.shape[0]):
        for t in range(gains.shape[2]):
            total = Fraction(0)
            for i in range(gains.shape[1]):
                filled[s, i, t] = total >= SATURATION
                total += lookup.get(float(gains[s, i, t]), Fraction(0))
    return ~filled


class CubeTest(BuiltinMetric):
    """CT@k = sum_{i<=k} (1/i) sum_t w(t) r(d_i,t) (1-alpha)^c(i,t) f(i,t), saturation level 1.

    ``f(i,t) = 1`` while the relevance gathered for ``t`` above ``i`` is below 1.
    Cutoff required (default 10). Source: Luo et al., CIKM 2013 (linear-time
    form as in Amigó et al., SIGIR 2018).
    """

    family = "CT"
    title = "CT@k"
    param_info = (ALPHA_PARAM,)
    cutoff_rule = "required"
    default_cutoff = 10
    needs = Needs(aspects=True, graded=True)

    alpha: float

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        keep = A.one - A.num(self.alpha)
        weights = list(A.weights(topic))
        repeats = [0] * len(topic.aspects)            # c(i, t)
        filled: list[Any] = [Fraction(0)] * len(topic.aspects)   # sum_{j<i} r(d_j, t), exactly
        total = A.zero
        for i, d in enumerate(self.window(ranking), 1):
            gain = A.zero
            for t, r in enumerate(topic.vector(d)):
                if r > 0:
                    if filled[t] < SATURATION:
                        gain = gain + weights[t] * A.num(r) * keep ** repeats[t]
                    repeats[t] += 1
                    filled[t] = filled[t] + A.exactly(r)
            total = total + gain / A.num(i)
        return total

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        gains = batch.gains[:, :k, :]
        hit = gains > 0
        repeats: np.ndarray = np.cumsum(hit, axis=1) - hit
        useful = gains * (1.0 - float(self.alpha)) ** repeats * _open_aspects(gains, batch.topic)
        return (useful @ batch.weights) @ (1.0 / np.arange(1, k + 1))


register(CubeTest)

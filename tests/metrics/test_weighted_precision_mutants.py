"""wRprec and AWP (issue 14, mutation survivors of metrics/weighted_precision.py): hand-computed
values with the ideal exhausted before the ranking ends and a cutoff, scalar and batched."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.weighted_precision import AverageWeightedPrecision, WeightedRPrecision

# Ideal gains 1, 1/2 (cg* = 1, 3/2, 3/2, ...); R = 2.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "n": 0})
RANKINGS = [["b", "n", "a"], ["a", "b"], ["n"], []]


def check(metric, want):
    assert [metric.exact(r, TOPIC) for r in RANKINGS] == want
    batch = RankingBatch.from_rankings(RANKINGS, TOPIC)
    assert metric.score_batch(batch).tolist() == pytest.approx([float(w) for w in want], abs=1e-15)


def test_weighted_precisions_by_hand():
    # wRprec = cg(2)/cg*(2): [b, n, a] (1/2)/(3/2) = 1/3.
    check(WeightedRPrecision(), [Fraction(1, 3), 1, 0, 0])
    # AWP [b, n, a]: rank 1: (1/2)/1; rank 3: (3/2)/(3/2) = 1 -> (1/2 + 1)/2 = 3/4. @2: (1/2)/2 = 1/4.
    check(AverageWeightedPrecision(), [Fraction(3, 4), 1, 0, 0])
    check(AverageWeightedPrecision(2), [Fraction(1, 4), 1, 0, 0])

"""EU (issue 14, mutation survivors of metrics/expected_utility.py): unequal aspect weights, the
effort charged at every inspected position (not at padding), a cutoff, scalar and batched."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.expected_utility import ExpectedUtility, eu_discounts

# Aspects x (weight 1/4), y (3/4): a = (1, 0), b = (1/2, 1).
TOPIC = Topic({"a": {"x": 1, "y": 0}, "b": {"x": Fraction(1, 2), "y": 1}},
              {"x": Fraction(1, 4), "y": Fraction(3, 4)})


def test_eu_discounts():
    assert eu_discounts(3).tolist() == pytest.approx([1.0, 0.5, 1 / (1 + math.log2(3))], abs=1e-15)


def test_eu_by_hand():
    metric = ExpectedUtility(alpha=0.5, e=0.25)
    # rank 1, a: gain 1/4 * 1 = 1/4, minus e: 0. rank 2, b: 1/4 * 1/2 * (1 - 1/2)^1 + 3/4 * 1 = 13/16,
    # minus 1/4 = 9/16, over 1 + log2 2 = 2: 9/32. rank 3, u: -1/4 / (1 + log2 3).
    assert ExpectedUtility(2, alpha=0.5, e=0.25).exact(["a", "b", "u"], TOPIC) == Fraction(9, 32)
    assert metric.exact(["a"], TOPIC) == 0 and metric.exact([], TOPIC) == 0
    full = 9 / 32 - 0.25 / (1 + math.log2(3))
    assert metric.score(["a", "b", "u"], TOPIC) == pytest.approx(full, abs=1e-15)
    # [b, a]: b first (nothing seen yet): 1/4 * 1/2 + 3/4 = 7/8, minus 1/4: 5/8; a second (x seen
    # once): 1/4 * 1 * 1/2 = 1/8, minus 1/4: -1/8, over 2: -1/16. Total 9/16.
    assert metric.exact(["b", "a"], TOPIC) == Fraction(9, 16)
    batch = RankingBatch.from_rankings([["a", "b", "u"], ["b", "a"], ["a"], []], TOPIC)
    assert metric.score_batch(batch).tolist() == pytest.approx([full, 9 / 16, 0.0, 0.0], abs=1e-15)
    assert ExpectedUtility(2, alpha=0.5, e=0.25).score_batch(batch).tolist() == pytest.approx(
        [9 / 32, 9 / 16, 0.0, 0.0], abs=1e-15)

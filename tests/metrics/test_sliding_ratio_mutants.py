"""SR and MSR (issue 14, mutation survivors of metrics/sliding_ratio.py): hand-computed values, an
ideal of exactly 1, scalar and batched."""

from __future__ import annotations

from fractions import Fraction

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.sliding_ratio import ModifiedSlidingRatio, SlidingRatio
from tests.metrics.two_gains import check


def test_sliding_ratios_by_hand():
    # SR@2 [b, n, a]: (1/2)/(3/2) = 1/3; SR@3: (3/2)/(3/2) = 1. [a, b]: 1.
    check(SlidingRatio(2), [Fraction(1, 3), 1, 0, 0])
    check(SlidingRatio(3), [1, 1, 0, 0])
    # MSR@3 [b, n, a]: (1/2 + 1/3)/(1 + 1/4) = 2/3. MSR@1: (1/2)/1 and 1.
    check(ModifiedSlidingRatio(3), [Fraction(2, 3), 1, 0, 0])
    check(ModifiedSlidingRatio(1), [Fraction(1, 2), 1, 0, 0])


def test_an_ideal_of_exactly_one_is_not_zero():
    topic = Topic.single({"a": 1, "n": 0})  # SR@1 and MSR@1 ideal: 1
    batch = RankingBatch.from_rankings([["a"], ["n", "a"]], topic)
    assert SlidingRatio(1).score_batch(batch).tolist() == [1.0, 0.0]
    assert SlidingRatio(2).score_batch(batch).tolist() == [1.0, 1.0]
    assert ModifiedSlidingRatio(2).score_batch(batch).tolist() == [1.0, 0.5]
    assert ModifiedSlidingRatio(2).exact(["n", "a"], topic) == Fraction(1, 2)


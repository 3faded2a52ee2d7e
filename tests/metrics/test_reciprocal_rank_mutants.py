"""RR (issue 14, mutation survivors of metrics/reciprocal_rank.py): first relevant rank by hand,
cutoffs 1 and k, relevance levels, and the batched path including an empty batch."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.reciprocal_rank import ReciprocalRank

TOPIC = Topic.single({"a": Fraction(1, 2), "b": 1, "n": 0})  # grades: a 1, b 2


def test_reciprocal_rank_by_hand():
    rankings = [["n", "u", "a"], ["b"], ["n"], []]
    assert [ReciprocalRank().exact(r, TOPIC) for r in rankings] == [Fraction(1, 3), 1, 0, 0]
    assert ReciprocalRank(2).exact(["n", "u", "a"], TOPIC) == 0  # a is past k = 2
    assert parse("RR(rel=2)").exact(["a", "n", "b"], TOPIC) == Fraction(1, 3)
    batch = RankingBatch.from_rankings(rankings, TOPIC)
    assert ReciprocalRank().score_batch(batch).tolist() == pytest.approx([1 / 3, 1.0, 0.0, 0.0], abs=1e-15)
    assert ReciprocalRank(1).score_batch(batch).tolist() == [0.0, 1.0, 0.0, 0.0]
    assert ReciprocalRank(2).score_batch(batch).tolist() == [0.0, 1.0, 0.0, 0.0]
    with pytest.raises(NotImplementedError):  # the batched arrays hold relevance, not grades
        parse("RR(rel=2)").score_batch(batch)
    # Depth 0 (only empty rankings): zeros.
    assert ReciprocalRank().score_batch(RankingBatch.from_rankings([[], []], TOPIC)).tolist() == [0.0, 0.0]

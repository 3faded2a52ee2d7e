"""RR: a hand-computed value, edge cases, float vs exact, the batched path,
and the spec string."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.reciprocal_rank import ReciprocalRank
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

TOPIC = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 8), "c": 0})


def test_hand_computed():
    # [u, c, b, a]: u unjudged, c judged non-relevant, b relevant at rank 3 -> 1/3.
    assert ReciprocalRank().exact(["u", "c", "b", "a"], TOPIC) == Fraction(1, 3)
    assert ReciprocalRank().score(["u", "c", "b", "a"], TOPIC) == pytest.approx(1 / 3, abs=1e-15)
    # Binary: b's small r = 1/8 counts as fully relevant, a later larger r is ignored.
    assert ReciprocalRank().exact(["b", "a"], TOPIC) == 1
    # RR@2 of [u, c, b, a]: no relevant document in the first two -> 0.
    assert ReciprocalRank(2).exact(["u", "c", "b", "a"], TOPIC) == 0
    assert ReciprocalRank(3).exact(["u", "c", "b", "a"], TOPIC) == Fraction(1, 3)


def test_edge_cases():
    assert ReciprocalRank().exact([], TOPIC) == 0
    assert ReciprocalRank().score([], TOPIC) == 0.0
    assert ReciprocalRank().exact(["c", "u"], TOPIC) == 0  # none relevant
    assert ReciprocalRank(50).exact(["c", "a"], TOPIC) == Fraction(1, 2)  # k > n
    batch = RankingBatch.from_rankings([[], ["c"], ["u", "a"]], TOPIC)
    assert list(ReciprocalRank().score_batch(batch)) == [0.0, 0.0, 0.5]


@pytest.mark.parametrize("spec", ["RR", "RR@1", "RR@10"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, ReciprocalRank)
    assert metric.name == spec and parse(metric.name).name == spec


@given(diversity_cases(), st.sampled_from([None, 1, 2, 5, 30]))
def test_float_matches_exact_and_batch(case, k):
    topic, rankings = case
    metric = ReciprocalRank(k)
    assert_evaluations_agree(metric, topic, rankings)


# RR (issue 14): first relevant rank by hand, cutoffs 1 and k, relevance levels, and the batched
# path including an empty batch.

EDGE_TOPIC = Topic.single({"a": Fraction(1, 2), "b": 1, "n": 0})  # grades: a 1, b 2


def test_reciprocal_rank_by_hand():
    rankings = [["n", "u", "a"], ["b"], ["n"], []]
    assert [ReciprocalRank().exact(r, EDGE_TOPIC) for r in rankings] == [Fraction(1, 3), 1, 0, 0]
    assert ReciprocalRank(2).exact(["n", "u", "a"], EDGE_TOPIC) == 0  # a is past k = 2
    assert parse("RR(rel=2)").exact(["a", "n", "b"], EDGE_TOPIC) == Fraction(1, 3)
    batch = RankingBatch.from_rankings(rankings, EDGE_TOPIC)
    assert ReciprocalRank().score_batch(batch).tolist() == pytest.approx([1 / 3, 1.0, 0.0, 0.0], abs=1e-15)
    assert ReciprocalRank(1).score_batch(batch).tolist() == [0.0, 1.0, 0.0, 0.0]
    assert ReciprocalRank(2).score_batch(batch).tolist() == [0.0, 1.0, 0.0, 0.0]
    with pytest.raises(NotImplementedError):  # the batched arrays hold relevance, not grades
        parse("RR(rel=2)").score_batch(batch)
    # Depth 0 (only empty rankings): zeros.
    assert ReciprocalRank().score_batch(RankingBatch.from_rankings([[], []], EDGE_TOPIC)).tolist() == [0.0, 0.0]

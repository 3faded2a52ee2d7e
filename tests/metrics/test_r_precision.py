"""R-precision: hand-computed values, edge cases, float vs exact vs batch, spec."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.r_precision import RPrecision
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

# R = 2 (a and b); c is judged non-relevant.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})


def test_hand_computed():
    # First R = 2 positions: c (no), a (yes): C(2) / R = 1 / 2.
    assert RPrecision().exact(["c", "a", "b"], TOPIC) == Fraction(1, 2)
    assert RPrecision().score(["c", "a", "b"], TOPIC) == 0.5
    # Graded relevance is binarised: b (r = 1/2) counts fully: 2 / 2.
    assert RPrecision().exact(["b", "a"], TOPIC) == 1
    # A ranking shorter than R keeps the divisor R (trec_eval): 1 / 2.
    assert RPrecision().exact(["a"], TOPIC) == Fraction(1, 2)


def test_edge_cases():
    assert RPrecision().exact([], TOPIC) == 0
    no_relevant = Topic.single({"a": 0, "b": 0})
    assert RPrecision().exact(["a", "b"], no_relevant) == 0
    batch = RankingBatch.from_rankings([["a", "b"], []], no_relevant)
    assert list(RPrecision().score_batch(batch)) == [0.0, 0.0]
    assert list(RPrecision().score_batch(RankingBatch.from_rankings([["c", "a"], ["a"], []], TOPIC))) \
        == [0.5, 0.5, 0.0]


def test_spec_round_trip_and_no_cutoff():
    metric = parse("Rprec")
    assert isinstance(metric, RPrecision) and metric.name == "Rprec"
    with pytest.raises(Exception, match="no cutoff"):
        parse("Rprec@10")


@given(diversity_cases())
def test_float_matches_exact_and_batch(case):
    topic, rankings = case
    assert_evaluations_agree(RPrecision(), topic, rankings)


# R-precision (issue 14): hand-computed values with relevance levels and short rankings, batched
# too.

# R = 2 (a, b); grades: b (1/2) 1, a (1) 2.
EDGE_TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "n": 0})
RANKINGS = [["n", "a", "u", "b"], ["b", "a"], ["n"], []]


def test_r_precision_by_hand():
    # R = 2: [n, a, ...] 1/2; [b, a] 1; [n] 0; [] 0. At rel = 2 (R = 1): [a, n] 1, [n, a] 0.
    assert [RPrecision().exact(r, EDGE_TOPIC) for r in RANKINGS] == [Fraction(1, 2), 1, 0, 0]
    assert parse("Rprec(rel=2)").exact(["a", "n"], EDGE_TOPIC) == 1
    assert parse("Rprec(rel=2)").exact(["n", "a"], EDGE_TOPIC) == 0
    batch = RankingBatch.from_rankings(RANKINGS, EDGE_TOPIC)
    assert RPrecision().score_batch(batch).tolist() == [0.5, 1.0, 0.0, 0.0]

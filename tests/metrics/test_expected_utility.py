"""EU: a hand-computed value, the effort term (Conf, padding), edge cases,
float vs exact, the batched path and spec strings."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings, strategies as st

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.expected_utility import ExpectedUtility, eu_discounts
from tests.metrics.agreement import assert_float_matches_exact, assert_batch_matches_score
from tests.strategies import diversity_cases

# w(x) = 1/4, w(y) = 3/4.
TOPIC = Topic({"a": {"x": 1, "y": Fraction(1, 2)}, "b": {"x": Fraction(1, 2)}, "c": {"y": 1}},
              {"x": Fraction(1, 4), "y": Fraction(3, 4)})


def test_hand_computed():
    # [a, b, c, u], alpha = 1/2, e = 1/20, disc(i) = 1 / (1 + log2 i):
    #   a: (1/4)(1) + (3/4)(1/2) = 5/8;   (5/8 - 1/20) * 1         = 23/40
    #   b: (1/4)(1/2)(1/2) = 1/16;        (1/16 - 1/20) * 1/2      = 1/160
    #   c: (3/4)(1)(1/2) = 3/8;           (3/8 - 1/20) / (1 + log2 3) = (13/40) / (1 + log2 3)
    #   u: 0;                             (0 - 1/20) * 1/3         = -1/60
    value = ExpectedUtility(alpha=0.5, e=0.05).exact(["a", "b", "c", "u"], TOPIC)
    expected = (Fraction(23, 40) + Fraction(1, 160) - Fraction(1, 60)
                + sympy.Rational(13, 40) / (1 + sympy.log(3, 2)))
    assert sympy.simplify(value - expected) == 0
    assert ExpectedUtility().score(["a", "b", "c", "u"], TOPIC) == pytest.approx(
        0.575 + 0.00625 - 1 / 60 + 0.325 / (1 + math.log2(3)), abs=1e-15)
    # Cutoff 2 keeps a and b only: 23/40 + 1/160 = 93/160.
    assert ExpectedUtility(2).exact(["a", "b", "c", "u"], TOPIC) == Fraction(93, 160)


def test_appending_a_useless_document_costs_its_effort():
    # Conf: EU(d + [u]) - EU(d) = -e / (1 + log2(n + 1)); n = 2 -> -(1/20) / (1 + log2 3).
    metric = ExpectedUtility(alpha=0.5, e=0.05)
    difference = metric.exact(["a", "b", "u"], TOPIC) - metric.exact(["a", "b"], TOPIC)
    assert sympy.simplify(difference + sympy.Rational(1, 20) / (1 + sympy.log(3, 2))) == 0


def test_effort_is_paid_only_for_positions_the_ranking_has():
    # In a batch the short ranking is zero padded; padding must not pay effort.
    metric = ExpectedUtility(e=0.5)
    rankings = [["a"], ["u", "v", "w", "a", "b"], []]
    batch = RankingBatch.from_rankings(rankings, TOPIC)
    # ["a"]: 5/8 - 1/2 = 1/8.  []: 0.
    assert list(metric.score_batch(batch)[[0, 2]]) == pytest.approx([0.125, 0.0], abs=1e-15)
    assert metric.score_batch(batch)[1] == pytest.approx(metric.score(rankings[1], TOPIC), abs=1e-12)


def test_edge_cases():
    metric = ExpectedUtility(e=0.05)
    assert metric.exact([], TOPIC) == 0
    # No relevant document: only effort, -(1/20)(1 + 1/2).
    assert metric.exact(["u", "v"], TOPIC) == Fraction(-3, 40)
    assert ExpectedUtility(e=0).exact(["a", "b"], Topic({"a": {"x": 0}, "b": {"y": 0}})) == 0
    # Single aspect, alpha = 1/2, e = 0: [a, b] = 1 + (1/2)(1/2)/2 = 9/8.
    single = Topic.single({"a": 1, "b": Fraction(1, 2)})
    assert ExpectedUtility(alpha=0.5, e=0).exact(["a", "b"], single) == Fraction(9, 8)


@pytest.mark.parametrize("spec", ["EU", "EU(alpha=0.5,e=0.05)", "EU(alpha=0.1,e=0.001)@20"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, ExpectedUtility)
    assert parse(metric.name).name == metric.name


@settings(max_examples=25)
@given(diversity_cases(max_docs=8), st.sampled_from([None, 1, 4]), st.sampled_from([0.1, 0.5]),
       st.sampled_from([0.0, 0.05, 0.5]))
def test_float_matches_exact(data, k, alpha, e):
    topic, rankings = data
    metric = ExpectedUtility(k, alpha=alpha, e=e)
    assert_float_matches_exact(metric, topic, rankings)


@given(diversity_cases(), st.sampled_from([None, 1, 5, 30]), st.sampled_from([0.0, 0.1, 0.5]),
       st.sampled_from([0.0, 0.05, 0.5]))
def test_batch_matches_score(data, k, alpha, e):
    topic, rankings = data
    metric = ExpectedUtility(k, alpha=alpha, e=e)
    assert_batch_matches_score(metric, topic, rankings)


# EU (issue 14): unequal aspect weights, the effort charged at every inspected position (not at
# padding), a cutoff, scalar and batched.

# Aspects x (weight 1/4), y (3/4): a = (1, 0), b = (1/2, 1).
EDGE_TOPIC = Topic({"a": {"x": 1, "y": 0}, "b": {"x": Fraction(1, 2), "y": 1}},
              {"x": Fraction(1, 4), "y": Fraction(3, 4)})


def test_eu_discounts():
    assert eu_discounts(3).tolist() == pytest.approx([1.0, 0.5, 1 / (1 + math.log2(3))], abs=1e-15)


def test_eu_by_hand():
    metric = ExpectedUtility(alpha=0.5, e=0.25)
    # rank 1, a: gain 1/4 * 1 = 1/4, minus e: 0. rank 2, b: 1/4 * 1/2 * (1 - 1/2)^1 + 3/4 * 1 = 13/16,
    # minus 1/4 = 9/16, over 1 + log2 2 = 2: 9/32. rank 3, u: -1/4 / (1 + log2 3).
    assert ExpectedUtility(2, alpha=0.5, e=0.25).exact(["a", "b", "u"], EDGE_TOPIC) == Fraction(9, 32)
    assert metric.exact(["a"], EDGE_TOPIC) == 0 and metric.exact([], EDGE_TOPIC) == 0
    full = 9 / 32 - 0.25 / (1 + math.log2(3))
    assert metric.score(["a", "b", "u"], EDGE_TOPIC) == pytest.approx(full, abs=1e-15)
    # [b, a]: b first (nothing seen yet): 1/4 * 1/2 + 3/4 = 7/8, minus 1/4: 5/8; a second (x seen
    # once): 1/4 * 1 * 1/2 = 1/8, minus 1/4: -1/8, over 2: -1/16. Total 9/16.
    assert metric.exact(["b", "a"], EDGE_TOPIC) == Fraction(9, 16)
    batch = RankingBatch.from_rankings([["a", "b", "u"], ["b", "a"], ["a"], []], EDGE_TOPIC)
    assert metric.score_batch(batch).tolist() == pytest.approx([full, 9 / 16, 0.0, 0.0], abs=1e-15)
    assert ExpectedUtility(2, alpha=0.5, e=0.25).score_batch(batch).tolist() == pytest.approx(
        [9 / 32, 9 / 16, 0.0, 0.0], abs=1e-15)

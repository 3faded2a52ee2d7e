"""Weighted R-precision and average weighted precision: hand-computed values,
edge cases, binary judgments (wRprec = Rprec; AWP vs AP), float vs exact vs batch, spec."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.average_precision import AveragePrecision
from axiometer.metrics.r_precision import RPrecision
from axiometer.metrics.weighted_precision import AverageWeightedPrecision, WeightedRPrecision
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases
from tests.metrics.two_gains import check

# R = 3 relevant (a, b, e); ideal gains 1, 1/2, 1/4 so cg* = 1, 3/2, 7/4, 7/4, ...
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0, "e": Fraction(1, 4)})
RANKING = ["b", "c", "a"]


def test_weighted_r_precision_hand_computed():
    # cg(3) = 1/2 + 0 + 1 = 3/2; cg*(3) = 1 + 1/2 + 1/4 = 7/4 -> (3/2)/(7/4) = 6/7.
    assert WeightedRPrecision().exact(RANKING, TOPIC) == Fraction(6, 7)
    assert WeightedRPrecision().score(RANKING, TOPIC) == pytest.approx(6 / 7, abs=1e-15)
    # Only the first R = 3 ranks count: [c, e, b, a] -> cg(3) = 0 + 1/4 + 1/2 = 3/4 -> (3/4)/(7/4) = 3/7.
    assert WeightedRPrecision().exact(["c", "e", "b", "a"], TOPIC) == Fraction(3, 7)


def test_average_weighted_precision_hand_computed():
    # Rank 1 (b, relevant): cg = 1/2, cg* = 1 -> 1/2. Rank 2 (c): not relevant.
    # Rank 3 (a, relevant): cg = 3/2, cg* = 7/4 -> 6/7. AWP = (1/2 + 6/7) / 3 = (19/14) / 3 = 19/42.
    assert AverageWeightedPrecision().exact(RANKING, TOPIC) == Fraction(19, 42)
    assert AverageWeightedPrecision().score(RANKING, TOPIC) == pytest.approx(19 / 42, abs=1e-15)
    # Cutoff 2 keeps the divisor R = 3: (1/2) / 3 = 1/6.
    assert AverageWeightedPrecision(2).exact(RANKING, TOPIC) == Fraction(1, 6)
    # Past the ideal's end cg* stays 7/4: [c, c2, c3, e] is not realisable, so use
    # [c, x, y, a] with x, y unjudged: rank 4 (a): cg = 1, cg* = 7/4 -> 4/7; AWP = (4/7)/3 = 4/21.
    assert AverageWeightedPrecision().exact(["c", "x", "y", "a"], TOPIC) == Fraction(4, 21)


@pytest.mark.parametrize("cls", [WeightedRPrecision, AverageWeightedPrecision])
def test_edge_cases(cls):
    assert cls().exact([], TOPIC) == 0
    no_relevant = Topic.single({"a": 0, "b": 0})
    assert cls().exact(["a", "b"], no_relevant) == 0  # R = 0 -> 0
    batch = RankingBatch.from_rankings([["a", "b"], []], no_relevant)
    assert list(cls().score_batch(batch)) == [0.0, 0.0]
    assert cls().exact(["a", "b", "e"], TOPIC) == 1  # the ideal itself


def test_binary_judgments():
    # On binary judgments cg = C and cg*(i) = min(i, R): wRprec = Rprec, and AWP is AP
    # within the first R ranks but divides by R (not i) below them.
    topic = Topic.single({"a": 1, "b": 1, "c": 0, "d": 1, "e": 0})
    for ranking in (["c", "a", "e", "b"], ["a", "b", "d"], ["e", "c", "d"], []):
        assert WeightedRPrecision().exact(ranking, topic) == RPrecision().exact(ranking, topic)
    assert AverageWeightedPrecision().exact(["a", "c", "b"], topic) == AveragePrecision().exact(["a", "c", "b"], topic)
    # [c, a, e, b], R = 3: rank 2: C = 1, min(2, 3) = 2 -> 1/2; rank 4: C = 2, min(4, 3) = 3 -> 2/3.
    # AWP = (1/2 + 2/3) / 3 = 7/18, while AP = (1/2 + 2/4) / 3 = 1/3.
    assert AverageWeightedPrecision().exact(["c", "a", "e", "b"], topic) == Fraction(7, 18)
    assert AveragePrecision().exact(["c", "a", "e", "b"], topic) == Fraction(1, 3)


@pytest.mark.parametrize("spec, name", [("wRprec", "wRprec"), ("AWP", "AWP"), ("AWP@5", "AWP@5")])
def test_spec_round_trip(spec, name):
    metric = parse(spec)
    assert metric.name == name and parse(metric.name).name == name


def test_batch_hand_computed():
    batch = RankingBatch.from_rankings([RANKING, ["a", "b", "e"], []], TOPIC)
    assert list(AverageWeightedPrecision().score_batch(batch)) == pytest.approx([19 / 42, 1.0, 0.0], abs=1e-15)
    assert list(WeightedRPrecision().score_batch(batch)) == pytest.approx([6 / 7, 1.0, 0.0], abs=1e-15)


@given(diversity_cases(), st.sampled_from([None, 1, 2, 3, 10]))
def test_float_matches_exact_and_batch(case, k):
    topic, rankings = case
    assert_evaluations_agree(WeightedRPrecision(), topic, rankings)
    assert_evaluations_agree(AverageWeightedPrecision(k), topic, rankings)


# wRprec and AWP (issue 14): hand-computed values with the ideal exhausted before the ranking ends
# and a cutoff, scalar and batched.

def test_weighted_precisions_by_hand():
    # wRprec = cg(2)/cg*(2): [b, n, a] (1/2)/(3/2) = 1/3.
    check(WeightedRPrecision(), [Fraction(1, 3), 1, 0, 0])
    # AWP [b, n, a]: rank 1: (1/2)/1; rank 3: (3/2)/(3/2) = 1 -> (1/2 + 1)/2 = 3/4. @2: (1/2)/2 = 1/4.
    check(AverageWeightedPrecision(), [Fraction(3, 4), 1, 0, 0])
    check(AverageWeightedPrecision(2), [Fraction(1, 4), 1, 0, 0])

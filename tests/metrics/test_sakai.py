"""R-measure and Q-measure: hand-computed values, edge cases, float vs exact
vs batch, spec."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.average_precision import AveragePrecision
from axiometer.metrics.r_precision import RPrecision
from axiometer.metrics.sakai import QMeasure, RMeasure, ideal_cumulative
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

# R = 3 (a, b, e); ideal gains 1, 1/2, 1/4, so cg* = 1, 3/2, 7/4, 7/4, ...
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0, "e": Fraction(1, 4)})
RANKING = ["b", "c", "a", "e"]


def test_r_measure_hand_computed():
    # First R = 3: b, c, a: C(3) = 2, cg(3) = 3/2; cg*(3) = 7/4.
    # (2 + 3/2) / (3 + 7/4) = (7/2) / (19/4) = 14/19.
    assert RMeasure().exact(RANKING, TOPIC) == Fraction(14, 19)
    assert RMeasure().score(RANKING, TOPIC) == pytest.approx(14 / 19, abs=1e-15)
    # beta = 2: (2 + 3) / (3 + 7/2) = 5 / (13/2) = 10/13.
    assert RMeasure(beta=2).exact(RANKING, TOPIC) == Fraction(10, 13)


def test_q_measure_hand_computed():
    # i=1 b: (1 + 1/2) / (1 + 1) = 3/4; i=2 c: not relevant;
    # i=3 a: (2 + 3/2) / (3 + 7/4) = 14/19; i=4 e: (3 + 7/4) / (4 + 7/4) = 19/23.
    expected = (Fraction(3, 4) + Fraction(14, 19) + Fraction(19, 23)) / 3
    assert QMeasure().exact(RANKING, TOPIC) == expected
    assert QMeasure().score(RANKING, TOPIC) == pytest.approx(float(expected), abs=1e-15)
    # Q@2 keeps the divisor R = 3: (3/4) / 3 = 1/4.
    assert QMeasure(2).exact(RANKING, TOPIC) == Fraction(1, 4)


def test_beta_zero_reduces_to_r_precision_and_ap():
    for ranking in (RANKING, ["c", "e"], ["a", "b", "e"], []):
        assert RMeasure(beta=0).exact(ranking, TOPIC) == RPrecision().exact(ranking, TOPIC)
        assert QMeasure(beta=0).exact(ranking, TOPIC) == AveragePrecision().exact(ranking, TOPIC)


@pytest.mark.parametrize("cls", [RMeasure, QMeasure])
def test_edge_cases(cls):
    assert cls().exact([], TOPIC) == 0
    no_relevant = Topic.single({"a": 0, "b": 0})
    assert cls().exact(["a", "b"], no_relevant) == 0  # R = 0 -> 0
    batch = RankingBatch.from_rankings([["a", "b"], []], no_relevant)
    assert list(cls().score_batch(batch)) == [0.0, 0.0]
    assert cls().exact(["a", "b", "e"], TOPIC) == 1  # the ideal ranking
    with pytest.raises(Exception, match="beta"):
        cls(beta=-1)


@pytest.mark.parametrize("spec, name", [
    ("R_measure", "R_measure(beta=1)"), ("R_measure(beta=0.5)", "R_measure(beta=0.5)"),
    ("Q_measure", "Q_measure(beta=1)"), ("Q_measure(beta=2)@10", "Q_measure(beta=2)@10"),
])
def test_spec_round_trip(spec, name):
    metric = parse(spec)
    assert metric.name == name and parse(metric.name).name == name


@given(diversity_cases(), st.sampled_from([None, 1, 3, 30]), st.sampled_from([0, 1, Fraction(1, 3)]))
def test_float_matches_exact_and_batch(case, k, beta):
    topic, rankings = case
    assert_evaluations_agree(RMeasure(beta=beta), topic, rankings)
    assert_evaluations_agree(QMeasure(k, beta=beta), topic, rankings)


# R-measure and Q-measure (issue 14): hand-computed values with the ideal exhausted before the
# ranking ends, beta 0, 1 and 2, a cutoff, scalar and batched.

# R = 2: ideal gains 1, 1/2, so cg* = 1, 3/2, 3/2, ... (flat once the ideal is exhausted).
EDGE_TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "n": 0})
RANKINGS = [["b", "n", "a"], ["a", "b"], ["n"], []]


def test_ideal_cumulative_is_flat_past_the_ideal():
    batch = RankingBatch.from_rankings(RANKINGS, EDGE_TOPIC)
    assert ideal_cumulative(batch, 4).tolist() == [1.0, 1.5, 1.5, 1.5]
    assert ideal_cumulative(batch, 1).tolist() == [1.0]


def test_r_measure_by_hand():
    # First R = 2 positions of [b, n, a]: C = 1, cg = 1/2, cg*(2) = 3/2.
    # beta = 1: (1 + 1/2)/(2 + 3/2) = 3/7; beta = 2: (1 + 1)/(2 + 3) = 2/5; beta = 0: C/R = 1/2.
    assert RMeasure().exact(RANKINGS[0], EDGE_TOPIC) == Fraction(3, 7)
    assert RMeasure(beta=2).exact(RANKINGS[0], EDGE_TOPIC) == Fraction(2, 5)
    assert RMeasure(beta=0).exact(RANKINGS[0], EDGE_TOPIC) == Fraction(1, 2)
    assert RMeasure().exact(["a", "b"], EDGE_TOPIC) == 1
    batch = RankingBatch.from_rankings(RANKINGS, EDGE_TOPIC)
    assert RMeasure().score_batch(batch).tolist() == pytest.approx([3 / 7, 1.0, 0.0, 0.0], abs=1e-15)
    assert RMeasure(beta=2).score_batch(batch).tolist() == pytest.approx([2 / 5, 1.0, 0.0, 0.0], abs=1e-15)


def test_q_measure_by_hand():
    # [b, n, a], beta = 1: rank 1 (b): (1 + 1/2)/(1 + 1) = 3/4; rank 3 (a): (2 + 3/2)/(3 + 3/2) = 7/9;
    # (3/4 + 7/9)/2 = 55/72. beta = 2: rank 1: (1 + 1)/(1 + 2) = 2/3; rank 3: (2 + 3)/(3 + 3) = 5/6;
    # (2/3 + 5/6)/2 = 3/4. beta = 0: AP = (1 + 2/3)/2 = 5/6. @2: (3/4)/2 = 3/8.
    assert QMeasure().exact(RANKINGS[0], EDGE_TOPIC) == Fraction(55, 72)
    assert QMeasure(beta=2).exact(RANKINGS[0], EDGE_TOPIC) == Fraction(3, 4)
    assert QMeasure(beta=0).exact(RANKINGS[0], EDGE_TOPIC) == Fraction(5, 6)
    assert QMeasure(2).exact(RANKINGS[0], EDGE_TOPIC) == Fraction(3, 8)
    # [a, b]: rank 1: (1 + 1)/(1 + 1) = 1; rank 2: (2 + 3/2)/(2 + 3/2) = 1: Q = 1.
    assert QMeasure().exact(["a", "b"], EDGE_TOPIC) == 1
    batch = RankingBatch.from_rankings(RANKINGS, EDGE_TOPIC)
    assert QMeasure().score_batch(batch).tolist() == pytest.approx([55 / 72, 1.0, 0.0, 0.0], abs=1e-15)
    assert QMeasure(beta=2).score_batch(batch).tolist() == pytest.approx([0.75, 1.0, 0.0, 0.0], abs=1e-15)
    assert QMeasure(2).score_batch(batch).tolist() == pytest.approx([3 / 8, 1.0, 0.0, 0.0], abs=1e-15)

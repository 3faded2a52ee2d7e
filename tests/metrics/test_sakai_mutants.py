"""R-measure and Q-measure (issue 14, mutation survivors of metrics/sakai.py): hand-computed values
with the ideal exhausted before the ranking ends, beta 0, 1 and 2, a cutoff, scalar and batched."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.sakai import QMeasure, RMeasure, ideal_cumulative

# R = 2: ideal gains 1, 1/2, so cg* = 1, 3/2, 3/2, ... (flat once the ideal is exhausted).
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "n": 0})
RANKINGS = [["b", "n", "a"], ["a", "b"], ["n"], []]


def test_ideal_cumulative_is_flat_past_the_ideal():
    batch = RankingBatch.from_rankings(RANKINGS, TOPIC)
    assert ideal_cumulative(batch, 4).tolist() == [1.0, 1.5, 1.5, 1.5]
    assert ideal_cumulative(batch, 1).tolist() == [1.0]


def test_r_measure_by_hand():
    # First R = 2 positions of [b, n, a]: C = 1, cg = 1/2, cg*(2) = 3/2.
    # beta = 1: (1 + 1/2)/(2 + 3/2) = 3/7; beta = 2: (1 + 1)/(2 + 3) = 2/5; beta = 0: C/R = 1/2.
    assert RMeasure().exact(RANKINGS[0], TOPIC) == Fraction(3, 7)
    assert RMeasure(beta=2).exact(RANKINGS[0], TOPIC) == Fraction(2, 5)
    assert RMeasure(beta=0).exact(RANKINGS[0], TOPIC) == Fraction(1, 2)
    assert RMeasure().exact(["a", "b"], TOPIC) == 1
    batch = RankingBatch.from_rankings(RANKINGS, TOPIC)
    assert RMeasure().score_batch(batch).tolist() == pytest.approx([3 / 7, 1.0, 0.0, 0.0], abs=1e-15)
    assert RMeasure(beta=2).score_batch(batch).tolist() == pytest.approx([2 / 5, 1.0, 0.0, 0.0], abs=1e-15)


def test_q_measure_by_hand():
    # [b, n, a], beta = 1: rank 1 (b): (1 + 1/2)/(1 + 1) = 3/4; rank 3 (a): (2 + 3/2)/(3 + 3/2) = 7/9;
    # (3/4 + 7/9)/2 = 55/72. beta = 2: rank 1: (1 + 1)/(1 + 2) = 2/3; rank 3: (2 + 3)/(3 + 3) = 5/6;
    # (2/3 + 5/6)/2 = 3/4. beta = 0: AP = (1 + 2/3)/2 = 5/6. @2: (3/4)/2 = 3/8.
    assert QMeasure().exact(RANKINGS[0], TOPIC) == Fraction(55, 72)
    assert QMeasure(beta=2).exact(RANKINGS[0], TOPIC) == Fraction(3, 4)
    assert QMeasure(beta=0).exact(RANKINGS[0], TOPIC) == Fraction(5, 6)
    assert QMeasure(2).exact(RANKINGS[0], TOPIC) == Fraction(3, 8)
    # [a, b]: rank 1: (1 + 1)/(1 + 1) = 1; rank 2: (2 + 3/2)/(2 + 3/2) = 1: Q = 1.
    assert QMeasure().exact(["a", "b"], TOPIC) == 1
    batch = RankingBatch.from_rankings(RANKINGS, TOPIC)
    assert QMeasure().score_batch(batch).tolist() == pytest.approx([55 / 72, 1.0, 0.0, 0.0], abs=1e-15)
    assert QMeasure(beta=2).score_batch(batch).tolist() == pytest.approx([0.75, 1.0, 0.0, 0.0], abs=1e-15)
    assert QMeasure(2).score_batch(batch).tolist() == pytest.approx([3 / 8, 1.0, 0.0, 0.0], abs=1e-15)

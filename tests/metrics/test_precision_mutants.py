"""P@k (issue 14, mutation survivors of metrics/precision.py): relevance levels, the batched path
against hand-computed values, and the browsing model's declared parts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.arithmetic import EXACT
from axiometer.metrics.precision import Precision

# Grades from the values: 1/4 -> 1, 1/2 -> 2, 1 -> 3.
TOPIC = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 4), "c": 1, "n": 0})


def test_precision_by_hand_at_relevance_levels():
    ranking = ["a", "b", "n", "c", "u"]
    assert Precision(4).exact(ranking, TOPIC) == Fraction(3, 4)  # a, b, c
    assert parse("P(rel=2)@4").exact(ranking, TOPIC) == Fraction(2, 4)  # a, c (grade >= 2)
    assert parse("P(rel=3)@4").exact(ranking, TOPIC) == Fraction(1, 4)  # c
    batch = RankingBatch.from_rankings([ranking, ["n"], []], TOPIC)
    assert Precision(4).score_batch(batch).tolist() == [0.75, 0.0, 0.0]
    assert Precision(2).score_batch(batch).tolist() == [1.0, 0.0, 0.0]
    assert Precision(10).score_batch(batch).tolist() == pytest.approx([0.3, 0.0, 0.0], abs=1e-15)
    with pytest.raises(NotImplementedError):
        parse("P(rel=2)@4").score_batch(batch)


def test_browsing_model_declares_its_parts():
    model = Precision(4).browsing_model()
    assert model.name == "P@4" and model.depth == 4 and model.graded is False and model.unit_range
    assert model.normaliser(EXACT) == Fraction(1, 4) and model.seen(5, EXACT) == 0
    assert model.gain("b", TOPIC, EXACT) == 1  # binary gain

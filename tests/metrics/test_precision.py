"""P@k (the template metric): a hand-computed value, edge cases, float vs exact,
the batched path, and the spec string."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.precision import PrecisionAtK
from axiometer.metrics.arithmetic import EXACT
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

TOPIC = Topic.single({"a": Fraction(1, 2), "b": 0, "c": Fraction(1, 4)})


def test_hand_computed():
    ranking = ["a", "b", "c", "u"]
    # P@2: a relevant, b not -> 1/2.  P@3: a, c relevant -> 2/3.
    assert PrecisionAtK(2).exact(ranking, TOPIC) == Fraction(1, 2)
    assert PrecisionAtK(3).exact(ranking, TOPIC) == Fraction(2, 3)
    # Ranking shorter than k: trec_eval's P_k still divides by k -> 2/10.
    assert PrecisionAtK(10).exact(ranking, TOPIC) == Fraction(1, 5)
    assert PrecisionAtK(10).score(ranking, TOPIC) == pytest.approx(0.2, abs=1e-15)


def test_binary_single_aspect_view():
    # b is relevant on aspect y only: rel(b) = [max_t r(b, t) > 0] = 1.  P@2 = 2/2.
    topic = Topic({"a": {"x": Fraction(1, 8)}, "b": {"x": 0, "y": Fraction(7, 8)}})
    assert PrecisionAtK(2).exact(["a", "b"], topic) == 1


def test_edge_cases():
    assert PrecisionAtK(5).exact([], TOPIC) == 0
    no_relevant = Topic.single({"a": 0, "b": 0})
    assert PrecisionAtK(5).exact(["a", "b"], no_relevant) == 0
    assert PrecisionAtK().cutoff == 10  # P alone means P@10


@pytest.mark.parametrize("spec", ["P@1", "P@10", "P@1000", "P"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, PrecisionAtK)
    assert parse(metric.name).name == metric.name
    assert metric.name == (spec if "@" in spec else "P@10")


@given(diversity_cases(), st.integers(1, 30))
def test_float_matches_exact_and_batch(case, k):
    topic, rankings = case
    metric = PrecisionAtK(k)
    assert_evaluations_agree(metric, topic, rankings)


# P@k (issue 14): relevance levels, the batched path against hand-computed values, and the browsing
# model's declared parts.

# Grades from the values: 1/4 -> 1, 1/2 -> 2, 1 -> 3.
EDGE_TOPIC = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 4), "c": 1, "n": 0})


def test_precision_by_hand_at_relevance_levels():
    ranking = ["a", "b", "n", "c", "u"]
    assert PrecisionAtK(4).exact(ranking, EDGE_TOPIC) == Fraction(3, 4)  # a, b, c
    assert parse("P(rel=2)@4").exact(ranking, EDGE_TOPIC) == Fraction(2, 4)  # a, c (grade >= 2)
    assert parse("P(rel=3)@4").exact(ranking, EDGE_TOPIC) == Fraction(1, 4)  # c
    batch = RankingBatch.from_rankings([ranking, ["n"], []], EDGE_TOPIC)
    assert PrecisionAtK(4).score_batch(batch).tolist() == [0.75, 0.0, 0.0]
    assert PrecisionAtK(2).score_batch(batch).tolist() == [1.0, 0.0, 0.0]
    assert PrecisionAtK(10).score_batch(batch).tolist() == pytest.approx([0.3, 0.0, 0.0], abs=1e-15)
    with pytest.raises(NotImplementedError):
        parse("P(rel=2)@4").score_batch(batch)


def test_browsing_model_declares_its_parts():
    model = PrecisionAtK(4).browsing_model()
    assert model.name == "P@4" and model.depth == 4 and model.graded is False and model.unit_range
    assert model.normaliser(EXACT) == Fraction(1, 4) and model.seen(5, EXACT) == 0
    assert model.gain("b", EDGE_TOPIC, EXACT) == 1  # binary gain

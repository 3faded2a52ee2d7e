"""alpha-DCG@k and alpha-nDCG@k: hand-computed values, ndeval's greedy ideal
(tie-breaking, non-optimality), edge cases, float vs exact, the batched path
and spec strings.

``diversity_cases`` (multi-aspect topics with exact Fraction relevance, some
with unequal weights and non-dyadic values, plus rankings over them) is
shared by the diversity metrics' tests.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings, strategies as st

from axiometer.core import Topic, ValidationError
from axiometer.metrics import parse
from axiometer.metrics.alpha_ndcg import AlphaDCG, AlphaNDCG, greedy_ideal_gains
from axiometer.metrics.dcg import DCG
from tests.metrics.agreement import assert_float_matches_exact, assert_batch_matches_score
from tests.strategies import diversity_cases

LOG2_3 = sympy.log(3, 2)


# x, y unweighted; a covers both, b covers x, c covers y (binary).
TOPIC = Topic({"a": {"x": 1, "y": 1}, "b": {"x": 1}, "c": {"y": 1}, "n": {"x": 0}})


def test_hand_computed_alpha_dcg():
    # [b, a, c], alpha = 1/2:
    #   b: x fresh -> 1;                      / log2 2 = 1
    #   a: x seen once -> 1/2, y fresh -> 1;  3/2 / log2 3
    #   c: y seen once -> 1/2;                1/2 / log2 4 = 1/4
    value = AlphaDCG(3, alpha=0.5).exact(["b", "a", "c"], TOPIC)
    assert sympy.simplify(value - (Fraction(5, 4) + sympy.Rational(3, 2) / LOG2_3)) == 0
    assert AlphaDCG(1, alpha=0.5).exact(["b", "a", "c"], TOPIC) == 1
    # alpha = 0.1 on [a, b]: 2 + 0.9 / log2 3
    assert AlphaDCG(alpha=0.1).score(["a", "b"], TOPIC) == pytest.approx(2 + 0.9 / math.log2(3), abs=1e-15)


def test_hand_computed_alpha_ndcg():
    # Greedy ideal, alpha = 1/2: a (gain 2); then b and c both 1/2, tie -> larger id c; then b 1/2.
    assert greedy_ideal_gains(TOPIC, Fraction(1, 2)) == (2, Fraction(1, 2), Fraction(1, 2))
    # ideal DCG@3 = 2 + (1/2)/log2 3 + (1/2)/2;  run [b, a, c] DCG@3 = 1 + (3/2)/log2 3 + 1/4.
    expected = (Fraction(5, 4) + sympy.Rational(3, 2) / LOG2_3) / (Fraction(9, 4) + sympy.Rational(1, 2) / LOG2_3)
    value = AlphaNDCG(3, alpha=0.5).exact(["b", "a", "c"], TOPIC)
    assert sympy.simplify(value - expected) == 0
    assert AlphaNDCG(3, alpha=0.5).score(["b", "a", "c"], TOPIC) == pytest.approx(
        (1.25 + 1.5 / math.log2(3)) / (2.25 + 0.5 / math.log2(3)), abs=1e-15)
    # @1: 1 / 2.
    assert AlphaNDCG(1, alpha=0.5).exact(["b", "a", "c"], TOPIC) == Fraction(1, 2)


def test_graded_gain_is_relevance():
    topic = Topic({"a": {"x": Fraction(1, 2)}, "b": {"x": Fraction(1, 4)}})
    # [a, b]: 1/2 + (1/4)(1/2) / log2 3 -- c counts the earlier relevant document, not its grade.
    value = AlphaDCG(alpha=0.5).exact(["a", "b"], topic)
    assert sympy.simplify(value - (Fraction(1, 2) + sympy.Rational(1, 8) / LOG2_3)) == 0


def test_greedy_ideal_is_not_optimal_and_ties_go_to_the_largest_id():
    # a covers {1,2}, b {3,4}, c {1,3}: all tie at 2 and ndeval takes the largest id, c;
    # then a and b tie at 3/2 (b taken), then a 3/2. [a, b] beats it:
    # (2 + 2/log2 3) / (2 + (3/2)/log2 3) = 1.10706810063...
    topic = Topic({"a": {"1": 1, "2": 1}, "b": {"3": 1, "4": 1}, "c": {"1": 1, "3": 1}})
    assert greedy_ideal_gains(topic, Fraction(1, 2)) == (2, Fraction(3, 2), Fraction(3, 2))
    value = AlphaNDCG(2, alpha=0.5).score(["a", "b"], topic)
    assert value == pytest.approx((2 + 2 / math.log2(3)) / (2 + 1.5 / math.log2(3)), abs=1e-14)
    assert value > 1


def test_edge_cases():
    for metric in (AlphaDCG(10), AlphaNDCG(10), AlphaNDCG()):
        assert metric.exact([], TOPIC) == 0
        assert metric.exact(["n", "u"], TOPIC) == 0
        assert metric.exact(["a"], Topic({"a": {"x": 0}, "b": {"y": 0}})) == 0
    # Single aspect, binary: each repeat is worth half. [a, d, b, c]:
    # a: 1 / log2 2;  d: 0;  b: (1/2) / log2 4 = 1/4;  c: (1/4) / log2 5.
    single = Topic.single({"a": 1, "b": 1, "c": 1, "d": 0})
    value = AlphaDCG(alpha=0.5).exact(["a", "d", "b", "c"], single)
    assert sympy.simplify(value - (Fraction(5, 4) + sympy.Rational(1, 4) / sympy.log(5, 2))) == 0
    # The ideal of a single-aspect topic is any order of its relevant documents.
    assert AlphaNDCG(alpha=0.5).exact(["c", "b", "a"], single) == 1


@given(diversity_cases(max_aspects=1), st.integers(1, 12))
def test_alpha_zero_single_aspect_is_dcg(data, k):
    """With alpha = 0 there is no redundancy penalty: on one aspect alpha-DCG is DCG."""
    topic, rankings = data
    for ranking in rankings:
        assert abs(AlphaDCG(k, alpha=0).score(ranking, topic) - DCG(k).score(ranking, topic)) <= 1e-12


@given(diversity_cases(), st.sampled_from([0.1, 0.25, 0.5, 0.75]))
def test_greedy_ideal_gains_do_not_increase(data, alpha):
    topic, _ = data
    gains = greedy_ideal_gains(topic, Fraction(str(alpha)))
    assert len(gains) == topic.R
    assert all(later <= earlier for earlier, later in zip(gains, gains[1:]))


@pytest.mark.parametrize("spec", ["alpha_DCG", "alpha_DCG(alpha=0.25)@5", "alpha_nDCG(alpha=0.5)@10",
                                  "alpha_nDCG", "alpha_nDCG(alpha=1/10)@20"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, (AlphaDCG, AlphaNDCG))
    assert parse(metric.name).name == metric.name


def test_alpha_is_validated():
    with pytest.raises(ValidationError):
        AlphaNDCG(alpha=1.0)
    with pytest.raises(ValidationError):
        AlphaDCG(alpha=-0.1)


@settings(max_examples=25)
@given(diversity_cases(max_docs=8), st.sampled_from([None, 1, 3, 10]), st.sampled_from([0.1, 0.5, 0.75]))
def test_float_matches_exact(data, k, alpha):
    topic, rankings = data
    for metric in (AlphaDCG(k, alpha=alpha), AlphaNDCG(k, alpha=alpha)):
        assert_float_matches_exact(metric, topic, rankings)


@given(diversity_cases(), st.sampled_from([None, 1, 2, 5, 30]), st.sampled_from([0.0, 0.1, 0.5, 0.75]))
def test_batch_matches_score(data, k, alpha):
    topic, rankings = data
    for metric in (AlphaDCG(k, alpha=alpha), AlphaNDCG(k, alpha=alpha)):
        assert_batch_matches_score(metric, topic, rankings)

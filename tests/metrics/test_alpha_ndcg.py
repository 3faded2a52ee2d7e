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
import numpy as np

from axiometer.core import Topic, ValidationError
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.alpha_ndcg import AlphaDCG, AlphaNDCG, greedy_ideal_gains
from axiometer.metrics.dcg import DCG
from axiometer.metrics.arithmetic import EXACT, FLOAT
from axiometer.metrics.alpha_ndcg import batch_novelty_gains, greedy_ideal_documents, ideal_gains, novelty_gains
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


# alpha-DCG / alpha-nDCG helpers (Clarke et al., SIGIR 2008; ndeval's greedy ideal), issue 14:
# weighted novelty gains on both paths, a zero grade is not a repeat, the greedy ideal's graded
# incremental update with alpha != 1/2 (so ``alpha`` and ``1 - alpha`` cannot be swapped), its
# limit, and the normaliser cut at the metric's cutoff, scalar and batched.

L3 = math.log2(3)

# One aspect x, graded: b 1, a 1/2, c 1/3; n judged non-relevant.
GRADED = Topic.single({"a": Fraction(1, 2), "b": 1, "c": Fraction(1, 3), "n": 0})


def batch(metric, topic, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, topic)).tolist()


def test_novelty_gains_weighted_and_a_zero_grade_is_no_repeat():
    half = Fraction(1, 2)
    vectors = [[1, 1], [1, 0], [0, half]]
    # alpha = 1/2: [1 + 1, x repeated once 1/2, y repeated once (1/2)(1/2) = 1/4].
    assert novelty_gains(vectors, half, EXACT) == [2, half, Fraction(1, 4)]
    # Weights 1/4, 3/4: [1/4 + 3/4, (1/4)(1/2), (3/4)(1/4)] = [1, 1/8, 3/16].
    weights = [Fraction(1, 4), Fraction(3, 4)]
    assert novelty_gains(vectors, half, EXACT, weights) == [1, Fraction(1, 8), Fraction(3, 16)]
    gains = np.array([[[1.0, 1.0], [1.0, 0.0], [0.0, 0.5]]])
    assert batch_novelty_gains(gains, 0.5).tolist() == [[2.0, 0.5, 0.25]]
    assert batch_novelty_gains(gains, 0.5, np.array([0.25, 0.75])).tolist() == [[1.0, 0.125, 0.1875]]
    # x graded 0 at rank 1 is not a relevant document above rank 2: x is fresh there.
    assert novelty_gains([[0, 1], [1, 0]], half, EXACT) == [1, 1]
    assert batch_novelty_gains(np.array([[[0.0, 1.0], [1.0, 0.0]]]), 0.5).tolist() == [[1.0, 1.0]]


def test_greedy_ideal_graded_update_and_limit():
    # alpha = 1/4, keep 3/4. Start: b 1, a 1/2, c 1/3 -> b (1).
    # Then a 1/2 * 3/4 = 3/8, c 1/3 * 3/4 = 1/4 -> a (3/8). Then c 1/3 * (3/4)^2 = 3/16.
    quarter = Fraction(1, 4)
    assert greedy_ideal_gains(GRADED, quarter) == (1, Fraction(3, 8), Fraction(3, 16))
    assert greedy_ideal_documents(GRADED, quarter) == ("b", "a", "c")
    assert greedy_ideal_gains(GRADED, quarter, 2) == (1, Fraction(3, 8))
    assert greedy_ideal_documents(GRADED, quarter, 1) == ("b",)
    assert ideal_gains(GRADED, 0.25, 2, EXACT) == [1, Fraction(3, 8)]
    assert ideal_gains(GRADED, 0.25, None, FLOAT) == [1.0, 0.375, 0.1875]


def test_greedy_ideal_over_two_aspects_ties_and_factors():
    # a {x}, b {x}, c {y: 1/2}, alpha = 1/2: a and b tie at 1 -> b (larger id); then a 1/2 and
    # c 1/2 tie -> c; then a 1/2 (x's factor 1/2, unchanged by c).
    topic = Topic({"a": {"x": 1}, "b": {"x": 1}, "c": {"y": Fraction(1, 2)}, "n": {"x": 0}})
    assert greedy_ideal_documents(topic, Fraction(1, 2)) == ("b", "c", "a")
    assert greedy_ideal_gains(topic, Fraction(1, 2)) == (1, Fraction(1, 2), Fraction(1, 2))


def test_alpha_ndcg_normalises_by_the_ideal_cut_at_k():
    metric = AlphaNDCG(2, alpha=0.25)
    # [c, a]: c 1/3; a 1/2 * 3/4 = 3/8.  DCG@2 = 1/3 + (3/8)/log2 3.
    # Ideal@2 (b, a): 1 + (3/8)/log2 3.
    l3 = sympy.log(3, 2)
    want = (sympy.Rational(1, 3) + sympy.Rational(3, 8) / l3) / (1 + sympy.Rational(3, 8) / l3)
    assert sympy.simplify(metric.exact(["c", "a", "b"], GRADED) - want) == 0
    value = (1 / 3 + 0.375 / L3) / (1 + 0.375 / L3)
    assert metric.score(["c", "a", "b"], GRADED) == pytest.approx(value, abs=1e-15)
    # @1: c 1/3 over b's 1.
    assert AlphaNDCG(1, alpha=0.25).exact(["c", "a"], GRADED) == Fraction(1, 3)
    got = batch(AlphaNDCG(1, alpha=0.25), GRADED, [["c", "a"], ["b"], ["n", "b"], []])
    assert got == pytest.approx([1 / 3, 1.0, 0.0, 0.0], abs=1e-15)
    got = batch(metric, GRADED, [["c", "a", "b"], ["b", "a"]])
    assert got == pytest.approx([value, 1.0], abs=1e-15)
    # alpha-DCG@2 of [c, a] batched: 1/3 + (3/8)/log2 3.
    assert batch(AlphaDCG(2, alpha=0.25), GRADED, [["c", "a", "b"]]) == pytest.approx(
        [1 / 3 + 0.375 / L3], abs=1e-15)


def test_no_relevant_document_scores_zero_on_both_paths():
    topic = Topic({"a": {"x": 0}, "b": {"y": 0}})
    for metric in (AlphaNDCG(), AlphaNDCG(3)):
        assert metric.exact(["a", "b"], topic) == 0
        assert batch(metric, topic, [["a", "b"], []]) == [0.0, 0.0]

"""D#-nDCG@k: a hand-computed value, its two components, edge cases, float vs
exact, the batched path and spec strings."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings, strategies as st

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.dcg import NDCG
from axiometer.metrics.dsharp import DSharpNDCG, global_gain
from axiometer.metrics.subtopic_recall import SubtopicRecall
from axiometer.metrics.arithmetic import EXACT
from tests.metrics.agreement import assert_float_matches_exact, assert_batch_matches_score
from tests.strategies import diversity_cases

# w(x) = 1/4, w(y) = 3/4.  Global gains: a = 1/4 + (3/4)(1/2) = 5/8, b = 1/8, c = 3/4.
TOPIC = Topic({"a": {"x": 1, "y": Fraction(1, 2)}, "b": {"x": Fraction(1, 2)}, "c": {"y": 1}},
              {"x": Fraction(1, 4), "y": Fraction(3, 4)})


def test_hand_computed():
    # [b, a] @2: S-Recall = |{x, y}| / 2 = 1.
    # D-DCG@2 = 1/8 + (5/8)/log2 3;  ideal (c, a, b) @2 = 3/4 + (5/8)/log2 3.
    # D#@2 = 1/2 * 1 + 1/2 * (0.125 + 0.394332...) / (0.75 + 0.394332...) = 0.72691...
    log3 = sympy.log(3, 2)
    d_ndcg = (sympy.Rational(1, 8) + sympy.Rational(5, 8) / log3) / (sympy.Rational(3, 4) + sympy.Rational(5, 8) / log3)
    value = DSharpNDCG(2, gamma=0.5).exact(["b", "a"], TOPIC)
    assert sympy.simplify(value - (sympy.Rational(1, 2) + d_ndcg / 2)) == 0
    expected = 0.5 + 0.5 * (0.125 + 0.625 / math.log2(3)) / (0.75 + 0.625 / math.log2(3))
    assert DSharpNDCG(2).score(["b", "a"], TOPIC) == pytest.approx(expected, abs=1e-15)
    # @1 on [c]: S-Recall 1/2, D-nDCG 1 -> 3/4.
    assert DSharpNDCG(1).exact(["c"], TOPIC) == Fraction(3, 4)


def test_gamma_one_is_subtopic_recall_and_zero_is_weighted_ndcg():
    ranking = ["b", "u", "a", "c"]
    assert DSharpNDCG(3, gamma=1).exact(ranking, TOPIC) == SubtopicRecall(3).exact(ranking, TOPIC)
    # On one aspect the global gain is r(d): D-nDCG is nDCG.
    single = Topic.single({"a": Fraction(1, 2), "b": 1, "c": 0})
    assert DSharpNDCG(2, gamma=0).score(["a", "c", "b"], single) == pytest.approx(
        NDCG(2).score(["a", "c", "b"], single), abs=1e-15)


def test_edge_cases():
    metric = DSharpNDCG(5)
    assert metric.exact([], TOPIC) == 0
    assert metric.exact(["u", "v"], TOPIC) == 0
    assert metric.exact(["a"], Topic({"a": {"x": 0}, "b": {"y": 0}})) == 0
    # Single aspect: [b, a] @1 = 1/2 * 1 + 1/2 * 1 (b is the ideal's first document).
    assert DSharpNDCG(1).exact(["b", "a"], Topic.single({"a": Fraction(1, 2), "b": 1})) == 1
    assert DSharpNDCG().cutoff == 10


@pytest.mark.parametrize("spec", ["DSharp_nDCG", "DSharp_nDCG(gamma=0.5)@10", "DSharp_nDCG(gamma=0.25)@20"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, DSharpNDCG)
    assert parse(metric.name).name == metric.name


@settings(max_examples=25)
@given(diversity_cases(max_docs=8), st.sampled_from([1, 3, 10]), st.sampled_from([0.0, 0.5, 1.0]))
def test_float_matches_exact(data, k, gamma):
    topic, rankings = data
    metric = DSharpNDCG(k, gamma=gamma)
    assert_float_matches_exact(metric, topic, rankings)


@given(diversity_cases(), st.sampled_from([1, 2, 5, 30]), st.sampled_from([0.0, 0.5, 1.0]))
def test_batch_matches_score(data, k, gamma):
    topic, rankings = data
    metric = DSharpNDCG(k, gamma=gamma)
    assert_batch_matches_score(metric, topic, rankings)


# D#-nDCG (Sakai & Song, SIGIR 2011), issue 14: the global gain's aspect weights, the ideal
# cut at k, gamma against 1 - gamma, on both paths, and a topic without relevant documents.

F = Fraction
# w(x) = 3/4, w(y) = 1/4. GG: a 3/4, b 1/4, c 3/8.
EDGE_TOPIC = Topic({"a": {"x": 1}, "b": {"y": 1}, "c": {"x": F(1, 2)}, "n": {"x": 0, "y": 0}},
              {"x": F(3, 4), "y": F(1, 4)})


def batch(metric, topic, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, topic)).tolist()


def test_global_gain():
    assert global_gain([F(1, 2), 1], [F(3, 4), F(1, 4)], EXACT) == F(5, 8)
    assert global_gain([0, F(1, 3)], [F(3, 4), F(1, 4)], EXACT) == F(1, 12)


def test_hand_computed_at_one_with_unequal_gamma():
    # @1, gamma = 1/5. [b]: S-Recall@1 = 1/2 (y of x, y); D-nDCG@1 = (1/4)/(3/4) = 1/3.
    #   1/5 * 1/2 + 4/5 * 1/3 = 1/10 + 4/15 = 11/30.
    # [c]: recall 1/2, D-nDCG 1/2: 1/10 + 2/5 = 1/2.   [a]: 1/10 + 4/5 = 9/10.   [n]: 0.
    metric = DSharpNDCG(1, gamma=0.2)
    assert metric.exact(["b", "a"], EDGE_TOPIC) == F(11, 30)
    assert metric.exact(["c"], EDGE_TOPIC) == F(1, 2)
    assert metric.exact(["a"], EDGE_TOPIC) == F(9, 10)
    assert batch(metric, EDGE_TOPIC, [["b", "a"], ["c"], ["a"], ["n"], []]) == pytest.approx(
        [11 / 30, 0.5, 0.9, 0.0, 0.0], abs=1e-15)


def test_no_relevant_document():
    topic = Topic({"a": {"x": 0}, "b": {"y": 0}})
    for metric in (DSharpNDCG(), DSharpNDCG(2, gamma=0)):
        assert metric.exact(["a", "b"], topic) == 0
        assert batch(metric, topic, [["a", "b"], []]) == [0.0, 0.0]

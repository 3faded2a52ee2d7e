"""DCG@k and nDCG@k (the template metrics): hand-computed values, edge cases,
float vs exact, the batched path, and the spec string."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, strategies as st
import numpy as np

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.dcg import DCG, NDCG, batch_ideal_gains, dcg, discounts, ideal_gains
from axiometer.metrics.arithmetic import EXACT
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

TOPIC = Topic.single({"a": Fraction(1, 2), "b": 0, "c": Fraction(1, 4)})


def test_hand_computed_dcg():
    # [a, b, c]: 1/2 / log2(2) + 0 + 1/4 / log2(4) = 1/2 + 1/8 = 5/8, a rational number.
    assert DCG().exact(["a", "b", "c"], TOPIC) == Fraction(5, 8)
    assert DCG().score(["a", "b", "c"], TOPIC) == pytest.approx(0.625, abs=1e-15)
    # @2 drops c: 1/2.
    assert DCG(2).exact(["a", "b", "c"], TOPIC) == Fraction(1, 2)


def test_hand_computed_ndcg():
    # [b, a, c]: DCG = 1/2 / log2(3) + 1/4 / log2(4) = 1/(2 log2 3) + 1/8;
    # ideal [a, c]: 1/2 + 1/(4 log2 3).
    want = (0.5 / math.log2(3) + 0.125) / (0.5 + 0.25 / math.log2(3))
    assert NDCG().score(["b", "a", "c"], TOPIC) == pytest.approx(want, abs=1e-15)
    exact = NDCG().exact(["b", "a", "c"], TOPIC)
    log3 = sympy.log(3, 2)
    assert sympy.simplify(exact - (1 / (2 * log3) + sympy.Rational(1, 8))
                          / (sympy.Rational(1, 2) + 1 / (4 * log3))) == 0
    # nDCG@1 of [b, ...] is 0; of [a, ...] is 1 (the ideal is cut at k too).
    assert NDCG(1).exact(["b", "a"], TOPIC) == 0
    assert NDCG(1).exact(["a", "b"], TOPIC) == 1


def test_single_aspect_view_gain_is_max_over_aspects():
    # gain(b) = max(1/4, 3/4) = 3/4; DCG([b]) = 3/4.
    topic = Topic({"a": {"x": Fraction(1, 2)}, "b": {"x": Fraction(1, 4), "y": Fraction(3, 4)}})
    assert DCG().exact(["b"], topic) == Fraction(3, 4)


def test_edge_cases():
    assert DCG().exact([], TOPIC) == 0 and NDCG(5).exact([], TOPIC) == 0
    no_relevant = Topic.single({"a": 0})
    assert NDCG().exact(["a"], no_relevant) == 0  # zero ideal -> 0, as trec_eval
    assert NDCG().score(["a"], no_relevant) == 0.0
    # cutoff longer than the ranking: same as no cutoff.
    assert NDCG(100).exact(["a", "c"], TOPIC) == NDCG().exact(["a", "c"], TOPIC) == 1


@pytest.mark.parametrize("spec", ["DCG", "DCG@5", "nDCG", "nDCG@10", "nDCG@1000"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert metric.name == spec and parse(metric.name).name == spec


@given(diversity_cases(max_docs=8), st.sampled_from([None, 1, 3, 5, 10]))
def test_float_matches_exact_and_batch(case, k):
    topic, rankings = case
    for metric in (DCG(k), NDCG(k)):
        assert_evaluations_agree(metric, topic, rankings)


# DCG and nDCG (issue 14): the batched path where the ideal DCG is exactly 1, ideals cut at k, and
# the browsing models' declared parts.

def test_discounts_and_dcg_by_hand():
    assert discounts(3).tolist() == pytest.approx([1.0, 1 / math.log2(3), 0.5], abs=1e-15)
    assert discounts(0).tolist() == []
    # gains 1/2, 0, 1/4, 1 at ranks 1..4 (log2 2, 3, 4, 5): 1/2 + 1/8 + 1/log2(5).
    assert float(dcg([Fraction(1, 2), 0, Fraction(1, 4), Fraction(1)], EXACT)) == pytest.approx(
        0.625 + 1 / math.log2(5), abs=1e-15)
    assert dcg([Fraction(1, 2), 0, Fraction(1, 4)], EXACT) == Fraction(5, 8)


def test_ideal_gains_are_the_positive_values_best_first_cut_at_k():
    values = [Fraction(1, 4), 0, 1, Fraction(1, 2)]
    assert ideal_gains(values, None) == [1, Fraction(1, 2), Fraction(1, 4)]
    assert ideal_gains(values, 2) == [1, Fraction(1, 2)]
    topic = Topic.single({"a": Fraction(1, 4), "n": 0, "b": 1, "c": Fraction(1, 2)})
    batch = RankingBatch.from_rankings([["a"]], topic)
    assert batch_ideal_gains(batch, None).tolist() == [1.0, 0.5, 0.25]
    assert batch_ideal_gains(batch, 2).tolist() == [1.0, 0.5]


def test_ndcg_batch_when_the_ideal_dcg_is_exactly_one():
    # One relevant document, r = 1: the ideal DCG is 1/log2(2) = 1 exactly.
    topic = Topic.single({"a": 1, "n": 0})
    rankings = [["a"], ["n", "a"], ["n"], []]
    # nDCG: 1, 1/log2(3), 0, 0.
    want = [1.0, 1 / math.log2(3), 0.0, 0.0]
    assert NDCG().score_batch(RankingBatch.from_rankings(rankings, topic)).tolist() == pytest.approx(
        want, abs=1e-15)
    assert [NDCG().score(r, topic) for r in rankings] == pytest.approx(want, abs=1e-15)
    # nDCG@1 cuts both the ranking and the ideal: [n, a] scores 0.
    assert NDCG(1).score_batch(RankingBatch.from_rankings(rankings, topic)).tolist() == [1.0, 0.0, 0.0, 0.0]
    # No relevant document: zeros, not 0/0.
    none = RankingBatch.from_rankings([["n"], []], Topic.single({"n": 0}))
    with np.errstate(all="raise"):
        assert NDCG().score_batch(none).tolist() == [0.0, 0.0]


def test_ndcg_at_k_batch_by_hand():
    # r(a) = 1/2, r(b) = 1, r(c) = 1/4. nDCG@2 of [c, b, a]: (1/4 + 1/log2 3) / (1 + (1/2)/log2 3).
    topic = Topic.single({"a": Fraction(1, 2), "b": 1, "c": Fraction(1, 4)})
    want = (0.25 + 1 / math.log2(3)) / (1 + 0.5 / math.log2(3))
    batch = RankingBatch.from_rankings([["c", "b", "a"]], topic)
    assert NDCG(2).score_batch(batch).tolist() == pytest.approx([want], abs=1e-15)
    assert NDCG(2).score(["c", "b", "a"], topic) == pytest.approx(want, abs=1e-15)
    # DCG@2 of the same: 1/4 + 1/log2 3.
    assert DCG(2).score_batch(batch).tolist() == pytest.approx([0.25 + 1 / math.log2(3)], abs=1e-15)


def test_browsing_models_declare_name_depth_and_normaliser():
    model = DCG(3).browsing_model()
    assert model.name == "DCG@3" and model.depth == 3 and model.unit_range is False and model.graded
    assert model.normaliser(EXACT) == 1 and model.seen(4, EXACT) == 0 and model.seen(3, EXACT) == Fraction(1, 2)
    assert DCG().browsing_model().depth is None
    model = NDCG(2).browsing_model()
    assert model.name == "nDCG@2" and model.depth == 2 and model.normaliser == "ideal" and model.unit_range
    assert model.seen(3, EXACT) == 0 and model.seen(1, EXACT) == 1

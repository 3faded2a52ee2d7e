"""DCG@k and nDCG@k (the template metrics): hand-computed values, edge cases,
float vs exact, the batched path, and the spec string."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, strategies as st

from axiometer.core import Topic
from axiometer.metrics import parse
from axiometer.metrics.dcg import DCG, NDCG
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

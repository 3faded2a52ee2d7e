"""Browsing models (NRG paper eq. 1): each base metric's model reproduces the
metric exactly, hand-computed survivals and ideals, and the float arrays."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, strategies as st

from axiometer.metrics.decide import exact_sign
from axiometer.core import Topic
from axiometer.metrics import parse
from axiometer.metrics.arithmetic import EXACT, FLOAT, exact_to_float
from axiometer.metrics.browsing import BrowsingModel, binary_gain, flat, log_discount, order_key
from tests.strategies import diversity_cases

BASES = ["nDCG@3", "nDCG", "DCG@4", "DCG", "RBP(p=0.8)", "RBP(p=0.5)@2", "P@3", "P@1"]


def test_hand_computed_survivals():
    ndcg = parse("nDCG@10").browsing_model()
    # seen(1) = 1/log2(2) = 1; seen(3) = 1/log2(4) = 1/2; seen(11) = 0 past K = 10.
    assert ndcg.seen(1, EXACT) == 1 and ndcg.seen(3, EXACT) == Fraction(1, 2)
    assert ndcg.seen(11, EXACT) == 0 and ndcg.seen(11, FLOAT) == 0.0
    assert ndcg.seen(2, FLOAT) == pytest.approx(1 / math.log2(3), abs=1e-15)
    assert ndcg.depth == 10 and ndcg.normaliser == "ideal" and ndcg.unit_range
    rbp = parse("RBP(p=0.5)").browsing_model()
    # seen(3) = p^2 = 1/4; no cutoff: seen(50) = 2^-49 > 0; 1/N = 1 - p = 1/2.
    assert rbp.seen(3, EXACT) == Fraction(1, 4) and rbp.seen(50, EXACT) == Fraction(1, 2 ** 49)
    assert rbp.depth is None and rbp.normaliser(EXACT) == Fraction(1, 2)
    p5 = parse("P@5").browsing_model()
    # seen = 1 to rank 5, then 0; 1/N = 1/5; binary gain.
    assert [p5.seen(i, EXACT) for i in (1, 5, 6)] == [1, 1, 0]
    assert p5.normaliser(EXACT) == Fraction(1, 5) and not p5.graded
    dcg = parse("DCG@3").browsing_model()
    assert dcg.normaliser(EXACT) == 1 and not dcg.unit_range


def test_hand_computed_scores():
    topic = Topic.single({"a": Fraction(1, 2), "b": 1, "c": 0})
    # nDCG@2 of [c, a]: raw = 0*1 + (1/2)/log2(3); ideal = 1*1 + (1/2)/log2(3).
    model = parse("nDCG@2").browsing_model()
    want = (sympy.Rational(1, 2) / sympy.log(3, 2)) / (1 + sympy.Rational(1, 2) / sympy.log(3, 2))
    assert exact_sign(model.score(["c", "a"], topic, EXACT) - want) == 0
    # P@3 of [a, u, b]: (1 + 0 + 1)/3 = 2/3 (binary gain: r = 1/2 counts as 1).
    assert parse("P@3").browsing_model().score(["a", "u", "b"], topic, EXACT) == Fraction(2, 3)
    # RBP(p=1/2) of [b, c, a]: (1/2)(1 + 0 + 1/4 * 1/2) = 9/16.
    assert parse("RBP(p=0.5)").browsing_model().score(["b", "c", "a"], topic, EXACT) == Fraction(9, 16)


def test_ideal_sorts_decreasing_and_ignores_ties():
    model = BrowsingModel("m", binary_gain, log_discount(2), 2, "ideal")
    # Values 1/log2(3) (~0.63) and 1/2: the ideal puts 1/log2(3) first:
    # 1/log2(3) * 1 + 1/2 * 1/log2(3); the third value, 0.1, is past K = 2.
    values = [Fraction(1, 2), Fraction(1, 10), 1 / sympy.log(3, 2)]
    want = 1 / sympy.log(3, 2) + sympy.Rational(1, 2) / sympy.log(3, 2)
    assert exact_sign(model.ideal(values, EXACT) - want) == 0
    assert model.ideal([Fraction(1, 3), Fraction(1, 3)], EXACT) == model.ideal([Fraction(1, 3)] * 2, EXACT)
    assert model.ideal([], EXACT) == 0
    assert order_key(sympy.log(3, 2)) > order_key(Fraction(158, 100))  # log2(3) = 1.58496...


def test_normaliser_must_be_ideal_or_callable():
    with pytest.raises(ValueError, match="normaliser"):
        BrowsingModel("m", binary_gain, flat(3), 3, "best")


def test_seen_array_matches_seen():
    model = parse("nDCG@4").browsing_model()
    assert list(model.seen_array(6)) == [model.seen(i, FLOAT) for i in range(1, 7)]
    assert model.seen_array(6)[4:].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("spec", BASES)
@given(case=diversity_cases())
def test_model_reproduces_its_metric_exactly(spec, case):
    """Eq. 1 (with eq. 2's ideal) instantiated by browsing_model() is the metric itself."""
    topic, rankings = case
    metric = parse(spec)
    model = metric.browsing_model()
    for ranking in rankings:
        exact, want = model.score(ranking, topic, EXACT), metric.exact(ranking, topic)
        assert exact == want or exact_sign(exact - want) == 0, (spec, ranking)
        assert abs(float(model.score(ranking, topic, FLOAT)) - metric.score(ranking, topic)) <= 1e-12
        assert abs(exact_to_float(EXACT.result(exact)) - metric.score(ranking, topic)) <= 1e-12


@given(st.integers(1, 30), st.sampled_from([0.5, 0.8, 0.99]))
def test_seen_is_a_decreasing_probability(n, p):
    for spec in ("nDCG@10", f"RBP(p={p})", "P@10"):
        seen = parse(spec).browsing_model().seen_array(n)
        assert (seen >= 0).all() and (seen <= 1).all() and (seen[1:] <= seen[:-1]).all()

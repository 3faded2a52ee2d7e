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
from axiometer.metrics.browsing import ORDER_DIGITS, constant_factor, geometric, relevance_gain
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


# Browsing models (issue 14): the survivals at and just past the depth K, the normalisers, the
# ordering of exact values, and the cached float arrays.

TOPIC = Topic.single({"a": Fraction(1, 2), "b": 1, "c": 0})


def test_survivals_reach_rank_k_and_stop_after_it():
    # log discount: 1/log2(i+1); 1/log2(4) = 1/2 at i = 3 = K, 0 at i = 4.
    assert [log_discount(3)(i, EXACT) for i in (1, 3, 4)] == [1, Fraction(1, 2), 0]
    assert log_discount(None)(7, EXACT) == Fraction(1, 3)  # 1/log2(8): no K, no end
    assert log_discount(None)(2, FLOAT) == pytest.approx(1 / math.log2(3), abs=1e-15)
    # geometric: p^(i-1); p = 1/2, K = 3: 1, 1/2, 1/4, then 0.
    seen = geometric(Fraction(1, 2), 3)
    assert [seen(i, EXACT) for i in (1, 2, 3, 4)] == [1, Fraction(1, 2), Fraction(1, 4), 0]
    assert geometric(Fraction(1, 3), None)(4, EXACT) == Fraction(1, 27)
    # flat: 1 to K, then 0; no K: 1 everywhere.
    assert [flat(2)(i, EXACT) for i in (1, 2, 3)] == [1, 1, 0]
    assert flat(None)(1000, EXACT) == 1


def test_gains_and_constant_factors():
    assert relevance_gain("a", TOPIC, EXACT) == Fraction(1, 2) and relevance_gain("u", TOPIC, EXACT) == 0
    assert [binary_gain(d, TOPIC, EXACT) for d in ("a", "b", "c", "u")] == [1, 1, 0, 0]
    assert constant_factor(1)(EXACT) == 1  # N = 1 (DCG)
    assert constant_factor(3)(EXACT) == 3
    assert constant_factor(1, 4)(EXACT) == Fraction(1, 4)  # 1/K (P@4)
    assert parse("DCG@3").browsing_model().factor() == 1.0
    assert parse("RBP(p=0.75)").browsing_model().factor() == 0.25  # 1 - p
    assert parse("P@4").browsing_model().factor() == 0.25


def test_order_key_reads_exact_values_to_fifty_digits():
    assert order_key(0.5) == 0.5 and order_key(Fraction(1, 3)) == Fraction(1, 3) and order_key(2) == 2
    assert order_key(sympy.Rational(1, 3)) == Fraction(1, 3)
    assert order_key(sympy.Integer(7)) == 7
    key = order_key(sympy.log(3, 2))
    # log2(3) = 1.5849625007211561814537389439478165087598144076925 (50 significant digits).
    assert isinstance(key, Fraction)
    assert abs(key - Fraction("1.5849625007211561814537389439478165087598144076925")) < Fraction(1, 10 ** 48)
    assert ORDER_DIGITS == 50


def test_ideal_orders_exact_values_that_sympy_cannot_compare():
    # log2(6) - log2(3) is 1, but sympy cannot decide "1 < log2(6) - log2(3)" symbolically; the
    # ideal sorts by order_key, so the gains 1/2, 1, that value under seen = 1 (K = 3) sum to 5/2.
    one = sympy.log(6) / sympy.log(2) - sympy.log(3) / sympy.log(2)
    model = BrowsingModel("m", relevance_gain, flat(3), 3, "ideal")
    assert exact_sign(model.ideal([Fraction(1, 2), one, 1], EXACT) - Fraction(5, 2)) == 0
    # K = 2 keeps the two largest: 1 and 1.
    model2 = BrowsingModel("m", relevance_gain, flat(2), 2, "ideal")
    assert exact_sign(model2.ideal([Fraction(1, 2), one, 1], EXACT) - 2) == 0


def test_raw_window_and_normalise_by_hand():
    model = BrowsingModel("m", relevance_gain, log_discount(None), None, "ideal")
    # raw of gains [0, 1, 1] from rank 1: 1/log2(3) + 1/log2(4).
    raw = model.raw([0, 1, 1], FLOAT)
    assert raw == pytest.approx(1 / math.log2(3) + 0.5, abs=1e-15)
    assert model.window(["a", "b", "c"]) == ["a", "b", "c"]
    cut = BrowsingModel("m", relevance_gain, log_discount(2), 2, "ideal")
    assert cut.window(["a", "b", "c"]) == ["a", "b"]
    # An ideal of 0 (no relevant judged document) gives 0.
    assert cut.normalise(Fraction(0), lambda: [0, 0], EXACT) == 0
    # A constant normaliser multiplies: RBP(p=3/4) of [b] is (1 - 3/4) * 1 = 1/4.
    rbp = parse("RBP(p=0.75)").browsing_model()
    assert rbp.score(["b"], TOPIC, EXACT) == Fraction(1, 4)
    # nDCG@2 of [a, b]: raw = 1/2 + 1/log2(3); ideal [b, a] = 1 + (1/2)/log2(3) (a topic's judged docs).
    want = (sympy.Rational(1, 2) + 1 / sympy.log(3, 2)) / (1 + sympy.Rational(1, 2) / sympy.log(3, 2))
    assert exact_sign(cut.score(["a", "b"], TOPIC, EXACT) - want) == 0


def test_normaliser_message_names_the_model():
    with pytest.raises(ValueError) as error:
        BrowsingModel("m", binary_gain, flat(3), 3, "best")
    assert str(error.value) == "m: normaliser must be 'ideal' or a callable, got 'best'"
    assert BrowsingModel("m", binary_gain, flat(3), 3, lambda A: A.one).normalise(2, lambda: [], EXACT) == 2


def test_float_arrays_are_computed_once_per_length():
    calls = []

    def seen(i, A):
        calls.append(i)
        return A.one / A.num(i)

    model = BrowsingModel("m", relevance_gain, seen, None, "ideal")
    assert model.seen_array(3).tolist() == [1.0, 0.5, 1 / 3]
    assert model.seen_array(3).tolist() == [1.0, 0.5, 1 / 3]
    assert calls == [1, 2, 3]  # the second call came from the cache
    assert model.seen_array(0).tolist() == []
    gains = model.gain_array(["a", "u", "b"], TOPIC)
    assert gains.dtype == float and gains.tolist() == [0.5, 0.0, 1.0]

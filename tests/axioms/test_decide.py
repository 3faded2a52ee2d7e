"""Deciding ``Q(x)`` versus ``Q(y)`` exactly (definitions §5).

Each test builds inputs whose float scores mislead: equal values that float
rounding makes differ, different values that floats make equal or nearly
equal, and log-based ties (nDCG) that only a symbolic simplification proves.
The expected answers come from exact arithmetic done here by hand.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from axiometer.metrics.decide import DEFAULT_TOLERANCE, SCREEN, compare, evaluate, exact_sign
from axiometer.core import Topic
from axiometer.metrics import MetricError, adapt, parse, wrap
from tests.axioms import uniform

TENTHS = Topic.single({"a": Fraction(1, 10), "b": Fraction(2, 10), "c": Fraction(3, 10)})


def test_a_rounding_difference_between_equal_sums_is_a_tie():
    # 0.1 + 0.2 + 0.3 != 0.3 + 0.2 + 0.1 in float64; both are exactly 3/5.
    metric = uniform()
    x, y = ["a", "b", "c"], ["c", "b", "a"]
    assert metric.score(x, TENTHS) != metric.score(y, TENTHS)  # the trap is real
    comparison = compare(metric, TENTHS, x, y)
    assert comparison.sign == 0 and comparison.exact


def test_a_difference_below_float_resolution_is_found_exactly():
    # r(b) - r(a) = 10^-17: one float, two exact values.
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 10) + Fraction(1, 10 ** 17)})
    metric = uniform()
    assert metric.score(["a"], topic) == metric.score(["b"], topic)
    comparison = compare(metric, topic, ["a"], ["b"])
    assert comparison.sign == 1 and comparison.exact
    assert compare(metric, topic, ["b"], ["a"]).sign == -1


def test_a_difference_smaller_than_1e_12_is_decided_exactly():
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 10) + Fraction(1, 10 ** 13)})
    for metric in (uniform(), parse("RBP(p=0.8)"), parse("nDCG@10")):
        q_a, q_b = metric.score(["a"], topic), metric.score(["b"], topic)
        assert 0 < abs(q_b - q_a) < 1e-12
        comparison = compare(metric, topic, ["a"], ["b"])
        assert comparison.sign == 1 and comparison.exact, metric.name


def test_ndcg_tie_needs_a_symbolic_proof():
    # DCG(x) = 3/10 + (1/10)/log2(3); DCG(y) = 1/10 + (4/10)/log2(4) + (2/10)/log2(9): equal, since
    # log2(9) = 2 log2(3), but their float sums differ in the last bit.
    topic = Topic.single({"p": Fraction(3, 10), "a": Fraction(1, 10), "q": Fraction(1, 10),
                          "r": Fraction(4, 10), "b": Fraction(2, 10)})
    x = ["p", "a"]
    y = ["q", "u1", "r", "u2", "u3", "u4", "u5", "b"]
    metric = parse("nDCG@10")
    assert metric.score(x, topic) != metric.score(y, topic)
    difference = metric.exact(y, topic) - metric.exact(x, topic)
    assert not (isinstance(difference, (int, Fraction)) or sympy.sympify(difference).is_Rational)
    assert exact_sign(difference) == 0
    comparison = compare(metric, topic, x, y)
    assert comparison.sign == 0 and comparison.exact
    # Moving b one place up breaks the tie, in the right direction.
    closer = ["q", "u1", "r", "u2", "u3", "u4", "b"]
    assert compare(metric, topic, x, closer).sign == 1


def test_exact_sign_of_symbolic_values():
    log3 = sympy.log(3, 2)
    assert exact_sign(sympy.log(9, 2) - 2 * log3) == 0
    approximation = sympy.Rational(str(sympy.N(log3, 40)))  # within 1e-39 of log2(3)
    assert exact_sign(log3 - approximation) == (1 if sympy.N(log3, 80) > approximation else -1)
    assert exact_sign(approximation + sympy.Rational(1, 10 ** 30) - log3) == 1
    assert exact_sign(Fraction(-1, 10 ** 30)) == -1 and exact_sign(0) == 0


def float_sum(ranking, topic):
    return sum(float(topic.r(d)) for d in ranking)


def test_float_only_metric_uses_the_tolerance():
    metric = wrap(float_sum)
    comparison = compare(metric, TENTHS, ["a", "b", "c"], ["c", "b", "a"])
    assert comparison.sign == 0 and not comparison.exact
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 10) + Fraction(1, 10 ** 11)})
    assert compare(metric, topic, ["a"], ["b"]).sign == 0  # 1e-11 <= the default 1e-9
    assert compare(metric, topic, ["a"], ["b"], tolerance=1e-13).sign == 1
    assert DEFAULT_TOLERANCE <= SCREEN


def test_a_gap_above_the_screen_is_taken_from_the_floats():
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 10) + Fraction(1, 10 ** 6)})
    comparison = compare(uniform(), topic, ["b"], ["a"])
    assert comparison.sign == -1 and not comparison.exact
    assert compare(wrap(float_sum), topic, ["b"], ["a"]).sign == -1


@pytest.mark.parametrize("value, message", [(float("nan"), "non-finite"), (float("inf"), "non-finite"),
                                            ("high", "not a number")])
def test_evaluate_insists_on_a_finite_number(value, message):
    class Odd:
        name = "odd"

        def score(self, ranking, topic):
            return value
    with pytest.raises(MetricError, match=message):
        evaluate(adapt(Odd()), ["a"], TENTHS)  # the adapter of a metric author's object checks


def test_a_float_only_tolerance_wider_than_the_screen_is_honoured():
    metric = wrap(float_sum)
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 10) + Fraction(1, 10 ** 7)})
    assert compare(metric, topic, ["a"], ["b"]).sign == 1          # 1e-7 > the default 1e-9
    assert compare(metric, topic, ["a"], ["b"], tolerance=1e-6).sign == 0

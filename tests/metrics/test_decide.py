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
from axiometer.core import Context, Topic
from axiometer.metrics import MetricError, adapt, parse, wrap
from axiometer.metrics.decide import ScoreComparison, decide_sign
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


# Deciding ``Q(y)`` versus ``Q(x)`` (`axiometer.metrics.decide`, definitions §5): the screen, the
# exact re-decision, the tolerance of float-only metrics, and contexts passed to relative metrics.
#
# Issue 14 (metrics area, m1): every value below is worked out by hand in the comments; the inputs sit
# on the edges the code branches on (a gap exactly at the screen, negative scores, a context that
# differs between ``x`` and ``y``).

TOPIC = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 4), "c": 0})


class Table:
    """A metric with given float and exact scores per ranking (its first document), no context."""

    name = "table"
    exact_available = True

    def __init__(self, floats, exacts):
        self.floats, self.exacts = floats, exacts
        self.calls = []

    def score(self, ranking, topic):  # two arguments only: no context is passed to it
        return self.floats[ranking[0]]

    def exact(self, ranking, topic, context=None):
        self.calls.append((tuple(ranking), context))
        return self.exacts[ranking[0]]


class Relative:
    """A relative metric: the number of context rankings that put the first document first."""

    name = "relative"
    exact_available = True

    def score(self, ranking, topic, context=None):
        assert context is not None, "a relative metric is scored in its context"
        return float(sum(1 for r in context.rankings if r[0] == ranking[0]))

    def exact(self, ranking, topic, context=None):
        assert context is not None
        return Fraction(sum(1 for r in context.rankings if r[0] == ranking[0]))


# -- evaluate ---------------------------------------------------------------------------

def test_evaluate_passes_a_context_only_when_there_is_one():
    # Table.score takes two arguments: evaluate must not pass context=None to it.
    assert evaluate(Table({"a": 0.25}, {}), ["a"], TOPIC) == 0.25
    # Relative needs its context: two of the three rankings start with "a" -> 2.0.
    context = Context((("a", "b"), ("a",), ("b", "a")))
    assert evaluate(Relative(), ["a"], TOPIC, context) == 2.0


def test_evaluate_hands_the_topic_to_a_metric_scored_in_a_context():
    class TopicAndContext:
        name = "topic_and_context"

        def score(self, ranking, topic, context=None):
            return float(topic.r(ranking[0])) + len(context)

    # r(a) = 1/2 plus 3 rankings in the context: 3.5.
    assert evaluate(TopicAndContext(), ["a"], TOPIC, Context((("a",), ("b",), ("c",)))) == 3.5


@pytest.mark.parametrize("value, expected", [(1, 1.0), (Fraction(3, 4), 0.75), (-0.5, -0.5)])
def test_evaluate_returns_a_float_for_any_real_number(value, expected):
    # A metric author's object is adapted once (resolve or guard does it); its score is then a float.
    got = evaluate(adapt(Table({"a": value}, {})), ["a"], TOPIC)
    assert got == expected and type(got) is float


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_evaluate_refuses_a_non_finite_float(value):
    with pytest.raises(MetricError, match="non-finite"):
        evaluate(adapt(Table({"a": value}, {})), ["a"], TOPIC)


# -- exact_sign -----------------------------------------------------------------------------

@pytest.mark.parametrize("value, sign", [
    (Fraction(1, 3), 1), (Fraction(-1, 3), -1), (Fraction(0), 0), (5, 1), (-5, -1), (0, 0),
    (sympy.Rational(2, 3), 1), (sympy.Rational(1, 3), 1), (sympy.Rational(-2, 3), -1), (sympy.Integer(0), 0),
    (sympy.Integer(-7), -1),
])
def test_exact_sign_of_rationals(value, sign):
    assert exact_sign(value) == sign


def test_exact_sign_of_irrational_values_far_from_zero():
    # log2(3) = 1.58..., so log2(3) - 1 = 0.58... > 0 and 1 - log2(3) < 0.
    log3 = sympy.log(3, 2)
    assert exact_sign(log3 - 1) == 1
    assert exact_sign(1 - log3) == -1
    # 1e-40 above the 45-digit screen: taken from the 60-digit value.
    tiny = sympy.Rational(1, 10 ** 40)
    assert exact_sign(sympy.sqrt(2) - sympy.sqrt(2) + tiny * sympy.sqrt(2)) == 1


def test_exact_sign_below_sixty_digits_is_proved_or_evaluated_further():
    log3 = sympy.log(3, 2)
    # log2(9) - 2 log2(3) = 0 (expand_log proves it).
    assert exact_sign(sympy.log(9, 2) - 2 * log3) == 0
    # sqrt(2)*10^-50: far below 10^-45, not zero; 200 digits give its sign.
    tiny = sympy.sqrt(2) / sympy.Integer(10) ** 50
    assert exact_sign(tiny) == 1 and exact_sign(-tiny) == -1


# -- decide_sign ----------------------------------------------------------------------------

def test_a_gap_exactly_at_the_tolerance_is_a_tie_and_just_above_is_not():
    # Scores near 0: scale = max(1, |qx|, |qy|) = 1, the gap is compared with the tolerance itself.
    assert decide_sign(0.0, 1e-9, None, 1e-9) == (0, False)
    assert decide_sign(0.0, 1.5e-9, None, 1e-9) == (1, False)    # 1.5e-9 > 1e-9 * 1 (not * 2)
    assert decide_sign(1.5e-9, 0.0, None, 1e-9) == (-1, False)
    assert decide_sign(0.5, 0.5, None, 1e-9) == (0, False)


def test_the_tolerance_is_relative_to_the_larger_magnitude_even_for_negative_scores():
    # qx = -1000, qy = -1000 + 1e-7: scale = max(1, 1000, 1000) = 1000, so the gap 1e-7 is below
    # 1e-9 * 1000 = 1e-6: a tie. Taken without abs(), the scale would be 1 and the gap a sign.
    assert decide_sign(-1000.0, -1000.0 + 1e-7, None, 1e-9) == (0, False)
    assert decide_sign(-1000.0 + 1e-7, -1000.0, None, 1e-9) == (0, False)
    assert decide_sign(1000.0, 1000.0 + 1e-7, None, 1e-9) == (0, False)
    # The same gap with qy the large one: scale = max(1, 0, 1000).
    assert decide_sign(0.0, 1000.0, None, 1e-9) == (1, False)
    assert decide_sign(-1e-7, 1e-7, None, 1e-9) == (1, False)   # scale 1: 2e-7 > 1e-9


def test_an_exact_diff_screens_with_screen_not_the_tolerance_and_decides_below_it():
    calls = []

    def diff():
        calls.append(1)
        return Fraction(-1, 10 ** 20)

    # A gap of 1e-7 is above SCREEN (1e-9): the float sign, whatever the (wide) tolerance says.
    assert decide_sign(0.1, 0.1 + 1e-7, diff, 1e-6) == (1, False) and not calls
    # A gap of 1e-12 is below SCREEN: the exact difference decides, even against the floats.
    assert decide_sign(0.1, 0.1 + 1e-12, diff, 1e-30) == (-1, True) and calls == [1]
    assert decide_sign(0.3, 0.3, lambda: Fraction(0), 1e-30) == (0, True)
    assert SCREEN == 1e-9 and DEFAULT_TOLERANCE == 1e-9


def test_the_scale_is_the_larger_of_both_magnitudes():
    # A 50% tolerance: 3 and 1.8 tie, since 1.2 <= 0.5 * max(1, 3, 1.8) = 1.5, whichever is x;
    # scaled by 1.8 alone (0.9) they would not.
    assert decide_sign(3.0, 1.8, None, 0.5) == (0, False)
    assert decide_sign(1.8, 3.0, None, 0.5) == (0, False)
    assert decide_sign(3.0, 1.4, None, 0.5) == (-1, False)      # 1.6 > 1.5


def test_without_an_exact_diff_the_stated_tolerance_decides_wider_or_narrower():
    # Gap 1e-7: a tie within 1e-6, a sign within 1e-8.
    assert decide_sign(0.1, 0.1 + 1e-7, None, 1e-6) == (0, False)
    assert decide_sign(0.1, 0.1 + 1e-7, None, 1e-8) == (1, False)
    assert decide_sign(0.1 + 1e-7, 0.1, None) == (-1, False)   # the default 1e-9


# -- compare ----------------------------------------------------------------------------------

def test_compare_decides_q_of_y_minus_q_of_x_exactly_in_the_right_order():
    # Floats equal (0.3), exact values 3/10 and 3/10 + 10^-20: Q(y) - Q(x) = +10^-20 for x = a.
    metric = Table({"a": 0.3, "b": 0.3}, {"a": Fraction(3, 10), "b": Fraction(3, 10) + Fraction(1, 10 ** 20)})
    assert compare(metric, TOPIC, ["a"], ["b"]) == ScoreComparison(1, 0.3, 0.3, True)
    assert compare(metric, TOPIC, ["b"], ["a"]) == ScoreComparison(-1, 0.3, 0.3, True)
    # A gap above the screen: floats only, no exact evaluation.
    metric = Table({"a": 0.25, "b": 0.5}, {})
    assert compare(metric, TOPIC, ["a"], ["b"]) == ScoreComparison(1, 0.25, 0.5, False)
    assert compare(metric, TOPIC, ["b"], ["a"]) == ScoreComparison(-1, 0.5, 0.25, False)


def test_compare_without_exact_uses_the_tolerance():
    metric = Table({"a": 0.1, "b": 0.1 + 1e-7}, {})
    metric.exact_available = False
    adapted = adapt(metric)  # exact_available False: the adapter offers no exact path
    assert compare(adapted, TOPIC, ["a"], ["b"], tolerance=1e-6) == ScoreComparison(0, 0.1, 0.1 + 1e-7, False)
    assert compare(adapted, TOPIC, ["a"], ["b"], tolerance=1e-8).sign == 1
    assert metric.calls == []


def test_compare_scores_x_and_y_in_their_own_contexts():
    # In cx, "a" leads 2 rankings and "b" 1; in cy, "a" leads 0 and "b" 3.
    cx = Context((("a",), ("a",), ("b",)))
    cy = Context((("b",), ("b",), ("b",)))
    metric = Relative()
    # Same context (the default): Q(b) - Q(a) = 1 - 2 < 0.
    assert compare(metric, TOPIC, ["a"], ["b"], context=cx) == ScoreComparison(-1, 2.0, 1.0, False)
    # y = b in cy: 3; x = a in cx: 2 -> +1.
    assert compare(metric, TOPIC, ["a"], ["b"], context=cx, context_y=cy) == ScoreComparison(1, 2.0, 3.0, False)
    # x = b in cx: 1; y = a in cy: 0 -> -1.
    assert compare(metric, TOPIC, ["b"], ["a"], context=cx, context_y=cy) == ScoreComparison(-1, 1.0, 0.0, False)


def test_compare_hands_each_context_to_the_exact_evaluation():
    class Close(Relative):
        # Floats within the screen of each other, so the exact values decide.
        def score(self, ranking, topic, context=None):
            return 0.5

        def exact(self, ranking, topic, context=None):
            leaders = sum(1 for r in context.rankings if r[0] == ranking[0])
            return Fraction(1, 2) + Fraction(leaders, 10 ** 20)

    cx = Context((("a",), ("a",), ("b",)))
    cy = Context((("b",), ("b",), ("b",)))
    # Exact: Q(b in cy) - Q(a in cx) = (3 - 2) / 10^20 > 0; in one context cx it is (1 - 2) / 10^20.
    assert compare(Close(), TOPIC, ["a"], ["b"], context=cx, context_y=cy) == ScoreComparison(1, 0.5, 0.5, True)
    assert compare(Close(), TOPIC, ["a"], ["b"], context=cx) == ScoreComparison(-1, 0.5, 0.5, True)
    # Q(a in cy) - Q(b in cx) = (0 - 1) / 10^20 < 0.
    assert compare(Close(), TOPIC, ["b"], ["a"], context=cx, context_y=cy) == ScoreComparison(-1, 0.5, 0.5, True)

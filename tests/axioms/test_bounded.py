"""Property Bounded's judge and range text on hand-made values next to the stated bounds (issue 14).

A value within the float screen of a bound is decided exactly when the metric offers ``exact``, else
within the given tolerance; a value at an open bound breaks it, at a closed one holds.
"""

from __future__ import annotations

from fractions import Fraction

from axiometer.axioms.properties.bounded import BOUNDED, range_text
from axiometer.core import Context, Ranking, Topic
from axiometer.generators.case import Case
from axiometer.metrics import Needs, adapt
from axiometer.metrics.relative import StatedBound

TOPIC = Topic.single({"d1": 1, "d2": 0})
A = Ranking(("d1", "d2"))
CASE = Case(TOPIC, A, A, (), "two documents", Context((("d2",),)))   # S = 2
TINY = Fraction(1, 10 ** 30)   # far below the float screen: only the exact value shows it


def bound(low=lambda S: Fraction(0), high=lambda S: Fraction(1), quantity="score", **open_):
    return StatedBound("the toy range", "toy", quantity, low, high, **open_)


class FloatOnly:
    """Scores ``value`` (and rarity ``value`` for each relevant document), without ``exact``."""

    needs = Needs(context=True)
    name = "F"

    def __init__(self, value):
        self.value = value

    def score(self, ranking, topic, context=None):
        return float(self.value)

    def rarities(self, ranking, topic, context, A):
        return {d: self.value for d in ranking if topic.rel(d)}


class Exact(FloatOnly):
    exact_available = True

    def exact(self, ranking, topic, context=None):
        return self.value


def judge(metric, b, tolerance=1e-9):
    return BOUNDED.judge(adapt(metric), b, CASE, tolerance)  # below resolve, metrics have the one shape


def test_a_hair_above_a_closed_maximum_is_decided_exactly():
    outcome = judge(Exact(1 + TINY), bound())
    assert outcome.holds is False
    ce = outcome.counterexample
    assert (ce.score_a, ce.score_b, ce.decided) == (1.0, 1.0, "exact")
    assert ce.relation == "0 <= Q <= 1 (S = 2): the toy range"
    assert ce.note == "two documents; Q = 1 breaks the stated maximum 1"
    assert ce.extra == (("S", "2"), ("claim", "the toy range"), ("side", "high"))
    assert judge(Exact(Fraction(1)), bound()).holds                 # exactly at the closed maximum
    assert judge(Exact(-TINY), bound()).holds is False             # a hair below the minimum


def test_a_float_only_metric_at_a_bound_is_decided_by_the_tolerance():
    assert judge(FloatOnly(Fraction(1)), bound()).holds             # no exact value is asked for
    assert judge(FloatOnly(1 + 1e-7), bound(), 1e-6).holds          # within the tolerance: at the bound
    outcome = judge(FloatOnly(1 + 1e-7), bound(), 1e-9)
    assert outcome.holds is False and outcome.counterexample.decided == "float"


def test_a_value_at_an_open_bound_breaks_it():
    outcome = judge(Exact(Fraction(2)), bound(high=lambda S: Fraction(2), high_open=True))
    assert outcome.holds is False and outcome.counterexample.relation == "0 <= Q < 2 (S = 2): the toy range"
    outcome = judge(Exact(Fraction(0)), bound(low_open=True))
    assert outcome.holds is False and dict(outcome.counterexample.extra)["side"] == "low"


def test_a_rarity_below_its_minimum_names_the_document_and_the_minimum():
    # Only the relevant d1 has a rarity; S = 2 makes the maximum (S-1)/S = 1/2.
    rarity_bound = bound(high=lambda S: Fraction(S - 1, S), quantity="rarity")
    outcome = judge(Exact(Fraction(-1, 4)), rarity_bound)
    ce = outcome.counterexample
    assert outcome.holds is False and ce.score_a == ce.score_b == -0.25
    assert ce.relation == "0 <= R(d1) <= 1/2 (S = 2): the toy range"
    assert ce.note == "two documents; R(d1) = -0.25 breaks the stated minimum 0"
    assert ce.extra == (("S", "2"), ("claim", "the toy range"), ("side", "low"), ("document", "d1"))
    assert judge(Exact(Fraction(1, 2)), rarity_bound).holds


def test_range_text():
    assert range_text(bound(), 3) == "0 <= Q <= 1"
    assert range_text(bound(low=lambda S: Fraction(1, S), high_open=True), 3, "R(x)") == "1/3 <= R(x) < 1"
    assert range_text(bound(low_open=True, high=lambda S: Fraction(S)), 3) == "0 < Q <= 3"
    assert range_text(bound(low=None), 2) == "Q <= 1"
    assert range_text(bound(high=None, low_open=True), 2) == "0 < Q"


def test_bounded_applies_to_metrics_stating_bounds():
    assert BOUNDED.applies(adapt(FloatOnly(0))) == "the metric states no bounds"

    class Stating(FloatOnly):
        def stated_bounds(self):
            return (bound(),)

    class StatingNone(FloatOnly):
        def stated_bounds(self):
            return ()

    assert BOUNDED.applies(adapt(Stating(0))) is None
    assert BOUNDED.applies(adapt(StatingNone(0))) == "the metric states no bounds"

"""Property Finite's judge on hand-made scores: undefined, non-finite, non-float numbers (issue 14)."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest

from axiometer.axioms.properties.finite import FINITE
from axiometer.core import Context, Ranking, Topic
from axiometer.generators.case import Case, Scope, ScopeMark
from axiometer.generators.relative import extreme_small_scope, relative_small_scope
from axiometer.metrics import MetricError, Needs
from axiometer.metrics.base import UndefinedScore

TOPIC = Topic.single({"d1": 1})
A = Ranking(("d1",))
CASE = Case(TOPIC, A, A, (), "one document", Context())
CLAIM = "Q is a finite real number"


class Returns:
    needs = Needs(context=True)
    name = "R"

    def __init__(self, value=None, error=None):
        self.value, self.error = value, error

    def score(self, ranking, topic, context=None):
        if self.error is not None:
            raise self.error
        return self.value


def judge(metric):
    return FINITE.judge(metric, None, CASE, 1e-9)


def test_an_undefined_score_is_an_exact_counterexample():
    outcome = judge(Returns(error=UndefinedScore("S = 1")))
    ce = outcome.counterexample
    assert outcome.holds is False and math.isnan(ce.score_a) and math.isnan(ce.score_b)
    assert (ce.relation, ce.decided, ce.a, ce.b) == (CLAIM, "exact", ("d1",), ("d1",))
    assert ce.note == "one document; undefined here: S = 1"


def test_a_wrapped_non_finite_value_is_a_float_counterexample_and_other_metric_errors_propagate():
    outcome = judge(Returns(error=MetricError("returned a non-finite value: nan")))
    ce = outcome.counterexample
    assert outcome.holds is False and math.isnan(ce.score_a) and math.isnan(ce.score_b)
    assert (ce.relation, ce.decided) == (CLAIM, "float")
    assert ce.note == "one document; returned a non-finite value: nan"
    with pytest.raises(MetricError, match="something else"):
        judge(Returns(error=MetricError("something else")))


def test_an_infinite_value_is_a_float_counterexample():
    outcome = judge(Returns(-math.inf))
    ce = outcome.counterexample
    assert outcome.holds is False and ce.score_a == ce.score_b == -math.inf
    assert (ce.relation, ce.decided, ce.a, ce.b) == (CLAIM, "float", ("d1",), ("d1",))
    assert ce.note == "one document; the metric returned -inf"


def test_other_numbers_are_read_as_floats():
    assert judge(Returns(Decimal("1.5"))).holds and judge(Returns(True)).holds and judge(Returns(2)).holds
    outcome = judge(Returns(Decimal("Infinity")))     # read as float('inf')
    assert outcome.holds is False and outcome.counterexample.note == "one document; the metric returned inf"
    with pytest.raises(ValueError):
        judge(Returns("1.5x"))                        # not a number: the engine reports it as an error


def test_the_declared_small_scope_is_every_small_binary_ranking_then_the_extremes():
    scope = Scope(max_position=2)
    items = list(FINITE.small_scope(scope))          # without grow: finite, ends with its mark
    seen = [(c.note, tuple(c.a), c.context.rankings) for c in items if isinstance(c, Case)]
    binary = [(c.note, tuple(c.a), c.context.rankings) for c in relative_small_scope(scope) if isinstance(c, Case)]
    extremes = [(c.note, tuple(c.a), c.context.rankings) for c in extreme_small_scope(scope)]
    assert seen == binary + extremes and isinstance(items[-1], ScopeMark)

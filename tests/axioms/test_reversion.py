"""Property Rev's judge on hand-made metric pairs whose scores differ by less than the float screen
(decided exactly) or by 1e-7 (float-only: within or beyond the tolerance) (issue 14)."""

from __future__ import annotations

from fractions import Fraction

from axiometer.axioms.properties.reversion import REVERSION
from axiometer.core import Context, Ranking, Topic
from axiometer.generators.case import Case
from axiometer.metrics import Needs, adapt
from axiometer.metrics.relative import Reversion

TOPIC = Topic.single({"d1": 1, "d2": 0})
A = Ranking(("d1", "d2"))
CASE = Case(TOPIC, A, A, (), "a case", Context((("d2",), ("d1",))))
TINY = Fraction(1, 10 ** 30)


class Const:
    """Scores ``value`` without context, or in the empty one; ``value + shift`` in any other."""

    needs = Needs(context=True)

    def __init__(self, name, value, shift=0):
        self.name, self.value, self.shift = name, value, shift

    def _q(self, context):
        return self.value + (self.shift if context is not None and context.rankings else 0)

    def score(self, ranking, topic, context=None):
        return float(self._q(context))


class ExactConst(Const):
    exact_available = True

    def exact(self, ranking, topic, context=None):
        return self._q(context)


def judge(reverted, base, where="any", tolerance=1e-9):
    reverted, base = adapt(reverted), adapt(base)  # below resolve, metrics have the one shape
    return REVERSION.judge(reverted, Reversion("alpha = 0 is the base", "toy paper", reverted, base, where),
                           CASE, tolerance)


def test_a_difference_below_the_float_screen_is_decided_exactly():
    outcome = judge(ExactConst("R", Fraction(1, 3)), ExactConst("B", Fraction(1, 3) + TINY))
    ce = outcome.counterexample
    assert outcome.holds is False and ce.decided == "exact" and ce.score_a == ce.score_b
    assert ce.relation == "R = B (alpha = 0 is the base)"
    assert ce.note == "a is scored by R in the case's context (score a) and by B without context (score b)"
    assert ce.extra == (("claim", "alpha = 0 is the base"), ("source", "toy paper"))
    assert ce.context_a == (("d2",), ("d1",)) and ce.context_b == ()
    assert judge(ExactConst("R", Fraction(1, 3)), ExactConst("B", Fraction(1, 3))).holds


def test_the_empty_context_reversion_scores_in_the_empty_context():
    # The reverted metric differs by TINY in a non-empty context only.
    reverted = ExactConst("R", Fraction(1, 3), shift=TINY)
    assert judge(reverted, ExactConst("B", Fraction(1, 3)), "empty").holds
    assert judge(reverted, ExactConst("B", Fraction(1, 3)), "any").holds is False
    outcome = judge(ExactConst("R", Fraction(1, 3)), ExactConst("B", Fraction(1, 3) + TINY), "empty")
    ce = outcome.counterexample
    assert ce.note == "a is scored by R in the empty context (score a) and by B without context (score b)"
    assert ce.context_a == () and ce.context_b == ()


def test_one_float_only_side_makes_the_decision_float():
    # An exact reverted metric and a float-only base (no exact at all): equal floats are a tie.
    assert judge(ExactConst("R", Fraction(1, 2)), Const("B", Fraction(1, 2))).holds
    assert judge(Const("R", Fraction(1, 2)), ExactConst("B", Fraction(1, 2))).holds
    assert judge(Const("R", 0.5), Const("B", 0.5 + 1e-7), tolerance=1e-6).holds
    outcome = judge(Const("R", 0.5), Const("B", 0.5 + 1e-7))
    assert outcome.holds is False and outcome.counterexample.decided == "float"


def test_rev_applies_to_metrics_declaring_a_reversion():
    assert REVERSION.applies(adapt(Const("R", 0))) == "the metric declares no reversion"

    class Declaring(Const):
        def reversions(self):
            return (Reversion("t", "s", self, Const("B", 0)),)

    class DeclaringNone(Const):
        def reversions(self):
            return ()

    assert REVERSION.applies(adapt(Declaring("R", 0))) is None
    assert REVERSION.applies(adapt(DeclaringNone("R", 0))) == "the metric declares no reversion"

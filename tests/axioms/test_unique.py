"""Property Unique's judge and its independent count, on hand-made cases (issue 14).

The case: a = (d1, d2, d3) with d1, d3 relevant; the other system retrieves (d2, d4, d3): d3 only at
position 3. Within the top 2, d1 is a unique relevant contribution and d3 is past the cutoff: count 1.
With no depth d3 counts as pooled (still 1: d3 is retrieved by the other system), with depth 3 too.
"""

from __future__ import annotations

from fractions import Fraction

from axiometer.axioms.properties.unique import UNIQUE, unique_contributions
from axiometer.core import Context, Ranking, Topic
from axiometer.generators.case import Case
from axiometer.metrics import Needs, adapt

TOPIC = Topic.single({"d1": 1, "d2": 0, "d3": 1, "d4": 0})
A = Ranking(("d1", "d2", "d3"))
CONTEXT = Context((("d2", "d4", "d3"),))
CASE = Case(TOPIC, A, A, (), "a case", CONTEXT)
TINY = Fraction(1, 10 ** 30)


class Counts:
    needs = Needs(context=True)
    name = "U"
    cutoff = 2

    def __init__(self, value):
        self.value = value

    def score(self, ranking, topic, context=None):
        return float(self.value)


class ExactCounts(Counts):
    exact_available = True

    def exact(self, ranking, topic, context=None):
        return self.value


def test_unique_contributions_counts_within_the_depth():
    assert unique_contributions(tuple(A), TOPIC, CONTEXT, 2) == 1
    # depth 3: d3 is in a's top 3 but also in the prior's top 3; depth 1: d1 alone.
    assert unique_contributions(tuple(A), TOPIC, CONTEXT, 3) == 1
    assert unique_contributions(tuple(A), TOPIC, Context((("d2", "d4", "d5"),)), 3) == 2
    assert unique_contributions(tuple(A), TOPIC, Context((("d2", "d4", "d5", "d3"),)), 3) == 2
    assert unique_contributions(tuple(A), TOPIC, Context((("d2", "d4", "d5", "d3"),)), None) == 1


def test_a_score_off_the_count_below_the_float_screen_is_decided_exactly():
    outcome = UNIQUE.judge(adapt(ExactCounts(1 + TINY)), None, CASE, 1e-9)
    ce = outcome.counterexample
    assert outcome.holds is False and (ce.score_a, ce.score_b, ce.decided) == (1.0, 1.0, "exact")
    assert ce.relation == "Q = unique relevant contributions in the top 2 = 1"
    assert ce.note == "a case; score a = the metric, score b = the independent count"
    assert ce.extra == (("count", "1"),)
    assert UNIQUE.judge(adapt(ExactCounts(Fraction(1))), None, CASE, 1e-9).holds


def test_a_float_only_count_is_decided_by_the_tolerance():
    assert UNIQUE.judge(adapt(Counts(1)), None, CASE, 1e-9).holds           # no exact value is asked for
    assert UNIQUE.judge(adapt(Counts(1 + 1e-7)), None, CASE, 1e-6).holds
    outcome = UNIQUE.judge(adapt(Counts(1 + 1e-7)), None, CASE, 1e-9)
    assert outcome.holds is False and outcome.counterexample.decided == "float"

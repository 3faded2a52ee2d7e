"""PriorSens / PriorMono: the case conditions (``prior_move_conditions``) clause by clause on hand-built
cases, and the judges' use of the tolerance (issue 14).

The valid case: a = b = (x,), x relevant at position 1 (within k = 3); the context has an untouched
first prior (o,) and a second prior (x, n1, n2) in which x moves; the documents it passes are
non-relevant. PriorSens (deeper=False) asks for another position within the cutoff, PriorMono
(deeper=True) for a deeper one, or x dropped for a non-relevant document in its place.
"""

from __future__ import annotations

import pytest

from axiometer.axioms.properties.prior_position import (PRIOR_MONOTONICITY, PRIOR_SENSITIVITY,
                                                       prior_move_conditions)
from axiometer.core import Context, Ranking, Topic
from axiometer.generators.case import Case, Scope
from axiometer.metrics import Needs, wrap

TOPIC = Topic.single({"x": 1, "r": 1, "o": 0, "n1": 0, "n2": 0, "n3": 0})
K3 = Scope(max_position=3)


def case(before, after, a=("x",), b=None, changed=(1,)):
    a = Ranking(a)
    return Case(TOPIC, a, a if b is None else Ranking(b), changed, "x moved",
                Context(tuple(before)), Context(tuple(after)))


def both(c, scope=K3):
    """(PriorSens's conditions, PriorMono's conditions)."""
    return (prior_move_conditions(c, scope, deeper=False), prior_move_conditions(c, scope, deeper=True))


def test_moving_down_within_the_cutoff_meets_both():
    c = case([("o",), ("x", "n1", "n2")], [("o",), ("n1", "x", "n2")])
    assert both(c) == (True, True)
    assert PRIOR_SENSITIVITY.satisfies_conditions(c, K3) and PRIOR_MONOTONICITY.satisfies_conditions(c, K3)
    assert both(c, Scope()) == (True, True)          # no cutoff
    # Past two documents, to position 3 = k.
    assert both(case([("x", "n1", "n2")], [("n1", "n2", "x")])) == (True, True)
    # x at position 3 of a, = k.
    assert both(case([("x", "n1")], [("n1", "x")], a=("o", "n1", "x"), changed=(3,))) == (True, True)


def test_moving_up_is_a_sens_case_only():
    assert both(case([("n1", "x", "n2")], [("x", "n1", "n2")])) == (True, False)
    assert both(case([("n1", "n2", "x")], [("x", "n1", "n2")])) == (True, False)


def test_moving_past_the_cutoff_is_a_mono_case_only():
    # k = 2: x from position 1 to 3 leaves the cutoff: PriorMono only. Without a cutoff both.
    c = case([("x", "n1", "n2")], [("n1", "n2", "x")])
    assert both(c, Scope(max_position=2)) == (False, True)
    assert both(c, Scope()) == (True, True)


def test_dropping_x_for_a_non_relevant_document_is_a_mono_case_only():
    assert both(case([("o",), ("x", "n1")], [("o",), ("n2", "n1")])) == (False, True)
    assert both(case([("n1", "x")], [("n1", "n2")])) == (False, True)
    # Dropped for a relevant document, or the prior also changed elsewhere, or shortened: not a case.
    assert both(case([("x", "n1")], [("r", "n1")])) == (False, False)
    assert both(case([("x", "n1")], [("n2", "n3")])) == (False, False)
    assert both(case([("n1", "x")], [("n3", "n2")])) == (False, False)
    assert both(case([("x", "n1")], [("n2",)])) == (False, False)
    assert both(case([("x", "n1")], [("n2", "n1", "n3")])) == (False, False)


@pytest.mark.parametrize("before, after, a, b, changed, scope", [
    # b is not a
    ([("x", "n1")], [("n1", "x")], ("x",), ("x", "o"), (1,), K3),
    # x past the cutoff of a (k = 1, x at position 2)
    ([("x", "n1")], [("n1", "x")], ("o", "x"), None, (2,), Scope(max_position=1)),
    # the document at the changed position is not relevant
    ([("o", "n1")], [("n1", "o")], ("o",), None, (1,), K3),
    # a prior added
    ([("x", "n1")], [("n1", "x"), ("o",)], ("x",), None, (1,), K3),
    # no prior changed
    ([("x", "n1")], [("x", "n1")], ("x",), None, (1,), K3),
    # two priors changed
    ([("x", "n1"), ("x", "n2")], [("n1", "x"), ("n2", "x")], ("x",), None, (1,), K3),
    # the changed prior does not hold x
    ([("n1", "n2")], [("n2", "n1")], ("x",), None, (1,), K3),
    # x past the cutoff in the prior (k = 2, position 3)
    ([("n1", "n2", "x")], [("n1", "x", "n2")], ("x",), None, (1,), Scope(max_position=2)),
    # the documents x passes are reordered
    ([("x", "n1", "n2")], [("n2", "n1", "x")], ("x",), None, (1,), K3),
    # a relevant document is passed
    ([("x", "r", "n1")], [("r", "x", "n1")], ("x",), None, (1,), K3),
    # a document outside the move changed too (before: position 3 -> after)
    ([("x", "n1", "n2")], [("n1", "x", "n3")], ("x",), None, (1,), K3),
    ([("n3", "x", "n1")], [("n2", "n1", "x")], ("x",), None, (1,), K3),
])
def test_each_broken_condition_fails_both(before, after, a, b, changed, scope):
    assert both(case(before, after, a, b, changed), scope) == (False, False)


def test_the_moved_prior_is_found_by_its_index():
    # The first prior is the same in both contexts; x moves in the third.
    c = case([("o",), ("n3",), ("n1", "x")], [("o",), ("n3",), ("x", "n1")])
    assert both(c) == (True, False)


def float_metric(gap):
    """A float-only metric (no exact): 1 for the first context, 1 + gap once x is past position 1."""
    def q(ranking, topic, context):
        moved = any(prior and prior[0] != "x" for prior in context.rankings)
        return 1.0 + (gap if moved else 0.0)
    return wrap(q, needs=Needs(context=True))


def test_the_judges_decide_a_float_only_metric_within_the_given_tolerance():
    c = case([("x", "n1")], [("n1", "x")])
    # A gap of 1e-7 is a tie within 1e-6 (no change: no witness; not lower: PriorMono holds), a change
    # within 1e-9; a fall of 1e-7 breaks PriorMono within 1e-9 only.
    assert not PRIOR_SENSITIVITY.judge(float_metric(1e-7), None, c, 1e-6).holds
    assert PRIOR_SENSITIVITY.judge(float_metric(1e-7), None, c, 1e-9).holds
    assert PRIOR_MONOTONICITY.judge(float_metric(-1e-7), None, c, 1e-6).holds
    outcome = PRIOR_MONOTONICITY.judge(float_metric(-1e-7), None, c, 1e-9)
    assert not outcome.holds and outcome.counterexample.decided == "float"

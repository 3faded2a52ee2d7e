"""Conf's condition predicate (confidence.py): b must be a with one judged non-relevant document appended."""

from __future__ import annotations

from fractions import Fraction

from axiometer.axioms.constraints.confidence import confidence_conditions
from axiometer.core import Topic
from axiometer.generators.case import Case, Scope

TOPIC = Topic.single({"r1": Fraction(1, 10), "n1": 0, "n2": 0})


def test_b_must_extend_a():
    assert confidence_conditions(Case(TOPIC, ("r1",), ("r1", "n2"), (2,), ""), Scope())
    # Same lengths as an append and the right changed position, but b does not start with a.
    assert not confidence_conditions(Case(TOPIC, ("r1",), ("n1", "n2"), (2,), ""), Scope())

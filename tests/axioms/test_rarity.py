"""Rarity's case conditions (``rarity_conditions``), clause by clause, on hand-built cases (issue 14).

The valid case: a = (z, x), b = (z, y), position 2 changed; x and y both relevant with r = 1; one other
system retrieves x (within k = 3) and not y, so y is retrieved by fewer systems (0 < 1). Each test below
breaks exactly one condition of the module docstring and expects False.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.axioms.properties.rarity import RARITY, rarity_conditions
from axiometer.core import Context, Ranking, Topic
from axiometer.generators.case import Case, Scope

TOPIC = Topic.single({"x": 1, "y": 1, "w": 1, "z": 0, "h": Fraction(1, 2), "n1": 0, "n2": 0, "n3": 0})
K3 = Scope(max_position=3)


def case(a, b, changed=(2,), context=(("x",),), context_b=None, topic=TOPIC):
    # b stays a plain tuple when it repeats a document (a Ranking would refuse it): the clause
    # "y not in a" is then the only one that fails.
    b = Ranking(b) if len(set(b)) == len(b) else tuple(b)
    return Case(topic, Ranking(a), b, changed, "x replaced by y",
                Context(tuple(context)), None if context_b is None else Context(tuple(context_b)))


def test_the_valid_case_meets_the_conditions():
    assert rarity_conditions(case(("z", "x"), ("z", "y")), K3)
    assert RARITY.satisfies_conditions(case(("z", "x"), ("z", "y")), K3)
    # No cutoff: any position; the changed position exactly at the cutoff still counts.
    assert rarity_conditions(case(("z", "x"), ("z", "y")), Scope())
    assert rarity_conditions(case(("z", "x"), ("z", "y")), Scope(max_position=2))
    # x retrieved by two systems, y by one: still strictly fewer.
    assert rarity_conditions(case(("z", "x"), ("z", "y"), context=(("x",), ("x", "y"))), K3)
    # A longer ranking, changed at position 1, the rest equal.
    assert rarity_conditions(case(("x", "z", "w"), ("y", "z", "w"), changed=(1,)), K3)


@pytest.mark.parametrize("a, b, changed, context, context_b, scope", [
    # b differs from a elsewhere too (position 1)
    (("z", "x"), ("w", "y"), (2,), (("x",),), None, K3),
    # b longer than a
    (("z", "x"), ("z", "y", "n1"), (2,), (("x",),), None, K3),
    # y already in a
    (("y", "x"), ("y", "y"), (2,), (("x",),), None, K3),
    # the changed position past the cutoff
    (("z", "x"), ("z", "y"), (2,), (("x",),), None, Scope(max_position=1)),
    # the replaced document z is not relevant (r(z) = 0 = r(n1), n1 rarer)
    (("x", "z"), ("x", "n1"), (2,), (("z",),), None, K3),
    # r(y) != r(x): h has r = 1/2
    (("z", "x"), ("z", "h"), (2,), (("x",),), None, K3),
    # b scored in a context of its own
    (("z", "x"), ("z", "y"), (2,), (("x",),), (("y",),), K3),
    # y retrieved by as many systems as x
    (("z", "x"), ("z", "y"), (2,), (("x", "y"),), None, K3),
    # y retrieved by more systems
    (("z", "x"), ("z", "y"), (2,), (("y",), ("x", "y")), None, K3),
])
def test_each_broken_condition_fails(a, b, changed, context, context_b, scope):
    assert not rarity_conditions(case(a, b, changed, context, context_b), scope)


def test_other_systems_count_within_the_cutoff_only():
    # The other system has x at position 4, past k = 3: x is retrieved by 0 systems within the cutoff,
    # as is y, so y is not rarer. Without a cutoff x counts (1 system) and y is rarer.
    deep = (("n1", "n2", "n3", "x"),)
    assert not rarity_conditions(case(("z", "x"), ("z", "y"), context=deep), K3)
    assert rarity_conditions(case(("z", "x"), ("z", "y"), context=deep), Scope())
    # y past the cutoff of the only system retrieving both: y counts 0 within k = 3, x counts 1.
    assert rarity_conditions(case(("z", "x"), ("z", "y"), context=(("x", "n1", "n2", "y"),)), K3)

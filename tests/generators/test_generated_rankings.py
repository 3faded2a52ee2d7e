"""Every case the generators build is a valid input: the fast construction paths (``Topic.trusted``,
``Ranking.trusted``) skip the checks of ``Topic(...)`` and ``Ranking(...)``, so these tests redo them
on the cases themselves (issue 15)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from axiometer.axioms import CONSTRAINTS
from axiometer.core import DuplicateDocumentError, Ranking, Topic, _largest
from axiometer.generators.case import Scope
from axiometer.generators.draw import CaseStrategy

SCOPES = [Scope(), Scope(max_position=3), Scope(rmax=Fraction(1, 2)), Scope(values_within_rho=True),
          Scope(between_untouched=True, later_untouched=True)]


def _validated(topic: Topic) -> Topic:
    """The same topic through the checking constructor (raises on any invalid value)."""
    judgments = {d: dict(zip(topic.aspects, topic.vector(d))) for d in topic.documents}
    return Topic(judgments, dict(zip(topic.aspects, topic.weights)), topic.topic_id)


def _assert_valid(case) -> None:
    for ranking in (case.a, case.b):
        assert type(ranking) is Ranking and Ranking(ranking) == ranking  # distinct strings
    validated = _validated(case.topic)
    assert validated == case.topic
    assert validated.R == case.topic.R
    assert all(validated.r(d) == case.topic.r(d) for d in case.topic.documents)


@pytest.mark.parametrize("constraint", [c for c in CONSTRAINTS if isinstance(c.strategy, CaseStrategy)],
                         ids=lambda c: c.id)
def test_every_randomly_drawn_case_is_valid(constraint):
    drawn = 0
    for s, scope in enumerate(SCOPES):
        if constraint.id == "Sat" and scope.rmax is None:
            scope = scope.with_(rmax=Fraction(1, 2))
        rng = random.Random(s)
        for _ in range(150):
            case, _ = constraint.strategy.sample(rng, scope)
            if case is not None:
                _assert_valid(case)
                drawn += 1
    assert drawn >= 300


@pytest.mark.parametrize("constraint", [c for c in CONSTRAINTS if c.small_scope is not None], ids=lambda c: c.id)
def test_every_small_scope_case_is_valid(constraint):
    scope = Scope(rmax=Fraction(1, 2)) if constraint.id == "Sat" else Scope()
    cases = [item for item in constraint.small_scope(scope) if hasattr(item, "topic")][:400]
    assert cases
    for case in cases:
        _assert_valid(case)


def test_the_checking_constructor_still_rejects_what_trusted_skips():
    with pytest.raises(DuplicateDocumentError):
        Ranking(("d1", "d2", "d1"))
    assert Ranking.trusted(("d1", "d2")) == Ranking(("d1", "d2"))
    assert type(Ranking.trusted(["d1"])) is Ranking


@pytest.mark.parametrize("vector, largest", [
    ((Fraction(0), Fraction(1, 2), Fraction(1, 3)), Fraction(1, 2)),
    ((Fraction(1, 3), 0, Fraction(1, 2)), Fraction(1, 2)),
    ((0, 0, 0), 0),
    ((Fraction(1, 10),), Fraction(1, 10)),
    ((Fraction(1, 5), Fraction(1, 5), 0), Fraction(1, 5)),
    ((0, Fraction(1, 100), Fraction(1, 10), Fraction(1, 20)), Fraction(1, 10)),
])
def test_largest_is_max_for_values_at_least_zero(vector, largest):
    assert _largest(vector) == max(vector) == largest

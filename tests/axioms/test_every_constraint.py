"""What every case-built constraint must do, checked once for all of them:
each case its generator builds (random or small-scope), in every scope,
satisfies the constraint's conditions and stays inside the window.

Constraint-specific behaviour (hand-built metrics that satisfy and violate,
the paper's verdicts) is tested in each constraint's own test module.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.axioms import CONSTRAINTS
from axiometer.axioms.constraints.saturation import RMAX_CANDIDATES
from axiometer.generators.case import Scope, cases_of

CASE_BUILT = [c for c in CONSTRAINTS if c.strategy is not None]
RHOS = (Fraction(1, 10), Fraction(1, 50), Fraction(1, 100))


def test_every_case_built_constraint_is_covered():
    assert {c.id for c in CASE_BUILT} == {"Pri", "Deep", "Conf", "AspDiv", "Red", "MRed", "Sat", "AspRel"}
    assert all(c.small_scope is not None and c.satisfies_conditions is not None for c in CASE_BUILT)


@st.composite
def scopes(draw: st.DrawFn, saturation: bool) -> Scope:
    """Any scope: window, rho, Sat's rmax, length, and every nearby reading's switch."""
    return Scope(max_position=draw(st.one_of(st.none(), st.integers(1, 10))),
                 rho=draw(st.sampled_from(RHOS)),
                 rmax=draw(st.sampled_from(RMAX_CANDIDATES)) if saturation else None,
                 max_docs=draw(st.integers(1, 9)),
                 later_untouched=draw(st.booleans()),
                 between_untouched=draw(st.booleans()),
                 values_within_rho=draw(st.booleans()))


@pytest.mark.parametrize("constraint", CASE_BUILT, ids=lambda c: c.id)
@given(data=st.data())
def test_generated_cases_meet_the_conditions(constraint, data):
    scope = data.draw(scopes(constraint.form == "saturation"))
    case = data.draw(constraint.strategy(scope))
    assert constraint.satisfies_conditions(case, scope), (scope, case)


SMALL_SCOPES = [Scope(), Scope(max_position=2), Scope(max_position=4), Scope(rho=Fraction(1, 100)),
                Scope(later_untouched=True), Scope(between_untouched=True), Scope(values_within_rho=True)]


@pytest.mark.parametrize("scope", SMALL_SCOPES, ids=repr)
@pytest.mark.parametrize("constraint", CASE_BUILT, ids=lambda c: c.id)
def test_small_scope_cases_meet_the_conditions(constraint, scope):
    rmaxes = RMAX_CANDIDATES if constraint.form == "saturation" else (None,)
    for rmax in rmaxes:
        scoped = scope.with_(rmax=rmax)
        cases = list(cases_of(constraint.small_scope(scoped)))
        assert all(constraint.satisfies_conditions(case, scoped) for case in cases)
        if scope.max_position is None or scope.max_position >= 4:
            assert cases, f"{constraint.id}: no small-scope case in {scoped}"

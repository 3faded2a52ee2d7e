"""The relative generators: every generated and small-scope case meets its property's conditions,
restated here from the case alone (not from the generators' code), and shrinks to a readable case."""

from __future__ import annotations

import pytest
from hypothesis import find, given, settings, strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable

from axiometer.axioms.properties.prior_position import PRIOR_MONOTONICITY, PRIOR_SENSITIVITY
from axiometer.axioms.properties.rarity import RARITY
from axiometer.generators.case import Case, Scope, cases_of
from axiometer.generators.relative import (
    MAX_PRIORS, extreme_small_scope, prior_move_cases, prior_move_small_scope, rarity_cases,
    rarity_small_scope, relative_cases, relative_small_scope)


def scopes(min_window: int = 1) -> st.SearchStrategy[Scope]:
    return st.builds(Scope, max_position=st.one_of(st.none(), st.integers(min_window, 12)),
                     max_docs=st.integers(1, 10))


def within(doc: str, ranking, k: int | None) -> bool:
    return doc in (ranking if k is None else ranking[:k])


def holders(doc: str, context, k: int | None) -> int:
    return sum(within(doc, r, k) for r in context.rankings)


def common(case: Case) -> None:
    """Ids ``d1..dN`` by first appearance (``a`` first, in order); the topic judges exactly those."""
    rankings = [case.a, case.b, *case.context.rankings, *(case.context_b.rankings if case.context_b else ())]
    order: list[str] = []
    for ranking in rankings:
        for d in ranking:
            if d not in order:
                order.append(d)
    assert order == [f"d{i}" for i in range(1, len(order) + 1)]
    assert set(case.topic.documents) == set(order)
    assert case.topic.aspects == ("*",)
    assert len(case.context) <= MAX_PRIORS
    assert all(0 <= case.topic.r(d) <= 1 for d in order)


def assert_rarity(case: Case, scope: Scope) -> None:
    common(case)
    k = scope.max_position
    (i,) = case.changed
    x, y = case.a[i - 1], case.b[i - 1]
    assert k is None or i <= k
    assert len(case.a) == len(case.b) and [d for d in case.a if d != x] == [d for d in case.b if d != y]
    assert y not in case.a and case.topic.rel(x) and case.topic.r(x) == case.topic.r(y)
    assert case.context_b is None
    assert holders(y, case.context, k) < holders(x, case.context, k)
    assert RARITY.satisfies_conditions(case, scope)


def assert_prior_move(case: Case, scope: Scope, deeper: bool) -> None:
    common(case)
    k = scope.max_position
    (i,) = case.changed
    x = case.a[i - 1]
    assert tuple(case.a) == tuple(case.b) and (k is None or i <= k) and case.topic.rel(x)
    changed = [(u, v) for u, v in zip(case.context.rankings, case.context_b.rankings) if u != v]
    assert len(case.context) == len(case.context_b) and len(changed) == 1
    u, v = changed[0]
    p = u.index(x) + 1
    assert k is None or p <= k
    if x in v:
        q = v.index(x) + 1
        assert q > p if deeper else (q != p and (k is None or q <= k))
        # Only x and the non-relevant documents it passes move.
        lo, hi = min(p, q), max(p, q)
        assert u[:lo - 1] == v[:lo - 1] and u[hi:] == v[hi:]
        assert all(not case.topic.rel(d) for d in u[lo - 1:hi] if d != x)
    else:
        assert deeper
        assert len(u) == len(v) and not case.topic.rel(v[p - 1]) and v[p - 1] not in u
        assert [d for d in u if d != x] == [d for d in v if d != v[p - 1]]
    prop = PRIOR_MONOTONICITY if deeper else PRIOR_SENSITIVITY
    assert prop.satisfies_conditions(case, scope)


@settings(max_examples=40)
@given(scope=scopes(), data=st.data())
def test_rarity_cases_meet_the_conditions(scope, data):
    assert_rarity(data.draw(rarity_cases(scope)), scope)


@settings(max_examples=40)
@given(scope=scopes(), data=st.data(), deeper=st.booleans())
def test_prior_move_cases_meet_the_conditions(scope, data, deeper):
    if not deeper and (scope.max_position or scope.max_docs) < 2:
        return  # no second position within the window (see the next test)
    assert_prior_move(data.draw(prior_move_cases(scope, deeper)), scope, deeper)


def test_prior_sens_has_no_case_in_a_window_of_one():
    with pytest.raises((NoSuchExample, Unsatisfiable)):
        find(prior_move_cases(Scope(max_position=1), deeper=False), lambda case: True)
    assert find(prior_move_cases(Scope(max_position=1), deeper=True), lambda case: True).a == ("d1",)


@settings(max_examples=40)
@given(scope=scopes(), data=st.data())
def test_relative_cases_are_any_ranking_in_any_context(scope, data):
    case = data.draw(relative_cases(scope))
    common(case)
    assert case.a == case.b and case.context_b is None and case.changed == ()
    longest = max(scope.max_docs, (scope.max_position or 0) + 2)
    assert len(case.a) <= min(16, longest)


@pytest.mark.parametrize("k", [None, 1, 2, 3, 10])
def test_small_scopes_meet_the_conditions(k):
    scope = Scope(max_position=k)
    rarity = list(cases_of(rarity_small_scope(scope)))
    assert rarity and rarity[0].a == ("d1",) and rarity[0].b == ("d2",)
    for case in rarity:
        assert_rarity(case, scope)
    for deeper in (False, True):
        cases = list(cases_of(prior_move_small_scope(scope, deeper)))
        assert bool(cases) == (deeper or k != 1)
        for case in cases:
            assert_prior_move(case, scope, deeper)
    for case in cases_of(relative_small_scope(scope)):
        common(case)


def test_the_small_scopes_cover_the_awkward_contexts():
    contexts = {case.context.rankings for case in cases_of(relative_small_scope(Scope(max_position=3)))
                if case.a == ("d1", "d2")}
    assert () in contexts                                  # the empty context
    assert ((),) in contexts                               # an empty prior ranking
    assert (("d1", "d2"),) in contexts                     # the evaluated ranking itself
    assert (("d3",),) in contexts                          # a document only another system retrieves


def test_extreme_scope_fills_the_window_with_documents_nobody_else_retrieves():
    k = 4
    cases = list(extreme_small_scope(Scope(max_position=k)))
    for systems in range(1, MAX_PRIORS + 2):
        matching = [c for c in cases if len(c.context) == systems - 1 and len(c.a) == k
                    and all(c.topic.rel(d) for d in c.a) and all(holders(d, c.context, k) == 0 for d in c.a)]
        assert matching, systems
        everybody = [c for c in cases if len(c.context) == systems - 1 and len(c.a) == k
                     and all(holders(d, c.context, k) == systems - 1 for d in c.a)]
        assert everybody
    for case in cases:
        common(case)


def test_shrinking_reaches_the_smallest_readable_cases():
    scope = Scope(max_position=10)
    rarity = find(rarity_cases(scope), lambda case: True)
    assert (rarity.a, rarity.b, rarity.context.rankings) == (("d1",), ("d2",), (("d1",),))
    sens = find(prior_move_cases(scope, deeper=False), lambda case: True)
    assert sens.a == ("d1",) and sens.context.rankings == (("d1", "d2"),)
    assert sens.context_b.rankings == (("d2", "d1"),)
    mono = find(prior_move_cases(scope, deeper=True), lambda case: True)
    assert mono.a == ("d1",) and mono.context.rankings == (("d1", "d2"),)
    assert mono.context_b.rankings == (("d2", "d1"),)
    anything = find(relative_cases(scope), lambda case: True)
    assert anything.a == () and anything.context.rankings == ()

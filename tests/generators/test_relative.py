"""The relative generators: every generated and small-scope case meets its property's conditions,
restated here from the case alone (not from the generators' code), and shrinks to a readable case."""

from __future__ import annotations
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings, strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable

from axiometer.axioms.properties.prior_position import PRIOR_MONOTONICITY, PRIOR_SENSITIVITY
from axiometer.axioms.properties.rarity import RARITY
from axiometer.generators.case import Case, Scope, ScopeMark, cases_of
from axiometer.generators.relative import (
    MAX_PRIORS, extreme_small_scope, prior_move_cases, prior_move_small_scope, rarity_cases,
    rarity_small_scope, relative_cases, relative_small_scope)
from axiometer.generators.relative import _rarity_case, longest_ranking


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


# The relative small scopes and cases, pinned: what each small scope enumerates (counts computed by
# hand from its docstring), the exact priors the Rarity and prior-move constructions build, the contexts
# and notes. Issue 14: the mutation run of ``axiometer.generators.relative`` found these unpinned.

FIND = settings(max_examples=1000, database=None, deadline=None, derandomize=True,
                phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck))


def layers(items) -> list[tuple[int, tuple[int, int]]]:
    """``[(case count, (mark docs, declared docs)), ...]`` per layer."""
    out, count = [], 0
    for item in items:
        if isinstance(item, ScopeMark):
            out.append((count, (item.docs, item.declared_docs)))
            count = 0
        else:
            count += 1
    assert count == 0
    return out


# -- any ranking in any context -------------------------------------------------------------------

def test_longest_ranking_passes_the_window_by_two_up_to_sixteen():
    assert longest_ranking(Scope(max_position=3)) == 8       # max_docs 8 is longer than k + 2 = 5
    assert longest_ranking(Scope(max_position=10)) == 12
    assert longest_ranking(Scope(max_position=20)) == 16
    assert longest_ranking(Scope(max_docs=1)) == 2           # no window: at least 0 + 2


def test_relative_search_reaches_rankings_two_past_the_window():
    found = find(relative_cases(Scope(max_position=7, max_docs=2)), lambda c: len(c.a) == 9, settings=FIND)
    assert len(found.a) == 9
    assert found.note == "a generated context"


def test_relative_small_scope_counts_and_contexts():
    # Binary rankings of n = 0..3 documents (2^n), in 6 contexts, 7 from n = 1, 9 from n = 2.
    assert layers(relative_small_scope(Scope())) == [(6, (0, 3)), (14, (1, 3)), (36, (2, 3)), (72, (3, 3))]
    cases = list(cases_of(relative_small_scope(Scope())))
    assert {c.topic.r(d) for c in cases for d in c.a} == {0, 1}
    # a = (d1, d2); d3 is the document only another system retrieves.
    two = {c.note: c.context.rankings for c in cases if len(c.a) == 2 and c.topic.rel("d1")
           and c.topic.rel("d2")}
    assert two == {
        "context: the empty context": (),
        "context: a context of one empty ranking": ((),),
        "context: the evaluated ranking itself as the context": (("d1", "d2"),),
        "context: one other system retrieving only a document a lacks": (("d3",),),
        "context: the evaluated ranking twice": (("d1", "d2"), ("d1", "d2")),
        "context: three systems: a, another's document, an empty ranking": (("d1", "d2"), ("d3",), ()),
        "context: the first document retrieved by another system": (("d1",),),
        "context: the evaluated ranking reversed": (("d2", "d1"),),
        "context: systems retrieving the first and the last document": (("d1",), ("d2",)),
    }
    one = {c.note for c in cases if len(c.a) == 1}
    assert "context: the first document retrieved by another system" in one
    assert "context: the evaluated ranking reversed" not in one
    three = {c.note: c.context.rankings for c in cases if c.a == ("d1", "d2", "d3")}
    assert three["context: the evaluated ranking reversed"] == (("d3", "d2", "d1"),)
    assert three["context: systems retrieving the first and the last document"] == (("d1",), ("d3",))


def test_extreme_small_scope_lists_every_extreme_once():
    k = 2
    cases = list(extreme_small_scope(Scope(max_position=k)))
    expected = []
    for systems in (2, 3, 4, 1):
        for length, value in ((2, 1), (3, 1), (2, 0)):
            head = f"{length} documents with r = {value}, S = {systems}"
            if systems == 1:
                expected.append(f"{length} documents with r = {value}, S = 1 (no other system)")
                continue
            expected += [f"{head}, retrieved by no other system (the others retrieve one non-relevant document)",
                         f"{head}, the others retrieve nothing",
                         f"{head}, every other system retrieves the same ranking"]
    assert [c.note for c in cases] == expected
    for case in cases:
        length, value = int(case.note[0]), Fraction(case.note.split("r = ")[1].split(",")[0].split(" ")[0])
        assert len(case.a) == length and all(case.topic.r(d) == value for d in case.a)
        assert len(case.context) == int(case.note.split("S = ")[1][0]) - 1
        if "no other system (the others" in case.note:
            assert all(len(r) == 1 and r[0] not in case.a and case.topic.r(r[0]) == 0
                       for r in case.context.rankings)
            assert len({r[0] for r in case.context.rankings}) == len(case.context)
        if "same ranking" in case.note:
            assert all(r == case.a for r in case.context.rankings)
    assert len(cases) == 3 * 3 * MAX_PRIORS + 3


# -- Rarity ---------------------------------------------------------------------------------------

def test_rarity_small_scope_counts():
    # Per position i and rest: M = 1 (x by it, with or without a's other documents): 2; M = 2:
    # cx = 1: 2; cx = 2, cy = 0: 2; cx = 2, cy = 1: y by the first or the second prior, x or y
    # first in it, with or without the rest: 8. 14 per (i, rest); layer n: n 2^(n-1) 14.
    assert layers(rarity_small_scope(Scope())) == [(14, (1, 3)), (56, (2, 3)), (168, (3, 3))]
    # k = 1: i = 1 only, and no prior holds both x and y: 2 + 2 + 2 per rest.
    assert layers(rarity_small_scope(Scope(max_position=1))) == [(6, (1, 3)), (12, (2, 3)), (24, (3, 3))]
    assert {c.topic.r(d) for c in cases_of(rarity_small_scope(Scope())) for d in c.a} == {0, 1}


@pytest.mark.parametrize(("n", "k"), [(2, None), (3, None), (3, 2)])
def test_rarity_small_scope_builds_these_priors(n, k):
    """a = x and n - 1 non-relevant documents o, x at any position i <= n: the priors as roles,
    hand-built from the docstring: x and y at positions 1 or 2 (either first: x then y, or y then
    x), with or without a's other documents after them, in their order."""
    o = "o" * (n - 1)
    expected = {
        ("x",), (f"x{o}",),                                        # M = 1
        ("x", ""), (f"x{o}", o),                                   # M = 2, cx = 1
        ("x", "x"), (f"x{o}", f"x{o}"),                            # cx = 2, cy = 0
        ("xy", "x"), (f"xy{o}", f"x{o}"), ("yx", "x"), (f"yx{o}", f"x{o}"),   # y in the first prior
        ("x", "xy"), (f"x{o}", f"xy{o}"), ("x", "yx"), (f"x{o}", f"yx{o}"),   # y in the second prior
    }
    for i in range(1, (n if k is None else min(n, k)) + 1):   # x within the cutoff
        shapes = set()
        for case in cases_of(rarity_small_scope(Scope(max_position=k), max_docs=n)):
            if len(case.a) == n and case.changed == (i,) and not any(
                    case.topic.rel(d) for m, d in enumerate(case.a, 1) if m != i):
                role = {d: "o" for d in case.a} | {case.a[i - 1]: "x", case.b[i - 1]: "y"}
                shapes.add(tuple("".join(role[d] for d in r) for r in case.context.rankings))
                others = [d for d in case.a if d != case.a[i - 1]]
                assert all([d for d in r if d in others] in ([], others) for r in case.context.rankings)
        assert shapes == expected, i


def test_rarity_note_counts_the_holders_within_the_cutoff():
    for case in cases_of(rarity_small_scope(Scope(max_position=2))):
        (i,) = case.changed
        x, y = case.a[i - 1], case.b[i - 1]
        assert case.note == (f"b = a with {x} at position {i} replaced by {y} (equally relevant); "
                             f"within the cutoff {holders(x, case.context, 2)} other system(s) retrieve "
                             f"{x}, {holders(y, case.context, 2)} retrieve {y}")


def test_rarity_cases_always_meet_the_conditions_with_a_window_of_two():
    # x and y both at position k = 2 of a prior holding another document: moving y back to k used to
    # push x past the cutoff (a = (d1), b = (d2), a prior (d3, d2, d1) "retrieving d1 within k").
    scope = Scope(max_position=2)
    with pytest.raises(NoSuchExample):
        find(rarity_cases(scope), lambda c: not RARITY.satisfies_conditions(c, scope), settings=FIND)


# -- PriorSens / PriorMono ------------------------------------------------------------------------

def moves(case):
    """``(p, q)``: x's position in the moved prior before and after (``None``: moved out)."""
    (i,) = case.changed
    x = case.a[i - 1]
    (u, v), = [(u, v) for u, v in zip(case.context.rankings, case.context_b.rankings) if u != v]
    return u.index(x) + 1, (v.index(x) + 1 if x in v else None)


def test_prior_move_small_scope_counts_and_moves():
    # Depth 3 (no window): PriorSens moves p -> q != p in 1..3 (6 moves); PriorMono p in 1..3 to
    # q in p+1..4 or out (9 moves); alone or beside a: per (i, rest) 12 or 18; layer n: n 2^(n-1).
    assert layers(prior_move_small_scope(Scope(), deeper=False)) == [(12, (1, 3)), (48, (2, 3)), (144, (3, 3))]
    assert layers(prior_move_small_scope(Scope(), deeper=True)) == [(18, (1, 3)), (72, (2, 3)), (216, (3, 3))]
    sens = {moves(c) for c in cases_of(prior_move_small_scope(Scope(), deeper=False))}
    assert sens == {(p, q) for p in (1, 2, 3) for q in (1, 2, 3) if p != q}
    mono = {moves(c) for c in cases_of(prior_move_small_scope(Scope(), deeper=True))}
    assert mono == {(p, q) for p in (1, 2, 3) for q in (None, *range(p + 1, 5))}
    # A window of 2: depth 2.
    assert {moves(c) for c in cases_of(prior_move_small_scope(Scope(max_position=2), deeper=True))} == {
        (1, None), (1, 2), (1, 3), (2, None), (2, 3)}


def test_prior_move_small_scope_fills_the_prior_with_non_relevant_documents():
    for deeper in (False, True):
        for case in cases_of(prior_move_small_scope(Scope(), deeper)):
            (i,) = case.changed
            x = case.a[i - 1]
            moved = case.context.rankings[0]
            assert x in moved and not any(case.topic.rel(d) for d in moved if d != x)
            assert case.context.rankings[1:] in ((), (case.a,))   # alone, or beside a itself
            assert {case.topic.r(d) for d in case.a} <= {0, 1}   # binary documents


def test_prior_move_notes():
    sens = list(cases_of(prior_move_small_scope(Scope(), deeper=False)))
    assert sens[0].note == ("a = b; b is scored with d1 (a's position 1) in prior s1 moved from position 1 to 2 "
                            "(the 1 document(s) it passes are non-relevant)")
    back = [c for c in sens if moves(c) == (3, 1) and len(c.a) == 1 and len(c.context) == 2][0]
    assert back.context.rankings == (("d2", "d3", "d1"), ("d1",))
    assert back.context_b.rankings == (("d1", "d2", "d3"), ("d1",))
    assert back.note == ("a = b; b is scored with d1 (a's position 1) in prior s1 moved from position 3 to 1 "
                         "(the 2 document(s) it passes are non-relevant)")
    out = [c for c in cases_of(prior_move_small_scope(Scope(), deeper=True))
           if moves(c) == (2, None) and len(c.a) == 1 and len(c.context) == 1][0]
    assert out.context.rankings == (("d2", "d1"),) and out.context_b.rankings == (("d2", "d3"),)
    assert out.note == "a = b; b is scored with d1 (a's position 1) in prior s1 replaced by the non-relevant d3 (moved out of it)"


def test_prior_move_search_moves_x_in_any_prior_and_names_it():
    found = find(prior_move_cases(Scope(max_position=4), deeper=True),
                 lambda c: len(c.context) == 3 and c.context.rankings[2] != c.context_b.rankings[2], settings=FIND)
    assert " in prior s3 " in found.note
    p, q = moves(found)
    assert found.context.rankings[2][p - 1] == found.a[found.changed[0] - 1]


@settings(max_examples=40, database=None, derandomize=True)
@given(data=st.data(), deeper=st.booleans())
def test_prior_move_search_notes_name_the_move_the_priors_show(data, deeper):
    """The note's "moved from position p to q" is x's move as read off the two contexts."""
    case = data.draw(prior_move_cases(Scope(max_position=4), deeper))
    p, q = moves(case)
    assert p >= 1 and (q is None or q != p)
    assert case.note.count(f"moved from position {p} to {q}") == (q is not None)


@pytest.mark.parametrize("deeper", [False, True])
def test_prior_move_search_stays_in_its_scope(deeper):
    """x sits within the cutoff of a (i <= k), and a has at most max_docs documents."""
    with pytest.raises(NoSuchExample):
        find(prior_move_cases(Scope(max_position=3), deeper), lambda c: c.changed[0] > 3, settings=FIND)
    # One document: PriorMono moves x deeper in its prior; PriorSens has no second position within
    # a depth of one, so every draw is rejected.
    with pytest.raises(NoSuchExample if deeper else Unsatisfiable):
        find(prior_move_cases(Scope(max_docs=1), deeper), lambda c: len(c.a) > 1, settings=FIND)


# -- Rarity's priors, built from given positions -----------------------------------------------

def rarity_prior(rest, x_at, y_at, deep=None, k=3):
    """The one prior ``_rarity_case`` builds for ``a = (a0, a1)``, ``x = a0``, as (case, x, y, prior)
    (the case names its documents d1, d2, ...)."""
    case = _rarity_case([Fraction(1), Fraction(1)], 1, [rest], [x_at], [y_at], [deep], k,
                        {d: Fraction(0) for d in rest})
    return case, case.a[0], case.b[0], list(case.context.rankings[0])


def test_rarity_puts_x_and_y_where_asked_even_past_a_short_prior():
    _, x, y, prior = rarity_prior(["p1"], 3, None)  # asked for 3, the prior has 1 document
    assert len(prior) == 2 and prior[1] == x
    _, x, y, prior = rarity_prior(["p1", "p2", "p3"], 2, 1)
    assert len(prior) == 5 and prior[:2] == [y, x]


def test_rarity_keeps_x_and_y_within_the_cutoff_when_both_ask_for_position_k():
    # Both at k = 3: the second one inserted lands at 4; it trades places with the last document
    # within the cutoff that is neither x nor y.
    _, x, y, prior = rarity_prior(["p1", "p2", "p3"], 3, 3)
    assert len(prior) == 5 and {x, y} <= set(prior[:3])


def test_rarity_fills_a_short_prior_to_the_cutoff_before_putting_x_just_past_it():
    case, x, y, prior = rarity_prior(["p1"], None, None, deep="x")
    assert len(prior) == 4 and prior[3] == x and x not in prior[:3] and y not in prior
    assert all(case.topic.r(d) == 0 for d in prior[:3])  # p1 and the fillers: non-relevant

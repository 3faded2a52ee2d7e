"""The relevance-oriented generators (Pri, Deep, Conf, the DeepTh/CloseTh pair).

Each case is checked against the constraint's definition rebuilt here from
the case alone (not from the generator's code): the swap or append
structure, the relevance pattern, single aspect, ``r <= rho``, the window,
and the nearby reading ``later_untouched``. The exhaustive small scopes are
compared with a brute-force enumeration that filters every relevance vector
by the definition, so a small scope that skips a case or invents one fails.
Shrinking is checked to land on the smallest readable case.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import find, given, settings, strategies as st

from axiometer.generators.case import Case, Scope, ScopeMark, cases_of
from axiometer.generators.relevance import (
    confidence_cases, confidence_small_scope, deepness_cases, deepness_small_scope,
    priority_cases, priority_small_scope, swap, threshold_pair)
from axiometer.generators.relevance import small_scope_levels

RHOS = (Fraction(1, 10), Fraction(1, 20), Fraction(1, 4))


def scopes(min_window: int = 1) -> st.SearchStrategy[Scope]:
    return st.builds(Scope, max_position=st.one_of(st.none(), st.integers(min_window, 12)),
                     rho=st.sampled_from(RHOS), max_docs=st.integers(1, 10),
                     later_untouched=st.booleans())


# -- the definitions, independent of the generators --------------------------------------------

def r_values(case: Case, ranking) -> list:
    return [case.topic.r(d) for d in ranking]


def common_conditions(case: Case, scope: Scope) -> None:
    """Single aspect, ``0 <= r <= rho``, changed positions inside the window, ids ``d1..dn``."""
    assert case.topic.aspects == ("*",) and case.topic.weights == (1,)
    assert all(0 <= case.topic.r(d) <= scope.rho for d in case.topic.documents)
    if scope.max_position is not None:
        assert max(case.changed) <= scope.max_position
    longest = max(len(case.a), len(case.b))
    assert sorted(set(case.a) | set(case.b), key=lambda d: int(d[1:])) == [f"d{i}" for i in range(1, longest + 1)]


def assert_priority_case(case: Case, scope: Scope) -> None:
    common_conditions(case, scope)
    i, j = case.changed
    assert 1 <= i < j <= len(case.a)
    assert tuple(case.a) == tuple(f"d{m}" for m in range(1, len(case.a) + 1))  # a is the base, in order
    assert tuple(case.b) == tuple(swap(tuple(case.a), i, j))
    r = r_values(case, case.a)
    assert r[j - 1] > r[i - 1]
    if scope.later_untouched:
        assert not any(r[j:])


def assert_deepness_case(case: Case, scope: Scope) -> None:
    common_conditions(case, scope)
    i, i1, j, j1 = case.changed
    assert i1 == i + 1 and j1 == j + 1 and j >= i + 2 and j1 <= len(case.a) == len(case.b)
    base = tuple(f"d{m}" for m in range(1, len(case.a) + 1))
    assert tuple(case.b) == tuple(swap(base, i, i1)) and tuple(case.a) == tuple(swap(base, j, j1))
    r = [case.topic.r(d) for d in base]
    assert r[i - 1] == r[j - 1] < r[i1 - 1] == r[j1 - 1]
    if scope.later_untouched:
        assert not any(r[j1:])


def assert_confidence_case(case: Case, scope: Scope) -> None:
    common_conditions(case, scope)
    n = len(case.a)
    assert tuple(case.b[:n]) == tuple(case.a) and len(case.b) == n + 1
    assert case.changed == (n + 1,)
    appended = case.b[-1]
    assert case.topic.is_judged(appended) and case.topic.r(appended) == 0
    assert len(case.b) <= max(1, scope.max_docs)


# -- every generated case ----------------------------------------------------------------------

@given(st.data())
def test_priority_cases_satisfy_the_definition(data):
    scope = data.draw(scopes(min_window=2))
    assert_priority_case(data.draw(priority_cases(scope)), scope)


@given(st.data())
def test_deepness_cases_satisfy_the_definition(data):
    scope = data.draw(scopes(min_window=4))
    assert_deepness_case(data.draw(deepness_cases(scope)), scope)


@given(st.data())
def test_confidence_cases_satisfy_the_definition(data):
    scope = data.draw(scopes())
    assert_confidence_case(data.draw(confidence_cases(scope)), scope)


def test_generators_reach_the_window_edge_and_beyond_it_without_a_window():
    # A window of k = 5 admits a Deep swap at (4, 5) and none at (5, 6); without a window the
    # generator reaches position 8 (max_docs). Found by search, not by inspecting the code.
    def last_changed_is(target):
        return lambda case: max(case.changed) == target
    quick = settings(max_examples=2000, database=None)
    assert find(deepness_cases(Scope(max_position=5)), last_changed_is(5), settings=quick)
    assert find(deepness_cases(Scope(max_docs=8)), last_changed_is(8), settings=quick)
    assert find(confidence_cases(Scope(max_position=5)), last_changed_is(5), settings=quick)
    assert find(priority_cases(Scope(max_position=3)), last_changed_is(3), settings=quick)


def test_no_deep_case_fits_a_window_shorter_than_four():
    assert list(cases_of(deepness_small_scope(Scope(max_position=3)))) == []
    with pytest.raises(Exception):  # hypothesis: no example can be generated at all
        find(deepness_cases(Scope(max_position=3)), lambda case: True,
             settings=settings(max_examples=50, database=None))


# -- the exhaustive small scopes versus brute force --------------------------------------------

def brute_force(kind: str, scope: Scope, max_docs: int) -> set:
    """Every case of the constraint, by filtering all vectors: ``(r of the base ranking,
    changed positions)``. Values: ``{0, rho/5, rho/2, rho}``, and ``{0, rho/2, rho}`` for
    Pri's and Deep's longest rankings (``max_docs``). For Conf the base is ``b`` and ``a``
    has up to ``max_docs`` documents."""
    window = scope.max_position or 10 ** 6
    found = set()
    lengths = range(0, max_docs + 1) if kind == "Conf" else range(2, max_docs + 1)
    for n in lengths:
        grades = [Fraction(0), scope.rho / 2, scope.rho]
        if kind == "Conf" or n < max_docs:
            grades.append(scope.rho / 5)
        for r in itertools.product(grades, repeat=n):
            if kind == "Pri":
                for i, j in itertools.combinations(range(1, n + 1), 2):
                    if j <= window and r[j - 1] > r[i - 1] and not (scope.later_untouched and any(r[j:])):
                        found.add((r, (i, j)))
            elif kind == "Deep":
                for i in range(1, n):
                    for j in range(i + 2, n):
                        if (j + 1 <= window and r[i - 1] == r[j - 1] < r[i] == r[j]
                                and not (scope.later_untouched and any(r[j + 1:]))):
                            found.add((r, (i, i + 1, j, j + 1)))
            elif n + 1 <= window:
                found.add((r + (Fraction(0),), (n + 1,)))
    return found


def as_keys(cases) -> list:
    keys = []
    for case in cases:
        base = case.b if len(case.changed) == 1 else tuple(f"d{m}" for m in range(1, len(case.a) + 1))
        keys.append((tuple(case.topic.r(d) for d in base), case.changed))
    return keys


@pytest.mark.parametrize("scope", [Scope(), Scope(max_position=3), Scope(max_position=5),
                                   Scope(rho=Fraction(1, 20), later_untouched=True),
                                   Scope(max_position=1)])
@pytest.mark.parametrize("kind, small_scope, check, max_docs", [
    ("Pri", priority_small_scope, assert_priority_case, 4),
    ("Deep", deepness_small_scope, assert_deepness_case, 6),
    ("Conf", confidence_small_scope, assert_confidence_case, 3),
])
def test_small_scope_is_exactly_every_case(kind, small_scope, check, max_docs, scope):
    cases = list(cases_of(small_scope(scope, max_docs)))
    for case in cases:
        check(case, scope.with_(max_docs=max_docs + 1))
    keys = as_keys(cases)
    assert len(keys) == len(set(keys)), "a small-scope case is listed twice"
    assert set(keys) == brute_force(kind, scope, max_docs)


def test_small_scopes_list_the_smallest_cases_first():
    for small_scope in (priority_small_scope, deepness_small_scope, confidence_small_scope):
        sizes = [len(case.b) for case in cases_of(small_scope(Scope()))]
        assert sizes == sorted(sizes)


# -- shrinking ---------------------------------------------------------------------------------

def smallest(strategy, condition=lambda case: True) -> Case:
    return find(strategy, condition, settings=settings(max_examples=300, database=None))


def test_shrinking_lands_on_the_simplest_case():
    rho = Fraction(1, 10)
    pri = smallest(priority_cases(Scope()))
    assert (tuple(pri.a), tuple(pri.b), pri.changed) == (("d1", "d2"), ("d2", "d1"), (1, 2))
    assert [pri.topic.r(d) for d in pri.a] == [0, rho]
    deep = smallest(deepness_cases(Scope()))
    assert (tuple(deep.b), tuple(deep.a)) == (("d2", "d1", "d3", "d4"), ("d1", "d2", "d4", "d3"))
    assert [deep.topic.r(f"d{m}") for m in range(1, 5)] == [0, rho, 0, rho]
    conf = smallest(confidence_cases(Scope()))
    assert (tuple(conf.a), tuple(conf.b)) == ((), ("d1",))
    # A condition that needs a relevant document in a: one document of value rho.
    conf = smallest(confidence_cases(Scope()), lambda case: any(case.topic.r(d) for d in case.a))
    assert tuple(conf.a) == ("d1",) and conf.topic.r("d1") == rho


# -- DeepTh / CloseTh pair ---------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 7, 64])
@pytest.mark.parametrize("rc", [Fraction(1, 100), Fraction(1, 10)])
def test_threshold_pair(n, rc):
    topic, a, b = threshold_pair(n, rc)
    assert topic.is_single_aspect and topic.is_binary and topic.R == n
    assert len(a) == len(b) == 2 * n
    assert [topic.r(d) for d in a] == [rc] + [0] * (2 * n - 1)
    assert [topic.r(d) for d in b] == [0] * n + [rc] * n


@given(priority_cases(Scope(between_untouched=True)))
def test_between_untouched_reading_leaves_nothing_relevant_between_the_swap(case):
    i, j = case.changed
    assert all(case.topic.r(d) == 0 for d in case.a[i:j - 1])


def test_between_untouched_small_scope():
    cases = list(cases_of(priority_small_scope(Scope(between_untouched=True))))
    assert cases and all(all(c.topic.r(d) == 0 for d in c.a[c.changed[0]:c.changed[1] - 1]) for c in cases)
    assert len(cases) < len(list(cases_of(priority_small_scope(Scope()))))


# The relevance small scopes and cases, pinned: declared sizes, marks, levels, notes and the
# threshold pair's documents. Issue 14: the mutation run of ``axiometer.generators.relevance`` found
# these unpinned.

RHO = Fraction(1, 10)


def marks(items) -> list[tuple[int, int]]:
    return [(item.docs, item.declared_docs) for item in items if isinstance(item, ScopeMark)]


def test_small_scope_levels_are_three_unless_rich():
    assert small_scope_levels(RHO) == (0, RHO, RHO / 2)
    assert small_scope_levels(RHO, rich=True) == (0, RHO, RHO / 2, RHO / 5)


def test_declared_small_scopes_end_where_their_docstrings_say():
    # Pri: 2..4 documents; Deep: 4..6; Conf: a of 0..3 documents, marks counting b (len(a) + 1).
    assert marks(priority_small_scope(Scope())) == [(2, 4), (3, 4), (4, 4)]
    assert marks(deepness_small_scope(Scope())) == [(4, 6), (5, 6), (6, 6)]
    assert marks(confidence_small_scope(Scope())) == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert marks(confidence_small_scope(Scope(max_position=3))) == [(1, 3), (2, 3), (3, 3)]


def test_notes_say_how_b_was_built():
    pri = next(cases_of(priority_small_scope(Scope())))  # r = (0, rho): swap 1 and 2
    assert pri.note == "b = a with positions 1 and 2 swapped (r(d2) > r(d1))"
    deep = next(cases_of(deepness_small_scope(Scope())))  # r = (0, rho, 0, rho), i = 1, j = 3
    assert [deep.topic.r(d) for d in ("d1", "d2", "d3", "d4")] == [0, RHO, 0, RHO]
    assert deep.note == ("base ranking d1..d4 with r(d1) = r(d3) < r(d2) = r(d4); "
                         "b = base with positions 1 and 2 swapped, a = base with positions 3 and 4 swapped")
    conf = [c for c in cases_of(confidence_small_scope(Scope())) if len(c.a) == 2][0]
    assert conf.b == ("d1", "d2", "d3")
    assert conf.note == "b = a with the non-relevant d3 appended at position 3"


def test_threshold_pair_names_relevant_and_non_relevant_documents_apart():
    # n = 2: a = one relevant then 3 non-relevant; b = 2 non-relevant then the 2 relevant.
    topic, a, b = threshold_pair(2, RHO)
    assert a == ("r1", "n1", "n2", "n3") and b == ("n1", "n2", "r1", "r2")
    assert set(topic.relevant) == {"r1", "r2"}

"""The relevance small scopes and cases, pinned: declared sizes, marks, levels, notes and the
threshold pair's documents. Issue 14: the mutation run of ``axiometer.generators.relevance`` found
these unpinned."""

from __future__ import annotations

from fractions import Fraction

from axiometer.generators.case import Scope, ScopeMark, cases_of
from axiometer.generators.relevance import (confidence_small_scope, deepness_small_scope,
                                            priority_small_scope, small_scope_levels, threshold_pair)

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

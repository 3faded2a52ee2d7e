"""The constraint base (base.py): the n/a check, joined notes, and cases under generated contexts.

Pinned by hand: the exact n/a record a window too short for any case gives ("one clear line naming
what and where"), and the rule that a relative metric's every case, from the small scope and from
the random search, carries a context of other systems (definitions §6), disjoint from the case's
documents under the ``context_disjoint`` reading (issue 14).
"""

from __future__ import annotations

import dataclasses
from itertools import islice

from hypothesis import find, settings

from axiometer.axioms import get
from axiometer.axioms.constraints.base import joined_note, no_case
from axiometer.generators.case import Case, Scope
from axiometer.generators.context import OTHERS_ONLY
from axiometer.metrics import wrap
from axiometer.results import Check

METRIC = wrap(lambda ranking, topic, p: 0.0, name="m", params={"p": 0.5})


def test_no_case_names_the_constraint_the_metric_its_setting_and_the_window():
    assert no_case(METRIC, get("Pri"), "window", Scope(max_position=1)) == Check(
        constraint="Pri", metric="m(p=0.5)", params=(("p", 0.5),), verdict="n/a", mode="window",
        note="no case of this constraint fits within the window k = 1")


def test_no_case_without_a_window_says_so_without_a_trailing_blank():
    result = no_case(METRIC, get("Red"), "truncate", Scope())
    assert (result.constraint, result.mode, result.verdict) == ("Red", "truncate", "n/a")
    assert result.note == "no case of this constraint fits"


def test_joined_note_joins_with_a_semicolon_and_skips_an_empty_note():
    check = Check(constraint="Pri", metric="m", params=(), verdict="satisfied", mode="window")
    assert joined_note(check, "under a context").note == "under a context"
    assert joined_note(dataclasses.replace(check, note="budget reached"), "under a context").note \
        == "budget reached; under a context"


def documents(case):
    return set(case.a) | set(case.b)


def test_every_small_scope_case_of_a_relative_check_has_a_context():
    pri = get("Pri")
    relative = pri.under_generated_contexts()
    for disjoint in (False, True):
        scope = Scope(max_position=3, context_disjoint=disjoint)
        cases = [c for c in islice(relative.small_scope(scope), 60) if isinstance(c, Case)]
        assert cases and all(c.context is not None and len(c.context) >= 1 for c in cases)
        others = {d for c in cases for r in c.context.rankings for d in r}
        if disjoint:  # the other systems retrieve only o1, o2, none of the case's documents
            assert others <= set(OTHERS_ONLY)
            assert all(not (documents(c) & set(OTHERS_ONLY)) for c in cases)
        else:  # the generated contexts reach the case's own documents
            assert any(documents(c) & {d for r in c.context.rankings for d in r} for c in cases)
    # The plain constraint's small scope has no context.
    plain = [c for c in islice(pri.small_scope(Scope(max_position=3)), 20) if isinstance(c, Case)]
    assert plain and all(c.context is None for c in plain)


def test_every_random_case_of_a_relative_check_has_a_context():
    relative = get("Pri").under_generated_contexts()
    quick = settings(max_examples=30, database=None)
    with_context = find(relative.strategy(Scope(max_position=3)), lambda c: c.context is not None, settings=quick)
    assert len(with_context.context) >= 1
    shared = find(relative.strategy(Scope(max_position=3)),
                  lambda c: bool(documents(c) & {d for r in c.context.rankings for d in r}), settings=quick)
    assert shared.context is not None
    disjoint = find(relative.strategy(Scope(max_position=3, context_disjoint=True)),
                    lambda c: len(c.context) >= 1, settings=quick)
    assert {d for r in disjoint.context.rankings for d in r} <= set(OTHERS_ONLY)


def test_a_constraint_without_generators_stays_without_them_under_contexts():
    bare = dataclasses.replace(get("Pri"), strategy=None, small_scope=None).under_generated_contexts()
    assert bare.strategy is None and bare.small_scope is None

"""The small-scope plumbing (generators.case), the contexts of relative metrics (generators.context)
and the building blocks (generators.building), pinned to their docstrings.

- ``layered``: a mark after each complete layer, a declared layer may be empty, growth continues
  past the declared scope until a layer yields no case, and stops at ``last``;
- ``declared_extra``: the extra cases just before the mark ending the declared scope, the marks
  before it dropped (at the end when there is no such mark);
- contexts: the documented shrink target, the ``disjoint`` default, the fixed context's order
  (last id first, natural order), and a case keeping its ``changed`` and ``note`` in a context;
- ``positive_levels``: ``rho, rho/2, rho/5, rho/10``; ``relevance_lists`` honours ``min_size``.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import islice

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from axiometer.core import Context, Ranking, Topic
from axiometer.generators.building import positive_levels, ranking, relevance_lists
from axiometer.generators.case import Case, Scope, ScopeMark, declared_extra, layered
from axiometer.generators.context import (OTHERS_ONLY, contexts, fixed_context, small_scope_with_contexts,
                                          with_contexts)

M = ScopeMark


def _layers(counts):
    """layer(n) yields counts[n] cases named 'n.i' (0 past the end of counts)."""
    return lambda n: [f"{n}.{i}" for i in range(counts.get(n, 0))]


# -- layered -------------------------------------------------------------------------------------


def test_layered_declared_scope_marks_every_layer_even_an_empty_one():
    # Layers 1..3 declared; layer 2 is empty but still complete, so its mark follows at once;
    # layer 3 (the declared size, empty too) ends the declared scope.
    items = list(layered(_layers({1: 1, 2: 0, 3: 0}), 1, 3, Scope()))
    assert items == ["1.0", M(1, 3), M(2, 3), M(3, 3)]


def test_layered_growth_stops_at_the_first_empty_layer():
    # Declared 1..2; growing, layer 3 has one case and layer 4 none: growth ends without a mark.
    layer = _layers({1: 1, 2: 2, 3: 1, 5: 1})
    items = list(islice(layered(layer, 1, 2, Scope(grow=True)), 20))
    assert items == ["1.0", M(1, 2), "2.0", "2.1", M(2, 2), "3.0", M(3, 2)]


def test_layered_growth_ends_at_last_and_size_names_the_marks():
    layer = _layers({n: 1 for n in range(10)})
    items = list(layered(layer, 0, 1, Scope(grow=True), size=lambda n: n + 2, last=2))
    assert items == ["0.0", M(2, 3), "1.0", M(3, 3), "2.0", M(4, 3)]


# -- declared_extra ------------------------------------------------------------------------------


def test_declared_extra_goes_before_the_declared_mark_and_drops_the_earlier_marks():
    items = ["1.0", M(1, 2), "2.0", M(2, 2), "3.0", M(3, 2), M(4, 2)]
    assert list(declared_extra(items, ["x", "y"])) == ["1.0", "2.0", "x", "y", M(2, 2), "3.0", M(3, 2),
                                                       M(4, 2)]


def test_declared_extra_without_a_declared_mark_comes_last():
    # Marks of a scope cut short before its declared size: all dropped, the extra cases at the end.
    assert list(declared_extra(["1.0", M(1, 3), "2.0"], ["x"])) == ["1.0", "2.0", "x"]
    assert list(declared_extra([], ["x"])) == ["x"]


# -- contexts ------------------------------------------------------------------------------------

TOPIC = Topic.single({f"d{i}": (1 if i % 2 else 0) for i in range(1, 13)}, topic_id="q")
CASE = Case(TOPIC, Ranking(["d1", "d2"]), Ranking(["d2", "d1"]), (1, 2), "swap d1 and d2")


def test_contexts_shrink_to_one_prior_ranking_of_the_first_document():
    smallest = find(contexts(("d1", "d2", "d3")), lambda context: True,
                    settings=settings(database=None, max_examples=50))
    assert smallest == Context((Ranking(["d1"]),))


def test_with_contexts_draws_from_the_case_documents_unless_disjoint():
    found = find(with_contexts(st.just(CASE)),
                 lambda case: any("d1" in prior for prior in case.context.rankings),
                 settings=settings(database=None, max_examples=200))
    assert found.a == CASE.a and found.b == CASE.b and found.context.rankings == (Ranking(["d1"]),)


@settings(max_examples=10, suppress_health_check=list(HealthCheck))
@given(with_contexts(st.just(CASE), disjoint=True))
def test_disjoint_contexts_hold_only_the_other_systems_documents(case):
    assert all(set(prior) <= set(OTHERS_ONLY) for prior in case.context.rankings)
    assert (case.changed, case.note) == (CASE.changed, CASE.note)


def test_small_scope_contexts_keep_the_case_and_pass_the_marks():
    items = list(small_scope_with_contexts(iter([CASE, M(2, 2), CASE])))
    # Three contexts per case by default (a, a reversed, the others' documents), the mark between.
    contexts_seen = [item.context.rankings[0] for item in items if isinstance(item, Case)]
    assert contexts_seen == [("d1", "d2"), ("d2", "d1"), OTHERS_ONLY] * 2
    assert items[3] == M(2, 2) and len(items) == 7
    assert all((item.topic, item.a, item.b, item.changed, item.note) ==
               (CASE.topic, CASE.a, CASE.b, CASE.changed, CASE.note)
               for item in items if isinstance(item, Case))
    disjoint = list(small_scope_with_contexts(iter([CASE]), disjoint=True))
    assert [item.context.rankings[0] for item in disjoint] == [OTHERS_ONLY]


def test_fixed_context_lists_relevant_documents_last_id_first():
    # Relevant: d1, d3, ..., d11; by natural order, last first: d11, d9, d7, d5, d3 (5 at most),
    # then o1. (A plain string sort would put d9 before d11.)
    assert fixed_context(TOPIC) == Context((Ranking(["d11", "d9", "d7", "d5", "d3", "o1"]),))
    assert fixed_context(TOPIC, disjoint=True) == Context((Ranking(OTHERS_ONLY),))


# -- building ------------------------------------------------------------------------------------


def test_positive_levels_are_rho_and_its_half_fifth_tenth():
    assert positive_levels(Fraction(1, 10)) == (Fraction(1, 10), Fraction(1, 20), Fraction(1, 50),
                                                Fraction(1, 100))
    assert ranking(["d2", "d1"]) == Ranking(["d2", "d1"]) and type(ranking(["d1"])) is Ranking


def test_relevance_lists_respect_their_sizes_and_shrink_to_the_first_value():
    strategy = relevance_lists((Fraction(0), Fraction(1)), 2, 3)
    quiet = settings(database=None, max_examples=50)
    assert find(strategy, lambda values: True, settings=quiet) == [0, 0]
    assert len(find(strategy, lambda values: len(values) >= 3, settings=quiet)) == 3
    with pytest.raises(NoSuchExample):
        find(strategy, lambda values: len(values) > 3, settings=quiet)

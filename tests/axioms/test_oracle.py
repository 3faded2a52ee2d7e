"""What a search's small scope reached, in words, and the evidence behind a verdict (issue 14).

The reaches are built by hand; each expected text is read off :func:`scope_text`'s docstring and
the :class:`ScopeReach` fields (complete layers, the partial one, the declared size, the stop).
"""

from __future__ import annotations

from fractions import Fraction as F

from axiometer.axioms.oracle import Layer, ScopeReach, SearchResult, combined_evidence, scope_text, search_evidence
from axiometer.results import Evidence

V01 = (F(0), F(1, 10))
V012 = (F(0), F(1, 20), F(1, 10))


def reach(layers=(), partial=None, declared=None, complete=False, stopped="", budget=10) -> ScopeReach:
    return ScopeReach(tuple(layers), partial, declared, complete, stopped, budget)


def test_layer_and_reach_sizes():
    layer = Layer(4, 5, V01, (1,), ((2, 1), (3, 4)))
    assert (layer.smallest, layer.largest) == (2, 3)
    assert (Layer(4, 0, (), ()).smallest, Layer(4, 0, (), ()).largest) == (4, 4)  # no sizes: the layer's docs
    both = reach([Layer(2, 3, V01, (1,)), Layer(3, 4, V01, (1,))], partial=Layer(4, 2, V01, (1,)))
    assert both.cases == 9 and both.docs == 3
    assert reach(partial=Layer(4, 2, V01, (1,))).cases == 2 and reach(partial=Layer(4, 2, V01, (1,))).docs is None
    assert reach([Layer(2, 3, V01, (1,))]).cases == 3


def test_part_of_an_unmarked_small_scope():
    partial = Layer(3, 7, V01, (1,), ((2, 3), (3, 4)))
    assert scope_text(reach(partial=partial, stopped="budget", budget=7)) == (
        "7 cases of the small scope, of 2-3 documents over relevance values {0, 1/10}; 1 aspect "
        "(not the whole small scope: the budget of 7 small-scope cases stopped it)")
    assert scope_text(reach(partial=partial, stopped="time")) == (
        "7 cases of the small scope, of 2-3 documents over relevance values {0, 1/10}; 1 aspect "
        "(not the whole small scope: the time budget stopped it)")
    one = Layer(1, 1, (F(1),), (2, 3), ((1, 1),))
    assert scope_text(reach(partial=one, stopped="target")) == (
        "1 case of the small scope, of 1 document over relevance values {1}; 2 or 3 aspects "
        "(not the whole small scope: stopped)")


def test_a_whole_unmarked_small_scope():
    whole = Layer(3, 12, V012, (1, 2, 3), ((1, 2), (3, 10)))
    assert scope_text(reach([whole], complete=True)) == (
        "the whole small scope, 12 cases of 1-3 documents over relevance values {0, 1/20, 1/10}; "
        "1, 2 or 3 aspects")
    single = Layer(2, 1, (F(0), F(1)), (2,), ((2, 1),))
    assert scope_text(reach([single], complete=True)) == (
        "the whole small scope, 1 case of 2 documents over relevance values {0, 1}; 2 aspects")


def test_the_declared_scope_layer_by_layer():
    layers = [Layer(2, 3, V01, (1,), ((2, 3),)),
              Layer(3, 5, V01, (1,), ((3, 5),)),
              Layer(4, 6, V012, (1, 2), ((4, 6),))]
    # Layers with the same values are one group ("2-3 documents"); a group after the first says
    # only its sizes ("4 over ...").
    assert scope_text(reach(layers, declared=4, complete=True)) == (
        "every case of up to 4 documents (the declared scope), 14 cases: 2-3 documents over relevance "
        "values {0, 1/10}, 4 over {0, 1/20, 1/10}; 1 or 2 aspects")


def test_growth_past_the_declared_scope_with_cases_ahead_and_a_partial_layer():
    layers = [Layer(1, 0, (), (), ()),                              # an empty layer: not shown
              Layer(2, 4, (F(0), F(1)), (1,), ((2, 2), (5, 1), (6, 1))),  # two cases ahead of their layer
              Layer(3, 2, (F(0), F(1)), (1,), ((3, 2),))]
    partial = Layer(4, 3, (F(0), F(1)), (1,), ((4, 3),))
    assert scope_text(reach(layers, partial, declared=2, complete=True, stopped="budget")) == (
        "every case of up to 3 documents (declared scope: up to 2), 6 cases: 2-3 documents over relevance "
        "values {0, 1}, and 2 cases of 5-6 documents; 1 aspect; then 3 cases of 4 documents "
        "(the budget of 10 small-scope cases stopped the growth)")
    # One case ahead, and the time budget stopping the growth.
    layers[1] = Layer(2, 3, (F(0), F(1)), (1,), ((2, 2), (5, 1)))
    assert scope_text(reach(layers, None, declared=2, complete=True, stopped="time")) == (
        "every case of up to 3 documents (declared scope: up to 2), 5 cases: 2-3 documents over relevance "
        "values {0, 1}, and 1 case of 5 documents; 1 aspect (the time budget stopped the growth)")


def test_a_layer_no_larger_than_the_previous_one_is_shown_at_its_own_size():
    layers = [Layer(2, 1, V01, (1,), ((2, 1),)), Layer(2, 2, V012, (1,), ((2, 2),))]
    assert scope_text(reach(layers, declared=2, complete=True)) == (
        "every case of up to 2 documents (the declared scope), 3 cases: 2 documents over relevance "
        "values {0, 1/10}, 2 over {0, 1/20, 1/10}; 1 aspect")


def test_declared_layers_without_cases_and_no_layer_at_all():
    assert scope_text(reach([Layer(1, 0, (), (), ())], declared=3, stopped="budget")) == (
        "every case of up to 1 document (declared scope: up to 3), 0 cases "
        "(the budget of 10 small-scope cases stopped it)")
    partial = Layer(2, 5, V01, (1,), ((1, 2), (2, 3)))
    assert scope_text(reach(partial=partial, declared=4, stopped="time")) == (
        "no layer complete (declared scope: up to 4 documents); then 5 cases of 1-2 documents "
        "(the time budget stopped it)")
    assert scope_text(reach(partial=Layer(1, 1, V01, (1,), ((1, 1),)), declared=1, stopped="target")) == (
        "no layer complete (declared scope: up to 1 document); then 1 case of 1 document")


def result(reach_: ScopeReach | None, random_cases: int = 7) -> SearchResult:
    return SearchResult(None, None, random_cases, reach_.cases if reach_ else 0, "", reach_)


def test_search_evidence_strength_follows_the_small_scope():
    assert search_evidence(result(None), True, "rmax = 1: ") == \
        Evidence("sampled", "rmax = 1: none: no small scope", 0, 7, True, small_scope_named=True)
    assert search_evidence(result(reach(complete=True)), False) == \
        Evidence("sampled", "none: no small-scope case fits", 0, 7, False, small_scope_named=True)
    whole = reach([Layer(2, 3, (F(1),), (1,), ((2, 3),))], complete=True)
    assert search_evidence(result(whole, 0), True) == Evidence(
        "exhaustive", "the whole small scope, 3 cases of 2 documents over relevance values {1}; 1 aspect",
        3, 0, True, small_scope_named=True)
    part = reach(partial=Layer(2, 4, (F(1),), (1,), ((2, 4),)), stopped="time")
    assert search_evidence(result(part, 5), False, "n = 2: ") == Evidence(
        "searched", "n = 2: 4 cases of the small scope, of 2 documents over relevance values {1}; 1 aspect "
        "(not the whole small scope: the time budget stopped it)", 4, 5, False, small_scope_named=True)
    # A declared scope names the small scope only when its case budget stopped it (a time stop is the note's).
    layers = [Layer(2, 3, (F(1),), (1,), ((2, 3),))]
    assert not search_evidence(result(reach(layers, declared=2, complete=True)), True).small_scope_named
    assert not search_evidence(result(reach(layers, declared=2, stopped="time")), True).small_scope_named
    assert search_evidence(result(reach(layers, declared=2, complete=True, stopped="budget")), True).small_scope_named


def test_combined_evidence_is_the_weakest_and_the_sum():
    exhaustive = Evidence("exhaustive", "every case", 10, 5, True)
    searched = Evidence("searched", "part", 4, 6, True)
    sampled = Evidence("sampled", "none", 0, 9, False)
    assert combined_evidence([("a", searched)]) is searched
    assert combined_evidence([("a", exhaustive), ("b", exhaustive)]) == \
        Evidence("exhaustive", "each of 2 claims: every case", 20, 10, True)
    assert combined_evidence([("a", exhaustive), ("b", searched)]) == \
        Evidence("searched", "a: every case; b: part", 14, 11, True)
    assert combined_evidence([("", sampled), ("b", exhaustive), ("c", searched)]) == \
        Evidence("sampled", "none; b: every case; c: part", 14, 20, False)
    assert combined_evidence([("a", searched), ("b", exhaustive)]).strength == "searched"


def test_a_group_spans_every_layer_with_its_values_and_the_next_starts_after_the_last_one():
    layers = [Layer(1, 1, V01, (1,), ((1, 1),)), Layer(2, 2, V01, (1,), ((2, 2),)),
              Layer(3, 3, V01, (1,), ((3, 3),)), Layer(5, 4, V012, (1,), ((5, 4),))]
    # Layers 1, 2 and 3 share their values: one group "1-3"; layer 5 follows layer 3, so its
    # group covers sizes 4-5 (no case of 4 documents exists, and every one was decided).
    assert scope_text(reach(layers, declared=5, complete=True)) == (
        "every case of up to 5 documents (the declared scope), 10 cases: 1-3 documents over relevance "
        "values {0, 1/10}, 4-5 over {0, 1/20, 1/10}; 1 aspect")

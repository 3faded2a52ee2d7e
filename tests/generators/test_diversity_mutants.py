"""The diversity small scopes, pinned: what each one enumerates (the counts follow from its docstring,
computed by hand below), how its layers and marks run (with and without ``grow``), and the notes the
cases carry. Issue 14: the mutation run of ``axiometer.generators.diversity`` found these unpinned."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings, strategies as st

from axiometer.generators import diversity as div
from axiometer.generators.case import Scope, ScopeMark, cases_of

RHO = Fraction(1, 10)
HALF = Fraction(1, 2)
#: find() settings: deterministic, no database, generation and shrinking only.
FIND = settings(max_examples=500, database=None, deadline=None, derandomize=True,
                phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck))


def layers(items, stop_after: int = 99):
    """``[(case count, mark), ...]`` per layer; stops after a mark of more than ``stop_after``
    documents (a scope growing without end)."""
    out, count = [], 0
    for item in items:
        if isinstance(item, ScopeMark):
            out.append((count, (item.docs, item.declared_docs)))
            count = 0
            if item.docs > stop_after:
                break
        else:
            count += 1
    if count:
        out.append((count, None))
    return out


# -- building blocks -------------------------------------------------------------

def test_building_blocks_are_the_documented_values():
    assert div.aspect_names(2) == ("t1", "t2")
    assert div.aspect_names(3) == ("t1", "t2", "t3")
    # "rho, 1/2, 1, rho/2, 9/10" (the docstring)
    assert div.unit_levels(RHO) == (RHO, HALF, Fraction(1), Fraction(1, 20), Fraction(9, 10))
    assert div.unit_levels(Fraction(1, 4)) == (Fraction(1, 4), HALF, Fraction(1), Fraction(1, 8),
                                               Fraction(9, 10))


# -- AspDiv ----------------------------------------------------------------------

def test_aspdiv_small_scope_counts_every_dominating_replacement():
    # Two aspects, the replaced document over {0, rho/100, rho}^2: per aspect 6 pairs (new >= old),
    # so 36 pairs with new >= old, less the 9 with new == old: 27 (old, new) pairs. Layer n: n
    # positions i, the other n-1 documents over {0, rho}^2 (4 vectors): n * 27 * 4^(n-1).
    assert layers(div.aspect_diversity_small_scope(Scope())) == [
        (27, (1, 3)), (216, (2, 3)), (1296, (3, 3))]
    cases = list(cases_of(div.aspect_diversity_small_scope(Scope())))
    assert {case.topic.weights for case in cases} == {(HALF, HALF)}  # "two balanced aspects"
    assert {case.topic.aspects for case in cases} == {("t1", "t2")}


def test_aspdiv_small_scope_under_later_untouched():
    # n = 2, i = 2 (nothing later): 27 * 4 = 108. i = 1: the later document is zero on every raised
    # aspect: 18 pairs raise one aspect (3 strict pairs on it * 3 equal values on the other, * 2
    # aspects), each with 2 later vectors; 9 pairs raise both, 1 later vector: 36 + 9 = 45.
    counts = layers(div.aspect_diversity_small_scope(Scope(later_untouched=True), max_docs=2))
    assert counts == [(27, (1, 2)), (153, (2, 2))]


def test_aspdiv_notes_name_the_replaced_document_and_the_raised_aspects_only():
    cases = list(cases_of(div.aspect_diversity_small_scope(Scope(), max_docs=2)))

    def at_two(old, new):
        (case,) = [c for c in cases if c.changed == (2,) and c.topic.vector("d2") == old
                   and c.topic.vector("d2'") == new and c.topic.vector("d1") == (0, 0)]
        return case

    case = at_two((0, RHO), (RHO, RHO))  # t2 unchanged: raised on t1 only
    assert case.b == ("d1", "d2'")
    assert case.note == "b = a with d2 replaced by d2', more relevant to t1 and no less relevant to any aspect"
    case = at_two((0, 0), (RHO / 100, RHO))
    assert case.note == "b = a with d2 replaced by d2', more relevant to t1, t2 and no less relevant to any aspect"


# -- Red -------------------------------------------------------------------------

def test_red_small_scope_counts():
    # Prefixes of length L with more documents relevant to t1 (0) than to t2 (1); labels over
    # {t1, none, t2} up to max_mixed = 3, over {t1, t2} beyond; each with 2 values of rc and 3
    # unretrieved choices (6). L=1: 1; L=2: (0,0),(0,N),(N,0) = 3; L=3: (27 - 7 ties) / 2 = 10;
    # L=4: #t1 >= 3 of 4: 5; L=5: #t1 >= 3 of 5: 10 + 5 + 1 = 16. Marks count len(P) + 1.
    assert layers(div.redundancy_small_scope(Scope())) == [
        (6, (2, 6)), (18, (3, 6)), (60, (4, 6)), (30, (5, 6)), (96, (6, 6))]
    cases = list(cases_of(div.redundancy_small_scope(Scope())))
    assert {case.topic.aspects for case in cases} == {("t1", "t2")}
    assert {case.topic.r("x") for case in cases} == {RHO, HALF}  # the two simplest rc below 1


def test_red_small_scope_grows_inside_the_window_only():
    scope = Scope(max_position=4, grow=True)  # changed position len(P) + 1 <= 4: prefixes up to 3
    assert layers(div.redundancy_small_scope(scope, max_prefix=2), stop_after=5) == [
        (6, (2, 3)), (18, (3, 3)), (60, (4, 3))]
    assert all(case.changed == (len(case.a),) and len(case.a) <= 4
               for case in cases_of(div.redundancy_small_scope(scope, max_prefix=2)))


def test_red_note_counts_the_prefix():
    (case,) = [c for c in cases_of(div.redundancy_small_scope(Scope(), max_prefix=3))
               if [c.topic.vector(d) for d in c.a[:-1]] == [(Fraction(1, 10), 0)] * 2 + [(0, Fraction(1, 10))]
               and not set(c.topic.documents) - {"d1", "d2", "d3", "x", "y"}]
    assert case.a == ("d1", "d2", "d3", "x") and case.b == ("d1", "d2", "d3", "y")
    assert case.note == ("a = P + x, b = P + y; P has 2 document(s) relevant to t1 and 1 to t2; "
                         "x relevant (rc = 1/10) to t1 only, y to t2 only")


def test_red_search_takes_every_aspect_as_t():
    # t is any aspect (x relevant to t only): t1, t2, and t3 on three aspects.
    for aspect, m in (("t1", 2), ("t2", 2), ("t3", 3)):
        found = find(div.redundancy_cases(Scope()),
                     lambda c: len(c.topic.aspects) == m and c.topic.r("x", aspect) > 0, settings=FIND)
        assert found.topic.r("x", aspect) > 0


# -- MRed ------------------------------------------------------------------------

def test_mred_small_scope_counts_and_values():
    # Prefix pairs (high, low) over {0, rho/2, rho}: 3; r(x, t) in {rho, rho/2}; unretrieved: none or
    # one: 3^L * 2 * 2 per prefix length L = 1..3.
    assert layers(div.monotonic_redundancy_small_scope(Scope())) == [
        (12, (2, 4)), (36, (3, 4)), (108, (4, 4))]
    cases = list(cases_of(div.monotonic_redundancy_small_scope(Scope())))
    assert {case.topic.r("x", "t1") for case in cases} == {RHO, RHO / 2}
    assert {v for case in cases for d in case.a[:-1] for v in case.topic.vector(d)} == {0, RHO / 2, RHO}


def test_mred_small_scope_grows_inside_the_window_only():
    scope = Scope(max_position=3, grow=True)  # prefixes up to 2
    assert layers(div.monotonic_redundancy_small_scope(scope, max_prefix=1), stop_after=4) == [
        (12, (2, 2)), (36, (3, 2))]


def test_mred_search_takes_either_aspect_as_t_and_says_so():
    found = find(div.monotonic_redundancy_cases(Scope()), lambda c: c.topic.r("x", "t2") > 0, settings=FIND)
    assert found.topic.r("x", "t1") == 0 and found.topic.r("y", "t1") == found.topic.r("x", "t2")
    assert all(found.topic.r(d, "t2") > found.topic.r(d, "t1") for d in found.a[:-1])
    assert found.note.startswith("a = P + x, b = P + y; every document of P is more relevant to t2 than to t1; ")


# -- Sat -------------------------------------------------------------------------

def test_sat_small_scope_counts_and_values():
    # Room 3 (max_prefix). On m aspects the n - 1 documents before d_n are relevant (1/2) to one
    # aspect or to none (1 + m choices), r(x, t) in 3 values: 3 (1 + m)^(n-1). m=1: 3 (1+2+4) = 21;
    # m=2: 3 (1+3+9) = 39. One mark at the end of the declared scope: max_prefix + 1 documents.
    assert layers(div.saturation_small_scope(Scope())) == [(60, (4, 4))]
    cases = list(cases_of(div.saturation_small_scope(Scope())))
    assert [len(c.topic.aspects) for c in cases] == [1] * 21 + [2] * 39
    assert {c.topic.r(d) for c in cases for d in c.a[:-1]} == {0, HALF}
    assert {c.topic.r("x") for c in cases} == {RHO, HALF, Fraction(1)}
    assert {c.topic.r(c.a[-1], "t1") for c in cases} == {Fraction(1)}  # rmax


def test_sat_note_names_d_n_rmax_and_x():
    case = list(cases_of(div.saturation_small_scope(Scope(rmax=Fraction(3, 4)))))[1]
    assert case.a == ("d1",) and case.b == ("d1", "x")  # one aspect, a = (d_n), r(x) = 1/2 (second value)
    assert case.note == "b = a + x; the last document of a, d1, has r(d1, t1) = rmax = 3/4; x is relevant (1/2) to t1 only"


def test_sat_small_scope_with_room_for_one_document():
    # A window of 2: a = (d1), b = (d1, x): 3 cases on one aspect, 3 on two, then the mark.
    assert layers(div.saturation_small_scope(Scope(max_position=2))) == [(6, (2, 2))]
    assert layers(div.saturation_small_scope(Scope(max_position=1))) == []


def test_sat_small_scope_grows_one_length_at_a_time_inside_the_window():
    # max_position 5: a may have 4 documents (x at 5). Declared: max_prefix 3 (60 cases, mark 4).
    # Growth: n = 4: 3 * 2^3 + 3 * 3^3 = 24 + 81 = 105 cases, mark (5, declared 4); n = 5 would put
    # x at 6: the end.
    items = list(div.saturation_small_scope(Scope(max_position=5, grow=True)))
    assert layers(items) == [(60, (4, 4)), (105, (5, 4))]
    grown = list(cases_of(items))[60:]
    assert [len(c.topic.aspects) for c in grown] == [1] * 24 + [2] * 81
    assert all(len(c.a) == 4 and c.changed == (5,) for c in grown)


def test_sat_small_scope_grows_without_end_without_a_window():
    counts = layers(div.saturation_small_scope(Scope(grow=True), max_prefix=1), stop_after=3)
    # n = 1: 3 + 3; n = 2: 3 * 2 + 3 * 3 = 15; n = 3: 3 * 4 + 3 * 9 = 39.
    assert counts == [(6, (2, 2)), (15, (3, 2)), (39, (4, 2))]


# -- AspRel ----------------------------------------------------------------------

def test_asprel_small_scope_counts_and_weights():
    # Settings: two aspects either way round (others: none relevant, 1 choice), three aspects
    # (others: none or t3, 2 choices); n positions for x; 2 values: 2n (1 + 1 + 2^(n-1)).
    assert layers(div.aspect_relevance_small_scope(Scope())) == [(6, (1, 3)), (16, (2, 3)), (36, (3, 3))]
    cases = list(cases_of(div.aspect_relevance_small_scope(Scope())))
    third = Fraction(1, 3)
    assert {c.topic.weights for c in cases} == {(third, 2 * third), (2 * third, third),
                                                (Fraction(1, 4), HALF, Fraction(1, 4))}
    assert {c.topic.r("x") for c in cases} == {RHO, HALF}
    assert {c.topic.r(d, "t3") for c in cases if len(c.topic.aspects) == 3 for d in c.a if d != "x"} == {0, RHO}


def test_asprel_note():
    (case,) = [c for c in cases_of(div.aspect_relevance_small_scope(Scope(), max_docs=1))
               if c.topic.weights == (Fraction(2, 3), Fraction(1, 3)) and c.topic.r("x") == HALF]
    assert case.a == ("x",) and case.b == ("y",)
    assert case.note == ("b = a with x replaced by y at position 1; r(x, t2) = r(y, t1) = 1/2, "
                         "w(t1) = 2/3 > w(t2) = 1/3; no other document is relevant to either")


# -- weights of the random search --------------------------------------------------

@settings(max_examples=60, database=None, derandomize=True)
@given(data=st.data())
def test_free_weights_are_parts_one_to_three_on_every_aspect(data):
    """AspDiv and Sat assume nothing about weights: parts 1..3 per aspect, one part per aspect."""
    for strategy in (div.aspect_diversity_cases, div.saturation_cases):
        case = data.draw(strategy(Scope()))
        weights = case.topic.weights
        assert len(weights) == len(case.topic.aspects) == len(case.topic.vector(case.a[-1]))
        assert max(weights) / min(weights) <= 3
        assert len(weights) <= 3  # two or three aspects (Sat: one to three)


@pytest.mark.parametrize("strategy", [div.aspect_diversity_cases, div.saturation_cases])
def test_free_weights_reach_the_extremes_three_to_one_and_one_to_one(strategy):
    ratio = lambda c: max(c.topic.weights) / min(c.topic.weights)  # noqa: E731
    assert ratio(find(strategy(Scope()), lambda c: len(c.topic.aspects) == 2 and ratio(c) == 3,
                      settings=FIND)) == 3
    balanced = find(strategy(Scope()), lambda c: len(c.topic.aspects) == 2, settings=FIND)
    assert balanced.topic.weights == (HALF, HALF)  # shrinks to balanced

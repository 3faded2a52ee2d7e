"""The diversity case generators (AspDiv, Red, MRed, Sat, AspRel).

Each generator must (1) build cases that meet its constraint's conditions,
checked by an independent predicate from :mod:`axiometer.axioms.constraints.conditions`
on every hypothesis case and every small-scope case, in several scopes;
(2) name documents readably (``d1, d2, ...`` in ranking order, then the
construction's own ``d3'``, ``x``, ``y``, ``u1``); (3) reach the cases that
separate metrics (a later document on a raised aspect, both aspects filled
with ``rc = 1/2``, an unretrieved relevant document), so a constraint cannot
pass only because its generator never builds the hard case. The predicates
themselves must reject broken cases, or (1) would prove nothing.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings, strategies as st

from axiometer.axioms.constraints.conditions import (aspect_diversity_case, aspect_relevance_case,
                                         monotonic_redundancy_case, redundancy_case,
                                         relevant_aspects, saturation_case)
from axiometer.core import Ranking
from axiometer.generators import diversity as div
from axiometer.generators.building import positive_levels
from axiometer.generators.case import Case, Scope, ScopeMark, cases_of

GENERATORS = {
    "AspDiv": (div.aspect_diversity_cases, div.aspect_diversity_small_scope, aspect_diversity_case),
    "Red": (div.redundancy_cases, div.redundancy_small_scope, redundancy_case),
    "MRed": (div.monotonic_redundancy_cases, div.monotonic_redundancy_small_scope,
             monotonic_redundancy_case),
    "Sat": (div.saturation_cases, div.saturation_small_scope, saturation_case),
    "AspRel": (div.aspect_relevance_cases, div.aspect_relevance_small_scope, aspect_relevance_case),
}

SCOPES = [
    Scope(),
    Scope(max_position=2),
    Scope(max_position=3, max_docs=5),
    Scope(later_untouched=True),
    Scope(values_within_rho=True),
    Scope(rho=Fraction(1, 100)),
    Scope(rmax=Fraction(3, 4)),
    Scope(rmax=Fraction(1, 2), values_within_rho=True),
]

scopes = st.builds(
    Scope,
    max_position=st.sampled_from([None, 2, 3, 10]),
    rho=st.sampled_from([Fraction(1, 10), Fraction(1, 50)]),
    rmax=st.sampled_from([None, *[Fraction(v) for v in ("1", "99/100", "9/10", "3/4", "1/2")]]),
    max_docs=st.integers(2, 8),
    later_untouched=st.booleans(),
    values_within_rho=st.booleans(),
)

SEARCH = settings(max_examples=500, database=None, deadline=None, derandomize=True,
                  phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck))


# -- (1) conditions hold by construction -----------------------------------------

@pytest.mark.parametrize("name", GENERATORS)
@given(data=st.data())
def test_every_generated_case_meets_the_conditions(name, data):
    strategy, _, meets = GENERATORS[name]
    scope = data.draw(scopes, label="scope")
    case = data.draw(strategy(scope), label="case")
    assert meets(case, scope)


@pytest.mark.parametrize("name", GENERATORS)
@pytest.mark.parametrize("scope", SCOPES, ids=repr)
def test_every_small_scope_case_meets_the_conditions(name, scope):
    _, small_scope, meets = GENERATORS[name]
    cases = list(cases_of(small_scope(scope)))
    assert cases, "an empty small scope checks nothing"
    bad = [case for case in cases if not meets(case, scope)]
    assert not bad, bad[0]


@pytest.mark.parametrize("name", GENERATORS)
def test_small_scopes_list_distinct_cases(name):
    _, small_scope, _ = GENERATORS[name]
    keys = [(case.topic, case.a, case.b) for case in cases_of(small_scope(Scope()))]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("name", GENERATORS)
def test_a_cutoff_of_one_leaves_only_cases_that_change_position_one(name):
    # Red, MRed and Sat change the position after a non-empty prefix: nothing fits k = 1.
    _, small_scope, meets = GENERATORS[name]
    scope = Scope(max_position=1)
    cases = list(cases_of(small_scope(scope)))
    assert all(case.changed == (1,) and meets(case, scope) for case in cases)
    assert bool(cases) == (name in ("AspDiv", "AspRel"))


# -- (2) readable cases --------------------------------------------------------

def _ranked(case: Case) -> list[str]:
    new = {"x", "y"} | {d for d in case.b if d.endswith("'")}
    return [d for d in case.a if d not in new]


@pytest.mark.parametrize("name", GENERATORS)
@given(data=st.data())
def test_documents_are_named_in_ranking_order(name, data):
    strategy, _, _ = GENERATORS[name]
    case = data.draw(strategy(Scope()))
    ranked = _ranked(case)
    positions = [case.a.index(d) + 1 for d in ranked]
    assert ranked == [f"d{p}" for p in positions]
    extra = set(case.topic.documents) - set(case.a) - set(case.b)
    assert all(d.startswith("u") for d in extra)  # only unretrieved judged documents


def test_aspdiv_names_the_replacement_after_the_replaced_document():
    case = next(iter(cases_of(div.aspect_diversity_small_scope(Scope()))))
    (i,) = case.changed
    assert case.b[i - 1] == f"{case.a[i - 1]}'"


@pytest.mark.parametrize("name, minimal_a", [("Red", ("d1", "x")), ("MRed", ("d1", "x")),
                                             ("Sat", ("d1",)), ("AspRel", ("x",))])
def test_the_simplest_case_is_tiny(name, minimal_a):
    # Shrinking towards "any case" lands on the smallest the constraint allows.
    strategy, _, _ = GENERATORS[name]
    case = find(strategy(Scope()), lambda c: True, settings=SEARCH)
    assert tuple(case.a) == minimal_a
    assert len(case.topic.aspects) == (1 if name == "Sat" else 2)
    values = {r for d in case.topic.documents for r in case.topic.vector(d) if r > 0}
    assert values <= {Fraction(1, 10), Fraction(1)}


# -- (3) the hard cases are reachable -----------------------------------------------

def _later_on_raised_aspect(case: Case) -> bool:
    (i,) = case.changed
    old, new = case.topic.vector(case.a[i - 1]), case.topic.vector(case.b[i - 1])
    raised = [t for t, (n, o) in enumerate(zip(new, old)) if n > o]
    return any(case.topic.vector(d)[t] > 0 for d in case.a[i:] for t in raised)


def test_aspdiv_builds_later_documents_on_the_raised_aspect_unless_told_not_to():
    found = find(div.aspect_diversity_cases(Scope()), _later_on_raised_aspect, settings=SEARCH)
    assert len(found.a) == 2  # shrunk: the replaced document, then one on its aspect
    assert any(_later_on_raised_aspect(c) for c in cases_of(div.aspect_diversity_small_scope(Scope())))
    assert not any(_later_on_raised_aspect(c)
                   for c in cases_of(div.aspect_diversity_small_scope(Scope(later_untouched=True))))


def test_aspdiv_gains_can_be_a_hundred_times_smaller_than_a_later_value():
    scope = Scope()

    def tiny_gain(case: Case) -> bool:
        (i,) = case.changed
        old, new = case.topic.vector(case.a[i - 1]), case.topic.vector(case.b[i - 1])
        return any(n - o == scope.rho / 100 for n, o in zip(new, old)) and _later_on_raised_aspect(case)

    assert any(tiny_gain(c) for c in cases_of(div.aspect_diversity_small_scope(scope)))
    assert find(div.aspect_diversity_cases(scope), tiny_gain, settings=SEARCH)


def _filled(case: Case) -> bool:
    """Red: both x's and y's aspects already hold relevance >= 1 in the prefix."""
    topic = case.topic
    (t,), (t2,) = relevant_aspects(topic, case.a[-1]), relevant_aspects(topic, case.b[-1])
    return all(sum(topic.vector(d)[aspect] for d in case.a[:-1]) >= 1 for aspect in (t, t2))


def test_red_reaches_prefixes_that_fill_both_aspects():
    # What separates a saturating metric (CT): rc = 1/2, t covered 3 times, t' twice.
    assert any(_filled(c) for c in cases_of(div.redundancy_small_scope(Scope())))
    assert find(div.redundancy_cases(Scope()), _filled, settings=SEARCH)
    assert not any(_filled(c) for c in cases_of(div.redundancy_small_scope(Scope(values_within_rho=True))))


@pytest.mark.parametrize("name", ["Red", "MRed"])
def test_red_and_mred_topics_may_judge_unretrieved_documents(name):
    strategy, small_scope, _ = GENERATORS[name]

    def unretrieved_on_y_aspect(case: Case) -> bool:
        (t2,) = relevant_aspects(case.topic, case.b[-1])
        return any(d.startswith("u") and case.topic.vector(d)[t2] > 0 for d in case.topic.documents)

    assert any(unretrieved_on_y_aspect(c) for c in cases_of(small_scope(Scope())))
    assert find(strategy(Scope()), unretrieved_on_y_aspect, settings=SEARCH)


def test_mred_prefixes_may_be_relevant_to_both_aspects():
    # What separates counting redundancy (alpha-nDCG) from graded redundancy (ERR-IA).
    def both(case: Case) -> bool:
        return any(len(relevant_aspects(case.topic, d)) == 2 for d in case.a[:-1])

    assert any(both(c) for c in cases_of(div.monotonic_redundancy_small_scope(Scope())))
    assert find(div.monotonic_redundancy_cases(Scope()), both, settings=SEARCH)


@pytest.mark.parametrize("rmax", [Fraction(1), Fraction(9, 10), Fraction(1, 2)])
def test_sat_puts_rmax_on_the_last_document_only_there(rmax):
    scope = Scope(rmax=rmax, values_within_rho=True)
    for case in cases_of(div.saturation_small_scope(scope)):
        last = case.a[-1]
        assert max(case.topic.vector(last)) == rmax
        assert all(r <= scope.rho for d in case.topic.documents if d != last
                   for r in case.topic.vector(d))


def test_red_draws_rc_above_rho_unless_values_stay_within_rho():
    def rc(case: Case) -> Fraction:
        return case.topic.r(case.a[-1])

    assert find(div.redundancy_cases(Scope()), lambda c: rc(c) > Fraction(1, 10), settings=SEARCH)
    assert {rc(c) for c in cases_of(div.redundancy_small_scope(Scope(values_within_rho=True)))} <= \
        set(positive_levels(Fraction(1, 10)))


def test_asprel_weights_differ_in_the_right_direction_and_vary():
    seen = set()
    for case in cases_of(div.aspect_relevance_small_scope(Scope())):
        (i,) = case.changed
        (t,), (t2,) = (relevant_aspects(case.topic, case.a[i - 1]),
                       relevant_aspects(case.topic, case.b[i - 1]))
        assert case.topic.weights[t2] > case.topic.weights[t]
        seen.add((t, t2))
    assert seen == {(0, 1), (1, 0)}  # the heavier aspect is not always the second


# -- the predicates reject broken cases ---------------------------------------------

def _swapped(case: Case) -> Case:
    return replace(case, a=case.b, b=case.a)


@pytest.mark.parametrize("name", ["AspDiv", "Red", "MRed", "AspRel"])
def test_predicates_reject_the_reversed_case(name):
    # b built from a the other way round breaks each of these constraints' premises.
    _, small_scope, meets = GENERATORS[name]
    case = next(iter(cases_of(small_scope(Scope()))))
    assert meets(case, Scope()) and not meets(_swapped(case), Scope())


@pytest.mark.parametrize("name", GENERATORS)
def test_predicates_reject_a_change_outside_the_window(name):
    _, small_scope, meets = GENERATORS[name]
    case = max(cases_of(small_scope(Scope())), key=lambda c: c.changed)
    (position,) = case.changed
    assert position >= 2 and not meets(case, Scope(max_position=position - 1))


def test_predicates_reject_broken_conditions():
    scope = Scope()
    aspdiv = next(iter(cases_of(div.aspect_diversity_small_scope(scope))))
    assert not aspect_diversity_case(aspdiv, Scope(rho=Fraction(1, 10 ** 4)))  # values above rho
    red = next(iter(cases_of(div.redundancy_small_scope(scope))))
    assert not redundancy_case(replace(red, changed=(1,)), scope)  # wrong changed position
    too_long = Case(red.topic, Ranking((*red.a, "z")), red.b, red.changed, red.note)
    assert not redundancy_case(too_long, scope)
    sat = next(iter(cases_of(div.saturation_small_scope(Scope(rmax=Fraction(1))))))
    assert not saturation_case(sat, Scope(rmax=Fraction(9, 10)))  # d_n does not hold rmax
    assert not saturation_case(replace(sat, b=sat.a, changed=(len(sat.a),)), scope)  # nothing appended


# The diversity small scopes, pinned: what each one enumerates (the counts follow from its docstring,
# computed by hand below), how its layers and marks run (with and without ``grow``), and the notes the
# cases carry. Issue 14: the mutation run of ``axiometer.generators.diversity`` found these unpinned.

RHO = Fraction(1, 10)
HALF = Fraction(1, 2)


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
                     lambda c: len(c.topic.aspects) == m and c.topic.r("x", aspect) > 0, settings=SEARCH)
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
    found = find(div.monotonic_redundancy_cases(Scope()), lambda c: c.topic.r("x", "t2") > 0, settings=SEARCH)
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
                      settings=SEARCH)) == 3
    balanced = find(strategy(Scope()), lambda c: len(c.topic.aspects) == 2, settings=SEARCH)
    assert balanced.topic.weights == (HALF, HALF)  # shrinks to balanced

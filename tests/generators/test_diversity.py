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
from axiometer.generators.case import Case, Scope, cases_of

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

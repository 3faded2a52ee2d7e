"""What a satisfied or witness verdict rests on: ``Check.evidence`` (issue 11).

Every satisfied and witness check states the exhaustive scope it covered,
the number of small-scope and random cases, and whether every decision was
exact; violated checks carry none. The strength is ``exhaustive`` when the
constraint's whole declared small scope was decided (grown past it as far as
the small-scope budget allows), ``searched`` when the budget stopped the
enumeration inside it, ``sampled`` without a small scope. The small scopes
yield a :class:`~axiometer.generators.case.ScopeMark` after each complete
layer; with ``Scope.grow`` they continue past the declared scope without
changing a case of it.

These tests pin down the search's evidence, so every check here runs without proofs
(``proof_docs=0``); what a proof adds is tested in tests/checking/test_prove.py.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from axiometer.axioms import get
from axiometer.axioms.constraints.threshold import threshold_grid
from axiometer.checking import Budget
from axiometer.checking import check as check_with_proofs
from axiometer.core import Context, Topic
from axiometer.generators import diversity as div
from axiometer.generators import relative as rel
from axiometer.generators import relevance as relv
from axiometer.generators.case import Scope, ScopeMark, case_size, cases_of
from axiometer.metrics import BuiltinMetric, Needs, parse, wrap
from axiometer.metrics.arithmetic import Arithmetic
from axiometer.results import STRENGTHS, Strength


def check(metric: Any, oracle: Any, **options: Any) -> Any:
    """The check as the search alone decides it (its budget with ``proof_docs=0``)."""
    budget = options.pop("budget", Budget())
    return check_with_proofs(metric, oracle, budget=dataclasses.replace(budget, proof_docs=0), **options)

#: Each small scope with the size (documents of the larger ranking) its declared scope ends at.
SMALL_SCOPES = {
    "Pri": (relv.priority_small_scope, 4),
    "Deep": (relv.deepness_small_scope, 6),
    "Conf": (relv.confidence_small_scope, 4),
    "AspDiv": (div.aspect_diversity_small_scope, 3),
    "Red": (div.redundancy_small_scope, 6),
    "MRed": (div.monotonic_redundancy_small_scope, 4),
    "Sat": (lambda scope: div.saturation_small_scope(scope.with_(rmax=Fraction(1))), 4),
    "AspRel": (div.aspect_relevance_small_scope, 3),
    "relative": (rel.relative_small_scope, 3),
    "Rarity": (rel.rarity_small_scope, 3),
    "PriorSens": (lambda scope: rel.prior_move_small_scope(scope, deeper=False), 3),
    "PriorMono": (lambda scope: rel.prior_move_small_scope(scope, deeper=True), 3),
}


class AspectSum(BuiltinMetric):
    """``sum_i (1/i) sum_t w(t) r(d_i, t)``, exact: raising any aspect of any document raises it,
    so it satisfies AspDiv (and Pri on one aspect)."""

    family = "AspectSum"
    title = "AspectSum"
    needs = Needs(aspects=True, graded=True)

    def __init__(self) -> None:
        super().__init__(None)
        self.name = "AspectSum"

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Any:
        total = A.zero
        for i, doc in enumerate(ranking, 1):
            for weight, r in zip(topic.weights, topic.vector(doc)):
                total = total + A.num(Fraction(1, i)) * A.num(weight) * A.num(r)
        return total


def harmonic_float(ranking, topic) -> float:
    """A metric author's float-only function: ``sum_i r(d_i) / i`` (satisfies Pri)."""
    return sum(float(topic.r(doc)) / i for i, doc in enumerate(ranking, 1))


# -- strengths --------------------------------------------------------------------------------------

def test_a_metric_satisfying_pri_rests_on_its_whole_declared_scope():
    result = check(parse("RBP(p=0.8)"), get("Pri"))
    evidence = result.evidence
    assert result.verdict == "satisfied" and evidence is not None
    assert evidence.strength == "exhaustive" and evidence.exact
    # The declared scope: two and three documents over four levels, four over three; then growth.
    assert evidence.exhaustive_scope.startswith(
        "every case of up to 4 documents (the declared scope), 240 cases: 2-3 documents over "
        "relevance values {0, 1/50, 1/20, 1/10}, 4 over {0, 1/20, 1/10}; 1 aspect; "
        "then 160 cases of 5 documents")
    assert evidence.exhaustive_cases == result.small_scope == 400
    assert evidence.random_cases == result.cases == 1500  # the default budget


def test_a_violated_check_carries_no_evidence():
    result = check(parse("P@10"), get("Pri"))
    assert result.verdict == "violated" and result.evidence is None


def test_aspdiv_on_a_satisfying_metric_is_searched_its_declared_scope_exceeds_the_budget():
    result = check(AspectSum(), get("AspDiv"))
    evidence = result.evidence
    assert result.verdict == "satisfied" and evidence is not None
    assert evidence.strength == "searched" and evidence.exact
    # 27 cases of one document, 216 of two: complete; the 1296 of three are cut at 400 in all.
    assert evidence.exhaustive_scope == (
        "every case of up to 2 documents (declared scope: up to 3), 243 cases: 1-2 documents over "
        "relevance values {0, 1/1000, 1/10}; 2 aspects; then 157 cases of 3 documents "
        "(the budget of 400 small-scope cases stopped it)")
    assert (evidence.exhaustive_cases, evidence.random_cases) == (400, result.cases)


def test_the_same_aspdiv_check_is_exhaustive_when_the_budget_covers_the_declared_scope():
    result = check(AspectSum(), get("AspDiv"), budget=Budget(cases=10, small_scope=1539))
    assert result.evidence is not None and result.evidence.strength == "exhaustive"
    assert result.evidence.exhaustive_scope.startswith(
        "every case of up to 3 documents (the declared scope), 1539 cases")


def test_a_constraint_without_a_small_scope_is_sampled():
    no_small_scope = dataclasses.replace(get("Pri"), id="PriSampled", small_scope=None)
    result = check(parse("RBP(p=0.8)"), no_small_scope, budget=Budget(cases=30))
    evidence = result.evidence
    assert result.verdict == "satisfied" and result.small_scope == 0 and evidence is not None
    assert evidence.strength == "sampled" and evidence.exhaustive_cases == 0
    assert evidence.random_cases == result.cases == 30
    assert evidence.exhaustive_scope == "none: no small scope"


def test_a_float_only_function_is_not_exact():
    result = check(wrap(harmonic_float), get("Pri"), budget=Budget(cases=20))
    assert result.verdict == "satisfied" and not result.exact
    assert result.evidence is not None and result.evidence.exact is False
    assert result.evidence.strength == "exhaustive"


def test_a_small_scope_stopped_by_the_time_budget_says_so():
    def slow(ranking, topic):
        time.sleep(0.005)
        return harmonic_float(ranking, topic)

    result = check(wrap(slow), get("Pri"), budget=Budget(cases=2, seconds=0.3))
    assert result.verdict == "satisfied"
    assert "small scope stopped by the time budget (0.3 s) after" in result.note
    assert 0 < result.small_scope < 240
    assert result.evidence is not None and result.evidence.strength == "searched"
    assert result.evidence.exhaustive_scope.endswith("(the time budget stopped it)")


# -- growth -------------------------------------------------------------------------------------------

def test_growth_reaches_as_far_as_the_small_scope_budget():
    # Conf: a over {0, 1/50, 1/20, 1/10}: 1 + 4 + 16 + 64 = 85 declared cases (b of up to 4
    # documents), then 256 with five, 1024 with six; 1400 cases reach six and 35 of seven.
    metric = parse("RBU(p=0.8,e=0.05)@10")
    grown = check(metric, get("Conf"), budget=Budget(cases=10, small_scope=1400))
    assert grown.verdict == "satisfied" and grown.small_scope == 1400
    assert grown.evidence is not None and grown.evidence.strength == "exhaustive"
    assert grown.evidence.exhaustive_scope == (
        "every case of up to 6 documents (declared scope: up to 4), 1365 cases: 1 document over "
        "relevance values {0}, 2-6 over {0, 1/50, 1/20, 1/10}; 1 aspect; then 35 cases of 7 documents "
        "(the budget of 1400 small-scope cases stopped the growth)")
    default = check(metric, get("Conf"))
    assert default.evidence is not None
    assert default.evidence.exhaustive_scope.startswith(
        "every case of up to 5 documents (declared scope: up to 4), 341 cases")


def test_growth_stops_at_the_window():
    # Red's changed position len(P) + 1 stays inside the window k = 4: prefixes of up to 3, the
    # whole scope in 60 cases (declared max_prefix 5 is cut by the window, so nothing grows).
    result = check(parse("ERR_IA@4"), get("Red"))
    assert result.verdict == "satisfied" and result.small_scope == 84
    assert result.evidence is not None
    assert result.evidence.exhaustive_scope == (
        "every case of up to 4 documents (the declared scope), 84 cases: 2-4 documents over relevance "
        "values {0, 1/10, 1/2}; 2 aspects")


@pytest.mark.parametrize("name", sorted(SMALL_SCOPES))
@pytest.mark.parametrize("scope", [Scope(), Scope(max_position=3), Scope(max_position=1)],
                         ids=["no window", "k=3", "k=1"])
def test_a_grown_small_scope_starts_with_the_declared_one_in_order(name, scope):
    small_scope, declared = SMALL_SCOPES[name]
    finite = list(small_scope(scope))
    grown = list(itertools.islice(small_scope(scope.with_(grow=True)), len(finite) + 2000))
    assert grown[:len(finite)] == finite  # cases and marks alike
    cases = list(cases_of(finite))
    marks = [item for item in finite if isinstance(item, ScopeMark)]
    if cases:
        assert marks and marks[-1].declared and marks[-1].docs <= declared
        assert all(case_size(case) <= marks[-1].docs for case in cases)
    # Every mark is true: the cases before it are no larger, and none after it is as small.
    for position, item in enumerate(grown):
        if isinstance(item, ScopeMark):
            before = list(cases_of(grown[:position]))
            after = list(cases_of(grown[position + 1:]))
            assert all(case_size(case) <= item.docs for case in before)
            assert all(case_size(case) > item.docs for case in after)
            assert item.declared == (item.docs == marks[-1].docs)


def test_grown_layers_are_larger_cases_of_the_same_construction():
    grown = []
    for item in relv.priority_small_scope(Scope(grow=True)):
        grown.append(item)
        if isinstance(item, ScopeMark) and item.docs == 6:
            break
    marks = [item.docs for item in grown if isinstance(item, ScopeMark)]
    assert marks == [2, 3, 4, 5, 6]
    assert [mark.declared for mark in grown if isinstance(mark, ScopeMark)] == [False, False, True, False, False]
    fifth = [case for case in cases_of(grown) if case_size(case) == 5]
    assert fifth and all(set(case.topic.relevance_values()) <= {0, Fraction(1, 20), Fraction(1, 10)}
                         for case in fifth)


def test_the_axioms_listing_keeps_the_finite_declared_scope():
    from axiometer.cli.axioms import _cases

    titles = [title for title, *_ in _cases(get("AspRel"), [parse("P_IA@10")])]
    assert len(titles) == 58 and titles[-1] == "case 58 of the small scope"


# -- witnesses ----------------------------------------------------------------------------------------

def test_a_threshold_witness_rests_on_the_whole_grid():
    result = check(parse("RBP(p=0.8)"), get("DeepTh"))
    evidence = result.evidence
    assert result.verdict == "witness" and evidence is not None
    assert evidence.strength == "exhaustive" and evidence.random_cases == 0 and evidence.exact
    assert evidence.exhaustive_scope == ("n on the grid 1..32, 64, 128, ..., 1024 "
                                         "for rc in {1/100, 1/20, 1/10}")
    assert evidence.exhaustive_cases == len(threshold_grid(1024)) * 3 == 111


def test_a_threshold_witness_in_window_mode_names_the_cut_grid():
    result = check(parse("P@10"), get("CloseTh"), mode="window")
    assert result.verdict == "witness" and result.evidence is not None
    assert result.evidence.exhaustive_scope == ("m on the grid 1..5 (2m <= k = 10) "
                                                "for rc in {1/100, 1/20, 1/10}")
    assert result.evidence.exhaustive_cases == 15


def test_sat_witness_rests_on_the_search_behind_its_rmax():
    result = check(parse("ERR_IA@10"), get("Sat"))
    evidence = result.evidence
    assert result.verdict == "witness" and result.witness.value == "rmax = 1" and evidence is not None
    assert evidence.strength == "exhaustive"
    assert evidence.exhaustive_scope.startswith(
        "rmax = 1: every case of up to 5 documents (declared scope: up to 4), 165 cases")
    assert evidence.exhaustive_cases == result.small_scope == 400  # rmax = 1 held: one search


def test_a_violated_sat_carries_no_evidence():
    result = check(parse("RBP(p=0.8)"), get("Sat"))
    assert result.verdict == "violated" and result.evidence is None


# -- the relative properties ----------------------------------------------------------------------------

def test_a_satisfied_property_states_its_scope():
    result = check(parse("RareP(alpha=0.5)@10"), get("Rarity"))
    evidence = result.evidence
    assert result.verdict == "satisfied" and evidence is not None and evidence.strength == "exhaustive"
    assert evidence.exhaustive_scope.startswith(
        "every case of up to 3 documents (the declared scope), 238 cases")


def test_a_property_with_several_claims_adds_them_up():
    result = check(parse("RareAP(alpha=0.5)@10"), get("Bounded"))
    evidence = result.evidence
    assert result.verdict == "satisfied" and evidence is not None
    assert evidence.exhaustive_scope.startswith("each of 2 claims: every case of up to 4 documents")
    # The extremes (rankings filling the cutoff and one more) come first: counted, and said.
    assert "and 30 cases of 10-11 documents" in evidence.exhaustive_scope
    assert (evidence.exhaustive_cases, evidence.random_cases) == (result.small_scope, result.cases)


def test_an_existential_witness_is_one_concrete_case():
    result = check(parse("NRG(base=nDCG@10)"), get("PriorSens"))
    assert result.verdict == "witness" and result.evidence is not None
    assert result.evidence.strength == "exhaustive"
    assert result.evidence.exhaustive_scope == "a concrete witness case settles it: small-scope case 1"


# -- the strength as data -------------------------------------------------------------------------------

def test_the_strength_is_a_strength_member_strongest_first():
    assert STRENGTHS == (Strength.PROVED, Strength.EXHAUSTIVE, Strength.SEARCHED, Strength.SAMPLED)
    threshold = check(parse("RBP(p=0.8)"), get("DeepTh")).evidence
    no_small_scope = dataclasses.replace(get("Pri"), id="PriSampled", small_scope=None)
    sampled = check(parse("RBP(p=0.8)"), no_small_scope, budget=Budget(cases=5)).evidence
    assert threshold is not None and threshold.strength is Strength.EXHAUSTIVE
    assert sampled is not None and sampled.strength is Strength.SAMPLED

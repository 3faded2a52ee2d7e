"""The property check itself (axioms/properties/base.py), on a hand-declared property whose judge and
cases are written here, so that every verdict, count, note and field of the Check is known in advance
(issue 14). The engine's real :class:`~axiometer.checking.search.Search` runs the small scope; a
subclass records the seeds asked for.

The toy property "Toy" has a small scope of listed cases told apart by their notes ("n1", "n2", ...),
claims "c1", "c2", "c3" and a judge that follows a table: what each claim does on each case (holds,
fails, is undefined, raises).
"""

from __future__ import annotations

import copy
import dataclasses
from fractions import Fraction

import pytest
from hypothesis import strategies as st

from axiometer.axioms.oracle import ScopeReach, SearchResult
from axiometer.axioms.properties import base
from axiometer.axioms.properties.base import (Property, not_relative, register, registered_property,
                                              relative_window)
from axiometer.checking import Budget
from axiometer.checking.search import Search
from axiometer.core import Context, Ranking, Topic
from axiometer.generators.case import Case
from axiometer.metrics import Needs, adapt
from axiometer.metrics.base import UndefinedScore
from axiometer.metrics.decide import DEFAULT_TOLERANCE
from axiometer.results import AxiomInfo, Evidence, Outcome
from axiometer.axioms.constraints.base import counterexample

TOPIC = Topic.single({"d1": 1, "d2": 0})
TOL = 1e-6   # not the default tolerance, so that the Check shows which one it recorded


def make_case(note, a=("d1",), context=(("d2",),), context_b=None, b=None):
    ranking = Ranking(a)
    return Case(TOPIC, ranking, ranking if b is None else Ranking(b), (1,), note, Context(tuple(context)),
                None if context_b is None else Context(tuple(context_b)))


class Toy:
    """A relative metric by hand: Q = 1/2 in the first context, 1/4 in any other; ``exact`` on request."""

    needs = Needs(context=True)

    def __init__(self, exact=False, family="Toy", cutoff=2, base=None, raise_on_b=False):
        self.exact_available = exact
        if family is not None:
            self.family = family
        self.cutoff = cutoff
        self.base = base
        self.raise_on_b = raise_on_b
        self.params = {"w": 2}
        self.name = "Toy(w=2)"

    def score(self, ranking, topic, context=None):
        if self.raise_on_b and context is not None and context.rankings == (("d1",),):
            raise ValueError("b's context")
        return 0.5 if context is None or context.rankings == (("d2",),) else 0.25

    def exact(self, ranking, topic, context=None):
        return Fraction(self.score(ranking, topic, context))


class Recording(Search):
    def __init__(self, budget=Budget(cases=5, small_scope=50, seconds=5), reach_note=""):
        super().__init__(budget, 11, TOL)
        self.seeds, self.find_seeds, self.reach_note = [], [], reach_note

    def seed(self, *parts):
        self.seeds.append(parts)
        return super().seed(*parts)

    def find(self, small_scope, strategy, judge, is_target, seed):
        self.find_seeds.append(seed)
        found = super().find(small_scope, strategy, judge, is_target, seed)
        if self.reach_note and found.reach is not None:
            found = dataclasses.replace(found, reach=dataclasses.replace(found.reach, note=self.reach_note))
        return found


def judge_by_note(table):
    """A judge reading ``table[(claim, case.note)]``: "ok", "fail", "undefined" or "raise"."""
    def judge(metric, claim, case, tolerance):
        what = table.get((claim, case.note), "ok")
        if what == "undefined":
            raise UndefinedScore("undefined here")
        if what == "raise":
            raise ValueError(f"bad {case.note}")
        if what == "ok":
            return Outcome(True)
        return Outcome(False, counterexample(case, 1.0, 0.0, f"toy {claim}", exact=False))
    return judge


def prop(form="unary", table=(), notes=("n1", "n2", "n3"), claims=("c1", "c2", "c3"), named=True,
         strategy=None, small=True, **more):
    cases = [make_case(n) for n in notes]
    return Property(
        id="Toy", name="toy property", wording="the wording", source="here", form=form,
        applies=more.pop("applies", lambda metric: None), judge=judge_by_note(dict(table)),
        strategy=strategy, small_scope=(lambda scope: iter(cases)) if small else None,
        claims=lambda metric: claims,
        describe=(lambda claim: claim) if named else (lambda claim: ""), **more)


def run(p, metric=None, search=None, mode="truncate"):
    search = search or Recording()
    return p.check(adapt(metric or Toy()), search, mode=mode, rho=Fraction(1), rcs=(), scope_changes=None), search


# -- the Check's fields --------------------------------------------------------------------------------

def test_not_applicable_keeps_the_mode_and_records_the_metric():
    result, _ = run(prop(applies=lambda metric: "no toys here"))
    assert (result.verdict, result.note, result.mode, result.constraint) == ("n/a", "no toys here", "truncate", "Toy")
    assert (result.metric, result.params, result.cases, result.small_scope) == ("Toy(w=2)", (("w", 2),), 0, 0)
    # A float-only metric records the tolerance it was (not) decided with: the default one here.
    assert result.exact is False and result.tolerance == DEFAULT_TOLERANCE
    exact, _ = run(prop(applies=lambda metric: "no"), Toy(exact=True), mode=None)
    assert exact.exact is True and exact.tolerance is None and exact.mode == "window"  # the default mode


def test_a_metric_without_context_is_not_relative():
    class Plain:
        name, params = "P", {}

    assert not_relative(adapt(Plain())) == "not a relative metric (it takes no context)"
    assert not_relative(adapt(Toy())) is None
    result, _ = run(prop(), Plain())
    assert result.verdict == "n/a" and result.note == "not a relative metric (it takes no context)"


def test_relative_window_is_the_metric_cutoff_else_its_base_cutoff():
    class Bare:
        pass

    assert relative_window(adapt(Bare())) is None
    assert relative_window(adapt(Toy(cutoff=4))) == 4
    assert relative_window(adapt(Toy(cutoff=None, base=Toy(cutoff=5)))) == 5
    assert relative_window(adapt(Toy(cutoff=None, base=Bare()))) is None


def test_satisfied_every_claim_held_with_seeds_per_claim():
    search = Recording()
    result, _ = run(prop(), search=search)
    assert (result.verdict, result.mode, result.cases, result.small_scope) == ("satisfied", "truncate", 0, 9)
    assert result.note == "held: c1, c2, c3" and result.exact is False and result.tolerance == TOL
    assert search.seeds == [("Toy", "Toy", "0"), ("Toy", "Toy", "1"), ("Toy", "Toy", "2")]
    assert search.find_seeds == [search.seed(*parts) for parts in search.seeds[:3]]
    ev = result.evidence
    assert ev.strength == "exhaustive" and (ev.exhaustive_cases, ev.random_cases, ev.exact) == (9, 0, False)
    assert ev.exhaustive_scope.startswith("each of 3 claims: the whole small scope, 3 cases")


def test_the_seed_names_the_metric_when_it_has_no_family():
    search = Recording()
    run(prop(claims=(None,)), Toy(family=None), search)
    assert search.seeds == [("Toy(w=2)", "Toy", "0")]
    search = Recording()
    toy = Toy()
    toy.family = None
    run(prop(claims=(None,)), toy, search)
    assert search.seeds == [("Toy(w=2)", "Toy", "0")]


def test_satisfied_by_an_exact_metric_unnamed_claim():
    result, _ = run(prop(claims=(None,), named=False), Toy(exact=True))
    assert result.verdict == "satisfied" and result.note == "" and result.small_scope == 3
    assert result.exact is True and result.tolerance is None and result.evidence.exact is True
    assert result.evidence == Evidence("exhaustive", result.evidence.exhaustive_scope, 3, 0, True,
                                       small_scope_named=True)  # "the whole small scope, ..."


def test_a_search_without_a_small_scope_is_sampled():
    # One random case (hypothesis over a single case), no small scope: satisfied on 1 + 0 cases.
    p = prop(claims=(None,), named=False, small=False, strategy=lambda scope: st.just(make_case("r")))
    result, _ = run(p, search=Recording(Budget(cases=1, small_scope=50, seconds=5)))
    assert result.verdict == "satisfied" and result.small_scope == 0 and result.cases >= 1
    assert result.evidence.strength == "sampled"


def test_one_random_and_one_small_scope_case_are_cases():
    # cases == small == 1: still searched, not "no case fits".
    p = prop(claims=(None,), named=False, notes=("n1",), strategy=lambda scope: st.just(make_case("r")))
    result, _ = run(p, search=Recording(Budget(cases=1, small_scope=50, seconds=5)))
    assert result.verdict == "satisfied" and (result.cases, result.small_scope) == (1, 1)


def test_the_small_scope_stopping_early_is_noted_once():
    result, _ = run(prop(claims=("c1", "c2")), search=Recording(reach_note="stopped early"))
    assert result.verdict == "satisfied" and result.note == "held: c1, c2; stopped early"


def test_undefined_cases_are_skipped_and_counted_over_the_claims():
    table = {("c1", "n1"): "undefined", ("c2", "n1"): "undefined", ("c2", "n3"): "undefined"}
    result, _ = run(prop(table=table, claims=("c1", "c2")))
    assert result.verdict == "satisfied"
    assert result.note == "held: c1, c2; 3 case(s) skipped where the score is undefined (see Finite)"


# -- violated (universal, unary) -----------------------------------------------------------------------

def test_a_failing_claim_names_the_held_and_untried_claims():
    table = {("c2", "n2"): "fail", ("c1", "n1"): "undefined", ("c2", "n1"): "undefined"}
    result, _ = run(prop(table=table, claims=("c1", "c2", "c3", "c4")))
    assert (result.verdict, result.mode, result.small_scope, result.cases) == ("violated", "truncate", 5, 0)
    assert result.note == ("fails: c2; held: c1; not tried after the failure: c3, c4; found in the small "
                           "scope; 1 case(s) skipped where the score is undefined (see Finite)")
    assert result.counterexample.relation == "toy c2" and result.tolerance == TOL


def test_the_first_claim_failing_unnamed():
    result, _ = run(prop(table={(None, "n1"): "fail"}, claims=(None,), named=False))
    assert result.verdict == "violated" and result.note == "found in the small scope"
    result, _ = run(prop(table={("c1", "n2"): "fail"}, claims=("c1",)))
    assert result.note == "fails: c1; found in the small scope" and result.small_scope == 2


# -- error ---------------------------------------------------------------------------------------------

def test_a_raising_judge_is_an_error_naming_the_claim():
    result, _ = run(prop(table={("c2", "n3"): "raise"}))
    assert (result.verdict, result.mode, result.small_scope, result.cases) == ("error", "truncate", 6, 0)
    assert result.note == "claim: c2; found in the small scope" and result.tolerance == TOL
    assert result.error.message == "ValueError: bad n3 [context: (d2)]" and result.error.ranking == ("d1",)
    unnamed, _ = run(prop(table={(None, "n1"): "raise"}, claims=(None,), named=False))
    assert unnamed.verdict == "error" and unnamed.note == "found in the small scope"


def test_the_error_names_b_when_only_b_raises():
    # The judge raises; the metric scores a (in the context) but not b (in its own context).
    cases = [make_case("n1", context=(("d2",),), context_b=(("d1",),), b=("d2", "d1"))]
    p = Property(id="Toy", name="t", wording="w", source="s", form="universal", applies=lambda m: None,
                 judge=judge_by_note({(None, "n1"): "raise"}), small_scope=lambda scope: iter(cases))
    result, _ = run(p, Toy(raise_on_b=True))
    assert result.verdict == "error" and result.error.ranking == ("d2", "d1")
    assert result.error.message == "ValueError: bad n1 [context: (d2) | (d1)]"


# -- existential -------------------------------------------------------------------------------------

WITNESS_CASES = [make_case("n1"), make_case("n2"), make_case("moved", context_b=(("d1",),), b=("d1", "d2"))]


def existential(table, cases=WITNESS_CASES, strategy=None):
    def judge(metric, claim, case, tolerance):
        what = table.get(case.note, "same")
        if what == "undefined":
            raise UndefinedScore("undefined")
        if what == "changed":
            return Outcome(True)
        return Outcome(False, counterexample(case, 0.5, 0.5, "Q(b) != Q(a)", exact=False))
    return Property(id="ToyEx", name="t", wording="w", source="s", form="existential",
                    applies=lambda m: None, judge=judge, strategy=strategy,
                    small_scope=(lambda scope: iter(cases)) if cases is not None else None)


def test_a_witness_in_the_small_scope():
    result, _ = run(existential({"moved": "changed", "n1": "undefined"}))
    assert (result.verdict, result.mode, result.small_scope, result.cases) == ("witness", "truncate", 3, 0)
    assert result.note == "found in the small scope; 1 case(s) skipped where the score is undefined (see Finite)"
    assert result.tolerance == TOL
    # Q = 1/2 in the case's context (d2), 1/4 in b's (d1).
    assert result.witness.value == "Q 0.5 -> 0.25"
    assert result.witness.note == "a = ('d1',); moved; context (('d2',),) -> (('d1',),)"   # Q(a) -> Q(b)
    assert result.evidence == Evidence("exhaustive", "a concrete witness case settles it: small-scope case 3",
                                       3, 0, False, small_scope_named=True)
    assert result.small_scope_noted  # its note: "found in the small scope"
    exact, _ = run(existential({"moved": "changed"}), Toy(exact=True))
    assert exact.evidence.exact is True and exact.tolerance is None


def test_a_witness_in_the_random_search():
    p = existential({"moved": "changed"}, cases=WITNESS_CASES[:2],
                    strategy=lambda scope: st.just(WITNESS_CASES[2]))
    result, _ = run(p, search=Recording(Budget(cases=3, small_scope=50, seconds=5)))
    assert result.verdict == "witness" and result.small_scope == 2 and result.cases >= 1
    assert result.evidence.exhaustive_scope == (f"a concrete witness case settles it: random case "
                                                f"{result.cases}, after the 2 small-scope cases")
    assert (result.evidence.exhaustive_cases, result.evidence.random_cases) == (2, result.cases)


def test_an_error_re_scoring_the_witness():
    result, _ = run(existential({"moved": "changed"}), Toy(raise_on_b=True))
    assert (result.verdict, result.mode, result.small_scope, result.cases) == ("error", "truncate", 3, 0)
    assert result.note == "found in the small scope" and result.tolerance == TOL
    assert result.constraint == "ToyEx" and result.metric == "Toy(w=2)"
    # a scores in its context; b (in context (d1)) raises: the error names b, and both contexts.
    assert result.error.message == "ValueError: b's context [context: (d2) | (d1)]"
    assert result.error.ranking == ("d1", "d2")


def test_no_witness_is_a_search_result_with_the_first_case_judged():
    result, _ = run(existential({"n1": "undefined"}))
    assert (result.verdict, result.mode, result.small_scope, result.cases) == ("violated", "truncate", 3, 0)
    assert result.note == ("no case among 3 changed the score (a search result, not a proof); the "
                           "counterexample is the smallest case searched; 1 case(s) skipped where the "
                           "score is undefined (see Finite)")
    assert result.counterexample.context_a == (("d2",),) and result.tolerance == TOL
    assert result.counterexample.note == "n2"   # the first case judged (n1 was undefined)


def test_undefined_on_every_case_is_not_applicable():
    result, _ = run(existential({"n1": "undefined", "n2": "undefined", "moved": "undefined"}))
    assert (result.verdict, result.mode, result.small_scope, result.cases) == ("n/a", "truncate", 3, 0)
    assert result.note == ("the score is undefined on every searched case; 3 case(s) skipped where the "
                           "score is undefined (see Finite)")
    assert result.tolerance == TOL and result.constraint == "ToyEx" and result.metric == "Toy(w=2)"


@pytest.mark.parametrize("form", ["existential", "universal"])
def test_no_case_fits(form):
    p = dataclasses.replace(existential({}, cases=[]), form=form)
    result, _ = run(p, Toy(cutoff=None, base=Toy(cutoff=4)))
    assert (result.verdict, result.mode, result.constraint) == ("n/a", "truncate", "ToyEx")
    assert result.note == "no case of this property fits within the cutoff k = 4"
    assert (result.cases, result.small_scope, result.metric) == (0, 0, "Toy(w=2)")
    result, _ = run(p, Toy(cutoff=None))
    assert result.note == "no case of this property fits"


# -- the declaration -----------------------------------------------------------------------------------

def test_info_prefers_the_meaning_and_the_printed_relation():
    p = prop(meaning="a user loses X", relation="Q > 0", relation_text="Q > 0 always",
             expectation="should be positive", conditions=("relative metric", "toy"))
    assert p.info() == AxiomInfo(id="Toy", name="toy property", meaning="a user loses X",
                                 relation="Q > 0 always", conditions=("relative metric", "toy"),
                                 source="here", expectation="should be positive")
    bare = prop(relation="Q > 0")
    assert (bare.info().meaning, bare.info().relation) == ("the wording", "Q > 0")


def test_register_pickles_by_id_and_an_unregistered_property_copies_field_by_field():
    p = prop()
    assert copy.copy(p) == p
    try:
        assert register(p) is p and registered_property("Toy") is p
        assert p.__reduce_ex__(2) == (registered_property, ("Toy",))
    finally:
        base._REGISTERED.pop("Toy", None)

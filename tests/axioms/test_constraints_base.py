"""The constraint base (base.py): the n/a check, joined notes, and cases under generated contexts.

Pinned by hand: the exact n/a record a window too short for any case gives ("one clear line naming
what and where"), and the rule that a relative metric's every case, from the small scope and from
the random search, carries a context of other systems (definitions §6), disjoint from the case's
documents under the ``context_disjoint`` reading (issue 14).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import islice

import pytest
from hypothesis import find, given, settings

from axiometer.axioms import get
from axiometer.axioms.constraints.base import (A_GE_B, A_GT_B, B_GT_A, TRUNCATE_MAX_DOCS, Constraint,
                                               check_result, comparison_outcome, counterexample,
                                               is_relative, joined_note, no_case, params_of)
from axiometer.checking import Budget
from axiometer.checking.search import Search
from axiometer.core import Context, Topic
from axiometer.generators.case import Case, Scope
from axiometer.generators.context import OTHERS_ONLY
from axiometer.generators.draw import CaseStrategy
from axiometer.metrics import Needs, adapt, wrap
from axiometer.results import AxiomInfo, Check, ErrorInfo, Evidence, Outcome
from tests.axioms import uniform

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


RELATIVE_PRI = get("Pri").under_generated_contexts()


@settings(max_examples=10, database=None)
@given(RELATIVE_PRI.strategy(Scope(max_position=3)), RELATIVE_PRI.strategy(Scope(max_position=3,
                                                                                context_disjoint=True)))
def test_every_random_case_of_a_relative_check_has_a_context(case, disjoint_case):
    assert case.context is not None and len(case.context) >= 1
    # context_disjoint: the other systems retrieve only o1, o2.
    assert {d for r in disjoint_case.context.rankings for d in r} <= set(OTHERS_ONLY)


@pytest.mark.parametrize("plain", [False, True], ids=["fast draws", "a plain strategy function"])
def test_random_cases_under_contexts_built_in_the_test(plain):
    """under_generated_contexts called here, not at import (mutmut mutates only what runs inside a
    test): a CaseStrategy keeps its fast draws; a plain function of the scope (what a user's
    constraint may declare) is wrapped in hypothesis; both draw a context for every case, disjoint
    from the case's documents under ``context_disjoint``."""
    pri = get("Pri")
    if plain:
        pri = dataclasses.replace(pri, strategy=lambda scope, s=pri.strategy: s(scope))
    relative = pri.under_generated_contexts()
    assert isinstance(relative.strategy, CaseStrategy) is not plain
    for disjoint in (False, True):
        scope = Scope(max_position=3, context_disjoint=disjoint)
        case = find(relative.strategy(scope), lambda c: len(c.context) >= 2 and len(c.a) >= 2,
                    settings=settings(database=None, derandomize=True, max_examples=200))
        others = {d for r in case.context.rankings for d in r}
        if disjoint:
            assert others <= set(OTHERS_ONLY)
        else:
            assert others <= documents(case) | set(case.topic.documents)


def test_a_constraint_without_generators_stays_without_them_under_contexts():
    bare = dataclasses.replace(get("Pri"), strategy=None, small_scope=None).under_generated_contexts()
    assert bare.strategy is None and bare.small_scope is None


# -- the declaration: info, repr, relations --------------------------------------------------------



def test_info_prefers_the_declared_meaning_and_relation_text():
    sat = get("Sat")
    assert sat.info() == AxiomInfo(id="Sat", name="Aspect relevance saturation", meaning=sat.meaning,
                                   relation="Q(a) >= Q(b) on every case, for some rmax",
                                   conditions=("no aspect overlap",), source=sat.source,
                                   expectation=sat.expectation)
    bare = dataclasses.replace(sat, meaning="", relation_text="")
    assert (bare.info().meaning, bare.info().relation) == (sat.wording, "Q(a) >= Q(b)")
    assert repr(sat) == "<constraint Sat: Aspect relevance saturation>"


def test_the_relations_read_the_sign_of_q_b_minus_q_a():
    assert [B_GT_A.holds(s) for s in (-1, 0, 1)] == [False, False, True]
    assert [A_GT_B.holds(s) for s in (-1, 0, 1)] == [True, False, False]
    assert [A_GE_B.holds(s) for s in (-1, 0, 1)] == [True, True, False]
    assert (B_GT_A.text, A_GT_B.text, A_GE_B.text) == ("Q(b) > Q(a)", "Q(a) > Q(b)", "Q(a) >= Q(b)")


def test_relative_and_params_are_read_off_the_metric():
    assert is_relative(wrap(lambda ranking, topic, context=None: 0.0, needs=Needs(context=True)))
    assert not is_relative(wrap(lambda ranking, topic: 0.0))
    assert not is_relative(adapt(object()))  # an object declaring nothing: the adapter's defaults
    assert params_of(adapt(object())) == () and params_of(METRIC) == (("p", 0.5),)


# -- check(): the scope a check searches ---------------------------------------------------------

@dataclasses.dataclass(frozen=True, repr=False)
class ScopeSpy(Constraint):
    """Pri, but decide() only records what check() hands it."""

    seen: list = dataclasses.field(default_factory=list, compare=False)

    def decide(self, metric, mode, scope, search, seed):
        self.seen.append((mode, scope, seed))
        return Check(constraint=self.id, metric=metric.name, params=(), verdict="satisfied", mode=mode)


def spy():
    pri = get("Pri")
    return ScopeSpy(**{f.name: getattr(pri, f.name) for f in dataclasses.fields(Constraint)})


def run(constraint, metric, mode=None, scope_changes=None):
    search = Search(Budget(), 0, 1e-9)
    result = constraint.check(metric, search, mode=mode, rho=Fraction(1, 20), rcs=(),
                              scope_changes=scope_changes)
    return result, constraint.seen[-1], search


def test_window_mode_bounds_the_changed_positions_by_the_cutoff():
    result, (mode, scope, _), _ = run(spy(), uniform(cutoff=5))
    assert mode == "window" == result.mode  # Pri's default mode
    assert scope == Scope(max_position=5, rho=Fraction(1, 20), grow=True)


def test_truncate_mode_lets_rankings_reach_past_a_small_cutoff():
    # cutoff 10: max_docs = min(10 + 2, 24) = 12 (> the default 8); cutoff 3: 5 < 8 keeps 8;
    # cutoff 30: min(32, 24) = 24.
    for cutoff, docs in ((10, 12), (3, 8), (30, TRUNCATE_MAX_DOCS)):
        _, (mode, scope, _), _ = run(spy(), uniform(cutoff=cutoff), mode="truncate")
        assert mode == "truncate" and scope == Scope(rho=Fraction(1, 20), grow=True, max_docs=docs), cutoff
    _, (_, scope, _), _ = run(spy(), uniform(), mode="truncate")  # no cutoff: the default 8
    assert scope == Scope(rho=Fraction(1, 20), grow=True)


def test_scope_changes_apply_and_seed_the_search_with_the_family():
    constraint = spy()
    _, (_, scope, seed), search = run(constraint, uniform(cutoff=5), scope_changes={"later_untouched": True})
    assert scope.later_untouched and scope.max_position == 5
    assert seed == search.seed("Positional", "Pri", repr([("later_untouched", True)]))
    _, (_, _, plain), _ = run(constraint, uniform(cutoff=5))
    assert plain == search.seed("Positional", "Pri", "[]") != seed
    # A metric without a family is seeded by its name.
    named = wrap(lambda ranking, topic: 0.0, name="solo")
    _, (_, _, by_name), _ = run(constraint, named)
    assert by_name == search.seed("solo", "Pri", "[]")


def test_a_relative_metric_is_checked_under_generated_contexts_and_says_so():
    metric = wrap(lambda ranking, topic, context=None: 0.0, needs=Needs(context=True))
    result, _, _ = run(spy(), metric)
    assert result.note == "under a generated context of other systems"
    plain, _, _ = run(spy(), wrap(lambda ranking, topic: 0.0))
    assert plain.note == ""


# -- check_result, counterexample, comparison_outcome ------------------------------------------------

TOPIC = Topic.single({"r1": Fraction(1, 10), "n1": 0})
CASE = Case(TOPIC, ("n1", "r1"), ("r1", "n1"), (1, 2), "b swaps 1 and 2",
            context=Context((("o1",),)), context_b=Context((("o2", "r1"),)))
EVIDENCE = Evidence("sampled", "none", 0, 3, False)


def test_check_result_verdicts_and_what_they_carry():
    pri = get("Pri")
    holds = check_result(METRIC, pri, "window", Outcome(True), 3, 4, "a note", 1e-6,
                         evidence=lambda exact: EVIDENCE if not exact else None)
    assert holds == Check(constraint="Pri", metric="m(p=0.5)", params=(("p", 0.5),), verdict="satisfied",
                          mode="window", cases=3, small_scope=4, exact=False, tolerance=1e-6, note="a note",
                          evidence=EVIDENCE)
    witness = check_result(METRIC, pri, "window", Outcome(True), 0, 1, "", 1e-6,
                           evidence=lambda exact: EVIDENCE, verdict="witness")
    assert witness.verdict == "witness" and witness.evidence == EVIDENCE
    ce = counterexample(CASE, 0.5, 0.25, "Q(b) > Q(a)", exact=False)
    violated = check_result(METRIC, pri, "window", Outcome(False, ce), 2, 0, "", 1e-6,
                            evidence=lambda exact: EVIDENCE)
    assert (violated.verdict, violated.counterexample, violated.evidence) == ("violated", ce, None)
    error = ErrorInfo("ValueError: x")
    failed = check_result(METRIC, pri, "window", Outcome(False, error=error), 1, 0, "", 1e-6,
                          evidence=lambda exact: EVIDENCE)
    assert (failed.verdict, failed.error, failed.evidence) == ("error", error, None)
    exact = check_result(uniform(), pri, "window", Outcome(True), 1, 0, "", 1e-6)
    assert (exact.exact, exact.tolerance, exact.evidence) == (True, None, None)


def test_counterexample_records_the_case_and_its_contexts():
    ce = counterexample(CASE, 0.5, 0.25, "Q(b) > Q(a)", exact=True)
    assert (ce.a, ce.b, ce.score_a, ce.score_b, ce.relation) == (("n1", "r1"), ("r1", "n1"), 0.5, 0.25,
                                                                 "Q(b) > Q(a)")
    assert (ce.note, ce.decided, ce.extra) == ("b swaps 1 and 2", "exact", ())
    assert (ce.context_a, ce.context_b) == ((("o1",),), (("o2", "r1"),))
    assert ce.topic.judgments == (("r1", ("1/10",)), ("n1", ("0",)))
    other = counterexample(CASE, 0.5, 0.25, "Q(b) > Q(a)", exact=False, note="moved", extra=(("k", "2"),),
                           context_a=Context((("o3",),)), context_b=Context((("o4",),)), b=("r1",))
    assert (other.note, other.decided, other.extra, other.b) == ("moved", "float", (("k", "2"),), ("r1",))
    assert (other.context_a, other.context_b) == ((("o3",),), (("o4",),))


def test_comparison_outcome_scores_b_in_its_own_context():
    def in_context(ranking, topic, context=None):
        # Q = 1/i for the first relevant document, plus 1 if the context's first ranking holds r1.
        first = next((1 / i for i, d in enumerate(ranking, 1) if topic.rel(d)), 0.0)
        return first + (1.0 if "r1" in context.rankings[0] else 0.0)
    metric = wrap(in_context, needs=Needs(context=True))
    # Q(a) = 1/2 (context o1), Q(b) = 1 + 1 (context o2 r1): Q(b) > Q(a) holds.
    assert comparison_outcome(metric, CASE, 1e-9, "Q(b) > Q(a)", B_GT_A.holds).holds
    failed = comparison_outcome(metric, CASE, 1e-9, "Q(a) > Q(b)", A_GT_B.holds, (("x", "y"),))
    assert not failed.holds
    ce = failed.counterexample
    assert (ce.score_a, ce.score_b, ce.relation, ce.extra) == (0.5, 2.0, "Q(a) > Q(b)", (("x", "y"),))
    assert ce.decided == "float" and (ce.context_a, ce.context_b) == ((("o1",),), (("o2", "r1"),))


# -- a universal constraint's records: mode, tolerance, a built-in's error ------------------------------

def test_a_universal_constraint_with_no_case_in_the_window_records_the_mode():
    from axiometer.checking import check
    from axiometer.metrics import parse
    result = check(parse("P@1"), get("Pri"), mode="window")
    assert (result.verdict, result.mode) == ("n/a", "window")
    assert result.note == "no case of this constraint fits within the window k = 1"


def test_a_float_metrics_universal_verdict_carries_the_tolerance():
    from axiometer.checking import check
    from axiometer.metrics.decide import DEFAULT_TOLERANCE
    result = check(wrap(lambda ranking, topic: 0.0, name="zero"), get("Pri"), budget=Budget(cases=20, small_scope=50))
    assert result.verdict == "violated" and result.exact is False and result.tolerance == DEFAULT_TOLERANCE


def test_a_built_in_raising_on_a_case_is_an_error_naming_the_case():
    """FujiiU's default policy refuses an undefined log: d2 is relevant but no other system of the
    generated context retrieves it (P(d) = 0). A built-in is not guarded: the engine itself names the
    ranking it raised on, its topic and the context."""
    from axiometer.checking import check
    from axiometer.metrics import parse
    result = check(parse("FujiiU"), get("Pri"), budget=Budget(cases=20, small_scope=50))
    assert result.verdict == "error"
    assert result.error.message.startswith("UndefinedScore: FujiiU: log(P(d|x)/P(d)) is undefined for "
                                           "relevant document 'd2': P(d) = 0")
    assert result.error.message.endswith("[context: (o1, o2)]")
    assert result.error.ranking == ("d1", "d2") and dict(result.error.topic.judgments) == {
        "d1": ("0",), "d2": ("1/10",)}


def test_a_built_in_error_names_b_when_only_b_raises():
    """FujiiU in the context (d, x): a = (d, x) retrieves every relevant document the context does;
    b = (d, y) misses x (P(x|b) = 0), an undefined log. The error names b, the ranking that raises."""
    from axiometer.core import Ranking
    from axiometer.metrics import parse
    from axiometer.metrics.decide import DEFAULT_TOLERANCE
    topic = Topic.single({"d": 1, "x": 1, "y": 0})
    case = Case(topic, Ranking(("d", "x")), Ranking(("d", "y")), (2,), "b = a with x replaced by y",
                context=Context((("d", "x"),)))
    outcome = get("Red").judge(parse("FujiiU"), case, Search(Budget(), 0, DEFAULT_TOLERANCE))
    assert outcome.error.ranking == ("d", "y")
    assert "undefined for relevant document 'x': P(d|x) = 0" in outcome.error.message


def test_a_constraint_without_a_random_strategy_searches_its_small_scope_only():
    from axiometer.checking import check
    from tests.axioms import harmonic
    # The harmonic discount satisfies Pri: the whole budget of 50 small-scope cases, then nothing.
    small_only = dataclasses.replace(get("Pri"), strategy=None)
    result = check(harmonic(), small_only, budget=Budget(cases=20, small_scope=50))
    assert (result.verdict, result.cases, result.small_scope) == ("satisfied", 0, 50)
    assert (result.evidence.exhaustive_cases, result.evidence.random_cases) == (50, 0)

"""Contexts generated for running the ten constraints on relative metrics."""

from hypothesis import find, given, settings
from hypothesis import strategies as st

from axiometer.axioms import get
from axiometer.checking import QUICK, check
from axiometer.core import Context
from axiometer.generators.case import Scope, cases_of
from axiometer.generators.context import (OTHERS_ONLY, case_pool, contexts, fixed_context, in_generated_contexts,
                                          small_contexts, small_scope_with_contexts, with_contexts)
from axiometer.generators.relevance import priority_cases, priority_small_scope
from axiometer.metrics import Needs, wrap


@given(st.data())
def test_generated_contexts_draw_from_the_case_and_keep_its_rankings(data):
    case = data.draw(with_contexts(priority_cases(Scope(max_position=5))))
    assert isinstance(case.context, Context) and 1 <= len(case.context) <= 2
    pool = set(case_pool(case))
    for prior in case.context.rankings:
        assert 1 <= len(prior) <= 5 and set(prior) <= pool
    assert case.context_b is None and case.context_of_b is case.context


def test_small_contexts_and_the_fixed_context():
    case = next(iter(cases_of(priority_small_scope(Scope(max_position=5)))))
    first, reverse, others = small_contexts(case)
    assert first.rankings[0] == case.a[:5]
    assert reverse.rankings[0] == tuple(reversed(case.a[:5]))
    assert others.rankings[0] == OTHERS_ONLY
    topic = case.topic
    prior = fixed_context(topic).rankings[0]
    relevant = [d for d in topic.documents if topic.rel(d)]
    assert set(prior[:-1]) == set(relevant[:5]) and prior[-1] == "o1"


def test_pool_lists_each_document_once():
    case = next(iter(cases_of(priority_small_scope(Scope(max_position=5)))))
    pool = case_pool(case)
    assert len(pool) == len(set(pool)) and pool[-2:] == OTHERS_ONLY


@given(contexts(("d1", "d2", "d3")))
def test_context_rankings_have_distinct_documents(context):
    for prior in context.rankings:
        assert len(set(prior)) == len(prior)


def _dcg_of_unseen(ranking, topic, context):
    """DCG whose gain vanishes for a document some other system retrieved (a toy relative metric)."""
    seen = {d for prior in context.rankings for d in prior}
    return sum(topic.r(d) / (i + 1) for i, d in enumerate(ranking) if d not in seen)


def _dcg_ignoring_context(ranking, topic, context):
    return sum(topic.r(d) / (i + 1) for i, d in enumerate(ranking))


def test_a_constraint_on_a_relative_metric_holds_or_fails_with_the_context_shown():
    needs = Needs(context=True, graded=True)
    ignoring = check(wrap(_dcg_ignoring_context, needs=needs), get("Pri"), budget=QUICK, seed=3)
    assert ignoring.verdict == "satisfied"
    assert "generated context" in ignoring.note
    unseen = check(wrap(_dcg_of_unseen, needs=needs), get("Pri"), budget=QUICK, seed=3)
    assert unseen.verdict == "violated"
    counterexample = unseen.counterexample
    assert counterexample.context_a is not None
    # The violation is the context's doing: a document of the swap is in a prior ranking.
    seen = {d for prior in counterexample.context_a for d in prior}
    assert seen & (set(counterexample.a) | set(counterexample.b))


def test_threshold_constraints_use_the_fixed_context():
    result = check(wrap(_dcg_of_unseen, needs=Needs(context=True)), get("CloseTh"), budget=QUICK)
    assert result.verdict in ("witness", "violated")
    assert "fixed context" in result.note
    if result.counterexample is not None:
        assert result.counterexample.context_a is not None


@given(st.data())
def test_disjoint_contexts_retrieve_none_of_the_case_documents(data):
    case = data.draw(with_contexts(priority_cases(Scope(max_position=5)), disjoint=True))
    ranked = set(case.a) | set(case.b) | set(case.topic.documents)
    for prior in case.context.rankings:
        assert set(prior) <= set(OTHERS_ONLY) and not set(prior) & ranked


def test_disjoint_small_scope_and_fixed_context():
    cases = list(cases_of(priority_small_scope(Scope(max_position=3))))
    disjoint = list(small_scope_with_contexts(iter(cases), disjoint=True))
    assert len(disjoint) == len(cases)
    assert all(c.context.rankings == (OTHERS_ONLY,) for c in disjoint)
    assert fixed_context(cases[0].topic, disjoint=True).rankings == (OTHERS_ONLY,)


def test_a_context_caused_violation_is_explained_by_the_disjoint_reading():
    from axiometer.checking.explain import DISJOINT_CONTEXT_TEXT, explain
    from axiometer.results import Explanation, NearbyReading

    needs = Needs(context=True, graded=True)
    unseen = wrap(_dcg_of_unseen, needs=needs)
    violated = check(unseen, get("Pri"), budget=QUICK, seed=3)
    assert violated.verdict == "violated"
    assert explain(unseen, get("Pri"), violated, budget=QUICK, seed=3) == \
        Explanation(f"holds when {DISJOINT_CONTEXT_TEXT}", NearbyReading.DISJOINT_CONTEXT)

    # A violation the context does not cause is not explained by it.
    def binary_hits(ranking, topic, context):
        return float(sum(1 for d in ranking[:3] if topic.rel(d)))
    binary = wrap(binary_hits, needs=Needs(context=True, graded=False))
    fails = check(binary, get("Pri"), budget=QUICK, seed=3)
    assert fails.verdict == "violated"
    other = explain(binary, get("Pri"), fails, budget=QUICK, seed=3)
    assert other is None or other.text != f"holds when {DISJOINT_CONTEXT_TEXT}"


def test_drawn_contexts_reach_one_prior_and_a_prior_of_one_document():
    """The contexts drawn for a constraint checked on a relative metric (in_generated_contexts):
    one other system, or two; a prior of a single document, or longer."""
    strategy = in_generated_contexts(priority_cases)(Scope())
    quiet = settings(database=None, derandomize=True, max_examples=300)
    assert len(find(strategy, lambda c: len(c.context) == 1, settings=quiet).context) == 1
    assert len(find(strategy, lambda c: len(c.context) == 2, settings=quiet).context) == 2
    case = find(strategy, lambda c: any(len(p) == 1 for p in c.context.rankings), settings=quiet)
    assert any(len(p) == 1 for p in case.context.rankings)

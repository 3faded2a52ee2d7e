"""Contexts for running the ten constraints on a relative metric (definitions §6).

A relative metric scores a ranking against other systems' rankings. The ten
constraints compare two rankings ``a`` and ``b`` of one topic; on a relative
metric they are checked *under a fixed context*: a context is generated with
each case and both rankings are scored in it, so the constraint asks "does
``Q(b) > Q(a)`` hold whatever the other systems retrieved?".

A context draws one or two prior rankings from the case's own documents (the
judged ones and those of ``a`` and ``b``) plus two documents only the other
systems retrieve (``o1``, ``o2``). Hypothesis shrinks a context towards one
short prior ranking of the first documents, so counterexamples stay readable.
The threshold constraints (DeepTh, CloseTh), which walk a grid instead of
searching, use :func:`fixed_context`: one prior ranking holding the case's
relevant documents in reverse order of their id, then ``o1``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from axiometer.core import Context, Ranking, Topic, natural_key
from axiometer.generators.case import Case, ScopeItem, ScopeMark
from axiometer.generators.draw import CaseStrategy, Draw

__all__ = ["case_pool", "contexts", "small_contexts", "fixed_context", "with_contexts",
           "small_scope_with_contexts", "OTHERS_ONLY", "MAX_PRIORS", "MAX_PRIOR_LENGTH"]

#: Documents that only the other systems retrieve.
OTHERS_ONLY = ("o1", "o2")
MAX_PRIORS = 2
MAX_PRIOR_LENGTH = 5


def case_pool(case: Case) -> tuple[str, ...]:
    """The case's documents in first-seen order (``a``, ``b``, then judged), then :data:`OTHERS_ONLY`."""
    seen: dict[str, None] = {}
    for doc in (*case.a, *case.b, *case.topic.documents, *OTHERS_ONLY):
        seen.setdefault(doc, None)
    return tuple(seen)


def contexts(pool: tuple[str, ...]) -> st.SearchStrategy[Context]:
    """One or two prior rankings of distinct documents from ``pool`` (shrinking to short, early ones)."""
    prior = st.lists(st.sampled_from(pool), unique=True, min_size=1, max_size=MAX_PRIOR_LENGTH)
    return st.lists(prior, min_size=1, max_size=MAX_PRIORS).map(
        lambda rankings: Context(tuple(Ranking(r) for r in rankings)))


def small_contexts(case: Case) -> tuple[Context, ...]:
    """Deterministic contexts tried with each small-scope case.

    The other system retrieved ``a`` itself; it retrieved ``a``'s documents in
    reverse; it retrieved only documents the case does not rank.
    """
    a = tuple(case.a)[:MAX_PRIOR_LENGTH]
    candidates = [a, tuple(reversed(a)), OTHERS_ONLY]
    return tuple(Context((Ranking(r),)) for r in candidates if r)


def fixed_context(topic: Topic, disjoint: bool = False) -> Context:
    """The context of the threshold constraints: the relevant documents, last id first, then ``o1``.

    ``disjoint``: only :data:`OTHERS_ONLY` (the other system retrieves none of the topic's documents).
    """
    if disjoint:
        return Context((Ranking(OTHERS_ONLY),))
    relevant = sorted((d for d in topic.documents if topic.rel(d)), key=natural_key, reverse=True)
    return Context((Ranking((*relevant[:MAX_PRIOR_LENGTH], OTHERS_ONLY[0])),))


def with_contexts(strategy: st.SearchStrategy[Case], disjoint: bool = False) -> st.SearchStrategy[Case]:
    """Each case of ``strategy`` with a generated context, the same for ``a`` and ``b``.

    ``disjoint``: the other systems retrieve only :data:`OTHERS_ONLY`, none of the case's documents.
    """
    return strategy.flatmap(
        lambda case: contexts(OTHERS_ONLY if disjoint else case_pool(case)).map(
            lambda context: _in_context(case, context)))


def draw_context(draw: Draw, pool: tuple[str, ...]) -> Context:
    """:func:`contexts` as a :class:`~axiometer.generators.draw.Draw` makes it: one or two prior
    rankings of distinct documents from ``pool`` (shrinking to short, early ones)."""
    def prior() -> Ranking:
        return Ranking(tuple(pool[i] for i in draw.distinct(len(pool), 1, MAX_PRIOR_LENGTH)))

    return Context(tuple(draw.sized(1, MAX_PRIORS, prior)))


@functools.lru_cache(maxsize=None)
def in_generated_contexts(strategy: CaseStrategy[Case]) -> CaseStrategy[Case]:
    """:func:`with_contexts` for a :class:`~axiometer.generators.draw.CaseStrategy`: each case with a
    drawn context, the same for ``a`` and ``b`` (only :data:`OTHERS_ONLY` under the scope's
    ``context_disjoint``); fast draws and hypothesis alike."""
    build = strategy.build

    def build_in_context(draw: Draw, scope: Any) -> Case:
        case = build(draw, scope)
        pool = OTHERS_ONLY if scope.context_disjoint else case_pool(case)
        return _in_context(case, draw_context(draw, pool))

    return CaseStrategy(build_in_context, f"{strategy.__name__}_in_contexts")


def small_scope_with_contexts(cases: Iterator[ScopeItem], disjoint: bool = False) -> Iterator[ScopeItem]:
    """Each small-scope case under each of its :func:`small_contexts` (``disjoint``: only the last);
    the small scope's marks pass through (a context changes no case's size)."""
    for case in cases:
        if isinstance(case, ScopeMark):
            yield case
            continue
        for context in small_contexts(case)[-1:] if disjoint else small_contexts(case):
            yield _in_context(case, context)


def _in_context(case: Case, context: Context) -> Case:
    return Case(case.topic, case.a, case.b, case.changed, case.note, context=context)

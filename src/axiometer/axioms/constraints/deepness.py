"""Constraint 2, Deepness (Deep) — Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, Eq. 2.

"Correctly swapping contiguous items has more effect in early ranking
positions" (top-heaviness). Conditions: single aspect, relevance
contribution (``r <= rho``). Case: one base ranking with ``i < j``,
``j >= i+2`` and ``r(d_i) = r(d_j) < r(d_{i+1}) = r(d_{j+1})``; ``b`` swaps
positions ``(i, i+1)``, ``a`` swaps ``(j, j+1)``. Relation: ``Q(b) > Q(a)``.
Changed positions ``i, i+1, j, j+1`` (the window keeps them ``<= k``).

``j >= i+2`` keeps the two swaps disjoint, so both rankings are one swap
away from the same base and differ only in where the swap happened.

No nearby reading is declared. "No later document is relevant" (Pri's
reading) cannot change a Deep verdict: both swaps are of neighbours, so every
document after ``j+1`` has the same documents before it in ``a`` and in ``b``,
and a metric whose gain at a position depends on the set of earlier documents
(cascades, redundancy discounts, normalisation by the topic's ideal) scores
that tail identically. The generator still honours ``later_untouched``.

Search coverage (tested in tests/generators/test_search_coverage.py, random search and small scope):
the two swaps right after each other (``j = i + 2``) and with a gap between them; the first swap
at the top and both below it; graded levels (``r(d_i) > 0``); a relevant document between the
swaps and one after both.
"""

from __future__ import annotations

from axiometer.axioms.constraints.base import B_GT_A, Constraint
from axiometer.axioms.constraints.conditions import single_aspect_contribution
from axiometer.generators.case import Case, Scope
from axiometer.generators.relevance import deepness_cases, deepness_small_scope, swap

__all__ = ["DEEPNESS", "deepness_conditions"]


def deepness_conditions(case: Case, scope: Scope) -> bool:
    """Whether ``case`` is a Deep case within ``scope``, rebuilt from the case itself.

    Single aspect, ``r <= rho``, changed positions ``(i, i+1, j, j+1)`` inside
    the window with ``j >= i+2``; ``a`` and ``b`` are the ``(j, j+1)`` and
    ``(i, i+1)`` swaps of one base ranking in which
    ``r(d_i) = r(d_j) < r(d_{i+1}) = r(d_{j+1})``; with
    ``scope.later_untouched``, nothing after ``j+1`` is relevant.
    """
    if not single_aspect_contribution(case, scope) or len(case.changed) != 4:
        return False
    i, i1, j, j1 = case.changed
    if not (i1 == i + 1 and j1 == j + 1 and j >= i + 2 and i >= 1 and j1 <= len(case.a)):
        return False
    base = swap(tuple(case.a), j, j1)
    if tuple(swap(tuple(base), i, i1)) != tuple(case.b):
        return False
    r = [case.topic.r(d) for d in base]
    if not r[i - 1] == r[j - 1] < r[i1 - 1] == r[j1 - 1]:
        return False
    return not (scope.later_untouched and any(r[j1:]))


DEEPNESS = Constraint(
    id="Deep",
    name="Deepness",
    wording="Correctly swapping contiguous items has more effect in early ranking positions: "
            "r(d_i) = r(d_j) < r(d_{i+1}) = r(d_{j+1}), i < j => "
            "Q(d with i and i+1 swapped) > Q(d with j and j+1 swapped).",
    conditions=("single aspect", "relevance contribution"),
    group="relevance",
    form="universal",
    relation=B_GT_A,
    strategy=deepness_cases,
    small_scope=deepness_small_scope,
    satisfies_conditions=deepness_conditions,
    meaning="A metric that violates it rewards fixing a misordered pair deep in the ranking as "
            "much as near the top.",
    source="Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.2, Constraint 2 "
           "(Deepness), Eq. 2",
    expectation="should score higher than a: it fixes the same misordered pair nearer the top",
    construction="one base ranking has equally relevant documents at i and j (j >= i + 2) and "
                 "more relevant ones at i + 1 and j + 1; b swaps positions i and i + 1, a "
                 "swaps j and j + 1.",
    example_metrics=("RBP(p=0.8)", "P@10"),
)

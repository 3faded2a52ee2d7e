"""Constraint 10, Aspect relevance (AspRel) — Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, Eq. 10.

Conditions: no aspect overlap, unequal weights.
Case: position ``i`` of ``a`` holds ``x``, relevant to ``t`` only; no other
document is relevant to ``t`` or ``t'``; ``b`` is ``a`` with ``x`` replaced
by ``y``, ``r(y, t') = r(x, t)``, where ``w(t') > w(t)`` (definitions §3).
Relation: ``Q(b) > Q(a)``; the changed position ``i`` lies inside the window.

Search coverage (tested in tests/generators/test_search_coverage.py, random search and small
scope): ``x`` at the top and below it; documents after ``x``; a third aspect with another document
relevant to it; the heavier aspect ``t'`` listed first, and the lighter ``t`` listed first.
"""

from axiometer.axioms.constraints.base import B_GT_A, Constraint
from axiometer.axioms.constraints.conditions import aspect_relevance_case
from axiometer.generators.diversity import aspect_relevance_cases, aspect_relevance_small_scope

ASPECT_RELEVANCE = Constraint(
    id="AspRel",
    name="Aspect relevance",
    wording="Aspects with higher weights have more effect in the score of the ranking quality. "
            "Assuming no aspect overlap, and being d_i and d'_i documents relevant to different "
            "aspects that have not been observed before, for all j < i r(d_j, t) = r(d_j, t') = 0, "
            "and r(d_i, t) = r(d'_i, t') > 0: w(t') > w(t) => Q(d with d_i replaced by d'_i) > Q(d).",
    conditions=("no aspect overlap", "unequal weights"),
    group="diversity",
    form="universal",
    relation=B_GT_A,
    strategy=aspect_relevance_cases,
    small_scope=aspect_relevance_small_scope,
    satisfies_conditions=aspect_relevance_case,
    meaning="A metric that violates it does not let aspects with larger weights count for more "
            "in the score.",
    source="Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.3, Constraint 10 "
           "(Aspect Relevance), Eq. 10",
    expectation="should score higher than a: its document is as relevant to a heavier aspect",
    construction="position i of a holds x, relevant to aspect t only, and no other document is "
                 "relevant to t or t'; b is a with x replaced by y, as relevant to t' as x is "
                 "to t, where w(t') > w(t).",
    example_metrics=("P_IA@10", "NRBP(alpha=0.5,beta=0.5)"),
)

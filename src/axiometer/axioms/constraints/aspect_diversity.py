"""Constraint 6, Query aspect diversity (AspDiv) — Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, Eq. 6.

Condition: relevance contribution (every non-zero ``r(d, t) <= rho``).
Case: ``b`` is ``a`` with ``d_i`` replaced by a new document ``d'`` where
``r(d', t) >= r(d_i, t)`` for every aspect ``t`` and ``>`` for some ``t``;
the documents after position ``i`` are unconstrained (definitions §3).
Relation: ``Q(b) > Q(a)``; the changed position ``i`` lies inside the window.

Metrics that discount repeats of an aspect (alpha-nDCG, NRBP, EU) can lose
more at later documents of a raised aspect than ``d'`` gains; the nearby
reading "no later document touches the changed aspects" isolates that effect.

Search coverage (tested in tests/generators/test_search_coverage.py):
unequal aspect weights (random search only: the small scope keeps two balanced aspects); one
aspect raised while another stays as it was, and two raised at once; a replaced document that was
already relevant; a later document relevant to a raised aspect; the replaced document at the top
and below it; a gain a hundred times smaller than a later value (tests/generators/test_diversity.py).
"""

from fractions import Fraction

from axiometer.axioms.constraints.base import B_GT_A, Constraint, Reading
from axiometer.axioms.constraints.conditions import aspect_diversity_case
from axiometer.generators.diversity import aspect_diversity_cases, aspect_diversity_small_scope

ASPECT_DIVERSITY = Constraint(
    id="AspDiv",
    name="Query aspect diversity",
    wording="Covering more aspects in the same document (i.e. without additional effort of "
            "inspecting more documents) increases the score. Assuming relevance contribution: "
            "for all t, r(d', t) >= r(d_i, t) and for some t, r(d', t) > r(d_i, t) => "
            "Q(d with d_i replaced by d') > Q(d).",
    conditions=("relevance contribution",),
    group="diversity",
    form="universal",
    relation=B_GT_A,
    strategy=aspect_diversity_cases,
    small_scope=aspect_diversity_small_scope,
    satisfies_conditions=aspect_diversity_case,
    readings=(
        Reading("no later document is relevant to the changed aspects", {"later_untouched": True}),
        Reading("relevance values are at most 1/100 (a smaller rho)", {"rho": Fraction(1, 100)}),
    ),
    meaning="A metric that violates it does not reward a document that covers more of the "
            "query's aspects at no extra reading cost.",
    source="Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.3, Constraint 6 (Query "
           "Aspect Diversity), Eq. 6",
    expectation="should score higher than a: its document at the changed position is as "
                "relevant to every aspect and more relevant to one",
    construction="b is a with the document at position i replaced by a new one at least as "
                 "relevant to every aspect and more relevant to at least one.",
    example_metrics=("RBP_IA(p=0.8)", "NRBP(alpha=0.5,beta=0.5)"),
)

"""Constraint 1, Priority (Pri) — Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, Eq. 1.

Conditions: single aspect, relevance contribution (``r <= rho``), graded.
Case: ``a`` any ranking with ``r(d_{i+k}) > r(d_i)``, ``k > 0``; ``b`` is ``a``
with positions ``i`` and ``i+k`` swapped. Relation: ``Q(b) > Q(a)``.

Search coverage (the features the generator must reach; tests/generators/test_search_coverage.py
tests each, in the random search and in the small scope): adjacent swaps and swaps of non-adjacent
positions (two and three apart); the top document swapped, and
both swapped documents below the top; grades beyond binary (the lower swapped document relevant
too; three different positive grades in one ranking); a relevant document between the swapped
ones and one after the swap (what the nearby readings exclude).
"""

from axiometer.axioms.constraints.base import B_GT_A, Constraint, Reading
from axiometer.axioms.constraints.conditions import single_aspect_contribution
from axiometer.generators.relevance import priority_cases, priority_small_scope

PRIORITY = Constraint(
    id="Pri",
    name="Priority",
    wording="Swapping items in concordance with their relevance increases the ranking quality "
            "score: r(d_{i+k}) > r(d_i) => Q(d with i and i+k swapped) > Q(d).",
    conditions=("single aspect", "relevance contribution", "graded"),
    group="relevance",
    form="universal",
    relation=B_GT_A,
    strategy=priority_cases,
    small_scope=priority_small_scope,
    satisfies_conditions=single_aspect_contribution,
    readings=(Reading("no later document is relevant (nothing after the swapped positions)",
                      {"later_untouched": True}),
              Reading("no relevant document lies between the swapped positions",
                      {"between_untouched": True})),
    meaning="A metric that violates it can score a ranking no higher after a more relevant "
            "document moves up.",
    source="Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.2, Constraint 1 "
           "(Priority), Eq. 1",
    expectation="should score higher than a: it moves the more relevant document up",
    construction="a is any ranking in which the document at position i + k (k > 0) is more "
                 "relevant than the one at position i; b is a with the two swapped.",
    example_metrics=("RBP(p=0.8)", "P@10"),
)

"""Property Rarity: a rarer equally relevant document scores higher.

Türkmen et al., ECIR 2023, section 2: the innovation metrics "reward
retrieval of rare relevant documents missed by other systems"; NRG (Clarke
et al. 2024, section 5): "a ranker returning many relevant items not
appearing in the prior set will receive a higher NRG score than a ranker
returning equally relevant items that repeatedly appear in the prior set".

Case: ``a`` retrieves a relevant ``x`` within the metric's cutoff ``k``; ``b``
is ``a`` with ``x`` replaced by ``y``, ``r(y) = r(x)``, where ``y`` is retrieved
within ``k`` by strictly fewer other systems than ``x`` (same context).
Relation: ``Q(b) > Q(a)``.

Search coverage (tested in tests/generators/test_search_coverage.py with a cutoff of 3, random search and
small scope unless said): ``y`` retrieved by no other system within the cutoff, and by another
system too; ``x`` retrieved by two other systems; ``x`` below the top of ``a``; a prior holding
both ``x`` and ``y``, with ``y`` first; left to the random search: graded ``r(x) = 1/2``, three
other systems, ``x`` or ``y`` just past a prior's cutoff (retrieved but not counted).
"""

from __future__ import annotations

from typing import Any

from axiometer.results import Outcome
from axiometer.axioms.properties.base import Property, comparison_outcome
from axiometer.generators.case import Case, Scope
from axiometer.generators.relative import rarity_cases, rarity_small_scope, window
from axiometer.metrics.relative import systems_retrieving
from axiometer.metrics.base import Metric

__all__ = ["RARITY", "rarity_conditions"]


def _judge(metric: Metric, claim: Any, case: Case, tolerance: float) -> Outcome:
    return comparison_outcome(metric, case, tolerance, "Q(b) > Q(a)", lambda sign: sign > 0)


def rarity_conditions(case: Case, scope: Scope) -> bool:
    """The case's conditions, restated from the case alone (for the generator tests)."""
    (i,) = case.changed
    k = window(scope)
    x, y = case.a[i - 1], case.b[i - 1]
    same_elsewhere = all(u == v for m, (u, v) in enumerate(zip(case.a, case.b), 1) if m != i)
    return (len(case.a) == len(case.b) and same_elsewhere and y not in case.a
            and (k is None or i <= k) and case.topic.rel(x) and case.topic.r(x) == case.topic.r(y)
            and case.context_b is None and case.context is not None
            and systems_retrieving(y, case.context, k) < systems_retrieving(x, case.context, k))


RARITY = Property(
    id="Rarity",
    name="Rarity",
    wording="Replacing a retrieved relevant document by an equally relevant one retrieved, within the "
            "metric's cutoff, by strictly fewer other systems raises the score.",
    source="Türkmen et al., ECIR 2023, section 2 (rarity R(d) = 1 - S_d/S); "
           "Clarke et al. (NRG), 2024, section 5",
    form="universal",
    applies=lambda metric: None,
    judge=_judge,
    strategy=rarity_cases,
    small_scope=rarity_small_scope,
    relation="Q(b) > Q(a)",
    satisfies_conditions=rarity_conditions,
    meaning="A metric that violates it does not reward finding relevant documents the other "
            "systems missed.",
    expectation="should score higher than a: it swaps a relevant document for an equally "
                "relevant one that fewer other systems retrieve",
    conditions=("relative metric", "within the cutoff"),
    construction="a retrieves a relevant x within the cutoff; b replaces x by an equally "
                 "relevant y that strictly fewer other systems retrieve within the cutoff; "
                 "both are scored in one context.",
    example_metrics=("RareP(alpha=0.5)@10", "NRG(base=RBP(p=0.8))"),
)

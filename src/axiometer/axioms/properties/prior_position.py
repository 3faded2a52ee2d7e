"""Properties PriorSens and PriorMono (PriorPos): where a prior ranking puts a document.

NRG (Clarke et al. 2024, section 2): the residual gain
``G(d|R) = G(d) prod_j (1 - seen(pos(d, R_j)))`` depends on the position of
``d`` in each prior ranking, so:

- **PriorSens** (existential): moving a relevant document that the evaluated
  ranking retrieves (within its cutoff) to another position inside a prior
  ranking's cutoff changes the score. Rareness-based metrics count only
  *whether* a document is retrieved (Türkmen et al., section 2), so
  definitions §6 measures that they fail it.
- **PriorMono** (universal): moving it deeper in a prior ranking, or out of
  it, never lowers the score — the searcher is less likely to have seen it.
  definitions §6 measures that NRG's raw score satisfies it but normalised
  NRG does not (the ideal gains too).

In both, ``a`` and ``b`` are the same ranking: ``a`` is scored in the case's
context, ``b`` in ``context_b`` where one prior has the document moved; the
documents the move shifts are non-relevant.

Search coverage (tested in tests/generators/test_search_coverage.py with a cutoff of 3, random
search and small scope unless said): PriorSens moves up and down, past two documents, beside
another prior; the moved prior not the first (random search only). PriorMono moves out of the
prior, deeper within the cutoff, and past it; ``x`` below the top of the prior; beside another
prior.
"""

from __future__ import annotations

from typing import Any

from axiometer.results import Outcome
from axiometer.axioms.properties.base import Property, comparison_outcome
from axiometer.generators.case import Case, Scope
from axiometer.generators.relative import (prior_monotonicity_cases, prior_move_small_scope,
                                          prior_sensitivity_cases, window)
from axiometer.metrics.base import Metric

__all__ = ["PRIOR_SENSITIVITY", "PRIOR_MONOTONICITY", "prior_move_conditions"]


def _sens(metric: Metric, claim: Any, case: Case, tolerance: float) -> Outcome:
    return comparison_outcome(metric, case, tolerance, "Q(b) != Q(a)", lambda sign: sign != 0)


def _mono(metric: Metric, claim: Any, case: Case, tolerance: float) -> Outcome:
    return comparison_outcome(metric, case, tolerance, "Q(b) >= Q(a)", lambda sign: sign >= 0)


def prior_move_conditions(case: Case, scope: Scope, deeper: bool) -> bool:
    """The case's conditions, restated from the case alone (for the generator tests)."""
    k = window(scope)
    (i,) = case.changed
    x = case.a[i - 1]
    if tuple(case.a) != tuple(case.b) or (k is not None and i > k) or not case.topic.rel(x):
        return False
    if case.context is None or case.context_b is None:  # a prior move changes one system of a context
        return False
    before, after = case.context.rankings, case.context_b.rankings
    changed = [j for j, (u, v) in enumerate(zip(before, after)) if u != v]
    if len(before) != len(after) or len(changed) != 1:
        return False
    u, v = before[changed[0]], after[changed[0]]
    if x not in u:
        return False
    p = u.index(x) + 1
    if k is not None and p > k:
        return False
    if x not in v:  # moved out: replaced in place by a non-relevant document
        if not deeper:
            return False
        return (len(u) == len(v) and not case.topic.rel(v[p - 1])
                and all(s == t for m, (s, t) in enumerate(zip(u, v), 1) if m != p))
    q = v.index(x) + 1
    if q == p or (deeper and q < p) or (not deeper and k is not None and q > k):
        return False
    low, high = min(p, q), max(p, q)
    same_outside = u[:low - 1] == v[:low - 1] and u[high:] == v[high:]
    rest_u = [d for d in u[low - 1:high] if d != x]
    rest_v = [d for d in v[low - 1:high] if d != x]
    return same_outside and rest_u == rest_v and not any(case.topic.rel(d) for d in rest_u)


PRIOR_SENSITIVITY = Property(
    id="PriorSens",
    name="Prior-position sensitivity",
    wording="Moving a relevant document that the evaluated ranking retrieves to another position "
            "inside a prior ranking's cutoff changes the score (residual gain depends on pos(d, R_j)).",
    source="Clarke et al. (NRG), 2024, section 2, Eqs. 2-4; definitions §6 (PriorPos)",
    form="existential",
    applies=lambda metric: None,
    judge=_sens,
    strategy=prior_sensitivity_cases,
    small_scope=lambda scope: prior_move_small_scope(scope, deeper=False),
    relation="Q(b) != Q(a)",
    satisfies_conditions=lambda case, scope: prior_move_conditions(case, scope, deeper=False),
    meaning="A metric that violates it ignores where other systems rank a document, only "
            "whether they retrieve it.",
    expectation="should score differently from a: another system now ranks its relevant "
                "document elsewhere",
    conditions=("relative metric", "within the cutoff"),
    construction="a and b are the same ranking, which retrieves a relevant d; b is scored in a "
                 "context in which one other system ranks d at another position within the "
                 "cutoff (the documents it shifts are non-relevant).",
    relation_text="Q(b) != Q(a) on some case",
    example_metrics=("NRG(base=RBP(p=0.8))", "RareP(alpha=0.5)@10"),
)

PRIOR_MONOTONICITY = Property(
    id="PriorMono",
    name="Prior-position monotonicity",
    wording="Moving a relevant document that the evaluated ranking retrieves deeper in a prior "
            "ranking, or out of it, never lowers the score (the searcher is less likely to have seen it).",
    source="Clarke et al. (NRG), 2024, section 2 (seen(i) decreasing, Eq. 2); definitions §6 (PriorPos)",
    form="universal",
    applies=lambda metric: None,
    judge=_mono,
    strategy=prior_monotonicity_cases,
    small_scope=lambda scope: prior_move_small_scope(scope, deeper=True),
    relation="Q(b) >= Q(a)",
    satisfies_conditions=lambda case, scope: prior_move_conditions(case, scope, deeper=True),
    meaning="A metric that violates it can score a ranking lower when another system ranks its "
            "relevant document lower.",
    expectation="should score at least as high as a: another system now ranks its relevant "
                "document deeper, or not at all",
    conditions=("relative metric", "within the cutoff"),
    construction="a and b are the same ranking, which retrieves a relevant d; b is scored in a "
                 "context in which one other system ranks d deeper, or drops it for a "
                 "non-relevant document.",
    example_metrics=("NRG(base=RBP(p=0.8))", "NRG(base=nDCG@10)"),
)

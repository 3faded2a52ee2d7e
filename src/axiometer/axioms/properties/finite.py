"""Property Finite: a relative metric is real-valued on every context.

definitions §6 (from Fujii's U(x), where ``P(d) = 0`` or ``P(d|x) = 0`` makes
the log undefined, and Türkmen et al.'s revised rarity ``R'``, undefined at
``S = 1``): the score must be a finite real number for every ranking and
context — the empty context, documents nobody else retrieves, the evaluated
ranking itself in the context, empty rankings. A built-in that raises
:class:`~axiometer.metrics.base.UndefinedScore` (the formula is undefined and
says so) or returns nan/inf is a counterexample ("undefined here"); any
other exception is an error.

Search coverage (tested in tests/generators/test_search_coverage.py with a cutoff of 3, random search and
small scope): the empty context; an empty prior ranking; the evaluated ranking itself as a prior;
a document only another system retrieves; the empty evaluated ranking; a relevant document the
others do not retrieve; three other systems; a prior longer than the cutoff; and (small scope)
all-relevant rankings of ``k`` and ``k + 1`` documents retrieved by nobody else and by every other
system, for 1..4 systems.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from axiometer.results import Outcome
from axiometer.axioms.properties.base import Property, counterexample
from axiometer.generators.case import Case, Scope, ScopeItem, declared_extra
from axiometer.generators.relative import extreme_small_scope, relative_cases, relative_small_scope
from axiometer.metrics import MetricError
from axiometer.metrics.base import Metric, UndefinedScore

__all__ = ["FINITE"]

_CLAIM = "Q is a finite real number"


def _judge(metric: Metric, claim: Any, case: Case, tolerance: float) -> Outcome:
    nan = float("nan")
    try:
        value = metric.score(case.a, case.topic, case.context)
    except UndefinedScore as error:
        return Outcome(False, counterexample(case, nan, nan, _CLAIM, exact=True,
                                              note=f"{case.note}; undefined here: {error}"))
    except MetricError as error:
        # A wrapped function's nan/inf surfaces as this MetricError (metrics.base.FunctionMetric.score).
        if "non-finite" not in str(error):
            raise
        return Outcome(False, counterexample(case, nan, nan, _CLAIM, exact=False,
                                              note=f"{case.note}; {error}"))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        value = float(value)  # a non-number raises here and becomes an error verdict
    if math.isfinite(value):
        return Outcome(True)
    return Outcome(False, counterexample(case, value, value, _CLAIM, exact=False,
                                          note=f"{case.note}; the metric returned {value!r}"))


def _small_scope(scope: Scope) -> Iterator[ScopeItem]:
    """Any binary ranking in the small contexts, then the extremes, then (growing) longer rankings."""
    return declared_extra(relative_small_scope(scope), extreme_small_scope(scope))


FINITE = Property(
    id="Finite",
    name="Finite",
    wording="The score is real-valued on every context: the empty context, documents nobody else "
            "retrieves, the evaluated ranking itself in the context, empty rankings.",
    source="definitions §6; Fujii et al. (U(x), Eq. 1: log P(d|x)/P(d)); Türkmen et al., ECIR 2023, "
           "section 5 (R' at S = 1)",
    form="unary",
    applies=lambda metric: None,
    judge=_judge,
    strategy=relative_cases,
    small_scope=_small_scope,
    relation=_CLAIM,
    meaning="A metric that violates it has no score on some inputs, e.g. no other systems or a "
            "document nobody else retrieves.",
    expectation="should get a finite real score",
    construction="one ranking a in a context of 0 to 3 other systems, including the empty "
                 "context, documents nobody else retrieves, a itself in the context and empty "
                 "rankings.",
    example_metrics=("RareP(alpha=0.5)@10", "RareP_rev(alpha=0.5)@10"),
)

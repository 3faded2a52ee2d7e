"""Property Rev (reversion): at its reverting setting a relative metric IS its base metric.

Claims, per metric (:meth:`~axiometer.metrics.relative.RelativeMetric.reversions`):
Türkmen et al. (ECIR 2023), section 2: "setting alpha = 0 reverts to the
original metric" (P@K_rare -> P@K, AP_rare -> AP); Clarke et al. (NRG, 2024),
section 2: "If M = 0 [an empty prior set], G(d|R) = G(d), and so Equation 4
reduces to Equation 1" (NRG -> its base). On every generated ranking and
context (the empty context for an ``"empty"`` reversion) the reverted metric
must equal the base EXACTLY: a float gap beyond rounding, or a nonzero exact
difference, is a counterexample. One search per declared reversion.

Search coverage (tested in tests/generators/test_search_coverage.py with a cutoff of 3, random search
and small scope unless said): the empty context; an empty prior ranking; the evaluated ranking
itself as a prior; a document only another system retrieves; the empty evaluated ranking; a
relevant document the others do not retrieve; left to the random search: three other systems and
a prior longer than the cutoff (the small scope's rankings have at most 3 documents).
"""

from __future__ import annotations

from typing import Any

from axiometer.results import Outcome
from axiometer.metrics.decide import evaluate
from axiometer.axioms.properties.base import Property, counterexample, decide_sign
from axiometer.core import Context
from axiometer.generators.case import Case
from axiometer.generators.relative import relative_cases, relative_small_scope
from axiometer.metrics import Metric, is_exact_capable

__all__ = ["REVERSION"]


def _applies(metric: Metric) -> str | None:
    return None if metric.reversions() else "the metric declares no reversion"


def _judge(metric: Metric, reversion: Any, case: Case, tolerance: float) -> Outcome:
    context = Context() if reversion.context == "empty" else case.context
    reverted, base = reversion.metric, reversion.base
    q = evaluate(reverted, case.a, case.topic, context)
    q_base = evaluate(base, case.a, case.topic)
    exact = is_exact_capable(reverted) and is_exact_capable(base)
    sign, decided_exactly = decide_sign(
        q, q_base,
        (lambda: base.exact(case.a, case.topic) - reverted.exact(case.a, case.topic, context)) if exact else None,
        tolerance)
    if sign == 0:
        return Outcome(True)
    where = "in the empty context" if reversion.context == "empty" else "in the case's context"
    return Outcome(False, counterexample(
        case, q, q_base, f"{reverted.name} = {base.name} ({reversion.text})", exact=decided_exactly,
        note=f"a is scored by {reverted.name} {where} (score a) and by {base.name} without context (score b)",
        extra=(("claim", reversion.text), ("source", reversion.source)), context_a=context,
        context_b=Context()))


REVERSION = Property(
    id="Rev",
    name="Reversion",
    wording="At its reverting setting the metric is its base metric: alpha = 0 reverts to the "
            "original P@K / AP; with an empty prior set (M = 0) NRG reduces to the base metric.",
    source="Türkmen et al., ECIR 2023, section 2; Clarke et al. (NRG), 2024, section 2 (Eq. 4 -> Eq. 1)",
    form="unary",
    applies=_applies,
    judge=_judge,
    strategy=relative_cases,
    small_scope=relative_small_scope,
    claims=lambda metric: tuple(metric.reversions()),
    describe=lambda reversion: f"{reversion.metric.name} = {reversion.base.name}",
    relation="Q_reverted(a) = Q_base(a)",
    meaning="A metric that violates it is not its base metric at its reverting setting (alpha "
            "= 0, or no other systems).",
    expectation="should get the same score from the reverted metric as from its base metric",
    conditions=("relative metric", "declares a reversion"),
    construction="one ranking a in a context of 0 to 3 other systems; a is scored by the "
                 "metric at its reverting setting (alpha = 0, or in an empty context) and by "
                 "its base metric.",
    relation_text="Q_reverted(a) = Q_base(a) exactly, on every case",
    example_metrics=("RareP(alpha=0.5)@10", None),
)

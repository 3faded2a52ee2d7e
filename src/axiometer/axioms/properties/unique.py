"""Property Unique: the unique-contributions instance counts unique relevant documents.

Clarke et al. (NRG), 2024, Appendix B: with binary ``G``, ``seen(i) = 1`` for
``i <= K`` and ``N = 1``, "the resulting instantiation of NRG is exactly the
number [of] unique contributions a ranking makes to the pool" — relevant
documents in its top ``K`` that no other run (the prior set) has in its top
``K``. For a metric declaring ``counts_unique``, the score must equal that
count, computed here independently of the metric, EXACTLY.

Search coverage (tested in tests/generators/test_search_coverage.py with a cutoff of 3, random search and
small scope unless said): the empty context; an empty prior ranking; the evaluated ranking itself
as a prior; a document only another system retrieves; the empty evaluated ranking; a relevant
document the others do not retrieve; left to the random search: three other systems and a prior
longer than the cutoff.
"""

from __future__ import annotations

from typing import Any

from axiometer.results import Outcome
from axiometer.metrics.decide import evaluate
from axiometer.axioms.properties.base import Property, counterexample, decide_sign, relative_window
from axiometer.core import Context, Topic
from axiometer.generators.case import Case
from axiometer.generators.relative import relative_cases, relative_small_scope
from axiometer.metrics import is_exact_capable
from axiometer.metrics.base import Metric

__all__ = ["UNIQUE", "unique_contributions"]


def unique_contributions(ranking: tuple[str, ...], topic: Topic, context: Context, depth: int | None) -> int:
    """Relevant documents in ``ranking``'s top ``depth`` that no context ranking has in its top ``depth``."""
    pooled = {d for other in context.rankings for d in other[:depth]}
    return sum(1 for d in ranking[:depth] if topic.rel(d) and d not in pooled)


def _judge(metric: Metric, claim: Any, case: Case, tolerance: float) -> Outcome:
    depth = relative_window(metric)
    assert case.context is not None  # the relative cases always carry the other systems
    count = unique_contributions(tuple(case.a), case.topic, case.context, depth)
    q = evaluate(metric, case.a, case.topic, case.context)
    thunk = (lambda: metric.exact(case.a, case.topic, case.context) - count) if is_exact_capable(metric) else None
    sign, exact = decide_sign(float(count), q, thunk, tolerance)
    if sign == 0:
        return Outcome(True)
    return Outcome(False, counterexample(
        case, q, float(count), f"Q = unique relevant contributions in the top {depth} = {count}",
        exact=exact, note=f"{case.note}; score a = the metric, score b = the independent count",
        extra=(("count", str(count)),)))


UNIQUE = Property(
    id="Unique",
    name="Unique contributions",
    wording="The unique-contributions instance of NRG (binary G, seen(i) = 1 to depth K, N = 1) is "
            "exactly the number of unique relevant contributions a ranking makes to the pool.",
    source="Clarke et al. (NRG), 2024, Appendix B",
    form="unary",
    applies=lambda metric: None if metric.counts_unique
    else "the metric does not claim to count unique relevant contributions",
    judge=_judge,
    strategy=relative_cases,
    small_scope=relative_small_scope,
    relation="Q = #unique relevant documents in the top K",
    meaning="A metric that violates it miscounts the relevant documents only this system "
            "contributes to the pool.",
    expectation="should score exactly the number of relevant documents in its top K that no "
                "other system has in its top K",
    conditions=("relative metric", "claims unique counting"),
    construction="one ranking a in a context of 0 to 3 other systems; its score is compared "
                 "with an independent count of its unique relevant contributions.",
    example_metrics=("Unique@10", None),
)

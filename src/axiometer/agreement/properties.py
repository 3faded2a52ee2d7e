"""Properties every implementation of a metric must have, whatever its conventions.

Checked on the queries ``agree`` generated, in the same run:

- **range**: every value lies in the metric's range (``[0, 1]`` for the
  normalised metrics, ``[0, inf)`` otherwise);
- **defined**: a number (not an exception, NaN or a missing value) on
  every query, a query without a relevant document and an empty run among
  them;
- **renaming**: the value does not change when documents are renamed in a
  way that keeps their order as strings (so trec_eval's tie-breaking by id is
  unaffected), nor under any renaming when no two scores tie;
- **reordering**: the value does not change when the judgments' lines are
  reversed, nor when the run's lines are reversed and no two scores tie
  (ties may legitimately follow the line order);
- **determinism**: a second call on the same input gives the same value;
- **independence**: a query's value is the same asked alone as asked with
  the other queries (a batch implementation's, on the first
  :data:`INDEPENDENCE_QUERIES` queries and every edge query).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from axiometer.agreement.conventions import tie_free
from axiometer.agreement.implementations import Failure, Implementation, Outcome, outcome_text
from axiometer.agreement.query import Query, query_text
from axiometer.agreement.result import PropertyCheck
from axiometer.agreement.shrink import shrink
from axiometer.metrics.base import Metric

__all__ = ["check_properties", "value_range", "BOUNDED_FAMILIES", "INDEPENDENCE_QUERIES"]

#: How many queries (besides the edge ones) the independence property asks alone.
INDEPENDENCE_QUERIES = 60

#: Families whose value lies in [0, 1].
BOUNDED_FAMILIES = frozenset({"P", "R", "RR", "AP", "nDCG", "ERR", "RBP", "Rprec", "bpref", "SR", "MSR",
                              "wRprec", "AWP", "Q_measure", "R_measure", "Rnorm", "Pnorm"})


def value_range(metric: Metric) -> tuple[float, float]:
    """The interval every value of ``metric`` lies in."""
    return (0.0, 1.0) if metric.family in BOUNDED_FAMILIES else (0.0, math.inf)


def _same(a: Outcome, b: Outcome, tolerance: float) -> bool:
    if isinstance(a, Failure) or isinstance(b, Failure):
        return isinstance(a, Failure) and isinstance(b, Failure) and a.kind == b.kind
    return a == b or abs(a - b) <= tolerance


def _smallest(indices: Sequence[int], queries: Sequence[Query]) -> int:
    return min(indices, key=lambda i: (queries[i].size, i))


def _in_range(metric: Metric, queries: Sequence[Query], values: Sequence[Outcome]) -> PropertyCheck:
    low, high = value_range(metric)
    statement = f"every value lies in [{low:g}, {'inf' if math.isinf(high) else f'{high:g}'}]"
    bad = [i for i, v in enumerate(values) if not isinstance(v, Failure) and not low <= v <= high]
    if not bad:
        return PropertyCheck("range", statement, True)
    i = _smallest(bad, queries)
    return PropertyCheck("range", statement, False, queries[i], f"value {outcome_text(values[i])}")


def _defined(impl: Implementation, queries: Sequence[Query], values: Sequence[Outcome],
             alone: Mapping[int, Outcome]) -> PropertyCheck:
    """Every outcome a number; the queries with no relevant document or an empty run also asked alone
    (their outcomes in ``alone``): a batch implementation may handle a query among others and fail on
    it by itself."""
    statement = "a number (no exception, NaN or missing value) on every query, alone or among others"
    outcomes: dict[int, Failure] = {i: v for i, v in enumerate(values) if isinstance(v, Failure)}
    outcomes.update({i: v for i, v in alone.items() if isinstance(v, Failure) and i not in outcomes
                     and _edge(queries[i])})
    if not outcomes:
        return PropertyCheck("defined", statement, True)
    by_kind: dict[str, int] = {}
    for i in sorted(outcomes, key=lambda i: (queries[i].size, i)):
        by_kind.setdefault(outcomes[i].kind, i)
    first, *others = sorted(by_kind.values(), key=lambda i: (queries[i].size, i))
    kind = outcomes[first].kind
    smallest = shrink(queries[first], lambda q: _fails_as(impl, q, kind))
    shown = impl.values([smallest])[0]
    alone_only = "" if isinstance(values[first], Failure) else " (asked alone)"
    first_text = f"{_situation(smallest)}{alone_only}: {outcome_text(shown)}"
    detail = "; ".join([first_text] + [f"{_failure_text(i, queries, values, outcomes)} on {query_text(queries[i])}"
                                       for i in others])
    return PropertyCheck("defined", statement, False, smallest, detail)


def _situation(query: Query) -> str:
    return "an empty run" if not query.run else "no relevant document" if query.relevant() == 0 else "a query"


def _fails_as(impl: Implementation, query: Query, kind: str) -> bool:
    outcome = impl.values([query])[0]
    return isinstance(outcome, Failure) and outcome.kind == kind


def _failure_text(i: int, queries: Sequence[Query], values: Sequence[Outcome], outcomes: dict[int, Failure]) -> str:
    what = _situation(queries[i])
    how = " (asked alone)" if not isinstance(values[i], Failure) else ""
    return f"{what}{how}: {outcome_text(outcomes[i])}"


def _fresh_names(query: Query, reverse: bool) -> dict[str, str]:
    """New ids ``x00``, ``x01``, ... for the query's documents in their string order (``reverse``:
    in the opposite order)."""
    ids = sorted({d for d, _ in query.judgments} | {d for d, _ in query.run}, reverse=reverse)
    return {d: f"x{i:02d}" for i, d in enumerate(ids)}


def _invariance(name: str, statement: str, change: Callable[[Query], Query | None],
                impl: Implementation, queries: Sequence[Query], values: Sequence[Outcome],
                tolerance: float) -> PropertyCheck:
    """Whether ``impl`` gives the same outcome on ``change(q)`` as on ``q`` (``None``: not applicable)."""
    pairs = [(i, changed) for i, q in enumerate(queries) if (changed := change(q)) is not None]
    again = impl.values([changed for _, changed in pairs]) if pairs else []
    bad = [(i, changed, v) for (i, changed), v in zip(pairs, again) if not _same(values[i], v, tolerance)]
    if not bad:
        return PropertyCheck(name, statement, True)
    i, changed, v = min(bad, key=lambda row: (queries[row[0]].size, row[0]))
    return PropertyCheck(name, statement, False, queries[i],
                         f"{outcome_text(values[i])} before, {outcome_text(v)} after: {query_text(changed)}")


def check_properties(metric: Metric, impl: Implementation, queries: Sequence[Query],
                     values: Sequence[Outcome], tolerance: float) -> tuple[PropertyCheck, ...]:
    """Every property of the module docstring, on ``queries`` whose outcomes are ``values``."""
    alone = _asked_alone(impl, queries)
    return (
        _in_range(metric, queries, values),
        _defined(impl, queries, values, alone),
        _invariance("renaming", "the same value when documents are renamed (keeping their string order; "
                    "any renaming when no scores tie)",
                    lambda q: q.renamed(_fresh_names(q, reverse=tie_free(q))),
                    impl, queries, values, tolerance),
        _invariance("reordering", "the same value when the judgments' lines are reversed, and the run's "
                    "when no scores tie",
                    lambda q: Query(q.judgments[::-1], q.run[::-1] if tie_free(q) else q.run)
                    if len(q.judgments) > 1 or (len(q.run) > 1 and tie_free(q)) else None,
                    impl, queries, values, tolerance),
        _invariance("determinism", "the same value when called twice", lambda q: q,
                    impl, queries, values, tolerance),
        _independence(queries, values, alone, tolerance),
    )


def _asked_alone(impl: Implementation, queries: Sequence[Query]) -> dict[int, Outcome]:
    """The outcome of each query asked by itself: the first :data:`INDEPENDENCE_QUERIES` and every
    edge query (no relevant document, or an empty run). Both 'defined' and 'independence' read them."""
    return {i: impl.values([q])[0] for i, q in enumerate(queries) if i < INDEPENDENCE_QUERIES or _edge(q)}


def _edge(query: Query) -> bool:
    """A query implementations get wrong most often: no relevant document, or an empty run."""
    return query.relevant() == 0 or not query.run


def _independence(queries: Sequence[Query], values: Sequence[Outcome], alone: Mapping[int, Outcome],
                  tolerance: float) -> PropertyCheck:
    statement = "the same value for a query asked alone as asked with the other queries"
    bad = [i for i in alone if not _same(values[i], alone[i], tolerance)]
    if not bad:
        return PropertyCheck("independence", statement, True)
    i = _smallest(bad, queries)
    return PropertyCheck("independence", statement, False, queries[i],
                         f"{outcome_text(values[i])} with the others, {outcome_text(alone[i])} alone")
